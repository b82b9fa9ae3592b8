"""One life or two: the vital-years test behind name linking and merges."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sleuth.model.lifespan import MAX_LIFESPAN, add_year, life_conflicts, year_of


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
