"""Durability: `kill -9` of a real `sleuth research` process at random points, then
`sleuth resume`, twenty kills in a row. After each run: no lost evidence, no duplicated
assertion, no request repeated inside the cache TTL beyond the one a kill can catch in
flight (response received, transaction not yet committed), invariants intact."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import miniworld
import pytest
from helpers import CONTACT, duplicated_assertions, run, seed_of
from pytest_httpserver import HTTPServer
from sqlalchemy import func, select
from werkzeug import Request, Response

import sleuth.loop.run as run_mod
from sleuth.loop import Budget, resume
from sleuth.loop.invariants import violations
from sleuth.loop.state import RUN_FILE
from sleuth.store import Store
from sleuth.store import schema as t

KILLS = 20
PER_ROUND = 5
STARTUP = 1.2  # seconds before a fresh process reaches the loop (imports)


def _slow(handler, delay: float = 0.03):
    def respond(request: Request) -> Response:
        time.sleep(delay)
        return handler(request)
    return respond


def _cmd(case: Path, w: miniworld.World, fresh: bool) -> list[str]:
    base = [sys.executable, "-m", "sleuth"]
    if not fresh:
        return [*base, "resume", str(case)]
    s = seed_of(w)
    return [*base, "research", "--name", s["name"], "--born", str(s["birth_year"]),
            "--out", str(case), "--source", "wikitree", "--max-requests", "1000",
            "--generations", "12"]


def _staged(conn) -> dict[str, int]:
    """Candidates staged per fetched path: extraction is deterministic per record, so a
    run that lost or doubled a record's analysis differs here."""
    c, s = t.candidates.c, t.snapshots.c
    rows = conn.execute(select(s.url, func.count(c.id)).join(
        t.candidates, c.snapshot_id == s.id).where(s.url.is_not(None))  # fetched, not made
        .group_by(s.url)).all()
    return {str(u).split("/", 3)[-1]: int(n) for u, n in rows}


class _Killed(BaseException):
    """The process dies: after a node's writes were saved, before the step's checkpoint."""


# What a node's saved writes carry: the Scout's first fetch counts a request, the Analyst's
# first record names the seed.
_WROTE = {"scout": lambda ch, v: ch == "requests" and bool(v),
          "analyst": lambda ch, v: ch == "seed_person_id" and v is not None}


@pytest.mark.parametrize("node", sorted(_WROTE))
def test_a_kill_between_saved_writes_and_checkpoint_is_resumed_not_finished(
        httpserver: HTTPServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        node: str) -> None:
    """Issue 5, without timing. LangGraph saves a finished node's writes before the step's
    checkpoint; a kill between the two left `get_state().next` empty (the node has run), and
    resume took that for a finished run: it stopped at once, having read only what the killed
    process read. Resume must apply the saved writes and carry on like a clean run."""
    w = miniworld.build(seed=101, generations=4)
    httpserver.expect_request("/api.php").respond_with_handler(miniworld.handler(w))
    budget = Budget(max_requests=1000, target_generations=12)
    ref = run(tmp_path / "ref", httpserver, w, budget)
    served = set(w.requests)
    w.requests.clear()
    real = run_mod.checkpointer

    @contextmanager
    def dying(case_dir: Path) -> Iterator[Any]:
        with real(case_dir) as saver:
            put, put_writes, armed = saver.put, saver.put_writes, []

            def writes(config: Any, ws: Any, task_id: str, task_path: str = "") -> None:
                put_writes(config, ws, task_id, task_path)
                armed.extend(ch for ch, v in ws if _WROTE[node](ch, v))

            def checkpoint(*args: Any) -> Any:
                if armed:
                    raise _Killed
                return put(*args)

            saver.put, saver.put_writes = checkpoint, writes
            yield saver

    monkeypatch.setattr(run_mod, "checkpointer", dying)
    with pytest.raises(_Killed):
        run(tmp_path / "case", httpserver, w, budget)
    monkeypatch.setattr(run_mod, "checkpointer", real)
    before = sum(w.requests.values())
    done = resume(tmp_path / "case", fetcher_options=CONTACT)
    assert sum(w.requests.values()) > before, "the resumed run carried on"
    assert done.terminated and done.stop_reasons == ref.stop_reasons
    assert set(w.requests) == served, "the resumed run read what a clean run reads"
    assert max(w.requests.values()) == 1, "no request repeated inside the cache TTL"
    assert (done.requests, done.facts, done.persons, done.iterations) == (
        ref.requests, ref.facts, ref.persons, ref.iterations)
    store = Store.open_case(tmp_path / "case")
    try:
        with store.engine.connect() as conn:
            assert violations(conn, terminated=True) == []
            staged = _staged(conn)
    finally:
        store.close()
    ref_store = Store.open_case(tmp_path / "ref")
    try:
        with ref_store.engine.connect() as conn:
            assert staged == _staged(conn), "every record read was analysed, once"
    finally:
        ref_store.close()


