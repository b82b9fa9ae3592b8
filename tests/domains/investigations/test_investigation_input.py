"""Bad input and dead ends (issue 24, item 3): a folder that holds only a start refused for
an empty question is started again by `sleuth investigate`; `sleuth resume` on a folder that
is no case says so; and every captured source's original bytes are in `evidence/` (the
store's database, which also holds them, is kept out of the case's git history)."""

from __future__ import annotations

import bz2
import hashlib
import json
from pathlib import Path

from dulwich.repo import Repo

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


def _committed(case: Path) -> set[str]:
    repo = Repo(str(case))
    try:
        out: set[str] = set()
        todo = [(repo[repo.head()].tree, "")]  # type: ignore[attr-defined]
        while todo:
            tree, prefix = todo.pop()
            for e in repo[tree].items():  # type: ignore[attr-defined]
                path = prefix + e.path.decode()
                if e.mode & 0o040000:
                    todo.append((e.sha, path + "/"))
                else:
                    out.add(path)
        return out
    finally:
        repo.close()


def test_the_evidence_holds_each_sources_original_bytes(tmp_path: Path) -> None:
    packed = bz2.compress(REPORT.encode("utf-8"))
    corpus = write_corpus(tmp_path / "corpus", report__txt__bz2=packed)
    case = tmp_path / "case"
    code, out, err = run("investigate", QUESTION, "--out", case, "--corpus", corpus)
    assert code == 0, out + err
    rec = load_state(case).source("S001")
    assert rec is not None and rec.path.endswith("report.txt.bz2")
    folder = case / "evidence" / "S001"
    assert (folder / "original.txt.bz2").read_bytes() == packed  # as read, not decompressed
    meta = json.loads((folder / "metadata.json").read_text(encoding="utf-8"))
    digest = hashlib.sha256(packed).hexdigest()
    assert meta["original"] == {"path": "original.txt.bz2", "bytes": len(packed),
                                "sha256": digest}
    assert rec.sha256 == digest  # the source's hash is the original's
    assert "evidence/S001/original.txt.bz2" in _committed(case)
