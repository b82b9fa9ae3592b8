"""The resolver's own proposals on the review queue (merge: `same_person`; unmerge:
`not_same_person`): staged candidates whose subject and value name what they are about.
Read to ask whether one is open, was declined, or what a review item holds; staging and
deciding them go through `Store` (audited)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Connection, func, select

from sleuth.store import schema as t


def pair_queued(conn: Connection, field: str, a: str, b: str) -> bool:
    """A proposal of `field` for this pair (either order) is staged and not rejected."""
    c = t.candidates.c
    return conn.execute(select(c.id).where(
        c.field == field, c.status != "rejected",
        ((c.subject == a) & (c.value == b)) | ((c.subject == b) & (c.value == a)),
    )).first() is not None


def pair_declined(conn: Connection, field: str, a: str, b: str) -> bool:
    """A reviewer rejected a proposal of `field` for this pair and no assertion about
    either person, not rejected, was made after the last rejection."""
    c, d, s = t.candidates.c, t.decisions.c, t.assertions.c
    last = (select(func.max(d.decided_at))
            .join(t.candidates, c.id == d.candidate_id)
            .where(c.field == field, c.status == "rejected", d.decision == "reject",
                   ((c.subject == a) & (c.value == b)) | ((c.subject == b) & (c.value == a)))
            .scalar_subquery())
    when = conn.execute(select(last)).scalar()
    if when is None:
        return False
    newer = conn.execute(select(s.id).where(
        s.entity_id.in_([a, b]), s.status != "rejected", s.asserted_at > last).limit(1)).first()
    return newer is None


def open_about(conn: Connection, field: str, value: str) -> bool:
    """A proposal of `field` with this value (a cluster id) is staged and not rejected."""
    c = t.candidates.c
    return conn.execute(select(c.id).where(c.field == field, c.value == value,
                                           c.status != "rejected").limit(1)).first() is not None


def last_rejected(conn: Connection, field: str, value: str) -> datetime | None:
    """When a reviewer last rejected a proposal of `field` with this value, or None."""
    c, d = t.candidates.c, t.decisions.c
    when: datetime | None = conn.execute(select(func.max(d.decided_at)).join(
        t.candidates, c.id == d.candidate_id).where(
        c.field == field, c.value == value, d.decision == "reject")).scalar()
    return when


def review_item(conn: Connection, review_id: int) -> dict[str, Any] | None:
    """A review item's status and its candidate's id, subject, value and field; None when
    there is no such item."""
    q, c = t.review_queue.c, t.candidates.c
    row = conn.execute(
        select(q.status, c.id, c.subject, c.value, c.field)
        .join(t.candidates, c.id == q.candidate_id).where(q.id == review_id)
    ).mappings().first()
    return None if row is None else dict(row)


def open_items(conn: Connection, field: str) -> list[tuple[Any, ...]]:
    """(review item, candidate, subject, value) of every open item of `field`, in queue
    order."""
    q, c = t.review_queue.c, t.candidates.c
    return [tuple(r) for r in conn.execute(select(q.id, c.id, c.subject, c.value).join(
        t.candidates, c.id == q.candidate_id).where(
        q.status == "open", c.field == field).order_by(q.id))]
