"""The workbench's report in pages cut from the exported report (issue 23), as served where
the report is not a genealogy case's own stable pages (`export.paged`,
test_report_paged.py): another domain's, or the owner's view with redaction off. Nothing
is left out, each link to a note or an excerpt on another page points to that page."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

import sleuth.web.reportpages as reportpages
from sleuth.cli.common import open_case
from sleuth.web.app import create_app

_ID = re.compile(r' id="([^"]+)"')


@pytest.fixture
def owner(web_case: Path) -> Iterator[TestClient]:
    """The workbench with redaction off (`sleuth serve --no-redaction`)."""
    store = open_case(web_case)
    try:
        app = create_app(store, title="case", case_dir=web_case, redaction=False)
        with TestClient(app, base_url="http://127.0.0.1") as c:
            yield c
    finally:
        store.close()


def _text(html: str) -> list[str]:
    return re.sub(r"<[^>]+>", " ", html).split()


def test_a_small_report_is_one_page_as_exported(owner: TestClient) -> None:
    web = owner
    page = web.get("/report").text
    assert "Page 1 of" not in page and page == web.get("/report?page=1").text
    assert web.get("/report?page=3").status_code == 404  # was page 1 again


def test_a_long_report_comes_in_pages_with_every_link_kept(
        owner: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    web = owner
    whole = web.get("/report").text
    monkeypatch.setattr(reportpages, "PAGE_CHARS", 2_000)
    web.app.app.state.bench._pages = None  # type: ignore[attr-defined]  # cut again
    first = web.get("/report").text
    last = int(re.search(r"Page 1 of (\d+)", first).group(1))  # type: ignore[union-attr]
    assert last > 3
    pages = [first] + [web.get(f"/report?page={n}").text for n in range(2, last + 1)]
    bodies = [p.split("</nav>", 1)[1].rsplit("<nav", 1)[0] for p in pages]
    body = whole[whole.index("<body>") + 6:whole.rindex("</body>")]
    assert _text(body) == _text("\n".join(bodies))  # every word, in order
    where = {a: n for n, b in enumerate(bodies, start=1) for a in _ID.findall(b)}
    assert sorted(where) == sorted(_ID.findall(body))  # every anchor once
    crossed = 0
    for n, b in enumerate(bodies, start=1):
        for target in re.findall(r'href="([^"]*#[^"]+)"', b):
            page, anchor = target.split("#")
            if page:
                crossed += 1
                assert page == f"/report?page={where[anchor]}" and where[anchor] != n
            else:
                assert where[anchor] == n  # a link on its own page stays in-page
    assert crossed  # notes are on a later page than the facts citing them
    assert 'rel="next"' in first and 'rel="prev"' in pages[-1]
