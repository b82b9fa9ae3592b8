"""A living person's place keeps its region only (issue 26, item 6): never a postal code or a
street, in any output (report, HTML, JSON-LD, GEDCOM 5.5.1 and 7, GEDCOM X)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from family_case import TODAY, claim, snap
from sleuth.cli.app import app
from sleuth.export import to_gedcom, to_gedcomx, to_jsonld, to_report
from sleuth.export.html import to_html
from sleuth.model import CaseGraph, GenDate
from sleuth.privacy import censor
from sleuth.privacy.redaction import REDACTED, last_component
from sleuth.store import Store, case_graph

WEDDING = ("Emma Whitfield and Daniel Reyes were married June 5, 2015, at Springfield, "
           "IL 62704. They live at 12 Quarry Lane, Springfield, IL 62704.")


@pytest.mark.parametrize(("place", "kept"), [
    ("Springfield, IL 62704", "IL"),
    ("Springfield, Sangamon, Illinois, USA", "USA"),
    ("12 Quarry Lane", REDACTED),
    ("12 Quarry Lane, Springfield, IL 62704-1234", "IL"),
    ("London SW1A 1AA", "London"),
    ("Ottawa, ON K1A 0B1", "ON"),
    ("10115 Berlin", "Berlin"),
    ("Needmore", "Needmore"),
])
def test_a_place_is_cut_to_its_region_without_codes_or_streets(place: str, kept: str) -> None:
    assert last_component(place) == kept


def test_no_output_prints_a_living_couples_postal_code_or_street(family: CaseGraph) -> None:
    g = family.model_copy(deep=True)
    s = snap("s-wedding", "wedding notice", WEDDING)
    g.snapshots[s.id] = s
    g.assertions.setdefault("emma", []).extend([
        claim("a-e-marr", "emma", "marriage_place", "Springfield, IL 62704", s,
              "married June 5, 2015, at Springfield, IL 62704"),
        claim("a-e-marr-d", "emma", "marriage_date", "2015-06-05", s,
              "married June 5, 2015", when=GenDate.from_parts(2015, 6, 5)),
        claim("a-e-res", "emma", "residence", "12 Quarry Lane, Springfield, IL 62704", s,
              "They live at 12 Quarry Lane, Springfield, IL 62704"),
    ])
    safe = censor(g, today=TODAY)
    outputs = {
        "report": to_report(g, today=TODAY),
        "html": to_html(g, today=TODAY),
        "jsonld": json.dumps(to_jsonld(g, today=TODAY)),
        "gedcom": to_gedcom(g, today=TODAY),
        "gedcom7": to_gedcom(g, version="7.0", today=TODAY),
        "gedcomx": json.dumps(to_gedcomx(g, today=TODAY)),
        "view": safe.model_dump_json(),
    }
    for name, text in outputs.items():
        for secret in ("62704", "Quarry"):
            assert secret not in text, (name, secret)


NOTICE = (WEDDING + "\n\nJohn Reyes died March 3, 2019, at his home. He is survived by his "
          "widow, Ruth Reyes, of 48 Quarry Lane, Springfield, IL 62704, and a son, Daniel.\n\n"
          "The widow, Mrs. Reyes, Quarry Lane, was born in 1950.\n")


def test_the_command_line_prints_no_postal_code_or_street_of_the_living(
        tmp_path: Path) -> None:
    """The same through `sleuth` itself, `cite` and `show` too (they printed `IL 62704`),
    and the street never becomes a person (a living widow's "Quarry Lane" was one)."""
    notice = tmp_path / "notice.txt"
    notice.write_text(NOTICE, encoding="utf-8")
    case = tmp_path / "case"
    runner = CliRunner()
    assert runner.invoke(app, ["init", str(case)]).exit_code == 0
    assert runner.invoke(app, ["ingest", str(case), str(notice)]).exit_code == 0
    store = Store.open_case(case)
    try:
        people = {p.id: p.canonical_name for p in case_graph(store).persons}
    finally:
        store.close()
    assert {"Emma Whitfield", "Daniel Reyes", "Ruth Reyes"} <= set(people.values()), people
    assert not [n for n in people.values() if "Quarry" in n or "Lane" in n], people
    commands = [["cite", str(case)], ["cite", str(notice)], ["check", str(case)],
                *(["export", str(case), "--format", f] for f in
                  ("report", "html", "jsonld", "gedcom", "gedcom7", "gedcomx")),
                *(["show", str(case), "person", pid] for pid in people),
                *(["timeline", str(case), "--person", pid] for pid in people)]
    for args in commands:
        res = runner.invoke(app, args)
        assert res.exit_code == 0, (args, res.output)
        for secret in ("62704", "Quarry"):
            assert secret not in res.output, (args, secret)
