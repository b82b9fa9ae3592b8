"""Hand-written notices with the exact candidates the patterns must produce."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

from sleuth.extract import extract_text
from sleuth.model.citation import EvidenceType
from sleuth.model.dates import DateQualifier, GenDate
from sleuth.model.records import Candidate

Contract = Callable[[list[Candidate], str, str], None]

OBIT = (
    "John Henry McKibbin, aged 78 years, died at his home in Buck Valley, Fulton Co., Pa., "
    "on Thursday, January 6, 1916. He was born May 12, 1837, in Buck Valley, Fulton Co., "
    "Pa., a son of William and Sarah Lee McKibbin. On March 3, 1860, he was united in "
    "marriage to Miss Mary Ann Hess, daughter of Mr. and Mrs. Jacob Hess. He is survived "
    "by his wife, Mary, and three sons, John, James and Will. Mr. McKibbin was a farmer. "
    "Interment in the Buck Valley cemetery."
)


def facts(cands: list[Candidate]) -> set[tuple[str | None, str, str]]:
    return {(c.subject_name, c.field, c.value) for c in cands if c.is_fact}


def test_full_obituary(contract: Contract) -> None:
    cands = extract_text(OBIT, "snap-1", evidence_type=EvidenceType.SECONDARY,
                         source_reliability=0.7)
    contract(cands, OBIT, "snap-1")
    got = facts(cands)
    j = "John Henry McKibbin"
    expected = {
        (j, "name", j),
        (j, "death_date", "1916-01-06"),
        (j, "death_place", "Buck Valley, Fulton Co., Pa."),
        (j, "age_at_death", "78"),
        (j, "sex", "M"),
        (j, "birth_date", "1837-05-12"),
        (j, "birth_place", "Buck Valley, Fulton Co., Pa."),
        (j, "parent", "William McKibbin"),
        (j, "parent", "Sarah Lee McKibbin"),
        (j, "spouse", "Miss Mary Ann Hess"),
        (j, "marriage_date", "1860-03-03"),
        (j, "spouse", "Mary"),
        (j, "child", "John"),
        (j, "child", "James"),
        (j, "child", "Will"),
        (j, "occupation", "farmer"),
        (j, "burial_place", "the Buck Valley cemetery"),
        ("Miss Mary Ann Hess", "parent", "Jacob Hess"),
        ("Miss Mary Ann Hess", "parent", "Mrs. Jacob Hess"),
        ("Miss Mary Ann Hess", "sex", "F"),
        ("Jacob Hess", "sex", "M"),
        ("Mrs. Jacob Hess", "sex", "F"),
        ("William McKibbin", "sex", "M"),
        ("Sarah Lee McKibbin", "sex", "F"),
    }
    assert expected <= got, expected - got
    for c in cands:
        assert c.evidence_type is EvidenceType.SECONDARY
        assert c.citation is not None and c.citation.source_reliability == 0.7
    # The same person keeps one key throughout the document.
    assert len({c.subject for c in cands if c.subject_name == j}) == 1


def test_age_and_death_date_infer_birth_range(contract: Contract) -> None:
    text = "Mrs. Sarah Jones died in 1916, aged 78."
    cands = extract_text(text, "s")
    contract(cands, text, "s")
    inferred = [c for c in cands if c.field == "birth_date"]
    assert len(inferred) == 1
    b = inferred[0]
    assert not b.is_fact and b.method == "inference" and b.confidence <= 0.6
    assert b.date is not None and b.date.qualifier is DateQualifier.CALCULATED
    assert b.date.years() == (1837, 1838)
    assert "78" in b.rationale
    assert ("Mrs. Sarah Jones", "death_date", "1916") in facts(cands)
    assert ("Mrs. Sarah Jones", "sex", "F") in facts(cands)


def test_relative_date_only_with_document_date() -> None:
    text = "Frank Miller died yesterday at his home in Salem."
    without = extract_text(text, "s")
    assert not [c for c in without if c.field == "death_date"]
    assert ("Frank Miller", "death_place", "Salem") in facts(without)
    dated = extract_text(text, "s", document_date=GenDate.from_parts(1916, 1, 6))
    dd = [c for c in dated if c.field == "death_date"]
    assert len(dd) == 1 and dd[0].date is not None
    assert dd[0].date.earliest == date(1916, 1, 5) and dd[0].value == "1916-01-05"


def test_mr_and_mrs_parents_and_pronoun_subject(contract: Contract) -> None:
    text = (
        "Addie Cole was born in West Brockway fifty five years ago. She was the daughter "
        "of Mr. and Mrs. Jesse Cole. A husband and six children are left to mourn."
    )
    cands = extract_text(text, "s")
    contract(cands, text, "s")
    got = facts(cands)
    assert ("Addie Cole", "birth_place", "West Brockway") in got
    assert ("Addie Cole", "parent", "Jesse Cole") in got
    assert ("Addie Cole", "parent", "Mrs. Jesse Cole") in got
    assert ("Addie Cole", "sex", "F") in got
    assert not [c for c in cands if c.field == "birth_date"]  # "years ago" has no year


def test_wife_of_and_burial(contract: Contract) -> None:
    text = (
        "Mrs. Emma Worthington, wife of Clarence G. Worthington, died at her home in Galena, "
        "Kansas, September 5, 1916. Burial was in the Galena cemetery."
    )
    cands = extract_text(text, "s")
    contract(cands, text, "s")
    got = facts(cands)
    e = "Mrs. Emma Worthington"
    assert {
        (e, "spouse", "Clarence G. Worthington"),
        (e, "death_date", "1916-09-05"),
        (e, "death_place", "Galena, Kansas"),
        (e, "burial_place", "the Galena cemetery"),
        (e, "sex", "F"),
    } <= got


def test_couple_married(contract: Contract) -> None:
    text = (
        "Harvey M. Crouse and Miss Rosetta Buterbaugh were married at Indiana, Pa., "
        "on June 3, 1915."
    )
    cands = extract_text(text, "s")
    contract(cands, text, "s")
    got = facts(cands)
    h = "Harvey M. Crouse"
    assert {(h, "spouse", "Miss Rosetta Buterbaugh"), (h, "marriage_date", "1915-06-03"),
            (h, "marriage_place", "Indiana, Pa.")} <= got


def test_survivor_residences(contract: Contract) -> None:
    text = (
        "Thomas Good died Sunday. He also leaves a brother, William Good of Quincy, Mass., and "
        "a sister, Mrs. Nellie Cross of Dorchester, Mass."
    )
    cands = extract_text(text, "s")
    contract(cands, text, "s")
    got = facts(cands)
    assert {
        ("Thomas Good", "sibling", "William Good"),
        ("Thomas Good", "sibling", "Mrs. Nellie Cross"),
        ("William Good", "residence", "Quincy, Mass."),
        ("Mrs. Nellie Cross", "residence", "Dorchester, Mass."),
        ("Mrs. Nellie Cross", "sex", "F"),
    } <= got


def test_junior_is_a_hypothesis(contract: Contract) -> None:
    text = "John Smith, Jr. died at Boston on May 3, 1901."
    cands = extract_text(text, "s")
    contract(cands, text, "s")
    par = [c for c in cands if c.field == "parent"]
    assert len(par) == 1
    assert not par[0].is_fact and par[0].method == "inference" and par[0].confidence <= 0.6
    assert par[0].value == "John Smith"


def test_wikibio_lowercase_lead(contract: Contract) -> None:
    text = ("warren darst gill -lrb- december 21 , 1878 in ladoga , indiana -- november 26 , "
            "1952 in laguna beach , california -rrb- was a professional baseball player .")
    cands = extract_text(text, "w")
    contract(cands, text, "w")
    w = "warren darst gill"
    assert {
        (w, "name", w),
        (w, "birth_date", "1878-12-21"),
        (w, "birth_place", "ladoga , indiana"),
        (w, "death_date", "1952-11-26"),
        (w, "death_place", "laguna beach , california"),
        (w, "occupation", "professional baseball player"),
    } <= facts(cands)


def test_wikipedia_lead_with_place(contract: Contract) -> None:
    text = "Tan Jiexi (born December 2, 1988 in Shenzhen, China) is a Chinese singer-songwriter."
    cands = extract_text(text, "g")
    contract(cands, text, "g")
    got = facts(cands)
    assert ("Tan Jiexi", "birth_date", "1988-12-02") in got
    assert ("Tan Jiexi", "birth_place", "Shenzhen, China") in got


def test_surname_only_subject_after_lead(contract: Contract) -> None:
    text = "Karam was born on September 16, 1948, in Lebanon."
    # A lone surname is not a person by itself (issue 19: "Wheat is quoted at ...")...
    assert extract_text(text, "g") == []
    # ...but on a page fetched for Ghassan Karam, "Karam" is him.
    cands = extract_text(text, "g", subject_hint="Ghassan Karam")
    contract(cands, text, "g")
    assert {("Karam", "birth_date", "1948-09-16"), ("Karam", "birth_place", "Lebanon")} <= facts(
        cands
    )


def test_pages_are_located() -> None:
    text = "Nothing here.\n\nAnna Berg died at Ystad on 3 maj 1890."
    start = text.index("Anna")
    cands = extract_text(text, "s", page_starts=(0, start))
    assert cands and all(c.citation and c.citation.locator.page == 2 for c in cands)
    assert ("Anna Berg", "death_date", "1890-05-03") in facts(cands)


def test_no_person_no_candidates() -> None:
    assert extract_text("The weather was fine on May 3, 1890, in Boston.", "s") == []
    assert extract_text("", "s") == []
