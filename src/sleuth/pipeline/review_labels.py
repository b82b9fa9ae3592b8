"""Who a review item is about, readably: a tree's person without a name, and a relative
named by pointer, get a label instead of a blank or a bare `@I786@`.

A GEDCOM INDI may carry no NAME (`1 NAME //`) but a title (`1 TITL Earl Howe I`); its facts
wait in the review queue for want of a name, and the family links to it name it by pointer
only. The queue shows such a person as "Earl Howe I (unnamed person @I785@)", the title read
back from the stored snapshot, and a relationship's value as the relative's name (or that
label): never an empty cell or a pointer a reviewer has to look up in the file.
"""

from __future__ import annotations

import re

from sleuth.extract.records.gedcom import detect
from sleuth.gedcom.reader import parse_gedcom
from sleuth.model import NotFound
from sleuth.store import Store

POINTER = re.compile(r"@[^@\s]{1,80}@")  # a GEDCOM cross-reference, as a value


def unnamed(xref: str, title: str = "") -> str:
    """'Earl Howe I (unnamed person @I785@)', or without a title 'unnamed person @I785@'
    (the title first: a narrow column still shows who it is)."""
    return f"{title} (unnamed person {xref})" if title else f"unnamed person {xref}"


class Labels:
    """Labels of the people of one review listing; each snapshot's titles read once."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._titles: dict[str, dict[str, str]] = {}

    def of(self, snapshot_id: str, who: str, name: str | None = None) -> str:
        """`name` when there is one, else the unnamed person's label."""
        if name and name.strip():
            return name
        return unnamed(who, self._titles_of(snapshot_id).get(who, ""))

    def _titles_of(self, snapshot_id: str) -> dict[str, str]:
        if snapshot_id not in self._titles:
            self._titles[snapshot_id] = self._read(snapshot_id)
        return self._titles[snapshot_id]

    def _read(self, snapshot_id: str) -> dict[str, str]:
        """xref -> TITL of each INDI of a GEDCOM snapshot ({} for any other)."""
        try:
            snap = self.store.snapshot(snapshot_id)
        except NotFound:
            return {}
        if not detect(snap, None):
            return {}
        ged = parse_gedcom(snap.text, require_head=False)  # (checked when it was stored)
        return {r.xref: " ".join(title.split()) for r in ged.of_tag("INDI")
                if r.xref and (title := r.value_of("TITL") or "").strip()}
