"""Reads of the human review queue for `sleuth.pipeline.review` (issue 21: the store is the
one door to the database); its writes are `Store` methods, audited."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, select

from sleuth.store import schema as t


def review_row(conn: Connection, review_id: int) -> dict[str, Any] | None:
    """One review item's row as stored, or None."""
    item = conn.execute(select(t.review_queue).where(
        t.review_queue.c.id == review_id)).mappings().first()
    return None if item is None else dict(item)


def staged_for(conn: Connection, snapshot_id: str, subject: str) -> list[str]:
    """Ids of the candidates staged for one subject of one snapshot, rejected ones aside:
    what a reviewer sees of that subject together."""
    c = t.candidates.c
    return [str(i) for i in conn.execute(select(c.id).where(
        c.snapshot_id == snapshot_id, c.subject == subject, c.status != "rejected")).scalars()]
