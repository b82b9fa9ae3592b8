"""GEDCOM 5.5.1 / 7.0 export: readable by a GEDCOM reader, every fact sourced, the living safe."""

from __future__ import annotations

from datetime import date
from types import ModuleType

import pytest
from hypothesis import given
from hypothesis import strategies as st

from case_builder import add_fact, add_person, link, snapshot
from shared_data import shared_path
from sleuth.export import to_gedcom
from sleuth.export.common import REDACTION_MARKERS
from sleuth.export.gedcom import gedcom_date
from sleuth.extract.dates import parse_date
from sleuth.gedcom import Gedcom, parse_gedcom
from sleuth.model import CaseGraph, GenDate
from sleuth.model.dates import DateQualifier
from sleuth.pipeline.ingest import ingest_path
from sleuth.store import Store, case_graph

TODAY = date(2026, 11, 22)


def our_texts(ged: Gedcom) -> list[str]:
    """DATA/TEXT of the citations of stored snapshots (SOUR records noted "sleuth snapshot")."""
    ours = {r.xref for r in ged.of_tag("SOUR") if any(
        n.tag == "NOTE" and n.value.startswith("sleuth snapshot") for n in r.children)}
    return [t.value for r in ged.records for n in r.walk()
            if n.tag == "SOUR" and n.value in ours
            for d in n.all("DATA") for t in d.all("TEXT")]


@pytest.mark.parametrize("version", ["5.5.1", "7.0"])
def test_family_case_exports_sources_and_alternatives(
    family: CaseGraph, fam: ModuleType, version: str
) -> None:
    text = to_gedcom(family, version=version, today=fam.TODAY)
    ged = parse_gedcom(text)
    assert ged.problems == [] and ged.version == version
    people = {r.first("NAME").value: r for r in ged.of_tag("INDI")}  # type: ignore[union-attr]
    assert set(people) == {"Thomas /Whitfield/", "Robert /Whitfield/", "Emma /Whitfield/",
                           "Daniel /Reyes/"}
    births = people["Thomas /Whitfield/"].all("BIRT")
    assert len(births) == 2  # the conflicting claims both survive
    assert any(n.tag == "NOTE" and "Alternative claim" in n.value for n in births[1].children)
    for rec in ged.of_tag("INDI"):
        for ev in rec.children:
            if ev.tag in ("BIRT", "DEAT", "CHR", "BURI"):
                cites = ev.all("SOUR")
                assert cites, (rec.xref, ev.tag)
                for c in cites:
                    assert c.value in {s.xref for s in ged.of_tag("SOUR")}
                    assert c.value_of("PAGE", ).startswith("chars ")  # type: ignore[union-attr]
                    assert c.first("DATA").value_of("TEXT")  # type: ignore[union-attr]
    assert people["Emma /Whitfield/"].value_of("RESN") in ("privacy", "PRIVACY")
    for secret in fam.EMMA_SECRETS:
        assert secret.lower() not in text.lower(), secret
    fams = ged.of_tag("FAM")
    assert any(f.all("CHIL") for f in fams)


def test_excerpts_survive_cont_and_conc_exactly(store: Store) -> None:
    ingest_path(store, shared_path("gedcom", "samples", "kennedy.ged"))
    graph = case_graph(store, title="kennedy")
    excerpts = {c.excerpt for items in graph.assertions.values() for a in items
                for c in a.citations}
    for version in ("5.5.1", "7.0"):
        text = to_gedcom(graph, version=version, today=TODAY)
        if version == "5.5.1":
            assert max(len(line) for line in text.splitlines()) <= 255
        ged = parse_gedcom(text)
        assert ged.problems == []
        assert len(ged.of_tag("INDI")) == 208
        texts = set(our_texts(ged))
        # every TEXT quoting a stored snapshot is a stored excerpt byte for byte, or the
        # Censor's marker for the living (the tree's own citations keep their own TEXT)
        assert texts and texts <= excerpts | REDACTION_MARKERS
        assert len(texts - REDACTION_MARKERS) > 400


def test_reimporting_an_export_gives_the_same_people(store: Store, tmp_path) -> None:
    ingest_path(store, shared_path("gedcom", "samples", "bronte.ged"))
    graph = case_graph(store, title="bronte")
    out = tmp_path / "bronte-out.ged"
    out.write_text(to_gedcom(graph, today=TODAY), encoding="utf-8")
    again = Store.create_case(tmp_path / "again")
    try:
        ingest_path(again, out)
        second = case_graph(again, title="again")
    finally:
        again.close()

    def vitals(g: CaseGraph) -> set[tuple[str, str, str]]:
        return {(p.canonical_name, a.field_name, a.value) for p in g.persons
                for a in g.assertions.get(p.id, [])
                if a.field_name in ("birth_date", "death_date", "birth_place", "death_place")}

    assert len(second.persons) == len(graph.persons)
    assert vitals(second) == vitals(graph)


