"""Evidence Explained classes derived by the documented rules, on real ingested records."""

from __future__ import annotations

import gps_case
import pytest

from shared_data import shared_path
from sleuth.gps import describe, evidence_for, source_kind
from sleuth.gps.classify import source_class
from sleuth.gps.evidence import all_items
from sleuth.gps.kinds import SourceKind
from sleuth.model import AssertionStatus, CaseGraph
from sleuth.model.evidence import (
    EvidenceClass,
    InformationClass,
    ResearchQuestion,
    SourceClass,
)
from sleuth.sources import load_file
from sleuth.store import Store, case_graph

P, S, U = InformationClass.PRIMARY, InformationClass.SECONDARY, InformationClass.UNDETERMINED


def _person(g: CaseGraph, prefix: str) -> str:
    return next(p.id for p in g.persons if p.canonical_name.startswith(prefix))


def _by_field(g: CaseGraph, pid: str, q: ResearchQuestion) -> dict[str, set[tuple[str, ...]]]:
    out: dict[str, set[tuple[str, ...]]] = {}
    for e in evidence_for(g, pid, q):
        c = e.classes
        out.setdefault(e.assertion.field_name, set()).add(
            (c.source.value, c.information.value, c.evidence.value if c.evidence else "-"))
    return out


def test_death_certificate_is_primary_for_death_secondary_for_birth(elmer_case: Store) -> None:
    g = case_graph(elmer_case)
    elmer = _person(g, "Elmer")
    death = _by_field(g, elmer, ResearchQuestion.DEATH)
    assert death["death_date"] == {("derivative", "primary", "direct")}
    assert death["death_place"] == {("derivative", "primary", "direct")}
    assert death["death_registration_date"] == {("derivative", "primary", "indirect")}
    birth = _by_field(g, elmer, ResearchQuestion.BIRTH)
    assert birth["birth_date"] == {("derivative", "secondary", "direct")}
    assert birth["age_at_death"] == {("derivative", "secondary", "indirect")}
    parents = _by_field(g, elmer, ResearchQuestion.PARENTS)
    assert parents["parent"] == {("derivative", "secondary", "direct")}
    # the same record weighs its death above its (second-hand) birth
    by_q = {q: evidence_for(g, elmer, q)[0].weight for q in (ResearchQuestion.DEATH,
                                                             ResearchQuestion.BIRTH)}
    assert by_q[ResearchQuestion.DEATH] > by_q[ResearchQuestion.BIRTH]


def test_parent_child_link_is_cited_from_the_parents_side_too(elmer_case: Store) -> None:
    g = case_graph(elmer_case)
    elmer = _person(g, "Elmer")
    items = evidence_for(g, elmer, ResearchQuestion.PARENTS)
    owners = {e.assertion.entity_id for e in items}
    assert elmer in owners and len(owners) == 3  # Elmer's claims and each parent's `child`
    assert {e.assertion.value for e in items} >= {"Emmett Davis", "Willie Parcell",
                                                  "Elmer Lawrence Davis"}


def test_baptism_register_is_primary_for_parents(store: Store) -> None:
    gps_case.fs(store, "england_baptism_1810_john_abberley.json")
    g = case_graph(store)
    john = _person(g, "John")
    parents = _by_field(g, john, ResearchQuestion.PARENTS)
    assert parents["parent"] == {("derivative", "primary", "direct")}


def test_obituary_is_secondary_for_birth(store: Store) -> None:
    gps_case.fs(store, "us_obit_2009_florida_moore.json")
    g = case_graph(store)
    james = _person(g, "James Clifford")
    birth = _by_field(g, james, ResearchQuestion.BIRTH)
    assert birth["birth_date"] == {("derivative", "secondary", "direct")}
    death = _by_field(g, james, ResearchQuestion.DEATH)
    assert all(cls[1] == "secondary" for v in death.values() for cls in v)


def test_user_tree_is_authored_with_undetermined_information(store: Store) -> None:
    gps_case.ingest(store, "recorded", "wikitree", "sourcer", "saved_pages",
                    "belshaw-479_read.html")
    g = case_graph(store)
    for p in g.persons:
        for e in all_items(g, p.id):
            assert e.classes.source is SourceClass.AUTHORED
            assert e.classes.information is U
            assert e.info.identifiers.get("wikitree_id") == "Belshaw-479"


