"""ferenda's parsed XHTML (lagen.nu's "parsed" stage of an SOU or proposition): a web page
that marks where each printed page begins, `<span id="sid3" class="sidbrytning" …/>`.

Read as one page, its citations would name no page; read here as a paged document like the
PDF and hOCR readers' (`pages.Paged`): the page's visible text (`html.html_text`, so the words
are those a browser shows) between one break and the next, the pages joined by a blank line,
each labelled by its break's number ("sid3" → "3", the page of the printed report; the file
may hold only some pages). Text before the first break, where there is any, is a page of its
own, labelled by the page before it.
"""

from __future__ import annotations

import re

from sleuth.model import InputError
from sleuth.text.decode import decode_text
from sleuth.text.html import html_text
from sleuth.text.pages import Paged, join_pages

_MARK = b'class="sidbrytning"'
# A page break: self-closed (XHTML) or an empty element.
_BREAK = re.compile(r'<span\b[^>]*\bclass="sidbrytning"[^>]*?(?:/>|>\s*</span>)')
_SID = re.compile(r'\bid="sid(\d+)"')
_SENTINEL = "\ue000"  # a private-use character around a break's number in the text
_LINE = re.compile(f"^{_SENTINEL}(\\d+){_SENTINEL}$")


def is_paged_xhtml(body: bytes) -> bool:
    """Whether an (X)HTML document marks its printed pages the ferenda way."""
    return _MARK in body


def sidbrytning_pages(body: bytes, where: str) -> Paged:
    """The document's pages between its page breaks (see the module)."""
    html, encoding = decode_text(body, where)

    def marker(m: re.Match[str]) -> str:
        sid = _SID.search(m.group(0))
        return f"<span>{_SENTINEL}{sid.group(1) if sid else ''}{_SENTINEL}</span>"

    try:
        text = html_text(_BREAK.sub(marker, html.replace(_SENTINEL, "")))
    except InputError as exc:
        raise InputError(exc.message, file=where) from None
    pages: list[list[str]] = [[]]
    labels: list[str] = [""]
    for line in text.split("\n"):
        m = _LINE.match(line)
        if m is None:
            pages[-1].append(line)
            continue
        pages.append([])
        labels.append(m.group(1) or str(len(labels)))
    if not pages[0] and len(pages) > 1:  # nothing before the first break
        pages, labels = pages[1:], labels[1:]
    elif len(labels) == 1:  # no break found after all: one page
        labels[0] = "1"
    else:
        first = int(labels[1]) if labels[1].isdigit() else 1
        labels[0] = str(max(first - 1, 1))
    joined, starts = join_pages(["\n".join(lines) for lines in pages])
    return Paged(joined, starts, tuple(labels),
                 extra={"encoding": encoding, "page_labels_from": "ferenda sidbrytning"})
