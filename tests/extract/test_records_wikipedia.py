"""Wikipedia API responses (wptools recordings): person infoboxes and the REST summary lead."""

from __future__ import annotations

from pathlib import Path

from shared_data import shared_path
from sleuth.extract.records import wikipedia
from sleuth.extract.records.familysearch import parse_spans
from sleuth.model.records import Candidate, Snapshot
from sleuth.sources import load_file
from sleuth.verify import Source, check_candidates


def _load(name: str) -> tuple[Snapshot, list[Candidate]]:
    snap = load_file(shared_path("recorded", "wikipedia", "wptools", name)).snapshot
    return snap, wikipedia.extract(snap, None)


def test_every_recording_passes_the_firewall() -> None:
    total = 0
    for path in sorted(Path(shared_path("recorded", "wikipedia", "wptools")).glob("*")):
        if path.name.startswith("LICENSE"):
            continue
        snap = load_file(path, lenient=True).snapshot  # records or not (issue 26)
        cands = wikipedia.extract(snap, None)
        rep = check_candidates(cands, {snap.id: Source.of(snap.text)})
        assert not rep.rejected, (path.name, rep.violations)
        for c in cands:
            loc = c.citation.locator
            assert c.citation.excerpt == snap.text[loc.start : loc.end]
        total += len(cands)
    assert total >= 10


def test_douglas_adams_infobox() -> None:
    _, cands = _load("parse.json")
    f = {c.field: c for c in cands if c.subject == "p1" and c.field != "name"}
    assert f["birth_date"].value == "1952-03-11"
    assert f["birth_date"].citation.excerpt == \
        "| birth_date    = {{birth date|1952|3|11|df=yes}}"
    assert f["death_date"].value == "2001-05-11"
    assert f["birth_place"].value == "Cambridge, England"
    assert f["death_place"].value == "Montecito, California, U.S."
    assert f["burial_place"].value == "Highgate Cemetery, London, England"
    names = {c.value for c in cands if c.field == "name"}
    assert names == {"Douglas Adams", "Douglas Noel Adams"}


def test_non_person_infoboxes_yield_nothing() -> None:
    for name in ("parse_infobox.json", "parse_109.json", "parse_62.json", "parse_66.json"):
        snap, cands = _load(name)
        assert wikipedia.detect(snap, None) and cands == [], name


def test_summary_lead_through_the_prose_extractor() -> None:
    _snap, cands = _load("rest_summary.json")
    f = {c.field: c.value for c in cands}
    assert f["name"] == "Douglas Noel Adams"
    assert f["birth_date"] == "1952-03-11" and f["death_date"] == "2001-05-11"


def test_string_offsets_follow_escapes() -> None:
    text = '{"extract": "Jos\\u00e9 said \\"hi\\"\\nBorn 1901."}'
    node = parse_spans(text).get("extract")
    jt = wikipedia.json_text(text, node)
    assert jt is not None and jt.value == 'José said "hi"\nBorn 1901.'
    i = jt.value.index("Born 1901.")
    assert jt.stored(text, i, i + 10) == (text.index("Born"), text.index("Born") + 10)
    assert jt.stored(text, 0, 4) is None  # "José" is stored escaped: not verbatim


def test_refuses_other_json() -> None:
    for text in ('{"parse": {}}', '{"extract": "x"}', '{"entities": {}}', "[]"):
        assert not wikipedia.detect(Snapshot(sha256="0" * 64, source_name="t", text=text))
