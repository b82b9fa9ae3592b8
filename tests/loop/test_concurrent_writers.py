"""Two writers at once (issue 26, item 1 and its acceptance), with real processes on SQLite
and on PostgreSQL:

- two `sleuth resume` on one case: one refuses with one line and exit code 3, having
  changed nothing, and the case the other leaves equals, table for table and row for row,
  the case an uninterrupted resume leaves;
- two `sleuth ingest` of the same file at once: idempotent, the file is stored once, the
  loser is one line (exit 3) or "already stored", never a traceback.

Was (on main before the case lock): one resume died with an `IntegrityError` traceback and
the case ended with 39 duplicated citation groups (808 assertions / 1,417 citations against
797 / 1,378); the losing ingest printed a 76-line traceback (`UNIQUE constraint failed:
blobs.sha256`)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import miniworld
import pytest
from helpers import duplicated_assertions, run
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from case_tables import case_tables, first_difference
from pg_cases import PG_URL, create_database, drop_databases
from sleuth.loop import Budget
from sleuth.store import Store, counts

pytestmark = pytest.mark.skipif(os.name != "posix", reason="needs POSIX processes")
BACKENDS = ["sqlite", *(["postgresql"] if PG_URL else [])]
SRC = Path(__file__).resolve().parents[2] / "src"
ENV = {**os.environ, "SLEUTH_CONTACT": "tests@example.invalid", "COLUMNS": "200",
       "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])}
FIRST = Budget(max_requests=6, target_generations=12)  # a run that stops early ...
MORE = "60"  # ... and is resumed with a larger budget
# Everything a run writes, less what is a clock reading or a counter of the database's own
# (autoincrement ids); the research log's contexts carry durations.
TABLES = ("blobs", "snapshots", "candidates", "decisions", "review_queue", "persons",
          "relationships", "assertions", "citations", "conflicts", "hypotheses",
          "merge_clusters", "tasks", "research_log", "audit_log", "negative_evidence",
          "http_cache")
DROP = {"decisions": ("id",), "review_queue": ("id",), "audit_log": ("id",),
        "research_log": ("context",)}


def _no_date(row: dict[str, Any]) -> dict[str, Any]:
    """A snapshot's metadata less the server's Date header (a clock reading)."""
    meta = dict(row.get("meta") or {})
    meta["response_headers"] = {k: v for k, v in (meta.get("response_headers") or {}).items()
                                if k.lower() != "date"}
    return {**row, "meta": meta}


FIX = {"snapshots": _no_date}


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> Iterator[tuple[str, list[str]]]:
    made: list[str] = []
    try:
        yield request.param, made
    finally:
        if made:
            drop_databases(made)


def _new_case(case: Path, backend: tuple[str, list[str]]) -> Path:
    kind, made = backend
    url = None
    if kind == "postgresql":
        name, url = create_database()
        made.append(name)
    Store.create_case(case, url).close()
    return case


def _tables(case: Path) -> dict[str, list[Any]]:
    store = Store.open_case(case)
    try:
        return case_tables(store, TABLES, DROP, FIX)
    finally:
        store.close()


def _resume(case: Path) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "sleuth", "resume", str(case),
                             "--max-requests", MORE], env=ENV, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def test_two_resumes_one_refuses_and_the_case_equals_an_uninterrupted_run(
        httpserver: HTTPServer, tmp_path: Path, backend: tuple[str, list[str]]) -> None:
    w = miniworld.build(seed=101, generations=4)
    serve = miniworld.handler(w)
    held = threading.Event()  # the winner's first request waits until the loser has lost

    def gated(request: Request) -> Response:
        held.wait(60)
        return serve(request)

    httpserver.expect_request("/api.php").respond_with_handler(serve)
    ref = run(_new_case(tmp_path / "ref", backend), httpserver, w, FIRST)
    race = run(_new_case(tmp_path / "race", backend), httpserver, w, FIRST)
    assert ref.stop_reasons == race.stop_reasons and ref.requests == race.requests == 6
    assert first_difference(_tables(tmp_path / "ref"), _tables(tmp_path / "race")) == ""

    done = subprocess.run([sys.executable, "-m", "sleuth", "resume", str(tmp_path / "ref"),
                           "--max-requests", MORE], env=ENV, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    expected = _tables(tmp_path / "ref")

    httpserver.clear()
    httpserver.expect_request("/api.php").respond_with_handler(gated)
    before = _tables(tmp_path / "race")
    procs = [_resume(tmp_path / "race"), _resume(tmp_path / "race")]
    try:
        deadline = time.monotonic() + 120
        while all(p.poll() is None for p in procs):
            assert time.monotonic() < deadline, "neither resume ended"
            time.sleep(0.02)
        loser = next(p for p in procs if p.poll() is not None)
        winner = next(p for p in procs if p is not loser)
        _, err = loser.communicate()
        assert loser.returncode == 3, err
        assert winner.poll() is None, "the winner was still writing when the loser tried"
        held.set()
        out, werr = winner.communicate(timeout=300)
    finally:
        held.set()
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    line = err.strip()
    assert "\n" not in line and "Traceback" not in line, err
    assert f"is being written by pid {winner.pid} on host " in line and "(resume)" in line
    assert winner.returncode == 0, werr
    assert "stopped" in out

    after = _tables(tmp_path / "race")
    assert after != before, "the winner carried the run on"
    assert first_difference(after, expected) == "", "the case equals an uninterrupted run"
    store = Store.open_case(tmp_path / "race")
    try:
        assert duplicated_assertions(store) == 0
    finally:
        store.close()


def test_two_ingests_of_one_file_store_it_once(tmp_path: Path,
                                               backend: tuple[str, list[str]]) -> None:
    from shared_data import shared_path

    tree = shared_path("gedcom", "samples", "kennedy.ged")
    case = _new_case(tmp_path / "case", backend)
    ref = _new_case(tmp_path / "ref", backend)
    done = subprocess.run([sys.executable, "-m", "sleuth", "ingest", str(ref), str(tree)],
                          env=ENV, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    procs = [subprocess.Popen([sys.executable, "-m", "sleuth", "ingest", str(case), str(tree)],
                              env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for _ in range(2)]
    outs = [p.communicate(timeout=300) for p in procs]
    codes = sorted(p.returncode for p in procs)
    for (_, err), p in zip(outs, procs, strict=True):
        assert "Traceback" not in err and "IntegrityError" not in err, err
        if p.returncode == 3:
            assert "\n" not in err.strip() and "is being written by pid" in err
        else:
            assert p.returncode == 0, err
    assert codes in ([0, 0], [0, 3])
    again = subprocess.run([sys.executable, "-m", "sleuth", "ingest", str(case), str(tree)],
                           env=ENV, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0 and "already stored" in again.stdout, again.stderr
    stores = [Store.open_case(case), Store.open_case(ref)]
    try:
        got, want = (counts(s) for s in stores)
    finally:
        for s in stores:
            s.close()
    assert got == want and got["snapshots"] == 1
    print(f"{backend[0]}: exit codes {codes}; {got}")
