"""A PDF's text layer, page by page, with each page's start offset and printed page label.

Labels: the PDF's own /PageLabels tree when it has one (pypdf's `reader.page_labels`);
otherwise the page number printed in the running header or footer, read by the general rule
of `pages.printed_labels` over the three topmost and three bottommost text lines of each page
(by their position on the page); otherwise the page index ("1", "2", ...). Where the labels
came from is `page_labels_from` in the metadata. None of the shared PDFs has a /PageLabels
tree: the GDPR's "L 119/88" on its 88th page is read from its running header.
"""

from __future__ import annotations

import io
import logging
from typing import TYPE_CHECKING, Any

from sleuth.model import InputError, limits
from sleuth.text.pages import Paged, join_pages, printed_labels

if TYPE_CHECKING:
    from pypdf import PageObject

EDGE_LINES = 3  # text lines at each edge of a page where a printed page number is looked for


def pdf_text(raw: bytes, where: str) -> tuple[str, tuple[int, ...]]:
    """The pages joined by a blank line, and where each page starts in that text."""
    paged = pdf_pages(raw, where)
    return paged.text, paged.page_starts


def pdf_pages(raw: bytes, where: str) -> Paged:
    """A PDF's text layer as a `Paged` (labels as the module says).

    One-line InputErrors naming the file: unreadable or truncated, encrypted with a password,
    a page that cannot be read (named). A PDF with no text layer on any page (a scan) is
    read by OCR where an engine is installed (`ocr`), else refused as needing OCR."""
    # pypdf is imported on first use: it is slow to import and most commands never read a PDF.
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    # pypdf logs font-parsing chatter at WARNING for ordinary PDFs; keep the CLI quiet.
    logging.getLogger("pypdf").setLevel(logging.ERROR)

    try:
        reader = PdfReader(io.BytesIO(raw))
        if reader.is_encrypted and not reader.decrypt(""):
            raise InputError("encrypted PDF: it needs a password to be read", file=where)
        pages = list(reader.pages)
    except InputError:
        raise
    except (PdfReadError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise InputError(f"unreadable PDF: {_one_line(exc)}", file=where) from exc
    except Exception as exc:  # pypdf's decryption needs an optional crypto package
        raise InputError(f"unreadable PDF: {_one_line(exc)}", file=where) from exc
    if not pages:
        raise InputError("PDF has no pages", file=where)
    texts: list[str] = []
    edges: list[list[str]] = []
    for n, page in enumerate(pages, start=1):
        try:
            text, edge = _page_text(page)
        except InputError as exc:  # its time budget spent (`limits.checkpoint`)
            raise InputError(exc.message, file=where) from None
        except Exception as exc:  # any failure inside one page's content stream
            raise InputError(f"unreadable PDF page {n}: {_one_line(exc)}", file=where) from exc
        texts.append(text)
        edges.append(edge)
    if not any(t.strip() for t in texts):  # a scan: OCR it where an engine is installed
        from sleuth.text.ocr import ocr_images, render_pdf

        return ocr_images(render_pdf(raw, where), where,
                          source=f"no text layer on any of its {len(pages)} pages (a scan)")
    text, starts = join_pages(texts)
    extra: dict[str, Any] = {}
    labels = _tree_labels(reader)
    if labels is not None:
        extra["page_labels_from"] = "/PageLabels"
    elif (found := printed_labels(edges)) is not None:
        labels = list(found.labels)
        extra["page_labels_from"] = "printed header/footer"
        if found.inferred:
            extra["page_labels_inferred"] = list(found.inferred)
        if found.physical:
            extra["page_labels_physical"] = list(found.physical)
    else:
        labels = [str(i) for i in range(1, len(pages) + 1)]
        extra["page_labels_from"] = "page index"
    return Paged(text, starts, tuple(labels), extra)


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


def _tree_labels(reader: Any) -> list[str] | None:
    """The /PageLabels tree's labels, or None when the PDF has none (pypdf then numbers)."""
    try:
        root = reader.trailer["/Root"]
        if "/PageLabels" not in root:
            return None
        return list(reader.page_labels)
    except Exception:  # a broken label tree is no reason to refuse the text
        return None


def _page_text(page: PageObject) -> tuple[str, list[str]]:
    """A page's text (pypdf's layout-free extraction) and its edge lines, top to bottom."""
    rows: dict[int, list[tuple[float, str]]] = {}

    def visit(text: str, cm: list[float], tm: list[float], _font: Any, _size: Any) -> None:
        limits.checkpoint()  # (called for every piece of text a page shows)
        if text.strip():
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            rows.setdefault(round(y), []).append((x, text.strip()))

    text = page.extract_text(visitor_text=visit) or ""
    ys = sorted(rows, reverse=True)
    edge_ys = ys if len(ys) <= 2 * EDGE_LINES else ys[:EDGE_LINES] + ys[-EDGE_LINES:]
    return text, [" ".join(s for _, s in sorted(rows[y])) for y in edge_ys]
