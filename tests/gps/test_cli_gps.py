"""`sleuth cite` and `sleuth coverage` (wired into a local Typer app, as app.py will wire them)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import gps_case
import pytest
import typer
from typer.testing import CliRunner

from shared_data import shared_path
from sleuth.cli import gps
from sleuth.model import InputError, NotFound
from sleuth.store import Store, case_graph

app = typer.Typer()
app.command("cite")(gps.cite)
app.command("coverage")(gps.coverage_cmd)
runner = CliRunner()
SEARCH = ("recorded", "wikitree", "api_docs", "json_examples", "searchPerson.json")


def _case(case_dir: Path, *names: str) -> str:
    store = Store.open_case(case_dir)
    try:
        for name in names:
            gps_case.fs(store, name)
        g = case_graph(store)
        return next(p.id for p in g.persons if p.canonical_name.startswith(("Elmer", "Sarah")))
    finally:
        store.close()


def _run(*args: str) -> str:
    result = runner.invoke(app, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def test_cite_json_markdown_and_text(case_dir: Path) -> None:
    elmer = _case(case_dir, "us_va_death_1955_elmer_davis.json")
    lines = _run("cite", str(case_dir), "--person", elmer, "--format", "json").splitlines()
    rows = [json.loads(x) for x in lines]  # CLI.md: one object per source
    assert [set(r) >= {"source", "style", "citation"} for r in rows] == [True]
    assert "ark:/61903/1:1:QVRD-74QJ" in rows[0]["citation"] and rows[0]["style"] == "ee-full"
    data = json.loads(_run("cite", str(case_dir), "--person", elmer, "--format", "json-full"))
    [person] = data["persons"]
    death = next(c for c in person["citations"] if c["field"] == "death_date")
    assert "https://www.familysearch.org/ark:/61903/1:1:QVRD-74QJ" in death["ee_full"]
    assert (death["source_class"], death["information_class"], death["evidence_class"]) == (
        "derivative", "primary", "direct")
    assert death["ee_short"].endswith("ARK 1:1:QVRD-74QJ.")
    assert len(data["sources"]) == 1
    md = _run("cite", str(case_dir), "--format", "markdown", "--style", "ee-short")
    assert "## Elmer Lawrence Davis" in md and "\n## Sources\n" in md
    text = _run("cite", str(case_dir), "--style", "source-list")
    assert text.strip().endswith("Database with images. FamilySearch. "
                                 "https://www.familysearch.org.")


def test_cite_refuses_bad_options(case_dir: Path) -> None:
    _case(case_dir, "us_va_death_1955_elmer_davis.json")
    with pytest.raises(InputError):
        runner.invoke(app, ["cite", str(case_dir), "--format", "xml"], catch_exceptions=False)
    with pytest.raises(NotFound):
        runner.invoke(app, ["cite", str(case_dir), "--person", "nobody"],
                      catch_exceptions=False)


def test_cite_redacts_living_persons(case_dir: Path) -> None:
    _case(case_dir, "us_tx_divorce_1976_sarah_pate.json")
    out = _run("cite", str(case_dir), "--format", "json-full")
    assert not any(s in _run("cite", str(case_dir), "--format", "json")
                   for s in ("1976-06-09", "1976-02-14"))
    for secret in ("1976-06-09", "1976-02-14"):
        assert secret not in out
    data = json.loads(out)
    assert all(p["living"] for p in data["persons"])
    cites = [c for p in data["persons"] for c in p["citations"]]
    assert cites and all(c["excerpt"].startswith("[redacted") for c in cites)
    # classified from the stored record although the Censor withheld its text
    assert {c["source_class"] for c in cites} == {"derivative"}
    assert all("Texas Divorce Index, 1968-2010" in c["ee_full"] for c in cites)
    masked = _run("cite", str(case_dir), "--format", "json-full", "--mask-names")
    assert "Sarah E Pate" not in masked and "John T Pate" not in masked


def test_coverage_records_negative_evidence_once(case_dir: Path) -> None:
    elmer = _case(case_dir, "us_va_death_1955_elmer_davis.json")
    store = Store.open_case(case_dir)
    try:
        gps_case.log_search(store, source="wikitree", name="Elmer Lawrence Davis",
                            person_id=elmer, response=shared_path(*SEARCH),
                            url="https://api.wikitree.com/api.php?action=searchPerson")
    finally:
        store.close()
    first = json.loads(_run("coverage", str(case_dir), "--person", elmer, "--format", "json"))
    assert first["negative_recorded"] == 4
    death = next(q for q in first["persons"][0]["questions"] if q["question"] == "death")
    assert death["exhaustive"] and death["negative"][0]["hits"] == 10
    again = json.loads(_run("coverage", str(case_dir), "--format", "json"))
    assert again["negative_recorded"] == 0
    text = _run("coverage", str(case_dir), "--person", elmer, "--no-record")
    assert "  birth: not yet exhaustive" in text and "  death: reasonably exhaustive" in text
    assert "no result (negative evidence): wikitree (10 hits, 0 matching)" in text


def test_cite_a_file_without_a_case() -> None:
    """CLI.md: `sleuth cite FILE`: the file is read into a throw-away case."""
    record = shared_path("recorded", "familysearch", "saved_fetch_objects",
                         "us_va_death_1955_elmer_davis.json")
    rows = [json.loads(x) for x in _run("cite", str(record), "--format", "json").splitlines()]
    assert len(rows) == 1 and "ark:/61903/1:1:QVRD-74QJ" in rows[0]["citation"]
    assert rows[0]["kind"] == "familysearch_record"


def test_cite_source_list_gives_each_source_once(case_dir: Path) -> None:
    """Two records of one collection are one bibliography entry (issue 19: the source list
    repeated a line per stored copy)."""
    _case(case_dir, "england_baptism_1838_george_newberry.json",
          "england_child_baptism_1882_charlotte.json", "us_va_death_1955_elmer_davis.json")
    lines = [x for x in _run("cite", str(case_dir), "--style", "source-list").splitlines()
             if x.strip()]
    assert len(lines) == len(set(lines)) == 2
    assert any(x.startswith("“England Births and Christenings, 1538-1975.”") for x in lines)
    rows = [json.loads(x) for x in _run("cite", str(case_dir), "--style", "source-list",
                                        "--format", "json").splitlines()]
    assert len(rows) == 2 and len({r["citation"] for r in rows}) == 2
    # the note styles still give one note per stored record
    full = _run("cite", str(case_dir), "--format", "json").splitlines()
    assert len(full) == 3


def test_cite_markdown_has_no_empty_headings(case_dir: Path) -> None:
    _case(case_dir, "us_va_death_1955_elmer_davis.json",
          "england_baptism_1838_george_newberry.json")
    for style in ("ee-full", "ee-short", "source-list"):
        md = _run("cite", str(case_dir), "--format", "markdown", "--style", style)
        blocks = re.split(r"(?m)^## ", md)
        assert len(blocks) > 1, style
        for block in blocks[1:]:
            body = [x for x in block.splitlines()[1:] if x.strip()]
            assert body, f"{style}: empty heading {block.splitlines()[0]!r}"
    assert "## Elmer Lawrence Davis" not in _run(
        "cite", str(case_dir), "--format", "markdown", "--style", "source-list")
