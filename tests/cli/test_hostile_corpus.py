"""`sleuth ingest` on every file of the hostile corpus (`tests/hostile_corpus.py`, issue 26
item 8), each in its own process as a user runs it: none takes 10 s or prints a traceback;
a refused file exits 2 with one line naming it and leaves the case as it was; a file meant
to be read exits 0.

"Takes" is the process's CPU time (user + system, start-up included: about 1.5 s): wall
time on a shared machine measures its neighbours. A process still running after
`HANG` seconds of wall time is killed and counted as a hang whatever its CPU time.
The processes run two at a time (CI has two cores): the corpus in about a minute there.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import hostile_corpus
from case_tables import stored_snapshots
from sleuth.store import Store

SECONDS = 10.0  # the most CPU time any one file may take, start-up included
HANG = 120.0  # wall seconds after which a process is a hang, however loaded the machine


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, bool]]:
    out = tmp_path_factory.mktemp("hostile")
    return out, hostile_corpus.write(out)


def _ingest(case: Path, path: Path) -> tuple[int, str, str, float]:
    """(exit code, stdout, stderr, CPU seconds) of `sleuth ingest CASE PATH`; exit code -1
    for a hang."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "COLUMNS": "200"}
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen([sys.executable, "-m", "sleuth", "ingest", str(case),
                                 str(path)], stdout=out, stderr=err, env=env)
        deadline = time.monotonic() + HANG
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                proc.kill()
                _, status, usage = os.wait4(proc.pid, 0)
                status = -1
                break
            time.sleep(0.05)
        proc.returncode = 0  # (reaped here: keep Popen from waiting on it again)
        out.seek(0)
        err.seek(0)
        code = -1 if status == -1 else os.waitstatus_to_exitcode(status)
        return (code, out.read().decode(errors="replace"), err.read().decode(errors="replace"),
                usage.ru_utime + usage.ru_stime)


@pytest.mark.parametrize("kind", ["refused", "read"])
def test_sleuth_ingest_on_the_hostile_corpus(
    corpus: tuple[Path, dict[str, bool]], tmp_path: Path, kind: str
) -> None:
    folder, made = corpus
    names = sorted(n for n, refused in made.items() if refused == (kind == "refused"))
    # one case per file: a refused file must leave its case empty
    cases = {}
    for name in names:
        cases[name] = tmp_path / name.replace(".", "_")
        Store.create_case(cases[name]).close()
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = dict(zip(names, pool.map(lambda n: _ingest(cases[n], folder / n), names),
                           strict=True))
    problems = []
    for name, (code, out, err, took) in results.items():
        said = out + err
        why = []
        if code == -1:
            why.append(f"hung (killed after {HANG:.0f} s)")
        elif took > SECONDS:
            why.append(f"took {took:.1f} s of CPU")
        if "Traceback" in said or "Error:" in said.replace("sleuth: error:", ""):
            why.append("printed a traceback")
        stored = stored_snapshots(cases[name])
        if kind == "refused":
            lines = err.strip().splitlines()
            if code != 2:
                why.append(f"exit code {code}")
            if len(lines) != 1 or not lines[0].startswith(f"sleuth: error: {folder / name}"):
                why.append(f"not one error line naming the file: {err.strip()[:300]!r}")
            if stored:
                why.append(f"{stored} snapshot(s) stored")
        else:
            if code != 0:
                why.append(f"exit code {code}: {err.strip()[:300]!r}")
            if stored != 1:
                why.append(f"{stored} snapshots stored")
        if why:
            problems.append(f"{name}: {'; '.join(why)}")
    assert not problems, "\n".join(problems)
