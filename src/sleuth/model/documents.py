"""A document's own date and kind, as its snapshot records them (issue 20).

Set at load time - a newspaper page's issue record (Chronicling America), its dated bulk file
name or a weekday-checked masthead (`sources.masthead`) - or read from a Chronicling America
page address. The living rules read it as the day everyone the document names existed by
(`privacy.documents`); the GPS information class as how long after an event it was written.
"""

from __future__ import annotations

import re
from datetime import date

from sleuth.model.records import Snapshot

NEWSPAPER = "newspaper"  # `document_kind` of a snapshot that is a newspaper page
# a page of an issue, at Chronicling America (`/lccn/sn…/DATE/ed-1/seq-1/`) or at loc.gov,
# where its pages now live (`/resource/sn…/DATE/ed-1/?sp=1`, `…/ed-1/seq-1/ocr.txt`)
_CHRONAM_PAGE = re.compile(r"/(?:lccn|resource)/sn\d+/(\d{4}-\d{2}-\d{2})/ed-\d+/")


def document_date(snap: Snapshot) -> date | None:
    """The day a snapshot's document is dated: its metadata's, else the issue date in a
    Chronicling America or loc.gov page address (`/lccn/sn86081889/1916-10-19/ed-1/seq-1/`,
    `/resource/sn86081889/1916-10-19/ed-1/?sp=1`)."""
    iso = snap.metadata.get("document_date")
    if not isinstance(iso, str):
        m = _CHRONAM_PAGE.search(snap.url or "")
        iso = m.group(1) if m else None
    if iso is None:
        return None
    try:
        return date.fromisoformat(iso[:10])
    except ValueError:
        return None


def is_newspaper(snap: Snapshot) -> bool:
    """A newspaper page: so marked at load time, from chronam, or at a chronam page address."""
    meta = snap.metadata
    return (meta.get("document_kind") == NEWSPAPER or meta.get("source_format") == "chronam"
            or _CHRONAM_PAGE.search(snap.url or "") is not None)
