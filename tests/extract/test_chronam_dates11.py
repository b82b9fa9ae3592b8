"""Vital dates of 1916 obituaries read through OCR damage (issue 20, dates recall, third
round): each rule on the lines as the shared pages print them (read from ../shared, skipped
where it is absent), with a case each rule must not read. Every extraction passes the
firewall (`prose_facts`)."""

from __future__ import annotations

from prose_facts import prose_facts

from shared_data import shared_path
from sleuth.extract.emit import split_sentences
from sleuth.extract.names import find_names
from sleuth.extract.reading import reading_view
from sleuth.model.dates import GenDate


def _lines(page: str, first: int, last: int) -> str:
    """Lines `first`..`last` (1-based, inclusive) of a shared 1916 front page, as printed."""
    path = shared_path("text", "chronam_1916_front_pages", "pages", page)
    lines = path.read_text(encoding="utf-8", errors="replace").split("\n")
    return "\n".join(lines[first - 1:last]) + "\n"


def _issue(page: str) -> GenDate:
    return GenDate.from_parts(int(page[:4]), int(page[4:6]), int(page[6:8]))


LEX = "19160714__sn86063623-ed-1_seq-1.txt"  # Lexington (Mo.) Intelligencer, Friday
LEON = "19160120__sn87057096-ed-1_seq-1.txt"  # Leon (Iowa) Reporter, Thursday
BARRE = "19160103__sn91066782-ed-1_seq-1.txt"  # Barre Daily Times, Monday
FULTON = "19160914__sn86081889-ed-1_seq-1.txt"  # Fulton County News, Thursday
CLARKSBURG = "19160821__sn85059715-ed-1_seq-1.txt"  # Daily Telegram, Monday


# -- "Young" as a given name ------------------------------------------------------------

def test_young_inside_a_sentence_before_a_surname_and_a_comma_is_a_given_name() -> None:
    # the right-hand column of lines 205-211, as the column reader puts it back in order
    text = ("After a prolonged struggle with a complication of ills, Young\nEwing, a "
            "prominent member of one of the foremost families of the county, died Tuesday "
            "morning at his home, 303 Washington Avenue.")
    assert "complication of ills, Young" in _lines(LEX, 206, 206)
    assert ("Young Ewing", "1916-07-11") in prose_facts(text, _issue(LEX))["death_date"]


def test_young_as_an_adjective_names_nobody() -> None:
    for text in ("He spoke to the Young Men's Christian Association, in the hall.",
                 "The game was won. Young Smith, the pitcher, was hurt.",
                 "Young Smith, the pitcher, was hurt."):
        assert not any(n.text.startswith("Young") for n in find_names(text)), text


def test_the_whole_young_ewing_item_from_the_page() -> None:
    text = _lines(LEX, 196, 262)
    f = prose_facts(text, _issue(LEX))
    assert ("Young Ewing", "1916-07-11") in f["death_date"]
    assert ("Young Ewing", "1864-03") in f["birth_date"]
    assert ("Young Ewing", "1893-09") in f["marriage_date"]


# -- "N years ago" columns -----------------------------------------------------------------

def test_a_years_ago_column_resolves_no_date_against_the_issue() -> None:
    text = _lines(LEON, 624, 672)
    assert "TWENTYFIVE YEARS AGO" in text
    f = prose_facts(text, _issue(LEON))
    assert not any(s.endswith("Jenkins") for s, _ in f.get("death_date", set()))
    assert not any("Stanford" in s for s, _ in f.get("marriage_date", set()))


def test_the_same_item_outside_such_a_column_is_resolved() -> None:
    text = _lines(LEON, 656, 662)  # Mrs. Rachel Jenkins died ... on January 17th
    f = prose_facts(text, _issue(LEON))
    assert ("Mrs. Rachel Jenkins", "1916-01-17") in f["death_date"]


# -- the OCR's stop for the comma before a relative named in apposition ---------------------

def test_a_stop_before_a_relative_s_name_and_in_place_is_read_as_a_comma() -> None:
    # (the whole page: a 1915 date from a Monday 1916-01-03 issue is a fact where the page
    # prints 1915 somewhere, as its advertisements do; else a hypothesis)
    text = _lines(BARRE, 1, 10_000)
    assert "his daughter.\nMrs. C. C. Leonard, in Springfield Thurs-\nlay" in text
    f = prose_facts(text, _issue(BARRE))
    assert ("Isaac DeCamp Rice", "1915-12-30") in f["death_date"]  # "Thurs-\nlay" before Monday


def test_a_sentence_that_starts_with_the_relative_s_name_is_left() -> None:
    text = "He lived with his daughter. Mrs. Smith, the daughter, was born in 1860."
    assert reading_view(text).text == text
    text = "He lived with his daughter. Mrs. Smith, in turn, was born in 1860."
    assert reading_view(text).text == text  # (", in" must be followed by a place)


# -- a month abbreviation's speck, and "married" with one OCR slip --------------------------

def test_a_speck_after_a_month_and_a_misread_married() -> None:
    text = _lines(LEON, 333, 339)  # "Mr. and Mrs. B. A. Norman were\nmart-ied in ..., Aug£\n17"
    assert "mart-ied" in text and "Aug£" in text
    f = prose_facts(text, _issue(LEON))
    assert ("B. A. Norman", "1863-08-17") in f["marriage_date"]
    view = reading_view(text).text
    assert len(view) == len(text) and " married" in view and "Aug " in view


def test_an_english_word_one_letter_from_married_is_left() -> None:
    text = "The blows were parried by the guard, and they were carried in a cart."
    assert reading_view(text).text == text


# -- death come to a home, and what it claimed -----------------------------------------------

def test_death_invaded_the_home_and_claimed_their_daughter() -> None:
    text = _lines(FULTON, 218, 226)
    f = prose_facts(text, _issue(FULTON))
    assert ("Lena Evelyn", "1916-08-28") in f["death_date"]


def test_a_sentence_about_death_with_no_claim_names_nobody_dead() -> None:
    text = ("Death invaded the home of Mr. and Mrs. George Bradnick near Knobsville, Monday, "
            "August 28, 1916, but the child recovered.")
    assert "death_date" not in prose_facts(text, _issue(FULTON))


# -- a column's cut left edge: "Irs." and a lone "?" ------------------------------------------

def test_a_funeral_over_the_body_of_irs_name_and_a_lone_question_mark() -> None:
    text = _lines(CLARKSBURG, 236, 252)
    assert "Irs. Marv Catherine Lynch" in text and "r? ?" in text
    f = prose_facts(text, _issue(CLARKSBURG))
    assert ("Marv Catherine Lynch", "1916-08-20") in f["death_date"]  # "Sunday" before Monday


def test_a_question_still_ends_its_sentence() -> None:
    text = "Where was the funeral of John Smith held this year ? It was held Monday."
    assert len(split_sentences(text)) == 2