@pytest.mark.slow
def test_twenty_random_kill_points_in_a_row(httpserver: HTTPServer, tmp_path: Path) -> None:
    rng = random.Random(20261122)
    env = {**os.environ, "SLEUTH_CONTACT": "tests@example.invalid", "COLUMNS": "120"}
    kills = 0
    rounds = 0
    report: list[str] = []
    while kills < KILLS:
        rounds += 1
        w = miniworld.build(seed=100 + rounds, generations=4)
        httpserver.clear()
        httpserver.expect_request("/api.php").respond_with_handler(
            _slow(miniworld.handler(w)))
        run(tmp_path / f"ref{rounds}", httpserver, w,
            Budget(max_requests=1000, target_generations=12))
        served_ref = set(w.requests)
        w.requests.clear()
        case = tmp_path / f"case{rounds}"
        Store.create_case(case).close()
        miniworld.install(case, httpserver.url_for("/").rstrip("/"))
        round_kills = 0
        while True:
            fresh = not (case / RUN_FILE).exists()
            errfile = tmp_path / "stderr.txt"
            with errfile.open("wb") as errs:
                proc = subprocess.Popen(_cmd(case, w, fresh), env=env,
                                        stdout=subprocess.DEVNULL, stderr=errs)
            if round_kills < PER_ROUND and kills < KILLS:
                delay = STARTUP + rng.uniform(0.0, 1.5)
                try:
                    proc.wait(timeout=delay)
                except subprocess.TimeoutExpired:
                    proc.send_signal(signal.SIGKILL)
                    proc.wait()
                    kills += 1
                    round_kills += 1
                    continue
            else:
                proc.wait(timeout=300)
            assert proc.returncode == 0, errfile.read_text()
            break
        repeats = sum(n - 1 for n in w.requests.values())
        report.append(f"round {rounds}: {round_kills} kills, {sum(w.requests.values())} "
                      f"requests, {repeats} repeated")
        assert set(w.requests) == served_ref, "the resumed run read what a clean run reads"
        assert repeats <= round_kills, "only a request caught in flight by a kill may repeat"
        store = Store.open_case(case)
        try:
            with store.engine.connect() as conn:
                assert violations(conn, terminated=True) == []
                urls = set(conn.execute(select(t.snapshots.c.url)).scalars())
                staged = _staged(conn)
            assert duplicated_assertions(store) == 0
        finally:
            store.close()
        assert all(any(u.endswith(p.split("?", 1)[1]) or p in u for u in urls if u)
                   for p in served_ref), "every response read is kept as a snapshot"
        ref_store = Store.open_case(tmp_path / f"ref{rounds}")
        try:
            with ref_store.engine.connect() as conn:
                assert staged == _staged(conn), "every record read was analysed, once"
        finally:
            ref_store.close()
    print("\n".join(report))
    assert kills == KILLS
