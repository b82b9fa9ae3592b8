"""Free-text and GEDCOM dates to `GenDate` ranges, with no guessing.

A written date bounds a period; it never fixes a day the writer did not give. Years come only
from the text itself or, for relative phrases ("yesterday", "12th inst.", "Thursday last"),
from the document date the caller supplies. Free text ("Saturday, March 11, 1916", "le 16 mai
1770", "bet. 1840 and 1845") is rewritten word by word into GEDCOM form and then parsed by the
one GEDCOM grammar in `gedcom_date`, so both paths share the same checks: impossible days,
reversed ranges and bad dual years are reported, never repaired. Every regex is precompiled
and bounded; inputs longer than `MAX_LEN` are refused before any matching.
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from functools import lru_cache

from sleuth.extract.gedcom_date import (
    MAX_LEN,
    DateParse,
    Version,
    construct,
    parse_gedcom_date,
)
from sleuth.model.dates import DateQualifier, GenDate, Precision

__all__ = [
    "DATE_FIND", "LEAD_DATE_FIND", "MONTHS", "MONTH_RE", "PARTIAL_FIND", "WEEKDAYS", "DateParse",
    "birth_range_from_age", "parse_date", "parse_date_checked",
]

# English, Swedish and French month names and abbreviations (lower case, accents kept and
# dropped), plus the old numeric forms of parish registers ("7ber" = September). No name
# appears under two months: "mar" is March (Swedish "mars" too), "maj"/"mai" are May.
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
        "september sep sept septembre 7ber 7bre",
        "october oct oktober octobre okt 8ber 8bre",
        "november nov novembre 9ber 9bre",
        "december dec décembre decembre déc 10ber xber xbre",
    ),
    start=1,
):
    for _name in _names.split():
        MONTHS[_name] = _num

MONTH_RE = "|".join(sorted(MONTHS, key=len, reverse=True))
_ORD = r"(?:st|nd|rd|th|er|d)?"
_GED_MONTH = ("", "JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT",
              "NOV", "DEC")

WEEKDAYS = {
    "monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3, "friday": 4, "saturday": 5,
    "sunday": 6,
}
_WD = "|".join(WEEKDAYS)
# Weekday words dropped in front of a full date ("Saturday, March 11, 1916", "lundi 3 mars").
_WEEKDAY_WORDS = {
    *WEEKDAYS, "mon", "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun",
    "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche",
    "måndag", "tisdag", "onsdag", "torsdag", "fredag", "lördag", "söndag",
}

# Used by the prose scanner to locate date phrases; each hit is then parsed by `parse_date`.
_PROSE_YEAR = r"(?:1[5-9][0-9]{2}|20[0-2][0-9])(?:/\d{1,2})?"


def _date_find(year: str) -> re.Pattern[str]:
    return re.compile(
        rf"(?<![\w/])(?:(?:about|abt\.?|circa|c\.|ca\.|before|bef\.?|after|aft\.?)\s+)?"
        rf"(?:\d{{1,2}}{_ORD}(?:,?\s+day)?(?:\s+of)?[ \t,.]*\s?(?:{MONTH_RE})\.?,?\s+{year}"
        # "May 14. 1836", "Feb. 23,1904": OCR's full stop for the comma, or no space
        # ("September, 3, 1916": a comma after the month too)
        rf"|(?:{MONTH_RE})\.?,?\s{{0,2}}\d{{1,2}}{_ORD}(?:\s?[,.]\s{{0,2}}|\s{{1,2}}){year}"
        rf"|(?:{MONTH_RE})\.?\s?,?\s{{1,2}}{year}"  # "september , 1923" (tokenised)
        rf"|{year})(?![\w/])",
        re.I,
    )


DATE_FIND = _date_find(_PROSE_YEAR)
# In an encyclopedia lead's parenthesis ("(1160 – 18 January 1213)") any 3-4 digit number is
# a year, so medieval dates are found there too.
LEAD_DATE_FIND = _date_find(r"[1-9][0-9]{2,3}(?:/\d{1,2})?")
# "the first day of September": a day written as an ordinal word (no year: a partial date)
_ORD_WORDS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
              "ninth", "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth",
              "sixteenth", "seventeenth", "eighteenth", "nineteenth", "twentieth"]
ORDINAL_DAY = {w: i for i, w in enumerate(_ORD_WORDS, start=1)}
ORDINAL_DAY.update({f"twenty{sep}{w}": 20 + i for i, w in enumerate(_ORD_WORDS[:9], start=1)
                    for sep in ("-", " ")})
ORDINAL_DAY.update({"thirtieth": 30, "thirty-first": 31, "thirty first": 31})
_ORD_DAY = "|".join(sorted((w.replace(" ", r"\s") for w in ORDINAL_DAY), key=len, reverse=True))
_WORD_DAY = rf"(?:the\s+)?(?P<wd_day>{_ORD_DAY})\s+day\s+of\s+(?P<wd_month>{MONTH_RE})\.?"
# Holidays a paper dates by: "Christmas day", "Thanksgiving eve", "on New Year's": the day
# word (or "on") is required, so "Christmas presents" names no day.
_HOLIDAY = (r"(?:(?:christmas|xmas|thanksgiving|new\s+year'?s)\s+(?:day|eve|morning|afternoon"
            r"|evening|night)|on\s+(?:christmas|thanksgiving|new\s+year'?s(?:\s+day)?))")
# Dates without a year: usable only against a document date.
PARTIAL_FIND = re.compile(
    rf"(?<![\w/])(?:(?:{MONTH_RE})\.?\s{{0,2}}\d{{1,2}}{_ORD}(?!\s*,?\s*\d)"
    rf"|\d{{1,2}}{_ORD}\s+(?:inst|ult|prox)\.?"
    rf"|(?:on\s+)?(?:{_WD})(?:\s+(?:morning|afternoon|evening|night))?\s+of\s+last\s+week"
    rf"|yesterday|last\s+(?:night|evening|week)"
    # "died this noon", "died this morning" in a daily paper: its own day
    rf"|this\s+(?:morning|afternoon|noon)|to-?day"
    rf"|(?:last-?|on)\s+(?:{_WD})|(?:{_WD})\s+last"
    rf"|{_HOLIDAY}|{_WORD_DAY.replace('?P<wd_day>', '').replace('?P<wd_month>', '')}"
    r"(?![ \t\n]*,?[ \t\n]*\d))(?![\w])",  # ("the first day of May, 1880": not this year's)
    re.I,
)

# -- free text -> GEDCOM words ---------------------------------------------------------------
_WORDS: dict[str, str] = {
    **{k: _GED_MONTH[v] for k, v in MONTHS.items()},
    **dict.fromkeys(("abt", "about", "around", "circa", "ca", "c", "approx",
                     "approximately", "omkring", "vers", "environ"), "ABT"),
    **dict.fromkeys(("est", "estimated"), "EST"),
    **dict.fromkeys(("cal", "calc", "calculated"), "CAL"),
    **dict.fromkeys(("bef", "before", "by", "före", "avant"), "BEF"),
    **dict.fromkeys(("aft", "after", "efter", "après", "apres"), "AFT"),
    **dict.fromkeys(("bet", "btw", "betw", "between", "mellan", "entre"), "BET"),
    **dict.fromkeys(("and", "och", "et"), "AND"),
    **dict.fromkeys(("from", "från"), "FROM"),
    **dict.fromkeys(("to", "till", "until", "til"), "TO"),
    "int": "INT",
    **dict.fromkeys(("bc", "bce", "b.c", "b.c.e"), "BCE"),
    **dict.fromkeys(("gregorian", "julian", "hebrew", "french_r"), ""),  # filled below
}
for _k in ("gregorian", "julian", "hebrew", "french_r"):
    _WORDS[_k] = _k.upper()
_FILLER = {"of", "the", "le", "den", "on", "in", "a.d", "ad", "anno", "day", "year"}
_FT_TOKEN = re.compile(r"b\.\s?c\.(?:\s?e\.)?|[^\W\d]+\.?|\d+(?:/\d+)?[^\W\d_]{0,3}\.?|\S")
_ORDINAL = re.compile(r"(\d{1,2})(?:st|nd|rd|th|d|er|re|e)\.?", re.I)
_ISO = re.compile(r"(\d{4})-(\d{1,2})(?:-(\d{1,2}))?")
_SPACES = re.compile(r"\s+")


def _to_gedcom(s: str) -> str | None:
    """Rewrite free text word by word into GEDCOM date syntax; None at the first unknown word.

    Month-day-year order ("March 11, 1916") is turned into day-month-year; ordinals lose their
    suffix; weekday names, commas and filler words ("of", "the", "le") are dropped.
    """
    out: list[str] = []
    for tok in _FT_TOKEN.findall(s.lower()):
        if tok in ",;&-.":  # "22nd, day of . February": OCR specks
            if tok == "&":
                out.append("AND")
            continue
        if tok[0].isdigit():
            m = _ORDINAL.fullmatch(tok)
            if tok.rstrip(".") in MONTHS:  # "7ber", "10ber"
                out.append(_GED_MONTH[MONTHS[tok.rstrip(".")]])
            elif m:
                out.append(m.group(1))
            elif tok.rstrip(".").replace("/", "").isdigit():
                out.append(tok.rstrip("."))
            else:
                return None
            continue
        w = tok.rstrip(".").replace(" ", "")
        if w in _WORDS:
            out.append(_WORDS[w])
        elif w in _WEEKDAY_WORDS and not out:
            continue
        elif w not in _FILLER:
            return None
    # "MAR 11 1916" -> "11 MAR 1916": a month, a day of 1-2 digits, then a year.
    for i in range(len(out) - 2):
        a, b, c = out[i], out[i + 1], out[i + 2]
        if a in _MONTH_CODES and b.isdigit() and len(b) <= 2 and c[:3].isdigit():
            out[i], out[i + 1] = b, a
    return " ".join(out)


_MONTH_CODES = frozenset(_GED_MONTH[1:])


# -- relative dates (need the document date) -------------------------------------------------
_MD = re.compile(rf"(?P<m>{MONTH_RE})\.?\s*(?P<d>\d{{1,2}}){_ORD}\.?", re.I)
_DM = re.compile(rf"(?:the\s+)?(?P<d>\d{{1,2}}){_ORD}(?:\s+of)?\s+(?P<m>{MONTH_RE})\.?", re.I)
_WDM = re.compile(_WORD_DAY.replace("wd_day", "d").replace("wd_month", "m"), re.I)
_RELATIVE = re.compile(
    rf"(?:on\s+)?(?:the\s+)?(?:"
    rf"(?P<yest>yesterday(?:\s+(?:morning|afternoon|evening))?)"
    rf"|(?P<today>to-?day|to-?night|this\s+(?:morning|afternoon|evening|noon))"
    rf"|(?P<lastnight>last\s+(?:night|evening))"
    rf"|(?P<lastweek>last\s+week)"
    rf"|(?P<wdlw>{_WD})(?:\s+(?:morning|afternoon|evening|night))?\s+of\s+last\s+week"
    rf"|(?:last-?\s?)?(?P<wd>{_WD})(?:\s+(?:last|morning|afternoon|evening|night))?"
    rf"|(?P<inst>\d{{1,2}}){_ORD}\s+(?:of\s+)?(?P<rel>inst|ult|prox|instant|ultimo|proximo)\.?"
    rf"|(?P<hol>christmas|xmas|thanksgiving|new\s+year'?s)(?:\s+(?P<hpart>day|eve|morning"
    rf"|afternoon|evening|night))?"
    rf")",
    re.I,
)


def _partial(s: str, reference: GenDate | None, original: str) -> GenDate | None:
    """Dates with no year of their own ("Jan. 3", "yesterday", "12th inst.")."""
    if reference is None or reference.earliest is None or reference.earliest_bce:
        return None
    ref = reference.earliest
    if not (reference.precision == "day" or reference.is_point):
        return None
    for rx in (_MD, _DM, _WDM):
        m = rx.fullmatch(s)
        if m:
            d = m.group("d")
            month = MONTHS[m.group("m").lower()]
            day = int(d) if d.isdigit() else ORDINAL_DAY[" ".join(d.lower().split())]
            year = ref.year
            # A month-day far later than the document date in a dated paper means last year.
            if (month, day) > (ref.month, ref.day) and month - ref.month > 6:
                year -= 1
            return _day(year, month, day, original)
    m = _RELATIVE.fullmatch(s)
    if m is None:
        return None
    if m.group("yest") or m.group("lastnight"):
        return _point(ref - timedelta(days=1), original)
    if m.group("today"):
        return _point(ref, original)
    if m.group("lastweek"):
        lo, hi = ref - timedelta(days=13), ref - timedelta(days=1)
        return GenDate(earliest=lo, latest=hi, qualifier=DateQualifier.BETWEEN, original=original)
    if m.group("wdlw"):
        # "Wednesday evening of last week": that weekday in the calendar week (Sunday to
        # Saturday, as American papers of the time counted it) before the paper's own week.
        week_start = ref - timedelta(days=(ref.weekday() + 1) % 7)
        wd = WEEKDAYS[m.group("wdlw").lower()]
        return _point(week_start - timedelta(days=7 - (wd + 1) % 7), original)
    if m.group("hol"):
        return _holiday(m.group("hol"), m.group("hpart"), ref, original)
    if m.group("wd"):
        # News convention: a bare weekday names the most recent such day before the paper.
        back = (ref.weekday() - WEEKDAYS[m.group("wd").lower()]) % 7 or 7
        return _point(ref - timedelta(days=back), original)
    day = int(m.group("inst"))
    rel = m.group("rel").lower()[:3]
    year, month = ref.year, ref.month
    if rel == "ult":
        year, month = (year - 1, 12) if month == 1 else (year, month - 1)
    elif rel == "pro":
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return _day(year, month, day, original)


def _holiday_in(name: str, year: int) -> date:
    """The holiday's day in `year`. Thanksgiving is the US national day: the last Thursday
    of November by proclamation until 1938, the fourth Thursday from 1939 (by law from
    1942; 1939-41 are read as the fourth, which most states kept)."""
    if name.startswith("new"):
        return date(year, 1, 1)
    if name.startswith(("christmas", "xmas")):
        return date(year, 12, 25)
    last = date(year, 11, 30)
    last -= timedelta(days=(last.weekday() - 3) % 7)
    return last if year <= 1938 or last.day <= 28 else last - timedelta(days=7)


def _holiday(name: str, part: str | None, ref: date, original: str) -> GenDate:
    """A holiday named in a paper: its occurrence nearest the paper's date (a funeral
    "Christmas day" in a paper of December 22 is still to come; a death "Christmas day" in
    one of January 3 is last year's); "eve" is the day before."""
    key = " ".join(name.lower().split())
    d = min((_holiday_in(key, y) for y in (ref.year - 1, ref.year, ref.year + 1)),
            key=lambda h: abs((h - ref).days))
    if part is not None and part.lower() == "eve":
        d -= timedelta(days=1)
    return _point(d, original)


