"""Real GEDCOM clients as judges of our exports: the `gedcom7` validator and Gramps 6.

Install both with `.ci/gedcom-clients.sh` (it prints the gramps path; export it as
SLEUTH_GRAMPS). Each test skips, saying what is missing, when its client is absent.
"""

from __future__ import annotations

import os
import re
import subprocess
from datetime import date
from pathlib import Path

import pytest

from shared_data import shared_path
from sleuth.export import to_gedcom
from sleuth.gedcom import parse_gedcom
from sleuth.pipeline.ingest import ingest_path
from sleuth.store import Store, case_graph

TODAY = date(2026, 11, 22)
# Gramps 6 reads GEDCOM 7 with its 5.5.1 reader and says so; that notice is not an error.
_GRAMPS_NOTICES = ("GEDCOM version not supported",)


def _export(tmp: Path, name: str, version: str) -> tuple[str, Path]:
    store = Store.create_case(tmp / "case")
    try:
        ingest_path(store, shared_path("gedcom", "samples", name))
        text = to_gedcom(case_graph(store, title=name), version=version, today=TODAY)
    finally:
        store.close()
    out = tmp / f"out-{version}.ged"
    out.write_text(text, encoding="utf-8")
    return text, out


@pytest.mark.parametrize("name", ["kennedy.ged", "bronte.ged"])
def test_our_gedcom7_passes_the_gedcom7_validator(tmp_path: Path, name: str) -> None:
    gedcom7 = pytest.importorskip("gedcom7", reason="pip install gedcom7==1.2.0 (bench extra)")
    text, _ = _export(tmp_path, name, "7.0")
    errors = gedcom7.validate(gedcom7.loads(text))
    assert errors == [], [(e.category, e.path, e.message) for e in errors[:5]]


def _gramps() -> str:
    exe = os.environ.get("SLEUTH_GRAMPS", "")
    if not exe or not Path(exe).exists():
        pytest.skip("Gramps 6 not installed: run .ci/gedcom-clients.sh, set SLEUTH_GRAMPS")
    return exe


def _gramps_import(exe: str, ged: Path, out: Path, home: Path) -> set[str]:
    """Import `ged` into Gramps and export it to `out`; the problems its import report
    lists, each without its line number (a line of ours is not the original's)."""
    run = subprocess.run(
        [exe, "-y", "-q", "-i", str(ged), "-e", str(out)],
        capture_output=True, text=True, timeout=300,
        env={**os.environ, "HOME": str(home), "LANG": "C.UTF-8"},
    )
    assert run.returncode == 0, run.stderr[-2000:]
    report = re.search(r"GEDCOM import report: (\d+) errors? detected(.*?)(?:\n\n|\Z)",
                       run.stdout + run.stderr, re.S)
    lines = report.group(2).splitlines() if report else []
    return {re.split(r"\s+Line\s+\d+:", line)[0].strip() for line in lines
            if line.strip() and not line.strip().startswith(_GRAMPS_NOTICES)}


@pytest.mark.parametrize("version", ["5.5.1", "7.0"])
def test_gramps_imports_our_export_with_the_same_people(tmp_path: Path, version: str) -> None:
    """Gramps reads our export of kennedy.ged with the same people and families, and finds
    nothing wrong in it that it does not find in kennedy.ged itself (the tree's own empty
    NOTEs and media files absent from disk, which an export keeps as the tree has them)."""
    exe = _gramps()
    text, out = _export(tmp_path, "kennedy.ged", version)
    ours = parse_gedcom(text)
    check = tmp_path / "check.ged"
    problems = _gramps_import(exe, out, check, tmp_path)
    original = _gramps_import(exe, shared_path("gedcom", "samples", "kennedy.ged"),
                              tmp_path / "original.ged", tmp_path)
    assert problems <= original, sorted(problems - original)[:5]
    back = parse_gedcom(check.read_text(encoding="utf-8"))
    assert len(back.of_tag("INDI")) == len(ours.of_tag("INDI")) == 208
    assert len(back.of_tag("FAM")) == len(ours.of_tag("FAM"))
