"""The worker behind `sleuth work` and the documents domain's ingest.

Ingest stores each file as an immutable snapshot and queues one Head Detective task for it,
in one transaction; reading the file happens first, so bad input (an encrypted or corrupt
PDF, an hOCR file with no pages, a scanned PDF with no text layer) fails with the loader's
one line naming the file and nothing in the case changes.

The worker claims the first task in order (committed: the claim is a lease), runs its
agent, and completes, requeues or fails it in the transaction that holds what the agent
wrote; so a `kill -9` leaves each task either not done (claimed: the next worker, holding
the case's writer lock, releases it; or another, once the lease has run out, takes it) or
done with everything it wrote. Tasks run in `seq` order, so a resumed run does what an
uninterrupted one does, in the same order, and writes the same rows.
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sleuth.domains.documents.agents import AGENTS, HEAD, TASK_HEAD, Outcome, designation
from sleuth.domains.documents.ferenda import read_sidecar
from sleuth.model import EvidenceType, SleuthError, id_stream
from sleuth.sources import load_file
from sleuth.store import agent_tasks as bb
from sleuth.store.agent_tasks import AgentTask, LeaseLost
from sleuth.store.store import Store, id_namespace

LEASE_S = 600.0  # a claim's lease: longer than any one document's agent takes


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
    snap0 = loaded.snapshot
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


def _run_one(store: Store, task: AgentTask, worker: str) -> Outcome:
    """Run the task's agent and settle the task, in one transaction."""
    agent = AGENTS.get(task.task_type)
    started = time.perf_counter()
    try:
        with store.transaction() as conn:
            if agent is None:
                outcome = Outcome("failed", f"no agent does {task.task_type!r}",
                                  error=f"no agent does {task.task_type!r}")
            else:  # the rows it stages draw ids named by the task and its turn
                with id_stream(f"agent_task:{task.id}:{task.seq}", ordered=True):
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


def work(store: Store, *, once: bool = False, holds_lock: bool = True,
         on_step: Callable[[Step], None] | None = None, lease_s: float = LEASE_S,
         worker: str | None = None) -> WorkReport:
    """Run pending agent tasks until none is left (`once`: those pending when it starts,
    each once). `holds_lock`: the caller holds the case's writer lock, so tasks left
    running by a dead worker are released at once rather than when their lease runs out."""
    me = worker or worker_name()
    report = WorkReport()
    with store.transaction() as conn:
        if holds_lock:
            report.released = bb.release_orphans(store, conn, me)
        among = ({t.id for t in bb.list_tasks(conn) if t.status == "pending"}
                 if once else None)
    while True:
        with store.transaction() as conn:
            task = bb.claim_next(store, conn, me, lease_s=lease_s, among=among)
        if task is None:
            break
        if among is not None:
            among.discard(task.id)
        try:
            outcome = _run_one(store, task, me)
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
