"""A source is one place (issue 21): one YAML spec and one parser module, no other file.

The test writes a new source - "Parish Chest", a JSON register index served on 127.0.0.1 -
as a spec in the user's sources folder and its parser as a module on the path, registered
the way the built-ins are (`record.parsers`). Everything else asks the spec: `sleuth sources
list` shows it; its search hits are followed by its declared call; its record pages reach its
parser and pass the firewall; the GPS knows its pages as parish registers, its record set
covers an English baptism of 1790 in `sleuth coverage`'s catalogue, and a search of it counts
for the checklist's baptism records; `sleuth cite` cites a promoted fact from it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer
from typer.testing import CliRunner

from sleuth.cli.app import app
from sleuth.gps.catalogue import relevant
from sleuth.gps.checklist import REQUIRED_SETS, holders
from sleuth.gps.kinds import describe
from sleuth.model import ResearchQuestion
from sleuth.model.evidence import SourceKind
from sleuth.pipeline.staging import process_snapshot
from sleuth.sources.fetcher import Fetcher
from sleuth.sources.hits import has_hits, search_hits
from sleuth.sources.plugins import load_plugin
from sleuth.sources.registry import load_registry
from sleuth.store import Store
from sleuth.verify.firewall import Source, check_candidates

SPEC = """\
id: parish_chest
name: Parish Chest register index
tier: 0
kind: json
base_url: {base}
local: true
compliance:
  robots_txt: false
  requests_per_minute: 60
  requires_auth: false
  allowed_actions: [search, api]
reliability:
  evidence_type: secondary
  base_weight: 0.7
endpoints:
  entry: /entry/{{id}}
search:
  endpoint: /search
  params: {{surname: "{{surname}}", given: "{{given_name}}"}}
  result_path: results
record:
  kind: parish_register
  hosts: [parishchest.example]
  events: [baptism, burial]
  record_sets:
    - name: Parish Chest transcriptions (baptisms, burials)
      questions: [birth, parents, death]
      start: 1600
      end: 1900
      places: ["region:england_wales"]
  parsers: [chest_parser]
follow:
  hits: {{endpoint: entry, placeholder: id, id_keys: [entry_id]}}
"""

PARSER = '''\
"""Parish Chest register entries (JSON): the baptised child, the day, the parish, the father."""

import json

from sleuth.extract.dates import parse_date
from sleuth.extract.records.common import RecordDoc


def detect(snap, raw):
    try:
        return json.loads(snap.text).get("register") == "Parish Chest"
    except (ValueError, AttributeError):
        return False


def extract(snap, raw):
    doc = RecordDoc(snap.text, snap.id, evidence_type=snap.evidence_type,
                    source_reliability=0.7)
    entry = json.loads(snap.text)

    def line(key):  # the entry's own line: its label is the value's context
        return doc.find(f'"{key}": {json.dumps(entry[key])}')

    why = "Parish Chest baptism entry"
    child, day = entry["child"], parse_date(entry["baptised"])
    doc.emit("p1", "name", child, line("child"), 0.9, why, subject_name=child)
    doc.emit("p1", "baptism_date", day.iso(), line("baptised"), 0.9, why, date=day)
    doc.emit("p1", "baptism_place", entry["parish"], line("parish"), 0.9, why)
    father = entry["father"]
    doc.emit("p2", "name", father, line("father"), 0.9, why, subject_name=father)
    doc.emit("p1", "parent", father, line("father"), 0.9, why, related="p2",
             related_name=father)
    return doc.out
'''

ENTRY = {"register": "Parish Chest", "child": "Ann Rebecca Stroud",
         "baptised": "12 Mar 1790", "parish": "Zennor, Cornwall, England",
         "father": "Alfred Stroud"}


@pytest.fixture
def chest(tmp_path: Path, httpserver: HTTPServer, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The new source's two files, the user's sources folder on the environment."""
    specs, code = tmp_path / "specs", tmp_path / "code"
    specs.mkdir()
    code.mkdir()
    base = httpserver.url_for("/").rstrip("/")
    (specs / "parish_chest.yaml").write_text(SPEC.format(base=base), encoding="utf-8")
    (code / "chest_parser.py").write_text(PARSER, encoding="utf-8")
    monkeypatch.setenv("SLEUTH_SOURCES_DIR", str(specs))
    monkeypatch.syspath_prepend(str(code))
    httpserver.expect_request("/search").respond_with_json(
        {"results": [{"entry_id": "PC-17", "name": "Ann Rebecca Stroud", "year": 1790}]})
    httpserver.expect_request("/entry/PC-17").respond_with_data(
        json.dumps(ENTRY, indent=1), content_type="application/json")
    return specs


