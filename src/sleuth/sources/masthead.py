"""A newspaper page's own date, read from its masthead when nothing else gives it.

A page from Chronicling America comes with its issue date (its issue record, or its bulk file
name); a page saved under any other name has only its text. Its masthead prints the date
with the weekday ("BARRE, VERMONT, MONDAY, JANUARY 3, 1916."), and the weekday is the check
that makes the reading safe: OCR misreads digits ("APRIL 21" for 24), and a misread date
rarely falls on the printed weekday. The date is also refused when the text names a later
year anywhere (a misread year, or not a masthead at all: an obituary that opens with a
birth date) or names its year nowhere else, because the privacy rules read a document's
date as the latest day everyone it names existed by, and a date too early would unlock a
living person's data.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

HEAD = 800  # characters of a page's top searched for its masthead
HEAD_LINES = 25  # ... and lines (the Mexico, Mo. Ledger prints its date on line 21)
LOOK_BACK = 80  # characters before a dated phrase that may put it in someone's life
_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august",
           "september", "october", "november", "december")
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_MASTHEAD = re.compile(
    r"\b(?P<wd>" + "|".join(_WEEKDAYS) + r")[ \t]*[,.]?[ \t]*"
    r"(?P<month>" + "|".join(_MONTHS) + r")[ \t]+(?P<day>\d{1,2})[ \t]*[,.]?[ \t]*"
    r"(?P<year>1[6-9]\d\d|20\d\d)\b",
    re.IGNORECASE,
)
# the words that put a dated phrase in someone's life, not on the page's masthead
_LIFE = re.compile(r"\b(?:born|birth|died|death|married|buried|since|until)\b|\b(?:on|of)\W*$",
                   re.IGNORECASE)
_YEAR = re.compile(r"(?<!\d)(1[6-9]\d\d|20\d\d)(?!\d)")


@dataclass(frozen=True)
class Masthead:
    day: date
    start: int  # the dated phrase's span in the text, as its citation
    end: int

    def excerpt(self, text: str) -> str:
        return text[self.start:self.end]


def masthead_date(text: str, today: date | None = None) -> Masthead | None:
    """The first weekday-checked date in the page's top lines, unless it reads as part of
    someone's life ("died ... Thursday, October 12"), the text names a later year, or its
    year is printed nowhere else on the page: OCR reads "1916" as "1910" and both years
    put 20 January on a Thursday, so a masthead's year needs a second witness."""
    now = today or date.today()
    top = text[:HEAD]
    top = "\n".join(top.split("\n")[:HEAD_LINES])
    for m in _MASTHEAD.finditer(top):
        try:
            day = date(int(m["year"]), _MONTHS.index(m["month"].lower()) + 1, int(m["day"]))
        except ValueError:
            continue
        if day > now or day.weekday() != _WEEKDAYS.index(m["wd"].lower()):
            continue
        if _LIFE.search(text, max(0, m.start() - LOOK_BACK), m.start()):
            continue
        years = [int(y) for y in _YEAR.findall(text)]
        if any(day.year < y <= now.year for y in years):
            return None  # a later year: a misread masthead, or no masthead at all
        if years.count(day.year) < 2:
            return None
        return Masthead(day, m.start(), m.end())
    return None
