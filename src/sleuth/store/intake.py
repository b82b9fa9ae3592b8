"""Writes of the raw layer (content-addressed bytes, immutable snapshots) and the staging
layer (candidates, the decisions on them, the human review queue)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, bindparam, exists, insert, select, update

from sleuth.model import Candidate, InvariantViolation, NotFound, Snapshot, utcnow
from sleuth.store import schema as t
from sleuth.store.base import StoreBase, date_json, insert_stmt
from sleuth.store.rows import row_to_snapshot

# Statements built once: SQLAlchemy then reuses their compiled form on every call.
_SNAPSHOT_BY_ORIGIN = select(t.snapshots.c.id).where(
    t.snapshots.c.origin == bindparam("origin"), t.snapshots.c.sha256 == bindparam("sha")
)
# put_snapshot's two questions in one round trip: a snapshot of these bytes from this origin?
# the bytes already stored? (A fetch writes a snapshot per request: round trips add up.)
_PUT_PROBE = select(
    _SNAPSHOT_BY_ORIGIN.scalar_subquery().label("existing"),
    exists().where(t.blobs.c.sha256 == bindparam("sha")).label("blob"),
)


class IntakeWrites(StoreBase):
    """What comes in: a source's bytes as a snapshot, then each candidate read from it."""

    # -- raw layer ---------------------------------------------------------------------------
    def put_snapshot(self, conn: Connection, raw: bytes, snap: Snapshot) -> tuple[Snapshot, bool]:
        """Store bytes content-addressed plus the snapshot; returns (snapshot, newly_created).

        The same bytes from the same origin are one snapshot, so re-ingesting is a no-op.
        """
        sha = hashlib.sha256(raw).hexdigest()
        if sha != snap.sha256:
            raise ValueError(f"snapshot hash {snap.sha256} does not match its bytes ({sha})")
        origin = snap.origin
        existing, blob_stored = conn.execute(_PUT_PROBE, {"origin": origin, "sha": sha}).one()
        if existing:
            return self.snapshot(existing, conn), False
        if not blob_stored:
            conn.execute(
                insert_stmt(t.blobs),
                dict(sha256=sha, size=len(raw), data=raw, created_at=utcnow()),
            )
        conn.execute(
            insert_stmt(t.snapshots),
            dict(
                id=snap.id,
                sha256=sha,
                origin=origin,
                url=snap.url,
                path=snap.path,
                source_name=snap.source_name,
                tier=int(snap.tier),
                evidence_type=str(snap.evidence_type),
                accessed_at=snap.accessed_at,
                media_type=snap.media_type,
                text=snap.text,
                page_starts=list(snap.page_starts),
                meta=snap.metadata,
            ),
        )
        self.audit(
            conn,
            "snapshot_stored",
            "snapshot",
            snap.id,
            None,
            {"sha256": sha, "origin": origin, "size": len(raw)},
            "Scout",
        )
        return snap, True

    def find_snapshot(self, conn: Connection, origin: str, sha256: str) -> str | None:
        """Id of the snapshot already holding these bytes from this origin, if any."""
        return conn.execute(_SNAPSHOT_BY_ORIGIN, {"origin": origin, "sha": sha256}).scalar()

    def snapshot(self, snapshot_id: str, conn: Connection | None = None) -> Snapshot:
        with self._reader(conn) as c:
            row = c.execute(select(t.snapshots).where(t.snapshots.c.id == snapshot_id)).first()
        if row is None:
            raise NotFound(f"snapshot {snapshot_id} does not exist")
        return row_to_snapshot(row)

    def blob(self, sha256: str) -> bytes:
        with self.engine.connect() as c:
            data = c.execute(select(t.blobs.c.data).where(t.blobs.c.sha256 == sha256)).scalar()
        if data is None:
            raise NotFound(f"no stored bytes with sha256 {sha256}")
        return bytes(data)

    # -- staging -----------------------------------------------------------------------------
    def stage(
        self,
        conn: Connection,
        cand: Candidate,
        *,
        status: str,
        violations: Sequence[str] = (),
        missing: Sequence[str] = (),
        attempts: int = 0,
    ) -> None:
        cit = cand.citation
        self._insert(
            conn,
            t.candidates,
            {
                "id": cand.id,
                "snapshot_id": cit.snapshot_id if cit else None,
                "subject": cand.subject,
                "subject_name": cand.subject_name,
                "field": cand.field,
                "value": cand.value,
                "date": date_json(cand.date),
                "related": cand.related,
                "related_name": cand.related_name,
                "confidence": cand.confidence,
                "excerpt": cit.excerpt if cit else None,
                "char_start": cit.locator.start if cit else None,
                "char_end": cit.locator.end if cit else None,
                "page": cit.locator.page if cit else None,
                "line": cit.locator.line if cit else None,
                "match_status": str(cit.match_status) if cit and cit.match_status else None,
                "is_fact": cand.is_fact,
                "method": cand.method,
                "evidence_type": str(cand.evidence_type) if cand.evidence_type else None,
                "rationale": cand.rationale,
                "status": status,
                "attempts": attempts,
                "missing_fields": list(missing),
                "violations": list(violations),
                "person_id": None,  # set by promotion; named here so every row has each column
                "assertion_id": None,
                "created_at": utcnow(),
            },
        )

    def set_candidate(self, conn: Connection, candidate_id: str, agent: str, **values: Any) -> None:
        self._update_audited(conn, t.candidates, "candidate", candidate_id, values, agent)

    def decide(
        self,
        conn: Connection,
        candidate_id: str,
        stage: str,
        decision: str,
        reason: str,
        *,
        by: str,
        request: str | None = None,
        priority: str | None = None,
        confidence: float | None = None,
    ) -> None:
        self._insert_values(conn, t.decisions, (  # VALUE_COLUMNS' order
            candidate_id, stage, decision, reason, request, priority, confidence, by,
            utcnow()))

    def enqueue_review(
        self, conn: Connection, candidate_id: str, priority: str, reason: str
    ) -> None:
        conn.execute(
            insert(t.review_queue).values(
                candidate_id=candidate_id,
                priority=priority,
                reason=reason,
                status="open",
                created_at=utcnow(),
            )
        )
        self.audit(
            conn,
            "review_enqueued",
            "candidate",
            candidate_id,
            None,
            {"priority": priority, "reason": reason},
            "DecisionMaker",
        )

    def resolve_review(
        self, conn: Connection, review_id: int, status: str, *, by: str, reason: str
    ) -> None:
        before = (
            conn.execute(select(t.review_queue).where(t.review_queue.c.id == review_id))
            .mappings()
            .first()
        )
        if before is None:
            raise NotFound(f"review item {review_id} does not exist")
        if before["status"] != "open":
            raise InvariantViolation(f"review item {review_id} is already {before['status']}")
        resolved_at = utcnow()
        after = {
            "status": status,
            "resolved_at": resolved_at,
            "resolved_by": by,
            "resolution_reason": reason,
        }
        conn.execute(update(t.review_queue).where(t.review_queue.c.id == review_id).values(**after))
        self.audit(
            conn,
            f"review_{status}",
            "review",
            str(review_id),
            {"status": "open"},
            {**after, "resolved_at": resolved_at.isoformat()},
            by,
            reason,
        )

