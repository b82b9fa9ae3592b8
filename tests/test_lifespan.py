"""One life or two: the vital-years test behind name linking and merges."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sleuth.model.lifespan import (
    CHILD_BIRTH,
    CHILD_MARRIAGE,
    MAX_LIFESPAN,
    MAX_PARENT_AGE,
    MIN_PARENT_AGE,
    add_year,
    life_conflicts,
    year_of,
)


def _years(**fields: str) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for f, v in fields.items():
        add_year(out, f, v)
    return out


def test_year_of_reads_iso_written_and_ages() -> None:
    assert year_of("birth_date", "1947-02-26") == 1947
    assert year_of("burial_date", "06 Apr 2019") == 2019
    assert year_of("age_at_death", "82") == 82
    assert year_of("birth_date", "unknown") is None


def test_namesakes_are_not_one_life() -> None:
    living = _years(birth_date="1947-02-26")
    assert life_conflicts(living, _years(burial_date="13 Nov 1816", age_at_death="55"))
    # buried 2019 aged 82: born about 1937, not 1947
    assert life_conflicts(living, _years(burial_date="06 Apr 2019", age_at_death="82"))
    # two burials in one parish book, 203 years apart, ages 55 and 82: two Ellens
    assert life_conflicts(_years(burial_date="13 Nov 1816", age_at_death="55"),
                          _years(burial_date="06 Apr 2019", age_at_death="82"))
    grandfather = _years(birth_date="1841", death_date="1919")
    assert life_conflicts(grandfather, _years(birth_date="1898", death_date="1966"))


def test_one_life_from_several_records() -> None:
    assert life_conflicts(_years(birth_date="1866-03-02"),
                          _years(death_date="1949", age_at_death="83")) == []
    assert life_conflicts(_years(baptism_date="1807-06-04"), _years(burial_date="1880")) == []
    assert life_conflicts(_years(), _years(burial_date="1816")) == []  # nothing to compare
    assert life_conflicts(_years(death_date="1880-12-30", age_at_death="70"),
                          _years(burial_date="1881-01-03", age_at_death="71")) == []


@given(st.integers(1500, 2000), st.integers(0, MAX_LIFESPAN))
def test_any_possible_lifespan_is_one_life(born: int, age: int) -> None:
    a = _years(birth_date=str(born))
    b = _years(death_date=str(born + age), age_at_death=str(age))
    assert life_conflicts(a, b) == [] and life_conflicts(b, a) == []


@given(st.integers(1500, 2000), st.integers(2, 400))
def test_a_death_before_birth_is_never_one_life(born: int, before: int) -> None:
    assert life_conflicts(_years(birth_date=str(born)), _years(death_date=str(born - before)))


def test_marriages_and_children_must_fit_the_life() -> None:
    # the father of a child baptised in 1768 is not the William Giles born 1923
    father_1768: dict[str, list[int]] = {CHILD_BIRTH: [1768]}
    assert life_conflicts(father_1768, _years(birth_date="1923-05-09"))
    # Hannah Cole buried 1793 aged 38 did not marry in 1847
    assert life_conflicts(_years(burial_date="1793-11-05", age_at_death="38"),
                          _years(marriage_date="1847-12-08"))
    # buried in February 1905, Emma did not marry in November 1906
    assert life_conflicts(_years(burial_date="1905-02-21"), _years(marriage_date="1906-11-15"))
    # a mother dead in 1903 bore no child in 1910; a father may die months before a birth
    assert life_conflicts(_years(death_date="1903-07-08"), {CHILD_BIRTH: [1899, 1910]})
    assert life_conflicts(_years(death_date="1903-07-08"), {CHILD_BIRTH: [1904]}) == []
    # the same person's own records: married at 24, children from 25 to 44
    assert life_conflicts(_years(birth_date="1740", death_date="1804"),
                          {"marriage_date": [1764], CHILD_BIRTH: [1765, 1784]}) == []


def test_children_a_lifetime_apart_have_two_parents() -> None:
    """Neither record gives the father's birth: the William GILES whose son was baptised in
    1768 is not the father of boys born in 1953 and 1955; children 40 years apart can be one
    man's; a record whose own children are too far apart (a mistyped year) meets its copies."""
    assert life_conflicts({CHILD_BIRTH: [1768]}, {CHILD_BIRTH: [1953, 1955]})
    assert life_conflicts({CHILD_BIRTH: [1953, 1955]}, {CHILD_BIRTH: [1768]})
    assert life_conflicts({CHILD_BIRTH: [1800]}, {CHILD_BIRTH: [1840]}) == []
    wrong = {CHILD_BIRTH: [1790, 1895]}
    assert life_conflicts(wrong, dict(wrong)) == []


