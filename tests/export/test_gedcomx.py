"""to_gedcomx: GEDCOM X JSON, every conclusion cited, conflicts kept, nothing private.

The shape is judged against FamilySearch's own responses (114 recorded GEDCOM X record JSONs in
../shared/data/recorded/familysearch): every member we write must be one FamilySearch writes
on the same data type, or a member the GEDCOM X JSON spec defines for it (listed below).
"""

from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from shared_data import shared_path
from sleuth.export import to_gedcomx
from sleuth.export.gedcomx import CHARACTER_REGION, formal_date
from sleuth.extract.dates import parse_date
from sleuth.model import CaseGraph, DateQualifier, GenDate
from sleuth.pipeline.ingest import ingest_path
from sleuth.store import Store, case_graph

GX = "http://gedcomx.org/"
Obj = dict[str, Any]

# Which GEDCOM X data type an object is, from its parent's type and the member holding it.
CHILD: dict[str, dict[str, str]] = {
    "Gedcomx": {"persons": "Person", "relationships": "Relationship",
                "sourceDescriptions": "SourceDescription", "agents": "Agent",
                "documents": "Document", "attribution": "Attribution"},
    "Person": {"names": "Name", "gender": "Gender", "facts": "Fact", "sources": "SourceReference",
               "notes": "Note", "attribution": "Attribution"},
    "Relationship": {"facts": "Fact", "sources": "SourceReference", "person1": "ResourceReference",
                     "person2": "ResourceReference", "attribution": "Attribution"},
    "Name": {"nameForms": "NameForm", "sources": "SourceReference"},
    "NameForm": {"parts": "NamePart"},
    "Gender": {"sources": "SourceReference"},
    "Fact": {"date": "Date", "place": "PlaceReference", "sources": "SourceReference",
             "notes": "Note", "analysis": "ResourceReference", "attribution": "Attribution"},
    "SourceReference": {"qualifiers": "Qualifier", "attribution": "Attribution"},
    "SourceDescription": {"titles": "TextValue", "citations": "SourceCitation",
                          "descriptions": "TextValue", "componentOf": "SourceReference",
                          "sources": "SourceReference"},
    "Agent": {"names": "TextValue"},
    "Document": {"titles": "TextValue"},
    "Attribution": {"contributor": "ResourceReference"},
}
# Members the GEDCOM X JSON spec defines that FamilySearch's extracted records never use
# (they cite at person level and carry no analysis): spec sections in brackets.
SPEC_ONLY: dict[str, set[str]] = {
    "Gedcomx": {"documents"},  # [4.3]
    "Person": {"private", "notes"},  # [2.1], Conclusion [3.10]
    "Fact": {"sources", "analysis", "notes", "confidence"},  # Conclusion [3.10]
    "Name": {"sources"},  # Conclusion [3.10]
    "Gender": {"sources"},  # Conclusion [3.10]
    "SourceReference": {"qualifiers"},  # [3.6]
    "Qualifier": {"name", "value"},  # [3.20]
    "Note": {"subject", "text"},  # [3.3]
    "Document": {"id", "type", "textType", "text", "titles"},  # [2.6], Conclusion [3.10]
    "Agent": {"names"},  # [2.4]
}
# Fact types of the GEDCOM X fact types spec that the recorded FamilySearch files lack.
SPEC_FACT_TYPES = {GX + t for t in (
    "Adoption", "Annulment", "Confirmation", "Cremation", "Divorce", "Engagement",
    "Graduation", "MarriageBanns", "MarriageLicense", "Naturalization", "Retirement", "Will")}
# GEDCOM X formal date grammar (date format spec 5.2-5.8; no recurrences or durations).
_TIME = r"(?:T\d{2}(?::\d{2}(?::\d{2})?)?(?:Z|[+-]\d{2}(?::\d{2})?)?)?"
_SIMPLE = rf"[+-]\d{{4}}(?:-\d{{2}}(?:-\d{{2}}{_TIME})?)?"
FORMAL = re.compile(rf"^A?(?:{_SIMPLE}|{_SIMPLE}/(?:{_SIMPLE})?|/{_SIMPLE})$")


def _members(doc: Any, kind: str = "Gedcomx", acc: dict[str, dict[str, set[str]]] | None = None
             ) -> dict[str, dict[str, set[str]]]:
    """data type -> member -> JSON value types seen, over a whole GEDCOM X document."""
    acc = {} if acc is None else acc
    for obj in doc if isinstance(doc, list) else [doc]:
        if isinstance(obj, dict):
            seen = acc.setdefault(kind, {})
            for key, value in obj.items():
                seen.setdefault(key, set()).add(type(value).__name__)
                if (child := CHILD.get(kind, {}).get(key)) is not None:
                    _members(value, child, acc)
    return acc


