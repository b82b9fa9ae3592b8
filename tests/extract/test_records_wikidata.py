"""Wikidata wbgetentities responses (wptools and dahlia recordings): dates, ids, refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

from shared_data import shared_path
from sleuth.extract.records import extract_record, wikidata
from sleuth.extract.records.familysearch import parse_spans
from sleuth.model.records import Candidate, Snapshot
from sleuth.sources import load_file
from sleuth.verify import Source, check_candidates


def _load(*parts: str) -> tuple[Snapshot, list[Candidate]]:
    snap = load_file(shared_path("recorded", "wikidata", *parts)).snapshot
    return snap, wikidata.extract(snap, None)


def _by_field(cands: list[Candidate]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for c in cands:
        out.setdefault(c.field, []).append(c.value)
    return out


def test_every_recording_passes_the_firewall() -> None:
    root = shared_path("recorded", "wikidata")
    total = 0
    for path in sorted(Path(root).rglob("*.json")):
        snap = load_file(path, lenient=True).snapshot  # records or not (issue 26)
        cands = wikidata.extract(snap, None)
        rep = check_candidates(cands, {snap.id: Source.of(snap.text)})
        assert not rep.rejected, (path.name, rep.violations)
        total += len(cands)
    assert total >= 40


def test_douglas_adams_q42() -> None:
    snap, cands = _load("wptools", "wikidata.json")
    f = _by_field(cands)
    assert f["name"] == ["Douglas Adams"] and f["wikidata_id"] == ["Q42"]
    assert f["birth_date"] == ["1952-03-11"] and f["death_date"] == ["2001-05-11"]
    assert f["sex"] == ["M"]
    # The places are item ids here; their labels (Cambridge, Santa Barbara) are only in
    # separate label look-ups, so no place name is claimed from this response.
    assert f["birth_place_qid"] == ["Q350"] and f["death_place_qid"] == ["Q159288"]
    assert "birth_place" not in f and "parent" not in f
    assert f["father_qid"] == ["Q14623675"] and f["child_qid"] == ["Q14623683"]
    assert "Douglas Noël Adams" in f["name_variant"]
    birth = next(c for c in cands if c.field == "birth_date")
    assert '"property": "P569"' in birth.citation.excerpt
    assert '"+1952-03-11T00:00:00Z"' in birth.citation.excerpt
    assert birth.date.precision == "day"
    assert {c.field for c in extract_record(snap, None) or []} >= {"birth_date"}


def test_labels_live_in_their_own_lookup() -> None:
    snap = load_file(shared_path("recorded", "wikidata", "wptools", "labels_3.json")).snapshot
    assert wikidata.labels(snap)["Q350"] == "Cambridge"
    assert wikidata.extract(snap, None) == []  # labels alone make nobody a person


def test_living_persons_and_redirect() -> None:
    _, iu = _load("dahlia_fixtures", "entities", "Q20145.json")
    f = _by_field(iu)
    assert f["birth_date"] == ["1993-05-16"] and f["sex"] == ["F"] and f["name"] == ["IU"]
    _, kangnam = _load("dahlia_fixtures", "entities", "Q16231742.json")
    ids = [c for c in kangnam if c.field == "wikidata_id"]
    assert [c.value for c in ids] == ["Q3571994"]  # the redirect target is what came back
    # Escaped labels ("\\uac15\\ub0a8") are not what the stored text shows: not cited.
    assert all("\\u" not in c.citation.excerpt for c in kangnam if c.field == "name")


@pytest.mark.parametrize("name", ["wikidata_deleted.json", "wikidata_novalue_snak.json",
                                  "labels_wanted.json", "wikidata_images.json"])
def test_deleted_novalue_and_non_people_yield_nothing(name: str) -> None:
    _, cands = _load("wptools", name)
    assert cands == []


def _time(t: str, precision: int, cal: str = wikidata.GREGORIAN):
    text = (f'{{"time": "{t}", "precision": {precision}, '
            f'"calendarmodel": "http://www.wikidata.org/entity/{cal}"}}')
    return wikidata.wikidata_time(parse_spans(text))


def test_precision_and_calendar() -> None:
    assert _time("+1952-03-11T00:00:00Z", 11).iso() == "1952-03-11"
    month = _time("+1952-03-00T00:00:00Z", 10)
    assert (month.iso(), str(month.latest)) == ("1952-03", "1952-03-31")
    assert _time("+1952-00-00T00:00:00Z", 9).iso() == "1952"
    decade = _time("+1950-00-00T00:00:00Z", 8)
    assert (decade.earliest.year, decade.latest.year) == (1950, 1959)
    century = _time("+1900-00-00T00:00:00Z", 7)
    assert (century.earliest.year, century.latest.year) == (1801, 1900)
    jul = _time("+1752-09-02T00:00:00Z", 11, wikidata.JULIAN)
    assert jul.calendar == "julian" and str(jul.earliest) == "1752-09-13"
    assert _time("-0044-03-15T00:00:00Z", 11) is None  # BCE is not guessed at


def test_refuses_other_json() -> None:
    for text in ('{"entities": {"foo": {}}}', '{"persons": []}', '[{"status": 0}]',
                 '{"entities": {}}'):
        assert not wikidata.detect(Snapshot(sha256="0" * 64, source_name="t", text=text))


def test_a_date_of_unknown_value_is_skipped() -> None:
    """A "somevalue" snak (Wikidata's "unknown value": the person died, the day is not
    known) has no datavalue: it gives no date, and the entity's other facts stay."""
    import json

    data = json.loads(shared_path("recorded", "wikidata", "wptools", "wikidata.json")
                      .read_text(encoding="utf-8"))
    entity = next(iter(data["entities"].values()))
    for snak in entity["claims"]["P570"]:
        snak["mainsnak"]["snaktype"] = "somevalue"
        del snak["mainsnak"]["datavalue"]
    text = json.dumps(data, indent=1)
    snap = Snapshot(sha256="0" * 64, source_name="t", text=text)
    f = _by_field(wikidata.extract(snap, None))
    assert f["birth_date"] == ["1952-03-11"] and "death_date" not in f
