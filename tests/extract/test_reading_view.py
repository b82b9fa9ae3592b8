"""OCR's line-broken words read whole (issue 20): the reading view, its firewall rule, and
the notice shapes it and its companions recover (sentences quoted from 1916 pages)."""

from __future__ import annotations

import pytest
from prose_facts import prose_facts

from sleuth.extract import extract_text
from sleuth.extract.reading import joins, reading_view
from sleuth.model.dates import GenDate
from sleuth.model.records import Candidate
from sleuth.verify import Source, check_candidate
from sleuth.verify.normalise import line_joins

REF = GenDate.from_parts(1916, 2, 17)


@pytest.mark.parametrize(("a", "b", "joined"), [
    ("mar", "ried", True), ("re", "sided", True), ("follow", "ing", True), ("In", "dies", True),
    ("Ma", "bry", True), ("McCon", "nellsburg", True), ("Ju", "lius", True),
    ("the", "funeral", False), ("at", "one", False), ("her", "on", False),
    ("Rudolph", "and", False), ("Smith", "was", False),
])
def test_which_breaks_join(a: str, b: str, joined: bool) -> None:
    assert joins(a, b) is joined


def test_the_view_keeps_every_offset_outside_a_joined_word() -> None:
    text = "Mrs. J. W. Ma\nbry, of\nMexico, died in the West In\ndies."
    r = reading_view(text)
    assert len(r.text) == len(text)
    assert "Mabry," in r.text and "Indies." in r.text and "of\nMexico" in r.text
    start = r.text.index("Mabry")
    # a span ending inside the joined word widens to the source's whole broken word
    assert text[slice(*r.to_source(start, start + 5))].endswith("Ma\nbry")
    far = r.text.index("Mexico")
    assert r.to_source(far, far + 6) == (far, far + 6)


def test_the_firewall_reads_a_broken_word_whole_but_nothing_else() -> None:
    assert line_joins("Mrs. Ma\nbry and Ma\nry\nAnn") == " mabry mary ryann "
    text = "Mrs. Ma\nbry died."
    sources = {"s": Source.of(text)}
    cands = extract_text(text, "s")
    name = next(c for c in cands if c.field == "name")
    assert name.value == "Mrs. Mabry" and name.citation is not None
    assert name.citation.excerpt == text[name.citation.locator.start:name.citation.locator.end]
    assert not check_candidate(name, sources)
    forged = Candidate.model_validate({**name.model_dump(), "value": "Mrs. Mabryx"})
    assert check_candidate(forged, sources)  # the join grounds only what is printed


def test_a_broken_word_is_no_trigger() -> None:
    # "West In\ndies" is no death: the children are the deceased's, not her husband's
    text = ("Maria Gress Rissel, wife of\nRudolph Rissel, died January 18, 1916.\n"
            "The deceased was a daughter\nof the late Godfred Gress, and she mar\nried "
            "Rudolph Rissel. She is\nsurvived by her husband and the\nfollowing children, "
            "namely, Ju\nlius, and Fred in the U. S,\nNavy, at present in the West In\ndies.")
    f = prose_facts(text, REF, related=True)
    assert ("Maria Gress Rissel", "Julius") in f["child"]
    assert ("Maria Gress Rissel", "Fred") in f["child"]
    assert not {s for s, _ in f["child"]} - {"Maria Gress Rissel"}


def test_survivors_of_unknown_given_name_with_their_towns() -> None:
    text = ("Mary Jane Anderson, widow of\n' the late Jonathan Anderson, died Tuesday. "
            "She leaves to mourn their loss\none son and seven daughters,\nnamely, Chevilla "
            "Ravenstine,\nCove Forge, Pa.;Samantha Wag\nner, Laidig, Pa.; Grant Anderson, "
            "Three Springs,\nPa.")
    f = prose_facts(text, REF, related=True)
    m = "Mary Jane Anderson"
    assert (m, "Jonathan Anderson") in f["spouse"]  # past the OCR debris "' the late"
    assert {(m, "Chevilla Ravenstine"), (m, "Samantha Wagner"),
            (m, "Grant Anderson")} <= f["child"]
    assert not {v for _, v in f["child"]} & {"Cove Forge", "Three Springs"}
    assert ("Chevilla Ravenstine", "Cove Forge, Pa.") in f["residence"]


