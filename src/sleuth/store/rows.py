"""Stored rows as model objects, for every store module (no store module imports another's
reader for this, so none imports the one that opens the case)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Row

from sleuth.model import EvidenceType, Snapshot, Tier


def row_to_snapshot(row: Row[Any]) -> Snapshot:
    m = row._mapping
    return Snapshot(
        id=m["id"],
        sha256=m["sha256"],
        url=m["url"],
        path=m["path"],
        source_name=m["source_name"],
        tier=Tier(m["tier"]),
        evidence_type=EvidenceType(m["evidence_type"]),
        accessed_at=m["accessed_at"],
        media_type=m["media_type"],
        text=m["text"],
        page_starts=tuple(m["page_starts"] or ()),
        metadata=m["meta"] or {},
    )