def _day(year: int, month: int, day: int, original: str) -> GenDate | None:
    try:
        return _point(date(year, month, day), original)
    except ValueError:
        return None


def _point(d: date, original: str) -> GenDate:
    return construct(d, d, DateQualifier.EXACT, "day", "gregorian", original)


# -- entry points ----------------------------------------------------------------------------
def parse_date_checked(
    text: str, *, reference: GenDate | None = None, version: Version = None
) -> DateParse:
    """Parse a date and say why when it is not one.

    `version` "5.5.1" or "7.0" applies that GEDCOM dialect strictly (no free text); None
    accepts GEDCOM of either version, English/Swedish/French free text and, given the
    document date `reference`, relative phrases.
    """
    if not isinstance(text, str):
        return DateParse(None, "not a string", "syntax")
    if len(text) > MAX_LEN:
        return DateParse(None, f"too long for a date ({len(text)} characters)", "syntax")
    original = text.strip()
    if version is not None:
        return parse_gedcom_date(original, version)
    fast = _fast(original, reference)
    if fast is not None:
        return fast
    s = _SPACES.sub(" ", original).strip(" .,;:")
    if not s:
        return DateParse(None, "empty date", "syntax")
    m = _ISO.fullmatch(s)
    if m:
        y, mo, d = m.groups()
        if not 1 <= int(mo) <= 12:
            return DateParse(None, f"month {int(mo)} does not exist", "invalid")
        s = f"{d or ''} {_GED_MONTH[int(mo)]} {y}".strip()
    # Upper-case text is taken as GEDCOM first; anything else is normalised first, falling
    # back to the GEDCOM grammar for what the word table does not know (TSH, @#DHEBREW@).
    g = None if s.upper() == s else _to_gedcom(s)
    r = parse_gedcom_date(g or s, original=original)
    if r.status != "syntax":
        return r
    if g is None:
        g = _to_gedcom(s)
        if g and g != s:
            r2 = parse_gedcom_date(g, original=original)
            if r2.status != "syntax":
                return r2
    else:
        r = parse_gedcom_date(s, original=original)
        if r.status != "syntax":
            return r
    p = _partial(s, reference, original)
    if p is not None:
        return DateParse(p)
    if reference is None and (_RELATIVE.fullmatch(s) or _MD.fullmatch(s) or _DM.fullmatch(s)
                              or _WDM.fullmatch(s)):
        return DateParse(None, "relative date needs the document's own date", "syntax")
    return r


