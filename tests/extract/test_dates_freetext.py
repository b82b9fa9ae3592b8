"""Free-text dates (English, Swedish, French), relative phrases, ages and real 1916 OCR."""

from __future__ import annotations

import re
from datetime import date, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared_data import shared_path
from sleuth.extract.dates import (
    DATE_FIND,
    MONTHS,
    PARTIAL_FIND,
    birth_range_from_age,
    parse_date,
    parse_date_checked,
)
from sleuth.model.dates import DateQualifier, GenDate

Q = DateQualifier
REF = GenDate.from_parts(1916, 1, 6)  # a Thursday


@pytest.mark.parametrize(
    ("text", "lo", "hi", "qual"),
    [
        ("Saturday, March 11, 1916", date(1916, 3, 11), date(1916, 3, 11), Q.EXACT),
        ("Jan. 3d, 1890", date(1890, 1, 3), date(1890, 1, 3), Q.EXACT),
        ("January 24th, 1916", date(1916, 1, 24), date(1916, 1, 24), Q.EXACT),
        ("the 12th of May, 1890", date(1890, 5, 12), date(1890, 5, 12), Q.EXACT),
        ("Dec 25th 1890", date(1890, 12, 25), date(1890, 12, 25), Q.EXACT),
        ("12 maj 1890", date(1890, 5, 12), date(1890, 5, 12), Q.EXACT),
        ("3 mars 1770", date(1770, 3, 3), date(1770, 3, 3), Q.EXACT),
        ("12 mar 1770", date(1770, 3, 12), date(1770, 3, 12), Q.EXACT),
        ("le 16 mai 1770", date(1770, 5, 16), date(1770, 5, 16), Q.EXACT),
        ("1er janvier 1800", date(1800, 1, 1), date(1800, 1, 1), Q.EXACT),
        ("lördag 5 augusti 1899", date(1899, 8, 5), date(1899, 8, 5), Q.EXACT),
        ("17 décembre 1805", date(1805, 12, 17), date(1805, 12, 17), Q.EXACT),
        ("12 7ber 1750", date(1750, 9, 12), date(1750, 9, 12), Q.EXACT),
        ("bet. 1840 and 1845", date(1840, 1, 1), date(1845, 12, 31), Q.BETWEEN),
        ("between May 1840 & June 1845", date(1840, 5, 1), date(1845, 6, 30), Q.BETWEEN),
        ("Abt. 1850", date(1850, 1, 1), date(1850, 12, 31), Q.ABOUT),
        ("ca. March 1850", date(1850, 3, 1), date(1850, 3, 31), Q.ABOUT),
        ("before 12 May 1890", None, date(1890, 5, 12), Q.BEFORE),
        ("from 1900 to 1910", date(1900, 1, 1), date(1910, 12, 31), Q.PERIOD),
        ("omkring 1850", date(1850, 1, 1), date(1850, 12, 31), Q.ABOUT),
        ("44 B.C.", date(44, 1, 1), date(44, 12, 31), Q.EXACT),
    ],
)
def test_free_text(text: str, lo: date | None, hi: date | None, qual: Q) -> None:
    g = parse_date(text)
    assert g is not None, parse_date_checked(text)
    assert (g.earliest, g.latest, g.qualifier, g.original) == (lo, hi, qual, text)


def test_bc_free_text_is_flagged() -> None:
    g = parse_date("44 B.C.")
    assert g is not None and g.earliest_bce and g.iso() == "-0043"


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("yesterday", date(1916, 1, 5)),
        ("this morning", date(1916, 1, 6)),
        ("to-day", date(1916, 1, 6)),
        ("on Sunday", date(1916, 1, 2)),
        ("Sunday", date(1916, 1, 2)),
        ("Thursday last", date(1915, 12, 30)),
        ("last Thursday", date(1915, 12, 30)),
        ("Friday morning", date(1915, 12, 31)),
        ("the 12th inst.", date(1916, 1, 12)),
        ("3d ult.", date(1915, 12, 3)),
        ("2d prox.", date(1916, 2, 2)),
        ("Jan. 3d", date(1916, 1, 3)),
        ("Dec. 30", date(1915, 12, 30)),
    ],
)
def test_relative(text: str, day: date) -> None:
    assert parse_date(text) is None  # never invent a year
    assert "document" in parse_date_checked(text).error
    g = parse_date(text, reference=REF)
    assert g is not None and g.earliest == g.latest == day


@pytest.mark.parametrize(
    ("text", "status"),
    [("Feb 30, 1890", "invalid"), ("between 1900 and 1800", "invalid"), ("1890-13-01", "invalid"),
     ("Jan. 33, 1890", "invalid"), ("May 12", "syntax"), ("12/05/1890", "syntax"),
     ("aged 78", "syntax"), ("sometime in 1890", "syntax")],
)
def test_refused_with_reason(text: str, status: str) -> None:
    r = parse_date_checked(text)
    assert r.date is None and r.status == status and r.error


