"""One fact, one event; names as genealogy programs read them; a user's file named, not located.

A hand-built case of a woman researched from several sources: her birth stated identically
by two of them, less precisely by a third and differently by a fourth, a newspaper calling
her "Miss Sarah Stroud", and a married name under her husband's surname.
"""

from __future__ import annotations

from datetime import date
from types import ModuleType

import pytest

from sleuth.export import to_gedcom, to_gedcomx
from sleuth.extract.dates import parse_date
from sleuth.gedcom import Node, parse_gedcom
from sleuth.model import Assertion, AssertionStatus, CaseGraph, Person, Snapshot

TODAY = date(2025, 6, 1)
GX = "http://gedcomx.org/"
REGISTER = "Baptisms 1884. Sarah, daughter of Alfred Stroud, born 12 May 1884 at Springfield."
BIBLE = "Family record. Sarah Stroud born 12 May 1884, Springfield. Married John Giles 1905."
CENSUS = "1900 census, Springfield. Stroud, Sarah, daughter, born 1884, Ohio."
TREE = "Sarah Stroud b. 3 Jun 1885 Dayton. Miss Sarah Stroud of Springfield."
NEWS = "Wedding notice. Miss Sarah Stroud of Springfield and John Giles were married."
GRAVE = "In memory of Sarah Giles, wife of John Giles."


def _case(fam: ModuleType) -> CaseGraph:
    reg = fam.snap("s-reg", "Parish register", REGISTER, url="https://example.org/reg/1884")
    bible = fam.snap("s-bible", "Giles family bible", BIBLE)  # a user's own file
    census = fam.snap("s-census", "1900 census", CENSUS, url="https://example.org/c/1900")
    tree = fam.snap("s-tree", "Online tree", TREE, url="https://example.org/tree/sarah")
    news = fam.snap("s-news", "Springfield Herald", NEWS, url="https://example.org/n/1905")
    grave = fam.snap("s-grave", "Memorial", GRAVE, url="https://example.org/m/1")
    day = parse_date("12 May 1884")
    claims = [
        fam.claim("b1", "sarah", "birth_date", "1884-05-12", reg, "born 12 May 1884", when=day),
        fam.claim("b2", "sarah", "birth_date", "1884-05-12", bible, "born 12 May 1884",
                  when=day),
        fam.claim("b3", "sarah", "birth_date", "1884", census, "born 1884",
                  when=parse_date("1884")),
        fam.claim("b4", "sarah", "birth_date", "1885-06-03", tree, "b. 3 Jun 1885",
                  when=parse_date("3 Jun 1885"), confidence=0.5),
        fam.claim("p1", "sarah", "birth_place", "Springfield", reg, "at Springfield"),
        fam.claim("p2", "sarah", "birth_place", "Springfield", bible, "Springfield"),
        fam.claim("n1", "sarah", "name", "Miss Sarah Stroud", news, "Miss Sarah Stroud"),
        fam.claim("n2", "sarah", "name", "Sarah Stroud", bible, "Sarah Stroud"),
        fam.claim("n3", "sarah", "name", "Sarah Giles", grave, "Sarah Giles"),
        fam.claim("j1", "john", "name", "John Giles", grave, "John Giles"),
        fam.claim("a1", "alfred", "name", "Alfred Stroud", reg, "Alfred Stroud"),
    ]
    by: dict[str, list[Assertion]] = {}
    for a in claims:
        by.setdefault(a.entity_id, []).append(a)
    persons = [
        Person(id="sarah", canonical_name="Miss Sarah Stroud", given_name="Miss Sarah",
               surname="Stroud", sex="F", parents={"alfred"}, spouses={"john"},
               birth=day),
        Person(id="john", canonical_name="John Giles", given_name="John", surname="Giles",
               sex="M", spouses={"sarah"}, birth=parse_date("1880")),
        Person(id="alfred", canonical_name="Alfred Stroud", given_name="Alfred",
               surname="Stroud", sex="M", children={"sarah"}, birth=parse_date("1850")),
    ]
    snaps: dict[str, Snapshot] = {s.id: s for s in (reg, bible, census, tree, news, grave)}
    return CaseGraph(title="Sarah", persons=persons, assertions=by, snapshots=snaps)


