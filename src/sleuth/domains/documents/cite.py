"""Page-cited excerpts: a 50-200-character verbatim span of one page, and the candidate
citation that carries it (`Locator.page` from the snapshot's page starts, the printed label
beside it)."""

from __future__ import annotations

from dataclasses import dataclass

from sleuth.model import Citation, Locator, Snapshot
from sleuth.text.pages import PAGE_SEP

EXCERPT_MIN = 50
EXCERPT_MAX = 200


def _end(text: str, next_start: int) -> int:
    """Where a page ends, given where the next begins: before the blank line the page
    readers join pages with (`PAGE_SEP`), or the form feed of a plain text."""
    if text[max(0, next_start - len(PAGE_SEP)):next_start] == PAGE_SEP:
        return next_start - len(PAGE_SEP)
    if next_start and text[next_start - 1] == "\f":
        return next_start - 1
    return next_start


@dataclass(frozen=True)
class Pages:
    """Where each page of a snapshot begins and ends, and its printed label."""

    starts: tuple[int, ...]
    ends: tuple[int, ...]
    labels: tuple[str, ...]

    @classmethod
    def of(cls, snap: Snapshot) -> Pages:
        starts = snap.page_starts or (0,)
        ends = (*tuple(_end(snap.text, b) for b in starts[1:]), len(snap.text))
        raw = snap.metadata.get("page_labels") or []
        labels = tuple(str(raw[i]) if i < len(raw) else str(i + 1) for i in range(len(starts)))
        return cls(tuple(starts), ends, labels)

    def index(self, offset: int) -> int:
        """0-based page holding `offset`."""
        lo, hi = 0, len(self.starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo

    def bounds(self, offset: int) -> tuple[int, int]:
        i = self.index(offset)
        return self.starts[i], max(self.starts[i], self.ends[i])

    def label(self, page: int) -> str:
        return self.labels[page - 1]


def _sentence_end(text: str, i: int) -> bool:
    """A full stop at text[i - 1] that ends a sentence: followed by a line end, or by a space
    and a capital letter (not "fr.o.m. den", not "bl. a.")."""
    if text[i - 1] not in ".;":
        return False
    rest = text[i:i + 3]
    return not rest or rest[0] == "\n" or (rest[0] == " " and (
        len(rest) < 2 or rest[1].isupper() or rest[1] == "\n"))


def excerpt_span(text: str, pages: Pages, start: int, end: int) -> tuple[int, int]:
    """A span of 50-200 characters on one page that holds text[start:end] (cut to 200 from
    its start when longer), widened to the sentence around it where the budget allows, and
    beginning and ending on whole words."""
    lo, hi = pages.bounds(start)
    start, end = max(start, lo), min(max(end, start + 1), hi)
    end = min(end, start + EXCERPT_MAX)
    left = start
    budget_left = (EXCERPT_MAX - (end - start)) // 2
    while left > lo and start - left < budget_left and not _sentence_end(text, left):
        left -= 1
    if left > lo and not _sentence_end(text, left):  # stopped inside a word: go to its end
        while left < start and not text[left - 1].isspace():
            left += 1
    right = end
    while right < hi and right - left < EXCERPT_MAX and not _sentence_end(text, right):
        right += 1
    if right - left >= EXCERPT_MAX or (right < hi and not _sentence_end(text, right)):
        while right > end and not text[right].isspace():
            right -= 1
    while right - left < EXCERPT_MIN and (left > lo or right < hi):  # too short: grow
        if left > lo:
            left -= 1
        else:
            right += 1
    while (left > lo and not text[left - 1].isspace() and not _sentence_end(text, left)
           and right - left < EXCERPT_MAX):
        left -= 1  # begin on a whole word (a sentence's start is one: not "OSK).\nAtt")
    while right - left > EXCERPT_MIN and text[left].isspace():
        left += 1
    while right - left > EXCERPT_MIN and text[right - 1].isspace():
        right -= 1
    return left, right


def citation(snap: Snapshot, pages: Pages, start: int, end: int,
             method: str = "deterministic", *, exact: bool = False) -> tuple[Citation, int, str]:
    """The citation of text[start:end] (see `excerpt_span`), its page and printed label;
    `exact` quotes the span as it is where it is a quote's length on one page (a caller
    that chose it to hold a date and its names)."""
    lo, hi = pages.bounds(start)
    if exact and lo <= start and end <= hi and EXCERPT_MIN <= end - start <= EXCERPT_MAX:
        a, b = start, end
    else:
        a, b = excerpt_span(snap.text, pages, start, end)
    page = pages.index(a) + 1
    cit = Citation(snapshot_id=snap.id, excerpt=snap.text[a:b],
                   locator=Locator(start=a, end=b, page=page), extraction_method=method,
                   source_reliability=0.8)
    return cit, page, pages.label(page)
