"""A same-person lead ("Ann Rebecca Stroud may be Ann Rebecca Garside") is settled once a
merge makes its two persons one: it is no longer an open lead, and the change is audited."""

from __future__ import annotations

from sqlalchemy import select

from case_builder import add_person
from sleuth.loop.queues import ClueQueue
from sleuth.model import Agent, Hypothesis
from sleuth.resolve import merge
from sleuth.store import Store
from sleuth.store import schema as t
from sleuth.store.blackboard import SAME_PERSON
from sleuth.store.queries import merged_into


def _lead(store: Store, target: str, other: str) -> str:
    h = Hypothesis(hypothesis_type=SAME_PERSON, statement="Ann Rebecca Stroud (born 1861) may "
                   "be Ann Rebecca Garside", target_person=target, related_person=other,
                   priority=0.5, generated_by=Agent.ANALYST)
    with store.transaction() as conn:
        ClueQueue(store).add(conn, h, agent=str(Agent.ANALYST))
    return h.id


def _status(store: Store, hid: str) -> str:
    with store.engine.connect() as conn:
        return str(conn.execute(select(t.hypotheses.c.status).where(
            t.hypotheses.c.id == hid)).scalar_one())


def test_a_lead_is_settled_when_its_persons_are_merged(store: Store) -> None:
    garside = add_person(store, "Ann Rebecca Garside", "F")
    stroud = add_person(store, "Ann Rebecca Stroud", "F")
    other = add_person(store, "Ann Rebecca Stroud", "F")
    kept, settled = _lead(store, garside, other), _lead(store, garside, stroud)
    clues = ClueQueue(store)
    with store.transaction() as conn:
        assert clues.settle_merged(conn, merged_into(conn)) == 0  # nobody merged yet
    merge(store, [garside, stroud], "the same birth day, names that agree and one father")
    with store.transaction() as conn:
        assert clues.settle_merged(conn, merged_into(conn)) == 1
        assert clues.settle_merged(conn, merged_into(conn)) == 0  # once
    assert _status(store, settled) == "Completed" and _status(store, kept) == "Pending"
    with store.engine.connect() as conn:
        a = t.audit_log.c
        why = conn.execute(select(a.reason).where(a.entity_id == settled, a.action_type ==
                                                  "hypothesis_status")).scalar_one()
    assert "merged into person" in why
