"""Rows of `conflicts`, the Analyst's stored analysis of each disputed field: read to
compare and to remember before a merge, and put back as they were when it is split.
New analyses go through `Store.upsert_conflict` (audited)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, delete, insert, select

from sleuth.store import schema as t
from sleuth.store.store import Store


def stored_analysis(conn: Connection, person_id: str, field: str) -> Any:
    """The analysis stored for one person's field (its JSON), or None."""
    cf = t.conflicts.c
    return conn.execute(select(cf.analysis).where(
        cf.person_id == person_id, cf.field == field)).scalar()


def conflict_rows(conn: Connection, person_ids: Iterable[str]) -> list[dict[str, Any]]:
    """The whole conflict rows of these persons."""
    cf = t.conflicts
    return [dict(m) for m in conn.execute(
        select(cf).where(cf.c.person_id.in_(list(person_ids)))).mappings()]


def restore_conflicts(store: Store, conn: Connection, person_ids: Sequence[str],
                      old: list[dict[str, Any]], *, agent: str, reason: str) -> None:
    """Put these persons' conflict rows back as `old` (from `conflict_rows`, through JSON):
    a row that differs is deleted and the old one, if any, inserted again; each change is
    audited as `conflict_restored`."""
    cf = t.conflicts
    keep = {(str(r["person_id"]), str(r["field"])): r for r in old}
    now = {(m["person_id"], m["field"]): m for m in conflict_rows(conn, person_ids)}
    for key, cur in now.items():
        prev = keep.get(key)
        if prev is not None and _same_row(cur, prev):
            continue
        conn.execute(delete(cf).where(cf.c.id == cur["id"]))
        if prev is not None:
            conn.execute(insert(cf).values(**_row_values(prev)))
        store.audit(conn, "conflict_restored", "person", key[0], {"field": key[1]},
                    {"restored": prev is not None}, agent, reason)


def _row_values(r: dict[str, Any]) -> dict[str, Any]:
    """A row read back from JSON, its timestamp a datetime again."""
    out = dict(r)
    if isinstance(out.get("updated_at"), str):
        out["updated_at"] = datetime.fromisoformat(out["updated_at"])
    return out


def _same_row(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return json.dumps(a, default=str, sort_keys=True) == json.dumps(
        _row_values(b), default=str, sort_keys=True)
