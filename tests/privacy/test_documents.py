"""A document's own date as evidence for the living rules (issue 20): people named in a
1916 newspaper are not living today; a masthead is read only when it is safe to."""

from __future__ import annotations

import hashlib
import shutil
from datetime import date
from pathlib import Path

import pytest

from shared_data import shared_path
from sleuth.export.privacy_report import privacy_report
from sleuth.model import Assertion, CaseGraph, Citation, GenDate, Locator, Person, Snapshot
from sleuth.pipeline import ingest_path
from sleuth.privacy import explain_living
from sleuth.sources.masthead import masthead_date
from sleuth.store import Store, case_graph

TODAY = date(2026, 11, 26)
PAGES = ("text", "chronam_1916_front_pages", "pages")


def _pages() -> list[Path]:
    return sorted(shared_path(*PAGES).glob("*.txt"))


def _issue(page: Path) -> str:
    return f"{page.name[:4]}-{page.name[4:6]}-{page.name[6:8]}"


def test_masthead_dates_agree_with_the_issue_dates() -> None:
    """Over the 60 real front pages, every masthead read is the issue's own date (the
    file name gives it); OCR's misread "1910" and an obituary's death day are refused."""
    found = {p.name: m for p in _pages()
             if (m := masthead_date(p.read_text(encoding="utf-8", errors="replace"),
                                    TODAY)) is not None}
    assert len(found) >= 8
    assert all(m.day.isoformat() == _issue(shared_path(*PAGES, name))
               for name, m in found.items()), found
    # "THURSDAY, JANUARY 20, 1910": a Thursday in 1910 too, but the year is printed once
    assert "19160120__sn91066782-ed-1_seq-1.txt" not in found
    # "died at his home ... Thursday, October 12, 1916": a death, a week before the issue
    assert "19161019__sn86081889-ed-1_seq-1.txt" not in found


@pytest.mark.parametrize("text", [
    "JOHN SMITH\nborn Thursday, October 19, 1916, in Barre; survived by his grandson\n"
    "Peter Smith of Denver. 1916 was a long time ago.",
    "THE DAILY TIMES\nTHURSDAY, OCTOBER 19, 1916\nHe remembered 1916 well; he died in 2003.",
    "THE DAILY TIMES\nFRIDAY, OCTOBER 19, 1916\nThe war news of 1916.",  # a Thursday
])
def test_no_masthead_where_it_would_be_unsafe(text: str) -> None:
    assert masthead_date(text, TODAY) is None


def test_masthead_with_its_citation() -> None:
    text = "THE DAILY TIMES\nVOL. XIX. BARRE, THURSDAY, OCTOBER 19, 1916.\nNews of 1916."
    m = masthead_date(text, TODAY)
    assert m is not None and m.day == date(1916, 10, 19)
    assert m.excerpt(text) == "THURSDAY, OCTOBER 19, 1916"


def _ingest(tmp_path: Path, page: Path, name: str) -> Store:
    copy = tmp_path / name
    shutil.copy(page, copy)
    store = Store.create_case(tmp_path / f"case-{name}")
    ingest_path(store, copy)
    return store


def test_nobody_named_only_in_a_1916_page_is_living(tmp_path: Path) -> None:
    """The issue's page: 26 of 33 persons were treated as living; now none is, each with
    the newspaper's date as the reason (or a death, or a birth of their own)."""
    page = shared_path(*PAGES, "19161019__sn86081889-ed-1_seq-1.txt")
    store = _ingest(tmp_path, page, page.name)
    try:
        report = privacy_report(store, today=TODAY, record=False, workers=0)
    finally:
        store.close()
    persons = report["persons"]
    assert len(persons) >= 20 and report["living"]["count"] == 0
    by_paper = [p for p in persons if "a newspaper dated 1916-10-19" in p["reason"]]
    assert len(by_paper) >= 15, [p["reason"] for p in persons]
    assert all(p["rule"] in ("seed", "death") for p in persons)


