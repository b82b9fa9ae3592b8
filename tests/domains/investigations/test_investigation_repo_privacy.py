"""The case repository is meant to be shared, so a living private person reaches none of it
(issue 24; living people protected in every output path): no blob of any commit and no
commit message holds their name, surname or day of birth. The loop's own working copies
stay in the git-ignored `.working/`, which a resume reads (also after a kill mid-iteration);
a copy of the repository without them is not resumed from masked names."""

from __future__ import annotations

import io
import json
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from dulwich import porcelain
from dulwich.objects import Commit, Tree
from dulwich.repo import Repo

from investigation_cases import REPORT, run, write_corpus
from sleuth.domains.investigations.loop import resume, start
from sleuth.domains.investigations.protect import MASK
from sleuth.domains.investigations.repo import iteration_commits
from sleuth.domains.investigations.state import Budget, load_state

# The protect tests' fixtures: a private person with no years (test_investigation_run) and
# one the source gives a day of birth in 1990 (test_investigation_protect).
RECORDS = ("Report of the Committee (RC)\n\nThe committee adopted the name Records Committee "
           "(RC).\n\nThe committee recommended that all records be opened. Mr. John Quincy "
           "Smith said the committee recommended opening the records early.\n")
LIFE = ("The life of a Leeds clerk\n\nJohn Smith was born on 4 March 1990 in Leeds, the son "
        "of a wool merchant. He worked as a clerk in the city before the war, and kept the "
        "accounts of the wool exchange for thirty years.\n")
CASES = {
    "records": ("What did the records committee recommend?", RECORDS,
                ("John Quincy Smith", "Quincy", "Smith")),
    "life": ("When was John Smith born?", LIFE, ("John Smith", "Smith", "4 March 1990")),
}


def _blobs(repo: Repo, tree_id: bytes, prefix: str = "") -> Iterator[tuple[str, bytes]]:
    tree = repo[tree_id]
    assert isinstance(tree, Tree)
    for item in tree.items():
        obj = repo[item.sha]
        path = prefix + item.path.decode()
        if isinstance(obj, Tree):
            yield from _blobs(repo, item.sha, path + "/")
        else:
            yield path, obj.as_raw_string()


def committed(case: Path) -> Iterator[tuple[str, str, str]]:
    """(commit headline, path or "<message>", text) of every file in every commit."""
    repo = Repo(str(case))
    try:
        for entry in repo.get_walker():
            commit: Commit = entry.commit
            head = commit.message.decode().splitlines()[0]
            yield head, "<message>", commit.message.decode("utf-8", "replace")
            for path, data in _blobs(repo, commit.tree):
                yield head, path, data.decode("utf-8", "replace")
    finally:
        repo.close()


def leaks(case: Path, needles: tuple[str, ...]) -> list[str]:
    return sorted({f"{path} ({head}): {n}" for head, path, text in committed(case)
                   for n in needles if n.lower() in text.lower()})


def _run(tmp_path: Path, which: str, progress: Callable[[str], None] = print) -> Path:
    question, text, _ = CASES[which]
    corpus = write_corpus(tmp_path / "corpus", source__txt=text)
    case = tmp_path / "case"
    start(question, case, corpus, budget=Budget(max_iterations=2), progress=progress)
    return case


@pytest.mark.parametrize("which", sorted(CASES))
def test_no_commit_holds_a_living_private_persons_name(tmp_path: Path, which: str) -> None:
    case = _run(tmp_path, which)
    assert len(iteration_commits(case)) == 2
    assert leaks(case, CASES[which][2]) == []
    paths = {path for _, path, _ in committed(case)}
    # the working state is committed only as its censored view, and says so
    view = json.loads((case / "_state.json").read_text(encoding="utf-8"))
    assert "_view" in view and "_state.json" in paths and "_extraction.json" in paths
    people = json.loads((case / "_extraction.json").read_text(encoding="utf-8"))["people"]
    assert [p["name"] for p in people] == [MASK]
    assert load_state(case).topic == CASES[which][0]  # the loop's own copy: as asked
    # the source names the person: its bytes stay out, its metadata (hashes) goes in
    assert "evidence/S001/metadata.json" in paths
    assert not any(p.startswith("evidence/S001/") and not p.endswith(("metadata.json",
                                                                      ".gitignore"))
                   for p in paths), sorted(paths)
    meta = json.loads((case / "evidence/S001/metadata.json").read_text(encoding="utf-8"))
    assert len(meta["original"]["sha256"]) == 64 and "original.txt" in meta["withheld"]
    assert (case / "evidence/S001/capture.txt").read_text(encoding="utf-8").startswith(
        CASES[which][1].split("\n")[0])  # still here: verification reads it
    assert "withheld from the repository: names a living private person" in (
        case / "sources.md").read_text(encoding="utf-8")
    assert porcelain.status(str(case)).untracked == []  # nothing left lying unignored


