"""The workbench's page for a documents-domain case (seed 004): each process (a document)
with its stage, its dated events and the people and bodies it names, every line cited to
its page and opening the source viewer at the very words (`/snapshot/{id}?start=&end=`).

The documents are public official publications about their office-holders: as in the
domain's exports (`sleuth.domains.documents.exports`), no living-person rule applies.
"""

from __future__ import annotations

from typing import Any

from sleuth.domains.documents.exports import in_date_order
from sleuth.store import Store
from sleuth.store import documents as docs


def page(store: Store) -> list[dict[str, Any]]:
    """Every process, by designation, with its events (in date order, undated last, as the
    dossier lists them) and mentions."""
    with store.engine.connect() as conn:
        processes = docs.processes(conn)
        events = in_date_order(docs.events(conn), docs.designations(conn))
        mentions = docs.mentions(conn)
    out = []
    for p in sorted(processes, key=lambda p: (p.designation, p.id)):
        out.append({
            "process": p,
            "events": [_cited(e) for e in events if e["snapshot_id"] in p.documents],
            "mentions": [_cited(m) for m in mentions if m["snapshot_id"] in p.documents],
        })
    known = {sid for p in processes for sid in p.documents}
    orphans = sorted({str(e["snapshot_id"]) for e in [*events, *mentions]} - known)
    for sid in orphans:  # rows of a document whose process is not stored (yet)
        out.append({"process": None, "snapshot_id": sid,
                    "events": [_cited(e) for e in events if e["snapshot_id"] == sid],
                    "mentions": [_cited(m) for m in mentions if m["snapshot_id"] == sid]})
    return out


def _cited(row: dict[str, Any]) -> dict[str, Any]:
    """A stored row with the source viewer's address at its page and excerpt."""
    return row | {"href": f"/snapshot/{row['snapshot_id']}?start={int(row['char_start'])}"
                          f"&end={int(row['char_end'])}"}