@pytest.fixture(scope="module")
def familysearch() -> list[Obj]:
    folder = shared_path("recorded", "familysearch", "saved_fetch_objects")
    return [json.loads(p.read_text(encoding="utf-8")) for p in sorted(Path(folder).glob("*.json"))]


def _facts(doc: Obj) -> list[Obj]:
    return [f for x in (*doc["persons"], *doc["relationships"]) for f in x.get("facts", [])]


def _walk(o: Any) -> list[Obj]:
    out: list[Obj] = []
    if isinstance(o, dict):
        out.append(o)
        for v in o.values():
            out.extend(_walk(v))
    elif isinstance(o, list):
        for v in o:
            out.extend(_walk(v))
    return out


def _person(doc: Obj, pid: str) -> Obj:
    return next(p for p in doc["persons"] if p["id"] == f"P-{pid}")


def _gx(family: CaseGraph, fam: ModuleType, **kw: Any) -> Obj:
    doc = to_gedcomx(family, today=fam.TODAY, **kw)
    assert json.loads(json.dumps(doc)) == doc
    return doc


# -- dates ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "formal"),
    [
        ("12 MAY 1850", "+1850-05-12"),
        ("MAY 1850", "+1850-05"),
        ("1850", "+1850"),
        ("ABT 1850", "A+1850"),
        ("EST MAY 1850", "A+1850-05"),
        ("CAL 1850", "A+1850"),
        ("BET 1840 AND 1845", "A+1840/+1845"),  # one event, sometime between (spec 2.1.10)
        ("BET MAY 1840 AND 12 JUN 1845", "A+1840-05/+1845-06-12"),
        ("BEF 1850", "A/+1850"),
        ("AFT 12 MAY 1850", "A+1850-05-12/"),
        ("FROM 1840 TO 1845", "+1840/+1845"),  # a period is a plain range
        ("TO 1850", "/+1850"),
        ("FROM 1840", "+1840/"),
        ("@#DJULIAN@ 1 MAR 1700", "+1700-03-12"),  # formal dates are proleptic Gregorian
        ("44 B.C.", "-0043"),  # astronomical year numbering: 1 BCE is +0000
    ],
)
def test_formal_dates_follow_the_gedcomx_date_format(text: str, formal: str) -> None:
    assert formal_date(parse_date(text)) == formal
    assert FORMAL.match(formal)


def test_formal_dates_of_ranges_and_nothing() -> None:
    decade = GenDate(earliest=date(1990, 1, 1), latest=date(1999, 12, 31),
                     qualifier=DateQualifier.ESTIMATED, precision="year", original="1990s")
    assert formal_date(decade) == "A+1990/+1999"
    ages = GenDate(earliest=date(1899, 1, 1), latest=date(1900, 12, 31))
    assert formal_date(ages) == "A+1899/+1900"
    assert formal_date(None) is None
    assert formal_date(GenDate(qualifier=DateQualifier.PHRASE, original="(unknown)")) is None


def test_our_date_grammar_accepts_every_familysearch_fact_date(
    familysearch: list[Obj],
) -> None:
    """The grammar above is checked on FamilySearch's own fact dates (their collection
    coverage dates, "1837/1920", omit the sign the spec requires, so they are not used)."""
    acc: dict[str, list[Any]] = {}
    for record in familysearch:
        _values(record, "Gedcomx", "Date", "formal", acc)
    formals = acc["v"]
    assert len(formals) > 250 and any("/" in f for f in formals)
    assert [f for f in formals if not FORMAL.match(f)] == []


# -- the family case -----------------------------------------------------------------------
def test_persons_names_and_gender(family: CaseGraph, fam: ModuleType) -> None:
    doc = _gx(family, fam)
    assert [p["id"] for p in doc["persons"]] == ["P-thomas", "P-robert", "P-emma", "P-daniel"]
    thomas = _person(doc, "thomas")
    name = thomas["names"][0]
    assert name["preferred"] is True and name["type"] == GX + "BirthName"
    assert name["nameForms"][0]["fullText"] == "Thomas Whitfield"
    assert name["nameForms"][0]["parts"] == [
        {"type": GX + "Given", "value": "Thomas"},
        {"type": GX + "Surname", "value": "Whitfield"},
    ]
    assert name["sources"][0]["attribution"]["changeMessage"] == "Name: Thomas Whitfield"
    assert thomas["gender"] == {"type": GX + "Male"}
    assert _person(doc, "emma")["gender"]["type"] == GX + "Female"
    assert thomas["identifiers"] == {GX + "Primary": ["urn:sleuth:person:thomas"]}


