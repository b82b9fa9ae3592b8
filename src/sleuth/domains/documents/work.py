"""The worker behind `sleuth work` and the documents domain's ingest.

Ingest stores each file as an immutable snapshot named by its content (the same file, the
same id in every case: ties broken by it fall the same way twice) and queues one Head
Detective task for it, in one transaction; reading the file happens first, so bad input
(an encrypted or corrupt PDF, an hOCR file with no pages, a scanned PDF with no text
layer) fails with the loader's one line naming the file and nothing in the case changes.

A worker claims the first claimable task in order (committed: the claim is a lease, renewed
while the task runs), runs its agent, and completes, requeues or fails it in the
transaction that holds what the agent wrote; so a `kill -9` leaves each task either not
done (claimed: the next worker sees that its worker is gone and releases it, or, when it
cannot tell, takes it once the lease has run out) or done with everything it wrote.

Several workers may work one case at once (issue 26), each claiming one task at a time
(`sleuth.store.agent_tasks`); a worker that finds nothing to claim while others still
work waits for them and stops when no task is left. The metadata agent's tasks run one at
a time in the order their documents were queued (`SERIAL`: the entity register depends on
that order), and the ids a task draws are named by the task and its turn, so any number of
workers writes the rows one worker writes.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Callable, Collection, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy.exc import OperationalError

from sleuth.domains.base import Agent
from sleuth.domains.documents.agents import (
    AGENTS,
    HEAD,
    TASK_HEAD,
    TASK_METADATA,
    Outcome,
    designation,
)
from sleuth.domains.documents.ferenda import read_sidecar
from sleuth.model import EvidenceType, SleuthError, id_stream
from sleuth.sources import load_file
from sleuth.store import agent_tasks as bb
from sleuth.store.agent_tasks import AgentTask, LeaseLost
from sleuth.store.store import Store, id_namespace

LEASE_S = 120.0  # a claim's lease, renewed every quarter of it while its task runs
POLL_S = 0.25  # how often a worker with nothing to claim looks again while others work
SERIAL = frozenset({TASK_METADATA})  # one at a time, in the order documents were queued,
QUEUED_BY = frozenset({TASK_HEAD})  # after every Head Detective before it has delegated


@dataclass
class DocumentIngest:
    """One file's ingest (what `sleuth ingest` prints: `summary`, one line)."""

    path: str
    snapshot_id: str
    already_stored: bool
    summary: str
    report: Any = None


def ingest(store: Store, path: Path, *, source_name: str = "local file",
           evidence_type: EvidenceType = EvidenceType.SECONDARY, **_: Any) -> DocumentIngest:
    """Store the file as a snapshot and queue a Head Detective task for it (one
    transaction); a file already stored is skipped."""
    loaded = load_file(path, source_name=source_name, evidence_type=evidence_type)
    snap0 = loaded.snapshot.named_by_content("documents")
    if (meta := read_sidecar(path)) is not None:  # ferenda's metadata beside the file
        snap0 = snap0.model_copy(update={"metadata": {**snap0.metadata, "ferenda": meta}})
    with store.engine.connect() as conn:
        stored = store.find_snapshot(conn, snap0.origin, snap0.sha256)
        namespace = id_namespace(conn, "ingest")
    if stored:
        return DocumentIngest(str(path), stored, True,
                              f"already stored as snapshot {stored}; skipped")
    with id_stream(namespace, ordered=True), store.transaction() as tx:
        snap, created = store.put_snapshot(tx, loaded.raw, snap0)
        if not created:
            return DocumentIngest(str(path), snap.id, True,
                                  f"already stored as snapshot {snap.id}; skipped")
        name = designation(snap)
        tid = bb.create_task(store, tx, task_type=TASK_HEAD, agent=HEAD, snapshot_id=snap.id,
                             parent_id=None, payload={"document": name}, by="ingest")
    pages = len(snap.page_starts) or 1
    return DocumentIngest(str(path), snap.id, False,
                          f"snapshot {snap.id} — {name}, {pages} pages; Head Detective task "
                          f"{tid[:12]} queued")


@dataclass
class Step:
    """One task run (what the progress display shows)."""

    task: AgentTask
    outcome: Outcome
    remaining: int