# -- fast paths ------------------------------------------------------------------------------
# Most real dates are one of a few clean shapes: "1850", "12 MAY 1850", "ABT 1850",
# "May 12, 1890", "12th May 1890", "yesterday". They are read here with one anchored regex
# each and built directly, giving exactly the `GenDate` the general path builds (the tests
# compare the two on every benchmark string); anything else, including every impossible day,
# falls through to the general path, which owns all error reporting.
_FAST_GED = re.compile(
    r"(?:(ABT|CAL|EST|BEF|AFT|abt|cal|est|bef|aft|Abt|Cal|Est|Bef|Aft) )?"
    r"(?:(?:([0-3]?[0-9]) )?([A-Za-z]{3}) )?([1-9][0-9]{3})")
_FAST_MDY = re.compile(r"([A-Za-z]{3,9})\.? ([0-3]?[0-9])(?:st|nd|rd|th|d)?,? ([1-9][0-9]{3})")
_FAST_DMY = re.compile(r"([0-3]?[0-9])(?:st|nd|rd|th)? ([A-Za-z]{3,9})\.?,? ([1-9][0-9]{3})")
_FAST_QUAL = {"ABT": DateQualifier.ABOUT, "CAL": DateQualifier.CALCULATED,
              "EST": DateQualifier.ESTIMATED}