def test_every_fact_cites_an_excerpt_by_character_region(
    family: CaseGraph, fam: ModuleType
) -> None:
    doc = _gx(family, fam)
    by_sd = {sd["id"]: sd["identifiers"][GX + "Primary"][0].rsplit(":", 1)[1]
             for sd in doc["sourceDescriptions"] if "identifiers" in sd}
    facts = _facts(doc)
    assert len(facts) == 7  # thomas: 2 conflicting births, death, burial; robert 2; emma 1
    refs = [r for f in facts for r in f["sources"]]
    refs += [r for rel in doc["relationships"] for r in rel["sources"]]
    refs += [r for p in doc["persons"] for n in p["names"] for r in n.get("sources", [])]
    assert all(f["sources"] for f in facts)
    assert all(rel["sources"] for rel in doc["relationships"])
    checked = 0
    for ref in refs:
        (qualifier,) = ref["qualifiers"]
        assert qualifier["name"] == CHARACTER_REGION == GX + "CharacterRegion"
        start, end = map(int, qualifier["value"].split(","))
        assert ref["description"] == "#" + ref["descriptionId"]
        snap = family.snapshots[by_sd[ref["descriptionId"]]]
        excerpt = ref["attribution"]["changeMessage"]
        if not excerpt.startswith("[redacted"):
            assert snap.text[start:end] == excerpt  # the region is the verbatim excerpt
            checked += 1
    assert checked >= 9


def test_conflicting_births_both_kept_one_primary(family: CaseGraph, fam: ModuleType) -> None:
    doc = _gx(family, fam)
    births = [f for f in _person(doc, "thomas")["facts"] if f["type"] == GX + "Birth"]
    assert [(f["date"]["formal"], f.get("primary", False)) for f in births] == [
        ("+1902-03-03", True),
        ("A+1899/+1900", False),
    ]
    assert births[1]["date"]["original"] == "abt 1900"
    assert births[1]["sources"][0]["attribution"]["changeMessage"] == "age 10"
    assert births[1]["notes"][0]["subject"] == "Alternative claim"
    (analysis,) = {f["analysis"]["resource"] for f in births}
    document = next(d for d in doc["documents"] if "#" + d["id"] == analysis)
    assert document["type"] == GX + "Analysis" and "tentative" in document["text"]
    assert "3 March 1902" in document["text"] and "abt 1900" in document["text"]
    for person in doc["persons"]:  # never two primary facts of one type
        primary = [f["type"] for f in person.get("facts", []) if f.get("primary")]
        assert len(primary) == len(set(primary))


def test_living_people_redacted(family: CaseGraph, fam: ModuleType) -> None:
    doc = _gx(family, fam)
    text = json.dumps(doc).lower()
    for secret in fam.EMMA_SECRETS:
        assert secret.lower() not in text, secret
    emma = _person(doc, "emma")
    assert emma["private"] is True and emma["living"] is True
    (birth,) = emma["facts"]
    assert birth["date"] == {"original": "1990s", "formal": "A+1990/+1999"}
    assert birth["place"] == {"original": "USA"}
    assert _person(doc, "daniel")["private"] is True
    assert "private" not in _person(doc, "thomas")
    masked = json.dumps(_gx(family, fam, mask_names=True))
    assert "Emma" not in masked and "Daniel" not in masked


def test_relationships(family: CaseGraph, fam: ModuleType) -> None:
    doc = _gx(family, fam)
    rels = {(r["type"], r["person1"]["resource"], r["person2"]["resource"]): r
            for r in doc["relationships"]}
    assert set(rels) == {
        (GX + "ParentChild", "#P-thomas", "#P-robert"),
        (GX + "ParentChild", "#P-robert", "#P-emma"),
        (GX + "Couple", "#P-emma", "#P-daniel"),
    }
    excerpt = rels[(GX + "ParentChild", "#P-thomas", "#P-robert")]["sources"][0]
    assert excerpt["attribution"]["changeMessage"] == "Robert Whitfield, son of Thomas Whitfield"


def test_unsourced_claims_hypotheses_and_sources(family: CaseGraph, fam: ModuleType) -> None:
    doc = _gx(family, fam)
    assert "farmer" not in json.dumps(doc)  # an uncited claim is never stated
    notes = _person(doc, "thomas")["notes"]
    assert notes == [{"subject": "Hypothesis (not a fact)",
                      "text": "Thomas Whitfield's parents may have come from Kentucky."}]
    sds = {sd["id"]: sd for sd in doc["sourceDescriptions"]}
    assert len(sds) == len(family.snapshots) + 1  # one per snapshot, plus the case itself
    death = next(sd for sd in sds.values() if sd.get("about") == "https://example.org/il/death/1978/4411")
    assert death["titles"] == [{"value": "Illinois death certificate"}]
    citation = death["citations"][0]["value"]
    assert citation.startswith("\u201cIllinois death certificate,\u201d digital copy (")
    assert "accessed 1 March 2024" in citation


def test_export_does_not_mutate_input(family: CaseGraph, fam: ModuleType) -> None:
    before = family.model_dump(mode="json")
    to_gedcomx(family, today=fam.TODAY)
    assert family.model_dump(mode="json") == before