@pytest.mark.parametrize(
    ("text", "expected"),
    [("ABT 1850", "ABT 1850"), ("BEF 1850", "BEF 1850"), ("AFT MAY 1850", "AFT MAY 1850"),
     ("BET 1840 AND 1845", "BET 1840 AND 1845"), ("FROM 1840 TO 1845", "FROM 1840 TO 1845"),
     ("CAL 1850", "CAL 1850"), ("EST 1850", "EST 1850"), ("12 MAY 1890", "12 MAY 1890"),
     ("MAY 1890", "MAY 1890"), ("1890", "1890"), ("29 FEB 1904", "29 FEB 1904")],
)
def test_gedcom_dates_are_written_in_the_grammar(text: str, expected: str) -> None:
    assert gedcom_date(parse_date(text)) == expected


@given(st.dates(min_value=date(1000, 1, 1), max_value=date(2100, 12, 31)),
       st.sampled_from(["day", "month", "year"]))
def test_exact_dates_round_trip(day: date, precision: str) -> None:
    gd = GenDate.from_parts(day.year, day.month if precision != "year" else None,
                            day.day if precision == "day" else None)
    back = parse_date(gedcom_date(gd) or "")
    assert back is not None and (back.earliest, back.latest) == (gd.earliest, gd.latest)
    assert back.qualifier == DateQualifier.EXACT


@pytest.mark.parametrize(("sexes", "roles"), [
    (("F", "U"), ("WIFE", "HUSB")), (("U", "F"), ("HUSB", "WIFE")),
    (("U", "M"), ("WIFE", "HUSB")), (("M", "F"), ("HUSB", "WIFE")),
    (("F", "F"), None), (("M", "M"), None), (("U", "U"), None),
])
def test_a_couple_is_one_husb_and_one_wife(store: Store, sexes: tuple[str, str],
                                           roles: tuple[str, str] | None) -> None:
    # the demo wrote Sarah Golden (F) and Steven Joseph Golden (sex unrecorded) as two WIFEs;
    # HUSB and WIFE are {0:1} in both versions, and 7.0 writes a same-sex couple as both
    first = add_person(store, "Sarah Golden", sexes[0])
    second = add_person(store, "Steven Golden", sexes[1])
    link(store, first, second, "spouse")
    graph = case_graph(store, title="couple")
    for version in ("5.5.1", "7.0"):
        ged = parse_gedcom(to_gedcom(graph, version=version, today=TODAY))
        xref = {r.first("NAME").value.replace("/", ""): r.xref  # type: ignore[union-attr]
                for r in ged.of_tag("INDI")}
        (fam,) = ged.of_tag("FAM")
        got = {n.tag: n.value for n in fam.children if n.tag in ("HUSB", "WIFE")}
        assert len([n for n in fam.children if n.tag in ("HUSB", "WIFE")]) == 2
        assert set(got) == {"HUSB", "WIFE"} and set(got.values()) == set(xref.values())
        if roles is not None:  # a symmetric couple's order is the records' order
            assert got == {roles[0]: xref["Sarah Golden"], roles[1]: xref["Steven Golden"]}


def test_a_birth_surname_is_a_birth_name(store: Store) -> None:
    # Sarah Golden née Giles: her birth surname went out as "1 NOTE birth surname: Giles",
    # which no program reads as a name (and `check` then took Golden for her birth surname)
    snap = snapshot(store, '"FirstName": "Sarah", "LastNameAtBirth": "Giles", "Died": 1953')
    sarah = add_person(store, "Sarah Golden", "F")
    add_fact(store, sarah, "birth_surname", "Giles", snap)
    add_fact(store, sarah, "death_date", "1953", snap, GenDate.from_parts(1953))
    graph = case_graph(store, title="née")
    for version, kind in (("5.5.1", "birth"), ("7.0", "BIRTH")):
        text = to_gedcom(graph, version=version, today=TODAY)
        (indi,) = parse_gedcom(text).of_tag("INDI")
        names = [(n.value, n.value_of("TYPE")) for n in indi.all("NAME")]
        assert names == [("Sarah /Golden/", None), ("Sarah /Giles/", kind)]
        (born,) = [n for n in indi.all("NAME") if n.value == "Sarah /Giles/"]
        assert born.first("SOUR").first("DATA").value_of("TEXT") == "Giles"  # type: ignore[union-attr]
        assert "birth surname: Giles" not in [n.value for n in indi.all("NOTE")]
