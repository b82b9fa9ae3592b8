"""Circuit breakers per source, kept in the case so a resumed run carries on from them.

A breaker's row in `source_state` holds its circuit, its count of consecutive failures and
when it opened; `source_holds` holds the time a server asked to be left alone until (a
Retry-After past the source's cap), while there is one. `save_breaker` writes both in the
caller's transaction.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Connection, delete, insert, select, update

from sleuth.model import utcnow
from sleuth.store import schema as t


@dataclass(frozen=True)
class BreakerRow:
    circuit: str  # closed, open, half_open
    failures: int
    opened_at: float | None  # epoch seconds
    open_until: float | None  # epoch seconds: a server's stated time, if any
    hold_reason: str | None = None


def load_breaker(conn: Connection, source_id: str) -> BreakerRow | None:
    """The saved breaker of `source_id`, or None when it never changed."""
    s, h = t.source_state, t.source_holds
    row = conn.execute(select(s.c.circuit, s.c.failures, s.c.opened_at)
                       .where(s.c.source_id == source_id)).first()
    hold = conn.execute(select(h.c.open_until, h.c.reason)
                        .where(h.c.source_id == source_id)).first()
    if row is None and hold is None:
        return None
    circuit, failures, opened_at = row if row is not None else ("closed", 0, None)
    return BreakerRow(str(circuit), int(failures), opened_at,
                      hold[0] if hold else None, hold[1] if hold else None)


def save_breaker(conn: Connection, source_id: str, circuit: str, failures: int,
                 opened_at: float | None, open_until: float | None = None,
                 reason: str = "") -> None:
    """Insert or update the breaker of `source_id`; its hold goes when `open_until` is None."""
    now = utcnow()
    s, h = t.source_state, t.source_holds
    values = dict(circuit=circuit, failures=failures, opened_at=opened_at, updated_at=now)
    if conn.execute(update(s).where(s.c.source_id == source_id).values(**values)).rowcount == 0:
        conn.execute(insert(s).values(source_id=source_id, **values))
    if open_until is None:
        conn.execute(delete(h).where(h.c.source_id == source_id))
        return
    held = dict(open_until=open_until, reason=reason or "server asked for a pause",
                updated_at=now)
    if conn.execute(update(h).where(h.c.source_id == source_id).values(**held)).rowcount == 0:
        conn.execute(insert(h).values(source_id=source_id, **held))
