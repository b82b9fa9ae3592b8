"""GEDCOM 5.5.1 and 7.0 date values to `GenDate` ranges, with a reason for every refusal.

Grammar covered (keywords case-insensitive, whitespace collapsed):

    value   := date | ABT/CAL/EST date | BEF/AFT date | BET date AND date
             | FROM date [TO date] | TO date | INT date (phrase) | (phrase)
    date    := [calendar] [[day] month] year [epoch]
    calendar:= GREGORIAN | JULIAN | FRENCH_R | HEBREW            (7.0 keywords)
             | @#DGREGORIAN@ | @#DJULIAN@ | @#DFRENCH R@ | @#DHEBREW@   (5.5.1 escapes)
    year    := digits ["/" 1-4 digits]   (5.5.1 dual year, Gregorian only, names year + 1)
    epoch   := BCE (7.0) | B.C. (5.5.1)

`version` picks the dialect: "7.0" refuses escapes, dual years, B.C. and INT (7.0 keeps those
in a PHRASE substructure); "5.5.1" wants a two-digit dual year and B.C.; None (the default)
accepts the union, which is what real files contain. Julian, French Republican and Hebrew
dates are converted to proleptic Gregorian bounds with `convertdate`, while `calendar` and
`original` keep what was written. Extension calendars and months (`_ROMAN`, `_MONTH`, the
5.5.1 reserved ROMAN/UNKNOWN) cannot be bounded, so they are reported as unsupported.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from typing import Literal

from convertdate import french_republican, gregorian, hebrew, julian

from sleuth.model.dates import DateQualifier, GenDate

Version = Literal["5.5.1", "7.0"] | None
Status = Literal["ok", "phrase", "invalid", "syntax", "unsupported"]

MAX_LEN = 256  # longer than any real date value (5.5.1 caps DATE_VALUE at 35 characters)


@dataclass(frozen=True, slots=True)
class DateParse:
    """A parse outcome: `date` when the value is a date, `error` saying why when it is not.

    status: "ok" (bounded date), "phrase" (a valid date phrase with no bounds: `date` has
    qualifier PHRASE), "invalid" (well formed but impossible: 31 NOV, a reversed range, a bad
    dual year), "syntax" (not a date in the grammar), "unsupported" (extension calendar/month).
    """

    date: GenDate | None
    error: str = ""
    status: Status = "ok"

    @property
    def ok(self) -> bool:
        return not self.error



def _numbered(names: str) -> dict[str, int]:
    return {m: i for i, m in enumerate(names.split(), start=1)}


GREG_MONTHS = _numbered("JAN FEB MAR APR MAY JUN JUL AUG SEP OCT NOV DEC")
FRENCH_MONTHS = _numbered("VEND BRUM FRIM NIVO PLUV VENT GERM FLOR PRAI MESS THER FRUC COMP")
# convertdate numbers Hebrew months from Nisan (1) to Adar (12) and Adar II (13).
HEBREW_MONTHS = _numbered("NSN IYR SVN TMZ AAV ELL TSH CSH KSL TVT SHV ADR ADS")
_MONTHS = {"gregorian": GREG_MONTHS, "julian": GREG_MONTHS, "french_r": FRENCH_MONTHS,
           "hebrew": HEBREW_MONTHS}
CALENDAR_KEYWORDS = {"GREGORIAN": "gregorian", "JULIAN": "julian", "FRENCH_R": "french_r",
                     "HEBREW": "hebrew"}
CALENDAR_ESCAPES = {"@#DGREGORIAN@": "gregorian", "@#DJULIAN@": "julian",
                    "@#DFRENCH_R@": "french_r", "@#DHEBREW@": "hebrew"}
_RESERVED_ESCAPES = {"@#DROMAN@", "@#DUNKNOWN@"}  # 5.5.1 "for future use"
_BCE_55 = {"B.C."}
_BCE_LENIENT = {"B.C.", "BC", "BCE", "B.C", "B.C.E.", "BC.", "B.C.E"}
_QUAL_KW = {"ABT": DateQualifier.ABOUT, "CAL": DateQualifier.CALCULATED,
            "EST": DateQualifier.ESTIMATED}
_KEYWORDS = {"ABT", "CAL", "EST", "BEF", "AFT", "BET", "AND", "FROM", "TO", "INT"}
_MAX_YEAR = 9999


class _Refuse(Exception):
    def __init__(self, status: Status, msg: str) -> None:
        super().__init__(msg)
        self.status: Status = status
        self.msg = msg


@dataclass(frozen=True, slots=True)
class _Bounds:
    lo: tuple[int, int, int]  # astronomical Gregorian (year, month, day)
    hi: tuple[int, int, int]
    precision: Literal["day", "month", "year"]
    calendar: str


def parse_gedcom_date(
    text: str, version: Version = None, *, original: str | None = None
) -> DateParse:
    """Parse one GEDCOM DATE payload (a 5.5.1 value may carry its `INT`/`(phrase)`).

    With version None a bare one- or two-digit number is not taken as a Gregorian year
    ("12" is more likely a day than the year 12); write `GREGORIAN 12` to mean the year.
    `original` replaces the text kept on the result (callers that normalised free text).
    """
    if not isinstance(text, str):
        return DateParse(None, "not a string", "syntax")
    if len(text) > MAX_LEN:
        return DateParse(None, f"too long for a date ({len(text)} characters)", "syntax")
    try:
        g = _parse(text.strip(), version, original)
    except _Refuse as r:
        return DateParse(None, r.msg, r.status)
    if g.qualifier is DateQualifier.PHRASE:
        return DateParse(g, "", "phrase")
    return DateParse(g)


def _parse(s: str, version: Version, original: str | None) -> GenDate:
    if original is None:
        original = s
    phrase = ""
    if s.endswith(")") and "(" in s:
        i = s.index("(")
        phrase = s[i + 1 : -1].strip()
        s = s[:i].strip()
        if version == "7.0":
            raise _Refuse("syntax", "GEDCOM 7.0 keeps date phrases in a PHRASE substructure")
        if not s:
            return GenDate(qualifier=DateQualifier.PHRASE, original=original, phrase=phrase)
    elif "(" in s or ")" in s:
        raise _Refuse("syntax", "unbalanced parenthesis in date")
    if not s:
        raise _Refuse("syntax", "empty date")
    toks = s.upper().replace("@#DFRENCH R@", "@#DFRENCH_R@").split()
    head = toks[0]
    if head == "INT":
        if version == "7.0":
            raise _Refuse("syntax", "INT is not GEDCOM 7.0 (use a PHRASE substructure)")
        if version == "5.5.1" and not phrase:
            raise _Refuse("syntax", "INT needs a (date phrase)")
        g = _assemble(toks[1:], original, version)
        return g.model_copy(update={"phrase": phrase})
    if phrase:
        raise _Refuse("syntax", "a date phrase in parentheses follows only INT")
    return _assemble(toks, original, version)


def _assemble(toks: list[str], original: str, version: Version) -> GenDate:
    if not toks:
        raise _Refuse("syntax", "keyword without a date")
    head = toks[0]
    if head in _QUAL_KW:
        b = _single(toks[1:], version)
        return _gen(b.lo, b.hi, _QUAL_KW[head], b.precision, b.calendar, original)
    if head in ("BEF", "AFT"):
        b = _single(toks[1:], version)
        if head == "BEF":
            return _gen(None, b.lo, DateQualifier.BEFORE, b.precision, b.calendar, original)
        return _gen(b.hi, None, DateQualifier.AFTER, b.precision, b.calendar, original)
    if head == "BET":
        return _pair(toks[1:], "AND", DateQualifier.BETWEEN, original, version, required=True)
    if head == "FROM":
        return _pair(toks[1:], "TO", DateQualifier.PERIOD, original, version, required=False)
    if head == "TO":
        b = _single(toks[1:], version)
        return _gen(None, b.hi, DateQualifier.PERIOD, b.precision, b.calendar, original)
    b = _single(toks, version)
    return _gen(b.lo, b.hi, DateQualifier.EXACT, b.precision, b.calendar, original)


def _pair(
    toks: list[str], sep: str, qual: DateQualifier, original: str, version: Version, *,
    required: bool,
) -> GenDate:
    if sep not in toks:
        if required:
            raise _Refuse("syntax", "BET without AND")
        b = _single(toks, version)
        return _gen(b.lo, None, qual, b.precision, b.calendar, original)
    k = toks.index(sep)
    a, b = _single(toks[:k], version), _single(toks[k + 1 :], version)
    if a.lo > b.hi:
        raise _Refuse("invalid", f"reversed range: {' '.join(toks[:k])} is after "
                                 f"{' '.join(toks[k + 1:])}")
    prec = a.precision if a.precision == b.precision else "year"
    cal = a.calendar if a.calendar == b.calendar else "mixed"
    return _gen(a.lo, b.hi, qual, prec, cal, original)


def _single(toks: list[str], version: Version) -> _Bounds:
    """[calendar] [[day] month] year [epoch] -> Gregorian bounds of the written period."""
    if not toks:
        raise _Refuse("syntax", "missing date after keyword")
    if len(toks) > 5:
        raise _Refuse("syntax", f"too many words in a date: {' '.join(toks[:8])}")
    i, cal = 0, "gregorian"
    t = toks[0]
    if t in CALENDAR_KEYWORDS:
        cal, i = CALENDAR_KEYWORDS[t], 1
    elif t.startswith("@#D"):
        if version == "7.0":
            raise _Refuse("syntax", f"calendar escape {t} is GEDCOM 5.5.1, not 7.0")
        if t in _RESERVED_ESCAPES:
            raise _Refuse("unsupported", f"calendar {t} is reserved and cannot be bounded")
        if t not in CALENDAR_ESCAPES:
            raise _Refuse("syntax", f"unknown calendar escape {t}")
        cal, i = CALENDAR_ESCAPES[t], 1
    elif t.startswith("_") or t in ("ROMAN", "UNKNOWN"):
        raise _Refuse("unsupported", f"calendar {t} cannot be converted to dates")
    rest = toks[i:]
    bce = False
    if rest and not rest[-1][0].isdigit():
        ep = rest[-1]
        allowed = {"7.0": {"BCE"}, "5.5.1": _BCE_55}.get(version or "", _BCE_LENIENT)
        if ep in allowed:
            if cal not in ("gregorian", "julian"):
                raise _Refuse("invalid", f"{ep} applies only to Gregorian and Julian dates")
            bce, rest = True, rest[:-1]
        elif ep.startswith("_"):
            raise _Refuse("unsupported", f"epoch {ep} cannot be bounded")
        elif ep in _BCE_LENIENT:
            raise _Refuse("syntax", f"epoch {ep} is not valid in GEDCOM {version}")
    if not rest or len(rest) > 3:
        raise _Refuse("syntax", "a date is [day] [month] year")
    year, dual = _year(rest[-1], cal, version, explicit=i == 1 or bce)
    month = day = None
    if len(rest) >= 2:
        month = _month(rest[-2], cal)
    if len(rest) == 3:
        d = rest[0]
        if not d.isdigit() or len(d) > 2:
            raise _Refuse("syntax", f"bad day {d!r}")
        day = int(d)
    return _bounds(cal, year, month, day, bce, dual)


def _year(t: str, cal: str, version: Version, explicit: bool) -> tuple[int, int | None]:
    ys, slash, ds = t.partition("/")
    if not ys.isdigit() or not ys.isascii():
        what = "word" if t.isalpha() else "year"
        raise _Refuse("syntax", f"unexpected {what} {t[:20]!r} where a year belongs")
    if len(ys) > 4:
        raise _Refuse("syntax", f"year {t[:20]} has more than four digits")
    if version is None and len(ys) <= 2 and not explicit:
        raise _Refuse("syntax", f"{t} is too short to be taken as a year without a calendar")
    year = int(ys)
    if year < 1:
        raise _Refuse("invalid", "there is no year 0")
    if not slash:
        return year, None
    if version == "7.0":
        raise _Refuse("syntax", f"dual year {t} is GEDCOM 5.5.1; 7.0 writes it as a PHRASE")
    if not ds.isdigit() or not ds.isascii() or len(ds) > 4 or (version and len(ds) != 2):
        raise _Refuse("syntax", f"dual year {t[:20]}: want the following year's last two digits")
    if cal != "gregorian":
        raise _Refuse("invalid", f"dual year {t} is only defined for the Gregorian calendar")
    if (year + 1) % 10 ** len(ds) != int(ds):
        raise _Refuse("invalid", f"dual year {t}: {ds} does not name the year after {year}")
    return year, year + 1


def _month(t: str, cal: str) -> int:
    m = _MONTHS[cal].get(t)
    if m is not None:
        return m
    if t.startswith("_"):
        raise _Refuse("unsupported", f"extension month {t} cannot be bounded")
    other = next((c for c, tbl in _MONTHS.items() if t in tbl), None)
    if other:
        raise _Refuse("invalid", f"month {t} belongs to the {other} calendar, not {cal}")
    raise _Refuse("syntax", f"unknown month {t!r}")


def _greg_leap(y: int) -> bool:
    return y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)


_MDAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def _month_len(cal: str, y: int, m: int) -> int:
    if cal in ("gregorian", "julian"):
        leap = _greg_leap(y) if cal == "gregorian" else y % 4 == 0
        return 29 if m == 2 and leap else _MDAYS[m - 1]
    if cal == "french_r":
        return 30 if m < 13 else int(_french_new_year(y + 1) - _french_new_year(y)) - 360
    return hebrew.month_length(y, m)


@lru_cache(maxsize=512)
def _french_new_year(y: int) -> float:
    """Julian day of 1 Vendémiaire. convertdate's historical (equinox) rule costs ~6 ms a
    call, so it is asked once per year; the months are then plain arithmetic."""
    return french_republican.to_jd(y, 1, 1)


def _hebrew_to_jd(y: int, m: int, d: int) -> float:
    # convertdate's own to_jd calls its deprecated month_days; the warning is not ours to fix.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return hebrew.to_jd(y, m, d)


def _french_to_jd(y: int, m: int, d: int) -> float:
    return _french_new_year(y) + (m - 1) * 30 + d - 1


def _bounds(
    cal: str, year: int, month: int | None, day: int | None, bce: bool, dual: int | None,
) -> _Bounds:
    prec: Literal["day", "month", "year"] = "day" if day else "month" if month else "year"
    y = 1 - year if bce else year  # astronomical
    y2 = (1 - dual if bce else dual) if dual else y
    if bce and dual:
        y, y2 = y2, y  # "1401/8 B.C." would run backwards; keep the range ordered
    if cal == "hebrew":
        if month == 13 and not hebrew.leap(year):
            raise _Refuse("invalid", f"ADS (Adar II) does not exist in {year}, not a leap year")
        lo_md = (month or 7, day or 1)
        hi_m = month or 6  # the Hebrew year runs from Tishri (7) to Elul (6)
        hi_md = (hi_m, day or _month_len(cal, year, hi_m))
    elif cal == "french_r":
        lo_md = (month or 1, day or 1)
        hi_m = month or 13
        hi_md = (hi_m, day or _month_len(cal, year, hi_m))
    else:
        lo_md = (month or 1, day or 1)
        hi_m = month or 12
        hi_md = (hi_m, day or _month_len(cal, y2, hi_m))
    if day is not None:
        n = _month_len(cal, y, month or 1)
        if not 1 <= day <= n or (dual and day > _month_len(cal, y2, month or 1)):
            raise _Refuse("invalid", f"day {day} does not exist in month {month} of {year}")
    if cal == "gregorian":
        return _Bounds((y, *lo_md), (y2, *hi_md), prec, cal)
    conv = {"julian": julian.to_jd, "hebrew": _hebrew_to_jd,
            "french_r": _french_to_jd}[cal]
    lo = gregorian.from_jd(conv(y, *lo_md))
    hi = gregorian.from_jd(conv(y2, *hi_md))
    return _Bounds(lo, hi, prec, cal)


def _end(t: tuple[int, int, int] | None) -> tuple[date | None, bool]:
    """Astronomical Gregorian (y, m, d) -> (date, is_bce) in GenDate's storage convention."""
    if t is None:
        return None, False
    y, m, d = t
    if y > _MAX_YEAR:
        raise _Refuse("invalid", f"year {y} is beyond 9999")
    if y >= 1:
        return date(y, m, d), False
    n = 1 - y  # BCE year number
    if n > _MAX_YEAR:
        raise _Refuse("invalid", f"year {n} BCE is beyond what can be stored")
    # A BCE leap day (astronomical leap years differ from Python's) is stored as 28 Feb.
    return date(n, m, min(d, 28) if m == 2 else d), True


