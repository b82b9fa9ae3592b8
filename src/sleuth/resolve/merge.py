"""Reversible merges on a case store: a MergeCluster, never a rewrite.

A merge writes one `merge_clusters` row (canonical person + members) and changes no person,
assertion value or relationship: the read side (`sleuth.store.queries.merged_into`) shows
the members as the canonical person. Where members disagree (two birth dates), the existing
Analyst adjudicates the pooled claims (seed 001 weights; every alternative kept, tentative
results marked, next actions proposed as hypotheses). That changes assertion *statuses* and
the canonical's conflict rows, so the merge's audit entry records what they were, and
`split` puts every one of them back before dissolving the cluster. Merge then split is the
identity on persons, relationships, assertions, citations and conflicts; hypotheses the
merge proposed are marked Rejected (kept, not deleted). Everything is audited.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection

from sleuth.gps.adjudicate import (
    Claim,
    adjudicate_all,
    apply_conflict,
    mark_vital_order,
    pooled_claims,
)
from sleuth.model import (
    AssertionStatus,
    Hypothesis,
    InputError,
    InvariantViolation,
    MergeCluster,
    NotFound,
    utcnow,
)
from sleuth.model.lifespan import life_conflicts
from sleuth.resolve.identity import groups_of, one_life, register_fit
from sleuth.store import Store
from sleuth.store.assertions import field_values
from sleuth.store.conflicts import restore_conflicts
from sleuth.store.hypotheses import (
    hypotheses_about,
    hypothesis_exists,
    reject_hypothesis,
)
from sleuth.store.kin import next_generation, parents_of, spouses_among
from sleuth.store.merges import (
    active_clusters,
    add_cluster,
    cluster_row,
    dissolve_cluster,
    merge_state,
    state_before,
)
from sleuth.store.persons import canonical_name, names_of, person_rows
from sleuth.store.queries import merge_groups, merged_into, vital_years

AGENT = "Resolver"


def _lineage(conn: Connection, ids: Sequence[str], merged: dict[str, str], *,
             up: bool) -> set[str]:
    """Every ancestor (`up`) or descendant of these persons, as merged persons (a merge
    cluster's canonical id): the merged view, where a parent of one member is a parent of
    them all."""
    groups = merge_groups(merged)
    seen: set[str] = set()
    todo = {merged.get(x, x) for x in ids}
    while todo:
        members = sorted({m for x in todo for m in groups.get(x, {x})})
        found = {merged.get(str(x), str(x))
                 for x in next_generation(conn, members, up=up)}
        todo = found - seen
        seen |= todo
    return seen


def merge_blockers(conn: Connection, ids: Sequence[str], *, judged: bool = False) -> list[str]:
    """Why these persons can never be one (ancestry, spouses, stated sex, two parents, two
    lives, two profiles of one source). `judged`: a person decided they are one, with a
    reason; then what the records only seem to say (two lives: births years apart; two
    profiles of one source) gives way to that judgement, and the records' disagreement
    becomes a conflict to weigh. What no judgement can undo still blocks: a person as their
    own ancestor, spouses of each other, two stated sexes, more than two parents."""
    rows = person_rows(conn, ids)
    missing = [x for x in ids if x not in rows]
    if missing:
        raise NotFound(f"person {missing[0]} does not exist")
    out: list[str] = []
    merged = merged_into(conn)
    one = {merged.get(x, x) for x in ids}
    up, down = _lineage(conn, ids, merged, up=True), _lineage(conn, ids, merged, up=False)
    out += [f"{y} is an ancestor of the others" for y in sorted(up & one)]
    # one's ancestor who is another's descendant: the merged person would be their own
    # ancestor (a mother read as a daughter through another member)
    out += [f"{y} would be both an ancestor and a descendant of the merged person"
            for y in sorted((up & down) - one)]
    spouses = spouses_among(conn, ids)
    out += [f"{x} and {y} are spouses of each other" for x, y in spouses]
    sexes = {rows[x]["sex"] for x in ids} - {"U"}
    if len(sexes) > 1:
        out.append("different sex stated (" + " vs ".join(sorted(sexes)) + ")")
    parents = {merged.get(x, x) for x in parents_of(conn, ids)}
    if len(parents) > 2:
        named = names_of(conn, sorted(parents))
        listed = ", ".join(f"{named.get(x) or 'unnamed'} [{x}]" for x in sorted(
            parents, key=lambda x: (str(named.get(x) or ""), x)))
        out.append(
            f"the merged person would have {len(parents)} parents ({listed}); merge the "
            "duplicate parents first (sleuth merge CASE A B)"
        )
    if not judged:
        out += _impossible_life(conn, ids)
        out += _two_profiles(conn, ids)
    return out


PROFILE_IDS = ("wikitree_id", "wikidata_id", "familysearch_id")  # one per person in a source


def _two_profiles(conn: Connection, ids: Sequence[str]) -> list[str]:
    """Two different profiles of one source (brothers both named Harold, each with his own
    WikiTree page) are two persons until someone who knows says otherwise (review)."""
    seen: dict[str, set[str]] = {}
    for _pid, fld, value in field_values(conn, PROFILE_IDS, ids):
        seen.setdefault(str(fld), set()).add(str(value).strip())
    return [f"two {fld.removesuffix('_id')} profiles ({', '.join(sorted(v))})"
            for fld, v in sorted(seen.items()) if len(v) > 1]


def _impossible_life(conn: Connection, ids: Sequence[str]) -> list[str]:
    """Vital years no one life can hold (`model.lifespan`), between members of different
    clusters (those of one cluster were weighed when it was made) - unless their records
    are one life anyway (`resolve.identity`: the same birth day, name and family), when
    the years that disagree are a conflict to weigh, not two persons."""
    years = vital_years(conn, ids)
    merged = merged_into(conn)
    groups = groups_of(merged, ids)
    out: list[str] = []
    waived: dict[tuple[str, str], bool] = {}
    for i, x in enumerate(ids):
        for y in ids[i + 1:]:
            gx, gy = merged.get(x, x), merged.get(y, y)
            if gx == gy:
                continue
            found = life_conflicts(years.get(x, {}), years.get(y, {}))
            if found and (gx, gy) not in waived:
                waived[(gx, gy)] = (one_life(conn, groups[gx], groups[gy]) is not None
                                    or register_fit(conn, groups[gx], groups[gy]) is not None)
            if found and not waived[(gx, gy)]:
                out += [f"{x} and {y}: {why}" for why in found]
    return out


def _claims(conn: Connection, ids: Sequence[str]) -> dict[str, dict[str, Claim]]:
    """Single-valued claims of all members, by field (the Analyst's own reading, with each
    citation's Evidence Explained classes, pooled)."""
    out: dict[str, dict[str, Claim]] = defaultdict(dict)
    for per_field in pooled_claims(conn, list(ids)).values():
        for field, claims in per_field.items():
            out[field].update(claims)
    return out


def merge(
    store: Store,
    ids: Sequence[str],
    rationale: str,
    *,
    why_not_split: str = "",
    by: str = AGENT,
    judged: bool = False,
) -> MergeCluster:
    """Merge persons into one reversible cluster (the first id is the canonical person);
    `judged`: a person's decision (`merge_blockers`)."""
    with store.transaction() as tx:
        return merge_in(store, tx, ids, rationale, why_not_split=why_not_split, by=by,
                        judged=judged)


def merge_in(
    store: Store,
    tx: Connection,
    ids: Sequence[str],
    rationale: str,
    *,
    why_not_split: str = "",
    by: str = AGENT,
    judged: bool = False,
) -> MergeCluster:
    """`merge` inside the caller's transaction (a review decision and its merge are one).
    `judged`: a person's decision (`merge_blockers`).

    A person already merged is taken with their whole cluster: the new cluster's members
    are the persons the ids stand for now (a cluster's canonical person stands for its
    cluster), so a cluster absorbs another and `split` of the new one gives back exactly the
    clusters there were before. The checks (`merge_blockers`) and the Analyst's
    adjudication see every person of every cluster joined."""
    if len(list(dict.fromkeys(ids))) < 2:
        raise InputError("a merge needs two different persons", field="ids")
    if not rationale.strip():
        raise InputError("a merge needs a rationale", field="rationale")
    merged = merged_into(tx)
    roots = list(dict.fromkeys(merged.get(x, x) for x in ids))
    if len(roots) < 2:
        raise InputError(f"{ids[0]} and {ids[1]} are already one person "
                         f"(merged into {roots[0]})", field="ids")
    persons = leaves(merged, roots)
    blockers = merge_blockers(tx, persons, judged=judged)
    if blockers:
        raise InvariantViolation("cannot merge: " + "; ".join(blockers))
    before = merge_state(tx, persons)
    mc = MergeCluster(canonical_id=roots[0], member_ids=roots, merge_rationale=rationale,
                      why_not_split=why_not_split or "no evidence that they differ")
    add_cluster(store, tx, mc, before=before, persons=persons, agent=by)
    _adjudicate(store, tx, mc, persons)
    return mc


def leaves(merged: dict[str, str], roots: Sequence[str]) -> list[str]:
    """Every person the roots stand for: each root, then its cluster's members by id."""
    out: list[str] = []
    for r in roots:
        out += [r, *sorted(m for m, root in merged.items() if root == r)]
    return out


def _adjudicate(store: Store, conn: Connection, mc: MergeCluster,
                persons: Sequence[str]) -> None:
    """Run the Analyst over the pooled claims of everyone merged, under the canonical id."""
    name = canonical_name(conn, mc.canonical_id) or mc.canonical_id
    pooled = _claims(conn, persons)
    for conflict in adjudicate_all(mc.canonical_id, name, pooled):
        field = conflict.field  # values that agree stay promoted (`analyst.statuses_of`)
        apply_conflict(store, conn, conflict, f"merge {mc.id}")
        for action in conflict.next_actions:
            if not hypothesis_exists(conn, action, mc.canonical_id):
                store.add_hypothesis(conn, Hypothesis(
                    hypothesis_type="conflict_resolution", statement=action,
                    target_person=mc.canonical_id,
                    suggested_queries=[f"{name} {field.replace('_', ' ')}"],
                    priority=0.75 if conflict.is_tentative else 0.5,
                ))
    mark_vital_order(store, conn, pooled)  # across fields too: a birth after the baptism


def split(store: Store, cluster_id: str, *, reason: str = "split on request",
          by: str = AGENT) -> list[str]:
    """Dissolve a merge cluster, restoring every status and conflict it changed."""
    with store.transaction() as tx:
        return split_in(store, tx, cluster_id, reason=reason, by=by)


def grow_in(store: Store, tx: Connection, ids: Sequence[str], rationale: str, *,
            why_not_split: str = "", by: str = AGENT) -> MergeCluster:
    """Merge persons some of whom are already in clusters (`merge_in` takes whole clusters;
    kept under this name for the research loop's callers)."""
    return merge_in(store, tx, ids, rationale, why_not_split=why_not_split, by=by)


def enclosing_cluster(conn: Connection, cluster_id: str) -> str | None:
    """The active cluster that absorbed this one, or None."""
    return enclosing_cluster_of(active_clusters(conn, also=cluster_id), cluster_id)


def enclosing_cluster_of(clusters: Sequence[Any], cluster_id: str) -> str | None:
    """Of active clusters `(id, canonical, members, created_at)`, the one that absorbed
    `cluster_id`: a later cluster with its canonical person among the members."""
    mine = next(c for c in clusters if str(c[0]) == cluster_id)
    for cid, _canonical, members, created in clusters:
        if str(cid) != cluster_id and mine[1] in (members or []) and (
                created, str(cid)) > (mine[3], cluster_id):
            return str(cid)
    return None


def split_in(store: Store, tx: Connection, cluster_id: str, *,
             reason: str = "split on request", by: str = AGENT) -> list[str]:
    """`split` inside the caller's transaction. A cluster another one absorbed is split
    after that one (its statuses are what the larger merge started from)."""
    row = cluster_row(tx, cluster_id)
    if row is None:
        raise NotFound(f"merge cluster {cluster_id} does not exist")
    if row["dissolved_at"] is not None:
        raise InvariantViolation(f"merge cluster {cluster_id} was already split")
    if (outer := enclosing_cluster(tx, cluster_id)) is not None:
        raise InvariantViolation(f"merge cluster {cluster_id} is part of merge cluster "
                                 f"{outer}; split that one first")
    ids = [str(x) for x in row["member_ids"]]
    before = state_before(tx, cluster_id)
    persons = list(dict.fromkeys(leaves(merged_into(tx), ids)))
    for aid, status in (before.get("assertion_status") or {}).items():
        store.set_assertion_status(tx, aid, AssertionStatus(status), agent=by,
                                   reason=f"split of merge {cluster_id}: {reason}")
    restore_conflicts(store, tx, persons, before.get("conflicts") or [], agent=AGENT,
                      reason=f"split of merge {cluster_id}")
    old_h = set(before.get("hypotheses") or [])
    for hid in hypotheses_about(tx, persons):
        if hid not in old_h:
            reject_hypothesis(store, tx, hid, agent=by, reason=f"merge {cluster_id} was split")
    dissolve_cluster(store, tx, cluster_id, ids, when=utcnow(), agent=by, reason=reason)
    return ids
