"""The blackboard's rows (seed 004): every read and write of `agent_tasks`.

Agents meet only here: one queues a task, another claims it, does it and completes it with
its `output_data`; no agent calls another. A claim is a lease (`claimed_by`, `lease_until`)
that its worker renews while it works (`renew_lease`). Several workers may share a case
(issue 26), on one machine or, on PostgreSQL, on many; each claims one task at a time, and
no task is claimed by two at once:

- on PostgreSQL the claim reads the first claimable task `FOR UPDATE SKIP LOCKED` (a task
  another worker is claiming is passed over, not waited for); on SQLite the claim holds the
  database's write lock from its first statement. On both, the claim and the queueing of new
  tasks take one lock (`queue_lock`), so a claim sees every task queued before it and `seq`
  is never drawn twice; and the claim itself is a compare-and-set on the row's status and
  holder;
- a worker that died is noticed two ways: its presence (`worker_presence`: a PostgreSQL
  advisory lock held on its own connection, or an flock'd file beside a SQLite database)
  dies with its process, `kill -9` included, so `release_orphans` gives its tasks back at
  once; and where its presence cannot be read (a SQLite case worked from another machine)
  its lease runs out and the task is taken again;
- a task that queued tasks and went back to wait for them (`requeue_task`) is not claimed
  again until they are all done or failed, so no worker spins on it;
- a serial task type (the caller names them: the documents domain's metadata agent, whose
  entity register depends on the order documents are read) runs one task at a time, in the
  order of its `lineage` (fixed when it is queued), whichever worker takes it. With the
  ids a task draws named by the task and its `turn`, two workers write what one writes.

Each status change (created, claimed, released, requeued, completed, failed) is audited in
the caller's transaction; the work a task does commits in the transaction that completes it,
so a kill leaves a task either pending or done, never half done.

Ids are named by content (`stable_id`) and the order of work by `seq`, never by a clock.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import socket
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, and_, exists, func, insert, or_, select, text, update
from sqlalchemy.exc import DBAPIError

from sleuth.model import stable_id, utcnow
from sleuth.store import schema as t
from sleuth.store.store import Store

STATUSES = ("pending", "running", "completed", "failed")
OPEN = ("pending", "running")
_C = t.agent_tasks.c
# The queue's lock on PostgreSQL (a transaction-level advisory lock), and the key space of
# the workers' presence locks (session-level, one per worker name).
QUEUE_KEY = int.from_bytes(b"sleuthq\x00", "big") & 0x7FFF_FFFF_FFFF_FFFF
_LINEAGE_ROOT = "{:010d}"
_LINEAGE_CHILD = "{}.{:06d}"


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
    lineage: str = ""
    turn: int = 0

    def as_dict(self) -> dict[str, Any]:
        """The row as JSON gives it (`sleuth tasks --format json`)."""
        out: dict[str, Any] = {}
        for k, v in self.__dict__.items():
            out[k] = v.isoformat() if isinstance(v, datetime) else v
        return out


_COLUMNS = (_C.id, _C.seq, _C.task_type, _C.agent, _C.status, _C.snapshot_id, _C.parent_id,
            _C.input, _C.output_data, _C.error, _C.created_at, _C.started_at,
            _C.completed_at, _C.claimed_by, _C.lease_until, _C.lineage, _C.turn)


def _row(r: Any) -> AgentTask:
    return AgentTask(
        id=str(r[0]), seq=int(r[1]), task_type=r[2], agent=r[3], status=r[4],
        snapshot_id=r[5], parent_id=r[6], input=dict(r[7] or {}),
        output_data=None if r[8] is None else dict(r[8]), error=r[9], created_at=r[10],
        started_at=r[11], completed_at=r[12], claimed_by=r[13], lease_until=r[14],
        lineage=str(r[15] or ""), turn=int(r[16] or 0))


def queue_lock(conn: Connection) -> None:
    """Hold the queue for the rest of the caller's transaction: claims and the queueing of
    tasks (which draws `seq`) take it, so they happen one after another. PostgreSQL: a
    transaction-level advisory lock; SQLite: the database's write lock, taken now rather
    than at the first write (so what the transaction reads first is what it writes on)."""
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": QUEUE_KEY})
    else:
        conn.execute(update(t.agent_tasks).where(_C.seq < 0).values(seq=_C.seq))


def _next_seq(conn: Connection) -> int:
    queue_lock(conn)
    return int(conn.execute(select(func.coalesce(func.max(_C.seq), 0))).scalar_one()) + 1


def _lineage(conn: Connection, parent_id: str | None, seq: int) -> str:
    """Where a new task stands: under its parent, after the children it already queued;
    a task with no parent (queued by ingest), by its place in the queue."""
    if parent_id is not None:
        parent = conn.execute(select(_C.lineage).where(_C.id == parent_id)).scalar()
        if parent:
            born = int(conn.execute(select(func.count()).select_from(t.agent_tasks)
                                    .where(_C.parent_id == parent_id)).scalar_one())
            return _LINEAGE_CHILD.format(parent, born + 1)
    return _LINEAGE_ROOT.format(seq)


def create_task(store: Store, conn: Connection, *, task_type: str, agent: str,
                snapshot_id: str | None, parent_id: str | None, payload: dict[str, Any],
                by: str) -> str:
    """Queue a task (pending, last in order), audited as `agent_task_created`; its id is
    named by what it asks, so asking twice queues it once. Returns its id."""
    tid = stable_id("agent_task", task_type, agent, snapshot_id or "", parent_id or "",
                    json.dumps(payload, sort_keys=True))
    seq = _next_seq(conn)  # the queue's lock first: the check below then holds
    if conn.execute(select(_C.id).where(_C.id == tid)).first() is not None:
        return tid
    conn.execute(insert(t.agent_tasks).values(
        id=tid, seq=seq, task_type=task_type, agent=agent, status="pending",
        snapshot_id=snapshot_id, parent_id=parent_id, input=payload, created_at=utcnow(),
        lineage=_lineage(conn, parent_id, seq), turn=0))
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


def release_orphans(store: Store, conn: Connection, by: str,
                    dead: Callable[[str], bool] | None = None) -> int:
    """Running tasks back to pending, audited as `agent_task_released`: those whose worker
    `dead(worker)` says is gone (`worker_presence`), or, without `dead`, every one (for a
    caller that holds the case's writer lock, which proves no other worker is alive: the
    lock dies with its process, `kill -9` included). How many."""
    rows = conn.execute(select(_C.id, _C.claimed_by).where(_C.status == "running")
                        .order_by(_C.seq)).all()
    gone = [(tid, holder) for tid, holder in rows
            if dead is None or (holder is not None and dead(str(holder)))]
    for tid, holder in gone:
        took = conn.execute(update(t.agent_tasks).where(
            _C.id == tid, _C.status == "running",
            _C.claimed_by.is_(None) if holder is None else _C.claimed_by == holder).values(
            status="pending", claimed_by=None, lease_until=None))
        if took.rowcount != 1:
            continue
        store.audit(conn, "agent_task_released", "agent_task", str(tid),
                    {"status": "running", "claimed_by": holder}, {"status": "pending"}, by,
                    "its worker is gone (the case's writer lock was free)" if dead is None
                    else "its worker is gone (its presence lock was free)")
    return len(gone)


def _claimable(now: datetime, among: Collection[str] | None, serial: Collection[str],
               queued_by: Collection[str], pg: bool) -> Any:
    """The query for the first claimable task, in the order of work: pending, or running
    on a lease that has run out; not gone back to wait for tasks it queued that are still
    open. A task of a serial type, besides, must be the first open task of its type in
    lineage order (one that waits for tasks it queued is not in the way), and no task of a
    `queued_by` type earlier in lineage order may still be on its first turn (it may yet
    queue a serial task before this one)."""
    def lineage(col: Any) -> Any:  # digits and dots compared byte by byte, whatever locale
        return col.collate("C") if pg else col

    kid = t.agent_tasks.alias("kid")
    q = select(*_COLUMNS).where(
        or_(_C.status == "pending",
            and_(_C.status == "running",
                 or_(_C.lease_until.is_(None), _C.lease_until <= now))),
        or_(_C.turn == 0, ~exists().where(kid.c.parent_id == _C.id, kid.c.status.in_(OPEN))))
    if among is not None:
        q = q.where(_C.id.in_(sorted(among)))
    if serial:
        first, wait = t.agent_tasks.alias("first"), t.agent_tasks.alias("wait")
        head = (select(first.c.id).where(
            first.c.task_type == _C.task_type, first.c.status.in_(OPEN),
            or_(first.c.turn == 0,
                ~exists().where(wait.c.parent_id == first.c.id, wait.c.status.in_(OPEN))))
                .order_by(lineage(first.c.lineage), first.c.seq).limit(1).scalar_subquery())
        ok = _C.id == head
        if queued_by:
            up = t.agent_tasks.alias("up")
            ok = and_(ok, ~exists().where(
                up.c.task_type.in_(sorted(queued_by)), up.c.status.in_(OPEN), up.c.turn == 0,
                lineage(up.c.lineage) < lineage(_C.lineage)))
        q = q.where(or_(_C.task_type.not_in(sorted(serial)), ok))
    return q.order_by(_C.seq).limit(1)


def claim_next(store: Store, conn: Connection, worker: str, *, lease_s: float,
               among: Collection[str] | None = None, serial: Collection[str] = (),
               queued_by: Collection[str] = ()) -> AgentTask | None:
    """The first task in order that is pending, or running on a lease that has run out,
    claimed for `worker` (running, leased for `lease_s` seconds), audited as
    `agent_task_claimed`; `among` limits it to those ids (one pass of `sleuth work
    --once`). A task waiting for the tasks it queued is not claimed until they are done.
    `serial` names the task types that run one at a time in lineage order, and `queued_by`
    the task types that queue them (on their first turn): a serial task waits until every
    such task before it in lineage order has had its first turn, so the serial tasks run in
    the same order whatever the number of workers. None when there is none. Safe with
    other workers claiming at the same time (see the module's note)."""
    queue_lock(conn)
    now = utcnow()
    q = _claimable(now, among, serial, queued_by, conn.dialect.name == "postgresql")
    if conn.dialect.name == "postgresql":
        q = q.with_for_update(skip_locked=True, of=t.agent_tasks)
    r = conn.execute(q).first()
    if r is None:
        return None
    task = _row(r)
    until = now + timedelta(seconds=lease_s)
    same = (_C.claimed_by.is_(None) if task.claimed_by is None
            else _C.claimed_by == task.claimed_by)
    took = conn.execute(update(t.agent_tasks).where(  # only if no one took it meanwhile
        _C.id == task.id, _C.status == task.status, same).values(
        status="running", started_at=now, claimed_by=worker, lease_until=until))
    if took.rowcount != 1:
        return None
    store.audit(conn, "agent_task_claimed", "agent_task", task.id,
                {"status": task.status, "claimed_by": task.claimed_by},
                {"status": "running", "claimed_by": worker}, worker)
    return get_task(conn, task.id)


def renew_lease(conn: Connection, task_id: str, worker: str, lease_s: float) -> bool:
    """Extend the lease of `worker`'s running task by `lease_s` seconds from now (its
    heartbeat while it works); False when the task is no longer its."""
    took = conn.execute(update(t.agent_tasks).where(
        _C.id == task_id, _C.status == "running", _C.claimed_by == worker).values(
        lease_until=utcnow() + timedelta(seconds=lease_s)))
    return took.rowcount == 1


def _held(conn: Connection, task_id: str, worker: str) -> AgentTask:
    task = get_task(conn, task_id)
    if task is None or task.status != "running" or task.claimed_by != worker:
        raise LeaseLost(f"agent task {task_id} is no longer claimed by {worker}")
    return task


def _settle(conn: Connection, task_id: str, worker: str, **values: Any) -> None:
    """Change the worker's claimed task, only while it is still the worker's (a claim by
    another worker that took it on a lapsed lease, committed meanwhile, wins)."""
    took = conn.execute(update(t.agent_tasks).where(
        _C.id == task_id, _C.status == "running", _C.claimed_by == worker).values(**values))
    if took.rowcount != 1:
        raise LeaseLost(f"agent task {task_id} is no longer claimed by {worker}")


def complete_task(store: Store, conn: Connection, task_id: str, worker: str,
                  output_data: dict[str, Any]) -> None:
    """The worker's claimed task done, with its `output_data`, audited."""
    _held(conn, task_id, worker)
    _settle(conn, task_id, worker, status="completed", completed_at=utcnow(),
            output_data=output_data, lease_until=None)
    store.audit(conn, "agent_task_completed", "agent_task", task_id, {"status": "running"},
                {"status": "completed"}, worker)


def fail_task(store: Store, conn: Connection, task_id: str, worker: str, error: str,
              output_data: dict[str, Any] | None = None) -> None:
    """The worker's claimed task failed with a one-line `error`, audited."""
    _held(conn, task_id, worker)
    _settle(conn, task_id, worker, status="failed", completed_at=utcnow(), error=error,
            output_data=output_data, lease_until=None)
    store.audit(conn, "agent_task_failed", "agent_task", task_id, {"status": "running"},
                {"status": "failed", "error": error}, worker)


def requeue_task(store: Store, conn: Connection, task_id: str, worker: str,
                 note: dict[str, Any]) -> None:
    """The worker's claimed task back to pending, last in order, its turn counted (a Head
    Detective waiting for the tasks it queued: it is not claimed again until they are
    done), with `note` as its output so far; audited."""
    task = _held(conn, task_id, worker)
    _settle(conn, task_id, worker, status="pending", seq=_next_seq(conn), claimed_by=None,
            lease_until=None, output_data=note, turn=task.turn + 1)
    store.audit(conn, "agent_task_requeued", "agent_task", task_id, {"status": "running"},
                {"status": "pending"}, worker)


# -- the workers' presence -------------------------------------------------------------------
Alive = Callable[[str], "bool | None"]


def _presence_key(worker: str) -> int:
    digest = hashlib.blake2b(f"sleuth worker {worker}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") & 0x7FFF_FFFF_FFFF_FFFF


def _presence_dir(store: Store) -> Path | None:
    """Beside a SQLite database file: `case.sqlite.workers/` (None in memory)."""
    db = store.engine.url.database
    if store.engine.dialect.name != "sqlite" or not db or db == ":memory:":
        return None
    return Path(db).with_name(Path(db).name + ".workers")


def _presence_file(folder: Path, worker: str) -> Path:
    return folder / (re.sub(r"[^A-Za-z0-9._:-]", "_", worker)[:200] + ".lock")


def _split(worker: str) -> tuple[str, int | None]:
    host, _, pid = worker.rpartition(":")
    return host, int(pid) if pid.isdigit() else None


def _file_alive(folder: Path, worker: str) -> bool | None:
    """On this host: the worker's presence file is locked (alive) or not (dead); with no
    file, whether its process exists. Another host's worker: unknown (its lease decides)."""
    host, pid = _split(worker)
    if host != socket.gethostname():
        return None
    path = _presence_file(folder, worker)
    try:
        fd = os.open(path, os.O_RDWR)
    except FileNotFoundError:
        if pid is None:
            return None
        try:
            os.kill(pid, 0)  # a worker from before presence files: is its process there?
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        path.unlink(missing_ok=True)  # a dead worker's file: gone with it
        fcntl.flock(fd, fcntl.LOCK_UN)
        return False
    finally:
        os.close(fd)


def _pg_alive(store: Store, worker: str) -> bool | None:
    key = _presence_key(worker)
    try:
        with store.engine.connect() as conn:
            got = conn.execute(text("SELECT pg_try_advisory_lock(:k)"), {"k": key}).scalar()
            if got:
                conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": key})
            conn.commit()
    except DBAPIError:
        return None
    return not got


@contextmanager
def worker_presence(store: Store, worker: str) -> Iterator[Alive]:
    """Hold `worker`'s presence for the block, and give `alive(name)`: True when that
    worker is known to be running, False when known to be gone (its tasks may be released
    at once), None when it cannot be told (its lease decides). PostgreSQL: an advisory lock
    per worker, held on a connection of its own, which the server drops when the process
    dies; SQLite: an flock'd file beside the database, which the kernel drops."""
    me = worker
    if store.engine.dialect.name == "postgresql":
        conn = store.engine.connect()
        try:
            conn.execute(text("SELECT pg_advisory_lock(:k)"), {"k": _presence_key(me)})
            conn.commit()

            def alive_pg(name: str) -> bool | None:
                return True if name == me else _pg_alive(store, name)

            try:
                yield alive_pg
            finally:
                conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": _presence_key(me)})
                conn.commit()
        finally:
            conn.close()
        return
    folder = _presence_dir(store)
    if folder is None:
        yield lambda name: True if name == me else None
        return
    folder.mkdir(exist_ok=True)
    path = _presence_file(folder, me)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)

        def alive_file(name: str) -> bool | None:
            return True if name == me else _file_alive(folder, name)

        try:
            yield alive_file
        finally:
            path.unlink(missing_ok=True)
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)
