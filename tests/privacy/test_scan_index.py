"""The PII scanner in one pass per text (issue 19: `privacy report` was quadratic): it must
find exactly what one regex per living person and per pattern over the whole text found,
on real outputs - JSON with its repeated strings, a GEDCOM file, a report."""

from __future__ import annotations

import json
import re
from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared_data import shared_path
from sleuth.model.graph import CaseGraph
from sleuth.privacy import censor, scan
from sleuth.privacy.pii import SCAN_PATTERNS
from sleuth.privacy.scan import (
    BirthDays,
    Finding,
    _blocks,
    _decade_bound,
    first_places,
    scan_text,
)
from sleuth.privacy.written_dates import DayIndex, exact_date_pattern


def _reference(text: str, owners: list[str], days: list[date]) -> list[Finding]:
    """The scanner as it was: every pattern over the whole text, one regex per person."""
    found: list[Finding] = []
    for kind, patterns in SCAN_PATTERNS.items():
        spans: set[tuple[int, int]] = set()
        for p in patterns:
            spans.update(m.span() for m in p.finditer(text))
        found += [Finding("t", kind, a, b) for a, b in sorted(spans)]
    for pid, day in zip(owners, days, strict=True):
        found += [Finding("t", "living_birth_date", *m.span(), person_id=pid)
                  for m in exact_date_pattern(day).finditer(text)
                  if not _decade_bound(text, *m.span())]
    return found


def _births_in(text: str, n: int) -> list[date]:
    """Days the text writes, to look for (as if their persons were living)."""
    days = sorted({date(int(y), int(m), int(d)) for y, m, d in
                   re.findall(r"(1[89]\d\d)-(\d\d)-(\d\d)", text)})
    return [*days[:: max(1, len(days) // n)][:n], date(1917, 5, 29)]


def test_a_decade_bound_is_nobodys_birth_day() -> None:
    """A living man born 31 December 1939 is shown born in the 1930s; the JSON of that
    decade ends "1939-12-31" for everyone of it, which is no leak (royal92: 150 false
    alarms in `sleuth show`). His day written anywhere else is still found."""
    births = BirthDays(["glen"], DayIndex([date(1939, 12, 31)]))
    shown = '{"birth":{"earliest":"1930-01-01","latest":"1939-12-31","qualifier":"estimated"}}'
    assert scan_text(shown, "show", births=births) == []
    for leak in ('{"birth":"1939-12-31"}', "born 31 December 1939", '{"earliest":"1939-12-31"}'):
        assert [f.kind for f in scan_text(leak, "t", births=births)] == ["living_birth_date"]


def test_whole_months_are_nobodys_birth_day() -> None:
    """A living man born 1 June 1898 beside the dead of June 1898, of 1898 and of "BET
    1898 AND 1900" (as `sleuth show` writes their dates: 2,761 false alarms at 100,000
    persons). A bound of a shorter range, or his day written any other way, is found."""
    births = BirthDays(["jose"], DayIndex([date(1898, 6, 1)]))
    for shown in ('{"date":{"earliest":"1898-06-01","latest":"1898-06-30","x":1}}',
                  '{"date":{"earliest":"1898-01-01","latest":"1898-12-31"}}',
                  '{"date":{"earliest":"1898-06-01","latest":"1900-12-31"}}'):
        assert scan_text(shown, "show", births=births) == [], shown
    late = BirthDays(["jo"], DayIndex([date(1898, 6, 30)]))
    month = '{"earliest":"1898-06-01","latest":"1898-06-30"}'
    assert scan_text(month, "show", births=late) == []
    for leak in ('{"earliest":"1898-06-01","latest":"1898-06-02"}',
                 '{"earliest":"1898-06-01","latest":"1898-07-30"}',
                 '{"earliest":"1898-06-01","latest":"1898-06-01"}',
                 '{"earliest":"1898-06-01"}', '{"birth":"1898-06-01"}', "born 1 June 1898"):
        kinds = [f.kind for f in scan_text(leak, "t", births=births)]
        assert kinds and set(kinds) == {"living_birth_date"}, leak


@pytest.mark.parametrize("whole", [True, False])
def test_scan_finds_what_one_regex_per_person_found(
        family: CaseGraph, whole: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Also with texts split a few characters at a time (`_blocks`), as a 100,000-person
    output is: its stretches and their places must be the same."""
    if not whole:
        monkeypatch.setattr(scan, "_WHOLE", 0)
        monkeypatch.setattr(scan, "_BLOCK", 97)
    ged = shared_path("gedcom", "samples", "kennedy.ged").read_text(encoding="utf-8")
    graph = censor(family)
    texts = {
        "gedcom": ged + "\n1 NOTE call 555-123-4567 or mail jo@example.com; SSN 123-45-6789",
        "json": json.dumps(graph.model_dump(mode="json")) + json.dumps(
            {"a": "born 29 May 1917", "b": "1917-05-29", "c": ['x"555-123-4567"y', "@"]}),
        "report": "\n".join(f"- {p.canonical_name}: {p.birth.iso() if p.birth else ''} "
                            f"\"quoted\" 5/29/17" for p in graph.persons),
    }
    for name, text in texts.items():
        days = _births_in(json.dumps(graph.model_dump(mode="json")), 12)
        owners = [f"p{i}" for i in range(len(days))]
        births = BirthDays(owners, DayIndex(days))
        got = scan_text(text, "t", births=births)
        assert got == _reference(text, owners, days), name
        assert any(f.kind == "living_birth_date" for f in got) or name == "gedcom"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet='ab"1', max_size=80), st.integers(1, 9))
def test_blocks_are_the_split_of_the_whole_text(text: str, block: int) -> None:
    old, scan._BLOCK = scan._BLOCK, block
    try:
        got = list(_blocks(text))
    finally:
        scan._BLOCK = old
    parts = text.split('"')
    assert [p for _, ps in got for p in ps] == parts
    starts = [base + sum(len(p) + 1 for p in ps[:i]) for base, ps in got for i in range(len(ps))]
    assert starts == [sum(len(p) + 1 for p in parts[:i]) for i in range(len(parts))]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab1@", max_size=120),
       st.lists(st.text(alphabet="ab1@", min_size=2, max_size=6), min_size=1, max_size=12))
def test_first_places_are_those_str_find_gives(text: str, values: list[str]) -> None:
    vals = set(values) | {text[i:i + 3] for i in range(0, len(text) - 3, 17)}
    vals = {v for v in vals if len(v) >= 2}
    expected = {v: text.find(v) for v in vals if text.find(v) >= 0}
    assert first_places(text, vals) == expected


def test_known_stretches_are_left_to_the_proof_that_scanned_them() -> None:
    """An output's quoted strings that are the view's own (proved with the view) are not
    scanned again; the same characters anywhere else, or a string the exporter composed
    around them, still are."""
    births = BirthDays(["ann"], DayIndex([date(1990, 5, 12)]))
    known = {"write to ann@example.org", "born 12 May 1990"}
    text = json.dumps({"a": "write to ann@example.org", "b": "born 12 May 1990",
                       "c": "note: born 12 May 1990", "d": ["ann@example.org"]})
    kinds = [f.kind for f in scan_text(text, "t", births=births, known=known)]
    assert sorted(kinds) == ["email", "living_birth_date"]
    assert len(scan_text(text, "t", births=births)) == 4
    whole = "born 12 May 1990"  # a text with no quote is one stretch: known, or scanned
    assert scan_text(whole, "t", births=births, known=known) == []
    assert len(scan_text(whole, "t", births=births)) == 1
