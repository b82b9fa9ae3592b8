"""A stated age at death and the dates it must fit, read one way for every caller.

Registers and obituaries state an age at death in completed years: a man born 10 Nov 1745
who died 5 Dec 1812 was 67, and "aged 68" does not fit him. The timeline asks whether a
stated age fits a birth and a death on file and, when not, which ages they give; ranking
asks which births an age and a death allow. Both are `completed_years` read in one
direction or the other, so they live here once: `birth_window` is the relation, `fits`
tests it, `ages_given` words it the other way. Ranges are the tolerance: a year-only or an
"about" date leaves the age a year either way, two exact days none.
"""

from __future__ import annotations

from datetime import date, timedelta

from sleuth.model.dates import years_before

Span = tuple[date, date]  # (earliest, latest), both inclusive


def stated_years(value: str) -> int | None:
    """The whole years a stated age gives ("67", "67 years"), or None ("about 67", "6m")."""
    parts = value.split()
    return int(parts[0]) if parts and parts[0].isdecimal() else None


def completed_years(born: date, died: date) -> int:
    return died.year - born.year - ((died.month, died.day) < (born.month, born.day))


def birth_window(age: int, died: Span) -> Span:
    """The births that make `age` the completed years at a death in `died`."""
    return years_before(died[0], age + 1) + timedelta(days=1), years_before(died[1], age)


def fits(age: int, born: Span, died: Span) -> bool:
    """Whether some birth in `born` and death in `died` give `age` completed years."""
    lo, hi = birth_window(age, died)
    return lo <= born[1] and born[0] <= hi


def ages_given(born: Span, died: Span) -> tuple[int, int]:
    """The youngest and oldest age at death a birth and a death range give."""
    return completed_years(born[1], died[0]), completed_years(born[0], died[1])
