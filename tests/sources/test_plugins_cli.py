"""Plugins hand real recorded responses to the record parsers; the `sleuth sources` CLI."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from fetch_helpers import spec_data
from pytest_httpserver import HTTPServer
from typer.testing import CliRunner

from shared_data import shared_path
from sleuth.cli.app import app
from sleuth.model.source_spec import parse_spec
from sleuth.sources.fetcher import Fetcher
from sleuth.sources.gates import record_consent
from sleuth.sources.plugins import load_plugin, render_params
from sleuth.sources.plugins.base import SourcePlugin
from sleuth.sources.registry import load_registry
from sleuth.store import Store

FS_CASE = "arthur_cowling_marriage_reg_1937.json"


def test_search_params_are_templated_from_the_person() -> None:
    spec = load_registry().get("find_a_grave")
    assert spec.search is not None
    params = render_params(spec.search.params, {"given": "Ada", "surname": "Whitfield",
                                                "birth_year": 1850})
    assert params == {"firstname": "Ada", "lastname": "Whitfield", "birthyear": "1850"}


def test_every_builtin_plugin_class_loads(store: Store) -> None:
    reg = load_registry()
    with Fetcher(store, reg, contact="t@example.invalid", env={}) as f:
        for spec in reg:
            assert isinstance(load_plugin(spec, f), SourcePlugin)


def test_recorded_familysearch_response_reaches_the_parser(
    httpserver: HTTPServer, store: Store, fetcher_for: Callable[..., Fetcher]
) -> None:
    """A Tier 2 plugin over a real recorded GEDCOM X response, served on 127.0.0.1."""
    body = shared_path("recorded", "familysearch", "saved_fetch_objects", FS_CASE).read_bytes()
    httpserver.expect_request("/platform/records/personas/QKY4-HNVQ").respond_with_data(
        body, content_type="application/x-gedcomx-v1+json")
    data = load_registry().get("familysearch").model_dump(mode="json", exclude_none=True)
    data.update(base_url=httpserver.url_for("/").rstrip("/"), local=True)
    data["compliance"]["robots_txt"] = False
    spec = parse_spec(data, "familysearch.yaml")
    f = fetcher_for(spec, env={"FAMILYSEARCH_ACCESS_TOKEN": "fs-token-do-not-store"})
    with store.transaction() as conn:
        record_consent(store, conn, "familysearch", "store", "my FamilySearch account")
    plugin = load_plugin(spec, f)
    res = plugin.record("QKY4-HNVQ")  # type: ignore[attr-defined]
    assert httpserver.log[0][0].headers["Authorization"] == "Bearer fs-token-do-not-store"
    cands = plugin.candidates(res)
    assert cands, "the GEDCOM X parser recognised the fetched snapshot"
    assert all(c.citation and c.citation.snapshot_id == res.snapshot.id for c in cands)


def _run(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(app, list(args))
    return r.exit_code, r.output


def test_cli_list_check_allow(case_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setenv("FAMILYSEARCH_ACCESS_TOKEN", "cli-secret-value-123")
    code, out = _run("sources", "list", "--case", str(case_dir))
    assert code == 0 and "find_a_grave" in out and "scrape: blocked" in out
    assert "cli-secret-value-123" not in out
    code, out = _run("sources", "check", "familysearch", "--case", str(case_dir))
    assert code == 0 and "FAMILYSEARCH_ACCESS_TOKEN: set" in out
    assert "cli-secret-value-123" not in out and "recorded authorisation" in out
    code, out = _run("sources", "allow", "find_a_grave", "scrape", "--reason",
                     "owner's permission", "--case", str(case_dir))
    assert code == 0
    code, out = _run("sources", "list", "--case", str(case_dir))
    assert "scrape: permitted" in out
    code, out = _run("sources", "check", "nosuch")
    assert code == 1


def test_freereg_is_a_listed_source(monkeypatch: pytest.MonkeyPatch) -> None:
    """The demo researches FreeREG; `sources list` names it too, with its terms (a form for
    personal research: not crawled unless the user records permission)."""
    monkeypatch.setenv("COLUMNS", "200")
    code, out = _run("sources", "list")
    line = next(x for x in out.splitlines() if "freereg" in x)
    assert code == 0 and "scrape: blocked" in line
    code, out = _run("sources", "check", "freereg")
    assert code == 0 and "freereg.org.uk" in out


def test_cli_test_fetch_with_a_user_spec(httpserver: HTTPServer, case_dir: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    httpserver.expect_request("/r").respond_with_json({"hello": "world"})
    (case_dir / "sources").mkdir()
    (case_dir / "sources" / "mine.yaml").write_text(yaml.safe_dump(spec_data(httpserver)))
    monkeypatch.setenv("SLEUTH_CONTACT", "cli@example.invalid")
    code, out = _run("sources", "test-fetch", "testsrc", "/r", "--case", str(case_dir))
    assert code == 0, out
    assert "HTTP 200" in out and "1 request(s)" in out
    code, out = _run("sources", "test-fetch", "testsrc", "/r", "--case", str(case_dir))
    assert "cache hit, no request" in out
