"""Free-text and GEDCOM dates to `GenDate` ranges, with no guessing.

A written date bounds a period; it never fixes a day the writer did not give. Years come only
from the text itself or, for relative phrases ("yesterday", "12th inst."), from the document
date the caller supplies. Every regex is precompiled and anchored or bounded so that parsing
stays in the tens of microseconds and cannot backtrack catastrophically.
"""

from __future__ import annotations

import calendar
import re
from datetime import date, timedelta

from sleuth.model.dates import DateQualifier, GenDate

MONTHS: dict[str, int] = {}
for _num, _names in enumerate(
    (
        "january jan janv januari janvier",
        "february feb febr februari février fevrier févr fevr",
        "march mar mars",
        "april apr avril avr",
        "may maj mai",
        "june jun juni juin",
        "july jul juli juillet juil",
        "august aug augusti août aout",
        "september sep sept septembre",
        "october oct oktober octobre okt",
        "november nov novembre",
        "december dec décembre decembre",
    ),
    start=1,
):
    for _name in _names.split():
        MONTHS[_name] = _num

MONTH_RE = "|".join(sorted(MONTHS, key=len, reverse=True))
_ORD = r"(?:st|nd|rd|th|er|d)?"
_YEAR = r"(?P<y>\d{3,4})(?:/(?P<y2>\d{1,4}))?"

_DMY = re.compile(
    rf"(?P<d>\d{{1,2}}){_ORD}(?:\s+of)?[\s.,-]*(?P<m>{MONTH_RE})\.?,?[\s-]*{_YEAR}", re.I
)
_MDY = re.compile(rf"(?P<m>{MONTH_RE})\.?\s*(?P<d>\d{{1,2}}){_ORD}(?:\s*,\s*|\s+){_YEAR}", re.I)
_MY = re.compile(rf"(?P<m>{MONTH_RE})\.?,?\s*{_YEAR}", re.I)
_Y = re.compile(_YEAR)
_ISO = re.compile(r"(?P<y>\d{4})-(?P<m>\d{1,2})(?:-(?P<d>\d{1,2}))?")
_MD = re.compile(rf"(?P<m>{MONTH_RE})\.?\s*(?P<d>\d{{1,2}}){_ORD}", re.I)
_DM = re.compile(rf"(?P<d>\d{{1,2}}){_ORD}(?:\s+of)?\s+(?P<m>{MONTH_RE})\.?", re.I)

_QUAL = re.compile(
    r"(?P<q>abt|about|around|circa|ca|c|approx|approximately|est|estimated|cal|calculated"
    r"|bef|before|aft|after|bet|btw|between|from|to|int)\.?\s+(?P<rest>.+)",
    re.I,
)
_QUALIFIERS = {
    "abt": DateQualifier.ABOUT, "about": DateQualifier.ABOUT, "around": DateQualifier.ABOUT,
    "circa": DateQualifier.ABOUT, "ca": DateQualifier.ABOUT, "c": DateQualifier.ABOUT,
    "approx": DateQualifier.ABOUT, "approximately": DateQualifier.ABOUT,
    "est": DateQualifier.ESTIMATED, "estimated": DateQualifier.ESTIMATED,
    "cal": DateQualifier.CALCULATED, "calculated": DateQualifier.CALCULATED,
    "bef": DateQualifier.BEFORE, "before": DateQualifier.BEFORE,
    "aft": DateQualifier.AFTER, "after": DateQualifier.AFTER,
    "int": DateQualifier.EXACT,
}
_AND = re.compile(r"\s+(?:and|&|-|to)\s+", re.I)
_TO = re.compile(r"\s+to\s+", re.I)
_GEDCOM_CAL = re.compile(r"@#D(?P<cal>[A-Z ]+)@\s*", re.I)
_PHRASE_TAIL = re.compile(r"\s*\([^()]{0,200}\)\s*$")
_SPACES = re.compile(r"\s+")

WEEKDAYS = {
    "monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3, "friday": 4, "saturday": 5,
    "sunday": 6,
}
_WD = "|".join(WEEKDAYS)
_RELATIVE = re.compile(
    rf"(?P<yest>yesterday)|(?P<today>to-?day)|(?P<lastnight>last\s+night|last\s+evening)"
    rf"|(?P<lastweek>last\s+week)"
    rf"|(?:(?:last|on)\s+)?(?P<wd>{_WD})(?:\s+(?:last|morning|afternoon|evening|night))?"
    rf"|(?P<inst>\d{{1,2}}){_ORD}\s+(?P<rel>inst|ult|prox)\.?",
    re.I,
)

