"""GEDCOM 5.5.1 / 7.0 date grammar: hand-checked values and the gedcom7code conformance files."""

from __future__ import annotations

import importlib
import sys
import time
from datetime import date
from pathlib import Path
from types import ModuleType

import pytest

from shared_data import shared_path
from sleuth.extract.dates import parse_date, parse_date_checked
from sleuth.extract.gedcom_date import parse_gedcom_date
from sleuth.model.dates import DateQualifier, GenDate

Q = DateQualifier
REPO = Path(__file__).resolve().parents[2]

# (value, version, earliest, latest, qualifier, calendar, iso), checked by hand against
# the spec and a calendar table (Julian 1 JAN 1700 = Gregorian 11 JAN 1700; 1 VEND I =
# 22 Sep 1792; 1 TSH 5000 = 8 Sep 1239).
HAND = [
    ("12 MAY 1890", "7.0", date(1890, 5, 12), date(1890, 5, 12), Q.EXACT, "gregorian",
     "1890-05-12"),
    ("MAY 1890", "7.0", date(1890, 5, 1), date(1890, 5, 31), Q.EXACT, "gregorian", "1890-05"),
    ("EST 1890", "7.0", date(1890, 1, 1), date(1890, 12, 31), Q.ESTIMATED, "gregorian", "1890"),
    ("BEF 1890", "7.0", None, date(1890, 1, 1), Q.BEFORE, "gregorian", "1890"),
    ("AFT MAY 1890", "7.0", date(1890, 5, 31), None, Q.AFTER, "gregorian", "1890-05"),
    ("FROM 1890", "7.0", date(1890, 1, 1), None, Q.PERIOD, "gregorian", "1890"),
    ("TO 1890", "7.0", None, date(1890, 12, 31), Q.PERIOD, "gregorian", "1890"),
    ("FROM 3 MAR 1890 TO 1895", "7.0", date(1890, 3, 3), date(1895, 12, 31), Q.PERIOD,
     "gregorian", "1890"),
    ("BET JULIAN 1 JAN 1700 AND 1701", "7.0", date(1700, 1, 11), date(1701, 12, 31),
     Q.BETWEEN, "mixed", "1700"),
    ("JULIAN 1 JAN 1700", "7.0", date(1700, 1, 11), date(1700, 1, 11), Q.EXACT, "julian",
     "1700-01-11"),
    ("@#DJULIAN@ 1 JAN 1700", "5.5.1", date(1700, 1, 11), date(1700, 1, 11), Q.EXACT, "julian",
     "1700-01-11"),
    ("FRENCH_R 1 VEND 1", "7.0", date(1792, 9, 22), date(1792, 9, 22), Q.EXACT, "french_r",
     "1792-09-22"),
    # iso() names the Gregorian month where a French/Hebrew month begins.
    ("@#DFRENCH R@ VEND 1", "5.5.1", date(1792, 9, 22), date(1792, 10, 21), Q.EXACT, "french_r",
     "1792-09"),
    ("HEBREW 1 TSH 5000", "7.0", date(1239, 9, 8), date(1239, 9, 8), Q.EXACT, "hebrew",
     "1239-09-08"),
    ("@#DHEBREW@ 1 TSH 5000", "5.5.1", date(1239, 9, 8), date(1239, 9, 8), Q.EXACT, "hebrew",
     "1239-09-08"),
    ("1699/00", "5.5.1", date(1699, 1, 1), date(1700, 12, 31), Q.EXACT, "gregorian", "1699"),
    ("ABT 8 JAN 1731/32", "5.5.1", date(1731, 1, 8), date(1732, 1, 8), Q.ABOUT, "gregorian",
     "1731-01-08"),
    ("INT 1850 (from the census)", "5.5.1", date(1850, 1, 1), date(1850, 12, 31), Q.EXACT,
     "gregorian", "1850"),
]


@pytest.mark.parametrize(("value", "version", "lo", "hi", "qual", "cal", "iso"), HAND)
def test_hand_checked(value: str, version: str, lo: date | None, hi: date | None, qual: Q,
                      cal: str, iso: str) -> None:
    r = parse_gedcom_date(value, version)  # type: ignore[arg-type]
    assert r.ok and r.status == "ok" and r.date is not None, r
    g = r.date
    assert (g.earliest, g.latest, g.qualifier, g.calendar, g.iso()) == (lo, hi, qual, cal, iso)
    assert g.original == value


def test_bce_dates_use_astronomical_years() -> None:
    g = parse_gedcom_date("12 AUG 1401 BCE", "7.0").date
    assert g is not None and g.earliest_bce and g.latest_bce
    assert g.iso() == "-1400-08-12" and g.years() == (-1400, -1400)
    assert parse_gedcom_date("12 AUG 1401 B.C.", "5.5.1").date == g.model_copy(
        update={"original": "12 AUG 1401 B.C."})
    span = parse_gedcom_date("FROM 730 BCE TO 1066", "7.0").date
    assert span is not None and span.years() == (-729, 1066)
    assert span.overlaps(GenDate.from_parts(1000)) and not g.overlaps(GenDate.from_parts(1000))
    assert parse_gedcom_date("BET 1950 AND 302 BCE", "7.0").status == "invalid"


