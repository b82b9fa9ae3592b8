"""The workbench on a documents-domain case (issue 23, seed 004): `sleuth init --domain
documents`, `ingest` of a real government directive (PDF), `work`; then every page the
workbench links answers (none crashes on a case without persons or a genealogy report), and
the documents page lists the process, its events and entities, each citation opening the
source viewer at its page with the cited words marked."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

from shared_data import shared_path
from sleuth.cli.app import app
from sleuth.cli.common import open_case
from sleuth.web.app import create_app

PDF = ("documents", "swedish_gov", "dirregeringen__downloaded__2017__29__tillaggsdirektiv-"
       "till-forskningsdatautredningen-u-201604--dir.-201729.pdf")
runner = CliRunner()


@pytest.fixture(scope="module")
def docs_case(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pdf = shared_path(*PDF)
    case = tmp_path_factory.mktemp("docs-web") / "case"
    for args in (["init", str(case), "--domain", "documents"], ["ingest", str(case), str(pdf)],
                 ["work", str(case)]):
        result = runner.invoke(app, args)
        assert result.exit_code == 0, (args, result.output)
    return case


@pytest.fixture
def client(docs_case: Path) -> Iterator[TestClient]:
    store = open_case(docs_case)
    try:
        with TestClient(create_app(store, case_dir=docs_case),
                        base_url="http://127.0.0.1") as c:
            yield c
    finally:
        store.close()


def test_every_linked_page_answers(client: TestClient) -> None:
    review = client.get("/review")
    assert review.status_code == 200
    assert 'href="/documents"' in review.text  # the nav leads to the documents page
    assert client.get("/report").status_code == 200  # the documents page, redirected
    for url in ("/persons", "/api/review", "/documents"):
        assert client.get(url).status_code == 200, url
    log = client.get("/log")  # a documents case writes no research log, and says so
    assert log.status_code == 404 and "this documents case has no research log" in log.text
    assert 'href="/log"' not in review.text and 'href="/persons"' not in review.text
    persons = client.get("/persons").text  # persons are a family-history case's
    assert "this is a documents case" in persons and 'href="/documents"' in persons


def test_events_and_entities_cite_their_page_in_the_source_viewer(client: TestClient) -> None:
    page = client.get("/documents").text
    assert "Dir. 2017:29" in page
    assert page.count('<tr class="event">') >= 1 and page.count('<tr class="entity">') >= 1
    cites = [html.unescape(u) for u in re.findall(r'class="cite" href="([^"]+)">page ', page)]
    assert cites
    for url in cites:
        viewer = client.get(url)
        assert viewer.status_code == 200, url
        marked = re.search(r"<mark[^>]*>(.*?)</mark>", viewer.text, re.S)
        assert marked and marked.group(1).strip(), url  # the cited words, highlighted
        assert re.search(r'/page/\d+\.png', viewer.text), url  # the PDF page image


def test_a_cited_passage_over_several_lines_is_boxed_on_each(client: TestClient) -> None:
    """The directive's first event quotes five lines of page 1, one of them ending in a
    hyphen ("Forskningsdatautred- ningen"): every line is boxed, not just its last words."""
    page = client.get("/documents").text
    first = html.unescape(re.findall(r'class="cite" href="([^"]+)">page ', page)[0])
    viewer = client.get(first).text
    tops = {round(float(t), 1) for t in re.findall(r'class="box[^>]*top: ([0-9.]+)%', viewer)}
    assert len(tops) >= 4, tops  # a box on each line the passage runs over


def test_events_are_listed_in_date_order(client: TestClient) -> None:
    """The directive states its own decision (16 March 2017) before the inquiry's first
    directive (7 July 2016): the page lists them by date, as the dossier does, not in the
    order the document prints them."""
    page = client.get("/documents").text
    dates = re.findall(r'<tr class="event"><td>([^<]+)</td>', page)
    assert {"2016-07-07", "2017-03-16"} <= set(dates)
    assert dates == sorted(dates) and dates.index("2016-07-07") < dates.index("2017-03-16")
