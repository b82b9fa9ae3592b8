"""The response cache and the persisted circuit state, both rows in the case database.

A cache row points at the immutable snapshot holding the bytes, plus the validators (ETag,
Last-Modified) to revalidate it; a hit within TTL or a 304 costs no body transfer.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import Any

from sqlalchemy import Connection, bindparam, insert, select, update

from sleuth.model import utcnow
from sleuth.store import schema as t


@dataclass(frozen=True)
class CacheEntry:
    url: str
    source_id: str
    etag: str | None
    last_modified: str | None
    snapshot_id: str
    status: int
    fetched_at: datetime
    expires_at: datetime

    def fresh(self, now: datetime) -> bool:
        return self.expires_at > now

    def validators(self) -> dict[str, str]:
        """Headers for a conditional request."""
        h = {}
        if self.etag:
            h["If-None-Match"] = self.etag
        if self.last_modified:
            h["If-Modified-Since"] = self.last_modified
        return h


def cache_key(url: str) -> str:
    return hashlib.sha256(url.encode("utf-8")).hexdigest()


def _aware(d: datetime) -> datetime:
    return d if d.tzinfo else d.replace(tzinfo=UTC)


_COLS = ("url", "source_id", "etag", "last_modified", "snapshot_id", "status", "fetched_at",
         "expires_at")


@cache
def _stmts() -> tuple[Any, Any, Any]:
    """Built once so SQLAlchemy's compiled cache is hit on every fetch."""
    c = t.http_cache.c
    return (
        select(t.http_cache).where(c.key == bindparam("k")),
        update(t.http_cache).where(c.key == bindparam("k"))
        .values({n: bindparam(f"v_{n}") for n in _COLS}),
        insert(t.http_cache),
    )


def lookup(conn: Connection, url: str) -> CacheEntry | None:
    row = conn.execute(_stmts()[0], {"k": cache_key(url)}).first()
    if row is None:
        return None
    m = row._mapping
    return CacheEntry(url=m["url"], source_id=m["source_id"], etag=m["etag"],
                      last_modified=m["last_modified"], snapshot_id=m["snapshot_id"],
                      status=m["status"], fetched_at=_aware(m["fetched_at"]),
                      expires_at=_aware(m["expires_at"]))


def remember(conn: Connection, url: str, source_id: str, snapshot_id: str, status: int,
             ttl_seconds: float, etag: str | None, last_modified: str | None,
             now: datetime | None = None) -> None:
    """Insert or refresh the cache row for `url` (the bytes are already a snapshot)."""
    now = now or utcnow()
    values: dict[str, Any] = dict(
        url=url, source_id=source_id, etag=etag, last_modified=last_modified,
        snapshot_id=snapshot_id, status=status, fetched_at=now,
        expires_at=now + timedelta(seconds=ttl_seconds),
    )
    key = cache_key(url)
    _, upd, ins = _stmts()
    done = conn.execute(upd, {"k": key, **{f"v_{n}": v for n, v in values.items()}})
    if done.rowcount == 0:
        conn.execute(ins, {"key": key, **values})


def load_circuit(conn: Connection, source_id: str) -> dict[str, Any] | None:
    row = conn.execute(
        select(t.source_state).where(t.source_state.c.source_id == source_id)
    ).mappings().first()
    return dict(row) if row else None


def save_circuit(conn: Connection, source_id: str, circuit: str, failures: int,
                 opened_at: float | None) -> None:
    values = dict(circuit=circuit, failures=failures, opened_at=opened_at, updated_at=utcnow())
    tbl = t.source_state
    done = conn.execute(update(tbl).where(tbl.c.source_id == source_id).values(**values))
    if done.rowcount == 0:
        conn.execute(insert(tbl).values(source_id=source_id, **values))
