"""pdftohtml's XML (`pdftohtml -xml`, root `<pdf2xml>`): one page of text per `<page>`.

Text: a page's `<text>` runs in reading order, top then left; runs whose tops lie within half
a run's height of each other form one line (joined by a space, left to right, inner
whitespace collapsed); lines are joined by a newline, pages by a blank line. The file may be
an excerpt of a longer PDF (ferenda keeps pages 1-3 and 225-239 of SOU 2014:67): each page's
`number` (its page in the PDF) is kept as `source_page_numbers`.

Page label, first found of:
1. a page mapping beside the file (ferenda's `*.pagemapping.json`: `"<pdf>#page=N": printed
   page`), passed in as `page_map`;
2. the page number printed at the top or bottom edge (`pages.printed_labels` over the three
   topmost and three bottommost lines, against the `number` attributes);
3. the `number` attribute itself.
`page_labels_from` in the metadata says which.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from typing import Any

from sleuth.model import InputError, limits
from sleuth.text.pages import Paged, join_pages, printed_labels

EDGE_LINES = 3
_MAPPING_KEY = re.compile(r"^(?P<pdf>.*?)(?:\.pdf)?#page=(?P<page>\d+)$", re.IGNORECASE)


def is_pdf2xml(head: bytes) -> bool:
    return b"<pdf2xml" in head


def pdf2xml_pages(raw: bytes, where: str, page_map: Mapping[int, str] | None = None) -> Paged:
    """A pdftohtml XML document as a `Paged` (see the module); InputError naming the file
    when it is not well-formed, not pdf2xml, or has no page."""
    if b"<!ENTITY" in raw:
        raise InputError("pdf2xml document declares entities; refused", file=where)
    try:
        root = ET.fromstring(raw)
    except ET.ParseError as exc:
        raise InputError(f"not well-formed XML: {exc}", file=where) from exc
    if root.tag != "pdf2xml":
        raise InputError(f"root element is <{root.tag}>, not <pdf2xml>", file=where)
    pages = root.findall("page")
    if not pages:
        raise InputError("pdf2xml has no <page>", file=where)
    texts: list[str] = []
    edges: list[list[str]] = []
    numbers: list[int] = []
    for index, page in enumerate(pages, start=1):
        limits.checkpoint()
        lines = _lines(page)
        texts.append("\n".join(lines))
        edges.append(lines if len(lines) <= 2 * EDGE_LINES
                     else lines[:EDGE_LINES] + lines[-EDGE_LINES:])
        numbers.append(_int(page.get("number"), index))
    text, starts = join_pages(texts)
    extra: dict[str, Any] = {"source_page_numbers": numbers}
    if page_map and all(n in page_map for n in numbers):
        labels = [page_map[n] for n in numbers]
        extra["page_labels_from"] = "page mapping"
    elif (found := printed_labels(edges, numbers)) is not None:
        labels = list(found.labels)
        extra["page_labels_from"] = "printed header/footer"
        if found.inferred:
            extra["page_labels_inferred"] = list(found.inferred)
        if found.physical:
            extra["page_labels_physical"] = list(found.physical)
    else:
        labels = [str(n) for n in numbers]
        extra["page_labels_from"] = "pdf2xml page number"
    return Paged(text, starts, tuple(labels), extra)


def read_page_mapping(raw: bytes, pdf_stem: str) -> dict[int, str] | None:
    """The page labels a ferenda page mapping gives the PDF whose file name (without `.pdf`)
    `pdf_stem` ends with: {PDF page number: printed page}. None when the mapping is not JSON,
    not a mapping of `<pdf>#page=N` keys, or names no such PDF."""
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        return None
    if not isinstance(data, dict):
        return None
    out: dict[int, str] = {}
    for key, value in data.items():
        m = _MAPPING_KEY.match(str(key))
        if m is None or not m["pdf"] or not pdf_stem.endswith(m["pdf"]):
            continue
        out[int(m["page"])] = str(value)
    return out or None


def _int(value: str | None, default: int) -> int:
    try:
        return int(value) if value is not None else default
    except ValueError:
        return default


def _lines(page: ET.Element) -> list[str]:
    """The page's text lines, top to bottom (see the module)."""
    runs: list[tuple[int, int, int, str]] = []
    for el in page.iter("text"):
        words = "".join(el.itertext()).split()
        if words:
            runs.append((_int(el.get("top"), 0), _int(el.get("left"), 0),
                         max(1, _int(el.get("height"), 1)), " ".join(words)))
    runs.sort(key=lambda r: (r[0], r[1]))
    lines: list[list[tuple[int, str]]] = []
    line_top = line_height = 0
    for top, left, height, s in runs:
        if lines and abs(top - line_top) * 2 < min(height, line_height):
            lines[-1].append((left, s))
        else:
            lines.append([(left, s)])
            line_top, line_height = top, height
    return [" ".join(s for _, s in sorted(line)) for line in lines]