def test_parish_burial_register_row(store: Store) -> None:
    gps_case.ingest(store, "text", "freeukgen", "freereg1_csvs__Chd__HRTCALBU.csv")
    g = case_graph(store)
    seen: dict[str, set[InformationClass]] = {}
    for p in g.persons[:80]:
        for e in all_items(g, p.id):
            assert e.info.kind is SourceKind.PARISH_REGISTER and e.info.event == "burial"
            assert e.classes.source is SourceClass.DERIVATIVE
            seen.setdefault(e.assertion.field_name, set()).add(e.classes.information)
    assert seen["burial_date"] == {P}
    assert seen["age_at_death"] == {S}


@pytest.mark.parametrize(
    ("parts", "kind", "cls"),
    [
        (("gedcom", "samples", "bronte.ged"), SourceKind.GEDCOM_FILE, SourceClass.AUTHORED),
        (("recorded", "wikidata", "wptools", "wikidata.json"), SourceKind.WIKIDATA_ENTITY,
         SourceClass.AUTHORED),
        (("recorded", "wikipedia", "wptools", "parse_infobox.json"),
         SourceKind.WIKIPEDIA_ARTICLE, SourceClass.AUTHORED),
        (("documents", "bourbon_pdfs", "Transcription_bapteme_Louis_XIV.pdf"),
         SourceKind.LOCAL_DOCUMENT, SourceClass.ORIGINAL),
        (("text", "freeukgen", "freecen1_vlds__DUR__RG093730.VLD"), SourceKind.CENSUS,
         SourceClass.DERIVATIVE),
        (("recorded", "familysearch", "saved_fetch_objects",
          "xx_profile_ralph_allan_pavey_1914_1992.json"), SourceKind.FAMILYSEARCH_RECORD,
         SourceClass.AUTHORED),
    ],
)
def test_source_kind_and_class(parts: tuple[str, ...], kind: SourceKind,
                               cls: SourceClass) -> None:
    snap = load_file(shared_path(*parts)).snapshot
    assert source_kind(snap) is kind
    assert source_class(snap, describe(snap))[0] is cls


def test_every_citation_of_a_mixed_case_is_classified(store: Store) -> None:
    for name in ("us_va_death_1955_elmer_davis.json", "england_census_1881_esther_pavey.json",
                 "scotland_marriage_1764_archbald_saunders.json"):
        gps_case.fs(store, name)
    gps_case.ingest(store, "recorded", "wikidata", "wptools", "wikidata.json")
    g = case_graph(store)
    total = 0
    for p in g.persons:
        cited = sum(len(a.citations) for a in g.assertions.get(p.id, [])
                    if a.status is not AssertionStatus.REJECTED)
        items = all_items(g, p.id)
        assert len(items) == cited
        for e in items:
            assert e.classes.source in SourceClass and e.classes.information in InformationClass
            assert e.classes.evidence is None or e.classes.evidence in EvidenceClass
            assert 0.0 < e.weight <= 1.0
            assert len(e.classes.why) == 2
        total += len(items)
    assert total > 40


def test_a_newspaper_date_says_how_long_after_the_event_it_wrote(tmp_path) -> None:
    """Issue 20: the page of 19 October 1916 reports John Carbaugh's death of the 14th (5
    days later: the informant may have been present) and Dr. McKibbin's birth of 1837 (79
    years later: hearsay); a report of a week-old event outside an obituary is likely
    first-hand."""
    from case_builder import ingested_graph
    from sleuth.gps.classify import Classes, classify
    from sleuth.gps.kinds import SourceInfo
    from sleuth.model import GenDate

    page = shared_path("text", "chronam_1916_front_pages", "pages",
                       "19161019__sn86081889-ed-1_seq-1.txt")
    g = ingested_graph(tmp_path / "case", page)
    def classes(name: str, field: str) -> Classes:
        pid = _person(g, name)
        return next(e.classes for q in ResearchQuestion for e in evidence_for(g, pid, q)
                    if e.assertion.field_name == field)

    death = classes("John Carbaugh", "death_date")
    assert death.information is U and "printed 5 days after the event" in " ".join(death.why)
    birth = classes("Wm. L. McKibbin", "birth_date")
    assert birth.information is S
    (snap,) = g.snapshots.values()
    news = SourceInfo(kind=SourceKind.NEWSPAPER_PAGE, event="newspaper")
    week = GenDate.from_parts(1916, 10, 12)
    assert classify(snap, news, "marriage_date", when=week).information is P
    assert classify(snap, news, "marriage_date", when=GenDate.from_parts(1890)).information is S
    assert classify(snap, news, "marriage_date").information is U  # no date: no gap
