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


def _task(store: Store, tx: object, kind: str, parent: str | None = None, n: int = 0) -> str:
    return bb.create_task(store, tx, task_type=kind, agent=kind, snapshot_id=None,  # type: ignore[arg-type]
                          parent_id=parent, payload={"n": n}, by="test")


def test_serial_tasks_run_in_lineage_order_whoever_queues_first(store: Store) -> None:
    """Issue 26: two workers' Head Detectives delegate in either order; the serial task
    (metadata) of the first document still runs first, and a parent waiting for its tasks
    is not claimed again until they are done."""
    claim = {"serial": {"meta"}, "queued_by": {"head"}}
    with store.transaction() as tx:
        h1, h2 = _task(store, tx, "head", n=1), _task(store, tx, "head", n=2)
    with store.transaction() as tx:
        assert bb.claim_next(store, tx, "w1", lease_s=600, **claim).id == h1  # type: ignore[union-attr]
        assert bb.claim_next(store, tx, "w2", lease_s=600, **claim).id == h2  # type: ignore[union-attr]
    with store.transaction() as tx:  # the second document's head delegates first
        m2 = _task(store, tx, "meta", h2, n=2)
        bb.requeue_task(store, tx, h2, "w2", {"phase": "delegated"})
    with store.transaction() as tx:  # m2 waits: h1 may yet queue one before it
        assert bb.claim_next(store, tx, "w3", lease_s=600, **claim) is None
    with store.transaction() as tx:
        m1 = _task(store, tx, "meta", h1, n=1)
        bb.requeue_task(store, tx, h1, "w1", {"phase": "delegated"})
    with store.engine.connect() as conn:
        lineages = {x.id: (x.lineage, x.turn) for x in bb.list_tasks(conn)}
    assert lineages[h1] == ("0000000001", 1) and lineages[m1] == ("0000000001.000001", 0)
    assert lineages[m2] == ("0000000002.000001", 0)
    with store.transaction() as tx:
        first = bb.claim_next(store, tx, "w3", lease_s=600, **claim)
        assert first is not None and first.id == m1  # queued later, but first in lineage
        assert bb.claim_next(store, tx, "w4", lease_s=600, **claim) is None  # one at a time
        bb.complete_task(store, tx, m1, "w3", {})
    with store.transaction() as tx:  # m2 is next in line; h1's tasks are done: h1 too
        nxt = bb.claim_next(store, tx, "w4", lease_s=600, **claim)
        again = bb.claim_next(store, tx, "w3", lease_s=600, **claim)
    assert nxt is not None and nxt.id == m2
    assert again is not None and again.id == h1 and again.turn == 1


def test_a_lost_claim_settles_nothing(store: Store) -> None:
    """A worker whose lapsed lease another took cannot complete the task afterwards."""
    with store.transaction() as tx:
        a = _task(store, tx, "t")
        assert bb.claim_next(store, tx, "slow", lease_s=0) is not None
    with store.transaction() as tx:
        assert bb.claim_next(store, tx, "fast", lease_s=600) is not None
        assert not bb.renew_lease(tx, a, "slow", 600)
        assert bb.renew_lease(tx, a, "fast", 600)
    for settle in (lambda tx: bb.complete_task(store, tx, a, "slow", {}),
                   lambda tx: bb.fail_task(store, tx, a, "slow", "x"),
                   lambda tx: bb.requeue_task(store, tx, a, "slow", {})):
        with pytest.raises(bb.LeaseLost), store.transaction() as tx:
            settle(tx)
    with store.engine.connect() as conn:
        task = bb.get_task(conn, a)
    assert task is not None and task.status == "running" and task.claimed_by == "fast"


def test_migration_0013_gives_existing_tasks_a_lineage(db_url: str) -> None:
    from alembic import command
    from sqlalchemy import column, insert, table

    from sleuth.model import utcnow
    from sleuth.store.db import _config, make_engine

    engine = make_engine(db_url)
    try:
        cfg = _config()
        with engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "0010")
            names = ("id", "seq", "task_type", "agent", "status", "parent_id", "input",
                     "created_at")
            before = table("agent_tasks", *(column(n) for n in names))  # as 0010 made it
            rows = [("h", 3, None), ("k1", 1, "h"), ("k2", 2, "h"), ("r", 4, None)]  # h requeued
            for tid, seq, parent in rows:
                conn.execute(insert(before).values(
                    id=tid, seq=seq, task_type="x", agent="x", status="pending",
                    parent_id=parent, input="{}", created_at=utcnow()))
        with engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")
        with engine.connect() as conn:
            got = {x.id: (x.lineage, x.turn) for x in bb.list_tasks(conn)}
    finally:
        engine.dispose()
    assert got == {"h": ("0000000003", 0), "k1": ("0000000003.000001", 0),
                   "k2": ("0000000003.000002", 0), "r": ("0000000004", 0)}
