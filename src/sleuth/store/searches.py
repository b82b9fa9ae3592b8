"""What was searched: the Scout's source accesses in the research log, and the negative
evidence recorded from searches that found nothing (append-only, audited). `sleuth.gps.
coverage` reads and writes them only through here (issue 21: the store is the door)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, select

from sleuth.model import Snapshot, utcnow
from sleuth.store import schema as t
from sleuth.store.rows import row_to_snapshot
from sleuth.store.store import Store


def scout_accesses(conn: Connection) -> list[tuple[Any, ...]]:
    """(seq, timestamp, context, rationale) of every source access the Scout logged."""
    r = t.research_log.c
    return [tuple(row) for row in conn.execute(
        select(r.seq, r.timestamp, r.context, r.rationale)
        .where(r.action_type == "source_access", r.agent == "Scout").order_by(r.seq))]


def negative_keys(conn: Connection) -> set[tuple[str, str, str]]:
    """(person, question, snapshot) of every negative-evidence statement recorded."""
    ne = t.negative_evidence.c
    return {(str(a), str(b), str(c)) for a, b, c in conn.execute(
        select(ne.person_id, ne.question, ne.snapshot_id))}


def add_negative(store: Store, conn: Connection, values: dict[str, Any], *, agent: str) -> None:
    """Record one negative-evidence statement (`values`: the row but its time), audited."""
    row = {**values, "recorded_at": utcnow()}
    conn.execute(t.negative_evidence.insert().values(**row))
    store.audit(conn, "negative_evidence_recorded", "person", str(values["person_id"]), None,
                dict(values), agent, str(values["statement"]))


def negative_rows(store: Store) -> list[dict[str, Any]]:
    """Every negative-evidence statement, in the order of the searches behind them."""
    with store.engine.connect() as conn:
        return [dict(m) for m in conn.execute(
            select(t.negative_evidence).order_by(t.negative_evidence.c.log_seq)).mappings()]


def run_entries(conn: Connection) -> list[tuple[Any, ...]]:
    """(agent, action, context) of the research log's plan, decision and termination
    entries, in order: what the run was asked, whom it took for the seed, why it stopped."""
    r = t.research_log.c
    return [tuple(row) for row in conn.execute(
        select(r.agent, r.action_type, r.context).where(
            r.action_type.in_(("plan", "decision", "termination"))).order_by(r.seq))]


def snapshots_by_id(conn: Connection, ids: set[str]) -> dict[str, Snapshot]:
    """The stored snapshots of these ids (those that exist)."""
    if not ids:
        return {}
    return {row.id: row_to_snapshot(row) for row in conn.execute(
        select(t.snapshots).where(t.snapshots.c.id.in_(sorted(ids))))}
