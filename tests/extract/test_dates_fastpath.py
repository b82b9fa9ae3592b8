"""The fast paths for common date shapes give exactly what the general path gives."""

from __future__ import annotations

import importlib
import sys
from datetime import date
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sleuth.extract.dates as D
from shared_data import shared_path
from sleuth.extract.gedcom_date import construct
from sleuth.model.dates import DateQualifier, GenDate

REF = GenDate.from_parts(1916, 1, 20)


def _both(text: str, reference: GenDate | None = None) -> tuple[D.DateParse, D.DateParse]:
    fast = D.parse_date_checked(text, reference=reference)
    with mock.patch.object(D, "_fast", lambda *_: None):
        slow = D.parse_date_checked(text, reference=reference)
    return fast, slow


@pytest.mark.parametrize("text", [
    "1850", "12 MAY 1850", "MAY 1850", "ABT 1850", "abt 1850", "Bef 1 Jan 1850", "AFT DEC 1850",
    "EST 1850", "CAL 3 MAR 1901", "May 12, 1890", "Sept. 3, 1901", "12th May, 1890",
    "29 FEB 2000", "29 FEB 1900", "31 NOV 1890", "31 June 1890", "Feb. 29, 1900", "12 1850",
    "ABT FOO 1850", "Octobers 3, 1890", "12 mai 1770", "juni 1890", "1J16", "0850",
])
def test_fast_equals_general(text: str) -> None:
    fast, slow = _both(text)
    assert fast == slow
    if text in ("29 FEB 1900", "31 NOV 1890", "Feb. 29, 1900", "1J16"):
        assert fast.date is None and fast.error  # impossible days are refused, with a reason


@pytest.mark.parametrize("text", ["yesterday", "last Friday", "Friday last", "3d inst.",
                                  "this morning", "Jan. 3", "last week", "Monday"])
def test_relative_fast_equals_general(text: str) -> None:
    fast, slow = _both(text, REF)
    assert fast == slow
    assert fast.date is not None


@settings(max_examples=300, deadline=None)
@given(
    q=st.sampled_from(["", "ABT ", "abt ", "BEF ", "AFT ", "EST ", "CAL ", "Abt "]),
    d=st.integers(0, 32),
    m=st.sampled_from(["", "JAN", "Feb", "mar", "APR", "May", "jun", "JUL", "AUG", "SEP", "OCT",
                       "NOV", "DEC", "XYZ"]),
    y=st.integers(900, 2100),
)
def test_fast_equals_general_generated(q: str, d: int, m: str, y: int) -> None:
    text = f"{q}{f'{d} ' if d else ''}{f'{m} ' if m else ''}{y}"
    fast, slow = _both(text)
    assert fast == slow


def test_construct_equals_model_construct() -> None:
    kw = {"earliest": date(1850, 1, 1), "latest": date(1850, 12, 31),
          "qualifier": DateQualifier.ABOUT, "precision": "year", "calendar": "gregorian",
          "original": "ABT 1850", "earliest_bce": False, "latest_bce": False, "phrase": ""}
    a = construct(**kw)  # type: ignore[arg-type]
    b = GenDate.model_construct(**kw)
    assert a == b and hash(a) == hash(b)
    assert a.model_dump() == b.model_dump() and a.iso() == b.iso() == "1850"
    assert a.model_copy(update={"phrase": "x"}).phrase == "x"


def test_fast_equals_general_on_benchmark_strings() -> None:
    """Every string of the date benchmark (real GEDCOM and 1916 newspaper dates)."""
    root = shared_path("gedcom").parent
    bench = Path(__file__).resolve().parents[2] / "benchmarks"
    sys.path.insert(0, str(bench))
    try:
        dates_bench = importlib.import_module("dates")
    finally:
        sys.path.remove(str(bench))
    items = dates_bench.collect(root, per_category=10**6)
    assert len(items) > 2000
    hits = 0
    for _, text, _, ref in items:
        r = GenDate.from_parts(ref.year, ref.month, ref.day) if ref else None
        fast, slow = _both(text, r)
        assert fast == slow, text
        hits += D._fast(text.strip(), r) is not None
    assert hits > len(items) * 0.6  # the fast paths do cover the common shapes
