"""Obituary constructions read for relatives and vital dates (issue 20, recall on the chronam
dev set); sentences written after the 1916 pages' wording, OCR slips kept where they matter."""

from __future__ import annotations

from prose_facts import prose_facts

from sleuth.extract.dates import DATE_FIND, parse_date
from sleuth.model.dates import GenDate

REF = GenDate.from_parts(1916, 12, 1)


def _facts(text: str, ref: GenDate = REF) -> dict[str, set[tuple[str, str]]]:
    return prose_facts(text, ref, related=True)


def test_the_nth_day_of_a_month_is_a_full_date() -> None:
    for text in ("on the 22nd day of February, 1870", "the 22nd, day of . February,\n1870"):
        m = DATE_FIND.search(text)
        assert m is not None
        g = parse_date(m.group())
        assert g is not None and g.iso() == "1870-02-22"


def test_debris_before_an_abbreviated_month_does_not_end_the_sentence() -> None:
    text = ("Flossie Willey, the daughter of Mr. and Mrs. George Willey, departed this life at "
            "Marjorie, Minn., on Tuesday, .Jan. 4, iw. Cause of death, pneumonia.")
    f = _facts(text, GenDate.from_parts(1916, 1, 13))
    assert ("Flossie Willey", "1916-01-04") in f["death_date"]


def test_a_capitals_heading_names_the_item_and_its_misread_opening_name() -> None:
    text = ("DEATH OF THOMAS HOUGHTON.\n"
            "Thomas Tfouediton, a well known resident of Barre Town, passed away at his home "
            "Thursday morning. He is survived by his wife and two sons, Joseph Houghton of "
            "Graniteville and Charles Houghton of Sunset, Idaho. Mr. Houghton was a quarryman.")
    f = _facts(text)
    t = "THOMAS HOUGHTON"  # the heading's name, as printed
    assert {(t, "Joseph Houghton"), (t, "Charles Houghton")} <= f["child"]
    assert not any(s.startswith("Thomas Tf") for s, _ in f["child"])


def test_a_surname_heading_starts_a_new_item() -> None:
    # Mrs. Aberg's item ends at the heading "STRAYER.": the next woman's birth name and
    # relatives are not hers.
    text = ("OBITUARY.\nABERG.\nMrs. Anna Aberg died January 17, 1916, at her home. She "
            "leaves her husband and eight children.\nSTRAYER.\nKate Josephine Green was born "
            "in Walworth county, Wis., June 1, 1857. She came to Calmar to visit her sister, "
            "Mrs. Kaye.")
    f = _facts(text)
    assert ("Kate Josephine Green", "1857-06-01") in f["birth_date"]
    assert not any(s == "Mrs. Anna Aberg" for s, _ in f.get("sibling", set()))
    assert not any(s == "Mrs. Anna Aberg" for s, _ in f.get("birth_date", set()))
