"""Paged readers on small inputs: ALTO (a synthetic fixture and the real chronam page), form
feeds, bz2, the printed-label rule, one-line errors naming the file, and a property test that
every offset maps back to its page."""

from __future__ import annotations

import bz2
import io
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from shared_data import shared_path
from sleuth.cli.app import app
from sleuth.model import InputError, Snapshot
from sleuth.sources import load_file
from sleuth.text.pages import PAGE_SEP, join_pages, printed_labels

FIXTURES = Path(__file__).parent / "fixtures"
SOU_1972_47 = ("documents", "swedish_gov", "soukb__intermediate__1972__47__index.hocr.html.bz2")


def one_line_error(path: Path) -> str:
    with pytest.raises(InputError) as info:
        load_file(path)
    msg = str(info.value)
    assert "\n" not in msg and str(path) in msg
    return msg


def test_synthetic_alto_pages_labels_and_boxes() -> None:
    s = load_file(FIXTURES / "synthetic_alto_v3.xml").snapshot
    assert s.media_type == "text/x-alto"
    assert s.text == "MARRIED yester--\nday\n\nJohn Smith" + PAGE_SEP + "" + PAGE_SEP + "Died 1898."
    assert s.metadata["page_labels"] == ["iv", "2", "3"]
    assert s.metadata["box_unit"] == "pixel"
    boxes = s.metadata["word_boxes"]
    assert [len(b) for b in boxes] == [5, 0, 2]
    start, end, x0, y0, x1, y1 = boxes[2][1]
    assert s.text[start:end] == "1898." and (x0, y0, x1, y1) == (200, 100, 310, 140)
    assert s.page_of(s.text.index("Died")) == 3


def test_alto_reader_agrees_with_chronam_on_a_real_page() -> None:
    from sleuth.extract.records.chronam import read_alto

    path = shared_path("recorded", "chronicling_america", "ocr.xml")
    s = load_file(path).snapshot
    assert s.text == read_alto(path.read_bytes()).text
    assert len(s.page_starts) == 1 and s.metadata["page_labels"] == ["2"]


def test_form_feeds_page_plain_text(tmp_path: Path) -> None:
    path = tmp_path / "pages.txt"
    path.write_text("first page\fsecond page\f\fFourth", encoding="utf-8")
    s = load_file(path).snapshot
    assert s.text == "first page\fsecond page\f\fFourth"  # text unchanged
    assert s.page_starts == (0, 11, 23, 24)
    assert s.page_of(s.text.index("Fourth")) == 4
    assert s.metadata["page_labels"] == ["1", "2", "3", "4"]


def test_plain_text_without_form_feed_is_unpaged(tmp_path: Path) -> None:
    path = tmp_path / "plain.txt"
    path.write_text("no pages here", encoding="utf-8")
    s = load_file(path).snapshot
    assert s.page_starts == () and "page_labels" not in s.metadata


def test_bz2_is_read_transparently(tmp_path: Path) -> None:
    path = tmp_path / "alto.xml.bz2"
    path.write_bytes(bz2.compress((FIXTURES / "synthetic_alto_v3.xml").read_bytes()))
    s = load_file(path).snapshot
    assert s.metadata["container"] == "bz2" and len(s.page_starts) == 3


def test_printed_labels_rule() -> None:
    edges = [["Title page"], ["2", "Chapter"], ["Body", "3"], ["4"]]
    found = printed_labels(edges)
    assert found is not None
    assert found.labels == ("1", "2", "3", "4") and found.inferred == (1,)
    assert printed_labels([["Frm 00001"], ["Frm 00002"], ["Frm 00003"]]) is None
    assert printed_labels([["4.5.2016"], ["4.5.2016"]]) is None
    gap = printed_labels([["x"], ["x"], ["233"], ["234"]], numbers=[1, 2, 225, 226])
    assert gap is not None and gap.labels == ("1", "2", "233", "234")
    assert gap.physical == (1, 2)


# -- errors: one line, naming the file (and the page where one is at fault) --------------

def test_truncated_pdf(tmp_path: Path) -> None:
    raw = shared_path("documents", "eu_gdpr", "gdpr-regulation-2016-679.pdf").read_bytes()
    path = tmp_path / "truncated.pdf"
    path.write_bytes(raw[:40_000])
    assert "PDF" in one_line_error(path)


