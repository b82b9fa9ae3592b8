"""Bounded HTML reading (issue 26, item 2): a page nested deeper than any a person reads is
refused with one line before it is parsed (the parser's time grows with the square of the
nesting), and every real page in the shared data is far below the limit."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from shared_data import shared_path
from sleuth.cli.app import app
from sleuth.model import InputError
from sleuth.sources import load_file
from sleuth.store import Store, counts
from sleuth.text.html import MAX_DEPTH, html_text, nesting_depth

NESTED = "<html><body>" + "<div>" * 200_000 + "deep" + "</div>" * 200_000 + "</body></html>"


def test_a_megabyte_of_nested_divs_is_refused_in_one_line(tmp_path: Path) -> None:
    page = tmp_path / "nested.html"
    page.write_text(NESTED, encoding="utf-8")
    assert page.stat().st_size > 1_000_000
    with pytest.raises(InputError) as err:
        load_file(page)
    assert str(page) in str(err.value) and "nested too deeply" in str(err.value)
    case = tmp_path / "case"
    Store.create_case(case).close()
    result = CliRunner().invoke(app, ["ingest", str(case), str(page)])
    assert result.exit_code == 2 and "200,000 levels" in result.stderr
    assert "\n" not in result.stderr.strip()
    store = Store.open_case(case)
    try:
        assert counts(store)["snapshots"] == 0  # nothing stored
    finally:
        store.close()


def test_pages_of_unclosed_paragraphs_and_cells_are_read() -> None:
    """Elements whose end tag may be left out, and void ones, do not deepen the tree."""
    rows = "".join(f"<tr><td>{i}<td><p>line {i}<br><li>item" for i in range(20_000))
    page = f"<html><body><table>{rows}</table></body></html>"
    assert nesting_depth(page) <= 2
    assert "line 19999" in html_text(page)


@given(st.integers(min_value=0, max_value=300))
def test_depth_counts_open_elements(n: int) -> None:
    page = "<body>" + "<div class='a'>" * n + "<img src='x'/>text" + "</div>" * n + "</body>"
    assert nesting_depth(page) == n


def test_every_real_page_is_far_below_the_limit() -> None:
    pages = sorted(shared_path("recorded").rglob("*.htm*"))
    assert pages
    for page in pages:
        depth = nesting_depth(page.read_text(encoding="utf-8", errors="replace"))
        assert depth < MAX_DEPTH // 10, (page.name, depth)
