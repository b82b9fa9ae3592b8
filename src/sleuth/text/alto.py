"""ALTO XML (newspaper and book OCR, v1-v4, any namespace): one page of text per `<Page>`.

Text, as Chronicling America's reader builds it (`extract.records.chronam`, which this agrees
with on a one-page file): the `String CONTENT`s of a `TextLine` joined by a space, a `HYP`
hyphen kept at the line end (the firewall's hyphenation rule joins it), lines by a newline,
`TextBlock`s by a blank line; pages by a blank line too (`pages.PAGE_SEP`), an empty page
kept as an empty page.

Page label: the page's `PRINTED_IMG_NR` (the number printed on it), else its
`PHYSICAL_IMG_NR` (its image in the scan), else its position. Word boxes: `word_boxes` in
the metadata, per page `[start, end, x0, y0, x1, y1]` (from HPOS, VPOS, WIDTH, HEIGHT, in
the file's `MeasurementUnit`, `box_unit`).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

from sleuth.model import InputError, limits
from sleuth.text.pages import PAGE_SEP, Paged


def is_alto(head: bytes) -> bool:
    """An `<alto>` root with an ALTO namespace or schema near the start of the document."""
    head = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    return head.startswith(b"<") and b"<alto" in head and b"ALTO" in head.upper()


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _num(el: ET.Element, name: str) -> int:
    """A position or size, rounded; 0 when it is not a finite number ("inf", "nan", "x")."""
    try:
        return round(float(el.get(name, "0")))
    except (ValueError, OverflowError):
        return 0


def local_name(tag: str) -> str:
    """An element's tag without its namespace (ALTO comes in several)."""
    return _local(tag)


def block_text(root: ET.Element) -> tuple[str, list[list[int]]]:
    """The words of every `TextBlock` under `root` as text (blocks apart by a blank line,
    lines by a newline, words by a space, a `HYP` hyphen kept at the line end), and each
    word's `[start, end, HPOS, VPOS, WIDTH, HEIGHT]` (offsets into that text)."""
    parts: list[str] = []
    words: list[list[int]] = []
    pos = 0

    def put(s: str) -> None:
        nonlocal pos
        parts.append(s)
        pos += len(s)

    for block in root.iter():
        if _local(block.tag) != "TextBlock":
            continue
        limits.checkpoint()
        if pos:
            put("\n\n")
        first_line = True
        for line in block:
            if _local(line.tag) != "TextLine":
                continue
            if not first_line:
                put("\n")
            first_line = False
            first_word = True
            for el in line:
                kind = _local(el.tag)
                if kind == "String":
                    content = el.get("CONTENT", "")
                    if not content:
                        continue
                    if not first_word:
                        put(" ")
                    first_word = False
                    words.append([pos, pos + len(content), _num(el, "HPOS"), _num(el, "VPOS"),
                                  _num(el, "WIDTH"), _num(el, "HEIGHT")])
                    put(content)
                elif kind == "HYP":
                    put(el.get("CONTENT", "-") or "-")
    return "".join(parts), words


def alto_pages(raw: bytes, where: str) -> Paged:
    """An ALTO document as a `Paged` (see the module); InputError naming the file when it is
    not well-formed ALTO, declares entities, or has no page or no word."""
    if len(raw) > limits.current().limit("xml"):
        raise limits.too_large("xml", len(raw), where)
    if b"<!DOCTYPE" in raw[:4096] or b"<!ENTITY" in raw:
        raise InputError("ALTO document declares a DTD or entities; refused", file=where)
    try:
        root = ET.fromstring(raw)
    except ET.ParseError as exc:
        raise InputError(f"not well-formed XML: {exc}", file=where) from exc
    if _local(root.tag).lower() != "alto":
        raise InputError(f"root element is <{_local(root.tag)}>, not <alto>", file=where)
    pages = [el for el in root.iter() if _local(el.tag) == "Page"]
    if not pages:
        raise InputError("ALTO document has no <Page>", file=where)
    parts: list[str] = []
    starts: list[int] = []
    labels: list[str] = []
    boxes: list[list[list[int]]] = []
    pos = 0
    for index, page in enumerate(pages, start=1):
        limits.checkpoint()
        if starts:
            parts.append(PAGE_SEP)
            pos += len(PAGE_SEP)
        starts.append(pos)
        text, words = block_text(page)
        page_boxes = [[pos + a, pos + b, x, y, x + w, y + h] for a, b, x, y, w, h in words]
        parts.append(text)
        pos += len(text)
        boxes.append(page_boxes)
        labels.append(page.get("PRINTED_IMG_NR") or page.get("PHYSICAL_IMG_NR") or str(index))
    if not any(boxes):
        raise InputError(f"ALTO document has no words on any of its {len(pages)} pages",
                         file=where)
    extra: dict[str, Any] = {"page_labels_from": "ALTO PRINTED_IMG_NR, else PHYSICAL_IMG_NR",
                             "word_boxes": boxes}
    unit = next((el.text for el in root.iter() if _local(el.tag) == "MeasurementUnit"), None)
    if unit and unit.strip():
        extra["box_unit"] = unit.strip()
    return Paged("".join(parts), tuple(starts), tuple(labels), extra)