def _pdf(blank: bool, password: str | None = None) -> bytes:
    from pypdf import PdfWriter

    w = PdfWriter()
    w.add_blank_page(width=200, height=200)
    if password:
        w.encrypt(user_password=password, algorithm="RC4-128")
    buf = io.BytesIO()
    w.write(buf)
    return buf.getvalue()


def test_scanned_pdf_needs_ocr(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "scan.pdf"
    path.write_bytes(_pdf(blank=True))
    monkeypatch.setenv("SLEUTH_OCR", "off")  # with tesseract, OCR finds no words on it
    line = one_line_error(path)
    assert "needs OCR" in line and "no text layer on any of its 1 pages" in line


def test_encrypted_pdf(tmp_path: Path) -> None:
    path = tmp_path / "locked.pdf"
    path.write_bytes(_pdf(blank=True, password="secret"))
    assert "encrypted PDF" in one_line_error(path)


def test_bz2_that_is_not_bz2(tmp_path: Path) -> None:
    path = tmp_path / "fake.hocr.html.bz2"
    path.write_bytes(b"<html><body>plain</body></html>")
    assert "bz2" in one_line_error(path)


def test_hocr_with_no_pages(tmp_path: Path) -> None:
    path = tmp_path / "empty.hocr.html"
    path.write_text("<html><head><meta name='ocr-capabilities' content='ocr_page ocr_line'/>"
                    "</head><body><p>nothing</p></body></html>", encoding="utf-8")
    assert "no pages" in one_line_error(path)


def test_pdf2xml_not_well_formed(tmp_path: Path) -> None:
    path = tmp_path / "broken.xml"
    path.write_text('<?xml version="1.0"?><pdf2xml><page number="1"><text>oops</pdf2xml>',
                    encoding="utf-8")
    assert "not well-formed" in one_line_error(path)


# -- locators map back to their page -------------------------------------------------------

@settings(max_examples=200, deadline=None)
@given(pages=st.lists(st.text(max_size=30), min_size=1, max_size=12), data=st.data())
def test_offsets_map_back_to_their_page(pages: list[str], data: st.DataObject) -> None:
    text, starts = join_pages(pages)
    snap = Snapshot(sha256="0" * 64, source_name="t", text=text, page_starts=starts)
    filled = [i for i, p in enumerate(pages) if p]
    if not filled:
        return
    i = data.draw(st.sampled_from(filled))
    k = data.draw(st.integers(min_value=0, max_value=len(pages[i]) - 1))
    assert snap.page_of(starts[i] + k) == i + 1
    assert text[starts[i]:starts[i] + len(pages[i])] == pages[i]


_SOU: list[Snapshot] = []


@settings(max_examples=100, deadline=None)
@given(pick=st.floats(min_value=0, max_value=1, exclude_max=True))
def test_real_word_boxes_map_back_to_their_page(pick: float) -> None:
    if not _SOU:
        _SOU.append(load_file(shared_path(*SOU_1972_47)).snapshot)
    s = _SOU[0]
    words = [(i + 1, w) for i, page in enumerate(s.metadata["word_boxes"]) for w in page]
    page, (start, end, *_box) = words[int(pick * len(words))]
    assert s.page_of(start) == page and s.page_of(end - 1) == page


def test_extract_json_gives_pages() -> None:
    path = shared_path("documents", "swedish_gov",
                       "dirregeringen__downloaded__2016__15__dir.-201615-dataskyddsforordningen.pdf")
    result = CliRunner().invoke(app, ["extract", str(path), "--format", "json"])
    assert result.exit_code == 0
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert rows and all(isinstance(r["page"], int) for r in rows)


def test_ingest_stores_a_paged_document(tmp_path: Path) -> None:
    path = shared_path(*SOU_1972_47)
    case = tmp_path / "case"
    runner = CliRunner()
    assert runner.invoke(app, ["init", str(case)]).exit_code == 0
    result = runner.invoke(app, ["ingest", str(case), str(path)])
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "snapshot" in result.stdout


def test_html_that_mentions_hocr_stays_html(tmp_path: Path) -> None:
    path = tmp_path / "about.html"
    path.write_text("<html><body><p>Tesseract writes ocr_page divs.</p></body></html>",
                    encoding="utf-8")
    s = load_file(path).snapshot
    assert s.media_type == "text/html" and s.page_starts == ()
