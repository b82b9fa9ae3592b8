"""A run whose gaps cannot close stops by itself (issue 24: termination; seed 003: /questions
when stuck): an iteration that captures no source, states nothing new and closes no gap,
after which the stuck /questions find no new search, ends the run as `stalled`, with one
commit per iteration; `sleuth resume` explains what would unblock it, and goes on once the
corpus holds something new."""

from __future__ import annotations

from pathlib import Path

from investigation_cases import assert_deliverable, run, write_corpus
from sleuth.domains.investigations.repo import iteration_commits
from sleuth.domains.investigations.state import load_state

HERALD = """The Millbrook Herald

The fire at the Cooper woollen mill in Millbrook killed 12 workers on the night of 3 March.
The mill had stood on the river road since the war.
"""
INQUEST = """The Millbrook inquest

The coroner found that the fire at the Cooper woollen mill in Millbrook killed the workers \
because the doors of the weaving shed were locked from outside.
"""
QUESTION = "Why did the fire at the Cooper mill in Millbrook kill the workers?"


def test_a_gap_the_corpus_cannot_close_stalls_the_run_and_resume_says_why(
        tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus", herald__txt=HERALD)
    case = tmp_path / "case"
    code, out, _ = run("investigate", QUESTION, "--out", case, "--corpus", corpus)
    assert code == 1
    state = load_state(case)
    assert state.status == "PAUSED" and state.termination
    assert state.termination["reason"] == "stalled"
    assert state.termination["detail"].startswith("1 gaps cannot close from the corpus given")
    assert state.current_iteration <= 3
    commits = iteration_commits(case)
    assert [c[0] for c in commits] == list(range(1, state.current_iteration + 1))
    assert commits[-1][2].startswith(f"Iteration {state.current_iteration}: stopped by stalled")
    assert [(g.kind, g.ref) for g in state.gaps] == [("unanswered", "why")]
    assert any(r["stages"] == ["stuck"] for r in state.questions_runs)  # asked when stuck
    assert "PAUSED: stalled" in out and f"corpus folder {corpus}" in out
    assert "reason: stalled" in (case / "iterations.md").read_text(encoding="utf-8")
    assert_deliverable(case)  # what it states is verified; it does not say why
    # nothing changed: a resume explains, and runs no iteration
    code, out, _ = run("resume", case)
    assert code == 1 and "nothing it reads has changed since" in out
    assert "the question's “why”" in out and "add a source that answers it" in out
    assert len(iteration_commits(case)) == len(commits)
    # a source that answers it added to the corpus: the resume goes on and completes
    write_corpus(corpus, inquest__txt=INQUEST)
    code, out, err = run("resume", case)
    assert code == 0, out + err
    state = load_state(case)
    assert state.status == "COMPLETE" and not state.gaps
    assert "because the doors of the weaving shed were locked" in (
        case / "summary.md").read_text(encoding="utf-8")
    assert_deliverable(case)
