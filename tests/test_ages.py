"""An age at death and the dates it must fit: the one relation the timeline and ranking share."""

from __future__ import annotations

from datetime import date, timedelta

from hypothesis import given
from hypothesis import strategies as st

from sleuth.model.ages import ages_given, birth_window, completed_years, fits, stated_years

DAYS = st.dates(min_value=date(1600, 1, 1), max_value=date(2000, 12, 31))
WIDTH = st.sampled_from([0, 1, 28, 365, 366, 730])


def test_the_examples_the_callers_give() -> None:
    born, died = date(1745, 11, 10), date(1812, 12, 5)
    assert completed_years(born, died) == 67
    assert fits(67, (born, born), (died, died)) and not fits(68, (born, born), (died, died))
    # a year-only birth leaves the age a year either way
    assert ages_given((date(1745, 1, 1), date(1745, 12, 31)), (died, died)) == (66, 67)
    assert birth_window(67, (died, died)) == (date(1744, 12, 6), date(1745, 12, 5))
    assert [stated_years(v) for v in ("67", "67 years", "about 67", "6m", "")] == [
        67, 67, None, None, None]


@given(DAYS, WIDTH, st.integers(0, 100), WIDTH, st.integers(-2, 2))
def test_fits_is_the_range_of_ages_the_dates_give(born: date, b_width: int, lived: int,
                                                  d_width: int, off: int) -> None:
    """The timeline words the ages a birth and death give; ranking the births an age and a
    death allow: the two readings agree, leap days included."""
    b = (born, born + timedelta(days=b_width))
    died = born + timedelta(days=round(lived * 365.25))
    d = (died, died + timedelta(days=d_width))
    age = max(0, completed_years(born, died) + off)
    low, high = ages_given(b, d)
    assert fits(age, b, d) == (low <= age <= high)


@given(DAYS, st.integers(0, 100))
def test_the_birth_window_is_exactly_the_births_of_that_age(died: date, age: int) -> None:
    lo, hi = birth_window(age, (died, died))
    assert completed_years(lo, died) == completed_years(hi, died) == age
    assert completed_years(lo - timedelta(days=1), died) == age + 1
    assert completed_years(hi + timedelta(days=1), died) == age - 1
