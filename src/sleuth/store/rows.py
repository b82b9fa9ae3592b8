"""Stored rows read back as model objects (a snapshot, a staged candidate), for every store
module and the review queue; no store module imports another's reader for this, so none
imports the one that opens the case."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, Row, select

from sleuth.model import (
    Candidate,
    Citation,
    EvidenceType,
    GenDate,
    Locator,
    MatchStatus,
    NotFound,
    Snapshot,
    Tier,
)
from sleuth.store import schema as t


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


def load_candidate(conn: Connection, candidate_id: str) -> Candidate:
    """A staged candidate as it was staged, its citation included."""
    m = (
        conn.execute(select(t.candidates).where(t.candidates.c.id == candidate_id))
        .mappings()
        .first()
    )
    if m is None:
        raise NotFound(f"candidate {candidate_id} does not exist")
    citation = None
    if m["excerpt"] is not None:
        citation = Citation(
            snapshot_id=m["snapshot_id"],
            excerpt=m["excerpt"],
            locator=Locator(
                start=m["char_start"], end=m["char_end"], page=m["page"], line=m["line"]
            ),
            extraction_method=m["method"],
            match_status=MatchStatus(m["match_status"]) if m["match_status"] else None,
        )
    return Candidate(
        id=m["id"],
        subject=m["subject"],
        subject_name=m["subject_name"],
        field=m["field"],
        value=m["value"],
        date=GenDate.model_validate(m["date"]) if m["date"] else None,
        related=m["related"],
        related_name=m["related_name"],
        confidence=m["confidence"],
        citation=citation,
        is_fact=m["is_fact"],
        method=m["method"],
        evidence_type=EvidenceType(m["evidence_type"]) if m["evidence_type"] else None,
        rationale=m["rationale"],
    )
