"""Every shared GEDCOM imports; counts match the file; bad input names its line; GEDZIP."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest
from sqlalchemy import func, select

from shared_data import shared_path
from sleuth.gedcom import parse_gedcom
from sleuth.model import EvidenceType, InputError
from sleuth.pipeline.ingest import extract_for, ingest_path
from sleuth.sources import load_file
from sleuth.store import Store
from sleuth.store import schema as t
from sleuth.verify import Source, check_candidates

# A record line as a byte-level count would see it: "0 @X1@ INDI" at the start of a line.
_RECORD = re.compile(r"(?:^|[\r\n])[ \t]*0[ \t]+(?:@[^@]+@[ \t]+)?(INDI|FAM|SOUR)\b")


def _shared_files() -> list[Path]:
    return sorted(shared_path("gedcom").rglob("*.ged"))


def test_every_shared_file_extracts_and_its_record_counts_match():
    for path in _shared_files():
        loaded = load_file(path)
        text = loaded.snapshot.text
        ged = parse_gedcom(text, file=str(path))
        for tag in ("INDI", "FAM", "SOUR"):
            expected = sum(1 for m in _RECORD.finditer(text) if m.group(1) == tag)
            assert len(ged.of_tag(tag)) == expected, (path.name, tag)
        cands = extract_for(loaded.snapshot, loaded.raw)
        report = check_candidates(cands, {loaded.snapshot.id: Source.of(text, None)})
        # BCE years and converted (French, Hebrew, Julian) dates included
        rejected = [c for c, _ in report.rejected]
        assert rejected == [], (path.name, [(c.field, c.value) for c in rejected[:3]])
        assert all(c.evidence_type == EvidenceType.SECONDARY for c in cands)


def test_pres2020_citations_are_carried_in_the_rationale():
    loaded = load_file(shared_path("gedcom", "samples", "pres2020.ged"))
    cands = [c for c in extract_for(loaded.snapshot, loaded.raw) if c.subject == "@I10@"]
    birth = next(c for c in cands if c.field == "birth_date")
    assert 'S1 "U.S., Find A Grave Index, 1600s-Current"' in birth.rationale
    assert "TEXT Record for Simpson Green Ayers" in birth.rationale
    assert "2 SOUR @S1@" in birth.citation.excerpt  # the tree's citation lines are quoted too


def test_a_tree_labelled_primary_stays_secondary():
    loaded = load_file(shared_path("gedcom", "samples", "bronte.ged"),
                       evidence_type=EvidenceType.PRIMARY)
    cands = extract_for(loaded.snapshot, loaded.raw)
    assert cands and {c.evidence_type for c in cands} == {EvidenceType.SECONDARY}


def test_custom_and_rarer_events_become_facts():
    loaded = load_file(shared_path("gedcom", "torture", "TGC55CLF.ged"))
    fields = {c.field for c in extract_for(loaded.snapshot, loaded.raw)}
    assert {"emigration_date", "census_place", "probate_place", "naturalization_place",
            "marriage_banns_date", "divorce_filed_place"} <= fields
    loaded = load_file(shared_path("gedcom", "samples", "kennedy.ged"))
    fields = {c.field for c in extract_for(loaded.snapshot, loaded.raw)}
    assert {"divorce_date", "engagement_date", "residence"} <= fields


def test_a_broken_file_fails_with_its_line(store: Store, tmp_path: Path):
    bad = tmp_path / "bad.ged"
    bad.write_text("Surname,Given\nSmith,John\n", encoding="utf-8")
    with pytest.raises(InputError) as exc:
        ingest_path(store, bad)
    assert exc.value.line == 1 and exc.value.file
    text = shared_path("gedcom", "samples", "bronte.ged").read_text(encoding="utf-8")
    lines = text.splitlines()
    lines.insert(20, "this line is garbage")
    ged = parse_gedcom("\n".join(lines))
    assert ged.problems[0][0] == 21 and "not a GEDCOM line" in ged.problems[0][1]


def test_gedzip_imports_its_gedcom_and_lists_its_media(store: Store, tmp_path: Path):
    archive = tmp_path / "family.gdz"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.write(shared_path("gedcom", "gedcom70", "maximal70.ged"), "gedcom.ged")
        zf.writestr("media/photo.jpg", b"\xff\xd8\xff\xe0 not really a jpeg")
    loaded = load_file(archive)
    assert loaded.snapshot.metadata["container"] == "gedzip"
    assert loaded.snapshot.metadata["media_files"] == ["media/photo.jpg"]
    assert loaded.snapshot.text.startswith("0 HEAD")
    result = ingest_path(store, archive)
    assert result.report is not None and result.report.promoted > 10
    empty = tmp_path / "empty.gdz"
    with zipfile.ZipFile(empty, "w") as zf:
        zf.writestr("other.txt", "x")
    with pytest.raises(InputError, match=r"no gedcom\.ged"):
        load_file(empty)


def test_bulk_ingest_keeps_every_row_and_rolls_back_refused_links(store: Store, tmp_path: Path):
    """Three parents for one child: the third link is refused, its assertion, citation and
    audit entry vanish with the savepoint, and everything else is written exactly once."""
    ged = tmp_path / "three-parents.ged"
    ged.write_text(
        "0 HEAD\n1 GEDC\n2 VERS 5.5.1\n1 CHAR UTF-8\n"
        "0 @I1@ INDI\n1 NAME Ann /Lee/\n0 @I2@ INDI\n1 NAME Bob /Lee/\n"
        "0 @I3@ INDI\n1 NAME Cy /Ray/\n0 @I4@ INDI\n1 NAME Dee /Lee/\n1 BIRT\n2 DATE 1900\n"
        "0 @F1@ FAM\n1 HUSB @I2@\n1 WIFE @I1@\n1 CHIL @I4@\n"
        "0 @F2@ FAM\n1 HUSB @I3@\n1 CHIL @I4@\n0 TRLR\n",
        encoding="utf-8",
    )
    report = ingest_path(store, ged).report
    assert report is not None and report.review == 1
    with store.engine.connect() as conn:
        def n(q):
            return conn.execute(q).scalar_one()

        assertions = n(select(func.count()).select_from(t.assertions))
        assert n(select(func.count()).select_from(t.citations)) == assertions
        added = select(func.count()).where(t.audit_log.c.action_type == "assertion_added")
        assert n(added) == assertions == report.promoted
        decisions = n(select(func.count()).select_from(t.decisions))
        assert decisions == 2 * report.promoted + report.review
        assert n(select(func.count()).select_from(t.persons)) == 4
    assert ingest_path(store, ged).already_stored  # resume: no duplicates
