"""A tree's own sources survive import and export: SOUR / REPO / OBJE / NOTE records, every
citation's PAGE, QUAY, DATA and TEXT, notes and custom tags, and family links' citations.

The round trip: ingest a real file into a case, export it (5.5.1 and 7.0), parse the export
and compare with the file: the set of source titles (TITL of SOUR records) and of citation
PAGE values must be kept whole. A 7.0 export must also pass the `gedcom7` validator.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from roundtrip import load

from shared_data import SHARED_DATA, shared_path
from sleuth.export import to_gedcom
from sleuth.gedcom import Gedcom, Node, decode_gedcom, parse_gedcom
from sleuth.gedcom.tree import tree_citations
from sleuth.gps.paths import describe_path, relationship_path
from sleuth.model import CaseGraph

TODAY = date(2026, 11, 22)
FILES = [("gramps", "sample.ged"), ("samples", "kennedy.ged"), ("torture", "TGC551.ged"),
         ("torture", "TGC551LF.ged"), ("torture", "TGC55C.ged"), ("torture", "TGC55CLF.ged"),
         ("torture", "allged.ged")]
GEDCOM70 = sorted(p.name for p in (SHARED_DATA / "gedcom" / "gedcom70").glob("*.ged"))


def _ours(ged: Gedcom) -> set[str]:
    """SOUR records of stored snapshots; the others are the tree's own."""
    return {r.xref for r in ged.of_tag("SOUR") if r.xref and any(
        n.tag == "NOTE" and n.value.startswith("sleuth snapshot") for n in r.children)}


def _titles_and_pages(ged: Gedcom, ours: set[str] = frozenset()) -> tuple[set[str], set[str]]:  # type: ignore[assignment]
    def norm(text: str) -> str:
        return " ".join(text.split())

    titles = {norm(t.value) for r in ged.of_tag("SOUR") if r.xref not in ours
              for t in r.all("TITL")}
    pages = {norm(n.value) for r in ged.records for n in r.walk()
             if n.tag == "PAGE" and not n.value.startswith("chars ")}
    return titles, pages


def _round_trip(path: Path, tmp: Path) -> None:
    original = parse_gedcom(decode_gedcom(path.read_bytes()).text)
    titles, pages = _titles_and_pages(original)
    graph = load(path, tmp / "case")
    for version in ("5.5.1", "7.0"):
        text = to_gedcom(graph, version=version, today=TODAY)
        ged = parse_gedcom(text)
        assert ged.problems == [], (path.name, version, ged.problems[:3])
        kept_titles, kept_pages = _titles_and_pages(ged, _ours(ged))
        assert titles <= kept_titles, (path.name, version, sorted(titles - kept_titles)[:5])
        assert pages <= kept_pages, (path.name, version, sorted(pages - kept_pages)[:5])
        if version == "7.0":
            _validate(text, path.name)


def _validate(text: str, name: str) -> None:
    try:
        import gedcom7
    except ImportError:  # the test extra; the round trip itself still ran
        return
    errors = gedcom7.validate(gedcom7.loads(text))
    assert errors == [], (name, [(e.category, e.path, e.message) for e in errors[:5]])


@pytest.mark.parametrize("parts", FILES, ids=[p[1] for p in FILES])
def test_round_trip_keeps_every_source_title_and_page(tmp_path: Path,
                                                      parts: tuple[str, str]) -> None:
    _round_trip(shared_path("gedcom", *parts), tmp_path)


@pytest.mark.parametrize("name", GEDCOM70)
def test_gedcom7_files_round_trip_with_their_sources(tmp_path: Path, name: str) -> None:
    _round_trip(shared_path("gedcom", "gedcom70", name), tmp_path)


@pytest.mark.slow
def test_royal92_round_trips(tmp_path: Path) -> None:
    _round_trip(shared_path("gedcom", "samples", "royal92.ged"), tmp_path)


def test_the_round_trip_counts_real_sources() -> None:
    """The files above do carry sources: the comparison is not of empty sets."""
    counts = {}
    for parts in (("gramps", "sample.ged"), ("torture", "TGC551.ged"),
                  ("gedcom70", "maximal70.ged")):
        ged = parse_gedcom(decode_gedcom(shared_path("gedcom", *parts).read_bytes()).text)
        counts[parts[1]] = tuple(map(len, _titles_and_pages(ged)))
    assert counts == {"sample.ged": (4, 0), "TGC551.ged": (2, 3), "maximal70.ged": (2, 3)}


