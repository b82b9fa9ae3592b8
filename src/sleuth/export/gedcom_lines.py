"""GEDCOM lines: dates in GEDCOM's grammar, and a writer that escapes and folds values.

Dates are written from the stored range (ABT, BEF, AFT, BET … AND, FROM … TO), never with
more precision than the evidence has. The writer escapes `@` as each version requires
(5.5.1 doubles every one except in a calendar escape such as `@#DJULIAN@`; 7.0 only a
leading one), splits 5.5.1 values over 255-character lines with CONC, and turns line breaks
into CONT.
"""

from __future__ import annotations

import calendar
import re
from datetime import date

from sleuth.model.dates import DateQualifier, GenDate

_MONTHS = ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")
_ABOUT = {DateQualifier.ABOUT: "ABT", DateQualifier.CALCULATED: "CAL",
          DateQualifier.ESTIMATED: "EST"}
_MAX_551 = 200  # value characters per physical line before CONC (5.5.1 lines stop at 255)
_CALENDAR_ESCAPE = re.compile(r"(@#D[A-Z ]{1,20}@)")


def point(d: date, precision: str) -> str:
    if precision == "year":
        return f"{d.year}"
    if precision == "month":
        return f"{_MONTHS[d.month - 1]} {d.year}"
    return f"{d.day} {_MONTHS[d.month - 1]} {d.year}"


def _month_end(d: date) -> int:
    return calendar.monthrange(d.year, d.month)[1]


def _unit(lo: date, hi: date) -> str | None:
    """The precision at which [lo, hi] is exactly one unit: a day, a month or a year."""
    if lo == hi:
        return "day"
    if lo.year == hi.year and (lo.month, lo.day, hi.month, hi.day) == (1, 1, 12, 31):
        return "year"
    if (lo.year, lo.month, lo.day) == (hi.year, hi.month, 1) and hi.day == _month_end(hi):
        return "month"
    return None


def _bound(d: date, precision: str | None, end: bool) -> str:
    """One end of a range, only as coarse as its precision allows and the day supports."""
    if precision == "year" and (d.month, d.day) == ((12, 31) if end else (1, 1)):
        return point(d, "year")
    if precision in ("year", "month") and d.day == (_month_end(d) if end else 1):
        return point(d, "month")
    return point(d, "day")


def gedcom_date(gd: GenDate | None) -> str | None:
    """A GenDate in GEDCOM date grammar, as precise as its range and no more."""
    if gd is None:
        return None
    lo, hi, q = gd.earliest, gd.latest, gd.qualifier
    if lo is None and hi is None:
        # (a phrase's words once in parentheses: "(unknown)" is kept as "unknown")
        return f"({gd.phrase or gd.original})" if gd.phrase or gd.original else None
    if q == DateQualifier.BEFORE and hi is not None:
        return f"BEF {_bound(hi, gd.precision, False)}"
    if q == DateQualifier.AFTER and lo is not None:
        return f"AFT {_bound(lo, gd.precision, True)}"
    if hi is not None and lo is None:
        return f"BEF {_bound(hi, gd.precision, True)}"
    if lo is not None and hi is None:
        return f"AFT {_bound(lo, gd.precision, False)}"
    assert lo is not None and hi is not None
    unit = _unit(lo, hi)
    if q == DateQualifier.PERIOD:
        return f"FROM {_bound(lo, gd.precision, False)} TO {_bound(hi, gd.precision, True)}"
    if unit is not None:
        text = point(lo, unit)
        return f"{_ABOUT[q]} {text}" if q in _ABOUT else text
    # An "about" range over several years ("ABT 1103/1104", an age-derived window) keeps
    # its bounds as BET ... AND: GEDCOM has no "about between", and a midpoint would narrow it.
    return f"BET {_bound(lo, gd.precision, False)} AND {_bound(hi, gd.precision, True)}"


class Writer:
    def __init__(self, version: str) -> None:
        self.v7 = version.startswith("7")
        self.lines: list[str] = []

    def add(self, level: int, tag: str, value: str | None = None, xref: str | None = None) -> None:
        head = f"{level} {xref + ' ' if xref else ''}{tag}"
        if value is None or value == "":
            self.lines.append(head)
            return
        if "\n" not in value and "\r" not in value:
            self._physical(head, self._escape(value), level)
            return
        parts = [self._escape(part) for part in
                 value.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
        self._physical(head, parts[0], level)
        for part in parts[1:]:
            self._physical(f"{level + 1} CONT", part, level)

    def ptr(self, level: int, tag: str, xref: str) -> None:
        """A pointer line: an xref is never escaped."""
        self.lines.append(f"{level} {tag} {xref}")

    def _escape(self, value: str) -> str:
        if "@" not in value:
            return value
        if self.v7:
            return "@" + value if value.startswith("@") else value
        parts = _CALENDAR_ESCAPE.split(value)
        return "".join(p if i % 2 else p.replace("@", "@@") for i, p in enumerate(parts))

    def _physical(self, head: str, value: str, level: int) -> None:
        if self.v7 or len(value) <= _MAX_551:
            self.lines.append(f"{head} {value}" if value else head)
            return
        chunks = [value[i : i + _MAX_551] for i in range(0, len(value), _MAX_551)]
        for i in range(1, len(chunks)):  # CONC must not split next to a space (5.5.1)
            while (chunks[i - 1].endswith((" ", "@")) or chunks[i].startswith(" ")) \
                    and len(chunks[i - 1]) > 1:
                chunks[i] = chunks[i - 1][-1] + chunks[i]
                chunks[i - 1] = chunks[i - 1][:-1]
        self.lines.append(f"{head} {chunks[0]}")
        for chunk in chunks[1:]:
            self.lines.append(f"{level + 1} CONC {chunk}")