def _gen(
    lo: tuple[int, int, int] | None, hi: tuple[int, int, int] | None, qual: DateQualifier,
    prec: Literal["day", "month", "year"], cal: str, original: str,
) -> GenDate:
    e, ebce = _end(lo)
    la, lbce = _end(hi)
    return construct(e, la, qual, prec, cal, original, ebce, lbce)


_new = object.__new__
_set = object.__setattr__
_FIELDS = ("earliest", "latest", "qualifier", "precision", "calendar", "original",
           "earliest_bce", "latest_bce", "phrase")


def construct(
    earliest: date | None, latest: date | None, qualifier: DateQualifier,
    precision: Literal["day", "month", "year"], calendar: str, original: str,
    earliest_bce: bool = False, latest_bce: bool = False, phrase: str = "",
) -> GenDate:
    """A `GenDate` from bounds the parser has already checked (ordered, real days).

    What `GenDate.model_construct` does, minus its generic per-field loop, which alone cost
    more than half of a whole parse (2.8 µs of ~5 µs): the parser builds one per date, and
    issue #3 asks for 50x dateparser's speed. Equality with `model_construct` is tested.
    """
    g = _new(GenDate)
    _set(g, "__dict__", {
        "earliest": earliest, "latest": latest, "qualifier": qualifier, "precision": precision,
        "calendar": calendar, "original": original, "earliest_bce": earliest_bce,
        "latest_bce": latest_bce, "phrase": phrase})
    _set(g, "__pydantic_fields_set__", set(_FIELDS))
    _set(g, "__pydantic_extra__", None)
    _set(g, "__pydantic_private__", None)
    return g
