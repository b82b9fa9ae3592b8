"""A PDF's text, page by page, with each page's start offset (the locator's page)."""

from __future__ import annotations

import io
import logging

from sleuth.model import InputError


def pdf_text(raw: bytes, where: str) -> tuple[str, tuple[int, ...]]:
    """The pages joined by a blank line, and where each page starts in that text."""
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    # pypdf logs font-parsing chatter at WARNING for ordinary PDFs; keep the CLI quiet.
    logging.getLogger("pypdf").setLevel(logging.ERROR)

    try:
        reader = PdfReader(io.BytesIO(raw))
        pages = [(p.extract_text() or "") for p in reader.pages]
    except (PdfReadError, ValueError, KeyError) as exc:
        raise InputError(f"unreadable PDF: {exc}", file=where) from exc
    starts: list[int] = []
    parts: list[str] = []
    pos = 0
    for text in pages:
        starts.append(pos)
        parts.append(text)
        pos += len(text) + 2  # pages joined by a blank line
    return "\n\n".join(parts), tuple(starts)
