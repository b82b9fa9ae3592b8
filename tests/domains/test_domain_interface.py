"""A case belongs to one domain, and commands ask that domain how to read files and what it
writes (issue 21, item 6): genealogy is the first implementation of the interface."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from shared_data import shared_path
from sleuth.cli.app import app
from sleuth.domains import DOMAINS, get_domain
from sleuth.export import to_gedcom
from sleuth.model import InputError
from sleuth.pipeline.decision import AUTO_PROMOTE, NORMAL_REVIEW, Thresholds
from sleuth.pipeline.validator import DEFAULT_RULES
from sleuth.sources import load_file
from sleuth.store import Store, case_graph

runner = CliRunner()


def run(*args: object) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(a) for a in args])
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(("name", "state"), [("declared-only", "is not built yet"),
                                             ("astrology", "is not a domain")])
def test_a_case_cannot_be_made_for_a_domain_that_does_not_exist(
        tmp_path: Path, name: str, state: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # every seed's domain is built now; a name declared without a module stands for the next
    monkeypatch.setitem(DOMAINS, "declared-only", None)
    case = tmp_path / "case"
    code, _, err = run("init", case, "--domain", name)
    assert code == 2
    line = err.strip()
    assert "\n" not in line and state in line and "--domain" in line
    assert "available: genealogy" in line
    assert not case.exists()  # nothing was made


def test_init_records_the_domain_and_a_case_without_one_is_genealogy(tmp_path: Path) -> None:
    code, out, _ = run("init", tmp_path / "g", "--domain", "genealogy")
    assert code == 0 and "genealogy case" in out
    assert json.loads((tmp_path / "g" / "case.json").read_text())["domain"] == "genealogy"
    assert Store.case_domain(tmp_path / "g") == "genealogy"
    old = tmp_path / "old"  # a case created before domains: its config names none
    Store.create_case(old).close()
    assert "domain" not in json.loads((old / "case.json").read_text())
    assert Store.case_domain(old) is None
    code, out, _ = run("export", old, "--format", "jsonld")
    assert code == 0 and json.loads(out)


def test_genealogy_declares_its_entities_rules_thresholds_and_outputs() -> None:
    g = get_domain("genealogy")
    assert g.name == "genealogy" and DOMAINS["genealogy"]
    assert g.rules == DEFAULT_RULES
    assert g.thresholds == Thresholds(AUTO_PROMOTE, NORMAL_REVIEW)
    assert set(g.exports) == {"report", "html", "jsonld", "gedcom", "gedcom7", "gedcomx", "log"}
    assert set(g.export_help) == set(g.exports)
    kinds = {k.name: k for k in g.entity_types}
    assert set(kinds) == {"person", "relationship"}
    assert "related_name" in kinds["relationship"].required
    for fld, kind in [("birth_date", "person"), ("census_place", "person"),
                      ("fs_pid", "person"), ("parent", "relationship"),
                      ("spouse", "relationship")]:
        found = g.entity_of(fld)
        assert found is not None and found.name == kind, fld
    assert g.entity_of("same_person") is None  # a merge proposal is no entity's field


def test_thresholds_are_checked() -> None:
    with pytest.raises(InputError):
        Thresholds(auto_promote=0.4, normal_review=0.5)


def test_ingest_and_export_go_through_the_case_domain(tmp_path: Path) -> None:
    """A real tree in, through `sleuth ingest` and `sleuth export`: every candidate field the
    domain's extractor reads maps onto one of its entity types, an unknown format is one
    line naming the domain's formats, and the GEDCOM written is the exporter's own."""
    tree = shared_path("gedcom", "samples", "kennedy.ged")
    case = tmp_path / "case"
    assert run("init", case)[0] == 0
    code, out, _ = run("ingest", case, tree)
    assert code == 0 and "promoted" in out
    g = get_domain("genealogy")
    fields = {c.field for c in g.extract(load_file(tree).snapshot, tree.read_bytes())}
    assert fields and all(g.entity_of(f) is not None for f in fields), fields
    code, _, err = run("export", case, "--format", "timeline")
    assert code == 2 and "unknown format 'timeline' for a genealogy case" in err
    assert "gedcom7" in err and "\n" not in err.strip()
    out_file = tmp_path / "tree.ged"
    assert run("export", case, "--format", "gedcom", "--out", out_file)[0] == 0
    store = Store.open_case(case)
    try:
        expected = to_gedcom(case_graph(store, title=case.name), version="5.5.1")
    finally:
        store.close()
    assert out_file.read_text(encoding="utf-8") == expected