def test_children_born_to_them_and_surnames_that_are_words() -> None:
    text = ("Mrs. John Young died January 12, 1916, at her home. She was married to John "
            "Young in 1853. Four children were born to this union, Will, of Onaway; "
            "George, of Gaylord; and Mary.")
    f = prose_facts(text, REF, related=True)
    y = "Mrs. John Young"
    assert (y, "1916-01-12") in f["death_date"]  # not "Mrs. John"
    assert {(y, "Will"), (y, "George"), (y, "Mary")} <= f["child"]


def test_a_place_ends_with_its_state() -> None:
    text = ("Harry Stanley died at Keystone, Okla., Herbert Stanley being present, "
            "January 3, 1916.")
    f = prose_facts(text, REF, related=True)
    assert ("Harry Stanley", "Keystone, Okla.") in f["death_place"]


def test_years_and_months_misread_by_a_letter() -> None:
    from sleuth.verify.normalise import ocr_year
    assert [ocr_year(t) for t in ("1J16", "18G5", "1S73", "1916", "lsCO", "l'.H")] == [
        "1916", "1865", "1873", None, None, None]
    text = "Kate Green was born Jauuary 5, 18G5, and died Augnst 30, 1J16."
    f = prose_facts(text, GenDate.from_parts(1916, 9, 14))
    assert ("Kate Green", "1865-01-05") in f["birth_date"]
    assert ("Kate Green", "1916-08-30") in f["death_date"]
    # a name one letter from a month is left alone where no date follows it
    assert reading_view("Marcb Smith and Angust Jones").text == "Marcb Smith and Angust Jones"


def test_line_start_debris_is_no_sentence_end() -> None:
    text = ("Mr. Crawford is survived by his widow, who was Miss\nHeatrico Welch; Howard "
            "Crawford, of Davis, a\nI brother; Mrs. James McCay, of Brock\n! wayville, Pa., a "
            "sister; John Alexander\n, Crawford, of Buffalo, N. Y., a brother.")
    f = prose_facts(text, REF, related=True)
    c = "Mr. Crawford"
    assert (c, "Miss Heatrico Welch") in f["spouse"]
    assert {(c, "Howard Crawford"), (c, "Mrs. James McCay"),
            (c, "John Alexander Crawford")} <= f["sibling"]
    assert ("Howard Crawford", "Davis") in f["residence"]


def test_a_relative_day_is_a_fact_when_the_snapshot_is_dated() -> None:
    # The page's masthead year is lost to OCR; its issue date (metadata) dates "Sunday" as a
    # printed dateline would, and the firewall is told that date, not guessed it.
    text = "James Garrett died at 12:40 o'clock Sunday afternoon at his home."
    issue = GenDate.from_parts(1916, 5, 15)
    cands = extract_text(text, "s", document_date=issue)
    death = next(c for c in cands if c.field == "death_date")
    assert death.is_fact and death.value == "1916-05-14"
    assert not check_candidate(death, {"s": Source.of(text, dated=issue.earliest)})
    assert check_candidate(death, {"s": Source.of(text)})  # undated: the year is unfounded
    undated = next(c for c in extract_text(text, "s") if c.field == "name")
    assert undated.value == "James Garrett"


def test_mc_and_mac_join_the_capitalised_rest_of_their_name() -> None:
    for text, want in [("Robert Mc\nClellan and", "Robert \nMcClellan and"),
                       ("the Mac\nDonald farm", "the \nMacDonald farm")]:
        view = reading_view(text)
        assert view.text == want and len(view.text) == len(text)
    assert reading_view("the Mack\nDonald farm").text == "the Mack\nDonald farm"