def _indi(ged_text: str, given: str) -> Node:
    ged = parse_gedcom(ged_text)
    return next(r for r in ged.of_tag("INDI") if given in (r.value_of("NAME") or ""))


@pytest.mark.parametrize("version", ["5.5.1", "7.0"])
def test_agreeing_claims_are_one_event_with_all_their_citations(fam: ModuleType,
                                                                 version: str) -> None:
    text = to_gedcom(_case(fam), version=version, today=TODAY)
    births = _indi(text, "Sarah").all("BIRT")
    # 12 May 1884 (register + bible, and the census's "1884" says the same less precisely),
    # then 3 Jun 1885 (an online tree) which differs
    assert [b.value_of("DATE") for b in births] == ["12 MAY 1884", "3 JUN 1885"]
    first = births[0]
    assert first.value_of("PLAC") == "Springfield"
    excerpts = {c.first("DATA").value_of("TEXT") for c in first.all("SOUR")}  # type: ignore[union-attr]
    assert excerpts == {"born 12 May 1884", "born 1884", "at Springfield", "Springfield"}
    assert len(first.all("SOUR")) == 5  # one citation per source and statement
    notes = [[n.value for n in b.all("NOTE")] for b in births]
    assert notes[0] == ["Preferred claim of 2 that differ; the others follow as alternative "
                        "BIRT structures."]
    assert notes[1] == ["Alternative claim: the evidence conflicts; the first BIRT is the "
                        "preferred one."]


def test_the_adjudicated_claim_comes_first(fam: ModuleType) -> None:
    from sleuth.model import Conflict, RankedClaim

    graph = _case(fam)
    ranked = [RankedClaim(assertion_id=i, value=v, weight=w, evidence_type="secondary", tier=0,
                          confidence=0.9, rank=r, reason="") for i, v, w, r in
              (("b4", "1885-06-03", 0.9, 1), ("b1", "1884-05-12", 0.5, 2))]
    graph.conflicts.append(Conflict(id="c1", person_id="sarah", field="birth_date",
                                    competing=ranked, recommended_assertion_id="b4",
                                    recommended_value="1885-06-03", is_tentative=False,
                                    rationale=""))
    births = _indi(to_gedcom(graph, today=TODAY), "Sarah").all("BIRT")
    assert births[0].value_of("DATE") == "3 JUN 1885"
    # places stated on their own are weighed on their own: the preferred one stays
    assert births[0].value_of("PLAC") == "Springfield"
    assert [b.value_of("DATE") for b in births[1:]] == ["1884", "12 MAY 1884"]
    assert all("the evidence conflicts" in b.value_of("NOTE") for b in births[1:])  # type: ignore[operator]


def test_identical_claims_alone_make_one_event_and_no_alternative(fam: ModuleType) -> None:
    graph = _case(fam)
    graph.assertions["sarah"] = [a for a in graph.assertions["sarah"] if a.id != "b4"]
    births = _indi(to_gedcom(graph, today=TODAY), "Sarah").all("BIRT")
    assert len(births) == 1
    assert not any("Alternative" in n.value for n in births[0].all("NOTE"))


@pytest.mark.parametrize("version", ["5.5.1", "7.0"])
def test_honorifics_go_in_npfx_and_a_married_name_is_typed(fam: ModuleType,
                                                           version: str) -> None:
    indi = _indi(to_gedcom(_case(fam), version=version, today=TODAY), "Sarah")
    names = indi.all("NAME")
    assert [n.value for n in names] == ["Sarah /Stroud/", "Sarah /Giles/"]
    main = names[0]
    assert (main.value_of("NPFX"), main.value_of("GIVN"), main.value_of("SURN")) == \
        ("Miss", "Sarah", "Stroud")
    # "Miss Sarah Stroud" and "Sarah Stroud" are one name with both citations
    assert {c.first("DATA").value_of("TEXT") for c in main.all("SOUR")} == \
        {"Miss Sarah Stroud", "Sarah Stroud"}  # type: ignore[union-attr]
    married = "MARRIED" if version == "7.0" else "married"
    birth = "BIRTH" if version == "7.0" else "birth"
    assert (main.value_of("TYPE"), names[1].value_of("TYPE")) == (birth, married)


