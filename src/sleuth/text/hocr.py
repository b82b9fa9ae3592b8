"""hOCR (tesseract's HTML output): one page of text per `ocr_page`, with every word's box.

Text: the words of a line (`ocrx_word`) joined by a space, the lines of a page (`ocr_line`,
and tesseract 4's `ocr_header`, `ocr_caption`, `ocr_textfloat`) by a newline, the pages by a
blank line (`pages.join_pages`). A page with no words stays an empty page, so page numbers
stay right.

Page label: the scan's page number, `ppageno` + 1 from the page's `title` (tesseract numbers
the images of a multi-page scan from 0); without `ppageno`, the number in the page's own id
(`page_6` → "6"); without either, the page's position. An hOCR file may hold only some pages
of a scan (ferenda's SOU 1972:47 holds 27 of 109): the label is the page of the scan, the
locator's page the position in this file. The number printed on the page itself ("9" at the
foot of scan page 12) is OCR text like any other and is not guessed at.

Word boxes: `word_boxes` in the metadata, per page a list of `[start, end, x0, y0, x1, y1]`,
character offsets into the snapshot text and the word's `bbox` in image pixels.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from sleuth.model import InputError, limits
from sleuth.text.html import too_deep
from sleuth.text.pages import PAGE_SEP, Paged

if TYPE_CHECKING:
    from selectolax.lexbor import LexborNode

LINE_CLASSES = ".ocr_line, .ocr_header, .ocr_caption, .ocr_textfloat"
_BBOX = re.compile(r"\bbbox\s+(-?\d+)\s+(-?\d+)\s+(-?\d+)\s+(-?\d+)")
_PPAGENO = re.compile(r"\bppageno\s+(\d+)")
_ID_NUMBER = re.compile(r"(\d+)$")
_HOCR_MARK = re.compile(
    rb"""class\s*=\s*['"][^'"]*\bocr_page\b|name\s*=\s*['"]ocr-(?:capabilities|system)['"]""")


def is_hocr(head: bytes) -> bool:
    """Whether the start of a document looks like hOCR: an element of class `ocr_page` near
    the top, or an `ocr-capabilities` / `ocr-system` meta tag (a page that merely mentions
    the word is not hOCR)."""
    return _HOCR_MARK.search(head) is not None


def hocr_pages(raw: bytes, where: str) -> Paged:
    """An hOCR document as a `Paged` (see the module); InputError naming the file when it has
    no `ocr_page` or no recognised word on any page."""
    # selectolax is imported on first use, as in `html`: most commands never read hOCR.
    from selectolax.lexbor import LexborHTMLParser

    try:
        html = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"hOCR is not UTF-8 (byte {exc.start})", file=where) from exc
    if (deep := too_deep(html)) is not None:  # (the parser is quadratic in the nesting)
        raise InputError(f"hOCR {deep}", file=where)
    tree = LexborHTMLParser(html)
    page_nodes = tree.css(".ocr_page")
    if not page_nodes:
        raise InputError("hOCR has no pages (no ocr_page element)", file=where)
    parts: list[str] = []
    labels: list[str] = []
    boxes: list[list[list[int]]] = []
    starts: list[int] = []
    pos = 0
    for index, page in enumerate(page_nodes, start=1):
        if starts:
            parts.append(PAGE_SEP)
            pos += len(PAGE_SEP)
        starts.append(pos)
        page_boxes: list[list[int]] = []
        first_line = True
        for line in page.css(LINE_CLASSES):
            limits.checkpoint()
            words = [(" ".join(w.text(deep=True).split()), _bbox(w))
                     for w in line.css(".ocrx_word")]
            words = [(t, b) for t, b in words if t]
            if not words:
                continue
            if not first_line:
                parts.append("\n")
                pos += 1
            first_line = False
            for i, (word, box) in enumerate(words):
                if i:
                    parts.append(" ")
                    pos += 1
                page_boxes.append([pos, pos + len(word), *box])
                parts.append(word)
                pos += len(word)
        labels.append(_label(page, index))
        boxes.append(page_boxes)
    if not any(boxes):
        raise InputError(f"hOCR has no recognised words on any of its {len(page_nodes)} pages",
                         file=where)
    extra: dict[str, Any] = {"page_labels_from": "hOCR ppageno + 1", "word_boxes": boxes,
                             "box_unit": "px"}
    system = tree.css_first("meta[name='ocr-system']")
    if system is not None and system.attributes.get("content"):
        extra["ocr_system"] = system.attributes["content"]
    return Paged("".join(parts), tuple(starts), tuple(labels), extra)


def _bbox(node: LexborNode) -> list[int]:
    m = _BBOX.search(node.attributes.get("title") or "")
    return [int(g) for g in m.groups()] if m else [0, 0, 0, 0]


def _label(page: LexborNode, index: int) -> str:
    title = page.attributes.get("title") or ""
    if m := _PPAGENO.search(title):
        return str(int(m.group(1)) + 1)
    if m := _ID_NUMBER.search(page.attributes.get("id") or ""):
        return m.group(1)
    return str(index)
