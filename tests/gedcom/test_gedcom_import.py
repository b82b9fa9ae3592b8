"""A GEDCOM tree as evidence: every fact cited by its own lines, imported into a case."""

from __future__ import annotations

from pathlib import Path

from shared_data import shared_path
from sleuth.extract.records import extract_record
from sleuth.pipeline.ingest import extract_for, ingest_path
from sleuth.sources import load_file
from sleuth.store import Store
from sleuth.store.queries import counts
from sleuth.verify import Source, check_candidates


def _extract(*parts: str):
    loaded = load_file(shared_path("gedcom", *parts))
    cands = extract_for(loaded.snapshot, loaded.raw)
    return loaded.snapshot, cands


def test_every_fact_of_a_real_tree_passes_the_firewall():
    for parts in (("samples", "kennedy.ged"), ("torture", "TGC55C.ged"),
                  ("gedcom70", "maximal70.ged"), ("samples", "washington.ged")):
        snap, cands = _extract(*parts)
        report = check_candidates(cands, {snap.id: Source.of(snap.text, snap.url)})
        assert report.rejected == [], parts  # BCE years ("5 AUG 1100 B.C.") included
        assert all(c.is_fact for c in cands)


def test_jfk_birth_and_death_are_cited_by_their_lines():
    snap, cands = _extract("samples", "kennedy.ged")
    jfk = [c for c in cands if c.subject == "@I104@"]
    by_field = {c.field: c for c in jfk}
    assert by_field["name"].value == "John Fitzgerald KENNEDY"
    birth = by_field["birth_date"]
    assert birth.value == "1917-05-29"
    assert birth.citation is not None
    assert birth.citation.excerpt.startswith("0 @I104@ INDI") or "1 BIRT" in birth.citation.excerpt
    assert "2 DATE 29 MAY 1917" in birth.citation.excerpt
    loc = birth.citation.locator
    assert snap.text[loc.start : loc.end] == birth.citation.excerpt
    assert snap.text.splitlines()[loc.line - 1].strip() == "1 BIRT"
    assert by_field["death_place"].value == "Dallas, , Dallas County, TX, USA"
    parents = sorted(c.related_name for c in jfk if c.field == "parent")
    assert len(parents) == 2 and all("Kennedy" in p or "Fitzgerald" in p for p in parents)


def test_importing_a_tree_keeps_its_people_distinct(store: Store):
    result = ingest_path(store, shared_path("gedcom", "samples", "kennedy.ged"))
    assert result.report is not None and result.report.firewall_rejected == 0
    with store.engine.connect() as conn:
        n = counts(conn)
    assert n["persons"] == 208  # one per INDI: same-named people in one tree stay apart
    assert n["relationships"] > 300 and n["review_open"] < 10


def test_same_named_people_in_one_file_are_not_merged(store: Store, tmp_path: Path):
    ged = tmp_path / "two-johns.ged"
    ged.write_text(
        "0 HEAD\n1 GEDC\n2 VERS 5.5.1\n1 CHAR UTF-8\n"
        "0 @I1@ INDI\n1 NAME John /Smith/\n1 SEX M\n1 BIRT\n2 DATE ABT 1850\n"
        "0 @I2@ INDI\n1 NAME John /Smith/\n1 SEX M\n1 BIRT\n2 DATE 1880\n"
        "0 @F1@ FAM\n1 HUSB @I1@\n1 CHIL @I2@\n0 TRLR\n",
        encoding="utf-8",
    )
    ingest_path(store, ged)
    with store.engine.connect() as conn:
        assert counts(conn)["persons"] == 2
        assert counts(conn)["relationships"] == 1


def test_prose_is_not_mistaken_for_a_record():
    # JSON of no record shape: refused by default (issue 26), read leniently it is no record
    loaded = load_file(shared_path("text", "chronam_1916_front_pages", "titles_meta.json"),
                       lenient=True)
    assert [p["kind"] for p in loaded.snapshot.metadata["input_problems"]] == ["json_shape"]
    assert extract_record(loaded.snapshot, loaded.raw) is None
