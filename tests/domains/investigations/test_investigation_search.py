"""The searches the frameworks' questions make (issue 24, seed 003's QUESTIONS →
INVESTIGATION): a search word is compared as the corpus text is, folded, so a question
that searches for a body's abbreviation as the extraction wrote it ("OFK") finds the file
that names it."""

from __future__ import annotations

from pathlib import Path

from investigation_cases import QUESTION, REPORT, write_corpus
from sleuth.domains.investigations.corpus import Corpus
from sleuth.domains.investigations.loop import start
from sleuth.domains.investigations.state import CaseState, load_state

# Findable only through the committee's abbreviation and "ordförande": none of the
# question's own words rank it beside the report.
NOTE = "Minnesanteckning\n\nOFK sammanträdde i Uppsala; ordföranden ledde mötet.\n"


def _investigate(tmp_path: Path, **files: str) -> CaseState:
    """The inquiry question over the report and `files`, run until it stops."""
    corpus = write_corpus(tmp_path / "corpus", report__txt=REPORT, **files)
    start(QUESTION, tmp_path / "case", corpus)
    return load_state(tmp_path / "case")


def test_a_search_word_matches_whatever_its_case(tmp_path: Path) -> None:
    corpus = Corpus.read(write_corpus(tmp_path / "corpus", report__txt=REPORT,
                                      note__txt=NOTE))
    for terms in (["OFK", "ordförande"], ["ofk", "Ordförande"]):
        hits = corpus.search(terms)
        assert {h.path.name: h.terms for h in hits} == {
            "note.txt": ["ofk", "ordförande"], "report.txt": ["ofk", "ordförande"]}, terms
    # whole-word names are folded too
    assert [h.path.name for h in corpus.relevant(["uppsala"], {"OFK"}, bar=1.0)] == [
        "note.txt", "report.txt"]


def test_the_inquiry_questions_find_a_file_by_the_committees_abbreviation(
        tmp_path: Path) -> None:
    state = _investigate(tmp_path, note__txt=NOTE)
    who = next(q for q in state.questions if q.framework == "who")
    assert who.query == ["OFK", "ordförande"]  # as the extraction wrote the abbreviation
    note = next(s for s in state.sources if s.path.endswith("note.txt"))
    assert note.status == "captured"
    searched = [q for q in state.questions if q.query == ["OFK", "ordförande"]]
    assert any(q.result == f"captured {note.id}" for q in searched), [
        (q.framework, q.result) for q in searched]
    assert state.status == "COMPLETE"


# Findable only through the early stakeholder question ("What part did
# Justitiedepartementet play?"): no word of the question and no late question finds it.
MINISTRY = ("Justitiedepartementet\n\nJustitiedepartementet flyttade samma år till nya "
            "lokaler i Rosenbad.\n")


def test_the_first_iterations_questions_are_researched_before_the_run_completes(
        tmp_path: Path) -> None:
    state = _investigate(tmp_path, ministry__txt=MINISTRY)
    assert state.status == "COMPLETE"
    ministry = next(s for s in state.sources if s.path.endswith("ministry.txt"))
    asked = next(q for q in state.questions if q.query == ["justitiedepartementet"])
    assert (asked.stage, asked.asked_in) == ("early", 1)
    assert asked.result == f"captured {ministry.id}" and ministry.iteration == 2
    # every question the run asked was researched: a capture, or what became of its search
    assert [(q.framework, q.text) for q in state.questions if q.status != "searched"
            or not q.result] == []
