"""GEDCOM date conformance: every valid date in gedcom7code parses, every invalid one is reported.

Data: `gedcom/gedcom7code/{5,7}/date-*.ged` (a 5.5.1 file and its 7.0 conversion, written by
the FamilySearch GEDCOM team) and `gedcom/gedcom70/date.ged`. The expected outcome of every
DATE value is derived from the files' own structure plus token-level GEDCOM rules, never from
sleuth's parser:

* `5/date-dual-valid.ged`: every DATE is a valid 5.5.1 date; `5/date-dual-invalid.ged`: none is.
* `7/date-dual-invalid.ged`: its DATE payloads are the converter's valid 7.0 dates; the PHRASE
  under each repeats the 5.5.1 dual year, which is invalid as a 7.0 date.
* `5/date-all.ged` is paired record by record with `7/date-all.ged`: where the converter had to
  keep the whole 5.5.1 value in a PHRASE (PHRASE == NOTE) it could not express a dual year;
  that value is invalid unless every dual year is the 5.5.1 form NUMBER/DD naming the
  following year (1042/43), which 7.0 merely cannot write.
* Token rules on top (all files): an extension calendar or month (`_ROMAN`, `_MONTH`, 5.5.1's
  reserved ROMAN/UNKNOWN) is "unsupported" (cannot be bounded: must be reported); a day past
  the month's length (31 NOV, 30 FEB, 29 FEB outside a leap year, COMP day > 5/6, Hebrew ADS
  outside a leap year, day 30 of a 29-day Hebrew month) is invalid; BET/FROM ranges whose
  first year is after the second (years compared after shifting Hebrew by -3761 and French
  Republican by +1791, BCE negative) are invalid; ranges whose approximate years are within
  one year across calendars are left unscored.

A valid date counts as parsed correctly only if sleuth returns a bounded date whose qualifier
and calendar match the keywords written and whose first year is within a year of the written
(shifted) year. Rows: "valid dates parsed" (tp valid parsed, fn valid refused or wrong, fp
invalid accepted), "invalid dates reported" (tp invalid reported, fn invalid accepted, fp valid
reported), "extension calendars reported".
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from extraction_sets import FieldScore
from sleuth.extract.gedcom_date import parse_gedcom_date
from sleuth.model.dates import DateQualifier

_GREG_DAYS = {"JAN": 31, "FEB": 28, "MAR": 31, "APR": 30, "MAY": 31, "JUN": 30, "JUL": 31,
              "AUG": 31, "SEP": 30, "OCT": 31, "NOV": 30, "DEC": 31}
_FRENCH = {"VEND", "BRUM", "FRIM", "NIVO", "PLUV", "VENT", "GERM", "FLOR", "PRAI", "MESS",
           "THER", "FRUC", "COMP"}
_HEBREW = {"TSH", "CSH", "KSL", "TVT", "SHV", "ADR", "ADS", "NSN", "IYR", "SVN", "TMZ", "AAV",
           "ELL"}
_QUAL = {"ABT": DateQualifier.ABOUT, "CAL": DateQualifier.CALCULATED,
         "EST": DateQualifier.ESTIMATED, "BEF": DateQualifier.BEFORE,
         "AFT": DateQualifier.AFTER, "BET": DateQualifier.BETWEEN, "FROM": DateQualifier.PERIOD,
         "TO": DateQualifier.PERIOD}
_CALS = {"JULIAN": "julian", "GREGORIAN": "gregorian", "HEBREW": "hebrew",
         "FRENCH_R": "french_r"}


@dataclass(frozen=True)
class Case:
    file: str
    value: str
    version: str
    expect: str  # "valid" | "invalid" | "unsupported" | "unscored"


def read_values(path: Path) -> list[tuple[str, str, str]]:
    """Minimal GEDCOM line reader: (record NOTE, DATE payload, PHRASE) per event, in order."""
    out: list[tuple[str, str, str]] = []
    note = date = phrase = ""
    inside = False
    for line in path.read_text(encoding="utf-8-sig").splitlines():
        level, _, rest = line.partition(" ")
        tag, _, val = rest.partition(" ")
        if level in ("0", "1"):
            if inside:
                out.append((note, date, phrase))
            inside = tag == "BIRT"
            note = date = phrase = ""
        elif tag == "NOTE":
            note = val
        elif tag == "DATE":
            date = val
        elif tag == "PHRASE":
            phrase = val
    if inside:
        out.append((note, date, phrase))
    return out


def _consecutive_duals(value: str) -> bool:
    """5.5.1 YEAR_GREG dual form: NUMBER/DIGIT DIGIT naming the following year, Gregorian only."""
    for ws in _dates(value):
        cal = next((w for w in ws if w in _CALS), "GREGORIAN")
        for w in ws:
            y, slash, d = w.partition("/")
            if slash and not (cal == "GREGORIAN" and y.isdigit() and len(d) == 2
                              and d.isdigit() and (int(y) + 1) % 100 == int(d)):
                return False
    return True


def _hebrew_leap(y: int) -> bool:
    return y % 19 in (0, 3, 6, 8, 11, 14, 17)


def _dates(value: str) -> list[list[str]]:
    words = value.upper().split()
    parts: list[list[str]] = [[]]
    for w in words:
        if w in ("AND", "TO") and parts[-1]:
            parts.append([])
        elif w not in _QUAL and w != "INT":
            parts[-1].append(w)
    return parts


def _approx_year(ws: list[str]) -> tuple[float, bool]:
    """Approximate Gregorian year of one date's words, and whether it is a calendar shift."""
    cal = next((w for w in ws if w in _CALS), "GREGORIAN")
    nums = [w for w in ws if w.split("/")[0].isdigit()]
    y = int(nums[-1].split("/")[0])
    if any(w in ("BCE", "B.C.") for w in ws):
        y = -y
    if cal == "HEBREW":
        return y - 3761, True
    if cal == "FRENCH_R":
        return y + 1791, True
    return y, cal == "JULIAN"