def test_a_case_that_names_no_living_private_person_commits_its_sources(
        tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus", report__txt=REPORT)
    case = tmp_path / "case"
    start("What did the 1969 inquiry into public access and secrecy decide, and who sat on "
          "it?", case, corpus)
    paths = {path for _, path, _ in committed(case)}
    assert {"evidence/S001/original.txt", "evidence/S001/capture.txt"} <= paths
    assert not (case / "evidence/S001/.gitignore").exists()
    assert "withheld" not in (case / "sources.md").read_text(encoding="utf-8")
    view = json.loads((case / "_state.json").read_text(encoding="utf-8"))
    view.pop("_view")
    own = json.loads((case / ".working/state.json").read_text(encoding="utf-8"))
    # paths aside (the working state's are absolute, the view's relative to the corpus)
    assert (own.pop("corpus"), view.pop("corpus")) == (str(corpus.resolve()), "corpus")
    assert [s["path"] for s in view["sources"]] == ["report.txt"]
    for s in own["sources"]:
        s["path"] = Path(s["path"]).relative_to(corpus.resolve()).as_posix()
    assert view == own  # nothing to mask: the view is the state


class Killed(BaseException):
    """The run stopping dead, as a kill -9 would (no handler catches a BaseException)."""


def test_resume_after_a_kill_mid_iteration_reads_the_working_copy(tmp_path: Path) -> None:
    reference = _run(tmp_path / "ref", "records")

    def kill(line: str) -> None:
        if line.startswith("[iteration 2 · EXTRACTION]"):
            raise Killed

    with pytest.raises(Killed):
        _run(tmp_path / "run", "records", progress=kill)
    case = tmp_path / "run" / "case"
    assert load_state(case).current_phase == "EXTRACTION"
    assert len(iteration_commits(case)) == 1
    resume(case)
    state, ref = load_state(case), load_state(reference)
    assert state.status == ref.status and state.termination and ref.termination
    assert state.termination["reason"] == ref.termination["reason"]
    for name in ("summary.md", "people.md", "fact-check.md", "_extraction.json"):
        assert (case / name).read_text() == (reference / name).read_text(), name
    assert [c[2].splitlines()[0] for c in iteration_commits(case)] == [
        c[2].splitlines()[0] for c in iteration_commits(reference)]
    assert leaks(case, CASES["records"][2]) == []


def test_a_copy_without_the_working_state_is_not_resumed(tmp_path: Path) -> None:
    case = _run(tmp_path, "records")
    clone = tmp_path / "clone"
    porcelain.clone(str(case), str(clone), errstream=io.BytesIO()).close()
    assert not (clone / ".working").exists() and not (clone / "case.sqlite").exists()
    code, _, err = run("resume", clone, "--max-iterations", 4)
    assert code == 2 and ".working/ is missing" in err and "\n" not in err.strip()
    code, out, _ = run("export", clone, "--format", "state")  # the view can be read
    assert code == 0 and '"_view"' in out and "Quincy" not in out


def test_a_case_from_before_the_working_copies_resumes_and_is_censored(
        tmp_path: Path) -> None:
    case = _run(tmp_path, "records")
    for name in ("state", "extraction"):  # the old layout: the loop's copies committed
        shutil.move(case / ".working" / f"{name}.json", case / f"_{name}.json")
    shutil.rmtree(case / ".working")
    code, out, err = run("resume", case, "--max-iterations", 3)
    assert code in (0, 1), out + err
    assert load_state(case).current_iteration == 3
    head = json.loads((case / "_state.json").read_text(encoding="utf-8"))
    assert "_view" in head and "Quincy" not in json.dumps(head)
    assert ".working/" in (case / ".gitignore").read_text(encoding="utf-8")
