"""Date parser table tests: every supported form, the qualifiers, and what must be refused."""

from __future__ import annotations

from datetime import date

import pytest

from sleuth.extract import parse_date
from sleuth.model.dates import DateQualifier, GenDate

Q = DateQualifier

CASES = [
    ("May 12, 1890", date(1890, 5, 12), date(1890, 5, 12), Q.EXACT, "1890-05-12"),
    ("12 May 1890", date(1890, 5, 12), date(1890, 5, 12), Q.EXACT, "1890-05-12"),
    ("12th of May, 1890", date(1890, 5, 12), date(1890, 5, 12), Q.EXACT, "1890-05-12"),
    ("May, 1890", date(1890, 5, 1), date(1890, 5, 31), Q.EXACT, "1890-05"),
    ("Feb 1900", date(1900, 2, 1), date(1900, 2, 28), Q.EXACT, "1900-02"),
    ("1890", date(1890, 1, 1), date(1890, 12, 31), Q.EXACT, "1890"),
    ("Sept. 3, 1915", date(1915, 9, 3), date(1915, 9, 3), Q.EXACT, "1915-09-03"),
    ("Jan 3 1916", date(1916, 1, 3), date(1916, 1, 3), Q.EXACT, "1916-01-03"),
    ("12 MAY 1890", date(1890, 5, 12), date(1890, 5, 12), Q.EXACT, "1890-05-12"),
    ("abt 1850", date(1850, 1, 1), date(1850, 12, 31), Q.ABOUT, "1850"),
    ("about 1850", date(1850, 1, 1), date(1850, 12, 31), Q.ABOUT, "1850"),
    ("circa 1850", date(1850, 1, 1), date(1850, 12, 31), Q.ABOUT, "1850"),
    ("c. 1850", date(1850, 1, 1), date(1850, 12, 31), Q.ABOUT, "1850"),
    ("ABT 1850", date(1850, 1, 1), date(1850, 12, 31), Q.ABOUT, "1850"),
    ("EST 1850", date(1850, 1, 1), date(1850, 12, 31), Q.ESTIMATED, "1850"),
    ("CAL 1850", date(1850, 1, 1), date(1850, 12, 31), Q.CALCULATED, "1850"),
    ("bef 1900", None, date(1900, 1, 1), Q.BEFORE, "1900"),
    ("before 1900", None, date(1900, 1, 1), Q.BEFORE, "1900"),
    ("aft 1900", date(1900, 12, 31), None, Q.AFTER, "1900"),
    ("after 3 Mar 1900", date(1900, 3, 3), None, Q.AFTER, "1900-03-03"),
    ("bet 1840 and 1845", date(1840, 1, 1), date(1845, 12, 31), Q.BETWEEN, "1840"),
    ("between 1840 and 1845", date(1840, 1, 1), date(1845, 12, 31), Q.BETWEEN, "1840"),
    ("BET 1840 AND 1845", date(1840, 1, 1), date(1845, 12, 31), Q.BETWEEN, "1840"),
    ("FROM 1900 TO 1910", date(1900, 1, 1), date(1910, 12, 31), Q.PERIOD, "1900"),
    ("1731/32", date(1731, 1, 1), date(1732, 12, 31), Q.EXACT, "1731"),
    ("1700/1", date(1700, 1, 1), date(1701, 12, 31), Q.EXACT, "1700"),
    ("12 Feb 1731/32", date(1731, 2, 12), date(1732, 2, 12), Q.EXACT, "1731-02-12"),
    ("12 maj 1890", date(1890, 5, 12), date(1890, 5, 12), Q.EXACT, "1890-05-12"),
    ("3 oktober 1801", date(1801, 10, 3), date(1801, 10, 3), Q.EXACT, "1801-10-03"),
    ("3 janvier 1770", date(1770, 1, 3), date(1770, 1, 3), Q.EXACT, "1770-01-03"),
    ("1er août 1789", date(1789, 8, 1), date(1789, 8, 1), Q.EXACT, "1789-08-01"),
    ("1890-05-12", date(1890, 5, 12), date(1890, 5, 12), Q.EXACT, "1890-05-12"),
    ("INT 1850 (from the census)", date(1850, 1, 1), date(1850, 12, 31), Q.EXACT, "1850"),
]


@pytest.mark.parametrize(("text", "lo", "hi", "qual", "iso"), CASES)
def test_parse_date_table(text: str, lo: date | None, hi: date | None, qual: Q, iso: str) -> None:
    g = parse_date(text)
    assert g is not None, text
    assert (g.earliest, g.latest, g.qualifier, g.iso()) == (lo, hi, qual, iso)
    assert g.original == text


@pytest.mark.parametrize(
    "text",
    ["Feb 30, 1890", "31 April 1900", "BET 1900 AND 1800", "FROM 1910 TO 1900", "hello",
     "", "   ", "12", "Jan. 3", "yesterday", "1731/35", "May 1890 and then some", "(phrase)",
     "13/13/1890", "\x00\x01", "9" * 200, "abt", "0 May 1890", "32 May 1890"],
)
def test_parse_date_refuses(text: str) -> None:
    assert parse_date(text) is None


def test_gedcom_calendar_escape() -> None:
    # Julian 1 Jan 1700 was Gregorian 11 Jan 1700: bounds are Gregorian, the text is kept.
    g = parse_date("@#DJULIAN@ 1 JAN 1700")
    assert g is not None and g.calendar == "julian" and g.iso() == "1700-01-11"
    assert g.original == "@#DJULIAN@ 1 JAN 1700"
    h = parse_date("@#DHEBREW@ 1 TSH 5000")
    assert h is not None and h.calendar == "hebrew" and h.iso() == "1239-09-08"


REF = GenDate.from_parts(1916, 1, 6)  # a Thursday


@pytest.mark.parametrize(
    ("text", "lo", "hi"),
    [
        ("yesterday", date(1916, 1, 5), date(1916, 1, 5)),
        ("Thursday last", date(1915, 12, 30), date(1915, 12, 30)),
        ("last Monday", date(1916, 1, 3), date(1916, 1, 3)),
        ("last week", date(1915, 12, 24), date(1916, 1, 5)),
        ("12th inst.", date(1916, 1, 12), date(1916, 1, 12)),
        ("3d ult.", date(1915, 12, 3), date(1915, 12, 3)),
        ("Jan. 3", date(1916, 1, 3), date(1916, 1, 3)),
        ("Dec. 30", date(1915, 12, 30), date(1915, 12, 30)),
    ],
)
def test_relative_dates_need_reference(text: str, lo: date, hi: date) -> None:
    assert parse_date(text) is None  # never invent a year
    g = parse_date(text, reference=REF)
    assert g is not None and (g.earliest, g.latest) == (lo, hi)


def test_relative_needs_day_precision_reference() -> None:
    assert parse_date("yesterday", reference=GenDate.from_parts(1916)) is None
