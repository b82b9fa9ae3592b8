"""Genealogical dates are ranges, never points.

A record that says "abt 1850" or "aged 78" bounds a date; it does not fix it. Storing the
earliest and latest possible day plus the qualifier that produced them lets conflict
analysis, resolution and privacy rules reason about overlap instead of guessing a day.
"""

from __future__ import annotations

import calendar as _calendar
from datetime import date
from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, model_validator


def years_before(day: date, years: int) -> date:
    """The same calendar day `years` earlier (29 February falls back to the 28th)."""
    try:
        return day.replace(year=day.year - years)
    except ValueError:
        return day.replace(year=day.year - years, day=28)

class DateQualifier(StrEnum):
    EXACT = "exact"
    ABOUT = "about"
    CALCULATED = "calculated"
    ESTIMATED = "estimated"
    BEFORE = "before"
    AFTER = "after"
    BETWEEN = "between"
    PERIOD = "period"  # FROM ... TO ...
    PHRASE = "phrase"  # a date phrase we keep but cannot bound


Precision = Literal["day", "month", "year"]


class GenDate(BaseModel):
    """An uncertain date: the closed interval [earliest, latest] and how we know it."""

    model_config = ConfigDict(frozen=True)

    earliest: date | None = None
    latest: date | None = None
    qualifier: DateQualifier = DateQualifier.EXACT
    precision: Precision | None = None
    calendar: str = "gregorian"
    original: str = ""
    # Additive fields (defaults keep older constructors valid). Python's `date` cannot hold
    # year 0 or earlier, so an end before 1 CE stores the *BCE year number* in `date.year`
    # (1401 BCE -> date(1401, ...)) and sets its flag; `years()`, `iso()`, `overlaps()` and the
    # order check then use astronomical years (1 BCE = 0, 1401 BCE = -1400) as ISO 8601 does.
    earliest_bce: bool = False
    latest_bce: bool = False
    # Free text kept beside a bounded date: GEDCOM `INT date (phrase)`, a 7.0 PHRASE, or the
    # whole value of a pure date phrase `(...)` (then qualifier PHRASE and no bounds).
    phrase: str = ""

    @model_validator(mode="after")
    def _ordered(self) -> GenDate:
        if (
            self.earliest
            and self.latest
            and _key(self.earliest, self.earliest_bce) > _key(self.latest, self.latest_bce)
        ):
            raise ValueError(
                f"date range is reversed: earliest {self.earliest} is after latest {self.latest}"
            )
        return self

    # -- constructors -------------------------------------------------------------
    @classmethod
    def from_parts(
        cls,
        year: int,
        month: int | None = None,
        day: int | None = None,
        *,
        qualifier: DateQualifier = DateQualifier.EXACT,
        original: str = "",
    ) -> GenDate:
        """A date known to year, month or day precision, widened to the whole period."""
        if month is None:
            return cls(
                earliest=date(year, 1, 1),
                latest=date(year, 12, 31),
                qualifier=qualifier,
                precision="year",
                original=original,
            )
        if day is None:
            last = _calendar.monthrange(year, month)[1]
            return cls(
                earliest=date(year, month, 1),
                latest=date(year, month, last),
                qualifier=qualifier,
                precision="month",
                original=original,
            )
        d = date(year, month, day)
        return cls(earliest=d, latest=d, qualifier=qualifier, precision="day", original=original)

    # -- views --------------------------------------------------------------------
    @property
    def is_point(self) -> bool:
        return self.earliest is not None and self.earliest == self.latest

    def iso(self) -> str:
        """ISO form at the precision we actually know (YYYY, YYYY-MM or YYYY-MM-DD).

        Ends before 1 CE use ISO 8601 astronomical years: 1401 BCE is "-1400".
        """
        anchor = self.earliest or self.latest
        if anchor is None:
            return ""
        bce = self.earliest_bce if self.earliest else self.latest_bce
        if bce:
            y = 1 - anchor.year
            ys = f"-{-y:04d}" if y < 0 else f"{y:04d}"
            if self.precision == "year":
                return ys
            if self.precision == "month":
                return f"{ys}-{anchor.month:02d}"
            return f"{ys}-{anchor.month:02d}-{anchor.day:02d}"
        if self.precision == "year":
            return f"{anchor.year:04d}"
        if self.precision == "month":
            return f"{anchor.year:04d}-{anchor.month:02d}"
        if self.precision == "day" or self.is_point:
            return anchor.isoformat()
        if self.earliest and self.latest and self.earliest.year == self.latest.year:
            return f"{anchor.year:04d}"
        return anchor.isoformat()

    def years(self) -> tuple[int | None, int | None]:
        """Earliest and latest year; astronomical (negative) for ends before 1 CE."""
        return (
            _key(self.earliest, self.earliest_bce)[0] if self.earliest else None,
            _key(self.latest, self.latest_bce)[0] if self.latest else None,
        )

    def overlaps(self, other: GenDate) -> bool:
        """True when the two ranges can describe the same day (open ends overlap anything)."""
        lo1 = _key(self.earliest, self.earliest_bce) if self.earliest else _MIN
        hi1 = _key(self.latest, self.latest_bce) if self.latest else _MAX
        lo2 = _key(other.earliest, other.earliest_bce) if other.earliest else _MIN
        hi2 = _key(other.latest, other.latest_bce) if other.latest else _MAX
        return lo1 <= hi2 and lo2 <= hi1


_MIN = (-(10**9), 1, 1)
_MAX = (10**9, 12, 31)


def _key(d: date, bce: bool) -> tuple[int, int, int]:
    """Sort key in astronomical years, so BCE ends order correctly against CE ends."""
    return (1 - d.year if bce else d.year, d.month, d.day)
