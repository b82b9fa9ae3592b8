"""One writer per case (issue 26, item 1): a second `ingest`, `research` or `resume` on a case
another process is writing refuses with one line naming the holder and exit code 3, and
changes nothing; a writer killed with -9 leaves no lock behind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sleuth.cli.app import app
from sleuth.loop import research
from sleuth.model.errors import CaseBusy
from sleuth.store import Store, counts
from sleuth.store.lock import LOCK_FILE, case_lock

SAMPLE = Path(str(resources.files("sleuth") / "data" / "sample"))
OBITUARY = SAMPLE / "1916-03-14_obituary_hollis.txt"
HOLD = """
import sys, time
from pathlib import Path
from sleuth.store.lock import case_lock
with case_lock(Path(sys.argv[1]), "ingest"):
    print("held", flush=True)
    time.sleep(120)
"""


@pytest.fixture
def holder(tmp_path: Path):  # type: ignore[no-untyped-def]
    case = tmp_path / "case"
    Store.create_case(case).close()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(case)], stdout=subprocess.PIPE,
                            text=True, env=env)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
    yield case, proc
    if proc.poll() is None:
        proc.kill()
    proc.wait()
    proc.stdout.close()


def _counts(case: Path) -> dict[str, int]:
    store = Store.open_case(case)
    try:
        return counts(store)
    finally:
        store.close()


def test_a_second_writer_gets_one_line_and_exit_3(holder) -> None:  # type: ignore[no-untyped-def]
    case, proc = holder
    before = _counts(case)
    result = CliRunner().invoke(app, ["ingest", str(case), str(OBITUARY)])
    assert result.exit_code == 3, result.output
    line = result.stderr.strip()
    assert "\n" not in line
    assert f"is being written by pid {proc.pid} on host " in line and "(ingest)" in line
    assert _counts(case) == before  # nothing was stored
    with pytest.raises(CaseBusy):
        research(case, "Sarah Stroud")  # refused before anything is written


def test_a_killed_writer_leaves_no_lock(holder) -> None:  # type: ignore[no-untyped-def]
    case, proc = holder
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert (case / LOCK_FILE).read_text()  # the dead writer's record is still there ...
    result = CliRunner().invoke(app, ["ingest", str(case), str(OBITUARY)])
    assert result.exit_code == 0, result.output  # ... but its lock died with it
    assert _counts(case)["snapshots"] == 1
    assert (case / LOCK_FILE).read_text() == ""  # released: nobody holds it


def test_the_lock_is_reentrant_within_a_process(tmp_path: Path) -> None:
    case = tmp_path / "case"
    Store.create_case(case).close()
    with case_lock(case, "research"), case_lock(case, "ingest"):
        assert '"command": "research"' in (case / LOCK_FILE).read_text()
    assert (case / LOCK_FILE).read_text() == ""
    with case_lock(case, "ingest"):  # and free again afterwards
        pass
