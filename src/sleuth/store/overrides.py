"""Rows of `evidence_overrides`: a researcher's corrections of a citation's classes,
append-only and audited (`sleuth.gps.overrides` validates and folds them)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from sqlalchemy import Connection, select

from sleuth.model import NotFound, utcnow
from sleuth.store import schema as t
from sleuth.store.store import Store


def add_override(store: Store, citation_id: str, values: dict[str, Any], *, set_by: str,
                 reason: str, original_snapshot_id: str | None) -> int:
    """Append one override of an existing citation, with its audit entry; its row id."""
    with store.transaction() as conn:
        found = conn.execute(
            select(t.citations.c.id).where(t.citations.c.id == citation_id)
        ).scalar()
        if found is None:
            raise NotFound(f"citation {citation_id} does not exist")
        row = dict(citation_id=citation_id, original_snapshot_id=original_snapshot_id,
                   set_by=set_by, reason=reason, at=utcnow(), **values)
        new_id = conn.execute(t.evidence_overrides.insert().values(**row)).inserted_primary_key
        store.audit(conn, "evidence_classes_overridden", "citation", citation_id, None,
                    {k: v for k, v in row.items() if k != "at"}, set_by, reason)
    return int(new_id[0]) if new_id else 0


def override_rows(store: Store) -> Iterator[dict[str, Any]]:
    """Every override, oldest first, with its citation's natural key (assertion, snapshot,
    start, end): the read model's `Citation` carries no row id."""
    o, c = t.evidence_overrides, t.citations
    q = (select(o, c.c.assertion_id, c.c.snapshot_id, c.c.char_start, c.c.char_end)
         .join(c, c.c.id == o.c.citation_id).order_by(o.c.id))
    with store.engine.connect() as conn:
        yield from (dict(m) for m in conn.execute(q).mappings())


def citation_row_ids(store: Store, assertion_id: str) -> list[str]:
    """The row ids of an assertion's citations, in text order."""
    c = t.citations.c
    with store.engine.connect() as conn:
        return [r for (r,) in conn.execute(
            select(c.id).where(c.assertion_id == assertion_id).order_by(c.char_start))]


def override_classes(conn: Connection, citation_ids: Iterable[str]) -> list[tuple[Any, ...]]:
    """(citation id, source class, information class) of every override of these
    citations, oldest first (a later one overrides what an earlier one set)."""
    o = t.evidence_overrides.c
    return [tuple(r) for r in conn.execute(
        select(o.citation_id, o.source_class, o.information_class)
        .where(o.citation_id.in_(list(citation_ids))).order_by(o.id))]