def test_a_masthead_dates_a_page_saved_under_any_name(tmp_path: Path) -> None:
    page = shared_path(*PAGES, "19160107__sn90061417-ed-1_seq-1.txt")
    store = _ingest(tmp_path, page, "front-page.txt")
    try:
        graph = case_graph(store)
        (snap,) = graph.snapshots.values()
        assert snap.metadata["document_date"] == "1916-01-07"
        cited = snap.metadata["document_date_from"]
        assert snap.text[cited["start"]:cited["end"]] == cited["masthead"]
        verdicts = explain_living(graph, today=TODAY)
    finally:
        store.close()
    assert verdicts and not any(v.living for v in verdicts.values())


def test_an_undated_copy_keeps_the_old_rules(tmp_path: Path) -> None:
    """A date in an ordinary file name is no document date for the living rules: notes
    written today may carry any day in their name."""
    page = shared_path(*PAGES, "19161019__sn86081889-ed-1_seq-1.txt")
    store = _ingest(tmp_path, page, "notes_19161019.txt")
    try:
        verdicts = explain_living(case_graph(store), today=TODAY)
    finally:
        store.close()
    assert any(v.living for v in verdicts.values())
    assert not any("newspaper" in v.reason for v in verdicts.values())


def _paper(sid: str, day: str) -> Snapshot:
    text = f"THE TIMES {day}. Mr. John Cook and Mrs. Cook."
    return Snapshot(id=sid, sha256=hashlib.sha256(text.encode()).hexdigest(),
                    source_name="test", text=text,
                    metadata={"document_date": day, "document_kind": "newspaper"})


def _named(pid: str, sid: str, field: str = "name", value: str = "John Cook",
           when: GenDate | None = None) -> Assertion:
    cite = Citation(snapshot_id=sid, excerpt="John Cook", locator=Locator(start=19, end=28))
    return Assertion(entity_id=pid, field_name=field, value=value, date=when, confidence=0.9,
                     status="promoted", citations=[cite])


def test_a_birth_of_their_own_is_never_overruled() -> None:
    """Named in a 1916 paper but born 1950 by another record (two namesakes merged): the
    birth decides, so a wrong merge does not unlock a living person's details."""
    snap = _paper("s1", "1916-10-19")
    graph = CaseGraph(
        persons=[Person(id="old"), Person(id="merged", birth=GenDate.from_parts(1950, 3, 2))],
        assertions={"old": [_named("old", "s1")],
                    "merged": [_named("merged", "s1"),
                               _named("merged", "s1", "birth_date", "1950",
                                      GenDate.from_parts(1950, 3, 2))]},
        snapshots={"s1": snap},
    )
    verdicts = explain_living(graph, today=TODAY)
    assert not verdicts["old"].living and "1916-10-19" in verdicts["old"].reason
    assert verdicts["merged"].living


def test_the_earliest_paper_decides_and_a_recent_one_protects() -> None:
    graph = CaseGraph(
        persons=[Person(id="a"), Person(id="b")],
        assertions={"a": [_named("a", "new"), _named("a", "old")], "b": [_named("b", "new")]},
        snapshots={"old": _paper("old", "1912-05-01"), "new": _paper("new", "1990-05-01")},
    )
    verdicts = explain_living(graph, today=TODAY)
    assert not verdicts["a"].living and "1912-05-01" in verdicts["a"].reason
    assert verdicts["b"].living  # an adult in 1990: born by 1975, maybe alive


def test_a_chronicling_america_address_dates_its_page() -> None:
    from sleuth.model.documents import document_date, is_newspaper

    text = "Mr. John Cook"
    snap = Snapshot(sha256=hashlib.sha256(text.encode()).hexdigest(), source_name="chronam",
                    text=text, url="https://chroniclingamerica.loc.gov/lccn/sn86081889/"
                                   "1916-10-19/ed-1/seq-1/ocr.txt")
    assert is_newspaper(snap) and document_date(snap) == date(1916, 10, 19)
    # the same page where loc.gov now serves it (and the demo's simulated archive)
    for url in ("https://www.loc.gov/resource/sn86081889/1916-10-19/ed-1/?sp=1&st=text",
                "http://world-7.sleuth.test/resource/sn86081889/1916-10-19/ed-1/seq-1/ocr.txt"):
        moved = snap.model_copy(update={"url": url})
        assert is_newspaper(moved) and document_date(moved) == date(1916, 10, 19)
    other = snap.model_copy(update={"url": "https://example.org/notes/1916-10-19.txt"})
    assert not is_newspaper(other) and document_date(other) is None
