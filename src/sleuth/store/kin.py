"""Relationship rows read for the resolver: the generations its merge checks walk, spouses
and parents among the persons weighed, and the families its identity tests compare.
Merges are not folded here; callers read them through `store.queries.merged_into`."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any

from sqlalchemy import BindParameter, Connection, Select, bindparam, select

from sleuth.store import schema as t


@cache
def _step_sql(up: bool) -> Select[Any]:
    """One generation up (parents) or down (children) of some persons; built once, as
    every merge check walks the lines."""
    r = t.relationships.c
    near, far = (r.person2_id, r.person1_id) if up else (r.person1_id, r.person2_id)
    return select(far).where(near.in_(bindparam("ids", expanding=True)),
                             r.relationship_type == "parent")


@cache
def _among_sql() -> dict[str, Select[Any]]:
    """Spouses among some persons and their parents, built once (asked for every pair a
    resolution pass weighs)."""
    r = t.relationships.c
    ids: BindParameter[str] = bindparam("ids", expanding=True)  # a list of person ids
    return {
        "spouses": select(r.person1_id, r.person2_id).where(
            r.relationship_type == "spouse", r.person1_id.in_(ids), r.person2_id.in_(ids)),
        "parents": select(r.person1_id).where(r.person2_id.in_(ids),
                                              r.relationship_type == "parent"),
    }


def next_generation(conn: Connection, ids: Iterable[str], *, up: bool) -> list[Any]:
    """The parents (`up`) or children of these persons, one row each link."""
    return list(conn.execute(_step_sql(up), {"ids": list(ids)}).scalars())


def spouses_among(conn: Connection, ids: Iterable[str]) -> list[tuple[Any, Any]]:
    """(person1, person2) of each spouse link between two of these persons."""
    return [(a, b) for a, b in conn.execute(_among_sql()["spouses"], {"ids": list(ids)})]


def parents_of(conn: Connection, ids: Iterable[str]) -> list[Any]:
    """The recorded parents of these persons, one row each link."""
    return list(conn.execute(_among_sql()["parents"], {"ids": list(ids)}).scalars())


def links_of(conn: Connection, ids: Iterable[str]) -> list[tuple[Any, Any, Any]]:
    """(person1, person2, type) of every relationship touching one of these persons."""
    r = t.relationships.c
    ids = list(ids)
    return [(a, b, k) for a, b, k in conn.execute(
        select(r.person1_id, r.person2_id, r.relationship_type)
        .where(r.person1_id.in_(ids) | r.person2_id.in_(ids)))]


def all_links(conn: Connection) -> list[tuple[Any, Any, Any]]:
    """(person1, person2, type) of every relationship of the case."""
    r = t.relationships.c
    return [(a, b, k) for a, b, k in conn.execute(
        select(r.person1_id, r.person2_id, r.relationship_type))]


def parent_links(conn: Connection) -> list[tuple[Any, Any]]:
    """(parent, child) of every parent link of the case."""
    r = t.relationships.c
    return [(a, b) for a, b in conn.execute(select(r.person1_id, r.person2_id).where(
        r.relationship_type == "parent"))]