# -- what comes back, where ----------------------------------------------------------------
TREE = """0 HEAD
1 GEDC
2 VERS 5.5.1
1 CHAR UTF-8
0 @I1@ INDI
1 NAME John /Smith/
2 SOUR @S1@
3 PAGE Folio 12
1 SEX M
1 BIRT
2 DATE 1 MAY 1850
2 PLAC Boston
3 MAP
4 LATI N42.36
4 LONG W71.06
2 SOUR @S1@
3 PAGE Folio 12, entry 4
3 QUAY 3
3 DATA
4 DATE 2 MAY 1850
4 TEXT John, son of Wm. Smith, born 1 May
3 NOTE @N1@
2 _WEATHER stormy
1 DEAT
2 DATE 1900
2 SOUR Family bible of Mary Smith
3 TEXT died at home
1 _MILT Civil War
2 NOTE Private, 12th Massachusetts
1 OBJE
2 FILE john.jpg
2 FORM jpeg
2 TITL John, about 1880
1 FAMS @F1@
0 @I2@ INDI
1 NAME Mary /Brown/
1 SEX F
1 BIRT
2 DATE 1852
1 DEAT
2 DATE 1910
1 FAMS @F1@
0 @I3@ INDI
1 NAME Ann /Smith/
1 SEX F
1 BIRT
2 DATE 1875
1 DEAT
2 DATE 1950
1 FAMC @F1@
2 PEDI birth
0 @I4@ INDI
1 NAME Tom /Smith/
1 SEX M
1 BIRT
2 DATE 2001
2 SOUR @S1@
3 PAGE Folio 99
3 NOTE Tom's school says hello
1 NOTE Tom lives at 12 Elm Street
1 FAMC @F1@
0 @F1@ FAM
1 HUSB @I1@
1 WIFE @I2@
1 CHIL @I3@
2 SOUR @S2@
3 PAGE Baptism of Ann
1 CHIL @I4@
1 MARR
2 DATE 1874
2 SOUR @S2@
3 PAGE p. 7
1 SOUR @S2@
2 PAGE Marriage entry 19
0 @S1@ SOUR
1 TITL Boston births
1 AUTH City registrar
1 PUBL Boston, 1851
1 REPO @R1@
2 CALN B-1850
0 @S2@ SOUR
1 TITL St Mary's register
0 @S3@ SOUR
1 TITL Never cited
0 @R1@ REPO
1 NAME Boston City Archives
0 @N1@ NOTE Entry written in a later hand.
0 @N2@ NOTE Nobody points at me.
0 TRLR
"""


@pytest.fixture
def tree_graph(tmp_path: Path) -> CaseGraph:
    path = tmp_path / "smith.ged"
    path.write_text(TREE, encoding="utf-8")
    return load(path, tmp_path / "case")


def _record(ged: Gedcom, xref: str | None) -> Node:
    return next(r for r in ged.records if r.xref == xref)


def _person(ged: Gedcom, name: str) -> Node:
    return next(r for r in ged.of_tag("INDI") if r.value_of("NAME") == name)


@pytest.mark.parametrize("version", ["5.5.1", "7.0"])
def test_each_fact_gets_its_tree_citations_back(tree_graph: CaseGraph, version: str) -> None:
    text = to_gedcom(tree_graph, version=version, today=TODAY)
    ged = parse_gedcom(text)
    assert ged.problems == []
    john = _person(ged, "John /Smith/")
    birth = john.first("BIRT")
    assert birth is not None and birth.value_of("DATE") == "1 MAY 1850"
    plac = birth.first("PLAC")
    assert plac is not None and plac.first("MAP") is not None  # the tree's PLAC details
    cites = {c.value_of("PAGE"): c for c in birth.all("SOUR")}
    tree_cite = cites["Folio 12, entry 4"]
    source = _record(ged, tree_cite.value)
    assert source.value_of("TITL") == "Boston births"
    assert source.value_of("AUTH") == "City registrar"
    repo = _record(ged, source.first("REPO").value)  # type: ignore[union-attr]
    assert repo.value_of("NAME") == "Boston City Archives"
    assert tree_cite.value_of("QUAY") == "3"
    data = tree_cite.first("DATA")
    assert data is not None and data.value_of("TEXT") == "John, son of Wm. Smith, born 1 May"
    assert data.value_of("DATE") == "2 MAY 1850"
    note_tag = "SNOTE" if version == "7.0" else "NOTE"
    note = _record(ged, tree_cite.value_of(note_tag))
    assert note.value == "Entry written in a later hand."
    assert birth.value_of("_WEATHER") == "stormy"  # a custom tag under the event
    # and sleuth's own citation of the stored file beside the tree's
    ours = [c for page, c in cites.items() if page.startswith("chars ")]
    assert ours and all(_record(ged, c.value).value_of("TITL") == "smith.ged" for c in ours)
    assert john.first("NAME").first("SOUR") is not None  # type: ignore[union-attr]
    # record level: the custom event and the media link
    assert john.value_of("_MILT") == "Civil War"
    assert john.first("OBJE") is not None
    titles = {r.value_of("TITL") for r in ged.of_tag("SOUR")}
    assert {"Boston births", "St Mary's register", "Never cited"} <= titles
    assert "Nobody points at me." not in text  # a note nothing written points at stays out


