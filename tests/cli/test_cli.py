"""The command line, through its runner, against the contract in ../shared/CLI.md."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from datetime import date
from importlib import resources
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sleuth.cli.app import app

SAMPLE = Path(str(resources.files("sleuth") / "data" / "sample"))
OBIT = SAMPLE / "1916-03-14_obituary_hollis.txt"
runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(a) for a in args])
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def test_every_command_has_help() -> None:
    for cmd in ("demo", "init", "ingest", "extract", "review", "show", "export", "check"):
        code, out, _ = run(cmd, "--help")
        assert code == 0 and "Usage" in out


def test_extract_json_lines_follow_the_contract() -> None:
    code, out, _ = run("extract", OBIT, "--format", "json")
    assert code == 0
    rows = [json.loads(line) for line in out.splitlines()]
    keys = {"file", "subject", "field", "value", "excerpt", "start", "end", "page",
            "confidence", "is_fact"}
    assert rows and all(keys <= set(r) for r in rows)
    text = OBIT.read_text()
    for r in rows:
        assert text[r["start"] : r["end"]] == r["excerpt"]
    death = next(r for r in rows if r["field"] == "death_date")
    assert death["value"] == "1916-03-09"
    assert any(not r["is_fact"] for r in rows)  # the age-derived birth range is a hypothesis


def test_case_workflow(case_dir: Path, tmp_path: Path) -> None:
    code, out, _ = run("ingest", case_dir, OBIT, SAMPLE / "register_buck_valley_1838.txt")
    assert code == 0 and "promoted" in out
    code, out, _ = run("ingest", case_dir, OBIT)
    assert "already stored" in out
    code, out, _ = run("show", case_dir, "person")
    assert code == 0 and "Samuel Hollis" in out
    code, out, _ = run("review", case_dir, "--format", "json")
    items = [json.loads(line) for line in out.splitlines()]
    assert items
    code, out, _ = run("review", case_dir, "--accept", items[0]["id"], "--reason", "clear text")
    assert code == 0 and "accepted" in out
    code, _, err = run("review", case_dir, "--accept", items[0]["id"], "--reason", "again")
    assert code == 2 and "already accepted" in err
    code, out, _ = run("review", case_dir, "--all", "--format", "json")
    decided = {i["id"]: i for i in map(json.loads, out.splitlines())}[items[0]["id"]]
    assert (decided["reason"], decided["decided_by"]) == ("clear text", "Human")
    assert decided["queue_reason"] == items[0]["reason"] != "clear text"
    report = tmp_path / "out" / "report.md"
    code, _, _ = run("export", case_dir, "--format", "report", "--out", report)
    assert code == 0 and "Samuel Hollis" in report.read_text()
    code, out, _ = run("export", case_dir, "--format", "jsonld")
    graph = json.loads(out)
    assert "@context" in graph
    for fmt, vers in (("gedcom", "2 VERS 5.5.1"), ("gedcom7", "2 VERS 7.0")):
        code, out, _ = run("export", case_dir, "--format", fmt)
        assert code == 0 and out.startswith("0 HEAD") and vers in out and "Samuel /Hollis/" in out


def test_show_finds_a_person_by_name(case_dir: Path) -> None:
    """A user reads names in the report: `show` takes one, and a name that fits several
    persons is an error listing them (never a guess)."""
    run("ingest", case_dir, OBIT, SAMPLE / "register_buck_valley_1838.txt")
    code, out, _ = run("show", case_dir, "person", "samuel  HOLLIS")
    assert code == 0 and out.startswith("Samuel Hollis") and "death_date" in out
    _, listing, _ = run("show", case_dir, "person")
    pid = next(line.split()[0] for line in listing.splitlines() if "Samuel Hollis" in line)
    assert re.fullmatch(r"[0-9a-f]{32}", pid)
    # an ingest's ids ascend: the first ten characters name one, as do the last eight
    assert run("show", case_dir, "person", pid[:10])[1] == out
    assert run("show", case_dir, "person", pid[-8:])[1] == out
    code, _, err = run("show", case_dir, "person", "Hollis")
    assert code == 1 and "is ambiguous" in err and "Samuel Hollis" in err and "give an id" in err
    code, _, err = run("show", case_dir, "person", "Nobody Anywhere")
    assert code == 1 and "does not exist" in err


def test_bad_input_names_the_file_and_changes_nothing(case_dir: Path, tmp_path: Path) -> None:
    missing = tmp_path / "nope.txt"
    code, _, err = run("ingest", case_dir, missing)
    assert code == 2 and "nope.txt" in err and "no such file" in err
    code, _, err = run("export", case_dir, "--format", "pdf")
    assert code == 2 and "--format" in err
    code, _, err = run("init", case_dir)
    assert code == 1 and "already a sleuth case" in err
    code, _, err = run("show", tmp_path / "not-a-case", "person")
    assert code == 1 and "not a sleuth case" in err


def test_installed_entry_point_and_demo(tmp_path: Path) -> None:
    """The README's main command: a simulated world researched offline into a case folder,
    with no living person's birth date in any file it writes."""
    from sleuth.world import World

    out = tmp_path / "demo"
    proc = subprocess.run([sys.executable, "-m", "sleuth", "demo", "--out", str(out)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    files = ("report.md", "tree.ged", "graph.jsonld", "research-log.jsonl",
             "review-summary.md")
    assert all((out / f).is_file() for f in files)
    world = World(7, 100)
    seed = world.pop.persons[world.pop.seed_person]
    report = (out / "report.md").read_text()
    assert seed.given.split()[0] in report and "[^1]:" in report  # footnoted facts
    assert (out / "tree.ged").read_text().startswith("0 HEAD")
    assert json.loads((out / "graph.jsonld").read_text())["@graph"]
    log = [json.loads(x) for x in (out / "research-log.jsonl").read_text().splitlines()]
    assert log[-1]["action_type"] == "termination" and log[-1]["context"]["reasons"]
    assert "open items" in (out / "review-summary.md").read_text()
    from sleuth.store import Store, case_graph
    from sleuth.world.pedigree import seed_checks

    store = Store.open_case(out)
    try:
        checks = seed_checks(case_graph(store), world)
    finally:
        store.close()
    # the seed is one person with exactly her true parents; nobody has more than two
    # parents or is their own ancestor (issue 19)
    assert checks.ok, checks
    living = [p for p in world.pop.persons if p.living]
    assert living
    texts = {f: (out / f).read_text() for f in files}
    for p in living:
        b = p.birth
        forms = {b.isoformat(), f"{b.day} {b.strftime('%b').upper()} {b.year}",
                 f"{b.strftime('%B')} {b.day}, {b.year}"}
        for f, text in texts.items():
            assert not any(x in text for x in forms), f"{p.name}'s birth date in {f}"
    # The same world researched again, over its own earlier output, in a process whose
    # string hashing differs: byte-identical outputs apart from timestamps (issue 19).
    env = {**os.environ, "PYTHONHASHSEED": "4242"}
    again = subprocess.run([sys.executable, "-m", "sleuth", "demo", "--out", str(out)],
                           capture_output=True, text=True, timeout=120, env=env)
    assert again.returncode == 0, again.stderr
    for f, text in texts.items():
        assert _untimed((out / f).read_text()) == _untimed(text), f"{f} differs between runs"


_TIMES = re.compile(r'\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?([+-]\d\d:\d\d|Z)?'
                    r'|"(response_time_ms|elapsed_s)": [\d.]+'
                    # the day a copy was retrieved or accessed, or the report written: two
                    # runs may straddle midnight
                    rf'|\b{date.today().year}-\d\d-\d\d\b'
                    rf'|\b\d{{1,2}} [A-Z][a-z]+ {date.today().year}\b')


def _untimed(text: str) -> str:
    """An output with its clock readings (timestamps, durations) blanked."""
    return _TIMES.sub("<time>", text)


@pytest.mark.parametrize("junk", [b"\x00\x01binary", b""])
def test_extract_on_junk_fails_cleanly(tmp_path: Path, junk: bytes) -> None:
    f = tmp_path / "junk.txt"
    f.write_bytes(junk)
    code, _, err = run("extract", f)
    assert code == 2 and "junk.txt" in err


def test_show_says_a_living_persons_quote_is_withheld(case_dir: Path) -> None:
    """IU (Q20145, living): every excerpt cited for her is withheld by the Censor, and
    `show` says so; its marker was read as console markup and printed as an empty quote."""
    from shared_data import shared_path

    entity = shared_path("recorded", "wikidata", "dahlia_fixtures", "entities", "Q20145.json")
    run("ingest", case_dir, entity)
    _, listing, _ = run("show", case_dir, "person")
    pid = next(line.split()[0] for line in listing.splitlines() if "IU" in line.split())
    code, out, _ = run("show", case_dir, "person", pid)
    assert code == 0 and "birth_date" in out
    assert "(withheld: living person)" in out
    assert "“”" not in out and "1993" not in out
