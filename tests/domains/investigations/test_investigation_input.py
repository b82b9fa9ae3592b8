"""Bad input and dead ends (issue 24, item 3): a folder that holds only a start refused for
an empty question is started again by `sleuth investigate`; `sleuth resume` on a folder that
is no case says so; and every captured source's original bytes are in `evidence/` (the
store's database, which also holds them, is kept out of the case's git history)."""

from __future__ import annotations

from pathlib import Path

from investigation_cases import QUESTION, REPORT, assert_deliverable, run, write_corpus
from sleuth.domains.investigations.state import load_state


def test_a_refused_start_is_started_again_in_the_same_folder(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus", report__txt=REPORT)
    case = tmp_path / "case"
    code, _, err = run("investigate", "", "--out", case, "--corpus", corpus)
    assert code == 2 and "the question is empty" in err and "same --out" in err
    code, _, err = run("resume", case)
    assert code == 2 and f"sleuth investigate \"QUESTION\" --out {case}" in err
    code, out, err = run("investigate", QUESTION, "--out", case, "--corpus", corpus)
    assert code == 0, out + err
    state = load_state(case)
    assert state.status == "COMPLETE" and state.topic == QUESTION and not state.gaps
    assert_deliverable(case)
    # a case that ran is never started over
    code, _, err = run("investigate", QUESTION, "--out", case, "--corpus", corpus)
    assert code == 2 and "already an investigation" in err


def test_resume_on_a_folder_that_is_no_case_says_so(tmp_path: Path) -> None:
    folder = write_corpus(tmp_path / "notes", notes__txt="Some notes.\n")
    for where in (folder, tmp_path / "nowhere"):
        code, _, err = run("resume", where)
        assert code == 2 and "not a sleuth case" in err and "sleuth investigate" in err
        assert "\n" not in err.strip()
