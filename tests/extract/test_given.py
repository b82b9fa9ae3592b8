"""The given-name gate: which capitalised runs become persons (issue 19, "names that are names")."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given as hgiven
from hypothesis import settings
from hypothesis import strategies as st

from sleuth.extract import extract_text
from sleuth.extract.given import (
    _lexicon,
    given_alone,
    is_given,
    is_personal_name,
    misprinted_given,
)

Shared = Callable[..., Path]


@pytest.mark.parametrize("name", [
    "Mrs. Wilson", "Rev. Frank Hummel", "Misses Marian", "Senator England",  # a title
    "J. E. McNulty", "H. Caldwell",  # an initial first
    "Quincy O. Calef",  # a middle initial
    "Harris Yett", "Chas. Clapper", "Wm. Hughes", "Asahel Kent",  # a given name first
    "Ceorge Willey", "Wililam Carter", "SylveBter Arnett",  # one misprinted letter
    "Brdther Isaac Strong", "Mis Alma Duhaniel",  # a misread title before a given name
    "Clarence", "Alice",  # a given name alone
])
def test_reads_as_a_personal_name(name: str) -> None:
    assert is_personal_name(name)


@pytest.mark.parametrize("name", [
    "Wheat", "Shc", "Neither", "Synodical", "Mexico", "Announcement",  # words alone
    "Riley", "Wilson", "Grant",  # mainly surnames, alone
    "Hope", "Sterling",  # given names that are English words, alone
    "Ninety-Three Adults", "Uncertain Very", "Household Goods", "Bodies Shipped",  # headings
    "Van Wert", "Dairy Cattle Judging", "Iowa William",
])
def test_does_not_read_as_a_personal_name(name: str) -> None:
    assert not is_personal_name(name)


def test_a_list_of_relatives_vouches_for_a_lone_given_name() -> None:
    # "daughters, Hope and Mary": in a list of relatives "Hope" is a daughter, elsewhere a word
    assert not is_personal_name("Hope") and is_personal_name("Hope", listed=True)
    assert is_personal_name("Riley", listed=True)
    assert not is_personal_name("Beach", listed=True)  # a surname is still no one alone
    assert not is_personal_name("Twin Mountains", listed=True, stated=True)


def test_a_stated_life_event_vouches_for_foreign_names_but_not_for_headings() -> None:
    # "Zuzana Kralova is a Czech fashion designer born in Tábor": no US census given name
    assert not is_personal_name("Zuzana Kralova")
    assert is_personal_name("Zuzana Kralova", stated=True)
    assert is_personal_name("Ekkehard von Kuenssberg", stated=True)
    for heading in ("Some Hard Knocks", "Ninety-Three Adults", "Former Barre Woman",
                    "Uncertain Very", "Wheat"):
        assert not is_personal_name(heading, stated=True), heading


def test_misprints_are_read_only_through_one_letter_and_never_as_english_words() -> None:
    assert misprinted_given("Ceorge") and misprinted_given("Albort")
    assert not misprinted_given("Dairy")  # one letter from Daisy, but a word
    assert not misprinted_given("Grove")  # Grover
    assert not misprinted_given("Marv")  # too short to tell
    assert not misprinted_given("George")  # not a misprint: the name itself


def test_given_alone_flags() -> None:
    assert given_alone("Harry") and not given_alone("Hope") and not given_alone("Riley")
    assert is_given("Wm.") and is_given("Thorvald") and not is_given("Van")


_NAMES = sorted(_lexicon().given)


@settings(max_examples=200, deadline=None)
@hgiven(st.sampled_from(_NAMES), st.sampled_from(["Smith", "McNulty", "O'Connor"]))
def test_every_lexicon_given_name_opens_a_personal_name(first: str, last: str) -> None:
    assert is_personal_name(f"{first.title()} {last}")


def test_no_lookalike_is_a_given_name() -> None:
    lex = _lexicon()
    assert not lex.lookalikes & lex.given
    assert len(lex.given) > 3900  # the census names, the supplement and `nicknames`


def test_1916_page_words_are_not_persons(shared: Shared) -> None:
    # The issue's own examples: a Mexico (Mo.) paper of 1916-01-06.
    page = shared("text", "chronam_1916_front_pages", "pages",
                  "19160106__sn89067274-ed-1_seq-1.txt")
    names = {c.value for c in extract_text(page.read_text(encoding="utf-8"), "s")
             if c.field == "name"}
    assert not names & {"Neither", "Synodical", "Mexico", "Uncertain Very", "Myers"}
    assert {"Mrs. Alice Williams", "John Skelly", "Dr. R. T. Gibbs", "Isom Roberts",
            "Miss Madge Potts"} <= names


def test_1916_page_headings_are_not_persons(shared: Shared) -> None:
    page = shared("text", "chronam_1916_front_pages", "pages",
                  "19160103__sn91066782-ed-1_seq-1.txt")
    names = {c.value for c in extract_text(page.read_text(encoding="utf-8"), "s")
             if c.field == "name"}
    assert not names & {"Ninety-Three Adults", "Announcement", "Below", "Hardwick"}
    # "Manager Clifton H. Smith": the office is not part of the name
    assert {"William Peter Peltier", "Elam Clark Lewis", "Clifton H. Smith", "Harry",
            "Mrs. Irvin L. Sparrow"} <= names


def test_names_listed_without_commas_are_two_people() -> None:
    text = ("The committee: Robert T. Phillips Alexander Keon and K. G. Trout C. E. Simons "
            "were married at Barre.")
    from sleuth.extract.names import find_names
    assert [n.text for n in find_names(text)][:4] == [
        "Robert T. Phillips", "Alexander Keon", "K. G. Trout", "C. E. Simons"]
