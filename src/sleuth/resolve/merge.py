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

import json
from collections import defaultdict
from collections.abc import Sequence
from functools import cache
from typing import Any

from sqlalchemy import (
    BindParameter,
    Connection,
    Select,
    bindparam,
    delete,
    insert,
    select,
    update,
)

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
from sleuth.store import schema as t
from sleuth.store.queries import merge_groups, merged_into, vital_years

AGENT = "Resolver"


def _lineage(conn: Connection, ids: Sequence[str], merged: dict[str, str], *,
             up: bool) -> set[str]:
    """Every ancestor (`up`) or descendant of these persons, as merged persons (a merge
    cluster's canonical id): the merged view, where a parent of one member is a parent of
    them all."""
    groups = merge_groups(merged)
    step = _step_sql(up)
    seen: set[str] = set()
    todo = {merged.get(x, x) for x in ids}
    while todo:
        members = sorted({m for x in todo for m in groups.get(x, {x})})
        found = {merged.get(str(x), str(x))
                 for x in conn.execute(step, {"ids": members}).scalars()}
        todo = found - seen
        seen |= todo
    return seen


@cache
def _step_sql(up: bool) -> Select[Any]:
    """One generation up (parents) or down (children) of some persons; built once, as
    every merge check walks the lines."""
    r = t.relationships.c
    near, far = (r.person2_id, r.person1_id) if up else (r.person1_id, r.person2_id)
    return select(far).where(near.in_(bindparam("ids", expanding=True)),
                             r.relationship_type == "parent")


@cache
def _blocker_sql() -> dict[str, Select[Any]]:
    """`merge_blockers`' reads of the persons themselves, built once (asked for every pair
    a resolution pass weighs)."""
    p, r = t.persons.c, t.relationships.c
    ids: BindParameter[str] = bindparam("ids", expanding=True)  # a list of person ids
    return {
        "persons": select(t.persons).where(p.id.in_(ids)),
        "spouses": select(r.person1_id, r.person2_id).where(
            r.relationship_type == "spouse", r.person1_id.in_(ids), r.person2_id.in_(ids)),
        "parents": select(r.person1_id).where(r.person2_id.in_(ids),
                                              r.relationship_type == "parent"),
    }


def merge_blockers(conn: Connection, ids: Sequence[str], *, judged: bool = False) -> list[str]:
    """Why these persons can never be one (ancestry, spouses, stated sex, two parents, two
    lives, two profiles of one source). `judged`: a person decided they are one, with a
    reason; then what the records only seem to say (two lives: births years apart; two
    profiles of one source) gives way to that judgement, and the records' disagreement
    becomes a conflict to weigh. What no judgement can undo still blocks: a person as their
    own ancestor, spouses of each other, two stated sexes, more than two parents."""
    p = t.persons.c
    sql, some = _blocker_sql(), {"ids": list(ids)}
    rows = {m["id"]: m for m in conn.execute(sql["persons"], some).mappings()}
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
    spouses = conn.execute(sql["spouses"], some).all()
    out += [f"{x} and {y} are spouses of each other" for x, y in spouses]
    sexes = {rows[x]["sex"] for x in ids} - {"U"}
    if len(sexes) > 1:
        out.append("different sex stated (" + " vs ".join(sorted(sexes)) + ")")
    parents = {merged.get(x, x) for x in conn.execute(sql["parents"], some).scalars()}
    if len(parents) > 2:
        named = dict(conn.execute(select(p.id, p.canonical_name).where(
            p.id.in_(sorted(parents)))).all())
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
    a = t.assertions.c
    seen: dict[str, set[str]] = {}
    for fld, value in conn.execute(select(a.field_name, a.value).where(
            a.entity_id.in_(list(ids)), a.field_name.in_(PROFILE_IDS), a.status != "rejected")):
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


