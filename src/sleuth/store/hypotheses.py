"""Hypothesis rows the resolver and the Analyst ask about or retire: one proposal per
statement and person, and a split's rejection of what its merge proposed (kept, audited).
New hypotheses go through `Store.add_hypothesis`; the research loop's in `store.tasks`."""

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
    """Every hypothesis id (what a merge found, so its split knows what it added)."""
    return list(conn.execute(select(t.hypotheses.c.id)).scalars())


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
