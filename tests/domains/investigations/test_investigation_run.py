"""`sleuth investigate` and `sleuth resume` on small inline corpora (issue 24, items 2-3):
the summary rewritten each iteration with every sentence footnoted and VERIFIED, one git
commit per iteration, contested claims stated as positions, termination reasons, bad input
recorded as gaps."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from dulwich.repo import Repo

from investigation_cases import (
    DISSENT,
    QUESTION,
    REPORT,
    UNRELATED,
    assert_deliverable,
    run,
    write_corpus,
)
from sleuth.domains import get_domain
from sleuth.domains.investigations.finale import body_lines, integrity
from sleuth.domains.investigations.loop import start
from sleuth.domains.investigations.render import FORBIDDEN_PHRASES, View
from sleuth.domains.investigations.repo import iteration_commits
from sleuth.domains.investigations.state import Budget, load_state
from sleuth.store import Store


def test_investigation_completes_with_a_verified_footnoted_summary(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus", report__txt=REPORT, weather__txt=UNRELATED)
    case = tmp_path / "case"
    code, out, err = run("investigate", QUESTION, "--out", case, "--corpus", corpus)
    assert code == 0, out + err
    assert "COMPLETE: verified" in out
    state = load_state(case)
    assert state.status == "COMPLETE" and state.current_phase == "COMPLETE"
    assert state.termination and state.termination["reason"] == "verified"
    assert state.verification_passed and state.gaps == []
    assert_deliverable(case)
    summary = (case / "summary.md").read_text(encoding="utf-8")
    assert "Rune Hermansson was appointed chair of the inquiry" in summary
    assert "## What the inquiry decided" in summary and "## Who sat on it" in summary
    # the case folder: its files, the store, the evidence, its own git repository
    for name in ("_state.json", "_extraction.json", "sources.md", "people.md",
                 "organizations.md", "timeline.md", "statements.md", "fact-check.md",
                 "theories.md", "iterations.md", "summary.md", "integrity-check.md",
                 "legal-review.md", "research-leads/iteration-01.md"):
        assert (case / name).is_file(), name
    meta = json.loads((case / "evidence" / "S001" / "metadata.json").read_text())
    assert meta["path"].endswith("report.txt") and len(meta["sha256"]) == 64
    assert meta["captured_at"] and meta["snapshot_id"]
    assert Store.case_domain(case) == "investigations"
    store = Store.open_case(case)
    try:
        assert store.snapshot(meta["snapshot_id"]).sha256 == meta["sha256"]
    finally:
        store.close()
    commits = iteration_commits(case)
    assert [c[0] for c in commits] == list(range(1, state.current_iteration + 1))
    repo = Repo(str(case))
    try:
        head = repo[repo.head()]
        tree = {p.decode() for p in _paths(repo, head.tree)}  # type: ignore[attr-defined]
    finally:
        repo.close()
    assert "summary.md" in tree and "evidence/S001/metadata.json" in tree
    assert "case.sqlite" not in tree and "writer.lock" not in tree  # the database stays out
    # the iteration's summary is its commit message
    assert commits[-1][2].startswith(f"Iteration {state.current_iteration}: complete")
    assert "Rune Hermansson" in commits[-1][2]
    # the unrelated file was not a source
    assert [s.path.endswith("report.txt") for s in state.sources] == [True]


def _paths(repo: Repo, tree_id: bytes, prefix: bytes = b"") -> list[bytes]:
    out = []
    for entry in repo[tree_id].items():  # type: ignore[attr-defined]
        path = prefix + entry.path
        if entry.mode & 0o040000:
            out += _paths(repo, entry.sha, path + b"/")
        else:
            out.append(path)
    return out


def test_a_contested_claim_blocks_completion_until_every_position_is_stated(
        tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus", report__txt=REPORT, dissent__txt=DISSENT)
    case = tmp_path / "case"
    state = start(QUESTION, case, corpus)
    assert state.status == "COMPLETE"
    assert state.current_iteration == 2  # iteration 1 found the contradiction
    commits = iteration_commits(case)
    assert [c[0] for c in commits] == [1, 2]
    first = commits[0][2]
    assert first.startswith("Iteration 1:") and "gaps remain" in first.splitlines()[0]
    # iteration 1: CONTRADICTED, so not passed; the contradicted statement kept out
    repo = Repo(str(case))
    try:
        old = json.loads(repo[repo[repo[commits[0][1].encode()].tree][  # type: ignore[attr-defined,index]
            b"_state.json"][1]].data)  # type: ignore[index,attr-defined]
    finally:
        repo.close()
    verdicts = {c["verdict"] for c in old["verification"]["checks"].values()}
    assert "CONTRADICTED" in verdicts and not old["verification_passed"]
    assert any(g["kind"] == "contradicted" for g in old["gaps"])
    # iteration 2: both positions, each attributed and VERIFIED against its own source
    fact = (case / "fact-check.md").read_text(encoding="utf-8")
    assert "VERIFIED: SOU 1970:12 dates the appointment of Rune Hermansson" in fact
    assert "VERIFIED: Dir. 1971:3 dates the appointment of Rune Hermansson" in fact
    summary = (case / "summary.md").read_text(encoding="utf-8")
    assert "to 9 May 1969" in summary and "to 9 June 1969" in summary
    assert "theories" and "position S002" in (case / "theories.md").read_text()
    assert_deliverable(case)


def test_the_iteration_budget_stops_a_run_and_resume_continues_it(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus", report__txt=REPORT, dissent__txt=DISSENT)
    case = tmp_path / "case"
    code, out, _ = run("investigate", QUESTION, "--out", case, "--corpus", corpus,
                       "--max-iterations", 1)
    assert code == 1 and "budget:iterations" in out and "gap [contradicted]" in out
    state = load_state(case)
    assert state.status == "PAUSED"
    assert state.termination and state.termination["reason"] == "budget:iterations"
    assert state.termination["gaps"]  # the final state names what is open
    assert [c[0] for c in iteration_commits(case)] == [1]
    code, out, _ = run("resume", case)  # no larger budget: it says so, changes nothing
    assert code == 1 and "give a larger --max-iterations" in out
    assert [c[0] for c in iteration_commits(case)] == [1]
    code, out, err = run("resume", case, "--max-iterations", 3)
    assert code == 0, out + err
    assert load_state(case).status == "COMPLETE"
    assert [c[0] for c in iteration_commits(case)] == [1, 2]
    assert_deliverable(case)


def test_the_request_budget_stops_a_run(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus", report__txt=REPORT)
    state = start(QUESTION, tmp_path / "case", corpus, budget=Budget(max_requests=0))
    assert state.status == "PAUSED" and state.termination
    assert state.termination["reason"] == "budget:requests"
    assert not state.verification_passed
    assert {g.kind for g in state.gaps} == {"unanswered", "unread"}
    # the file the budget left unread is named, not silently dropped
    assert [Path(g.ref).name for g in state.gaps if g.kind == "unread"] == ["report.txt"]


def test_an_empty_question_is_refused_and_recorded(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus", report__txt=REPORT)
    case = tmp_path / "case"
    code, _, err = run("investigate", "   ", "--out", case, "--corpus", corpus)
    assert code == 2
    assert "the question is empty" in err and "\n" not in err.strip()
    state = load_state(case)
    assert state.status == "ERROR" and [g.kind for g in state.gaps] == ["bad_input"]
    code, _, err = run("resume", case)
    assert code == 2 and "the question is empty" in err


def test_no_corpus_is_a_clear_error(tmp_path: Path) -> None:
    code, _, err = run("investigate", QUESTION, "--out", tmp_path / "case")
    assert code == 2 and "--corpus" in err and "\n" not in err.strip()
    assert not (tmp_path / "case").exists()


def test_a_missing_corpus_folder_is_a_clear_error(tmp_path: Path) -> None:
    code, _, err = run("investigate", QUESTION, "--out", tmp_path / "case", "--corpus",
                       tmp_path / "nowhere")
    assert code == 2 and "corpus folder does not exist" in err
    assert not (tmp_path / "case").exists()


def test_an_unreadable_corpus_file_is_a_failed_capture_and_a_gap(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus", report__txt=REPORT, empty__txt="",
                          broken__pdf=b"%PDF-1.4 this is no pdf at all")
    case = tmp_path / "case"
    code, out, err = run("investigate", QUESTION, "--out", case, "--corpus", corpus,
                         "--max-iterations", 2)
    assert code == 1, err  # never a silent pass: the gaps keep it from completing
    state = load_state(case)
    failed = [s for s in state.sources if s.status == "failed"]
    assert sorted(Path(s.path).name for s in failed) == ["broken.pdf", "empty.txt"]
    assert all(s.error for s in failed)
    gaps = [g for g in state.gaps if g.kind == "capture_failed"]
    assert len(gaps) == 2 and all("could not be captured" in g.text for g in gaps)
    assert state.termination and state.termination["reason"] == "budget:iterations"
    assert "gap [capture_failed]" in out
    sources = (case / "sources.md").read_text(encoding="utf-8")
    assert "FAILED" in sources and "empty.txt" in sources
    assert_deliverable(case)  # what could be verified still is, and only that
    assert len(state.sources) == 3  # each failure recorded once over both iterations


def test_an_existing_case_is_not_overwritten(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus", report__txt=REPORT)
    case = tmp_path / "case"
    assert run("investigate", QUESTION, "--out", case, "--corpus", corpus)[0] == 0
    code, _, err = run("investigate", QUESTION, "--out", case, "--corpus", corpus)
    assert code == 2 and "sleuth resume" in err
    code, out, _ = run("resume", case)  # complete: nothing to do
    assert code == 0 and "COMPLETE" in out


def test_forbidden_phrases_and_unfootnoted_sentences_fail_the_integrity_check(
        tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus", report__txt=REPORT)
    case = tmp_path / "case"
    start(QUESTION, case, corpus)
    state = load_state(case)
    good = (case / "summary.md").read_text(encoding="utf-8")
    from sleuth.domains.investigations.model import Check, Statement

    view = View(state, __import__("sleuth.domains.investigations.extraction",
                                  fromlist=["Extraction"]).Extraction(),
                [Statement.from_json(s) for s in state.verification["statements"]],
                {k: Check.from_json(c) for k, c in state.verification["checks"].items()},
                {}, ["what", "who"])
    assert not [i for i in integrity(view, good) if i.severity == "MAJOR"]
    for phrase in FORBIDDEN_PHRASES:
        bad = good.replace("## Who sat on it\n\n", f"## Who sat on it\n\n{phrase}, the "
                           "committee met often.[^1]\n\n")
        issues = integrity(view, bad)
        assert any(i.severity == "MAJOR" and phrase in i.text for i in issues), phrase
    bare = good.replace("## Who sat on it\n\n", "## Who sat on it\n\nThe committee met.\n\n")
    assert any("no footnote" in i.text for i in integrity(view, bare))


def test_the_summary_is_rewritten_not_appended(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus", report__txt=REPORT, dissent__txt=DISSENT)
    case = tmp_path / "case"
    start(QUESTION, case, corpus)
    summary = (case / "summary.md").read_text(encoding="utf-8")
    assert summary.count("# ") - summary.count("## ") == 1  # one title: one piece
    lines = body_lines(summary)
    assert len(lines) == len(set(lines))  # nothing repeated from an earlier iteration
    assert "On 9 May 1969, Rune Hermansson was appointed" not in summary  # the contested
    # statement of iteration 1 was replaced by its positions, not kept beside them


def test_the_domain_is_registered() -> None:
    d = get_domain("investigations")
    assert d.name == "investigations" and set(d.exports) == {"summary", "fact-check", "state"}


def test_export_reads_the_case(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus", report__txt=REPORT)
    case = tmp_path / "case"
    start(QUESTION, case, corpus)
    code, out, _ = run("export", case, "--format", "summary")
    assert code == 0 and out.startswith("# What did the 1969 inquiry")


@pytest.mark.parametrize("private", ["Mr. John Quincy Smith"])
def test_a_living_private_person_stays_out_of_the_summary(tmp_path: Path,
                                                          private: str) -> None:
    english = ("Report of the Committee (RC)\n\nThe committee adopted the name Records "
               "Committee (RC).\n\nThe committee recommended that all records be opened. "
               f"{private} said the committee recommended opening the records early.\n")
    corpus = write_corpus(tmp_path / "corpus", report__txt=english)
    case = tmp_path / "case"
    start("What did the records committee recommend?", case, corpus, budget=Budget(
        max_iterations=2))
    leads = sorted(p.relative_to(case).as_posix() for p in (case / "research-leads").glob("*"))
    for name in ("summary.md", "people.md", "statements.md", "fact-check.md", *leads):
        text = (case / name).read_text(encoding="utf-8")
        assert "Quincy" not in text, name
    assert "[living private person]" in (case / "people.md").read_text(encoding="utf-8")
