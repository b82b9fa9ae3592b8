"""`sleuth demo` killed, then `sleuth resume` (issue 26, item 4): the demo's world ran inside
the killed process, so the resume starts the same world again (same seed, size and host
name: the same URLs) and carries on to the report; a demo case that does not say which world
it was gets one line saying so.

Was: the resume found the world's host unreachable, logged every source as unavailable, and
exited 0 with "diminishing_returns" and no report."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sleuth.cli.app import app
from sleuth.cli.demo import DEMO_FILE
from sleuth.store import Store, counts

SRC = Path(__file__).resolve().parents[2] / "src"
ARGS = ["--persons", "60", "--max-requests", "60"]


def _killed_demo(out: Path) -> dict[str, int]:
    env = {**os.environ,
           "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.Popen([sys.executable, "-m", "sleuth", "demo", "--out", str(out), *ARGS],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and proc.poll() is None:
            if (out / "research-run.json").exists() and _snapshots(out) >= 5:
                break
            time.sleep(0.05)
        assert proc.poll() is None, "the demo finished before it could be killed"
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait(30)
    assert not (out / "report.md").exists()
    store = Store.open_case(out)
    try:
        return counts(store)
    finally:
        store.close()


def _snapshots(out: Path) -> int:
    import sqlite3

    try:
        with sqlite3.connect(out / "case.sqlite", timeout=1) as db:
            return int(db.execute("SELECT count(*) FROM snapshots").fetchone()[0])
    except sqlite3.Error:
        return 0


@pytest.mark.slow
@pytest.mark.skipif(os.name != "posix", reason="needs POSIX signals")
def test_a_killed_demo_resumes_with_its_world_and_writes_the_report(tmp_path: Path) -> None:
    out = tmp_path / "demo"
    before = _killed_demo(out)
    assert json.loads((out / DEMO_FILE).read_text())["seed"] == 7

    result = CliRunner().invoke(app, ["resume", str(out)])
    assert result.exit_code == 0, result.output
    assert "started again" in result.output and "report.md" in result.output
    for f in ("report.md", "tree.ged", "graph.jsonld", "research-log.jsonl",
              "review-summary.md"):
        assert (out / f).is_file(), f
    store = Store.open_case(out)
    try:
        after = counts(store)
    finally:
        store.close()
    assert after["snapshots"] > before["snapshots"], "the resumed run read the world again"
    log = [json.loads(x) for x in (out / "research-log.jsonl").read_text().splitlines()]
    assert not [e for e in log if e["action_type"] == "source_unavailable"]
    assert log[-1]["action_type"] == "termination"
    report = (out / "report.md").read_text()
    assert "[^1]:" in report


def test_a_demo_case_that_cannot_say_its_world_gets_one_line(tmp_path: Path) -> None:
    """A demo case from before the demo kept its settings: its sources name the in-process
    world's host, which nothing serves any more."""
    from sleuth.world.server import write_sources

    out = tmp_path / "old-demo"
    Store.create_case(out).close()
    write_sources(out / "sources", "http://world-7.sleuth.test", 1000.0, 50)
    result = CliRunner().invoke(app, ["resume", str(out)])
    assert result.exit_code == 2
    line = result.stderr.strip()
    assert "\n" not in line and "Traceback" not in line
    assert "`sleuth demo`'s simulated world" in line and "sleuth demo --out" in line