@dataclass
class WorkReport:
    ran: int = 0
    completed: int = 0
    failed: int = 0
    requeued: int = 0
    released: int = 0
    steps: list[str] = field(default_factory=list)


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def _run_one(store: Store, task: AgentTask, worker: str,
             agents: Mapping[str, Agent] | None = None) -> Outcome:
    """Run the task's agent and settle the task, in one transaction."""
    agent = (AGENTS if agents is None else agents).get(task.task_type)
    started = time.perf_counter()
    try:
        with store.transaction() as conn:
            if agent is None:
                outcome = Outcome("failed", f"no agent does {task.task_type!r}",
                                  error=f"no agent does {task.task_type!r}")
            else:  # the rows it stages draw ids named by the task and its turn (not by its
                # seq: that is the order of commits, which two workers change)
                with id_stream(f"agent_task:{task.id}:{task.turn}", ordered=True):
                    outcome = agent(store, conn, task)
            output = {**outcome.output,
                      "processing_time_ms": round((time.perf_counter() - started) * 1000)}
            if outcome.status == "completed":
                bb.complete_task(store, conn, task.id, worker, output)
            elif outcome.status == "requeued":
                bb.requeue_task(store, conn, task.id, worker, output)
            else:
                bb.fail_task(store, conn, task.id, worker, outcome.error or outcome.line,
                             output)
    except LeaseLost:
        raise
    except Exception as exc:  # one document's failure must not stop the rest
        # (unattended, as a cron job runs it): the task fails with one line, the worker goes
        # on; sleuth's own errors say what is wrong, anything else is named as internal
        first = str(exc).splitlines()[0] if str(exc) else ""
        error = first if isinstance(exc, SleuthError) and first else (
            f"internal error: {type(exc).__name__}: {first}")
        with store.transaction() as conn:
            bb.fail_task(store, conn, task.id, worker, error)
        outcome = Outcome("failed", error, error=error)
    return outcome


@contextmanager
def _heartbeat(store: Store, task: AgentTask, worker: str, lease_s: float) -> Iterator[None]:
    """Renew the task's lease every quarter of it while the block runs (a long task is
    not taken by another worker; a dead worker's lease is not renewed)."""
    stop = threading.Event()

    def beat() -> None:
        while not stop.wait(lease_s / 4):
            try:
                with store.transaction() as conn:
                    if not bb.renew_lease(conn, task.id, worker, lease_s):
                        return
            except Exception:  # a busy database: the next beat tries again
                continue

    thread = threading.Thread(target=beat, name=f"lease {task.id[:12]}", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()  # not joined: a beat waiting for a busy database ends on its own


def _claim(store: Store, worker: str, lease_s: float, among: set[str] | None,
           serial: Collection[str], queued_by: Collection[str]) -> AgentTask | bool | None:
    """The next task claimed for `worker`, None when there is none, False when the
    database was too busy to ask (another worker's long write): ask again later."""
    try:
        with store.transaction() as conn:
            return bb.claim_next(store, conn, worker, lease_s=lease_s, among=among,
                                 serial=serial, queued_by=queued_by)
    except OperationalError as exc:
        if "locked" in str(exc.orig) or "busy" in str(exc.orig):
            return False
        raise


def work(store: Store, *, once: bool = False, holds_lock: bool = False,
         on_step: Callable[[Step], None] | None = None, lease_s: float = LEASE_S,
         worker: str | None = None, poll_s: float = POLL_S,
         agents: Mapping[str, Agent] | None = None, serial: Collection[str] = SERIAL,
         queued_by: Collection[str] = QUEUED_BY) -> WorkReport:
    """Run agent tasks until none is left (`once`: those pending when it starts, each once,
    leaving any another worker holds). Other workers may work the case at the same time;
    one that finds nothing to claim while tasks are still open waits for them. A task
    claimed by a worker that is gone is released (`holds_lock`: the caller holds the case's
    writer lock, so every claimed task is a dead worker's); one whose worker cannot be told
    is taken when its lease runs out. `agents` (task type -> agent), `serial` and
    `queued_by` (`store.agent_tasks.claim_next`) default to the documents domain's; another
    domain's runner passes its own."""
    me = worker or worker_name()
    report = WorkReport()
    with bb.worker_presence(store, me) as alive:
        def gone(name: str) -> bool:
            return alive(name) is False

        with store.transaction() as conn:
            report.released = bb.release_orphans(store, conn, me,
                                                 None if holds_lock else gone)
            among = ({t.id for t in bb.list_tasks(conn) if t.status == "pending"}
                     if once else None)
        while True:
            task = _claim(store, me, lease_s, among, serial, queued_by)
            if task is None and among is not None:
                break  # one pass: what is left is another worker's, or waits on one
            if not task:
                with store.transaction() as conn:
                    freed = bb.release_orphans(store, conn, me, gone)
                    left = bb.open_count(conn)
                report.released += freed
                if not left:
                    break
                if not freed:
                    time.sleep(poll_s)
                continue
            assert isinstance(task, AgentTask)
            if among is not None:
                among.discard(task.id)
            try:
                with _heartbeat(store, task, me, lease_s):
                    outcome = _run_one(store, task, me, agents)
            except LeaseLost:  # its lease ran out and another worker took it: theirs now
                report.steps.append(f"{task.task_type} {task.id[:12]}: lease lost")
                continue
            report.ran += 1
            setattr(report, outcome.status, getattr(report, outcome.status) + 1)
            report.steps.append(f"{task.task_type} {task.id[:12]}: {outcome.status}: "
                                f"{outcome.line}")
            if on_step is not None:
                with store.engine.connect() as conn:
                    remaining = bb.open_count(conn)
                on_step(Step(task, outcome, remaining))
    return report
