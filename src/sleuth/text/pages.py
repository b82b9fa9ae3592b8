"""Paged text: pages joined into one snapshot text, where each starts, and its printed label.

Every page reader (`pdf`, `hocr`, `pdf2xml`, `alto`) returns a `Paged`: the pages joined by a
blank line (`PAGE_SEP`), so page *i* is exactly `text[starts[i]:starts[i] + len(page i)]`, an
empty page is kept as an empty slice (page numbers stay right), and `Snapshot.page_of` /
`Locator.page` give the 1-based page of any offset (an offset in a separator belongs to the
page before it).

`printed_labels` reads the page number a reader would cite from the text at the top and bottom
edge of each page, by one general rule (see its docstring); readers fall back to their own
page numbering when it finds no consistent sequence.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

PAGE_SEP = "\n\n"


@dataclass(frozen=True)
class Paged:
    """A paged document's text. `extra` goes into the snapshot metadata as it is."""

    text: str
    page_starts: tuple[int, ...]
    page_labels: tuple[str, ...]
    extra: dict[str, Any] = field(default_factory=dict)

    def page_text(self, index: int) -> str:
        """The text of page `index` (0-based), as a slice of `text`."""
        start = self.page_starts[index]
        if index + 1 < len(self.page_starts):
            end = self.page_starts[index + 1] - len(PAGE_SEP)
        else:
            end = len(self.text)
        return self.text[start:end]


def join_pages(pages: Sequence[str]) -> tuple[str, tuple[int, ...]]:
    """The pages joined by a blank line, and where each page starts in that text."""
    starts: list[int] = []
    pos = 0
    for text in pages:
        starts.append(pos)
        pos += len(text) + len(PAGE_SEP)
    return PAGE_SEP.join(pages), tuple(starts)


# A page number as printed: a number of 1-6 digits, not zero-padded (printers' frame and job
# numbers are: "Frm 00002"), not part of a date, time or decimal ("4.5.2016", "16:21"),
# optionally after a journal-issue prefix ("L 119/88", "C 202/1"), which is kept in the label.
_PAGE_NO = re.compile(
    r"(?<![\w.,:/–-])(?P<prefix>[A-Z]{1,3} ?\d{1,4}/)?(?P<num>[1-9]\d{0,5})(?![\w/]|[.,:]\d)"
)


@dataclass(frozen=True)
class PrintedLabels:
    labels: tuple[str, ...]
    inferred: tuple[int, ...]  # 1-based pages whose label was not printed but read off the run
    physical: tuple[int, ...]  # 1-based pages outside any run: labelled by their page number


def printed_labels(edges: Sequence[Sequence[str]],
                   numbers: Sequence[int] | None = None) -> PrintedLabels | None:
    """Printed page labels from the text lines at each page's top and bottom edge.

    The rule: every number standing alone on an edge line (`_PAGE_NO`) is a candidate; a
    candidate votes for (its prefix, its value minus the page's physical number). The pair
    with most votes wins when at least half the pages (and at least two) carry it: the
    printed label runs in step with the pages ("2" on page 2, "47699" on page 2 of a Federal
    Register extract, "L 119/88" on page 88 of the Official Journal). A page that does not
    print it (a title page, a blank page) gets the label the run gives it (`inferred`) when
    it lies in an unbroken stretch of physical pages with a page that does; a page cut off
    from every such page (an excerpt's front matter before a gap) keeps its physical number
    (`physical`). `numbers` are the physical page numbers (1-based, default 1..n; an excerpt
    of a longer document has gaps). None when no run is found.
    """
    n = len(edges)
    nums = list(numbers) if numbers is not None else list(range(1, n + 1))
    votes: Counter[tuple[str, int]] = Counter()
    found: list[set[tuple[str, int]]] = []
    for lines, phys in zip(edges, nums, strict=True):
        seen = {((m["prefix"] or ""), int(m["num"]) - phys)
                for line in lines for m in _PAGE_NO.finditer(line)}
        found.append(seen)
        votes.update(seen)
    if not votes:
        return None
    # most votes; on a tie the label that equals the page number, then the shorter prefix
    best, count = min(votes.items(), key=lambda kv: (-kv[1], kv[0][1] != 0, len(kv[0][0])))
    if count < max(2, (n + 1) // 2):
        return None
    prefix, offset = best
    # stretches of consecutive physical pages; a stretch with a printed label is labelled
    stretch = [0] * n
    for i in range(1, n):
        stretch[i] = stretch[i - 1] + (nums[i] != nums[i - 1] + 1)
    runs = {stretch[i] for i in range(n) if best in found[i]}
    labels: list[str] = []
    inferred: list[int] = []
    physical: list[int] = []
    for i, phys in enumerate(nums):
        if best in found[i] or stretch[i] in runs:
            labels.append(f"{prefix}{phys + offset}")
            if best not in found[i]:
                inferred.append(i + 1)
        else:
            labels.append(str(phys))
            physical.append(i + 1)
    return PrintedLabels(tuple(labels), tuple(inferred), tuple(physical))
