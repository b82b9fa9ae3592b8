"""A corpus entry that is no file to read (a link whose target is missing, a named pipe) is
a failed capture with its own line in sources.md and a recorded gap, as an unreadable PDF
is, never skipped silently; a pipe is never opened (it would wait for a writer for ever).
Once repaired, `sleuth resume` captures it under the same source id."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from investigation_cases import QUESTION, REPORT, run, write_corpus
from sleuth.domains.investigations.corpus import Corpus
from sleuth.domains.investigations.state import load_state

pytestmark = pytest.mark.skipif(os.name != "posix", reason="needs links and named pipes")


def _odd_corpus(folder: Path) -> Path:
    corpus = write_corpus(folder, report__txt=REPORT, notes__txt="Notes on the inquiry.\n")
    (corpus / "broken.txt").symlink_to(folder.parent / "nowhere" / "gone.txt")
    (corpus / "linked.txt").symlink_to(corpus / "notes.txt")  # a good link is read
    os.mkfifo(corpus / "pipe.txt")
    return corpus


def test_the_corpus_reads_a_good_link_and_names_what_is_no_file(tmp_path: Path) -> None:
    corpus = _odd_corpus(tmp_path / "corpus")
    got: list[Corpus] = []
    reader = threading.Thread(target=lambda: got.append(Corpus.read(corpus)), daemon=True)
    reader.start()
    reader.join(20)
    if reader.is_alive():  # it opened the pipe: let it go before failing
        os.close(os.open(corpus / "pipe.txt", os.O_WRONLY | os.O_NONBLOCK))
    assert got, "reading the corpus waited on the named pipe"
    errors = {f.path.name: f.error for f in got[0].unreadable}
    assert errors == {
        "broken.txt": f"{corpus / 'broken.txt'}: unreadable: a link whose target does not exist",
        "pipe.txt": f"{corpus / 'pipe.txt'}: not read: a named pipe (FIFO), not a file"}
    assert sorted(f.path.name for f in got[0].readable) == ["linked.txt", "notes.txt",
                                                           "report.txt"]


def test_each_is_a_failed_source_and_a_gap_until_repaired(tmp_path: Path) -> None:
    corpus = _odd_corpus(tmp_path / "corpus")
    case = tmp_path / "case"
    code, out, err = run("investigate", QUESTION, "--out", case, "--corpus", corpus,
                         "--max-iterations", 1)
    assert code == 1, out + err  # never a silent pass
    state = load_state(case)
    failed = {Path(s.path).name: s.id for s in state.sources if s.status == "failed"}
    assert sorted(failed) == ["broken.txt", "pipe.txt"]
    assert str(tmp_path / "nowhere") not in (case / "sources.md").read_text()
    lines = [ln for ln in (case / "sources.md").read_text().splitlines() if "FAILED" in ln]
    assert [ln.split(" | ")[2] for ln in lines] == ["`broken.txt`", "`pipe.txt`"]
    gaps = {g.ref for g in state.gaps if g.kind == "capture_failed"}
    assert gaps == set(failed.values())

    (tmp_path / "nowhere").mkdir()
    (tmp_path / "nowhere" / "gone.txt").write_text("Notes kept elsewhere.\n")
    (corpus / "pipe.txt").unlink()
    (corpus / "pipe.txt").write_text("Notes from a pipe no more.\n")
    code, out, err = run("resume", case, "--max-iterations", 2)
    state = load_state(case)
    by_id = {s.id: s for s in state.sources}
    assert all(by_id[sid].status == "captured" for sid in failed.values()), out + err
    assert not [g for g in state.gaps if g.kind == "capture_failed"]
