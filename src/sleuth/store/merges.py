"""Rows of `merge_clusters`: a merge recorded (never a rewrite of persons), found again,
and dissolved by a split; each write audited in the caller's transaction. The merged view
itself is read through `store.queries.merged_into`; the rules live in `resolve.merge`."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, insert, select, update

from sleuth.model import MergeCluster
from sleuth.store import schema as t
from sleuth.store.assertions import statuses_of_persons
from sleuth.store.conflicts import conflict_rows
from sleuth.store.hypotheses import hypothesis_ids
from sleuth.store.store import Store


def merge_state(conn: Connection, person_ids: Sequence[str]) -> dict[str, Any]:
    """What a merge may change: assertion statuses, conflict rows, hypothesis ids (kept in
    its audit entry, so that a split can put them back)."""
    return {"assertion_status": statuses_of_persons(conn, person_ids),
            "conflicts": conflict_rows(conn, person_ids),
            "hypotheses": hypothesis_ids(conn)}


def add_cluster(store: Store, conn: Connection, mc: MergeCluster, *, before: dict[str, Any],
                persons: Sequence[str], agent: str) -> None:
    """Record a merge cluster, audited as `merge_created` with `before` (`merge_state`)."""
    conn.execute(insert(t.merge_clusters).values(
        id=mc.id, canonical_id=mc.canonical_id, member_ids=mc.member_ids,
        merge_rationale=mc.merge_rationale, why_not_split=mc.why_not_split,
        is_reversible=True, created_at=mc.created_at, dissolved_at=None,
    ))
    store.audit(conn, "merge_created", "merge_cluster", mc.id, before,
                {"canonical_id": mc.canonical_id, "member_ids": mc.member_ids,
                 "persons": persons}, agent, mc.merge_rationale)


def cluster_row(conn: Connection, cluster_id: str) -> dict[str, Any] | None:
    """The whole row of a merge cluster, or None."""
    mcc = t.merge_clusters.c
    row = conn.execute(select(t.merge_clusters).where(mcc.id == cluster_id)).mappings().first()
    return None if row is None else dict(row)


def active_clusters(conn: Connection, *, also: str | None = None) -> list[tuple[Any, ...]]:
    """(id, canonical, members, created_at) of every cluster not dissolved, and of cluster
    `also` whatever its state."""
    mcc = t.merge_clusters.c
    active = mcc.dissolved_at.is_(None)
    return [tuple(r) for r in conn.execute(
        select(mcc.id, mcc.canonical_id, mcc.member_ids, mcc.created_at)
        .where(active if also is None else active | (mcc.id == also)))]


def state_before(conn: Connection, cluster_id: str) -> dict[str, Any]:
    """What the merge found (`merge_state`), from its `merge_created` audit entry."""
    al = t.audit_log.c
    entry = conn.execute(select(al.before_state).where(
        al.action_type == "merge_created", al.entity_id == cluster_id)).scalar()
    if isinstance(entry, str):
        entry = json.loads(entry)
    return entry or {}


def dissolve_cluster(store: Store, conn: Connection, cluster_id: str, member_ids: list[str],
                     *, when: datetime, agent: str, reason: str) -> None:
    """Mark a cluster dissolved at `when`, audited as `merge_split`."""
    mcc = t.merge_clusters.c
    conn.execute(update(t.merge_clusters).where(mcc.id == cluster_id).values(
        dissolved_at=when))
    store.audit(conn, "merge_split", "merge_cluster", cluster_id, {"dissolved_at": None},
                {"dissolved_at": when.isoformat(), "member_ids": member_ids}, agent, reason)


def outermost_cluster(conn: Connection, canonical_id: str) -> str:
    """The newest active merge cluster whose canonical person is this one."""
    mc = t.merge_clusters.c
    return str(conn.execute(select(mc.id).where(
        mc.canonical_id == canonical_id, mc.dissolved_at.is_(None)).order_by(
        mc.created_at.desc(), mc.id.desc()).limit(1)).scalar_one())
