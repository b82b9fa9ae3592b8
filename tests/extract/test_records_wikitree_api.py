"""WikiTree API responses (the API docs' real examples): fields, dates, links, privacy."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shared_data import shared_path
from sleuth.extract.records import extract_record, wikitree_api
from sleuth.model.records import Candidate, Snapshot
from sleuth.sources import load_file
from sleuth.verify import Source, check_candidates


def _examples() -> Path:
    return shared_path("recorded", "wikitree", "api_docs", "json_examples")


def _run(name: str) -> tuple[Snapshot, list[Candidate]]:
    snap = load_file(_examples() / name).snapshot
    assert wikitree_api.detect(snap, None), name
    return snap, wikitree_api.extract(snap, None)


def _passes(snap: Snapshot, cands: list[Candidate]) -> None:
    rep = check_candidates(cands, {snap.id: Source.of(snap.text)})
    assert not rep.rejected, rep.violations
    for c in cands:
        loc = c.citation.locator
        assert c.citation.excerpt == snap.text[loc.start : loc.end]


def _facts(cands: list[Candidate], subject: str) -> dict[str, str]:
    return {c.field: c.value for c in cands if c.subject == subject}


def test_every_example_passes_the_firewall() -> None:
    total = 0
    for path in sorted(_examples().glob("*.json")):
        if path.name == "index.json":
            continue
        snap = load_file(path, lenient=True).snapshot  # records or not (issue 26)
        cands = wikitree_api.extract(snap, None)
        _passes(snap, cands)
        total += len(cands)
    assert total >= 180


def test_get_profile_fields_and_excerpts() -> None:
    snap, cands = _run("getProfile_3.json")
    p1 = _facts(cands, "p1")
    assert p1 == {"name": "Samuel Clemens", "wikitree_id": "Clemens-1", "given_name": "Samuel",
                  "birth_surname": "Clemens", "birth_date": "1835-11-30",
                  "death_date": "1910-04-21"}
    birth = next(c for c in cands if c.field == "birth_date")
    assert birth.citation.excerpt == '"BirthDate": "1835-11-30"'
    _passes(snap, cands)
    assert {c.field for c in extract_record(snap, None) or []} >= {"birth_date"}


def test_partial_dates_are_ranges() -> None:
    _, cands = _run("getPeople_3.json")
    by_id = {c.value: c.subject for c in cands if c.field == "wikitree_id"}
    katherine = {c.field: c for c in cands if c.subject == by_id["Haggart-23"]}
    edward = {c.field: c for c in cands if c.subject == by_id["Rhodes-4392"]}
    assert katherine["birth_date"].value == "1879"  # "1879-00-00"
    assert str(katherine["birth_date"].date.earliest) == "1879-01-01"
    assert str(katherine["birth_date"].date.latest) == "1879-12-31"
    assert edward["birth_date"].value == "1856-02"  # "1856-02-00"
    assert str(edward["birth_date"].date.latest) == "1856-02-29"


def test_parents_linked_by_id_and_cited_by_name() -> None:
    snap, cands = _run("getPeople_2.json")
    by_id = {c.value: c.subject for c in cands if c.field == "wikitree_id"}
    child, father = by_id["Hamill-277"], by_id["Hamill-300"]
    links = [c for c in cands if c.subject == child and c.field == "parent"]
    assert {c.value for c in links} == {"William Hamill", "Virginia Johnson"}
    dad = next(c for c in links if c.related == father)
    assert '"Name": "Hamill-300"' in dad.citation.excerpt and "William" in dad.citation.excerpt
    assert "'Father': 12116601" in dad.rationale
    assert any(c.subject == father and c.field == "child" and c.related == child for c in cands)
    assert any(c.subject == father and c.field == "sex" and c.value == "M" for c in cands)
    _passes(snap, cands)


def test_nameless_relatives_are_linked_by_wikitree_id() -> None:
    _, cands = _run("getAncestors.json")
    parents = sorted(c.value for c in cands if c.subject == "p1" and c.field == "parent")
    assert parents == ["Adams-38", "Bass-1"]
    assert all(c.related_name is None for c in cands if c.field == "parent")
    assert not any(c.field == "name" for c in cands)  # no name is made up from an id


def test_search_matches_are_separate_people() -> None:
    _, cands = _run("searchPerson.json")
    ids = [c.value for c in cands if c.field == "wikitree_id"]
    assert len(ids) == 9 and len(set(ids)) == 9  # the id-only match (20082962) names nobody
    assert not any(c.field in ("parent", "child", "spouse", "sibling") for c in cands)


def test_error_and_profile_less_responses_yield_nothing() -> None:
    for name in ("getProfile.json", "getCategories.json", "getPhotos.json"):
        _snap, cands = _run(name)
        assert cands == [], name


def _relatives_example() -> str:
    """The getRelatives doc example with its elided second item ("...") cut off."""
    md = shared_path("recorded", "wikitree", "api_docs", "md", "getRelatives.md").read_text()
    block = md.split("```")[1]
    body = block[block.index("\n[") + 1 :]
    cut = body.index(',\n      {\n        "key": "Adams-35"')
    tail = body.index("\n    ],\n    \"status\": 0")
    return body[:cut] + body[tail:]


def test_get_relatives_blocks_from_the_docs() -> None:
    text = _relatives_example()
    json.loads(text)  # the trimmed example is real, complete JSON
    snap = Snapshot(sha256="0" * 64, source_name="wikitree api", text=text)
    assert wikitree_api.detect(snap)
    cands = wikitree_api.extract(snap)
    _passes(snap, cands)
    p1 = [c for c in cands if c.subject == "p1"]
    assert sum(c.field == "child" for c in p1) == 4
    assert sum(c.field == "sibling" for c in p1) == 6
    assert sum(c.field == "parent" for c in p1) == 2
    spouse = [c for c in p1 if c.field == "spouse"]
    assert [c.value for c in spouse] == ["Langdon-1"]
    marriage = {c.field: c for c in p1 if c.field.startswith("marriage")}
    assert marriage["marriage_date"].value == "1870-02-02"
    assert marriage["marriage_place"].value == "Elmira, New York, USA"


# Hand-written responses in the documented shape (getProfile.md field table): the recorded
# examples carry no Privacy, DataStatus or location fields.
_PRIVATE = """[{"page_name": "Doe-1", "profile": {"Id": 1, "Name": "Doe-1", "FirstName": "Jane",
 "LastNameAtBirth": "Doe", "Privacy": %d, "BirthDate": "1950-04-02", "BirthDateDecade": "1950s",
 "BirthLocation": "Leeds, Yorkshire", "Gender": "Female", "Father": 2, "Parents": {"2": {"Id": 2,
 "Name": "Doe-2", "FirstName": "John", "LastNameAtBirth": "Doe", "Privacy": 60}}}, "status": 0}]"""


@pytest.mark.parametrize(("level", "dates", "tree", "anything"), [
    (60, "1950-04-02", True, True), (50, "1950-04-02", True, True),
    (40, "1950", True, True), (35, "1950", True, True), (30, "1950", False, True),
    (20, "1950", False, True), (10, None, False, False)])
def test_privacy_levels(level: int, dates: str | None, tree: bool, anything: bool) -> None:
    snap = Snapshot(sha256="0" * 64, source_name="wikitree api", text=_PRIVATE % level)
    cands = wikitree_api.extract(snap)
    _passes(snap, cands)
    jane = {c.field: c for c in cands if c.subject == "p1"} if anything else {}
    if not anything:
        assert not any(c.value.startswith("Jane") for c in cands)
        return
    assert jane["name"].value == "Jane Doe"
    assert jane["birth_date"].value == dates
    if dates == "1950":  # the decade, never the hidden day
        assert jane["birth_date"].citation.excerpt == '"BirthDateDecade": "1950s"'
        assert "birth_place" not in jane and "sex" not in jane
    assert ("parent" in jane) is tree


def test_data_status_qualifiers() -> None:
    text = ('[{"page_name": "Roe-1", "profile": {"Id": 5, "Name": "Roe-1", "FirstName": "Ann",'
            ' "BirthDate": "1850-00-00", "DeathDate": "1901-03-00", "DataStatus":'
            ' {"BirthDate": "before", "DeathDate": "guess"}}, "status": 0}]')
    snap = Snapshot(sha256="0" * 64, source_name="wikitree api", text=text)
    cands = {c.field: c for c in wikitree_api.extract(snap)}
    assert cands["birth_date"].date.qualifier == "before"
    assert cands["birth_date"].date.earliest is None
    assert cands["death_date"].date.qualifier == "estimated"
    assert "DataStatus 'guess'" in cands["death_date"].rationale
    assert wikitree_api.wikitree_date("0000-00-00") is None


def test_refuses_other_json() -> None:
    for text in ('{"persons": []}', '[{"status": 0}]', "[1, 2]", '{"entities": {}}',
                 '[{"status": 0, "profile": {"Name": "not an id"}}]'):
        assert not wikitree_api.detect(Snapshot(sha256="0" * 64, source_name="t", text=text))


def _sweep(folder: Path) -> dict[str, set[str]]:
    """Which shared files each new detector claims (files load_file refuses are skipped)."""
    from sleuth.extract.records import chronam, wikidata, wikipedia

    mods = {"wikitree_api": wikitree_api, "wikidata": wikidata, "wikipedia": wikipedia,
            "chronam": chronam}
    hits: dict[str, set[str]] = {k: set() for k in mods}
    for path in sorted(folder.rglob("*")):
        if not path.is_file() or path.suffix.lower() == ".pdf":
            continue
        try:
            loaded = load_file(path)
        except Exception:  # binary, empty, undecodable: not a snapshot at all
            continue
        for k, m in mods.items():
            if m.detect(loaded.snapshot, loaded.raw):
                hits[k].add(str(path.relative_to(folder)))
    return hits


def _expected(hits: dict[str, set[str]], prefix: str = "") -> None:
    homes = {"wikitree_api": "wikitree/api_docs/json_examples/", "wikidata": "wikidata/",
             "wikipedia": "wikipedia/wptools/", "chronam": "chronicling_america/"}
    for k, files in hits.items():
        assert all(f.startswith(prefix + homes[k]) for f in files), (k, files)


def test_detectors_claim_only_their_own_recordings() -> None:
    hits = _sweep(shared_path("recorded"))
    _expected(hits)
    assert len(hits["wikitree_api"]) == 13 and len(hits["wikipedia"]) == 7
    assert len(hits["wikidata"]) == 16
    # the ALTO page is read as pages since issue 22, and only Chronicling America claims it
    assert hits["chronam"] == {"chronicling_america/ocr.xml"}


@pytest.mark.slow
def test_detectors_over_all_shared_data() -> None:
    hits = _sweep(shared_path("recorded").parent)
    _expected(hits, "recorded/")
    assert sum(map(len, hits.values())) == 37
