"""Several `sleuth work` workers on one case (issue 26, item 1's exception): each claims one
task at a time, no task runs twice, and the case they leave equals the one a single worker
leaves, row for row; on SQLite and on PostgreSQL, with real processes. A worker killed in
the middle of a task is seen to be gone and its task taken again; a worker that cannot be
seen (a machine cut off) keeps its task until its lease runs out, not a moment less."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, text
from typer.testing import CliRunner

from case_tables import case_tables, first_difference
from pg_cases import PG_URL, create_database, drop_databases
from shared_data import shared_path
from sleuth.cli.app import app
from sleuth.store import Store
from sleuth.store import agent_tasks as bb
from sleuth.store import schema as t

BACKENDS = ["sqlite", *(["postgresql"] if PG_URL else [])]
GOV = ("documents", "swedish_gov")
FILES = [
    (*GOV, "soukb__intermediate__1972__47__index.hocr.html.bz2"),
    (*GOV, "propriksdagen__intermediate__1992-93__30__index.hocr.html.bz2"),
    (*GOV, "dirregeringen__downloaded__2016__15__dir.-201615-dataskyddsforordningen.pdf"),
    ("documents", "eu_gdpr", "gdpr-regulation-2016-679.pdf"),
    (*GOV, "propriksdagen__intermediate__1987-88__155__index.hocr.html.bz2"),
    ("documents", "us_federal_register", "federal-register-2020-17221.pdf"),
]
SRC = Path(__file__).resolve().parents[3] / "src"
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])}
TABLES = ("snapshots", "agent_tasks", "doc_processes", "doc_events", "doc_entities",
          "doc_mentions", "candidates", "decisions", "review_queue")
# What differs by who ran a task and when, not by what it wrote: the order of commits
# (`seq`), the holder and lease, the time a task took, autoincrement counters.
DROP = {"agent_tasks": ("seq", "claimed_by", "lease_until"), "decisions": ("id",),
        "review_queue": ("id",)}


def _no_time(row: dict[str, Any]) -> dict[str, Any]:
    out = dict(row.get("output_data") or {})
    out.pop("processing_time_ms", None)
    return {**row, "output_data": out}


def _tables(case: Path) -> dict[str, list[Any]]:
    store = Store.open_case(case)
    try:
        return case_tables(store, TABLES, DROP, {"agent_tasks": _no_time})
    finally:
        store.close()


class Cases:
    """Copies of one ingested documents case (no task run yet) on one backend."""

    def __init__(self, backend: str, root: Path) -> None:
        self.backend, self.root = backend, root
        self.databases: list[str] = []
        self.origin = root / "origin"
        url = None
        if backend == "postgresql":
            name, url = create_database()
            self.databases.append(name)
        args = ["init", str(self.origin), "--domain", "documents", *(["--db", url] if url else [])]
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 0, result.output
        result = CliRunner().invoke(app, ["ingest", str(self.origin),
                                          *(str(shared_path(*f)) for f in FILES)])
        assert result.exit_code == 0, result.output

    def copy(self, label: str) -> Path:
        case = self.root / label
        if self.backend == "sqlite":
            case.mkdir()
            with sqlite3.connect(self.origin / "case.sqlite") as src, \
                    sqlite3.connect(case / "case.sqlite") as dst:
                src.backup(dst)
            (case / "case.json").write_text((self.origin / "case.json").read_text())
            return case
        name, url = create_database(template=self.databases[0])
        self.databases.append(name)
        # A copy of the case (its id too: `store.identity` refuses a new case on it).
        case.mkdir()
        config = json.loads((self.origin / "case.json").read_text())
        (case / "case.json").write_text(json.dumps({**config, "db_url": url}))
        return case

    def close(self) -> None:
        if self.databases:
            drop_databases(self.databases)


@pytest.fixture(scope="module", params=BACKENDS)
def cases(request: pytest.FixtureRequest,
          tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cases]:
    made = Cases(request.param, tmp_path_factory.mktemp(f"work-{request.param}"))
    try:
        yield made
    finally:
        made.close()


def _worker(case: Path, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "sleuth", "work", str(case), *extra],
                            env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


class _Gate:
    """Hold every claim back until both workers are up and waiting for their first, so
    they start claiming together (a lone fast worker could finish before the other
    starts, and prove nothing)."""

    def __init__(self, case: Path) -> None:
        self.store = Store.open_case(case)
        self.pg = self.store.engine.dialect.name == "postgresql"
        self.db = case / "case.sqlite"
        if self.pg:
            self.conn: Any = self.store.engine.connect()
            self.conn.execute(text("SELECT pg_advisory_lock(:k)"), {"k": bb.QUEUE_KEY})
            self.conn.commit()
        else:
            self.conn = sqlite3.connect(self.db, isolation_level=None)
            self.conn.execute("BEGIN IMMEDIATE")  # the write lock every claim takes first

    def waiting(self) -> int:
        if self.pg:
            with self.store.engine.connect() as c:
                return int(c.execute(text(
                    "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT "
                    "granted AND database = (SELECT oid FROM pg_database WHERE datname = "
                    "current_database())")).scalar_one())
        folder = self.db.with_name(self.db.name + ".workers")  # the workers' presence files
        return len(list(folder.glob("*.lock"))) if folder.exists() else 0

    def open(self, workers: int, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while self.waiting() < workers:
            assert time.monotonic() < deadline, "the workers did not start"
            time.sleep(0.05)
        time.sleep(0.3)  # on SQLite a present worker is a moment from its first claim
        if self.pg:
            self.conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": bb.QUEUE_KEY})
            self.conn.commit()
        else:
            self.conn.execute("COMMIT")
        self.close()

    def close(self) -> None:
        self.conn.close()
        self.store.close()


def _audit(case: Path) -> list[tuple[str, str, str]]:
    store = Store.open_case(case)
    try:
        with store.engine.connect() as conn:
            return [(a, str(e), str(w)) for a, e, w in conn.execute(text(
                "SELECT action_type, entity_id, agent_name FROM audit_log WHERE entity_type "
                "= 'agent_task' ORDER BY id"))]
    finally:
        store.close()


@pytest.mark.slow
@pytest.mark.skipif(os.name != "posix", reason="needs POSIX processes")
def test_two_workers_share_a_case_and_write_what_one_writes(cases: Cases) -> None:
    single = cases.copy("single")
    result = CliRunner().invoke(app, ["work", str(single)])
    assert result.exit_code == 0, result.output
    expected = _tables(single)

    shared = cases.copy("shared")
    gate = _Gate(shared)
    procs = [_worker(shared), _worker(shared)]
    try:
        gate.open(len(procs))
        outs = [p.communicate(timeout=300) for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    for p, (out, err) in zip(procs, outs, strict=True):
        assert p.returncode == 0, err
        assert "Traceback" not in err and "lease lost" not in out

    audit = _audit(shared)
    claims = Counter(e for a, e, _ in audit if a == "agent_task_claimed")
    settled = Counter(e for a, e, _ in audit if a in ("agent_task_completed",
                                                      "agent_task_requeued"))
    done = Counter(e for a, e, _ in audit if a == "agent_task_completed")
    assert claims == settled, "every claim was settled by its worker: no task ran twice"
    assert set(done.values()) == {1} and len(done) == 3 * len(FILES)
    assert not [a for a, _, _ in audit if a == "agent_task_released"]
    claimers = Counter(w for a, _, w in audit if a == "agent_task_claimed")
    assert sorted(claimers) == sorted(f"{os.uname().nodename}:{p.pid}" for p in procs), claimers
    assert min(claimers.values()) >= 1, f"both workers worked: {claimers}"
    print(f"{cases.backend}: task runs per worker {dict(claimers)}")

    assert first_difference(_tables(shared), expected) == ""


def _running(case: Path, worker: str) -> list[str]:
    store = Store.open_case(case)
    try:
        with store.engine.connect() as conn:
            return [t.id for t in bb.list_tasks(conn)
                    if t.status == "running" and t.claimed_by == worker]
    finally:
        store.close()


@pytest.mark.slow
@pytest.mark.skipif(os.name != "posix", reason="needs POSIX signals")
def test_a_killed_workers_task_is_taken_again_and_run_once(cases: Cases) -> None:
    single = cases.copy("single-k")
    assert CliRunner().invoke(app, ["work", str(single)]).exit_code == 0
    expected = _tables(single)

    case = cases.copy("killed")
    proc = _worker(case)
    name = f"{os.uname().nodename}:{proc.pid}"
    deadline = time.monotonic() + 120
    held: list[str] = []
    try:
        while not held:  # caught in the middle of a task: stopped, then killed
            assert proc.poll() is None and time.monotonic() < deadline, "no task was caught"
            if _running(case, name):
                proc.send_signal(signal.SIGSTOP)
                held = _running(case, name)
                if not held:
                    proc.send_signal(signal.SIGCONT)
            time.sleep(0.005)
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.kill()
        proc.wait()
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.close()
        proc.stderr.close()
    assert _running(case, name) == held, "the dead worker's claim is still in the case"

    started = time.monotonic()
    result = CliRunner().invoke(app, ["work", str(case)])  # lease 120 s: not waited for
    assert result.exit_code == 0, result.output
    assert time.monotonic() - started < 60
    assert "1 released from a worker that is gone" in result.output
    audit = _audit(case)
    [task] = held
    mine = [(a, w) for a, e, w in audit if e == task]
    released = [a for a, _ in mine].index("agent_task_released")
    assert mine[released - 1] == ("agent_task_claimed", name)  # the dead worker's claim
    assert mine[released + 1][0] == "agent_task_claimed" and mine[released + 1][1] != name
    assert [a for a, _ in mine].count("agent_task_completed") == 1
    # nothing of the claim it died holding was settled by it (on a loaded machine it may have
    # settled earlier turns, e.g. requeued the Head Detective's, before it was caught)
    assert name not in [w for _, w in mine[released:]], \
        "nothing the dead worker began was settled by it"
    assert first_difference(_tables(case), expected) == ""


@pytest.mark.slow
def test_an_unseen_workers_task_waits_for_its_lease(cases: Cases) -> None:
    """A worker on a machine that was cut off: its presence still reads alive (a SQLite
    worker on another host cannot be seen at all), its heartbeats stopped. Its task is left
    alone until its lease has run out, then taken again, and the case ends as one worker's."""
    from sleuth.domains.documents.work import work

    single = cases.copy("single-l")
    assert CliRunner().invoke(app, ["work", str(single)]).exit_code == 0
    expected = _tables(single)

    case = cases.copy("lease")
    store = Store.open_case(case)
    far = "far-away-host:4242"
    try:
        with bb.worker_presence(store, far):  # alive as far as PostgreSQL can tell
            with store.transaction() as tx:
                held = bb.claim_next(store, tx, far, lease_s=3.0)
            assert held is not None and held.lease_until is not None
            report = work(store, poll_s=0.05)
        assert report.failed == 0 and report.released == 0
        with store.engine.connect() as conn:
            a = t.audit_log.c
            again = conn.execute(select(a.agent_name, a.timestamp).where(
                a.entity_id == held.id, a.action_type == "agent_task_claimed")
                .order_by(a.id)).all()
    finally:
        store.close()
    assert len(again) >= 2 and again[0][0] == far
    lease, taken = (d.replace(tzinfo=None) - (d.utcoffset() or timedelta())
                    for d in (held.lease_until, again[1][1]))
    assert taken >= lease, "taken again only once its lease had run out"
    assert first_difference(_tables(case), expected) == ""