@given(st.integers(1500, 2000), st.integers(0, MAX_PARENT_AGE - MIN_PARENT_AGE))
def test_children_within_a_parents_fertile_years_are_one_parents(first: int, gap: int) -> None:
    a, b = {CHILD_BIRTH: [first]}, {CHILD_BIRTH: [first + gap]}
    assert life_conflicts(a, b) == [] and life_conflicts(b, a) == []


@given(st.integers(1500, 2000), st.integers(MIN_PARENT_AGE, MAX_PARENT_AGE))
def test_a_parent_of_any_possible_age_is_one_life(born: int, age: int) -> None:
    a = _years(birth_date=str(born))
    b = {CHILD_BIRTH: [born + age]}
    assert life_conflicts(a, b) == [] and life_conflicts(b, a) == []


def test_a_childs_wedding_must_fit_the_parents_birth() -> None:
    """The father a bride's 1950 marriage record names is not the namesake born in 1970,
    and can be the one born in 1898 (the record gives no year of his own)."""
    father = {CHILD_MARRIAGE: [1950]}
    assert life_conflicts(_years(birth_date="1970"), father)
    assert life_conflicts(_years(birth_date="1930"), father)  # a father at 20 of a bride of 0
    assert not life_conflicts(_years(birth_date="1898", death_date="1981"), father)
    assert not life_conflicts(_years(birth_date="1898"), {CHILD_MARRIAGE: [1990]})


def test_a_census_finds_the_person_living() -> None:
    """The man a 1940 census finds living is not the namesake born in the 1970s, nor one
    buried in 1930; he can be the one born in 1937."""
    census = _years(residence_date="1940")
    assert life_conflicts(_years(birth_date="1970"), census)
    assert life_conflicts(_years(burial_date="1930"), census)
    assert not life_conflicts(_years(birth_date="1937-04-05", death_date="2017"), census)


def test_a_record_wrong_in_itself_still_meets_its_copies() -> None:
    # a user tree's Emma, born 1845 (really 1835), married 1856: married at eleven by its
    # own dates; the same profile copied into another relative's answer is still her
    copy = _years(birth_date="1845-08-14", death_date="1873-07-28", marriage_date="1856-11-25")
    assert life_conflicts(copy, dict(copy)) == []
    assert life_conflicts(copy, _years(marriage_date="1856-11-25")) == []


def test_an_age_at_death_three_years_off_is_another_life() -> None:
    # buried 2012 aged 68 (born 1943-44) is not the living Harold born 8 April 1941
    assert life_conflicts(_years(birth_date="1941-04-08"),
                          _years(burial_date="29 Apr 2012", age_at_death="68"))
    assert life_conflicts(_years(birth_date="1943-06-01"),
                          _years(burial_date="29 Apr 2012", age_at_death="68")) == []


def test_a_woman_is_not_made_a_mother_past_fifty_by_a_name() -> None:
    """Elizabeth Mercer born 1875 is not the mother of a girl born 1929; at 44 she can be."""
    from sleuth.model.lifespan import late_mother

    mother = _years(birth_date="1875-06-27")
    assert late_mother(mother, {CHILD_BIRTH: [1929]})
    assert late_mother({CHILD_BIRTH: [1902, 1929]}, mother)
    assert late_mother(mother, {CHILD_BIRTH: [1902, 1919]}) is None
    assert late_mother(mother, {}) is None and life_conflicts(mother, {CHILD_BIRTH: [1929]}) == []
