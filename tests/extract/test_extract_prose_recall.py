"""Recall patterns found by reading the WikiBio and 1916 OCR misses (real sentences, quoted).

Every candidate goes through the firewall; each case is a shape of sentence that the
extractor missed before, not a single document.
"""

from __future__ import annotations

import pytest
from prose_facts import prose_facts

from sleuth.model.dates import GenDate

REF_1916 = GenDate.from_parts(1916, 9, 14)


def _facts(text: str, ref: GenDate | None = None) -> dict[str, set[tuple[str, str]]]:
    return prose_facts(text, ref, related=True)


# -- WikiBio leads (lower-cased, tokenised) --------------------------------------------
def test_lifespan_with_places_after_a_long_royal_name() -> None:
    text = ("prince `` gabriele '' maria giuseppe carlo ignazio antonio alfonso pietro giovanni "
            "gerardo di majella et omni sancti of bourbon-two sicilies -lrb- 11 january 1897 , "
            "cannes , france -- 22 october 1975 , itu , brazil -rrb- was a prince of the "
            "deposed dynasty which ruled the kingdom of the two sicilies .")
    f = _facts(text)
    assert {v for _, v in f["birth_date"]} == {"1897-01-11"}
    assert {v for _, v in f["death_date"]} == {"1975-10-22"}
    assert any(v.startswith("cannes") for _, v in f["birth_place"])
    assert any(v.startswith("itu") for _, v in f["death_place"])


def test_lifespan_whose_dash_was_lost_between_year_and_day() -> None:
    text = ("james ruse -lrb- 9 august 1759/17605 september 1837 -rrb- was a cornish farmer "
            "who , at the age of 23 , was convicted of breaking and entering .")
    f = _facts(text)
    assert {v for _, v in f["death_date"]} == {"1837-09-05"}
    # "1759/1760" (an uncertain birth year) is not read as a date: nothing wrong is emitted
    assert not {v for _, v in f.get("birth_date", set())} - {"1759-08-09"}


def test_tokenised_month_comma_year() -> None:
    text = ("herbert `` herbie '' kronowitz , originally theodore `` ted '' kronowitz -lrb- "
            "september , 1923 -- november 9 , 2012 -rrb- , was an american middleweight boxer .")
    f = _facts(text)
    assert {v for _, v in f["birth_date"]} == {"1923-09"}
    assert {v for _, v in f["death_date"]} == {"2012-11-09"}


def test_born_later_in_a_lead_with_an_emptied_parenthesis() -> None:
    text = ("arshak sarkissian -lrb- -rrb- , is an armenian painter artist , born on "
            "december 26 , 1981 in the city of gyumri .")
    f = _facts(text)
    assert ("arshak sarkissian", "1981-12-26") in f["birth_date"]


def test_a_long_clause_before_a_parenthesis_is_not_a_name() -> None:
    text = ("the battle was fought in the valley between the two armies of the old kingdom and "
            "its allies -lrb- 1415 -- 1416 -rrb- .")
    assert "death_date" not in _facts(text)


# -- 1916 obituaries (OCR) ------------------------------------------------------------
def test_kin_named_after_her_daughter() -> None:
    text = ("Mrs. Rachel Jenkins died at the\nhome of her daughter, Mrs. W. E.\nGammon, on "
            "January 17th, 1916, at the\nage of 88 years.")
    f = _facts(text)
    assert ("Mrs. Rachel Jenkins", "Mrs. W. E. Gammon") in f["child"]


def test_bare_given_name_after_her_daughter() -> None:
    text = ("Iowa Bellamy Stanley, daughter\nof Joshua and Ethalinda Bellamy,\nwas born at "
            "Muscatine, Iowa, March.\n2, 1855, and died at the home of her\ndaughter, Blanche, "
            "at Coon Rapids,\nIowa, Jan. 11, 1916, aged 60 years.")
    f = _facts(text)
    assert ("Iowa Bellamy Stanley", "Blanche") in f["child"]
    assert ("Iowa Bellamy Stanley", "1916-01-11") in f["death_date"]


def test_surviving_children_broken_across_a_line() -> None:
    text = ("Mrs. J. H. Stanley.\nIowa Bellamy Stanley was born at Muscatine, Iowa, March 2, "
            "1855.\nThe surviv\ning children are Mrs. Fred Smith, of\nPleasanton, Mrs. T. J. "
            "Penisten, of MatT\nville, Mo., Harry Stanley, of Key\nstone, Okla., Herbert "
            "Stanley, of\nKellerton, Iowa.\n")
    f = _facts(text)
    children = {v for _, v in f["child"]}
    assert {"Mrs. Fred Smith", "Mrs. T. J. Penisten", "Harry Stanley",
            "Herbert Stanley"} <= children
    assert not children & {"Okla", "Iowa", "Coon Rapids"}
    res = dict(f["residence"])
    assert res["Mrs. Fred Smith"] == "Pleasanton"
    assert res["Harry Stanley"] == "Keystone, Okla."  # the whole word, and the place ends
    assert res["Mrs. T. J. Penisten"] == "MatTville, Mo."  # with its state


def test_a_town_with_its_state_is_not_a_sister() -> None:
    text = ("Mrs. Rebecca Winters died on Wednesday, 1916. She is survived by\none sister, "
            "Mrs. Annie Winters,\nand by one half-sister, Mrs. Net\ntie Steele, Everett, Pa.")
    sibs = {v for _, v in _facts(text).get("sibling", set())}
    assert "Mrs. Annie Winters" in sibs
    assert "Everett" not in sibs


def test_sentence_opening_with_the_heading_name_broken_by_ocr() -> None:
    text = ("Mrs. Maggie E. Ribblet.\nMrs. Maggie E. Deshong Rib\nblet, died at her home, "
            "153 Coop\ner Ave., Johnstown, Pa., Friday,\nSeptember 8, 1916, aged 50 years\n"
            "and 10 days. ")
    f = _facts(text, REF_1916)
    assert ("Mrs. Maggie E. Ribblet", "1916-09-08") in f["death_date"]
    assert ("Mrs. Maggie E. Ribblet", "Johnstown, Pa.") in f["death_place"]
    assert ("Mrs. Maggie E. Ribblet", "50") in f["age_at_death"]


@pytest.mark.parametrize("text", [
    "John Smith went to Boston\nwhere he died in 1890.",
    "He was born in Boston\nand, in 1890, went west.",
])
def test_a_line_break_before_a_lower_word_does_not_extend_a_place(text: str) -> None:
    for field in ("birth_place", "death_place"):
        for _, v in _facts(text).get(field, set()):
            assert v == "Boston"