def test_a_long_task_keeps_its_lease_while_it_runs(cases: Cases,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Two workers in one process, a lease of one second and a task that takes three: the
    worker renews its lease as it works, so the other never takes the task."""
    from sleuth.domains.documents import work as worker
    from sleuth.domains.documents.agents import AGENTS, TASK_TIMELINE

    case = cases.copy("long")
    slow_once: list[str] = []

    def timeline(store: Store, conn: Any, task: bb.AgentTask) -> Any:
        if not slow_once:
            slow_once.append(task.id)
            time.sleep(3.0)
        return AGENTS[TASK_TIMELINE](store, conn, task)

    monkeypatch.setattr(worker, "AGENTS", {**AGENTS, TASK_TIMELINE: timeline})
    store = Store.open_case(case)
    reports: dict[str, Any] = {}

    def run(name: str) -> None:
        reports[name] = worker.work(store, worker=name, lease_s=1.0, poll_s=0.05)

    try:
        threads = [threading.Thread(target=run, args=(n,)) for n in ("w1", "w2")]
        for th in threads:
            th.start()
        for th in threads:
            th.join(120)
    finally:
        store.close()
    assert set(reports) == {"w1", "w2"}
    assert sum(r.ran for r in reports.values()) == 4 * len(FILES)  # heads run twice
    assert not any("lease lost" in s for r in reports.values() for s in r.steps)
    claims = Counter(e for a, e, _ in _audit(case) if a == "agent_task_claimed")
    assert claims[slow_once[0]] == 1, "the slow task was claimed once"