def test_a_5_5_1_inline_source_becomes_a_7_0_source_record(tree_graph: CaseGraph) -> None:
    ged = parse_gedcom(to_gedcom(tree_graph, version="7.0", today=TODAY))
    death = _person(ged, "John /Smith/").first("DEAT")
    assert death is not None
    cite = next(c for c in death.all("SOUR") if not c.value_of("PAGE"))
    source = _record(ged, cite.value)
    assert source.value_of("NOTE") == "Family bible of Mary Smith"
    assert cite.first("DATA").value_of("TEXT") == "died at home"  # type: ignore[union-attr]
    media = _record(ged, _person(ged, "John /Smith/").value_of("OBJE"))
    file = media.first("FILE")
    assert file is not None and file.value == "john.jpg"
    assert (file.value_of("FORM"), file.value_of("TITL")) == ("image/jpeg", "John, about 1880")


@pytest.mark.parametrize("version", ["5.5.1", "7.0"])
def test_family_links_carry_the_citations_the_tree_gave_them(tree_graph: CaseGraph,
                                                             version: str) -> None:
    ged = parse_gedcom(to_gedcom(tree_graph, version=version, today=TODAY))
    fam = next(iter(ged.of_tag("FAM")))
    pages = {c.value_of("PAGE") for c in fam.all("SOUR")}
    assert "Marriage entry 19" in pages  # the FAM record's own citation
    assert any(p and p.startswith("chars ") for p in pages)  # and the stored FAM lines
    ann = _person(ged, "Ann /Smith/")
    chil = next(c for c in fam.all("CHIL") if c.value == ann.xref)
    child_cite = chil.first("SOUR") or chil.first("_SOUR")  # 7.0 has no SOUR under CHIL
    assert child_cite is not None and child_cite.value_of("PAGE") == "Baptism of Ann"
    famc = ann.first("FAMC")
    assert famc is not None and famc.value_of("PEDI") in ("birth", "BIRTH")
    marr = fam.first("MARR")
    assert marr is not None and "p. 7" in {c.value_of("PAGE") for c in marr.all("SOUR")}


def test_family_links_are_cited_in_the_case(tree_graph: CaseGraph) -> None:
    by_name = {p.canonical_name: p for p in tree_graph.persons}
    ann, john = by_name["Ann Smith"], by_name["John Smith"]
    steps = relationship_path(tree_graph, ann.id, john.id)
    assert steps and all(s.citations for s in steps)
    assert "no citation on file" not in describe_path(tree_graph, steps)
    parents = [a for a in tree_graph.assertions[ann.id] if a.field_name == "parent"]
    assert {a.related_id for a in parents} == ann.parents
    # the tree's citation of the link is named where the link is cited
    snap = tree_graph.snapshots[parents[0].citations[0].snapshot_id]
    found = tree_citations(snap.text, parents[0].citations[0].locator.line)
    assert [(c.source, c.page) for c in found] == [("St Mary's register", "Baptism of Ann"),
                                                   ("St Mary's register",
                                                    "Marriage entry 19")]


def test_the_living_get_citations_only(tree_graph: CaseGraph) -> None:
    text = to_gedcom(tree_graph, today=TODAY)
    tom = _person(parse_gedcom(text), "Tom /Smith/")
    assert tom.value_of("RESN") == "privacy"
    cite = next(c for c in tom.first("BIRT").all("SOUR")  # type: ignore[union-attr]
                if c.value_of("PAGE") == "Folio 99")
    assert [c.tag for c in cite.children] == ["PAGE"]
    assert "Elm Street" not in text and "school says hello" not in text
