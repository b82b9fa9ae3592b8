"""FreeREG1 CSV rows against an independent reading of each row's own columns.

The oracle (the benchmark scorer's, `benchmarks/extraction_sets/freereg.py`) reads every file
with the `csv` module and maps columns to facts by the FreeREG1 layout (MyopicVicar
`freereg_csv_processor.rb`); it shares no code with the extractor beyond `parse_date`.
Every data row of every shipped file must yield exactly its facts.
"""

from __future__ import annotations

import sys
from collections import Counter, defaultdict
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared_data import shared_path
from sleuth.extract.dates import parse_date
from sleuth.extract.records import freecen, freereg
from sleuth.model.records import Candidate, Snapshot
from sleuth.sources import load_file
from sleuth.text import vld_text
from sleuth.verify import Source, check_candidates

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from extraction_sets import freereg as scorer

FILES = {
    "freereg1_csvs__Chd__HRTCALBA.csv": ("BA", 186),
    "freereg1_csvs__Chd__HRTCALBU.csv": ("BU", 125),
    "freereg1_csvs__Chd__HRTCALMA.csv": ("MA", 45),
    "freereg1_csvs__Devonian__DEVLANBU.CSV": ("BU", 128),
    "freereg1_csvs__kirkbedfordshire__BDFYIEBA.CSV": ("BA", 1223),
    "freereg1_csvs__kirkbedfordshire__BDFYIEBU.CSV": ("BU", 972),
    "freereg1_csvs__kirkbedfordshire__BDFYIEMA.CSV": ("MA", 275),
}
Fact = scorer.Fact  # subject name, field, value, related name
# The oracle is the benchmark's: a plain column-by-column reading of each row with the csv
# module, independent of the extractor under test.
_oracle, _rows = scorer.oracle, scorer.rows


def _extract(path: Path) -> tuple[Snapshot, list[Candidate]]:
    snap = load_file(path).snapshot
    assert freereg.detect(snap, None)
    return snap, freereg.extract(snap, None)


@pytest.mark.parametrize("name", sorted(FILES))
def test_every_row_yields_exactly_its_facts(name: str) -> None:
    kind, n_rows = FILES[name]
    path = shared_path("text", "freeukgen", name)
    rows = _rows(path)
    assert len(rows) == n_rows
    snap, cands = _extract(path)
    by_row: dict[str, set[Fact]] = defaultdict(set)
    hypotheses: Counter[str] = Counter()
    for c in cands:
        assert c.citation is not None
        line = c.citation.excerpt
        if not c.is_fact:
            assert c.field == "birth_date" and c.method == "inference" and c.confidence <= 0.6
            hypotheses[line] += 1
            continue
        by_row[line].add((c.subject_name or "", c.field, c.value, c.related_name))
    for line, cells in rows:
        assert by_row.get(line, set()) == _oracle(kind, cells), line
    # Ages are only turned into birth ranges, never into facts about a birth date.
    age_cols = {"BA": (), "BU": (11,), "MA": (7, 14)}[kind]
    for line, cells in rows:
        if hypotheses[line]:
            assert any(cells[i] for i in age_cols), line
    # The firewall accepts every excerpt; no hypothesis passes as a fact.
    report = check_candidates(cands, {snap.id: Source.of(snap.text, None)})
    assert not report.rejected, report.rejected[:3]


def test_counts_per_record_type() -> None:
    fields: Counter[tuple[str, str]] = Counter()
    for name, (kind, _) in FILES.items():
        _, cands = _extract(shared_path("text", "freeukgen", name))
        fields.update((kind, c.field) for c in cands if c.is_fact)
    # One event date per entry (marriages: one for each spouse); one unnamed burial is skipped.
    assert fields["BA", "baptism_date"] == 186 + 1223
    assert fields["BU", "burial_date"] == 125 + 128 + 972 - 1
    assert fields["MA", "marriage_date"] == 2 * (45 + 275) - 6  # six entries name one spouse only
    # 19 entries have a surname but no parent's forename: they name no parent
    assert fields["BA", "parent"] == 366 + 2313 - 19
    assert fields["BU", "spouse"] == 7 + 10 + 155
    assert fields["MA", "witness"] == 52 + 7


