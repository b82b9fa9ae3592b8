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
from typing import Any

from sqlalchemy import Connection, delete, insert, select, update

from sleuth.agents.analyst import SINGLE_VALUED, Claim, adjudicate, mark_vital_order
from sleuth.model import (
    AssertionStatus,
    EvidenceType,
    GenDate,
    Hypothesis,
    InputError,
    InvariantViolation,
    MergeCluster,
    NotFound,
    Tier,
    utcnow,
)
from sleuth.model.lifespan import life_conflicts
from sleuth.store import Store
from sleuth.store import schema as t
from sleuth.store.queries import merged_into, vital_years

AGENT = "Resolver"


def _ancestors(conn: Connection, pid: str) -> set[str]:
    r = t.relationships.c
    seen: set[str] = set()
    todo = [pid]
    while todo:
        rows = conn.execute(
            select(r.person1_id).where(r.person2_id.in_(todo), r.relationship_type == "parent")
        ).scalars()
        todo = [x for x in rows if x not in seen]
        seen.update(todo)
    return seen


def merge_blockers(conn: Connection, ids: Sequence[str]) -> list[str]:
    """Why these persons can never be one (ancestry, spouses, stated sex, two parents, two
    lives, two profiles of one source)."""
    p, r = t.persons.c, t.relationships.c
    rows = {m["id"]: m for m in conn.execute(select(t.persons).where(p.id.in_(ids))).mappings()}
    missing = [x for x in ids if x not in rows]
    if missing:
        raise NotFound(f"person {missing[0]} does not exist")
    out: list[str] = []
    idset = set(ids)
    for x in ids:
        anc = _ancestors(conn, x) & idset
        out += [f"{y} is an ancestor of {x}" for y in sorted(anc)]
    spouses = conn.execute(
        select(r.person1_id, r.person2_id).where(
            r.relationship_type == "spouse", r.person1_id.in_(ids), r.person2_id.in_(ids)
        )
    ).all()
    out += [f"{x} and {y} are spouses of each other" for x, y in spouses]
    sexes = {rows[x]["sex"] for x in ids} - {"U"}
    if len(sexes) > 1:
        out.append("different sex stated (" + " vs ".join(sorted(sexes)) + ")")
    merged = merged_into(conn)
    parents = {
        merged.get(x, x)
        for x in conn.execute(
            select(r.person1_id).where(r.person2_id.in_(ids), r.relationship_type == "parent")
        ).scalars()
    }
    if len(parents) > 2:
        out.append(
            f"the merged person would have {len(parents)} parents; merge the duplicate parents "
            "first"
        )
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
    """Vital years no one life can hold, between any two members (`model.lifespan`)."""
    years = vital_years(conn, ids)
    out: list[str] = []
    for i, x in enumerate(ids):
        for y in ids[i + 1:]:
            out += [f"{x} and {y}: {why}" for why in life_conflicts(years.get(x, {}),
                                                                    years.get(y, {}))]
    return out


def _claims(conn: Connection, ids: Sequence[str]) -> dict[str, dict[str, Claim]]:
    """Single-valued claims of all members, by field (the Analyst's own query, pooled)."""
    a, c, s = t.assertions, t.citations, t.snapshots
    rows = conn.execute(
        select(a.c.id, a.c.field_name, a.c.value, a.c.date, a.c.confidence, s.c.evidence_type,
               s.c.tier, t.candidates.c.evidence_type)
        .join(c, c.c.assertion_id == a.c.id)
        .join(s, s.c.id == c.c.snapshot_id)
        .outerjoin(t.candidates, t.candidates.c.id == a.c.candidate_id)
        .where(a.c.entity_id.in_(ids), a.c.field_name.in_(SINGLE_VALUED),
               a.c.status != "rejected")
    ).all()
    out: dict[str, dict[str, Claim]] = defaultdict(dict)
    for aid, field, value, date, conf, snap_ev, tier, cand_ev in rows:
        out[field][aid] = Claim(aid, value, GenDate.model_validate(date) if date else None,
                                EvidenceType(cand_ev or snap_ev), Tier(tier), conf)
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
) -> MergeCluster:
    """Merge persons into one reversible cluster (the first id is the canonical person)."""
    with store.transaction() as tx:
        return merge_in(store, tx, ids, rationale, why_not_split=why_not_split, by=by)


