"""The review queue names who an item is about: a tree's person without a NAME by its
title ("Earl Howe I (unnamed person @I785@)"), a relative by name, never a blank person or
a bare `@I786@` as a value (royal92's four nameless peers)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from shared_data import shared_path
from sleuth.cli.app import app
from sleuth.pipeline.review import censored_items
from sleuth.store import Store

runner = CliRunner()
POINTER = re.compile(r"@[^@\s]+@")  # a bare GEDCOM pointer
TREE = """0 HEAD
1 GEDC
2 VERS 5.5.1
1 CHAR UTF-8
0 @I1@ INDI
1 NAME   //
1 TITL Earl Howe I
1 SEX M
0 @I2@ INDI
1 NAME Anne /Gore/
1 SEX F
0 @I3@ INDI
1 NAME //
1 SEX M
0 @I4@ INDI
1 NAME Mary Anna /Curzon-Howe/
0 @F1@ FAM
1 HUSB @I1@
1 WIFE @I2@
1 CHIL @I4@
0 @F2@ FAM
1 HUSB @I3@
1 WIFE @I2@
0 TRLR
"""


def _queue(tmp_path: Path, ged: Path) -> list[dict[str, object]]:
    case = tmp_path / "case"
    Store.create_case(case).close()
    res = runner.invoke(app, ["ingest", str(case), str(ged)])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["review", str(case), "--format", "json"])
    assert res.exit_code == 0, res.output
    return [json.loads(line) for line in res.stdout.splitlines() if line.strip()]


def test_an_unnamed_person_is_labelled_by_title_and_a_relative_by_name(tmp_path: Path) -> None:
    ged = tmp_path / "peers.ged"
    ged.write_text(TREE, encoding="utf-8")
    items = _queue(tmp_path, ged)
    shown = {(i["subject_name"], i["field"], i["value"]) for i in items}
    earl = "Earl Howe I (unnamed person @I1@)"
    assert (earl, "sex", "M") in shown
    assert (earl, "spouse", "Anne Gore") in shown
    assert ("Anne Gore", "spouse", earl) in shown
    assert ("Mary Anna Curzon-Howe", "parent", earl) in shown
    assert ("Anne Gore", "spouse", "unnamed person @I3@") in shown  # no title either
    assert all(i["subject_name"] and not POINTER.fullmatch(str(i["value"])) for i in items)


def test_the_listing_reads_the_same_from_the_store(tmp_path: Path) -> None:
    """`censored_items` (the CLI's and the workbench's source) gives the labels."""
    ged = tmp_path / "peers.ged"
    ged.write_text(TREE, encoding="utf-8")
    case = tmp_path / "case"
    Store.create_case(case).close()
    assert runner.invoke(app, ["ingest", str(case), str(ged)]).exit_code == 0
    store = Store.open_case(case)
    try:
        items = censored_items(store)
    finally:
        store.close()
    assert {i["subject_name"] for i in items} >= {"Earl Howe I (unnamed person @I1@)",
                                                  "unnamed person @I3@"}


@pytest.mark.slow
def test_royal92s_nameless_peers_are_named_by_their_titles(tmp_path: Path) -> None:
    items = _queue(tmp_path, shared_path("gedcom", "samples", "royal92.ged"))
    assert items
    assert all(i["subject_name"] and not POINTER.fullmatch(str(i["value"])) for i in items)
    names = {str(i["subject_name"]) for i in items}
    assert {"Earl Howe I (unnamed person @I785@)", "Duke Albercorn I (unnamed person @I788@)",
            "duc d' Alencon (unnamed person @I1442@)",
            "Duke of Beaufort (unnamed person @I1709@)"} <= names
    values = {(i["subject_name"], i["field"], i["value"]) for i in items}
    assert ("Anne Gore", "spouse", "Earl Howe I (unnamed person @I785@)") in values
