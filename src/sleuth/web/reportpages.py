"""The case report in pages (`/report?page=N`). A genealogy case's report is served in
stable pages rendered one at a time (`export.paged`, made here: `paged_report`); any other
report (another domain's, or the owner's unredacted view) is the whole censored report,
cut at its headings and source sections into pages of about `PAGE_CHARS` characters, so
that a long report (tens of megabytes) is read a page at a time and each load is small.

The cut is made once per version of the case, on the report exactly as exported (through
the Censor): nothing is left out, and a link to a note, an excerpt or a source on another
page points to that page (`/report?page=K#id`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sleuth.export.paged import PagedReport
from sleuth.export.report import _with_search_snapshots
from sleuth.gps.proof import load_inputs
from sleuth.model.graph import CaseGraph
from sleuth.privacy import censor
from sleuth.privacy.view import CensoredGraph
from sleuth.store import Store

PAGE_CHARS = 200_000  # about this much HTML a page (a heading's section is never split)
_CUT = re.compile(r'\n(?=<h[23]>)|\n?(?=<section id="snap-)')
_ID = re.compile(r' id="([^"]+)"')
_HREF = re.compile(r'href="#([^"]+)"')


@dataclass
class ReportPages:
    head: str  # the document up to and including <body>
    pages: list[str]  # each page's part of the body, as cut
    whole: str  # the document itself (served as it is when it makes one page)
    where: dict[str, int] = field(default_factory=dict)  # anchor -> its page
    _pointed: dict[int, str] = field(default_factory=dict)

    def body(self, n: int) -> str:
        """Page `n`'s part of the body, its links to another page pointed there (made when
        the page is first asked for: a first load points one page, not a hundred)."""
        got = self._pointed.get(n)
        if got is None:
            where = self.where
            got = self._pointed[n] = _HREF.sub(
                lambda m: m.group(0) if where.get(m.group(1), n) == n
                else f'href="/report?page={where[m.group(1)]}#{m.group(1)}"', self.pages[n - 1])
        return got

    def page(self, number: int) -> str:
        """Page `number` (1-based, clamped) as a whole HTML document, with its pager."""
        n = min(max(1, number), len(self.pages))
        if len(self.pages) == 1:
            return self.whole
        links = [f"Page {n} of {len(self.pages)}"]
        if n > 1:
            links.append(f'<a href="/report?page={n - 1}" rel="prev">previous</a>')
        if n < len(self.pages):
            links.append(f'<a href="/report?page={n + 1}" rel="next">next</a>')
        pager = f'<nav class="pager"><p>{" · ".join(links)}</p></nav>'
        return f"{self.head}{pager}\n{self.body(n)}\n{pager}</body></html>\n"


def paginate(document: str, page_chars: int | None = None) -> ReportPages:
    """Cut `document` (the report's HTML) into pages of about `page_chars` (`PAGE_CHARS`);
    in-page links to another page point there."""
    page_chars = page_chars or PAGE_CHARS
    start = document.index("<body>") + len("<body>")
    end = document.rindex("</body>")
    head, body = document[:start], document[start:end]
    pieces = _CUT.split(body)
    pages: list[str] = []
    current: list[str] = []
    size = 0
    for piece in pieces:
        if current and size + len(piece) > page_chars:
            pages.append("\n".join(current))
            current, size = [], 0
        current.append(piece)
        size += len(piece) + 1
    pages.append("\n".join(current))
    if len(pages) == 1:
        return ReportPages(head, pages, document)
    where = {anchor: k for k, text in enumerate(pages, start=1) for anchor in _ID.findall(text)}
    return ReportPages(head, pages, document, where)


def paged_report(store: Store, raw: CaseGraph, censored: CensoredGraph | None = None,
                 prev: PagedReport | None = None,
                 log: Callable[[], list[dict[str, Any]]] | None = None) -> PagedReport:
    """A genealogy case's report in stable pages (`export.paged`), of `raw` as read from
    `store` and `censored` (its Censor's copy; None: censored here). Search responses
    that only negative evidence cites are censored with the case, as the export does: the
    whole case then, and nothing is kept from `prev`."""
    gps = load_inputs(store, raw)
    plus = _with_search_snapshots(raw, gps)
    if censored is None or plus is not raw:
        censored, prev, log = censor(plus), None, None
    return PagedReport(censored, plus.snapshots, gps, prev=prev, log=log)
