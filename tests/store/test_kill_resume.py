"""Kill -9 mid-ingest: the store holds whole snapshots or none, and re-running completes it
with no loss and no duplicates (a real subprocess, a real SIGKILL)."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import text

from shared_data import shared_path
from sleuth.store import Store

pytestmark = pytest.mark.skipif(os.name != "posix", reason="needs POSIX signals")


def _ingest_cmd(case: Path, files: list[Path]) -> list[str]:
    return [sys.executable, "-m", "sleuth", "ingest", str(case), *map(str, files)]


def _per_snapshot_counts(case: Path) -> dict[str, tuple[int, int]]:
    store = Store.open_case(case)
    try:
        with store.engine.connect() as c:
            rows = c.execute(
                text(
                    "SELECT s.path, (SELECT count(*) FROM candidates k WHERE k.snapshot_id = s.id),"
                    " (SELECT count(*) FROM citations x WHERE x.snapshot_id = s.id)"
                    " FROM snapshots s"
                )
            ).all()
    finally:
        store.close()
    return {Path(p).name: (k, x) for p, k, x in rows}


def _init(case: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "sleuth", "init", str(case)], check=True, capture_output=True
    )


@pytest.mark.slow
def test_sigkill_mid_ingest_then_resume(tmp_path: Path) -> None:
    pages = sorted(shared_path("text", "chronam_1916_front_pages", "pages").glob("*.txt"))[:12]
    reference = tmp_path / "reference"
    _init(reference)
    subprocess.run(_ingest_cmd(reference, pages), check=True, capture_output=True)
    expected = _per_snapshot_counts(reference)
    assert len(expected) == len(pages)

    case = tmp_path / "case"
    _init(case)
    rng = random.Random(20261122)
    kills = 0
    for _ in range(6):
        proc = subprocess.Popen(
            _ingest_cmd(case, pages), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        time.sleep(rng.uniform(0.4, 1.6))
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            kills += 1
        proc.wait()
        partial = _per_snapshot_counts(case)
        for name, got in partial.items():  # every stored snapshot is complete
            assert got == expected[name], f"{name}: partial batch {got} != {expected[name]}"
    assert kills >= 1, "the ingest finished before any kill; the test proved nothing"
    done = subprocess.run(_ingest_cmd(case, pages), capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert _per_snapshot_counts(case) == expected
