"""A `kill -9` at the very start of `sleuth investigate` (the moment its case folder appears)
leaves a case that `sleuth resume` finishes as an uninterrupted run would; a folder an older
start left before it wrote its question is started again, and any other folder is refused."""

from __future__ import annotations

import json
import os
import re
import signal
import time
from pathlib import Path

import pytest

from investigation_cases import QUESTION, REPORT, run, write_corpus
from sleuth.domains.investigations.state import is_investigation, load_state
from sleuth.store import Store

_TIME = re.compile(r"\d{4}-\d\d-\d\dT[\d:.]+(Z|\+00:00)?")


def _files(case: Path) -> dict[str, str]:
    """The case's files, timestamps and the case id (its folder's name) left out; of a
    headless Chromium capture (made where Chromium is installed), only that it is there: its
    PDF and PNG carry the moment they were made."""
    out = {}
    for path in sorted(case.rglob("*")):
        rel = path.relative_to(case).as_posix()
        if path.is_file() and path.suffix in (".pdf", ".png") and rel.startswith("evidence/"):
            out[rel] = "(browser capture)"
        elif path.is_file() and not rel.startswith(".git/") and not rel.startswith("case."):
            text = _TIME.sub("T", path.read_text(encoding="utf-8", errors="replace"))
            if path.name == "metadata.json":
                text = json.dumps(_captures_named(json.loads(text)), indent=1)
            out[rel] = text.replace(f'"case_id": "{case.name}"', '"case_id": X')
    return out


def _captures_named(meta: object) -> object:
    """`metadata.json` with each browser capture's bytes and hash left out (see `_files`)."""
    if isinstance(meta, dict):
        if meta.get("kind") in ("pdf", "png"):
            return {"kind": meta["kind"], "path": meta.get("path")}
        return {k: _captures_named(v) for k, v in meta.items()}
    if isinstance(meta, list):
        return [_captures_named(v) for v in meta]
    return meta


@pytest.mark.skipif(os.name != "posix", reason="needs POSIX signals")
def test_kill_9_as_the_folder_appears_resumes_to_the_uninterrupted_result(
        tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus", report__txt=REPORT)
    case = tmp_path / "case"
    pid = os.fork()  # a real process, already past its imports: the kill lands at once
    if pid == 0:
        try:
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, 1)
            os.dup2(null, 2)
            run("investigate", QUESTION, "--out", case, "--corpus", corpus)
        finally:
            os._exit(0)
    deadline = time.monotonic() + 30
    while not case.exists() and time.monotonic() < deadline:
        time.sleep(0.0002)
    os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status), "the run ended before the kill"
    assert is_investigation(case), sorted(p.name for p in case.iterdir())  # its question
    assert load_state(case).topic == QUESTION

    code, out, err = run("resume", case)
    assert code == 0, out + err
    reference = tmp_path / "reference" / case.name
    code, out, err = run("investigate", QUESTION, "--out", reference, "--corpus", corpus)
    assert code == 0, out + err
    assert _files(case) == _files(reference)
    assert load_state(case).status == "COMPLETE"


def _older_start(case: Path, domain: str) -> None:
    """What a start killed before it wrote its question left (the order before `record`)."""
    Store.create_case(case, domain=domain).close()


def test_a_folder_left_before_the_question_was_written_is_started_again(
        tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus", report__txt=REPORT)
    case = tmp_path / "case"
    _older_start(case, "investigations")
    code, _, err = run("resume", case)
    assert code == 2 and "stopped before it recorded its question" in err
    assert "research" not in err and f"--out {case}" in err
    code, out, err = run("investigate", QUESTION, "--out", case, "--corpus", corpus)
    assert code == 0, out + err
    assert load_state(case).status == "COMPLETE"


def test_a_folder_holding_anything_else_is_still_refused(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus", report__txt=REPORT)
    research = tmp_path / "research"
    _older_start(research, "genealogy")  # another kind of case: never taken over
    notes = write_corpus(tmp_path / "notes", notes__txt="mine\n")
    mixed = tmp_path / "mixed"
    _older_start(mixed, "investigations")
    (mixed / "notes.txt").write_text("mine\n", encoding="utf-8")
    for folder in (research, notes, mixed):
        before = sorted(p.name for p in folder.iterdir())
        code, _, err = run("investigate", QUESTION, "--out", folder, "--corpus", corpus)
        assert code == 2 and "not empty" in err, err
        assert sorted(p.name for p in folder.iterdir()) == before
    code, _, err = run("resume", research)
    assert "stopped before it recorded" not in err
    assert json.loads((research / "case.json").read_text())["domain"] == "genealogy"