# Used by the prose scanner to locate date phrases; each hit is then parsed by `parse_date`.
_PROSE_YEAR = r"(?:1[5-9][0-9]{2}|20[0-2][0-9])(?:/\d{1,2})?"
DATE_FIND = re.compile(
    rf"(?<![\w/])(?:(?:about|abt\.?|circa|c\.|ca\.|before|bef\.?|after|aft\.?)\s+)?"
    rf"(?:\d{{1,2}}{_ORD}(?:\s+of)?[ \t,.]*\s?(?:{MONTH_RE})\.?,?\s+{_PROSE_YEAR}"
    rf"|(?:{MONTH_RE})\.?\s{{0,2}}\d{{1,2}}{_ORD}\s?,?\s{{1,2}}{_PROSE_YEAR}"
    rf"|(?:{MONTH_RE})\.?,?\s{{1,2}}{_PROSE_YEAR}"
    rf"|{_PROSE_YEAR})(?![\w/])",
    re.I,
)
# Dates without a year: usable only against a document date.
PARTIAL_FIND = re.compile(
    rf"(?<![\w/])(?:(?:{MONTH_RE})\.?\s{{0,2}}\d{{1,2}}{_ORD}(?!\s*,?\s*\d)"
    rf"|\d{{1,2}}{_ORD}\s+(?:inst|ult|prox)\.?"
    rf"|yesterday|last\s+(?:night|evening|week)"
    rf"|(?:last|on)\s+(?:{_WD})|(?:{_WD})\s+last)(?![\w])",
    re.I,
)


def _year(m: re.Match[str]) -> tuple[int, int | None] | None:
    y = int(m.group("y"))
    y2s = m.group("y2")
    if y < 1 or y > 2200:
        return None
    if not y2s:
        return y, None
    # Dual dating (Old Style/New Style): "1731/32" and "1700/1" both name the following year.
    width = len(y2s)
    y2 = int(str(y)[: max(0, len(str(y)) - width)] + y2s) if width < len(str(y)) else int(y2s)
    if y2 != y + 1:
        return None
    return y, y2


def _simple(s: str, qualifier: DateQualifier, original: str) -> GenDate | None:
    """Parse one unqualified date (day, month or year precision)."""
    for rx in (_DMY, _MDY):
        m = rx.fullmatch(s)
        if m:
            yy = _year(m)
            if yy is None:
                return None
            month, day = MONTHS[m.group("m").lower()], int(m.group("d"))
            return _build(yy, month, day, qualifier, original)
    m = _MY.fullmatch(s)
    if m:
        yy = _year(m)
        return None if yy is None else _build(yy, MONTHS[m.group("m").lower()], None,
                                               qualifier, original)
    m = _Y.fullmatch(s)
    if m:
        yy = _year(m)
        return None if yy is None else _build(yy, None, None, qualifier, original)
    m = _ISO.fullmatch(s)
    if m:
        d = m.group("d")
        return _build((int(m.group("y")), None), int(m.group("m")), int(d) if d else None,
                      qualifier, original)
    return None


def _build(
    yy: tuple[int, int | None], month: int | None, day: int | None,
    qualifier: DateQualifier, original: str,
) -> GenDate | None:
    year, dual = yy
    if month is not None and not 1 <= month <= 12:
        return None
    if day is not None and (month is None or not 1 <= day <= calendar.monthrange(year, month)[1]):
        return None
    try:
        g = GenDate.from_parts(year, month, day, qualifier=qualifier, original=original)
        if dual is not None:
            hi = GenDate.from_parts(dual, month, day)
            g = GenDate(earliest=g.earliest, latest=hi.latest, qualifier=qualifier,
                        precision=g.precision, original=original)
    except ValueError:
        return None
    return g


