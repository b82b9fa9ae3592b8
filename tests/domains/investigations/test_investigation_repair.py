"""A corpus file whose capture failed is a gap until it is repaired, replaced or removed
(issue 24, item 3: bad input gets a recorded gap, never a silent pass; termination only when
the gaps are empty): `sleuth resume` reads a file again once its bytes changed, and the
case completes on it; a file removed from the corpus closes its gap as removed, recorded in
the registry; a file touched but not changed stays the gap it was. And the case repository
shares no path of the investigator's machine: every commit names corpus files relative to
the corpus folder."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from test_investigation_repo_privacy import committed

from hostile_corpus import pdf
from investigation_cases import QUESTION, REPORT, UNRELATED, assert_deliverable, run, write_corpus
from sleuth.domains.investigations.repo import iteration_commits
from sleuth.domains.investigations.state import STATE_FILE, VIEW_MARK, load_state

NUL_TEXT = REPORT.replace("OFK föreslår", "OFK\x00föreslår").encode("utf-8")
BROKEN = {"report.txt": (NUL_TEXT, "binary data, not text"),
          "report.pdf": (b"%PDF-1.4 this is no pdf at all", "")}
REPAIRED = {"report.txt": REPORT.encode("utf-8"), "report.pdf": pdf([REPORT])}


def _stalled(corpus: Path, case: Path) -> str:
    code, out, err = run("investigate", QUESTION, "--out", case, "--corpus", corpus)
    assert code == 1, out + err
    state = load_state(case)
    assert state.termination and state.termination["reason"] == "stalled"
    return out


def _failed_gap(case: Path) -> tuple[str, str]:
    state = load_state(case)
    (gap,) = [g for g in state.gaps if g.kind == "capture_failed"]
    return gap.id, gap.text


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_a_repaired_corpus_file_is_captured_on_resume_and_the_case_completes(
        tmp_path: Path, name: str) -> None:
    broken, error = BROKEN[name]
    corpus = write_corpus(tmp_path / "corpus", weather__txt=UNRELATED)
    (corpus / name).write_bytes(broken)
    case = tmp_path / "case"
    out = _stalled(corpus, case)
    failed = next(s for s in load_state(case).sources if s.status == "failed")
    assert Path(failed.path).name == name and error in failed.error
    gap_id, gap_text = _failed_gap(case)
    assert f"gap [capture_failed]: {gap_text}" in out and "repair or replace" in out
    commits = len(iteration_commits(case))
    # touched, not changed: the bytes decide, so a resume has nothing new to read
    os.utime(corpus / name, ns=(1, 1))
    code, out, _ = run("resume", case)
    assert code == 1 and "nothing it reads has changed since" in out
    assert _failed_gap(case) == (gap_id, gap_text)
    assert len(iteration_commits(case)) == commits
    # changed and still broken: read again, the same gap with the new error
    (corpus / name).write_bytes(broken.replace(b"1969", b"1970") + b"\x00")
    code, out, _ = run("resume", case)
    assert code == 1 and f"capture failed again: {failed.id}" in out
    again = _failed_gap(case)
    assert again[0] == gap_id
    assert load_state(case).source(failed.id).sha256 != failed.sha256  # type: ignore[union-attr]
    # repaired: captured under the same id, quoted in the summary, and the case completes
    (corpus / name).write_bytes(REPAIRED[name])
    code, out, err = run("resume", case)
    assert code == 0, out + err
    assert f"captured {failed.id} SOU 1970:12 ({name}): the file changed" in out
    state = load_state(case)
    assert state.status == "COMPLETE" and not state.gaps
    rec = state.source(failed.id)
    assert rec is not None and rec.status == "captured" and not rec.error
    assert [s.status for s in state.sources] == ["captured", "captured"]
    summary = (case / "summary.md").read_text(encoding="utf-8")
    assert re.search(rf"^\[\^\d+\]: {failed.id}, SOU 1970:12", summary, re.M)
    assert "Rune Hermansson" in summary
    assert_deliverable(case)


def test_a_file_removed_from_the_corpus_closes_its_gap_as_removed(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus", report__txt=REPORT, notes__txt=NUL_TEXT)
    case = tmp_path / "case"
    _stalled(corpus, case)
    assert load_state(case).source("S001").status == "failed"  # type: ignore[union-attr]
    (corpus / "notes.txt").unlink()
    code, out, err = run("resume", case)
    assert code == 0, out + err
    assert "gap closed: S001 file removed from the corpus" in out
    state = load_state(case)
    assert state.status == "COMPLETE" and not state.gaps
    rec = state.source("S001")
    assert rec is not None and rec.status == "removed"
    assert rec.error.startswith("file removed from the corpus (it could not be captured: ")
    assert "| `notes.txt` |" in (sources := (case / "sources.md").read_text(encoding="utf-8"))
    assert "REMOVED: file removed from the corpus" in sources
    assert_deliverable(case)


def test_no_commit_holds_a_path_of_the_investigators_machine(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus", report__txt=REPORT, notes__txt=NUL_TEXT)
    case = tmp_path / "case"
    out = _stalled(corpus, case)
    assert str(corpus) in out  # the terminal shows where to look; the repository does not
    (corpus / "notes.txt").write_text("Notes on the committee of 1969.\n", encoding="utf-8")
    assert run("resume", case)[0] == 0
    where = sorted({f"{path} ({head})" for head, path, text in committed(case)
                    if str(tmp_path) in text})
    assert not where, where
    shared = json.loads((case / STATE_FILE).read_text(encoding="utf-8"))
    assert shared["corpus"] == "corpus"
    assert sorted(s["path"] for s in shared["sources"]) == ["notes.txt", "report.txt"]
    meta = json.loads((case / "evidence" / "S002" / "metadata.json").read_text("utf-8"))
    assert meta["path"] == "report.txt"
    # the loop's own state keeps the paths it finds the files by
    assert load_state(case).corpus == str(corpus.resolve())


def test_the_empty_question_is_recorded_in_the_file_its_message_names(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus", report__txt=REPORT)
    case = tmp_path / "case"
    code, _, err = run("investigate", "", "--out", case, "--corpus", corpus)
    assert code == 2 and "the question is empty" in err
    named = re.search(r"recorded as a gap in (\S+), not committed", " ".join(err.split()))
    assert named and Path(named.group(1)) == case / STATE_FILE
    shared = json.loads((case / STATE_FILE).read_text(encoding="utf-8"))
    assert VIEW_MARK in shared and shared["status"] == "ERROR"
    assert [g["kind"] for g in shared["gaps"]] == ["bad_input"]
    assert str(tmp_path) not in json.dumps(shared)
    assert (case / ".git").is_dir() and not iteration_commits(case)  # nothing committed
