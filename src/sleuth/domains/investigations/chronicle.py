"""The day a newspaper sentence says its event happened, as far as the page fixes it.

A report is dated by its paper. A sentence may state its own day: a date ("NEW ORLEANS,
Oct. 18", "on November 7") or a word relative to the paper's day ("yesterday", "to-day",
"to night"). A stated date is read in the paper's year. A relative word is read against
the paper's day only in a daily (its title says so): a weekly reprints the wire's "to
night" days later, and a paper whose frequency is unknown fixes no day either; the line is
then the paper's day, "reported on", with the word shown. Two days in one sentence fix
none of them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

_MONTHS = {m: i + 1 for i, m in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul",
                                           "aug", "sep", "oct", "nov", "dec"))}
# a month by its name or its abbreviation, nothing else ("The Junior 12" is no 12 June)
_STATED = re.compile(r"\b(Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|"
                     r"Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|"
                     r"Dec(?:ember)?)\b\.?\s+(\d{1,2})\b(?:,?\s+(1[89]\d\d)\b)?(?![,.]?\d)")
_RELATIVE = (
    (re.compile(r"\byesterday\b|\blast\s+(?:night|evening)\b", re.I), -1),
    (re.compile(r"\bto-?\s?day\b|\bto-?\s?night\b|\bthis\s+(?:morning|afternoon|evening)\b",
                re.I), 0),
)


@dataclass(frozen=True)
class Dated:
    """A sentence's day: `day` the event's when fixed, else the paper's (`fixed` False);
    `phrase` the words that state it ("Oct. 18", "yesterday"), or ""."""

    day: date
    fixed: bool
    phrase: str


def daily(title: str) -> bool | None:
    """Whether a paper is a daily, as its title says ("The Barre daily times"); None when
    the title does not say."""
    low = title.lower()
    return True if "daily" in low else False if "weekly" in low else None


def event_day(sentence: str, paper: date, is_daily: bool | None) -> Dated:
    """The day `sentence`, printed in a paper of `paper`, says its event happened."""
    found: dict[date, str] = {}
    for m in _STATED.finditer(sentence):
        year = int(m.group(3)) if m.group(3) else paper.year
        try:
            day = date(year, _MONTHS[m.group(1)[:3].lower()], int(m.group(2)))
        except ValueError:
            continue
        if not m.group(3) and day > paper + timedelta(days=90):
            day = day.replace(year=year - 1)  # "Dec. 28" in a paper of January
        found.setdefault(day, " ".join(m.group(0).split()))
    relative = [(" ".join(m.group(0).split()), shift) for rx, shift in _RELATIVE
                for m in rx.finditer(sentence)]
    if relative and is_daily:
        for phrase, shift in relative:
            found.setdefault(paper + timedelta(days=shift), phrase)
    if len(found) == 1:
        day, phrase = next(iter(found.items()))
        return Dated(day, True, phrase)
    phrase = "; ".join(dict.fromkeys(p for p, _ in relative)) if not found else ""
    return Dated(paper, False, phrase)
