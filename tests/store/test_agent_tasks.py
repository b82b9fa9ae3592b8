"""The blackboard's rows (`sleuth.store.agent_tasks`, issue 22): created once, claimed with a
lease, completed, failed or requeued by their holder only, each transition audited; on
SQLite and on PostgreSQL when one is configured."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from sleuth.store import Store
from sleuth.store import agent_tasks as bb


def _audit(store: Store, task_id: str) -> list[str]:
    with store.engine.connect() as conn:
        return [a for (a,) in conn.execute(text(
            "SELECT action_type FROM audit_log WHERE entity_id = :i ORDER BY id"), {"i": task_id})]


def test_lifecycle_is_audited_and_held_by_its_worker(store: Store) -> None:
    with store.transaction() as tx:
        a = bb.create_task(store, tx, task_type="t", agent="x", snapshot_id=None,
                           parent_id=None, payload={"n": 1}, by="test")
        assert bb.create_task(store, tx, task_type="t", agent="x", snapshot_id=None,
                              parent_id=None, payload={"n": 1}, by="test") == a  # once
        b = bb.create_task(store, tx, task_type="t", agent="x", snapshot_id=None,
                           parent_id=a, payload={"n": 2}, by="test")
    with store.engine.connect() as conn:
        assert [t.id for t in bb.list_tasks(conn)] == [a, b]
        assert [t.id for t in bb.children(conn, a)] == [b]
        assert bb.open_count(conn) == 2
    with store.transaction() as tx:
        got = bb.claim_next(store, tx, "w1", lease_s=600)
    assert got is not None and got.id == a and got.status == "running"
    assert got.claimed_by == "w1" and got.started_at is not None
    with pytest.raises(bb.LeaseLost), store.transaction() as tx:
        bb.complete_task(store, tx, a, "w2", {})  # not w2's
    with store.transaction() as tx:  # a live lease is not taken: the next is b
        nxt = bb.claim_next(store, tx, "w2", lease_s=600)
    assert nxt is not None and nxt.id == b
    with store.transaction() as tx:
        bb.requeue_task(store, tx, a, "w1", {"phase": "waiting"})
        bb.fail_task(store, tx, b, "w2", "one line")
    with store.engine.connect() as conn:
        order = bb.list_tasks(conn)
    assert [(t.id, t.status) for t in order] == [(b, "failed"), (a, "pending")]
    assert order[1].output_data == {"phase": "waiting"} and order[0].error == "one line"
    with store.transaction() as tx:
        again = bb.claim_next(store, tx, "w3", lease_s=600)
        assert again is not None and again.id == a
        bb.complete_task(store, tx, a, "w3", {"done": True})
    with store.engine.connect() as conn:
        done = bb.get_task(conn, a)
        assert bb.open_count(conn) == 0
    assert done is not None and done.status == "completed" and done.completed_at is not None
    assert done.output_data == {"done": True} and done.as_dict()["completed_at"]
    assert _audit(store, a) == ["agent_task_created", "agent_task_claimed",
                                "agent_task_requeued", "agent_task_claimed",
                                "agent_task_completed"]
    assert _audit(store, b) == ["agent_task_created", "agent_task_claimed",
                                "agent_task_failed"]


def test_orphans_are_released_and_a_lapsed_lease_taken_again(store: Store) -> None:
    with store.transaction() as tx:
        a = bb.create_task(store, tx, task_type="t", agent="x", snapshot_id=None,
                           parent_id=None, payload={}, by="test")
        assert bb.claim_next(store, tx, "dead", lease_s=0) is not None
    with store.transaction() as tx:
        taken = bb.claim_next(store, tx, "alive", lease_s=600)
    assert taken is not None and taken.id == a and taken.claimed_by == "alive"
    with store.transaction() as tx:
        assert bb.claim_next(store, tx, "third", lease_s=600) is None
        assert bb.release_orphans(store, tx, "test") == 1
        back = bb.get_task(conn=tx, task_id=a)
    assert back is not None and back.status == "pending" and back.claimed_by is None
    assert _audit(store, a)[-1] == "agent_task_released"
