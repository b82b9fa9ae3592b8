"""A PDF source's page as an image, with the cited words boxed (the source viewer, issue 23).

pypdfium2 (PDFium) renders the stored bytes of the page; the cited words are found in
PDFium's own text of that page (its text and the stored snapshot's text come from different
readers, so the words are searched, not mapped by offset) and returned as boxes in the
image's pixels. The PNG is written with the standard library (no imaging package)."""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass

import pypdfium2 as pdfium

SCALE = 1.5  # pixels per PDF point: 108 dpi


@dataclass
class PageBoxes:
    """A page's size in the image's pixels and the cited words' boxes on it, each as
    fractions of the page (x, y, width, height): they scale with the image."""

    width: int
    height: int
    boxes: list[tuple[float, float, float, float]]


def render_png(data: bytes, page: int, scale: float = SCALE) -> bytes:
    """Page `page` (1-based) of a PDF as a PNG."""
    pdf = pdfium.PdfDocument(data)
    try:
        pg = _page(pdf, page)
        bitmap = pg.render(scale=scale, rev_byteorder=True)
        pixels = bitmap.to_numpy()
        mode = bitmap.mode
    finally:
        pdf.close()
    if pixels.ndim == 2:  # grey
        rgb = pixels[:, :, None].repeat(3, axis=2)
    else:
        rgb = pixels[:, :, :3] if mode.startswith("RGB") else pixels[:, :, 2::-1]
    return _png(rgb.tobytes(), int(rgb.shape[1]), int(rgb.shape[0]))


def find_boxes(data: bytes, page: int, excerpt: str, scale: float = SCALE) -> PageBoxes:
    """Where `excerpt` stands on page `page` (1-based) of a PDF."""
    pdf = pdfium.PdfDocument(data)
    try:
        pg = _page(pdf, page)
        width_pt, height_pt = pg.get_size()
        boxes = _boxes(pg.get_textpage(), excerpt, width_pt, height_pt) if excerpt else []
    finally:
        pdf.close()
    return PageBoxes(round(width_pt * scale), round(height_pt * scale), boxes)


def _page(pdf: pdfium.PdfDocument, page: int) -> pdfium.PdfPage:
    if not 1 <= page <= len(pdf):
        raise IndexError(f"the PDF has no page {page}")
    return pdf[page - 1]


RUN = 12  # the longest run of words searched at once (a line holds fewer)
NEAR = 200  # characters of PDFium's text a run of the excerpt may lie past the last one found


def _boxes(text: pdfium.PdfTextPage, excerpt: str, width_pt: float,
           height_pt: float) -> list[tuple[float, float, float, float]]:
    """The cited words' rectangles, line by line: the excerpt's words are found in PDFium's
    text as the longest runs that follow one another (a word split by a line-end hyphen or
    read differently is skipped, the rest of the excerpt still boxed); the first run is two
    words or more, so a common word elsewhere on the page is not taken for it."""
    words = excerpt.split()
    found: list[tuple[int, int]] = []
    pos, i = 0, 0
    while i < len(words):
        for k in range(min(RUN, len(words) - i), 0, -1):
            if not found and k < min(2, len(words)):
                break
            hit = text.search(" ".join(words[i:i + k]), index=pos,
                              match_case=False).get_next()
            if hit is not None and (not found or hit[0] - pos <= NEAR):
                found.append(hit)
                pos, i = hit[0] + hit[1], i + k
                break
        else:
            i += 1  # this word is not on the page as PDFium reads it
            continue
        if not found:
            i += 1
    out = []
    for index, count in found:
        for r in range(text.count_rects(index, count)):
            left, bottom, right, top = text.get_rect(r)
            out.append((left / width_pt, (height_pt - top) / height_pt,
                        (right - left) / width_pt, (top - bottom) / height_pt))
    return out


def _png(rgb: bytes, width: int, height: int) -> bytes:
    """An 8-bit RGB PNG of raw rows (no filtering: zlib does the work)."""
    row = width * 3
    raw = b"".join(b"\x00" + rgb[y * row:(y + 1) * row] for y in range(height))

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (struct.pack(">I", len(body)) + kind + body
                + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b""))
