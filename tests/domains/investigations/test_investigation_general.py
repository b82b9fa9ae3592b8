"""General questions (issue 24): an investigation that is no inquiry's, answered sentence by
sentence from the captured sources, each attributed to its source; real 1916 front pages of
Chronicling America, and a written corpus whose two sources disagree on a number."""

from __future__ import annotations

import json
import re
import shutil
from datetime import datetime
from pathlib import Path
from typing import Any

from investigation_cases import assert_deliverable, write_corpus
from shared_data import shared_path
from sleuth.domains.investigations.cast import cast
from sleuth.domains.investigations.extraction import Extraction
from sleuth.domains.investigations.finale import body_lines
from sleuth.domains.investigations.general import candidates, is_prose, select
from sleuth.domains.investigations.loop import start
from sleuth.domains.investigations.prose import one_line
from sleuth.domains.investigations.protect import protected
from sleuth.domains.investigations.state import Budget
from sleuth.model.documents import document_date
from sleuth.store import Store

PAGES = ("19161124__sn88077067-ed-1_seq-1.txt",  # The Celina Democrat: Hughes concedes
         "19161103__sn91066782-ed-1_seq-1.txt",  # The Barre daily times: the campaign
         "19160712__sn90059228-ed-1_seq-1.txt")  # Warren sheaf: the Deutschland, not it
QUESTION_1916 = "What did the newspapers report about the election of Wilson and Hughes in 1916?"


def test_a_general_question_on_1916_front_pages_is_answered_attributed_and_verified(
        tmp_path: Path) -> None:
    chronam = shared_path("text", "chronam_1916_front_pages")
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name in PAGES:
        shutil.copy(chronam / "pages" / name, corpus / name)
    shutil.copy(chronam / "titles_meta.json", corpus / "titles_meta.json")
    case = tmp_path / "case"
    state = start(QUESTION_1916, case, corpus)
    assert state.status == "COMPLETE" and state.verification_passed and not state.gaps
    assert all(not s.path.endswith("titles_meta.json") for s in state.sources)
    assert_deliverable(case)  # footnoted, quoted verbatim, VERIFIED
    summary = (case / "summary.md").read_text(encoding="utf-8")
    lines = body_lines(summary)
    assert len(lines) >= 2
    for line in lines:  # a paper's claim is stated as its claim, by paper and day
        assert re.match(r"(The Celina Democrat \(Celina, O\. \[Ohio\]\) reported on 24 November"
                        r"|The Barre daily times \(Barre, Vt\.\) reported on 3 November) 1916: "
                        r"“", line), line
    assert "Hughes" in summary and "re-election" in summary
    verification = state.verification
    store = Store.open_case(case)
    try:
        for st in verification["statements"]:
            snap = store.snapshot(st["snapshot_id"])
            assert one_line(snap.text[st["start"]:st["end"]]) == st["quote"]
            assert verification["checks"][st["id"]]["verifier_verdict"] == "supported"
        dated = {}
        for rec in state.captured():
            day = document_date(store.snapshot(rec.snapshot_id))
            assert day is not None and day.year == 1916
            dated[rec.id] = day
    finally:
        store.close()
    # people a 1916 paper names as adults are dead by the Censor's rule; undated, living
    x = Extraction.from_json(json.loads(
        (case / "_extraction.json").read_text(encoding="utf-8")))
    private = [p for p in x.people if not p["public"]]
    assert private and len(protected(x)) == len(private)
    assert protected(x, dated) == {}
    assert "[living private person]" not in summary
    # people.md: the people the statements quote or the question names, the rest counted
    people = (case / "people.md").read_text(encoding="utf-8")
    listed = re.findall(r"^## (.+)$", people, re.MULTILINE)
    assert "Chas E. Hughes" in listed and len(listed) < 20 < len(x.people), listed
    m = re.search(r"^(\d+) other people are named in the captured sources", people, re.MULTILINE)
    assert m and int(m.group(1)) == len(cast(x.people)) - len(listed)  # persons, not forms


def test_ocr_debris_is_not_prose_and_a_sentence_needs_two_of_the_question_terms() -> None:
    assert not is_prose("7- nnnrij-.n O - ii.irv npunnanira rpfPivpfi hfr v Aftpp thfi attack")
    assert is_prose("Allan Benson, the Socialist candidate, was within one of the Hughes vote "
                    "and lacked the four necessary to overtake the president.")
    texts = {"S001": "The election was close this year in every county of the state. "
                     "Hughes carried the election in Vermont by a wide margin of votes. "
                     "Hughes spoke at the county fair on a warm afternoon in August."}
    found = candidates("Who won the election between Wilson and Hughes?", texts)
    assert [c.text for c in found] == [
        "Hughes carried the election in Vermont by a wide margin of votes."]
    assert {"who", "what"} <= found[0].asks