def _rule_expectation(value: str) -> str:
    """Token-level expectation for one DATE value (see module docstring)."""
    v = value.upper()
    words = v.split()
    if any(w.startswith("_") or w in ("ROMAN", "UNKNOWN") for w in words):
        return "unsupported"
    dates = _dates(v)
    for ws in dates:
        cal = next((w for w in ws if w in _CALS), "GREGORIAN")
        core = [w for w in ws if w not in _CALS and w not in ("BCE", "B.C.")]
        if len(core) == 3 and core[0].isdigit():
            day, mon, yr = int(core[0]), core[1], int(core[2].split("/")[0])
            if mon in _GREG_DAYS:
                astro = 1 - yr if "BCE" in ws or "B.C." in ws else yr
                leap = astro % 4 == 0 and (cal == "JULIAN" or astro % 100 or astro % 400 == 0)
                limit = 29 if mon == "FEB" and leap else _GREG_DAYS[mon]
            elif mon == "COMP":
                limit = 5  # 6 only in a sextile year; none of the files reaches day 6
            elif mon in _FRENCH:
                limit = 30
            else:
                limit = 30 if mon in ("TSH", "SHV", "NSN", "SVN", "AAV") else 29
            if day < 1 or day > limit:
                return "invalid"
        if "ADS" in core and not _hebrew_leap(int(core[-1])):
            return "invalid"
    if len(dates) == 2 and dates[1]:
        (a, sa), (b, sb) = _approx_year(dates[0]), _approx_year(dates[1])
        if abs(a - b) <= 1 and (sa or sb) and a != b:
            return "unscored"
        if a > b:
            return "invalid"
    return "valid"


def cases(root: Path) -> Iterator[Case]:
    base = root / "gedcom" / "gedcom7code"
    for _, d, _ in read_values(base / "5" / "date-dual-valid.ged"):
        yield Case("5/date-dual-valid", d, "5.5.1", "valid")
    for _, d, _ in read_values(base / "5" / "date-dual-invalid.ged"):
        yield Case("5/date-dual-invalid", d, "5.5.1", "invalid")
    for _, d, ph in read_values(base / "7" / "date-dual-invalid.ged"):
        yield Case("7/date-dual-invalid", d, "7.0", _rule_expectation(d))
        if ph:
            yield Case("7/date-dual-invalid PHRASE", ph, "7.0", "invalid")
    five = read_values(base / "5" / "date-all.ged")
    seven = read_values(base / "7" / "date-all.ged")
    for (note, d5, _), (_, d7, ph7) in zip(five, seven, strict=True):
        if d5:
            bad_dual = ph7 == note and not _consecutive_duals(d5)
            yield Case("5/date-all", d5, "5.5.1",
                       "invalid" if bad_dual else _rule_expectation(d5))
        if d7:
            yield Case("7/date-all", d7, "7.0", _rule_expectation(d7))
    for _, d, _ in read_values(root / "gedcom" / "gedcom70" / "date.ged"):
        if d:
            yield Case("gedcom70/date", d, "7.0", _rule_expectation(d))


def _right(value: str, version: str) -> tuple[bool, str]:
    """Parse and check qualifier, calendar and first year against the written words."""
    r = parse_gedcom_date(value, version)  # type: ignore[arg-type]
    if r.status == "phrase":
        return True, "ok"
    if r.status != "ok" or r.date is None:
        return False, r.status
    g = r.date
    words = value.upper().split()
    head = "INT" if words[0] == "INT" else words[0]
    if g.qualifier != _QUAL.get(head, DateQualifier.EXACT):
        return False, "wrong qualifier"
    first = _dates(value)[0]
    cal = next((_CALS[w] for w in first if w in _CALS), "gregorian")
    if g.calendar not in (cal, "mixed"):
        return False, "wrong calendar"
    y, _ = _approx_year(first)
    got = g.years()[0] if g.earliest else g.years()[1]
    if head == "TO":
        y, _ = _approx_year(_dates(value)[-1])
    elif y <= 0:
        y += 1  # astronomical years: 1 BCE is year 0
    if got is None or abs(got - y) > 1:
        return False, f"year {got} for {value}"
    return True, "ok"


def score(root: Path) -> list[FieldScore]:
    t0 = time.perf_counter()
    valid = FieldScore("gedcom7code", "valid dates parsed")
    invalid = FieldScore("gedcom7code", "invalid dates reported")
    ext = FieldScore("gedcom7code", "extension calendars reported")
    unscored = 0
    files: set[str] = set()
    for c in cases(root):
        files.add(c.file)
        if c.expect == "unscored":
            unscored += 1
            continue
        ok, _why = _right(c.value, c.version)
        accepted = ok or _why in ("wrong qualifier", "wrong calendar") or _why.startswith("year")
        if c.expect == "valid":
            valid.tp += ok
            valid.fn += not ok
            invalid.fp += not accepted
        elif c.expect == "invalid":
            invalid.tp += not accepted
            invalid.fn += accepted
            valid.fp += accepted
        else:
            ext.tp += not accepted
            ext.fn += accepted
    secs = time.perf_counter() - t0
    for row in (valid, invalid, ext):
        row.docs, row.seconds = len(files), secs
        row.note = (f"date values, not candidates (no firewall rows); {unscored} "
                    "cross-calendar ranges within a year left unscored")
    return [valid, invalid, ext]