_MONTH_LEN = (0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def _mlen(y: int, m: int) -> int:
    if m == 2 and y % 4 == 0 and (y % 100 != 0 or y % 400 == 0):
        return 29
    return _MONTH_LEN[m]


def _fast(s: str, reference: GenDate | None) -> DateParse | None:
    """The common shapes, parsed directly; None sends the string down the general path."""
    if not s or len(s) > 24:
        return None
    c = s[0]
    if c.isdigit() or c in "ABCEFTabcceft":
        m = _FAST_GED.fullmatch(s)
        if m:
            q, d, mon, y = m.groups()
            if mon is not None:
                mn = _FAST_MONTH.get(mon.upper())
                if mn is None:
                    return None
            else:
                mn = None
            return _fast_build(q.upper() if q else None, int(y), mn, int(d) if d else None, s)
        if c.isdigit():
            m = _FAST_DMY.fullmatch(s)
            if m:
                mn = MONTHS.get(m.group(2).lower())
                return None if mn is None else _fast_build(
                    None, int(m.group(3)), mn, int(m.group(1)), s)
    m = _FAST_MDY.fullmatch(s) if c.isalpha() else None
    if m:
        mn = MONTHS.get(m.group(1).lower())
        return None if mn is None else _fast_build(None, int(m.group(3)), mn,
                                                    int(m.group(2)), s)
    if reference is not None and c.isalpha() and _RELATIVE.fullmatch(s):
        p = _partial(s, reference, s)
        return DateParse(p) if p is not None else None
    return None


_FAST_MONTH = {k: v for k, v in zip(_GED_MONTH[1:], range(1, 13), strict=True)}


def _fast_build(q: str | None, y: int, mn: int | None, d: int | None, original: str
                ) -> DateParse | None:
    if d is not None and (mn is None or not 1 <= d <= _mlen(y, mn)):
        return None  # let the general path say why
    lo = date(y, mn or 1, d or 1)
    hi = date(y, mn or 12, d or _mlen(y, mn or 12))
    prec: Precision = "day" if d else "month" if mn else "year"
    qual = DateQualifier.EXACT
    if q == "BEF":
        lo, hi, qual = None, lo, DateQualifier.BEFORE  # type: ignore[assignment]
    elif q == "AFT":
        lo, hi, qual = hi, None, DateQualifier.AFTER  # type: ignore[assignment]
    elif q:
        qual = _FAST_QUAL[q]
    return DateParse(construct(lo, hi, qual, prec, "gregorian", original))


@lru_cache(maxsize=8192)
def _cached(text: str, reference: GenDate | None) -> GenDate | None:
    r = parse_date_checked(text, reference=reference)
    return r.date if r.status == "ok" else None


def parse_date(text: str, *, reference: GenDate | None = None) -> GenDate | None:
    """Parse a free-text or GEDCOM date into a range; None when it is not a (valid) date.

    Qualified dates keep the written period as their range and carry the qualifier, so the
    ISO form always names the year that was written; BEF/AFT are open-ended with the written
    period as the inclusive boundary. Year-less phrases resolve only against `reference`.
    Pure date phrases ("(unknown)") are valid GEDCOM but unbounded, so they give None here;
    `parse_date_checked` returns them, and the reason for every refusal.
    """
    if not isinstance(text, str) or not text or len(text) > MAX_LEN:
        return None
    return _cached(text, reference)


# -- ages -> birth ranges --------------------------------------------------------------------
_AGE_UNIT = re.compile(
    r"(?P<n>\d{1,3})\s*(?P<u>years?|yrs?|y|months?|mos?|mths?|m|weeks?|wks?|w|days?|ds?|d)\b\.?",
    re.I,
)
_AGE_HEAD = re.compile(r"\b(?:aged?|at\s+the\s+age\s+of|age\s+of)\s*:?\s*(?P<n>\d{1,3})\b", re.I)
_NTH_YEAR = re.compile(
    r"\bin\s+(?:his|her|the|its)\s+(?P<n>\d{1,3})(?:st|nd|rd|th|d)\s+year\b", re.I)


def _age_parts(text: str) -> tuple[int, int | None, int | None] | None:
    """(years, months, days) from "aged 78 years, 10 months and 27 days" and kin."""
    t = text[:300]
    m = _NTH_YEAR.search(t)
    if m:  # "in her 65th year": 64 full years
        n = int(m.group("n"))
        return (n - 1, None, None) if n >= 1 else None
    h = _AGE_HEAD.search(t)
    start = h.start("n") if h else 0
    y = mo = d = None
    for u in _AGE_UNIT.finditer(t, start, min(len(t), start + 80)):
        n, unit = int(u.group("n")), u.group("u")[0].lower()
        if unit == "y" and y is None:
            y = n
        elif unit == "m" and mo is None:
            mo = n
        elif unit == "w" and d is None:
            d = 7 * n
        elif unit == "d" and d is None:
            d = n
    if y is None and mo is None and d is None:
        if h is None:
            return None
        y = int(h.group("n"))
    return y or 0, mo, d


def _minus(d: date, years: int, months: int, days: int) -> date | None:
    """Calendar subtraction: same day-of-month (clamped), then whole days."""
    total = d.year * 12 + d.month - 1 - years * 12 - months
    yy, mm = divmod(total, 12)
    if yy < 1:
        return None
    mm += 1
    last = (date(yy + (mm == 12), mm % 12 + 1, 1) - timedelta(days=1)).day
    try:
        return date(yy, mm, min(d.day, last)) - timedelta(days=days)
    except OverflowError:
        return None


def _days_first(d: date, years: int, months: int, days: int) -> date | None:
    try:
        return _minus(d - timedelta(days=days), years, months, 0)
    except OverflowError:
        return None


def birth_range_from_age(
    age: str | tuple[int, int | None, int | None], at: GenDate
) -> GenDate | None:
    """Birth range implied by an age at a dated event (an inference: qualifier CALCULATED).

    `age` is text ("aged 78 years, 10 months and 27 days", "aged 78", "in her 65th year")
    or (years, months, days) with None for the units not given. Someone aged Y (years only)
    at date D was born in (D - (Y+1) years, D - Y years]: for a known day that spans parts of
    two calendar years. Years and months narrow it to a month; years, months and days to a
    few days (subtracting the days before or after the months differs by up to three days,
    and both are practised). `at`'s own uncertainty widens the result. None when the age
    or `at` is unusable.
    """
    parts = _age_parts(age) if isinstance(age, str) else age
    if parts is None or at.earliest is None or at.latest is None:
        return None
    if at.earliest_bce or at.latest_bce:
        return None
    y, mo, d = parts
    if y < 0 or y > 150:
        return None
    if d is not None:
        # Counting days before or after the months moves the answer by up to three days
        # (both conventions are in use), so the range covers both.
        lo = _minus(at.earliest, y, mo or 0, d)
        hi = _minus(at.latest, y, mo or 0, d)
        alt_lo, alt_hi = _days_first(at.earliest, y, mo or 0, d), _days_first(at.latest, y,
                                                                              mo or 0, d)
        if lo and hi and alt_lo and alt_hi:
            lo, hi = min(lo, alt_lo), max(hi, alt_hi)
    elif mo is not None:
        lo = _minus(at.earliest, y, mo + 1, -1)
        hi = _minus(at.latest, y, mo, 0)
    else:
        lo = _minus(at.earliest, y + 1, 0, -1)
        hi = _minus(at.latest, y, 0, 0)
    if lo is None or hi is None or lo > hi:
        return None
    original = age if isinstance(age, str) else ""
    prec: Precision = ("day" if lo == hi else "month" if (lo.year, lo.month) == (hi.year, hi.month)
                       else "year")
    return GenDate(earliest=lo, latest=hi, qualifier=DateQualifier.CALCULATED, precision=prec,
                   original=original.strip())