def merge_in(
    store: Store,
    tx: Connection,
    ids: Sequence[str],
    rationale: str,
    *,
    why_not_split: str = "",
    by: str = AGENT,
) -> MergeCluster:
    """`merge` inside the caller's transaction (a review decision and its merge are one)."""
    ids = list(dict.fromkeys(ids))
    if len(ids) < 2:
        raise InputError("a merge needs two different persons", field="ids")
    if not rationale.strip():
        raise InputError("a merge needs a rationale", field="rationale")
    merged = merged_into(tx)
    active = _active_members(tx)
    for x in ids:
        if x in merged or x in active:
            raise InvariantViolation(
                f"person {x} is already in merge cluster {active.get(x, '?')}; split it first"
            )
    blockers = merge_blockers(tx, ids)
    if blockers:
        raise InvariantViolation("cannot merge: " + "; ".join(blockers))
    before = _state(tx, ids)
    mc = MergeCluster(canonical_id=ids[0], member_ids=ids, merge_rationale=rationale,
                      why_not_split=why_not_split or "no evidence that they differ")
    tx.execute(insert(t.merge_clusters).values(
        id=mc.id, canonical_id=mc.canonical_id, member_ids=mc.member_ids,
        merge_rationale=mc.merge_rationale, why_not_split=mc.why_not_split,
        is_reversible=True, created_at=mc.created_at, dissolved_at=None,
    ))
    store.audit(tx, "merge_created", "merge_cluster", mc.id, before,
                {"canonical_id": mc.canonical_id, "member_ids": ids}, by, rationale)
    _adjudicate(store, tx, mc)
    return mc


def _active_members(conn: Connection) -> dict[str, str]:
    mc = t.merge_clusters.c
    out: dict[str, str] = {}
    for cid, members in conn.execute(
        select(mc.id, mc.member_ids).where(mc.dissolved_at.is_(None))
    ).all():
        for m in members or []:
            out[str(m)] = str(cid)
    return out


def _adjudicate(store: Store, conn: Connection, mc: MergeCluster) -> None:
    """Run the Analyst over the pooled claims of the cluster, under the canonical id."""
    name = conn.execute(
        select(t.persons.c.canonical_name).where(t.persons.c.id == mc.canonical_id)
    ).scalar() or mc.canonical_id
    pooled = _claims(conn, mc.member_ids)
    for field, claims in sorted(pooled.items()):
        conflict = adjudicate(mc.canonical_id, name, field, list(claims.values()))
        if conflict is None:
            continue
        store.upsert_conflict(conn, conflict)
        for rc in conflict.competing:
            status = AssertionStatus.CONFLICTING
            if rc.assertion_id == conflict.recommended_assertion_id:
                status = (AssertionStatus.TENTATIVE if conflict.is_tentative
                          else AssertionStatus.PROMOTED)
            store.set_assertion_status(conn, rc.assertion_id, status, agent="Analyst",
                                       reason=f"merge {mc.id}: {conflict.rationale}")
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
    """Merge persons some of whom are already in clusters: the clusters they are in are split
    (restoring what they changed) and one cluster of everyone is made, under the first
    person's canonical id, in one transaction. Splitting it brings back the separate persons.
    """
    active = _active_members(tx)
    mcc = t.merge_clusters.c
    clusters = list(dict.fromkeys(active[x] for x in ids if x in active))
    members: list[str] = []
    for x in ids:
        cid = active.get(x)
        if cid is None:
            members.append(x)
            continue
        canonical, cluster = tx.execute(select(mcc.canonical_id, mcc.member_ids).where(
            mcc.id == cid)).one()
        members += [str(canonical), *(str(m) for m in cluster)]
    for cid in clusters:
        split_in(store, tx, cid, reason=f"grown into a larger merge: {rationale}", by=by)
    return merge_in(store, tx, list(dict.fromkeys(members)), rationale,
                    why_not_split=why_not_split, by=by)


def split_in(store: Store, tx: Connection, cluster_id: str, *,
             reason: str = "split on request", by: str = AGENT) -> list[str]:
    """`split` inside the caller's transaction."""
    mcc = t.merge_clusters.c
    row = tx.execute(select(t.merge_clusters).where(mcc.id == cluster_id)).mappings().first()
    if row is None:
        raise NotFound(f"merge cluster {cluster_id} does not exist")
    if row["dissolved_at"] is not None:
        raise InvariantViolation(f"merge cluster {cluster_id} was already split")
    ids = [str(x) for x in row["member_ids"]]
    entry = tx.execute(select(t.audit_log.c.before_state).where(
        t.audit_log.c.action_type == "merge_created",
        t.audit_log.c.entity_id == cluster_id)).scalar()
    if isinstance(entry, str):
        entry = json.loads(entry)
    before: dict[str, Any] = entry or {}
    for aid, status in (before.get("assertion_status") or {}).items():
        store.set_assertion_status(tx, aid, AssertionStatus(status), agent=by,
                                   reason=f"split of merge {cluster_id}: {reason}")
    _restore_conflicts(store, tx, ids, before.get("conflicts") or [], cluster_id)
    old_h = set(before.get("hypotheses") or [])
    h = t.hypotheses.c
    for hid in tx.execute(select(h.id).where(h.target_person.in_(ids))).scalars():
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
