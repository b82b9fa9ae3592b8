"""Stored snapshots read whole, a chunk or a row at a time (the Analyst classifies each
cited one once; the privacy scan reads every text, cited or not). Snapshots are immutable;
they are stored through `Store.put_snapshot`."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from sqlalchemy import Connection, select

from sleuth.model import Snapshot
from sleuth.store import schema as t
from sleuth.store.rows import row_to_snapshot

CHUNK = 500  # ids a query asks for at once


def snapshots_in(conn: Connection, ids: Sequence[str]) -> Iterator[Snapshot]:
    """The stored snapshots of these ids (those that exist), read `CHUNK` ids a query and
    handed on one at a time, so a caller may keep only what it needs of each."""
    for i in range(0, len(ids), CHUNK):
        for row in conn.execute(select(t.snapshots).where(
                t.snapshots.c.id.in_(ids[i:i + CHUNK]))):
            yield row_to_snapshot(row)


def snapshot_texts(conn: Connection) -> Iterator[tuple[Any, Any]]:
    """(id, text) of every stored snapshot, by id, streamed."""
    s = t.snapshots.c
    yield from conn.execute(select(s.id, s.text).order_by(s.id))


def snapshot_meta(conn: Connection) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(id, origin, metadata) of every stored snapshot, by id, streamed: without the text
    (`sleuth check` reads the problems each file was stored with, issue 26)."""
    s = t.snapshots.c
    for sid, origin, meta in conn.execute(select(s.id, s.origin, s.meta).order_by(s.id)):
        yield sid, origin, meta if isinstance(meta, dict) else {}