def test_dual_dates_and_ages() -> None:
    path = shared_path("text", "freeukgen", "freereg1_csvs__Chd__HRTCALBU.csv")
    _, cands = _extract(path)
    blann = [c for c in cands if c.field == "burial_date" and "1726/7" in c.citation.excerpt]
    assert blann and blann[0].value == "1726-01-16" and blann[0].is_fact
    born = [c for c in cands if c.field == "birth_date" and not c.is_fact]
    assert born and all(c.date and c.date.qualifier == "calculated" for c in born)
    g = freereg.age_birth_range("66y5m", parse_date("10 Jun 1900"))
    assert g is not None and str(g.earliest) == "1833-12-11" and str(g.latest) == "1834-01-10"
    g = freereg.age_birth_range("72", parse_date("5 May 1800"))
    assert g is not None and (str(g.earliest), str(g.latest)) == ("1727-05-06", "1728-05-05")
    assert freereg.age_birth_range("of age", parse_date("5 May 1800")) is None


def _snap(text: str) -> Snapshot:
    return Snapshot(sha256="0" * 64, source_name="test", text=text)


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=400))
def test_junk_never_crashes(junk: str) -> None:
    for text in (junk, "+INFO,x,password,SEQUENCED,BURIALS\n" + junk):
        snap = _snap(text)
        cands = freereg.extract(snap)
        report = check_candidates(cands, {snap.id: Source.of(text, None)})
        assert not report.rejected


def test_not_freereg_is_empty() -> None:
    assert freereg.extract(_snap("name,date\nJohn,1850\n")) == []
    assert not freereg.detect(_snap("+INFO but not really"), None)


# -- FreeCEN1 VLD (fixed-width census) ---------------------------------------------------------


def _vld() -> tuple[Snapshot, list[Candidate], bytes]:
    path = shared_path("text", "freeukgen", "freecen1_vlds__DUR__RG093730.VLD")
    raw = path.read_bytes()
    snap = Snapshot(sha256="0" * 64, source_name="test", path=str(path),
                    text=vld_text(raw), metadata={"filename": path.name})
    return snap, freecen.extract(snap, raw), raw


def test_freecen_every_person_against_the_layout() -> None:
    snap, cands, raw = _vld()
    assert freecen.census_year("RG093730.VLD") == 1861  # RG 9 is the 1861 piece series
    assert len(raw) % 299 == 0
    records = [raw[i:i + 299].decode("iso-8859-1") for i in range(0, len(raw), 299)]
    people = [r for r in records if r[0] != "D" and r[87] in "- "]
    names = [c for c in cands if c.field == "name"]
    assert len(people) == 3024 and len(names) == len(people)
    for r, c in zip(people, names, strict=True):  # independent slicing of the same columns
        parts = (r[112:136].strip(), r[88:112].strip())  # "-" is the layout's empty default
        assert c.value == " ".join(p for p in parts if p not in ("", "-"))
    first = {c.field: c.value for c in cands if c.subject == "p1" and c.is_fact and not c.related}
    assert first == {"name": "Mary FENWICK", "sex": "F", "occupation": "House Keeper",
                     "birth_place": "Lanchester", "residence": "Moor Pit, Kyo"}
    john = [c for c in cands if c.subject == "p2" and c.field == "parent"]
    assert [c.related_name for c in john] == ["Mary FENWICK"]
    born = next(c for c in cands if c.subject == "p1" and c.field == "birth_date")
    assert not born.is_fact and born.date and born.date.earliest.year == 1791
    report = check_candidates(cands, {snap.id: Source.of(snap.text, None)})
    assert not report.rejected, report.rejected[:3]


def test_freecen_detect_refuses_other_files() -> None:
    dat = shared_path("text", "freeukgen", "freecen1_dats__1891__DURPARMS.DAT")
    assert not freecen.detect(_snap(dat.read_bytes().decode("iso-8859-1")), None)
    assert freecen.extract(_snap("x" * 299), None) == []
