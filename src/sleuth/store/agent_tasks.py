"""The blackboard's rows (seed 004): every read and write of `agent_tasks`.

Agents meet only here: one queues a task, another claims it, does it and completes it with
its `output_data`; no agent calls another. A claim is a lease (`claimed_by`, `lease_until`):
a task claimed by a worker that died is taken again once its lease has run out, or at once
by a worker that holds the case's one-writer lock (`release_orphans`: no other worker is
alive). Each status change (created, claimed, released, requeued, completed, failed) is
audited in the caller's transaction; the work a task does commits in the transaction that
completes it, so a kill leaves a task either pending or done, never half done.

Ids are named by content (`stable_id`) and the order of work by `seq`, never by a clock.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Connection, func, insert, select, update

from sleuth.model import stable_id, utcnow
from sleuth.store import schema as t
from sleuth.store.store import Store

STATUSES = ("pending", "running", "completed", "failed")
_C = t.agent_tasks.c


class LeaseLost(RuntimeError):
    """The task is no longer this worker's (its lease ran out and another took it)."""


@dataclass(frozen=True)
class AgentTask:
    id: str
    seq: int
    task_type: str
    agent: str
    status: str
    snapshot_id: str | None
    parent_id: str | None
    input: dict[str, Any]
    output_data: dict[str, Any] | None
    error: str | None
    created_at: datetime | None
    started_at: datetime | None
    completed_at: datetime | None
    claimed_by: str | None
    lease_until: datetime | None

    def as_dict(self) -> dict[str, Any]:
        """The row as JSON gives it (`sleuth tasks --format json`)."""
        out: dict[str, Any] = {}
        for k, v in self.__dict__.items():
            out[k] = v.isoformat() if isinstance(v, datetime) else v
        return out


_COLUMNS = (_C.id, _C.seq, _C.task_type, _C.agent, _C.status, _C.snapshot_id, _C.parent_id,
            _C.input, _C.output_data, _C.error, _C.created_at, _C.started_at,
            _C.completed_at, _C.claimed_by, _C.lease_until)


def _row(r: Any) -> AgentTask:
    return AgentTask(
        id=str(r[0]), seq=int(r[1]), task_type=r[2], agent=r[3], status=r[4],
        snapshot_id=r[5], parent_id=r[6], input=dict(r[7] or {}),
        output_data=None if r[8] is None else dict(r[8]), error=r[9], created_at=r[10],
        started_at=r[11], completed_at=r[12], claimed_by=r[13], lease_until=r[14])


def _aware(d: datetime | None) -> datetime | None:
    return None if d is None else d if d.tzinfo else d.replace(tzinfo=UTC)


def _next_seq(conn: Connection) -> int:
    return int(conn.execute(select(func.coalesce(func.max(_C.seq), 0))).scalar_one()) + 1


def create_task(store: Store, conn: Connection, *, task_type: str, agent: str,
                snapshot_id: str | None, parent_id: str | None, payload: dict[str, Any],
                by: str) -> str:
    """Queue a task (pending, last in order), audited as `agent_task_created`; its id is
    named by what it asks, so asking twice queues it once. Returns its id."""
    tid = stable_id("agent_task", task_type, agent, snapshot_id or "", parent_id or "",
                    json.dumps(payload, sort_keys=True))
    if conn.execute(select(_C.id).where(_C.id == tid)).first() is not None:
        return tid
    conn.execute(insert(t.agent_tasks).values(
        id=tid, seq=_next_seq(conn), task_type=task_type, agent=agent, status="pending",
        snapshot_id=snapshot_id, parent_id=parent_id, input=payload, created_at=utcnow()))
    store.audit(conn, "agent_task_created", "agent_task", tid, None,
                {"status": "pending", "task_type": task_type, "agent": agent}, by)
    return tid


def get_task(conn: Connection, task_id: str) -> AgentTask | None:
    r = conn.execute(select(*_COLUMNS).where(_C.id == task_id)).first()
    return None if r is None else _row(r)


def list_tasks(conn: Connection) -> list[AgentTask]:
    """Every task in the order of work."""
    return [_row(r) for r in conn.execute(select(*_COLUMNS).order_by(_C.seq))]


def children(conn: Connection, parent_id: str) -> list[AgentTask]:
    """The tasks `parent_id` queued, in order."""
    return [_row(r) for r in conn.execute(
        select(*_COLUMNS).where(_C.parent_id == parent_id).order_by(_C.seq))]


