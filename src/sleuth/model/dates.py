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

    @model_validator(mode="after")
    def _ordered(self) -> GenDate:
        if self.earliest and self.latest and self.earliest > self.latest:
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
        """ISO form at the precision we actually know (YYYY, YYYY-MM or YYYY-MM-DD)."""
        anchor = self.earliest or self.latest
        if anchor is None:
            return ""
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
        return (
            self.earliest.year if self.earliest else None,
            self.latest.year if self.latest else None,
        )

    def overlaps(self, other: GenDate) -> bool:
        """True when the two ranges can describe the same day (open ends overlap anything)."""
        lo1, hi1 = self.earliest or date.min, self.latest or date.max
        lo2, hi2 = other.earliest or date.min, other.latest or date.max
        return lo1 <= hi2 and lo2 <= hi1
