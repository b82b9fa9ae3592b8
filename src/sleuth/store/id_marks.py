"""Where a resumable id stream stood at each commit (`model.ids.stream_mark`), kept in
`case_meta` in the same transaction as the rows that used its ids: a run resumed after a
`kill -9` draws on from there (never redrawing a committed id), and what it redoes gets the
ids the uninterrupted run gave it."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import Connection, select, update

from sleuth.model.ids import stream_mark
from sleuth.store import schema as t

PREFIX = "id_stream:"


def save_mark(conn: Connection) -> None:
    """Keep the active resumable stream's position (nothing outside one)."""
    mark = stream_mark()
    if mark is None:
        return
    key, where = mark
    row = {"key": PREFIX + key, "value": json.dumps(where)}
    c = t.case_meta.c
    if not conn.execute(update(t.case_meta).where(c.key == row["key"])
                        .values(value=row["value"])).rowcount:
        conn.execute(t.case_meta.insert().values(row))


def load_mark(conn: Connection, key: str) -> dict[str, Any] | None:
    """Where the stream `key` stood at its last commit (`model.ids.stream_mark`), or
    None."""
    value = conn.execute(select(t.case_meta.c.value).where(
        t.case_meta.c.key == PREFIX + key)).scalar_one_or_none()
    return None if value is None else dict(json.loads(value))
