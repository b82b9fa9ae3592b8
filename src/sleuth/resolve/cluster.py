"""Hard constraints, clustering without transitive errors, and the `resolve` entry point.

Pairwise decisions are not transitive: A~B and B~C do not make A~C when A is C's
grandfather. Clusters are the connected components of the merge edges; a component that
contains any pair known to differ (a hard constraint, or a compared pair scored "separate")
is rebuilt greedily, strongest edge first, never joining two groups across such a pair, and
every piece of it is flagged for review.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from sleuth.resolve import fellegi_sunter as fs
from sleuth.resolve.blocking import BlockingReport, BlockingRule, block, genealogy_rules
from sleuth.resolve.comparator import Comparator
from sleuth.resolve.explain import Proposal, Thresholds, explain
from sleuth.resolve.features import compare, genealogy_comparators, genealogy_sessions
from sleuth.resolve.records import PersonRecord, RecordTable, table_from_records

MAX_LIFESPAN = 120.0


def hard_constraints(t: RecordTable, i: int, j: int) -> list[str]:
    """Reasons two records can never be one person (empty when none applies)."""
    out: list[str] = []
    if t.records:
        ri, rj = t.records[i], t.records[j]
        if rj.id in ri.ancestors:
            out.append(f"{rj.id} is an ancestor of {ri.id}")
        elif ri.id in rj.ancestors:
            out.append(f"{ri.id} is an ancestor of {rj.id}")
        if rj.id in ri.spouses:
            out.append("they are recorded as spouses of each other")
    cols = t.cols
    if "numeral" in cols:  # Henry III and Henry IV, Jr. and Sr., "Twin-Boy_1" and "_2"
        ni, nj = cols["numeral"][i], cols["numeral"][j]
        if ni and nj and ni != nj:
            out.append(f"different numeral or suffix stated ({ni} vs {nj})")
    if "sex" in cols:
        si, sj = cols["sex"][i], cols["sex"][j]
        if si and sj and si != sj:
            out.append(f"different sex stated ({si} vs {sj})")
    if "birth_lo" in cols and "death_hi" in cols:
        b_lo = [x for x in (cols["birth_lo"][i], cols["birth_lo"][j]) if not math.isnan(x)]
        d_hi = [x for x in (cols["death_hi"][i], cols["death_hi"][j]) if not math.isnan(x)]
        b_hi = [x for x in (cols["birth_hi"][i], cols["birth_hi"][j]) if not math.isnan(x)]
        d_lo = [x for x in (cols["death_lo"][i], cols["death_lo"][j]) if not math.isnan(x)]
        if b_lo and d_hi and max(b_lo) > min(d_hi):
            out.append("one was born after the other died (impossible lifespan)")
        elif b_hi and d_lo and max(d_lo) - min(b_hi) > MAX_LIFESPAN:
            out.append(f"the merged lifespan would exceed {int(MAX_LIFESPAN)} years")
    return out


@dataclass
class Cluster:
    members: list[str]
    needs_review: bool = False
    reason: str = ""


@dataclass
class Resolution:
    table: RecordTable
    model: fs.FSModel
    report: BlockingReport
    a: np.ndarray
    b: np.ndarray
    levels: np.ndarray
    weights: np.ndarray
    probability: np.ndarray
    thresholds: Thresholds
    constraints: dict[tuple[int, int], list[str]] = field(default_factory=dict)
    clusters: list[Cluster] = field(default_factory=list)

    def proposal(self, k: int, *, private: bool = False) -> Proposal:
        i, j = int(self.a[k]), int(self.b[k])
        return explain(
            self.model.comparators, self.model.m, self.model.u, self.table, i, j,
            self.levels[k], self.weights[k], float(self.probability[k]),
            self.constraints.get((i, j), []), self.thresholds, private=private,
        )

    def proposals(self, min_probability: float | None = None) -> list[Proposal]:
        """Proposals for pairs at or above `min_probability` (default: the review threshold),
        strongest first; pairs a hard constraint forbids score 0 and are left out."""
        floor = self.thresholds.review if min_probability is None else min_probability
        ks = [k for k in np.argsort(-self.probability, kind="stable").tolist()
              if self.probability[k] >= floor]
        private = {i for i, r in enumerate(self.table.records) if r.is_living}
        return [self.proposal(k, private=bool({int(self.a[k]), int(self.b[k])} & private))
                for k in ks]

    def score_pair(self, i: int, j: int) -> float:
        """Probability for any pair (compared on demand when blocking did not pair them)."""
        a, b = np.array([i]), np.array([j])
        lv = compare(self.model.comparators, self.table, a, b)
        w = fs.contributions(self.model, self.table, a, b, lv)
        return float(fs.probability(self.model, w)[0])


def _find(parent: dict[int, int], x: int) -> int:
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


def cluster(res: Resolution) -> list[Cluster]:
    """Clusters of ≥ 2 records from the merge edges, split where members are known to differ."""
    th = res.thresholds
    edges = [(float(res.probability[k]), int(res.a[k]), int(res.b[k]))
             for k in np.flatnonzero(res.probability >= th.merge).tolist()
             if (int(res.a[k]), int(res.b[k])) not in res.constraints]
    parent: dict[int, int] = {}
    for _, i, j in edges:
        parent.setdefault(i, i)
        parent.setdefault(j, j)
        parent[_find(parent, i)] = _find(parent, j)
    comps: dict[int, list[int]] = {}
    for x in parent:
        comps.setdefault(_find(parent, x), []).append(x)
    scored = {(int(i), int(j)): float(p) for i, j, p in
              zip(res.a.tolist(), res.b.tolist(), res.probability.tolist(), strict=True)}
    out: list[Cluster] = []
    for members in comps.values():
        members.sort()
        cannot: set[tuple[int, int]] = set()
        reasons: list[str] = []
        if len(members) > 2:
            for x in range(len(members)):
                for y in range(x + 1, len(members)):
                    i, j = members[x], members[y]
                    why = hard_constraints(res.table, i, j)
                    p = scored.get((i, j), scored.get((j, i)))
                    if p is None:
                        p = res.score_pair(i, j)
                    if why or p < th.review:
                        cannot.add((i, j))
                        reasons.append(
                            f"{res.table.ids[i]} and {res.table.ids[j]}: "
                            + ("; ".join(why) if why else f"scored {p:.3f} (separate)")
                        )
        if not cannot:
            out.append(Cluster([res.table.ids[i] for i in members]))
            continue
        out.extend(_split(res, members, edges, cannot, "; ".join(reasons)))
    return out


def _split(
    res: Resolution, members: list[int], edges: list[tuple[float, int, int]],
    cannot: set[tuple[int, int]], reason: str,
) -> list[Cluster]:
    """Greedy re-clustering with cannot-link pairs; every piece goes to review."""
    group = {x: {x} for x in members}
    inside = set(members)
    for _, i, j in sorted((e for e in edges if e[1] in inside and e[2] in inside), reverse=True):
        gi, gj = group[i], group[j]
        if gi is gj:
            continue
        if any((min(x, y), max(x, y)) in cannot for x in gi for y in gj):
            continue
        gi |= gj
        for y in gj:
            group[y] = gi
    pieces = {id(g): g for g in group.values()}.values()
    return [Cluster([res.table.ids[i] for i in sorted(g)], True,
                    f"split: members known to differ ({reason})") for g in pieces]


def resolve(
    data: Sequence[PersonRecord] | RecordTable,
    *,
    comparators: list[Comparator] | None = None,
    rules: list[BlockingRule] | None = None,
    thresholds: Thresholds | None = None,
    max_block: int = 400,
    seed: int = 0,
    sessions: list[fs.Session] | None = None,
) -> Resolution:
    """Block, compare, train (EM), score, apply hard constraints and cluster.

    The genealogy comparators train by EM sessions (`genealogy_sessions`) unless told
    otherwise; custom comparators train by one EM over all pairs unless given `sessions`.
    """
    t = data if isinstance(data, RecordTable) else table_from_records(data)
    if comparators is None:
        cmps = genealogy_comparators()
        sessions = genealogy_sessions() if sessions is None else sessions
    else:
        cmps = comparators
    th = thresholds or Thresholds()
    a, b, report = block(t, rules if rules is not None else genealogy_rules(),
                         max_block=max_block)
    model, levels, w, p = fs.fit(cmps, t, a, b, total_pairs=report.total_pairs, seed=seed,
                                 sessions=sessions)
    res = Resolution(t, model, report, a, b, levels, w, p, th)
    if t.records or "birth_lo" in t.cols:
        for k in np.flatnonzero(p >= min(th.review, 0.01)).tolist():
            i, j = int(a[k]), int(b[k])
            why = hard_constraints(t, i, j)
            if why:
                res.constraints[(i, j)] = why
                res.probability[k] = 0.0  # a pair that can never be one person is no match
    res.clusters = cluster(res)
    return res