# -- shape, judged by FamilySearch's own files ---------------------------------------------
def _check_shape(doc: Obj, familysearch: list[Obj]) -> None:
    theirs: dict[str, dict[str, set[str]]] = {}
    for record in familysearch:
        _members(record, acc=theirs)
    ours = _members(doc)
    for kind, members in ours.items():
        for member, types in members.items():
            if member in theirs.get(kind, {}):
                assert types <= theirs[kind][member], (kind, member, types)
            else:
                assert member in SPEC_ONLY.get(kind, set()), (kind, member)
    # the vocabulary is FamilySearch's: every type URI we use appears in their records
    def vocab(docs: list[Obj], kind: str, member: str = "type") -> set[str]:
        out: set[str] = set()
        for d in docs:
            acc: dict[str, list[Any]] = {}
            _values(d, "Gedcomx", kind, member, acc)
            out.update(acc.get("v", []))
        return out

    for kind in ("Fact", "NamePart", "Name", "Gender", "Relationship"):
        mine = vocab([doc], kind)
        if kind == "Fact":  # custom types as FamilySearch writes them; other spec'd types
            mine = {t for t in mine if not re.match(r"^data:,[\w%.~-]+$", t)} - SPEC_FACT_TYPES
        assert mine <= vocab(familysearch, kind), (kind, mine)
    # every id is unique and every local reference resolves (JSON format spec section 7)
    ids = [o["id"] for o in _walk(doc) if isinstance(o.get("id"), str)]
    assert len(ids) == len(set(ids))
    refs = [o[k] for o in _walk(doc) for k in ("resource", "description")
            if isinstance(o.get(k), str) and o[k].startswith("#")]
    assert refs and {r[1:] for r in refs} <= set(ids)
    formals = [f["date"]["formal"] for f in _facts(doc) if "formal" in f.get("date", {})]
    assert formals and all(FORMAL.match(f) for f in formals)


def _values(obj: Any, kind: str, want: str, member: str, acc: dict[str, list[Any]]) -> None:
    for o in obj if isinstance(obj, list) else [obj]:
        if isinstance(o, dict):
            if kind == want and member in o:
                acc.setdefault("v", []).append(o[member])
            for key, value in o.items():
                if (child := CHILD.get(kind, {}).get(key)) is not None:
                    _values(value, child, want, member, acc)


def test_shape_matches_familysearch_records(
    family: CaseGraph, fam: ModuleType, familysearch: list[Obj]
) -> None:
    assert len(familysearch) >= 100
    doc = _gx(family, fam)
    _check_shape(doc, familysearch)
    ours = _members(doc)  # the core members are really there, on both sides
    for kind, member in (("NamePart", "type"), ("Fact", "type"), ("Fact", "date"),
                         ("Fact", "place"), ("Relationship", "person1"), ("Date", "formal"),
                         ("SourceDescription", "citations"), ("Name", "nameForms")):
        assert member in ours[kind]


@pytest.mark.slow
def test_kennedy_case(store: Store, familysearch: list[Obj]) -> None:
    ingest_path(store, shared_path("gedcom", "samples", "kennedy.ged"))
    case = case_graph(store, title="kennedy")
    doc = to_gedcomx(case)
    assert len(doc["persons"]) == len(case.persons) == 208
    kinds = [r["type"] for r in doc["relationships"]]
    assert kinds.count(GX + "ParentChild") == sum(len(p.parents) for p in case.persons)
    couples = {frozenset({p.id, s}) for p in case.persons for s in p.spouses}
    assert kinds.count(GX + "Couple") == len(couples)
    assert all(f["sources"] for f in _facts(doc))
    assert all(r.get("sources") for r in doc["relationships"])
    living = [p for p in doc["persons"] if p.get("living")]
    assert living and all(p["private"] for p in living)
    _check_shape(doc, familysearch)


def test_cli_export_format_gedcomx(case_dir: Path, tmp_path: Path) -> None:
    from importlib import resources

    from typer.testing import CliRunner

    from sleuth.cli.app import app

    sample = Path(str(resources.files("sleuth") / "data" / "sample"))
    runner = CliRunner()
    obit = sample / "1916-03-14_obituary_hollis.txt"
    assert runner.invoke(app, ["ingest", str(case_dir), str(obit)]).exit_code == 0
    out = tmp_path / "case.gedcomx.json"
    result = runner.invoke(app, ["export", str(case_dir), "--format", "gedcomx", "--out", str(out)])
    assert result.exit_code == 0, result.output
    doc = json.loads(out.read_text(encoding="utf-8"))
    names = {n["nameForms"][0]["fullText"] for p in doc["persons"] for n in p["names"]}
    assert "Samuel Hollis" in names
    assert all(f["sources"] for f in _facts(doc))
