"""A DATE no range can be drawn from (`31 FEB 1900`, `SUBMITTED`, `(unknown)`) is kept as
written, never dropped: the tree said it, and `sleuth check CASE` reports it as
`sleuth check FILE.ged` does."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from shared_data import shared_path
from sleuth.cli.app import app
from sleuth.extract.dates import parse_date
from sleuth.extract.records.gedcom import INDI_EVENTS
from sleuth.gedcom.reader import parse_gedcom
from sleuth.pipeline.ingest import extract_for
from sleuth.sources import load_file
from sleuth.store import Store
from sleuth.verify import Source, check_candidates

runner = CliRunner()
QUOTED = re.compile(r"'([^']*)'")  # the date's words in a finding's message
BAD = ("0 HEAD\n1 GEDC\n2 VERS 5.5.1\n1 CHAR UTF-8\n0 @I1@ INDI\n1 NAME John /Smith/\n"
       "1 SEX M\n1 BIRT\n2 DATE 31 FEB 1900\n1 DEAT\n2 DATE 1 JAN 1850\n"
       "1 BURI\n2 DATE (after the war)\n0 TRLR\n")


def _json(args: list[str]) -> list[dict[str, object]]:
    res = runner.invoke(app, [*args, "--format", "json"])
    assert res.exit_code == 0, res.output
    return [json.loads(line) for line in res.stdout.splitlines() if line.strip()]


def test_an_impossible_date_is_stored_as_written_and_checked(tmp_path: Path) -> None:
    ged = tmp_path / "bad.ged"
    ged.write_text(BAD, encoding="utf-8")
    case = tmp_path / "case"
    Store.create_case(case).close()
    res = runner.invoke(app, ["ingest", str(case), str(ged)])
    assert res.exit_code == 0, res.output
    assert "6 candidates, 6 promoted" in res.stdout, res.stdout
    out = tmp_path / "out.ged"
    res = runner.invoke(app, ["export", str(case), "--format", "gedcom", "--out", str(out)])
    assert res.exit_code == 0, res.output
    written = out.read_text(encoding="utf-8")
    assert "31 FEB 1900" in written and "after the war" in written  # nothing lost
    jsonld = tmp_path / "out.jsonld"
    res = runner.invoke(app, ["export", str(case), "--format", "jsonld", "--out", str(jsonld)])
    assert res.exit_code == 0, res.output
    births = [n for n in json.loads(jsonld.read_text(encoding="utf-8"))["@graph"]
              if n.get("@type") == "Event" and n["@id"].endswith(":birth")]
    assert births and all("startDate" not in n for n in births)  # no schema.org Date
    assert [n["sleuth:dateAsWritten"] for n in births] == ["31 FEB 1900"]
    for target in (ged, case):  # the file and the case say the same
        found = {(f["rule"], f["severity"]): str(f["message"]) for f in _json(["check",
                                                                               str(target)])}
        assert "31 FEB 1900" in found[("invalid_birth_date", "error")], (target, found)
        assert "after the war" in found[("invalid_date", "error")], (target, found)


@pytest.mark.parametrize("name", ["washington.ged", "EnglishTudorRoyalFamily.ged",
                                  "royal92.ged"])
def test_every_event_date_of_a_real_tree_is_a_claim(name: str) -> None:
    """Each event's DATE line gives a `<kind>_date` candidate, the ones no range comes from
    (washington's `<unknown>`, Tudor's `BET 1490 AND 1481`) with their words as value."""
    loaded = load_file(shared_path("gedcom", "samples", name))
    cands = extract_for(loaded.snapshot, loaded.raw)
    ged = parse_gedcom(loaded.snapshot.text)
    unbounded: list[str] = []
    for rec in ged.of_tag("INDI"):
        for ev in rec.children:
            date = ev.first("DATE")
            if date is None or not date.value.strip() or ev.tag not in INDI_EVENTS:
                continue
            gd = parse_date(date.value)
            if gd is None or not (gd.earliest or gd.latest):  # its words, as 7.0's PHRASE
                text = date.value.strip()
                words = text[1:-1] if text[:1] == "(" and text[-1:] == ")" else text
                unbounded.append(" ".join(words.split()))
    assert unbounded, name  # each of these trees has some
    claims = [c for c in cands if c.field.endswith("_date")]
    kept = {c.value for c in claims if c.date is not None and c.date.earliest is None
            and c.date.latest is None}
    assert set(unbounded) <= kept, set(unbounded) - kept
    assert all(c.citation is not None and c.value in " ".join(c.citation.excerpt.split())
               for c in claims if c.value in kept)
    report = check_candidates(claims, {loaded.snapshot.id: Source.of(loaded.snapshot.text,
                                                                     loaded.snapshot.url)})
    assert report.rejected == []


def test_the_case_reports_every_date_the_file_check_reports(tmp_path: Path) -> None:
    """Tudor's births and deaths no range comes from: `sleuth check` of the case after the
    ingest lists the same ones, each with its words, as `sleuth check FILE.ged`."""
    ged = shared_path("gedcom", "samples", "EnglishTudorRoyalFamily.ged")
    case = tmp_path / "case"
    Store.create_case(case).close()
    assert runner.invoke(app, ["ingest", str(case), str(ged)]).exit_code == 0

    def invalid(target: Path) -> Counter[tuple[str, str]]:
        return Counter((str(f["rule"]), QUOTED.findall(str(f["message"]))[-1])
                       for f in _json(["check", str(target)])
                       if f["rule"] in ("invalid_birth_date", "invalid_death_date"))

    in_file = invalid(ged)
    assert sum(in_file.values()) >= 10
    assert invalid(case) == in_file
