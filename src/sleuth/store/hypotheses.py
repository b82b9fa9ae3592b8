"""Hypothesis rows the resolver and the Analyst ask about or retire: one proposal per
statement and person, and a split's rejection of what its merge proposed (kept, audited).
New hypotheses go through `Store.add_hypothesis`; the research loop's tasks in `store.tasks`."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import Connection, select, update

from sleuth.store import schema as t
from sleuth.store.store import Store


def hypothesis_exists(conn: Connection, statement: str, person_id: str | None) -> bool:
    """A hypothesis with this statement about this person is already recorded."""
    h = t.hypotheses.c
    return conn.execute(select(h.id).where(
        h.statement == statement, h.target_person == person_id)).first() is not None


def hypothesis_ids(conn: Connection) -> list[Any]:
    """Every hypothesis id, by id (what a merge found, so its split knows what it added;
    in a stable order, so the merge's audit entry is the same on any database)."""
    return list(conn.execute(select(t.hypotheses.c.id).order_by(t.hypotheses.c.id)).scalars())


def hypotheses_about(conn: Connection, person_ids: Iterable[str]) -> list[Any]:
    """Ids of the hypotheses about these persons, by id."""
    h = t.hypotheses.c
    return list(conn.execute(select(h.id).where(h.target_person.in_(list(person_ids)))
                             .order_by(h.id)).scalars())


def reject_hypothesis(store: Store, conn: Connection, hypothesis_id: str, *, agent: str,
                      reason: str) -> None:
    """Mark a hypothesis Rejected (kept, not deleted), audited as `hypothesis_status`."""
    h = t.hypotheses.c
    conn.execute(update(t.hypotheses).where(h.id == hypothesis_id).values(status="Rejected"))
    store.audit(conn, "hypothesis_status", "hypothesis", hypothesis_id, None,
                {"status": "Rejected"}, agent, reason)


def hypothesis_states(conn: Connection) -> list[tuple[str, str, bool, float]]:
    """(id, generated_by, is_fact, priority) of every hypothesis (the invariants)."""
    h = t.hypotheses.c
    return [(str(i), str(b), bool(f), float(p)) for i, b, f, p in conn.execute(
        select(h.id, h.generated_by, h.is_fact, h.priority))]


def hypothesis_adders(conn: Connection) -> list[tuple[str, str]]:
    """(hypothesis id, agent) of every audited addition of a hypothesis."""
    a = t.audit_log.c
    return [(str(e), str(g)) for e, g in conn.execute(select(a.entity_id, a.agent_name).where(
        a.action_type == "hypothesis_added"))]


def same_person_known(conn: Connection, kind: str, target: str, related: str) -> bool:
    """A hypothesis of this kind already joins target to related (either status)."""
    h = t.hypotheses.c
    return conn.execute(select(h.id).where(
        h.hypothesis_type == kind, h.target_person == target,
        h.related_person == related).limit(1)).first() is not None


def pending_statements(conn: Connection, persons: list[str], limit: int) -> list[str]:
    """The statements of pending hypotheses about these persons, most urgent first."""
    h = t.hypotheses.c
    return [str(s) for (s,) in conn.execute(select(h.statement).where(
        h.status == "Pending", h.target_person.in_(persons)).order_by(
        h.priority.desc(), h.statement).limit(limit))]


def hypotheses_like(conn: Connection, prefix: str) -> set[tuple[str, str | None, str]]:
    """(type, target, statement) of every hypothesis whose type starts with `prefix`."""
    h = t.hypotheses.c
    return {(a, b, c) for a, b, c in conn.execute(select(
        h.hypothesis_type, h.target_person, h.statement).where(
        h.hypothesis_type.like(prefix + "%")))}
