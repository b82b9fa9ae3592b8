"""A living person's exact dates however a text writes them, for the Censor and the scanner.

`exact_date_pattern(day)` is the reference: the usual spellings of one calendar day
("1990-05-12", "May 12, 1990", "12 May 1990", "12th of May 1990", "05/12/1990", "12.05.90"...).
A case has thousands of living persons, so neither the Censor nor the scanner runs one
pattern per day: every date-like span is parsed once and looked up (`DateSecrets` for the
Censor's days and months, `DayIndex` for the scanner's birth days), and only near the years
being looked for. What "near" means is exact for the Censor (`date_windows`): its results
are those of reading the whole text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container, Iterable, Iterator
from datetime import date

from sleuth.privacy.pii import _trie_pattern, finditer_near

_MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)


def _month_names(month: int) -> str:
    full = _MONTHS[month - 1]
    names = {full, full[:3]}
    if month == 9:
        names.add("sept")
    return "|".join(sorted(names, key=len, reverse=True))


def exact_date_pattern(day: date) -> re.Pattern[str]:
    """A regex matching the usual ways of writing one calendar day (case-insensitive).

    Covers ISO (1990-05-12, 1990/5/12), month-first ("May 12, 1990", "May 12th 1990"),
    day-first ("12 May 1990", "12th of May, 1990", GEDCOM "12 MAY 1990"), and numeric
    day/month/year in either order with -, / or . and a 2- or 4-digit year.
    """
    y, m, d = f"{day.year:04d}", day.month, day.day
    yy = f"{day.year % 100:02d}"
    mn = f"(?:{_month_names(m)})\\.?"
    dn = f"0?{d}(?:st|nd|rd|th)?"
    m2, d2 = f"0?{m}", f"0?{d}"
    sep = r"[\s,.\-/]{1,3}"
    alternatives = [
        rf"(?<!\d){y}[-/.]{m2}[-/.]{d2}(?!\d)",
        rf"\b{mn}{sep}{dn}{sep}{y}(?!\d)",
        rf"(?<!\d){dn}{sep}(?:of\s+)?{mn}{sep}{y}(?!\d)",
        rf"(?<!\d){d2}[-/.]{m2}[-/.](?:{y}|{yy})(?!\d)",
        rf"(?<!\d){m2}[-/.]{d2}[-/.](?:{y}|{yy})(?!\d)",
    ]
    return re.compile("|".join(alternatives), re.IGNORECASE)


def month_pattern(year: int, month: int) -> re.Pattern[str]:
    """A regex for "May 1990", "May, 1990" and "1990-05" (a month-precision date)."""
    mn = f"(?:{_month_names(month)})\\.?"
    return re.compile(
        rf"\b{mn}[\s,]{{1,3}}{year:04d}(?!\d)|(?<!\d){year:04d}-{month:02d}(?!\d)",
        re.IGNORECASE,
    )


_MONTH_ALT = "|".join(
    sorted({n for m in range(1, 13) for n in _month_names(m).split("|")}, key=len, reverse=True)
)
_MONTH_NO = {n: m for m in range(1, 13) for n in _month_names(m).split("|")}


def _month_no(name: str) -> int:
    """The month a name the date pattern matched stands for. The pattern ignores case as
    Unicode does: an OCR'd long s ("ſeptember") and a Turkish dotted or dotless i ("Aprİl")
    are its letters too, which `lower()` keeps apart."""
    return _MONTH_NO[name.casefold().replace("\u0131", "i").replace("i\u0307", "i")]
_SEP = r"[\s,.\-/]{1,3}"
_ANY_DATE = re.compile(
    r"(?<!\d)(?P<iy>\d{4})[-/.](?P<im>\d{1,2})[-/.](?P<id>\d{1,2})(?!\d)"
    rf"|\b(?P<mm>{_MONTH_ALT})\.?{_SEP}(?P<md>\d{{1,2}})(?:st|nd|rd|th)?{_SEP}(?P<my>\d{{4}})(?!\d)"
    rf"|(?<!\d)(?P<dd>\d{{1,2}})(?:st|nd|rd|th)?{_SEP}(?:of\s+)?(?P<dm>{_MONTH_ALT})\.?{_SEP}"
    r"(?P<dy>\d{4})(?!\d)"
    r"|(?<!\d)(?P<na>\d{1,2})[-/.](?P<nb>\d{1,2})[-/.](?P<ny>\d{4}|\d{2})(?!\d)"
    rf"|\b(?P<pm>{_MONTH_ALT})\.?[\s,]{{1,3}}(?P<py>\d{{4}})(?!\d)"
    r"|(?<!\d)(?P<qy>\d{4})-(?P<qm>\d{2})(?!\d)",
    re.IGNORECASE,
)


# The day-precise forms of `_ANY_DATE` (what `exact_date_pattern` matches), for `DayIndex`.
_ANY_DAY = re.compile(_ANY_DATE.pattern.split("|\\b(?P<pm>")[0], re.IGNORECASE)


class DayIndex:
    """Many exact days, each with its owners, found in one pass over a text: the matches of
    `exact_date_pattern(day)` for every day at once. A loop of one regex per living person
    over every output made `sleuth privacy report` quadratic in the case (issue 19)."""

    def __init__(self, days: Iterable[date]) -> None:
        self.order: list[date] = list(days)
        self._full: dict[tuple[int, int, int], list[int]] = {}
        self._short: dict[tuple[int, int, int], list[int]] = {}
        for i, d in enumerate(self.order):
            self._full.setdefault((d.year, d.month, d.day), []).append(i)
            self._short.setdefault((d.year % 100, d.month, d.day), []).append(i)
        # Every spelling holds its 4-digit year, or is numeric with a 2-digit year. The
        # years' trie starts with a literal digit: the engine skips to candidates at C speed.
        years = sorted({f"{d.year:04d}" for d in self.order})
        self._years = re.compile(_trie_pattern(years)) if years else None

    def __bool__(self) -> bool:
        return bool(self.order)

    def _owners(self, m: re.Match[str]) -> set[int]:
        g = m.groupdict()
        if g["iy"]:
            return set(self._full.get((int(g["iy"]), int(g["im"]), int(g["id"])), ()))
        if g["mm"] or g["dm"]:
            month = _month_no(g["mm"] or g["dm"])
            return set(self._full.get((int(g["my"] or g["dy"]), month,
                                       int(g["md"] or g["dd"])), ()))
        a, b, y = int(g["na"]), int(g["nb"]), g["ny"]
        pool = self._full if len(y) == 4 else self._short
        return set(pool.get((int(y), b, a), ())) | set(pool.get((int(y), a, b), ()))

    def spans(self, text: str) -> list[list[tuple[int, int]]]:
        """For each day (in the order given), the spans of `text` that write it."""
        out: list[list[tuple[int, int]]] = [[] for _ in self.order]
        if not self.order:
            return out
        for m in finditer_near(_ANY_DAY, text, self._windows(text)):
            for i in self._owners(m):
                out[i].append(m.span())
        return out

    def _windows(self, text: str) -> list[tuple[int, int]]:
        """Disjoint stretches of `text`, in order, holding every written day of these days
        (`date_windows`): around each of their years standing alone (no digit either side,
        as every spelling has it) and each numeric date with a 2-digit year that can be one
        of them. An ISO date of another day ("1850-05-12" holds "50-05-12") opens none:
        outputs hold thousands, and their windows covered most of a text (issue 19)."""
        return date_windows(text, year_hits(self._years, self._short, text))


def _alone(text: str, a: int, b: int) -> bool:
    """No decimal digit (`\\d`) just before `a` or at `b`."""
    return (a == 0 or not text[a - 1].isdecimal()) and (b == len(text) or not text[b].isdecimal())


def year_hits(years: re.Pattern[str] | None, short: Container[tuple[int, int, int]],
              text: str) -> list[tuple[int, int]]:
    """Where `text` may write one of some days or months, in order: each of their years
    (`years`, a trie that starts with a digit, so the engine skips to candidates at C
    speed) standing alone (no digit either side, as every spelling has it), and each
    numeric date with a 2-digit year that can be one of the days in `short` (year % 100,
    month, day). Every written day or month of them overlaps one of these."""
    if years is None:
        return []
    hits = [(a, b) for a, b in map(re.Match.span, years.finditer(text)) if _alone(text, a, b)]
    if short:
        hits += [m.span() for m in _SHORT_YEAR.finditer(text) if _may_own(short, text, m)]
        hits.sort()
    return hits


def _may_own(short: Container[tuple[int, int, int]], text: str, hit: re.Match[str]) -> bool:
    """Whether a numeric date with a 2-digit year writing one of the days in `short` starts
    near a `_SHORT_YEAR` hit: each one's separators and last numbers are a hit, or overlap
    the hit before, so it starts in 2 characters before a hit to its end (and ends 8
    after). Its start fixes its numbers, so each start is tried once."""
    a, b = hit.span()
    for m in _SHORT_AT.finditer(text, max(0, a - 2), b + 9):
        if m.start() >= b:
            break
        x, y, yy = int(m[1]), int(m[2]), int(m[3])
        if (yy, y, x) in short or (yy, x, y) in short:
            return True
    return False


# The part of a numeric date with a 2-digit year after its first number ("-12-50" of
# "5-12-50", the first number standing alone): led by a separator, not a digit, so that the
# engine tries only separators (a digit leads a tenth of a JSON output), and no ISO date
# ("1850-05-12" holds "-05-12") is one.
_SHORT_YEAR = re.compile(
    r"[-/.](?:(?<=(?<!\d)\d[-/.])|(?<=(?<!\d)\d\d[-/.]))\d\d?[-/.]\d\d(?!\d)")
# A numeric day with a 2-digit year as `_ANY_DATE` reads one (groups: the two numbers and
# the year), at every position where one starts, overlaps included.
_SHORT_AT = re.compile(r"(?<!\d)(?=(\d\d?)[-/.](\d\d?)[-/.](\d\d)(?!\d))")


class DateSecrets:
    """Many exact days and months found in one pass: every date-like span in a text is
    parsed and looked up, instead of one regex per secret (linear in the text, whatever the
    number of living persons). Matches what `exact_date_pattern` / `month_pattern` match."""

    def __init__(self, days: set[date], months: set[tuple[int, int]]) -> None:
        self.days = {(d.year, d.month, d.day) for d in days}
        self.short = {(d.year % 100, d.month, d.day) for d in days}
        self.months = set(months)
        # a secret is written with one of its years standing alone, or as a numeric date
        # with a 2-digit year (`year_hits`); most texts hold none and skip the date parser
        years = sorted({f"{y:04d}" for y, _, _ in self.days} | {f"{y:04d}" for y, _ in months})
        self._years = re.compile(_trie_pattern(years)) if years else None

    def __bool__(self) -> bool:
        return bool(self.days or self.months)

    def _secret(self, m: re.Match[str]) -> bool:
        g = m.groupdict()
        if g["iy"]:
            return (int(g["iy"]), int(g["im"]), int(g["id"])) in self.days
        if g["mm"] or g["dm"]:
            y, mo = int(g["my"] or g["dy"]), _month_no(g["mm"] or g["dm"])
            day = int(g["md"] or g["dd"])
            return (y, mo, day) in self.days or (y, mo) in self.months
        if g["na"]:
            a, b, ny = int(g["na"]), int(g["nb"]), g["ny"]
            pool = self.days if len(ny) == 4 else self.short
            return (int(ny), b, a) in pool or (int(ny), a, b) in pool
        if g["pm"]:
            return (int(g["py"]), _month_no(g["pm"])) in self.months
        return (int(g["qy"]), int(g["qm"])) in self.months

    def _found(self, text: str) -> Iterator[re.Match[str]]:
        """The secret dates `_ANY_DATE.finditer(text)` finds, read only in the stretches
        around where one may be written that no date can cross (`year_hits`,
        `date_windows`): the date pattern costs about a microsecond a character, and a
        case's excerpts and stored GEDCOM text are mostly dates of years some living person
        was born in (issue 19)."""
        for a, b in date_windows(text, year_hits(self._years, self.short, text)):
            for m in _ANY_DATE.finditer(text, a, b):
                if self._secret(m):
                    yield m

    def search(self, text: str) -> bool:
        return next(self._found(text), None) is not None

    def sub(self, repl: Callable[[re.Match[str]], str], text: str) -> str:
        """`text` with each secret date replaced by `repl(match)`."""
        out: list[str] = []
        last = 0
        for m in self._found(text):
            out += [text[last:m.start()], repl(m)]
            last = m.end()
        return "".join([*out, text[last:]]) if out else text


# Every letter of a written date is in a month's name, "of" or an ordinal suffix, and each
# of those is a whole run of letters (a month follows a non-word character or a separator
# and is followed by "." or one; "of" sits between separators; a suffix between a digit and
# a separator). A whole run of other letters, or a character that is no word character,
# space or one of ",./-", is in no date: no date spans it, so reading from it is reading in
# step with the whole text. The run is whole by the lookbehind (the text before a
# stretch read is seen) and the greedy letters; a date word is a run that is one.
_IN_NO_DATE = re.compile(
    rf"[^\w\s,./-]|(?<![^\W\d_])(?!(?i:{_MONTH_ALT}|of|st|nd|rd|th)(?![^\W\d_]))[^\W\d_]+")


def date_windows(text: str, hits: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """Stretches of `text`, disjoint and in order, that hold every match of `_ANY_DATE`
    overlapping one of `hits` (in order): each starts and ends where no match can span
    (`_IN_NO_DATE`), so `_ANY_DATE.finditer(text, a, b)` gives the matches of the whole
    text that start in [a, b), no others, and they end by b."""
    out: list[tuple[int, int]] = []
    end = 0
    for a, b in hits:
        if a < end:
            continue
        start = _in_step_before(text, a, end)
        end = _in_step_after(text, b)
        out.append((start, end))
    return out


def _in_step_before(text: str, at: int, floor: int) -> int:
    """The last point no date spans at or before `at` and not before `floor` (itself one)."""
    lo, step = at, 32
    while lo > floor:
        lo = max(floor, at - step)
        ends = [m.end() for m in _IN_NO_DATE.finditer(text, lo, at)]
        if ends:
            return ends[-1]
        step *= 4
    return floor


def _in_step_after(text: str, at: int) -> int:
    """The first point no date spans at or after `at`."""
    m = _IN_NO_DATE.search(text, at)
    return m.start() if m is not None else len(text)
