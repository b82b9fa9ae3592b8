"""General prose patterns found by reading the misses on Google-RE, WikiBio and 1916 OCR.

Each case is a sentence shape, not a sentence: the examples are real snippets (Google-RE dev,
WikiBio train/valid, Chronicling America 1916), and every candidate goes through the firewall.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from prose_facts import prose_facts

from sleuth.extract import extract_text
from sleuth.model.dates import GenDate
from sleuth.model.records import Candidate
from sleuth.verify import Source, check_candidates


def _facts(text: str, ref: GenDate | None = None) -> dict[str, set[tuple[str, str]]]:
    return prose_facts(text, ref)


def _cands(text: str, ref: GenDate | None = None) -> list[Candidate]:
    return extract_text(text, "s", document_date=ref)


@pytest.mark.parametrize(("text", "who", "place"), [
    ("Born in Devon, Ralph Downes played classical guitar in his youth.", "Ralph Downes",
     "Devon"),
    ("Born in Milwaukee, Wisconsin, Ruth Benedict attended Harvard University.",
     "Ruth Benedict", "Milwaukee, Wisconsin"),
    ("Born in Pennsylvania in 1952, Leonard Bosack graduated from La Salle College.",
     "Leonard Bosack", "Pennsylvania"),
    ("Born in Brooklyn, NY, Jim Cullen was raised in Staunton, Va.", "Jim Cullen",
     "Brooklyn, NY"),
])
def test_fronted_born_clause_names_its_subject_after_the_comma(text: str, who: str,
                                                                place: str) -> None:
    assert (who, place) in _facts(text)["birth_place"]


def test_fronted_clause_with_pronoun_uses_the_lead_subject() -> None:
    f = _facts("Warren Spears (May 2, 1954 - January 8, 2005) was an American dancer. "
               "Born in Detroit, Michigan, he studied dance as a child.")
    assert f["birth_place"] == {("Warren Spears", "Detroit, Michigan")}
    assert "Michigan" not in {n for n, _ in f["name"]}


@pytest.mark.parametrize(("text", "field", "value"), [
    ("Paul Burston (born in 1965 in Yorkshire) is a British journalist.", "birth_place",
     "Yorkshire"),
    ("Jan A. Kregel (born 19 April 1944, Dallas, Texas) is an eminent economist.",
     "birth_place", "Dallas, Texas"),
    ("Edmond Reusens (b. in Wijnegem (Antwerp), 25 April 1831; d. in Leuven, 25 December 1903) "
     "was a Belgian archeologist.", "death_place", "Leuven"),
    ("arvid mörne -lrb- born 6 may 1876 in kuopio , dead 15 june 1946 in kauniainen -rrb- was "
     "a finnish author and poet .", "death_date", "1946-06-15"),
    ("tamar the great -lrb- -rrb- -lrb- 1160 -- 18 january 1213 -rrb- reigned as queen .",
     "birth_date", "1160"),
    ("sir andrew clarke , gcmg , cb , cie -lrb- 27 july 1824 -- 29 march 1902 -rrb- was a "
     "british soldier .", "birth_date", "1824-07-27"),
    ("holger wehlage -lrb- born july 3 , 1976 in meppen -rrb- is a former german football "
     "player who last played for bsv Ölper 2000 .", "birth_place", "meppen"),
])
def test_lead_parentheses(text: str, field: str, value: str) -> None:
    assert value in {v for _, v in _facts(text)[field]}


@pytest.mark.parametrize(("text", "who", "place"), [
    ("Philip Sington is an English novelist. He was born in 1962 in Cambridge, UK.",
     "Philip Sington", "Cambridge, UK"),
    # "Robie was elected ...": a lone surname's paragraph, see test_subject_hint_seeds_the_focus
    ("Thomas Mardaga died from cancer at St. Francis Hospital in Wilmington.",
     "Thomas Mardaga", "Wilmington"),
])
def test_death_and_birth_places_of_the_paragraph_subject(text: str, who: str,
                                                         place: str) -> None:
    f = _facts(text)
    field = "birth_place" if "born" in text else "death_place"
    assert (who, place) in f[field]


def test_rugby_union_is_not_a_marriage_union() -> None:
    f = _facts("Gary Callander (born July 5, 1959) is a retired Rugby Union player who was "
               "born in Edinburgh, Scotland.")
    assert ("Gary Callander", "Edinburgh, Scotland") in f["birth_place"]


REF = GenDate.from_parts(1916, 9, 14)  # a Thursday


def test_weekday_of_last_week_and_broken_township() -> None:
    text = ("Mrs. Rebecca Winters, widow\nof the late Jacob Winters, died\nat her home in "
            "Thompson town\nship, on Wednesday evening of\nlast week, aged 85 years. 1916.")
    f = _facts(text, REF)
    assert ("Mrs. Rebecca Winters", "1916-09-06") in f["death_date"]
    # The reading view joins the word the line end broke; the excerpt keeps it as printed.
    assert ("Mrs. Rebecca Winters", "Thompson township") in f["death_place"]


def test_a_year_misread_by_a_letter_is_read_but_garbage_is_never_guessed() -> None:
    # "1J16": OCR took the 9 for a J; the confusion table reads it, the excerpt keeps it
    text = ("Mrs. Louise Kerper, widow of\nthe late George B. Kerper, died\nsuddenly at a "
            "hotel in Atlantic City on Wednesday, August 30,\n1J16, aged about 65 years.")
    dates = [c for c in _cands(text, REF) if c.field == "death_date"]
    assert [c.value for c in dates] == ["1916-08-30"]
    assert dates[0].citation is not None and "1J16" in dates[0].citation.excerpt
    garbled = "Mrs. Louise Kerper died on Feb. ll.MWfl, aged about 65 years."
    assert not [c for c in _cands(garbled, REF) if c.field == "death_date"]


def test_place_stops_at_a_weekday_broken_across_lines() -> None:
    text = ("Harry H. Horton, of Roberts\ndale, died in the Blair Memorial\nHospital, "
            "Huntingdon, Pa., Sun\nday evening, September 3, 1916.")
    f = _facts(text, REF)
    assert ("Harry H. Horton", "Huntingdon, Pa.") in f["death_place"]
    assert ("Harry H. Horton", "1916-09-03") in f["death_date"]


def test_name_broken_with_a_hyphen_is_joined() -> None:
    f = _facts("Mr. John Hix-\non died at his home in Salem on May 3, 1916.")
    assert ("Mr. John Hixon", "Salem") in f["death_place"]


def test_name_broken_with_a_hyphen_mid_name_runs_on_to_the_surname() -> None:
    # The world's OCR broke "Matthew" at a line end; the name is not cut at the break.
    f = _facts("Mrs. Martha Tremayne died at her home in Xenia on May 3, 1960. She married "
               "Stephen Matt-\nhew Tremayne in 1899.")
    assert {v for _, v in f["spouse"]} == {"Stephen Matthew Tremayne"}


# -- second push (issue #3): leads, hints, places after the trigger -----------------------
def _hinted(text: str, hint: str) -> dict[str, set[tuple[str, str]]]:
    return prose_facts(text, hint=hint)


@pytest.mark.parametrize(("text", "field", "fact"), [
    # names beyond Latin-1, one-word names, names opening with a common word
    ("Darius Šilinskis (born May 18, 1984, in Mažeikiai, Lithuania) is a Lithuanian "
     "basketball center.", "birth_date", ("Darius Šilinskis", "1984-05-18")),
    ("Surono (born 8 July 1955) is a leading Indonesian geophysicist.", "birth_date",
     ("Surono", "1955-07-08")),
    ("Christian Geist (c. 1650 -- 27 September 1711) was a German composer.", "birth_date",
     ("Christian Geist", "1650")),
    ("Tom Weisner (c. 1949) is an American politician.", "birth_date", ("Tom Weisner", "1949")),
    # German "*" sign and "15. August"; "(born. 3 June ...)"; dotted degrees before the paren
    ("Willi Jäger (* 15. August 1940 in Kschellowitz, Bohmia) is a German mathematician.",
     "birth_place", ("Willi Jäger", "Kschellowitz, Bohmia")),
    ("Pu Lalhmingthanga (born. 3 June 1940) is the chief of the party.", "birth_date",
     ("Pu Lalhmingthanga", "1940-06-03")),
    ("Albert Warren Ferris, A.M., M.D. (December 1856-4 October 1937) was an American "
     "psychiatrist.", "death_date", ("Albert Warren Ferris", "1937-10-04")),
    # "born" inside the parenthesis after an alias or maiden name
    ("Gabriela Kulka (known as Gaba Kulka, born 1979 in Warsaw, Poland) is an artist.",
     "birth_place", ("Gabriela Kulka", "Warsaw, Poland")),
    ("Lynda Blutreich (née Lipson; born December 13, 1971 in Lynn, Massachusetts) is a "
     "javelin thrower.", "birth_date", ("Lynda Blutreich", "1971-12-13")),
    # a name qualifying a noun is not the subject
    ("Zuzana Kralova is a Czech Fashion designer born in Tábor, Czech Republic in 1985.",
     "birth_date", ("Zuzana Kralova", "1985")),
    # a parenthesis without a date still opens the lead
    ("Frank Howard was a Canadian journalist (and columnist) who wrote for the Ottawa "
     "Citizen. He was born on January 3, 1931 in Montreal, Quebec.", "birth_place",
     ("Frank Howard", "Montreal, Quebec")),
    ("A native of Copenhagen, Carl Rasch emigrated to Canada.", "birth_place",
     ("Carl Rasch", "Copenhagen")),
])
def test_lead_shapes_second_push(text: str, field: str, fact: tuple[str, str]) -> None:
    assert fact in _facts(text).get(field, set())


@pytest.mark.parametrize(("text", "hint", "field", "fact"), [
    # the snippet only says "He"; the hinted name is written later in it
    ("He was born in 1968. He resides in Hollymount. Noel Stagg is a football player.",
     "Noel Stagg", "birth_date", ("Noel Stagg", "1968")),
    ("At 8:20pm on 9 March 1958, Cheng died of a heart attack in Beijing.", "Cheng Yanqiu",
     "death_place", ("Cheng", "Beijing")),
    ("Tess died in a Riga hospital on December 7, 2006, at the age of 86.", "Nikolay Tess",
     "death_place", ("Tess", "Riga")),
    ("General Stack died at Calais, France, in December 1833.", "Edward Stack",
     "death_place", ("Stack", "Calais, France")),
    ("Born in Nebraska, he moved to Benton Harbor, Michigan in 1926. Haworth also studied "
     "at the University of Michigan.", "Gerrard Wendell Haworth", "birth_place",
     ("Haworth", "Nebraska")),
    ("Tozer went to Holland, and became minister at Rotterdam, where he died on 11 "
     "September 1650; he was buried in the English church there.", "Henry Tozer",
     "death_place", ("Tozer", "Rotterdam")),
    # a lone surname is a person only on a page about them (see the test below)
    ("Born in Devon, Downes played classical guitar in his youth.", "Ralph Downes",
     "birth_place", ("Downes", "Devon")),
    ("Robie was elected as a Democrat. He resumed mercantile pursuits in Bath, New York, "
     "where he died January 21, 1872.", "Reuben Robie", "death_place",
     ("Robie", "Bath, New York")),
    ("Smith was elected as a Republican. He served until his death in Charlotte.",
     "Hamilton C. Smith", "death_place", ("Smith", "Charlotte")),
    ("Mardaga died from cancer at St. Francis Hospital in Wilmington.", "Thomas Mardaga",
     "death_place", ("Mardaga", "Wilmington")),
    ("A native of Copenhagen, Rasch emigrated to Canada.", "Carl Rasch", "birth_place",
     ("Rasch", "Copenhagen")),
])
def test_subject_hint_seeds_the_focus(text: str, hint: str, field: str,
                                      fact: tuple[str, str]) -> None:
    assert fact in _hinted(text, hint).get(field, set())


@pytest.mark.parametrize("text", [
    "Born in Devon, Downes played classical guitar in his youth.",
    "Robie was elected as a Democrat. He died in Bath, New York, January 21, 1872.",
    "Mardaga died from cancer at St. Francis Hospital in Wilmington.",
    "A native of Copenhagen, Rasch emigrated to Canada.",
    "Wheat is quoted at ninety cents. It was born of a poor harvest in Kansas.",
    "Shc was born in Ohio in 1851.",
])
def test_a_lone_surname_or_word_is_no_person(text: str) -> None:
    # Issue 19: "Wheat", "Shc" (OCR of "She") and a bare surname are not people by
    # themselves; without a given name, an initial or a title nothing is said about anyone.
    assert _cands(text) == []


def test_subject_hint_is_never_invented() -> None:
    # "Dillwyn" is the father's surname here and "Amy" is never written: no focus is seeded,
    # so "She died in Swansea" stays unattributed rather than given to a made-up subject.
    text = ("She was the daughter of Lewis Llewelyn Dillwyn, owner of the works at Swansea. "
            "She died in Swansea.")
    f = _hinted(text, "Amy Dillwyn")
    assert "death_place" not in f
    assert all("Amy" not in n for n, _ in f.get("name", set()))
    # no date for "Born in X, he moved ... in 1926": the clause ends at ", he"
    f = _hinted("Born in Nebraska, he moved to Michigan in 1926. Haworth studied law.",
                "Gerrard Wendell Haworth")
    assert "birth_date" not in f


def test_street_address_then_town_and_home_of_a_relative() -> None:
    ref = GenDate.from_parts(1916, 9, 14)
    f = _facts("Mrs. Maggie E. Deshong Rib-\nblet, died at her home, 153 Coop\ner Ave., "
               "Johnstown, Pa., Friday,\nSeptember 8, 1916, aged 50 years.", ref)
    assert ("Mrs. Maggie E. Deshong Ribblet", "Johnstown, Pa.") in f["death_place"]
    assert ("Mrs. Maggie E. Deshong Ribblet", "1916-09-08") in f["death_date"]
    f = _facts("Mrs. Rachel Jenkins died at the home of her daughter, Mrs. W. E. Gammon, in "
               "Dexter, on January 17th, at the age of 88 years.", GenDate.from_parts(1916, 1, 20))
    assert ("Mrs. Rachel Jenkins", "Dexter") in f["death_place"]


def test_month_with_a_period_before_a_line_break_is_not_a_sentence_end() -> None:
    f = _facts("Iowa Bellamy Stanley, daughter\nof Joshua and Ethalinda Bellamy,\nwas born at "
               "Muscatine, Iowa, March.\n2, 1855, and died at Coon Rapids,\nIowa, Jan. 11, "
               "1916, aged 60 years.", GenDate.from_parts(1916, 1, 20))
    assert ("Iowa Bellamy Stanley", "1855-03-02") in f["birth_date"]
    assert ("Iowa Bellamy Stanley", "1916-01-11") in f["death_date"]


@given(st.text(alphabet="HeShe wasdiedbornin Smith John ,.1906Paris\n", max_size=200),
       st.sampled_from(["John Smith", "Smith", "Mary Jones", "", "Dr. J. Smith, Jr."]))
@settings(max_examples=60, deadline=None)
def test_subject_hint_keeps_every_candidate_grounded(text: str, hint: str) -> None:
    cands = extract_text(text, "s", subject_hint=hint)
    report = check_candidates(cands, {"s": Source.of(text)})
    assert len(report.passed) == len(cands)
    assert all(not c.is_fact or c.method != "inference" for c in cands)


@pytest.mark.parametrize(("text", "person"), [
    ("The widow, Mrs. Reyes, Quarry Lane, was born in 1950.", "Mrs. Reyes"),
    ("Mrs. Ann Hale, Elm Street, was born in 1948.", "Mrs. Ann Hale"),
])
def test_a_street_after_a_name_is_no_person(text: str, person: str) -> None:
    """Issue 26: a living widow's street ("Quarry Lane") was extracted as a person and
    shown everywhere. A name ending in a street's word is a street unless a known given
    name starts it ("Lois Lane" is a person)."""
    names = {c.value for c in extract_text(text, "s") if c.field == "name"}
    assert person in names and not [n for n in names if "Lane" in n or "Street" in n]
    assert "Lois Lane" in {c.value for c in extract_text("Lois Lane was born in 1938.", "s")
                           if c.field == "name"}
