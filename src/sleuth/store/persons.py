"""Person rows read by id: names, sexes, name keys (the resolver's identity tests, its merge
checks and proposals, the Analyst's conflict wording). Writes go through `Store`."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any

from sqlalchemy import BindParameter, Connection, RowMapping, Select, bindparam, select

from sleuth.store import schema as t


@cache
def _rows_sql() -> Select[Any]:
    """Whole rows of some persons, built once (merge checks ask it for every pair a
    resolution pass weighs)."""
    ids: BindParameter[str] = bindparam("ids", expanding=True)  # a list of person ids
    return select(t.persons).where(t.persons.c.id.in_(ids))


def person_rows(conn: Connection, ids: Iterable[str]) -> dict[str, RowMapping]:
    """These persons' rows by id (those that exist)."""
    return {m["id"]: m for m in conn.execute(_rows_sql(), {"ids": list(ids)}).mappings()}


def names_of(conn: Connection, ids: Iterable[str] | None) -> dict[str, str]:
    """id -> canonical name of these persons (those that exist; None: every person)."""
    p = t.persons.c
    q = select(p.id, p.canonical_name)
    if ids is not None:
        q = q.where(p.id.in_(list(ids)))
    return dict(conn.execute(q).all())


def canonical_name(conn: Connection, person_id: str) -> str | None:
    """The person's canonical name; None when there is no such person (or no name)."""
    p = t.persons.c
    name: str | None = conn.execute(select(p.canonical_name).where(p.id == person_id)).scalar()
    return name


def sexes_of(conn: Connection, ids: Iterable[str]) -> dict[str, str]:
    """id -> stated sex ("M", "F", "U") of these persons."""
    p = t.persons.c
    return {str(i): str(x) for i, x in conn.execute(select(p.id, p.sex).where(
        p.id.in_(list(ids))))}


def name_keys(conn: Connection) -> list[tuple[str, str | None]]:
    """(id, name key) of every person (namesakes share a key)."""
    p = t.persons.c
    return [(str(i), k) for i, k in conn.execute(select(p.id, p.name_key))]


def sex_of(conn: Connection, person_id: str) -> str | None:
    """The person's stated sex, or None (no such person, or none stated)."""
    p = t.persons.c
    sex: str | None = conn.execute(select(p.sex).where(p.id == person_id)).scalar()
    return sex