def test_phrases() -> None:
    r = parse_gedcom_date("(THIS IS SOME TEXT)", "5.5.1")
    assert r.status == "phrase" and r.date is not None and r.date.phrase == "THIS IS SOME TEXT"
    assert parse_date("(THIS IS SOME TEXT)") is None  # unbounded: no date for prose callers
    g = parse_gedcom_date("INT 23 APR 799 (THIS IS SOME TEXT)", "5.5.1").date
    assert g is not None and g.phrase == "THIS IS SOME TEXT" and g.iso() == "0799-04-23"
    assert parse_gedcom_date("INT 799 (text)", "7.0").status == "syntax"


@pytest.mark.parametrize(
    ("value", "version", "status", "words"),
    [
        ("31 NOV 1890", None, "invalid", "day 31"),
        ("29 FEB 1900", None, "invalid", "day 29"),
        ("29 FEB 1900", "7.0", "invalid", "day 29"),
        ("JULIAN 29 FEB 1900", "7.0", "ok", ""),  # 1900 is a Julian leap year
        ("BET 1900 AND 1800", None, "invalid", "reversed"),
        ("FROM 1910 TO 1900", "5.5.1", "invalid", "reversed"),
        ("1701/99", "5.5.1", "invalid", "year after"),
        ("1731/32", "7.0", "syntax", "PHRASE"),
        ("1751/2", "5.5.1", "syntax", "two digits"),
        ("JULIAN 1731/32", None, "invalid", "Gregorian"),
        ("@#DJULIAN@ 1700", "7.0", "syntax", "5.5.1"),
        ("1401 B.C.", "7.0", "syntax", "B.C."),
        ("HEBREW 1 ADS 5001", "7.0", "invalid", "leap"),
        ("FRENCH_R 6 COMP 2", "7.0", "invalid", "day 6"),
        ("FRENCH_R 6 COMP 3", "7.0", "ok", ""),  # an III was a sextile year
        ("HEBREW 1 JAN 5000", "7.0", "invalid", "gregorian calendar"),
        ("_ROMAN 28", "7.0", "unsupported", "_ROMAN"),
        ("@#DROMAN@ 28", "5.5.1", "unsupported", "reserved"),
        ("12 _MONTH 1890", "7.0", "unsupported", "_MONTH"),
        ("ABOUT 1850", "7.0", "syntax", "ABOUT"),
        ("BET 1850", "7.0", "syntax", "AND"),
        ("0 MAY 1890", "7.0", "invalid", "day 0"),
        ("MAY 0", "7.0", "invalid", "year 0"),
        ("12 MAY 12345", "7.0", "syntax", "four digits"),
        ("INT 1850", "5.5.1", "syntax", "phrase"),
    ],
)
def test_reported_with_reason(value: str, version: str | None, status: str, words: str) -> None:
    r = parse_gedcom_date(value, version)  # type: ignore[arg-type]
    assert r.status == status, r
    if status == "ok":
        assert r.date is not None and not r.error
    else:
        assert r.date is None and words.lower() in r.error.lower(), r.error


def _scorer() -> ModuleType:  # the benchmark's conformance oracle (token rules, not ours)
    bench = str(REPO / "benchmarks")
    if bench not in sys.path:
        sys.path.insert(0, bench)
    return importlib.import_module("extraction_sets.gedcom_dates")


def test_dual_year_files() -> None:
    base = shared_path("gedcom", "gedcom7code")
    mod = _scorer()
    valid = [d for _, d, _ in mod.read_values(base / "5" / "date-dual-valid.ged")]
    invalid = [d for _, d, _ in mod.read_values(base / "5" / "date-dual-invalid.ged")]
    converted = mod.read_values(base / "7" / "date-dual-invalid.ged")
    assert len(valid) == 11 and len(invalid) == 84 and len(converted) == 84
    assert all(parse_gedcom_date(d, "5.5.1").status == "ok" for d in valid)
    assert all(parse_gedcom_date(d, "5.5.1").status in ("invalid", "syntax") for d in invalid)
    for _, d, phrase in converted:
        assert parse_gedcom_date(d, "7.0").status == "ok", d
        assert parse_gedcom_date(phrase, "7.0").status == "syntax", phrase


def test_conformance_files_fully_agree() -> None:
    """Every valid date parses right, every invalid/extension one is reported (see scorer)."""
    rows = {r.field: r for r in _scorer().score(shared_path("gedcom").parent)}
    valid, invalid, ext = (rows["valid dates parsed"], rows["invalid dates reported"],
                           rows["extension calendars reported"])
    assert valid.tp > 2000 and invalid.tp > 3000 and ext.tp > 1000
    assert valid.recall == 1.0 and valid.precision == 1.0
    assert invalid.recall == 1.0 and invalid.precision == 1.0 and ext.recall == 1.0


def test_pathological_input_is_fast() -> None:
    junk = [
        "x" * 50_000_000, "(" * 10_000 + ")" * 10_000, "\x00\xff\x01" * 50,
        "BET 1900 AND 1800", "BET " * 60, "1/" * 100, "@#D" * 80, "\ud800 1890",
    ]
    t0 = time.perf_counter()
    for s in junk:
        assert parse_date(s) is None
        r = parse_date_checked(s)
        assert r.date is None and r.error
        assert parse_gedcom_date(s, "7.0").error
    assert time.perf_counter() - t0 < 10  # a hang guard, not a speed target (benchmarks/dates.py)
