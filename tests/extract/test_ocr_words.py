"""OCR misreadings in names and places are read as words the case knows from elsewhere; the
excerpt stays as printed."""

from __future__ import annotations

import hashlib
import re

from sqlalchemy import select

from shared_data import shared_path
from sleuth.extract.ocr_words import is_ocr, mend_value, mend_word
from sleuth.model import Candidate, Citation, Locator, Snapshot
from sleuth.pipeline import process_snapshot
from sleuth.store import Store
from sleuth.store import schema as t


def test_a_word_one_confusion_from_one_known_word_is_read_as_it() -> None:
    known = {"hannah", "hartley", "greene", "ruth"}
    assert mend_word("Hannab", known) == "Hannah"  # b for h
    assert mend_word("HNRTLEY", known) == "HARTLEY"  # n for a, capitals kept
    assert mend_word("Rutb", known) == "Ruth"
    assert mend_word("Greeue", known) == "Greene"  # u for n
    assert mend_word("Hannah", known) == "Hannah"  # known: left alone
    assert mend_word("Hollis", known) == "Hollis"  # nothing near: left alone
    assert mend_word("Hannab", {"hannah", "hanuab"}) == "Hannab"  # two readings: as printed
    assert mend_word("Ruh", {"rub"}) == "Ruh"  # too short to guess


def test_places_read_against_the_case_labels_and_jurisdictions() -> None:
    known = {"xenia", "greene", "syracuse"}
    assert mend_value("death_place", "Xenia, Greeue County, Ohi0", known) == (
        "Xenia, Greene County, Ohio")
    assert mend_value("death_place", "Indianapolis, Marion Connty, Indiann", known) == (
        "Indianapolis, Marion County, Indiana")
    assert mend_value("death_place", "Syracnse, Onondaga County, New York", known) == (
        "Syracuse, Onondaga County, New York")
    # a jurisdiction is one only where a place writes its state or country
    assert mend_value("birth_place", "Loudon County, Tennessee", known) == (
        "Loudon County, Tennessee")
    assert mend_value("name", "Ohi0 Smith", known) == "Ohi0 Smith"  # names: the case's words


def test_real_ocr_misreadings_of_jurisdictions() -> None:
    page = shared_path("text", "chronam_1916_front_pages", "pages",
                       "19160131__sn91066782-ed-1_seq-1.txt").read_text(errors="replace")
    printed = re.search(r"in (Italv)\.", page)
    assert printed is not None
    assert mend_value("residence_place", printed[1], set()) == "Italy"


def _snapshot(text: str, url: str) -> Snapshot:
    raw = text.encode()
    return Snapshot(sha256=hashlib.sha256(raw).hexdigest(), url=url, source_name="test",
                    text=text)


def _cands(snap: Snapshot, rows: list[tuple[str, str, str, str]]) -> list[Candidate]:
    """Candidates (subject, its name, field, value), each citing the whole page."""
    return [Candidate(subject=subject, subject_name=name, field=fld, value=value,
                      confidence=0.9, citation=Citation(
                          snapshot_id=snap.id, excerpt=snap.text,
                          locator=Locator(start=0, end=len(snap.text))))
            for subject, name, fld, value in rows]


def test_an_ocr_page_is_read_against_the_cases_other_sources(store: Store) -> None:
    tree = _snapshot("Hannah Maxey was born in Xenia, Greene County, Ohio.",
                     "https://example.org/profile/Maxey-1")
    page = _snapshot("DEATH OF HANNAB MAXEY. Hannab Maxey died at her home in "
                            "Xenia, Greeue County, Ohio.",
                     "https://example.org/resource/sn1/1890-01-01/ed-1/seq-1/ocr.txt")
    assert is_ocr(page) and not is_ocr(tree)
    with store.transaction() as tx:
        for snap, rows in ((tree, [("p1", "Hannah Maxey", "name", "Hannah Maxey"),
                                   ("p1", "Hannah Maxey", "birth_place",
                                    "Xenia, Greene County, Ohio")]),
                           (page, [("p1", "Hannab Maxey", "name", "Hannab Maxey"),
                                   ("p1", "Hannab Maxey", "death_place",
                                    "Xenia, Greeue County, Ohio")])):
            store.put_snapshot(tx, snap.text.encode(), snap)
            process_snapshot(store, tx, snap, _cands(snap, rows))
    a, c = t.assertions.c, t.citations.c
    with store.engine.connect() as conn:
        rows = conn.execute(select(a.field_name, a.value, c.excerpt, a.entity_id).join(
            t.citations, c.assertion_id == a.id).where(c.snapshot_id == page.id)).all()
        names = set(conn.execute(select(t.persons.c.canonical_name)).scalars())
        why = set(conn.execute(select(t.candidates.c.rationale).where(
            t.candidates.c.snapshot_id == page.id)).scalars())
    assert {(f, v) for f, v, _, _ in rows} == {
        ("name", "Hannah Maxey"), ("death_place", "Xenia, Greene County, Ohio")}
    assert all("Hannab Maxey died" in ex for _, _, ex, _ in rows)  # the page as printed
    assert names == {"Hannah Maxey"}  # one person, read by her known name
    assert any("OCR 'Hannab Maxey' read as 'Hannah Maxey'" in (r or "") for r in why)
