"""The user's recorded permissions per (source, action): append-only rows, audited.

The source gates (`sleuth.sources.gates`) decide with them; this module is their only
reader and writer (issue 21: the store is the one door to the database)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, desc, insert, select

from sleuth.model import utcnow
from sleuth.store import schema as t
from sleuth.store.store import Store


def add_consent(store: Store, conn: Connection, source_id: str, action: str, reason: str,
                *, granted: bool, by: str) -> None:
    """Append one grant or revocation, with its audit entry, in the caller's transaction."""
    conn.execute(insert(t.source_consents).values(
        source_id=source_id, action=action, granted=granted, granted_by=by, reason=reason,
        at=utcnow()))
    store.audit(conn, "source_permission_granted" if granted else "source_permission_revoked",
                "source", source_id, None, {"action": action, "granted": granted}, by, reason)


def latest_consent(conn: Connection, source_id: str, action: str) -> dict[str, Any] | None:
    """The latest recorded permission for (source, action), or None."""
    c = t.source_consents.c
    row = conn.execute(
        select(t.source_consents).where(c.source_id == source_id, c.action == action)
        .order_by(desc(c.id)).limit(1)
    ).mappings().first()
    return dict(row) if row else None


def tier_permissions(conn: Connection) -> list[dict[str, Any]]:
    """Each tier's recorded permission, by tier: {"tier", "allowed"} (the privacy report
    shows them; the loop's invariants check Tier 0 is never refused)."""
    p = t.source_permissions
    return [{"tier": r.tier, "allowed": bool(r.allowed)}
            for r in conn.execute(select(p).order_by(p.c.tier))]