def open_count(conn: Connection) -> int:
    """Tasks not yet completed or failed."""
    return int(conn.execute(select(func.count()).select_from(t.agent_tasks).where(
        _C.status.in_(("pending", "running")))).scalar_one())


def release_orphans(store: Store, conn: Connection, by: str) -> int:
    """Every running task back to pending, audited as `agent_task_released`: called by a
    worker that holds the case's writer lock, which proves no other worker is alive (the
    lock dies with its process, `kill -9` included). How many."""
    rows = conn.execute(select(_C.id, _C.claimed_by).where(_C.status == "running")
                        .order_by(_C.seq)).all()
    for tid, holder in rows:
        conn.execute(update(t.agent_tasks).where(_C.id == tid).values(
            status="pending", claimed_by=None, lease_until=None))
        store.audit(conn, "agent_task_released", "agent_task", str(tid),
                    {"status": "running", "claimed_by": holder}, {"status": "pending"}, by,
                    "its worker is gone (the case's writer lock was free)")
    return len(rows)


def claim_next(store: Store, conn: Connection, worker: str, *, lease_s: float,
               among: set[str] | None = None) -> AgentTask | None:
    """The first task in order that is pending, or running on a lease that has run out,
    claimed for `worker` (running, leased for `lease_s` seconds), audited as
    `agent_task_claimed`; `among` limits it to those ids (one pass of `sleuth work
    --once`). None when there is none."""
    now = utcnow()
    rows = conn.execute(select(*_COLUMNS).where(_C.status.in_(("pending", "running")))
                        .order_by(_C.seq)).all()
    for r in rows:
        task = _row(r)
        if among is not None and task.id not in among:
            continue
        lease = _aware(task.lease_until)
        if task.status == "running" and lease is not None and lease > now:
            continue
        until = now + timedelta(seconds=lease_s)
        same = (_C.claimed_by.is_(None) if task.claimed_by is None
                else _C.claimed_by == task.claimed_by)
        took = conn.execute(update(t.agent_tasks).where(  # only if no one took it meanwhile
            _C.id == task.id, _C.status == task.status, same).values(
            status="running", started_at=now, claimed_by=worker, lease_until=until))
        if took.rowcount != 1:
            continue
        store.audit(conn, "agent_task_claimed", "agent_task", task.id,
                    {"status": task.status, "claimed_by": task.claimed_by},
                    {"status": "running", "claimed_by": worker}, worker)
        return get_task(conn, task.id)
    return None


def _held(conn: Connection, task_id: str, worker: str) -> AgentTask:
    task = get_task(conn, task_id)
    if task is None or task.status != "running" or task.claimed_by != worker:
        raise LeaseLost(f"agent task {task_id} is no longer claimed by {worker}")
    return task


def complete_task(store: Store, conn: Connection, task_id: str, worker: str,
                  output_data: dict[str, Any]) -> None:
    """The worker's claimed task done, with its `output_data`, audited."""
    _held(conn, task_id, worker)
    conn.execute(update(t.agent_tasks).where(_C.id == task_id).values(
        status="completed", completed_at=utcnow(), output_data=output_data, lease_until=None))
    store.audit(conn, "agent_task_completed", "agent_task", task_id, {"status": "running"},
                {"status": "completed"}, worker)


def fail_task(store: Store, conn: Connection, task_id: str, worker: str, error: str,
              output_data: dict[str, Any] | None = None) -> None:
    """The worker's claimed task failed with a one-line `error`, audited."""
    _held(conn, task_id, worker)
    conn.execute(update(t.agent_tasks).where(_C.id == task_id).values(
        status="failed", completed_at=utcnow(), error=error, output_data=output_data,
        lease_until=None))
    store.audit(conn, "agent_task_failed", "agent_task", task_id, {"status": "running"},
                {"status": "failed", "error": error}, worker)


def requeue_task(store: Store, conn: Connection, task_id: str, worker: str,
                 note: dict[str, Any]) -> None:
    """The worker's claimed task back to pending, last in order (a Head Detective waiting
    for the tasks it queued), with `note` as its output so far; audited."""
    _held(conn, task_id, worker)
    conn.execute(update(t.agent_tasks).where(_C.id == task_id).values(
        status="pending", seq=_next_seq(conn), claimed_by=None, lease_until=None,
        output_data=note))
    store.audit(conn, "agent_task_requeued", "agent_task", task_id, {"status": "running"},
                {"status": "pending"}, worker)