def test_the_new_source_is_listed(chest: Path, case_dir: Path,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    result = CliRunner().invoke(app, ["sources", "list", "--case", str(case_dir)])
    assert result.exit_code == 0, result.output
    row = next(line for line in result.output.splitlines() if "parish_chest" in line)
    assert "60/min" in row and "none prohibited" in row


def test_its_hits_are_followed_to_records_its_parser_reads(
        chest: Path, httpserver: HTTPServer, store: Store,
        fetcher_for: Callable[..., Fetcher]) -> None:
    spec = load_registry().get("parish_chest")
    plugin = load_plugin(spec, fetcher_for(spec))
    found = plugin.search({"given": "Ann Rebecca", "surname": "Stroud", "birth_year": 1790})
    assert has_hits(spec)
    hits = search_hits(spec, found.snapshot.text, {"name": "Ann Rebecca Stroud",
                                                   "birth_year": 1790})
    assert [h.ident for h in hits] == ["PC-17"]
    assert spec.follow.hits is not None
    record = plugin.call(spec.follow.hits.endpoint, **{spec.follow.hits.placeholder: "PC-17"})
    cands = plugin.candidates(record) or []
    assert {(c.subject, c.field, c.value) for c in cands} >= {
        ("p1", "name", "Ann Rebecca Stroud"), ("p1", "baptism_date", "1790-03-12"),
        ("p1", "parent", "Alfred Stroud")}
    report = check_candidates(cands, {record.snapshot.id: Source.of(record.snapshot.text)})
    assert not report.rejected, [str(v) for v in report.violations]
    assert describe(record.snapshot).kind == SourceKind.PARISH_REGISTER


def test_the_gps_counts_its_record_set_and_its_searches(chest: Path) -> None:
    english = {rs.name: rs for rs in relevant(ResearchQuestion.BIRTH, [1790],
                                              ["Zennor, Cornwall, England"])}
    chest_set = english["Parish Chest transcriptions (baptisms, burials)"]
    assert chest_set.sources == ("parish_chest",)
    ohio = {rs.name for rs in relevant(ResearchQuestion.BIRTH, [1884], ["Ohio"])}
    assert chest_set.name not in ohio
    births = REQUIRED_SETS[ResearchQuestion.BIRTH][0]
    assert "parish_chest" in holders(births)


def test_sleuth_cite_cites_a_fact_from_it(chest: Path, case_dir: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    registry = load_registry(case_dir)
    store = Store.open_case(case_dir)
    try:
        with Fetcher(store, registry, contact="t@example.invalid", env={}) as fetcher:
            plugin = load_plugin(registry.get("parish_chest"), fetcher)
            record = plugin.call("entry", id="PC-17")
            with store.transaction() as conn:
                staged = process_snapshot(store, conn, record.snapshot,
                                          plugin.candidates(record) or [])
    finally:
        store.close()
    assert staged.promoted == 5, staged
    monkeypatch.setenv("COLUMNS", "200")
    result = CliRunner().invoke(app, ["cite", str(case_dir), "--format", "json"])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.output.splitlines() if line.startswith("{")]
    cited = [row["citation"] for row in rows if row["kind"] == "parish_register"]
    assert cited, result.output
    # its own name as the publisher, its page's address: not the built-in FreeREG's words
    assert all("Parish Chest register index" in c and "/entry/PC-17" in c
               and "FreeREG" not in c for c in cited), cited


def test_a_mirror_of_a_source_keeps_what_its_pages_are(tmp_path: Path) -> None:
    """A spec replacing a built-in of its id (a local mirror) keeps the built-in's `record`
    and `follow` unless it sets them: same pages, same hits, another address."""
    folder = tmp_path / "mine"
    folder.mkdir()
    mirror = load_registry().get("wikitree").model_dump(
        mode="json", exclude={"record", "follow"}, exclude_none=True)
    mirror.update(base_url="http://127.0.0.1:9", local=True)
    (folder / "wikitree.yaml").write_text(json.dumps(mirror), encoding="utf-8")
    (folder / "freereg.yaml").write_text(json.dumps({
        **load_registry().get("freereg").model_dump(mode="json", exclude_none=True),
        "record": {"events": ["baptism"]}}), encoding="utf-8")
    registry = load_registry(extra_dirs=(folder,))
    built_in = load_registry().get("wikitree")
    assert registry.get("wikitree").base_url == "http://127.0.0.1:9"
    assert registry.get("wikitree").follow == built_in.follow
    assert registry.get("wikitree").record == built_in.record
    assert registry.get("freereg").record.events == {"baptism"}  # what it sets, it decides
    assert registry.get("freereg").record.record_sets == ()
