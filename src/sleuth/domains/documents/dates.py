"""Dates as Swedish and English official prose writes them, found with their span.

"den 11 april 1969", "i mars 1970" (the whole month), "hösten 1969" (the season),
"Stockholm ijuni 1972" (OCR glued the preposition), "den ljanuari 1993" (OCR read 1 as l),
"27 April 2016", "August 3, 2020", "Thursday, August 6, 2020", "1988-03-21" (a minute's
ISO date). A vague date is a range (`GenDate` earliest..latest), never a guessed day. A bare
year ("tillsattes 1979", a cover's "Stockholm 2014") is found only when asked for
(`years=True`, `DateHit.year_only`): the timeline reads one only where a trigger says what
it is the year of. `sleuth.extract.dates` is English-centred
and reads one date phrase; this module scans a page for every phrase, in both languages.
"""

from __future__ import annotations

import bisect
import calendar
import re
from dataclasses import dataclass
from datetime import date

from sleuth.model import DateQualifier, GenDate

SV_MONTHS = ("januari", "februari", "mars", "april", "maj", "juni", "juli", "augusti",
             "september", "oktober", "november", "december")
EN_MONTHS = tuple(m.lower() for m in calendar.month_name[1:])
_MONTH = {m: i for i, m in enumerate(SV_MONTHS, 1)} | {m: i for i, m in enumerate(EN_MONTHS, 1)}
# Seasons as month ranges (Swedish and English); winter is read as its first two months.
SEASONS = {"våren": (3, 5), "sommaren": (6, 8), "hösten": (9, 11), "vintern": (1, 2),
           "spring": (3, 5), "summer": (6, 8), "autumn": (9, 11), "fall": (9, 11),
           "winter": (1, 2), "början": (1, 4), "slutet": (9, 12), "early": (1, 4),
           "late": (9, 12)}

_SV = "|".join(SV_MONTHS)
_EN = "|".join(m.capitalize() for m in EN_MONTHS)
_DAY = r"(?P<day>[0-3]?[0-9lI])(?::e)?"
_YEAR = r"(?P<year>1[6-9]\d\d|20\d\d)"
_WS = r"[ \t]*\n?[ \t]*"  # a line may break anywhere inside a date
_PATTERNS = (
    # den 11 april 1969, 30juni 1993, 27 April 2016 (day month year, either language)
    re.compile(rf"(?<![\w/.]){_DAY}{_WS}(?P<month>{_SV}|{_EN}),?{_WS}{_YEAR}(?!\d)",
               re.IGNORECASE),
    # August 3, 2020
    re.compile(rf"\b(?P<month>{_EN}){_WS}(?P<day>[0-3]?\d),{_WS}{_YEAR}(?!\d)"),
    # hösten 1969, i början av 1970, in the spring of 2016
    re.compile(rf"\b(?P<season>våren|sommaren|hösten|vintern|början av|slutet av|spring of|"
               rf"summer of|autumn of|fall of|winter of|early|late){_WS}{_YEAR}(?!\d)",
               re.IGNORECASE),
    # i mars 1970, Stockholm ijuni 1972, in March 2016
    re.compile(rf"(?:\b(?:i|in|I|In)[ \t]?)(?P<month>{_SV}|{_EN}){_WS}{_YEAR}(?!\d)"),
    # 1988-03-21 (ISO, as minutes and printers' lines write it)
    re.compile(rf"(?<![\w/.:-]){_YEAR}-(?P<mnum>0[1-9]|1[0-2])-(?P<day>0[1-9]|[12]\d|3[01])"
               rf"(?![\w/:-]|[.,]\d)"),
)
# A bare year: not a number's part, a law's number ("1998:204"), a span ("2014-2016") or a
# decimal; optionally after "år".
_BARE_YEAR = re.compile(r"(?<![\w/.:,\-–])(?:år[ \t]+)?(?P<year>1[6-9]\d\d|20\d\d)"
                        r"(?![\w/:\-–]|[.,]\d)")


@dataclass(frozen=True)
class DateHit:
    """A date phrase at text[start:end] and the range it denotes."""

    start: int
    end: int
    date: GenDate
    year_only: bool = False

    @property
    def phrase(self) -> str:
        return self.date.original


def _day_number(raw: str) -> int | None:
    digits = raw.replace("l", "1").replace("I", "1")
    return int(digits) if digits.isdigit() else None


def _build(m: re.Match[str]) -> GenDate | None:
    groups = m.groupdict()
    year = int(groups["year"])
    original = " ".join(m.group(0).split())
    season = groups.get("season")
    if season:
        first, last = SEASONS[season.split()[0].lower()]
        return GenDate(earliest=date(year, first, 1),
                       latest=date(year, last, calendar.monthrange(year, last)[1]),
                       qualifier=DateQualifier.BETWEEN, original=original)
    month = (int(groups["mnum"]) if groups.get("mnum")
             else _MONTH[groups["month"].lower()])
    day = _day_number(groups["day"]) if groups.get("day") else None
    if day is None:
        return GenDate.from_parts(year, month, original=original)
    try:
        return GenDate.from_parts(year, month, day, original=original)
    except ValueError:  # 31 juni: not a date
        return None


def _letter_day(text: str, m: re.Match[str]) -> bool:
    """A day the OCR printed as a letter ("den ljanuari 1993") is read only after "den" or
    glued to its month: "I september 1979" opening a sentence is the month ("In …")."""
    day = m.groupdict().get("day")
    if not day or not day.isalpha():
        return False
    glued = not text[m.end("day"):m.start("month")].strip(":e")
    return not glued and not re.search(r"\bden\s*$", text[max(0, m.start() - 6):m.start()])


class _Spans:
    """Non-overlapping spans kept sorted: does a new one overlap any (a binary search)?"""

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.ends: list[int] = []

    def overlaps(self, start: int, end: int) -> bool:
        i = bisect.bisect_left(self.starts, end)  # spans that begin before `end`
        return i > 0 and self.ends[i - 1] > start

    def add(self, start: int, end: int) -> None:
        i = bisect.bisect_left(self.starts, start)
        self.starts.insert(i, start)
        self.ends.insert(i, end)


def find_dates(text: str, start: int = 0, end: int | None = None, *,
               years: bool = False) -> list[DateHit]:
    """Every date phrase in text[start:end], in order, none overlapping (the longest wins);
    with `years`, also every bare year outside them (`year_only`)."""
    stop = len(text) if end is None else end
    hits: list[DateHit] = []
    taken = _Spans()
    for pattern in _PATTERNS:
        for m in pattern.finditer(text, start, stop):
            if taken.overlaps(m.start(), m.end()) or _letter_day(text, m):
                continue
            built = _build(m)
            if built is not None:
                hits.append(DateHit(m.start(), m.end(), built))
                taken.add(m.start(), m.end())
    if years:
        for m in _BARE_YEAR.finditer(text, start, stop):
            if taken.overlaps(m.start(), m.end()):
                continue
            year = int(m.group("year"))
            hits.append(DateHit(m.start(), m.end(), GenDate.from_parts(
                year, original=" ".join(m.group(0).split())), year_only=True))
    return sorted(hits, key=lambda h: h.start)