def _partial(s: str, reference: GenDate | None, original: str) -> GenDate | None:
    """Dates with no year of their own ("Jan. 3", "yesterday", "12th inst.")."""
    if reference is None or reference.earliest is None:
        return None
    ref = reference.earliest
    exact = reference.precision == "day" or reference.is_point
    for rx in (_MD, _DM):
        m = rx.fullmatch(s)
        if m:
            month, day = MONTHS[m.group("m").lower()], int(m.group("d"))
            year = ref.year
            # A month-day later than the document date in a dated paper means last year.
            if exact and (month, day) > (ref.month, ref.day) and month - ref.month > 6:
                year -= 1
            g = _build((year, None), month, day, DateQualifier.EXACT, original)
            return g
    m = _RELATIVE.fullmatch(s)
    if m is None or not exact:
        return None
    if m.group("yest") or m.group("lastnight"):
        return _point(ref - timedelta(days=1), original)
    if m.group("today"):
        return _point(ref, original)
    if m.group("lastweek"):
        lo, hi = ref - timedelta(days=13), ref - timedelta(days=1)
        return GenDate(earliest=lo, latest=hi, qualifier=DateQualifier.BETWEEN, original=original)
    if m.group("wd"):
        back = (ref.weekday() - WEEKDAYS[m.group("wd").lower()]) % 7 or 7
        return _point(ref - timedelta(days=back), original)
    day = int(m.group("inst"))
    rel = m.group("rel").lower()
    year, month = ref.year, ref.month
    if rel == "ult":
        year, month = (year - 1, 12) if month == 1 else (year, month - 1)
    elif rel == "prox":
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return _build((year, None), month, day, DateQualifier.EXACT, original)


def _point(d: date, original: str) -> GenDate:
    return GenDate(earliest=d, latest=d, precision="day", original=original)


def parse_date(text: str, *, reference: GenDate | None = None) -> GenDate | None:
    """Parse a free-text or GEDCOM date into a range; None when it is not a (valid) date.

    Qualified dates keep the written period as their range and carry the qualifier, so the
    ISO form always names the year that was written; BEF/AFT are open-ended with the written
    period as the inclusive boundary. Year-less phrases resolve only against `reference`.
    """
    if not isinstance(text, str) or not text or len(text) > 120:
        return None
    original = text.strip()
    s = _SPACES.sub(" ", original).strip(" .,;:")
    cal = _GEDCOM_CAL.match(s)
    calendar_name = "gregorian"
    if cal:
        calendar_name = cal.group("cal").strip().lower()
        s = s[cal.end():]
        if calendar_name not in ("gregorian", "julian"):
            return None
    if s.endswith(")"):
        s = _PHRASE_TAIL.sub("", s)
    if not s or s.startswith("("):
        return None
    g = _qualified(s, original)
    if g is None:
        g = _partial(s, reference, original)
    if g is not None and calendar_name != "gregorian":
        g = g.model_copy(update={"calendar": calendar_name})
    return g


def _qualified(s: str, original: str) -> GenDate | None:
    m = _QUAL.fullmatch(s)
    if m is None:
        return _simple(s, DateQualifier.EXACT, original)
    q, rest = m.group("q").lower(), m.group("rest")
    if q in ("bet", "btw", "between", "from"):
        parts = (_TO if q == "from" else _AND).split(rest, maxsplit=1)
        if len(parts) == 1:
            if q != "from":
                return None
            lo = _simple(rest, DateQualifier.PERIOD, original)
            return None if lo is None else GenDate(
                earliest=lo.earliest, qualifier=DateQualifier.PERIOD, precision=lo.precision,
                original=original)
        lo = _simple(parts[0], DateQualifier.EXACT, original)
        hi = _simple(parts[1], DateQualifier.EXACT, original)
        if lo is None or hi is None or lo.earliest is None or hi.latest is None:
            return None
        if lo.earliest > hi.latest:
            return None
        qual = DateQualifier.PERIOD if q == "from" else DateQualifier.BETWEEN
        return GenDate(earliest=lo.earliest, latest=hi.latest, qualifier=qual,
                       precision=lo.precision if lo.precision == hi.precision else "year",
                       original=original)
    if q == "to":
        hi = _simple(rest, DateQualifier.PERIOD, original)
        return None if hi is None else GenDate(
            latest=hi.latest, qualifier=DateQualifier.PERIOD, precision=hi.precision,
            original=original)
    qual = _QUALIFIERS[q]
    g = _simple(rest, qual, original)
    if g is None:
        return None
    if qual is DateQualifier.BEFORE:
        return GenDate(latest=g.earliest, qualifier=qual, precision=g.precision,
                       original=original)
    if qual is DateQualifier.AFTER:
        return GenDate(earliest=g.latest, qualifier=qual, precision=g.precision,
                       original=original)
    return g