def _state(conn: Connection, ids: Sequence[str]) -> dict[str, Any]:
    """What a merge may change: assertion statuses, conflict rows, hypothesis ids."""
    a, cf = t.assertions.c, t.conflicts
    statuses = dict(conn.execute(select(a.id, a.status).where(a.entity_id.in_(ids))).all())
    conflicts = [dict(m) for m in conn.execute(
        select(cf).where(cf.c.person_id.in_(ids))).mappings()]
    hyps = list(conn.execute(select(t.hypotheses.c.id)).scalars())
    return {"assertion_status": statuses, "conflicts": conflicts, "hypotheses": hyps}


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
    before = _state(tx, persons)
    mc = MergeCluster(canonical_id=roots[0], member_ids=roots, merge_rationale=rationale,
                      why_not_split=why_not_split or "no evidence that they differ")
    tx.execute(insert(t.merge_clusters).values(
        id=mc.id, canonical_id=mc.canonical_id, member_ids=mc.member_ids,
        merge_rationale=mc.merge_rationale, why_not_split=mc.why_not_split,
        is_reversible=True, created_at=mc.created_at, dissolved_at=None,
    ))
    store.audit(tx, "merge_created", "merge_cluster", mc.id, before,
                {"canonical_id": mc.canonical_id, "member_ids": roots, "persons": persons},
                by, rationale)
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
    name = conn.execute(
        select(t.persons.c.canonical_name).where(t.persons.c.id == mc.canonical_id)
    ).scalar() or mc.canonical_id
    pooled = _claims(conn, persons)
    for conflict in adjudicate_all(mc.canonical_id, name, pooled):
        field = conflict.field  # values that agree stay promoted (`analyst.statuses_of`)
        apply_conflict(store, conn, conflict, f"merge {mc.id}")
        for action in conflict.next_actions:
            exists = conn.execute(select(t.hypotheses.c.id).where(
                t.hypotheses.c.statement == action,
                t.hypotheses.c.target_person == mc.canonical_id)).first()
            if exists is None:
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
    mcc = t.merge_clusters.c
    return enclosing_cluster_of(conn.execute(select(
        mcc.id, mcc.canonical_id, mcc.member_ids, mcc.created_at).where(
        mcc.dissolved_at.is_(None) | (mcc.id == cluster_id))).all(), cluster_id)


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
    mcc = t.merge_clusters.c
    row = tx.execute(select(t.merge_clusters).where(mcc.id == cluster_id)).mappings().first()
    if row is None:
        raise NotFound(f"merge cluster {cluster_id} does not exist")
    if row["dissolved_at"] is not None:
        raise InvariantViolation(f"merge cluster {cluster_id} was already split")
    if (outer := enclosing_cluster(tx, cluster_id)) is not None:
        raise InvariantViolation(f"merge cluster {cluster_id} is part of merge cluster "
                                 f"{outer}; split that one first")
    ids = [str(x) for x in row["member_ids"]]
    entry = tx.execute(select(t.audit_log.c.before_state).where(
        t.audit_log.c.action_type == "merge_created",
        t.audit_log.c.entity_id == cluster_id)).scalar()
    if isinstance(entry, str):
        entry = json.loads(entry)
    before: dict[str, Any] = entry or {}
    persons = list(dict.fromkeys(leaves(merged_into(tx), ids)))
    for aid, status in (before.get("assertion_status") or {}).items():
        store.set_assertion_status(tx, aid, AssertionStatus(status), agent=by,
                                   reason=f"split of merge {cluster_id}: {reason}")
    _restore_conflicts(store, tx, persons, before.get("conflicts") or [], cluster_id)
    old_h = set(before.get("hypotheses") or [])
    h = t.hypotheses.c
    for hid in tx.execute(select(h.id).where(h.target_person.in_(persons))
                          .order_by(h.id)).scalars():
        if hid not in old_h:
            tx.execute(update(t.hypotheses).where(h.id == hid).values(status="Rejected"))
            store.audit(tx, "hypothesis_status", "hypothesis", hid, None,
                        {"status": "Rejected"}, by, f"merge {cluster_id} was split")
    now = utcnow()
    tx.execute(update(t.merge_clusters).where(mcc.id == cluster_id).values(dissolved_at=now))
    store.audit(tx, "merge_split", "merge_cluster", cluster_id, {"dissolved_at": None},
                {"dissolved_at": now.isoformat(), "member_ids": ids}, by, reason)
    return ids


def _restore_conflicts(store: Store, conn: Connection, ids: Sequence[str],
                       old: list[dict[str, Any]], cluster_id: str) -> None:
    cf = t.conflicts
    keep = {(str(r["person_id"]), str(r["field"])): r for r in old}
    now = {(m["person_id"], m["field"]): dict(m) for m in
           conn.execute(select(cf).where(cf.c.person_id.in_(ids))).mappings()}
    for key, cur in now.items():
        prev = keep.get(key)
        if prev is not None and _same_row(cur, prev):
            continue
        conn.execute(delete(cf).where(cf.c.id == cur["id"]))
        if prev is not None:
            conn.execute(insert(cf).values(**_row_values(prev)))
        store.audit(conn, "conflict_restored", "person", key[0], {"field": key[1]},
                    {"restored": prev is not None}, AGENT, f"split of merge {cluster_id}")


def _row_values(r: dict[str, Any]) -> dict[str, Any]:
    from datetime import datetime

    out = dict(r)
    if isinstance(out.get("updated_at"), str):
        out["updated_at"] = datetime.fromisoformat(out["updated_at"])
    return out


def _same_row(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return json.dumps(a, default=str, sort_keys=True) == json.dumps(
        _row_values(b), default=str, sort_keys=True)
