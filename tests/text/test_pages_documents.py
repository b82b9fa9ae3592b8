"""Page-aware ingestion of the shared government documents (issue 22, item 1): pages, printed
labels and the page a reader would cite, through `load_file` (skips without ../shared)."""

from __future__ import annotations

from pathlib import Path

import pytest

from shared_data import shared_path
from sleuth.model import Snapshot
from sleuth.sources import load_file
from sleuth.text.pages import PAGE_SEP

GOV = ("documents", "swedish_gov")
SOU_1972_47 = (*GOV, "soukb__intermediate__1972__47__index.hocr.html.bz2")
PROP_1992_93_30 = (*GOV, "propriksdagen__intermediate__1992-93__30__index.hocr.html.bz2")
DIR_2016_15 = (*GOV, "dirregeringen__downloaded__2016__15__dir.-201615-dataskyddsforordningen.pdf")
AFS = (*GOV, "afs__downloaded__konsolidering-afs-2011__19__index.pdf")
SOU_2014_67 = (*GOV, "souregeringen__intermediate__2014__67__inbyggd-integritet-inom-"
               "inspektionen-for-socialforsakringen-sou-201467.xml.bz2")
SOU_2017_66 = (*GOV, "souregeringen__intermediate__2017__66__dataskydd-inom-socialdepartementets"
               "-verksamhetsomrade_en-anpassning-till-eus-dataskyddsforordning-sou-2017_66-.xml.bz2")
GDPR = ("documents", "eu_gdpr", "gdpr-regulation-2016-679.pdf")
FEDREG = ("documents", "us_federal_register", "federal-register-2020-17221.pdf")

_cache: dict[tuple[str, ...], Snapshot] = {}


def snap(*parts: str) -> Snapshot:
    if parts not in _cache:
        _cache[parts] = load_file(shared_path(*parts)).snapshot
    return _cache[parts]


def page_texts(s: Snapshot) -> list[str]:
    ends = [b - len(PAGE_SEP) for b in s.page_starts[1:]] + [len(s.text)]
    return [s.text[a:b] for a, b in zip(s.page_starts, ends, strict=True)]


def cited(s: Snapshot, phrase: str, *, last: bool = False) -> tuple[int, str]:
    """(page, printed label) where `phrase` first (or last) occurs."""
    page = s.page_of(s.text.rindex(phrase) if last else s.text.index(phrase))
    assert page is not None
    return page, s.metadata["page_labels"][page - 1]


@pytest.mark.parametrize(("parts", "pages", "first", "last", "media"), [
    (SOU_1972_47, 27, "3", "109", "text/x-hocr"),
    (PROP_1992_93_30, 58, "1", "58", "text/x-hocr"),
    (DIR_2016_15, 28, "1", "28", "application/pdf"),
    (AFS, 34, "1", "34", "application/pdf"),
    (GDPR, 88, "L 119/1", "L 119/88", "application/pdf"),
    (FEDREG, 15, "47698", "47712", "application/pdf"),
    (SOU_2014_67, 18, "1", "247", "text/x-pdf2xml"),
    (SOU_2017_66, 13, "3", "660", "text/x-pdf2xml"),
])
def test_pages_and_labels(parts: tuple[str, ...], pages: int, first: str, last: str,
                          media: str) -> None:
    s = snap(*parts)
    labels = s.metadata["page_labels"]
    assert s.media_type == media
    assert len(s.page_starts) == len(labels) == pages
    assert (labels[0], labels[-1]) == (first, last)
    texts = page_texts(s)
    assert PAGE_SEP.join(texts) == s.text  # every page's slice is that page's text
    for i, start in enumerate(s.page_starts):
        assert s.page_of(start) == i + 1 or not texts[i]


def test_gdpr_label_of_page_88_is_read_from_its_running_header() -> None:
    s = snap(*GDPR)
    assert s.metadata["page_labels"][87] == "L 119/88"
    assert s.metadata["page_labels_from"] == "printed header/footer"
    assert "L 119/88" in page_texts(s)[87]
    assert cited(s, "Done at Brussels, 27 April 2016") == (88, "L 119/88")


def test_known_phrases_lie_on_the_page_a_reader_cites() -> None:
    # SOU 1972:47: ferenda's parsed XHTML puts the appointment under its page anchor "sid6"
    assert cited(snap(*SOU_1972_47), "den 11 april 1969") == (2, "6")
    # Dir. 2016:15 states its deadline in the summary on page 1 and again on its last page
    deadline = "Uppdraget ska redovisas senast den 12 maj 2017"
    assert cited(snap(*DIR_2016_15), deadline) == (1, "1")
    assert cited(snap(*DIR_2016_15), deadline, last=True) == (28, "28")
    assert cited(snap(*SOU_2014_67), "16 Författningskommentar") == (4, "233")


def test_empty_hocr_pages_are_kept() -> None:
    s = snap(*SOU_1972_47)
    assert page_texts(s)[0] == ""  # scan page 3 is blank: still page 1
    boxes = s.metadata["word_boxes"]
    assert len(boxes) == 27 and boxes[0] == []
    for i, page in enumerate(boxes):
        for start, end, x0, y0, x1, y1 in page:
            assert s.page_of(start) == i + 1
            assert s.text[start:end].strip() == s.text[start:end] != ""
            assert x0 <= x1 and y0 <= y1


def test_pdf2xml_page_mapping_agrees_with_the_printed_numbers(tmp_path: Path) -> None:
    mapped = snap(*SOU_2014_67)
    assert mapped.metadata["page_labels_from"] == "page mapping"
    alone = tmp_path / Path(SOU_2014_67[-1])  # the same file without its mapping beside it
    alone.write_bytes(shared_path(*SOU_2014_67).read_bytes())
    printed = load_file(alone).snapshot
    assert printed.metadata["page_labels_from"] == "printed header/footer"
    assert printed.metadata["page_labels"][3:] == mapped.metadata["page_labels"][3:]
    assert printed.metadata["page_labels"][:3] == ["1", "2", "3"]  # front matter: physical
    assert mapped.metadata["source_page_numbers"][:4] == [1, 2, 3, 225]


def test_ferenda_parsed_xhtml_keeps_its_page_breaks(tmp_path: Path) -> None:
    """SOU 2017:66 as ferenda parsed it: a page per `<span id="sidN" class="sidbrytning"/>`,
    labelled N (it was one page, so its citations named none); the words are the page's
    as a browser shows them. A web page without such breaks stays one HTML page."""
    s = snap(*GOV, "souregeringen__parsed__2017__66.xhtml")
    labels = s.metadata["page_labels"]
    assert len(s.page_starts) == 13 and labels[:3] == ["3", "649", "650"]
    pages = page_texts(s)
    assert "Sören Öman" in pages[0] and "Sören Öman" not in "".join(pages[1:])
    assert s.media_type != "text/html"  # the HTML record extractors' one-page spans
    plain = tmp_path / "page.xhtml"
    plain.write_text('<html><body><p>Genom beslut den 16 juni 2016.</p>'
                     '<span id="sid3" class="other"/></body></html>')
    one = load_file(plain).snapshot
    assert one.media_type == "text/html" and one.page_starts == ()