def test_month_table_is_unambiguous() -> None:
    assert MONTHS["mar"] == MONTHS["mars"] == 3 and MONTHS["maj"] == MONTHS["mai"] == 5
    for names, n in (("januari februari mars april maj juni juli augusti september oktober "
                      "november december", 12),
                     ("janvier février mars avril mai juin juillet août septembre octobre "
                      "novembre décembre", 12)):
        assert [MONTHS[w] for w in names.split()] == list(range(1, n + 1))


AT = GenDate.from_parts(1916, 1, 6)


@pytest.mark.parametrize(
    ("age", "lo", "hi"),
    [
        # 1916-01-06 less 78 y 10 m then 27 d = 1837-02-07; less 27 d first = 1837-02-10.
        ("aged 78 years, 10 months and 27 days", date(1837, 2, 7), date(1837, 2, 10)),
        ((78, 10, 27), date(1837, 2, 7), date(1837, 2, 10)),
        ("aged 78", date(1837, 1, 7), date(1838, 1, 6)),
        ("in her 65th year", date(1851, 1, 7), date(1852, 1, 6)),
        ("aged 78 yrs. 10 mos.", date(1837, 2, 7), date(1837, 3, 6)),
        ("aged 3 months", date(1915, 9, 7), date(1915, 10, 6)),
    ],
)
def test_birth_range_from_age(age: str | tuple[int, int, int], lo: date, hi: date) -> None:
    g = birth_range_from_age(age, AT)
    assert g is not None and (g.earliest, g.latest) == (lo, hi)
    assert g.qualifier is Q.CALCULATED


def test_age_needs_a_bounded_date() -> None:
    assert birth_range_from_age("aged 78", GenDate(latest=date(1916, 1, 1))) is None
    assert birth_range_from_age("no age here", AT) is None
    wide = birth_range_from_age("aged 78", GenDate.from_parts(1916))
    assert wide is not None and wide.years() == (1837, 1838)  # a year of death: two years


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_never_raises_and_ranges_are_ordered(s: str) -> None:
    r = parse_date_checked(s, reference=REF)
    assert (r.date is None) == bool(r.error) or r.status == "phrase"
    g = parse_date(s)
    if g is not None:
        assert g.earliest is None or g.latest is None or g.years()[0] <= g.years()[1]


@settings(max_examples=200, deadline=None)
@given(st.dates(min_value=date(1000, 1, 1), max_value=date(2025, 12, 31)),
       st.sampled_from(["{d} {M} {y}", "{M} {d}, {y}", "{m}. {d}th, {y}", "{D}, {M} {d}, {y}",
                        "{d} {M}, {y}", "{y}-{mm}-{dd}"]))
def test_formats_round_trip(day: date, fmt: str) -> None:
    text = fmt.format(d=day.day, M=day.strftime("%B"), m=day.strftime("%b"), y=day.year,
                      D=day.strftime("%A"), mm=f"{day.month:02d}", dd=f"{day.day:02d}")
    g = parse_date(text)
    assert g is not None and g.earliest == g.latest == day, text


def test_real_1916_front_pages() -> None:
    """Every full date the prose finder sees in the 1916 OCR parses (or is reported), and
    every relative phrase resolves against the paper's own date (from the file name)."""
    pages = sorted(shared_path("text", "chronam_1916_front_pages", "pages").glob("*.txt"))
    assert len(pages) >= 50
    full = parsed = rel = rel_ok = 0
    for p in pages:
        text = p.read_text(encoding="utf-8", errors="replace")
        ref_day = datetime.strptime(p.name[:8], "%Y%m%d").date()
        ref = GenDate.from_parts(ref_day.year, ref_day.month, ref_day.day)
        for m in DATE_FIND.finditer(text):
            if re.search(r"[a-z]", m.group(), re.I) and re.search(r"\d{1,2}\D", m.group()):
                full += 1
                r = parse_date_checked(m.group())
                parsed += r.status in ("ok", "invalid")
        for m in PARTIAL_FIND.finditer(text):
            rel += 1
            g = parse_date(m.group(), reference=ref)
            rel_ok += g is not None
            if g is not None and re.search(r"yesterday|last|day$", m.group(), re.I) and not (
                    re.fullmatch(r"to-?day", m.group(), re.I)) and not re.search(
                    r"christmas|xmas|thanksgiving|year", m.group(), re.I):
                # (to-day: the paper's day; a holiday: the nearest, maybe still to come)
                assert g.latest is not None and g.latest < ref_day, (m.group(), p.name)
    assert full > 100 and parsed / full >= 0.98, (parsed, full)
    assert rel > 300 and rel_ok / rel >= 0.95, (rel_ok, rel)
