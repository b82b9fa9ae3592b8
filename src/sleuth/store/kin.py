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


def spouse_names(conn: Connection, person_id: str) -> list[str]:
    """The names of the case's spouses of this person (either side of the link)."""
    return [*conn.execute(_spouse_sql(True), {"p": person_id}).scalars(),
            *conn.execute(_spouse_sql(False), {"p": person_id}).scalars()]


@cache
def _spouse_sql(first: bool) -> Select[Any]:
    """The spouses' names on the other side of links where the person is `first` (person1)
    or second; built once, as promotion asks it for every namesake it weighs."""
    r, p = t.relationships.c, t.persons.c
    me, other = (r.person1_id, r.person2_id) if first else (r.person2_id, r.person1_id)
    return select(p.canonical_name).join(t.relationships, other == p.id).where(
        me == bindparam("p"), r.relationship_type == "spouse")


def parent_names(conn: Connection, ids: list[str], *, sex: str | None = None) -> list[str]:
    """The names of the case's parents of these persons (one person's merge group); only
    those of one `sex` when given."""
    r, p = t.relationships.c, t.persons.c
    q = select(p.canonical_name).join(t.relationships, r.person1_id == p.id).where(
        r.person2_id.in_(ids), r.relationship_type == "parent")
    if sex is not None:
        q = q.where(p.sex == sex)
    return list(conn.execute(q).scalars())


def coparent_ids(conn: Connection, person_id: str) -> list[Any]:
    """The other parent of each of this person's children (one row each child)."""
    other = t.relationships.alias("other")
    r, r2 = t.relationships.c, other.c
    return list(conn.execute(select(r2.person1_id).join_from(
        t.relationships, other, r2.person2_id == r.person2_id).where(
        r.person1_id == person_id, r.relationship_type == "parent",
        r2.relationship_type == "parent", r2.person1_id != person_id)).scalars())


def parents_named(conn: Connection, ids: list[str]) -> list[tuple[Any, Any]]:
    """(name, sex) of the case's parents of these persons (one person's merge group)."""
    r, p = t.relationships.c, t.persons.c
    return [(n, s) for n, s in conn.execute(select(p.canonical_name, p.sex).join(
        t.relationships, r.person1_id == p.id).where(
        r.person2_id.in_(ids), r.relationship_type == "parent"))]