HERALD = """The Millbrook Herald

The fire at the Cooper woollen mill in Millbrook killed 12 workers on the night of 3 March.
The mill had stood on the river road since the war.
"""
COURIER = """The Valley Courier

The fire at the Cooper woollen mill in Millbrook killed 19 workers on the night of 3 March.
The town council met on Tuesday to discuss the new bridge.
"""


def test_two_sources_disagreeing_on_a_number_are_both_stated(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus", herald__txt=HERALD, courier__txt=COURIER)
    case = tmp_path / "case"
    state = start("How many workers did the fire at the Cooper mill in Millbrook kill?", case,
                  corpus)
    assert state.status == "COMPLETE" and state.current_iteration == 2
    first = next(c for c in state.log if c["iteration"] == 1)
    assert first["verification passed"] is False  # iteration 1: CONTRADICTED, a gap
    assert len(state.contested) == 1
    summary = (case / "summary.md").read_text(encoding="utf-8")
    assert "## Where the sources differ" in summary
    assert "killed 12 workers" in summary and "killed 19 workers" in summary
    positions = [s for s in state.verification["statements"] if s["kind"] == "position"]
    assert sorted(s["source_id"] for s in positions) == ["S001", "S002"]
    assert {state.verification["checks"][s["id"]]["verdict"] for s in positions} == {
        "VERIFIED"}
    assert_deliverable(case)


def test_who_was_douglas_adams_over_a_captured_wikipedia_page(tmp_path: Path) -> None:
    page = shared_path("recorded", "wikipedia", "wptools", "rest_html.html")
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    shutil.copy(page, corpus / "douglas_adams.html")
    case = tmp_path / "case"
    state = start("Who was Douglas Adams?", case, corpus, budget=Budget(max_iterations=3))
    assert state.status == "COMPLETE" and state.verification_passed and not state.gaps
    assert_deliverable(case)
    summary = (case / "summary.md").read_text(encoding="utf-8")
    # he died in 2001 (the article's opening years): named, not masked
    assert summary.startswith("# Who was Douglas Adams?")
    assert ("Source S001 states: “Douglas Noel Adams (11 March 1952 – 11 May 2001) was an "
            "English author") in summary
    # his daughter's birth in 1994 is a living person's: never quoted
    assert "1994" not in summary and "Polly" not in summary


def test_a_why_no_source_answers_stays_a_gap_and_a_budget_ends_the_run(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus", herald__txt=HERALD)
    case = tmp_path / "case"
    state = start("Why did the fire at the Cooper mill in Millbrook kill the workers?", case,
                  corpus, budget=Budget(max_iterations=2))
    assert state.status == "PAUSED" and state.termination
    assert state.termination["reason"] == "budget:iterations"
    assert [(g.kind, g.ref) for g in state.gaps] == [("unanswered", "why")]
    assert state.verification_passed  # what it says is verified; it does not say why
    summary = (case / "summary.md").read_text(encoding="utf-8")
    assert "killed 12 workers" in summary
    assert_deliverable(case)


ELECTION = ("What did the newspapers report about the presidential election between Wilson "
            "and Hughes in 1916?")
ELECTION_PAGES = ("19161018__sn86092557", "19161019__sn89067274", "19161103__sn91066782",
                  "19161113__sn91066782", "19161124__sn88077067")  # the campaign, the count
VILLA = "What did the newspapers report about Pancho Villa in 1916?"
VILLA_PAGES = ("19160114__sn88084272", "19160121__sn86092557", "19160424__sn91066782",
               "19160706__sn91066782", "19161013__sn91066782")
_DAY = re.compile(r"reported on (\d{1,2} \w+ 1916): “")
_NOTE = re.compile(r"\[\^\d+\]$")


def _newspapers(tmp_path: Path, question: str, relevant: tuple[str, ...], off_topic: str,
                budget: Budget | None = None) -> tuple[Path, Any]:
    chronam = shared_path("text", "chronam_1916_front_pages")
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for d in (*relevant, off_topic):
        name = f"{d}-ed-1_seq-1.txt"
        shutil.copy(chronam / "pages" / name, corpus / name)
    shutil.copy(chronam / "titles_meta.json", corpus / "titles_meta.json")
    case = tmp_path / "case"
    return case, start(question, case, corpus, budget=budget)


def _reads_as_the_papers_reported(case: Path, state: Any, relevant: tuple[str, ...],
                                  off_topic: str) -> list[str]:
    """The properties a journalist signs: every relevant page read; the off-topic page says
    nothing; every sentence attributed, footnoted, VERIFIED in fact-check.md, under its day's
    heading, in date order. Returns the file names the summary quotes."""
    assert state.status == "COMPLETE" and state.verification_passed and not state.gaps
    read = {Path(s.path).name for s in state.captured()}
    assert {f"{d}-ed-1_seq-1.txt" for d in relevant} <= read
    assert_deliverable(case)
    summary = (case / "summary.md").read_text(encoding="utf-8")
    fact_check = (case / "fact-check.md").read_text(encoding="utf-8")
    lines = body_lines(summary)
    assert len(lines) <= 12
    days, heading = [], ""
    for ln in summary.splitlines():
        if ln.startswith("### "):
            heading = ln[4:]
        elif ln in lines:
            day = _DAY.search(ln)
            assert day and day.group(1) == heading, ln  # under its own day's heading
            days.append(datetime.strptime(day.group(1), "%d %B %Y"))
            said = _NOTE.sub("", ln)
            assert f"## VERIFIED: {said}" in fact_check, ln
    assert days == sorted(days)  # what the papers reported, in order
    by_id = {s.id: Path(s.path).name for s in state.sources}
    quoted = [by_id[s["source_id"]] for s in state.verification["statements"]
              if state.verification["checks"][s["id"]]["verdict"] == "VERIFIED"]
    assert f"{off_topic}-ed-1_seq-1.txt" not in quoted
    return quoted


def test_the_1916_election_every_relevant_page_read_and_reported_in_date_order(
        tmp_path: Path) -> None:
    off_topic = "19160712__sn90059228"  # the Deutschland's crossing: not the election
    case, state = _newspapers(tmp_path, ELECTION, ELECTION_PAGES, off_topic)
    quoted = _reads_as_the_papers_reported(case, state, ELECTION_PAGES, off_topic)
    assert len(set(quoted)) >= 4  # at least four of the five pages
    titles = {s.title for s in state.captured() if Path(s.path).name in quoted}
    assert len(titles) >= 4  # and four distinct papers
    summary = (case / "summary.md").read_text(encoding="utf-8")
    for said in ("trimmed the plurality for Charles E. Hughes to 230",  # the count narrowing
                 "178,500 and Hughes 178,810",  # a figure reads as prose
                 "congratulating him c-n his re-election",  # the telegram
                 "awaited the official count in California"):
        assert said in summary, said
    assert "straw voters" not in summary  # one mention of "President Wilson" is no answer
    # three captures an iteration: the rest above the bar were a gap, read the next one
    first = next(e for e in state.log if e["iteration"] == 1)
    assert first["gaps"] == 3 and state.current_iteration == 2


def test_relevant_pages_left_unread_by_a_budget_are_named_gaps(tmp_path: Path) -> None:
    off_topic = "19160712__sn90059228"
    _, state = _newspapers(tmp_path, ELECTION, ELECTION_PAGES, off_topic,
                           budget=Budget(max_iterations=1))
    assert state.status == "PAUSED"
    unread = {Path(g.ref).name for g in state.gaps if g.kind == "unread"}
    read = {Path(s.path).name for s in state.captured()}
    assert len(read) == 3 and len(unread) == 3 and not read & unread
    assert {f"{d}-ed-1_seq-1.txt" for d in ELECTION_PAGES} <= read | unread


def test_pancho_villa_the_same_machinery_on_other_pages(tmp_path: Path) -> None:
    off_topic = "19161006__sn88077067"  # Ohio's tax tables: "Villages", never Villa
    case, state = _newspapers(tmp_path, VILLA, VILLA_PAGES, off_topic)
    quoted = _reads_as_the_papers_reported(case, state, VILLA_PAGES, off_topic)
    assert len(set(quoted)) == len(VILLA_PAGES)  # every page about him is heard
    summary = (case / "summary.md").read_text(encoding="utf-8")
    assert "Francisco Villa has been captured" in summary


def test_a_sentence_states_the_event_not_one_mention_and_a_name_is_whole() -> None:
    texts = {"S001": "The straw voters seemed to deplore the inactivity of President Wilson "
                     "where the Mexican atrocities are concerned. Chas E. Hughes, Republican "
                     "candidate for president in the recent election, sent to President "
                     "Wilson a telegram congratulating him on his re-election."}
    found = candidates(ELECTION, texts)
    assert found[0].text.startswith("Chas E. Hughes") and found[0].tier == 0
    assert found[0].facets >= 3
    # "President Wilson" is one mention: at best a bare mention (tier 2), which only ever
    # speaks for a source that has nothing better
    assert all(c.tier == 2 for c in found[1:])
    assert [c.text[:13] for c in select(found, ["what", "who"])] == ["Chas E. Hughe"]
    texts = {"S001": "The Village council met on Tuesday to discuss the new bridge at Warren.",
             "S002": "Francisco Villa has been captured at Hacienda San Geronimo by the "
                     "Carranza forces."}
    assert [c.source for c in candidates(VILLA, texts)] == ["S002"]
