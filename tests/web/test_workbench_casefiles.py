"""The workbench on a case of another domain than genealogy: its nav links only the pages
the case has, a page it lacks says why and where to look, and an investigation's own files
(summary.md, people.md …) are reachable from it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner
from web_helpers import served

from sleuth.cli.app import app

NAV = re.compile(r"<nav>(.*?)</nav>", re.S)


@pytest.fixture
def investigation(tmp_path: Path) -> Iterator[TestClient]:
    case = tmp_path / "osk"
    result = CliRunner().invoke(app, ["init", str(case), "--domain", "investigations"])
    assert result.exit_code == 0, result.output
    (case / "summary.md").write_text("# What did the 1969 inquiry decide?\n\nOSK <b>x</b>\n")
    (case / "people.md").write_text("# People\n\n- Rune Hermansson, chair\n")
    with served(case) as c:
        yield c


def _nav(page: str) -> list[str]:
    return re.findall(r'href="([^"]+)"', NAV.findall(page)[0])


def test_an_investigation_links_its_files_and_no_page_it_lacks(
        investigation: TestClient) -> None:
    nav = _nav(investigation.get("/review").text)
    assert nav == ["/review", "/files"]  # was Persons, Research log and Report (two 404s)
    for url in nav:
        assert investigation.get(url).status_code == 200, url
    report = investigation.get("/report")
    assert report.status_code == 404
    assert "this investigation case has no research report" in report.text
    assert "summary.md" in report.text and "not given the case folder" not in report.text
    assert "has no documents page" in investigation.get("/documents").text
    files = investigation.get("/files").text
    assert files.index("summary.md") < files.index("people.md")  # the case file first
    summary = investigation.get("/files/summary.md")
    assert summary.status_code == 200 and "OSK &lt;b&gt;x&lt;/b&gt;" in summary.text
    assert investigation.get("/files/case.json").status_code == 404  # not a case file
    persons = investigation.get("/persons").text
    assert "this is an investigations case" in persons and 'href="/files/people.md"' in persons
    assert '<span class="count">0' not in persons  # was "Persons 0" beside 52 people


def test_a_family_history_case_keeps_its_report_and_log(web: TestClient) -> None:
    nav = _nav(web.get("/review").text)
    assert nav == ["/review", "/persons", "/log", "/report"]
    assert web.get("/files").status_code == 404
    assert "family-history" not in web.get("/persons").text  # no note on its own page