def test_gedcomx_calls_a_married_name_a_married_name(fam: ModuleType) -> None:
    graph = _case(fam)
    doc = to_gedcomx(graph, today=TODAY)
    sarah = next(p for p in doc["persons"]
                 if p["names"][0]["nameForms"][0]["fullText"].endswith("Sarah Stroud"))
    types = {n["nameForms"][0]["fullText"]: n["type"] for n in sarah["names"]}
    assert types["Sarah Giles"] == GX + "MarriedName"
    assert sarah["names"][0]["type"] == GX + "BirthName"
    # a woman known by her married name only: that name is not her birth name
    graph.persons[0] = graph.persons[0].model_copy(update={
        "canonical_name": "Sarah Giles", "given_name": "Sarah", "surname": "Giles"})
    graph.assertions["sarah"] = [a for a in graph.assertions["sarah"] if a.id == "n3"]
    doc = to_gedcomx(graph, today=TODAY)
    sarah = next(p for p in doc["persons"] if p["names"][0]["nameForms"][0]["fullText"]
                 == "Sarah Giles")
    assert sarah["names"][0]["type"] == GX + "MarriedName"


def test_gedcomx_alternatives_that_agree_are_one_fact(fam: ModuleType) -> None:
    graph = _case(fam)
    extra = fam.snap("s-tree2", "Another tree", "Sarah b. 3 Jun 1885 in Dayton.",
                     url="https://example.org/t2")
    graph.snapshots[extra.id] = extra
    graph.assertions["sarah"].append(fam.claim(
        "b5", "sarah", "birth_date", "1885-06-03", extra, "b. 3 Jun 1885",
        when=parse_date("3 Jun 1885"), confidence=0.5, status=AssertionStatus.VERIFIED))
    doc = to_gedcomx(graph, today=TODAY)
    sarah = doc["persons"][0]
    births = [f for f in sarah["facts"] if f["type"] == GX + "Birth"]
    later = [f for f in births if f.get("date", {}).get("formal") == "+1885-06-03"]
    assert len(later) == 1 and len(later[0]["sources"]) == 2


def test_a_users_own_file_is_named_not_located(fam: ModuleType) -> None:
    graph = _case(fam)
    bible = graph.snapshots["s-bible"]
    graph.snapshots["s-bible"] = bible.model_copy(update={
        "path": "/home/alice/private/giles-bible.txt",
        "metadata": {"filename": "giles-bible.txt"}})
    text = to_gedcom(graph, today=TODAY)
    assert "/home/alice" not in text
    ged = parse_gedcom(text)
    titles = {r.value_of("TITL") for r in ged.of_tag("SOUR")}
    assert "giles-bible.txt" in titles and "Parish register" in titles
    doc = str(to_gedcomx(graph, today=TODAY))
    assert "/home/alice" not in doc and "giles-bible.txt" in doc


def test_an_event_named_by_another_field_still_has_its_preferred_claim(fam: ModuleType) -> None:
    """A christening_date is a baptism: its claims alone make one CHR, not an empty one."""
    graph = _case(fam)
    reg = graph.snapshots["s-reg"]
    graph.assertions["sarah"] = [fam.claim("c1", "sarah", "christening_date", "1884",
                                           reg, "Baptisms 1884", when=parse_date("1884"))]
    [chr_] = _indi(to_gedcom(graph, today=TODAY), "Sarah").all("CHR")
    assert chr_.value_of("DATE") == "1884" and chr_.all("SOUR")
