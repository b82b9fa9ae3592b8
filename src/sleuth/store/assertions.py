"""Assertion rows read for the resolver and the Analyst: statuses, the values of some
fields, and the cited claims conflict resolution weighs. Status changes go through
`Store.set_assertion_status` (audited); these are reads only."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, and_, func, or_, select

from sleuth.store import schema as t


def statuses_of_persons(conn: Connection, person_ids: Iterable[str]) -> dict[Any, Any]:
    """assertion id -> status of every assertion about these persons (a merge's before)."""
    a = t.assertions.c
    return dict(conn.execute(select(a.id, a.status).where(
        a.entity_id.in_(list(person_ids)))).all())


def live_statuses(conn: Connection, person_ids: Iterable[str]) -> dict[str, str]:
    """assertion id -> status of these persons' assertions not rejected, in one query (a
    row at a time cost more than the query, issue 19)."""
    a = t.assertions.c
    return {str(i): str(s) for i, s in conn.execute(select(a.id, a.status).where(
        a.entity_id.in_(list(person_ids)), a.status != "rejected")).all()}


def assertion_statuses(conn: Connection, assertion_ids: Iterable[str]) -> dict[str, str]:
    """assertion id -> status, as they stand now."""
    a = t.assertions.c
    return {str(i): str(s) for i, s in conn.execute(select(a.id, a.status).where(
        a.id.in_(list(assertion_ids))))}


def field_values(conn: Connection, fields: Iterable[str], ids: Iterable[str] | None = None,
                 *, persons_only: bool = False) -> list[tuple[Any, Any, Any]]:
    """(entity, field, value) of every assertion not rejected of these fields, about these
    entities (None: any), persons only if asked; in no particular order."""
    a = t.assertions.c
    q = select(a.entity_id, a.field_name, a.value).where(
        a.field_name.in_(sorted(fields)), a.status != "rejected")
    if persons_only:
        q = q.where(a.entity_type == "person")
    if ids is not None:
        q = q.where(a.entity_id.in_(list(ids)))
    return [(e, f, v) for e, f, v in conn.execute(q)]


def dated_entities(conn: Connection, ids: Iterable[str], fields: Iterable[str]) -> list[Any]:
    """The entities among these with an assertion not rejected of one of these fields."""
    a = t.assertions.c
    return list(conn.execute(select(a.entity_id).where(
        a.entity_id.in_(list(ids)), a.status != "rejected",
        a.field_name.in_(list(fields))).distinct()).scalars())


def claims_asserted(conn: Connection, ids: Iterable[str],
                    fields: Iterable[str]) -> list[tuple[Any, ...]]:
    """(id, entity, field, value, asserted_at) of these entities' assertions not rejected of
    these fields (a merge's members, for what arrived after it)."""
    a = t.assertions.c
    return [tuple(r) for r in conn.execute(
        select(a.id, a.entity_id, a.field_name, a.value, a.asserted_at)
        .where(a.entity_id.in_(list(ids)), a.status != "rejected",
               a.field_name.in_(list(fields))))]


def newest_asserted(conn: Connection, assertion_ids: Iterable[str]) -> datetime | None:
    """When the newest of these assertions was made (None: none of them exist)."""
    a = t.assertions.c
    when: datetime | None = conn.execute(select(func.max(a.asserted_at)).where(
        a.id.in_(list(assertion_ids)))).scalar()
    return when


def cited_claims(conn: Connection, ids: Sequence[str],
                 fields: Sequence[str]) -> list[Any]:
    """Each citation of these persons' assertions not rejected of these fields, by
    assertion and citation id: (assertion id, person, field, value, date, confidence,
    citation id, snapshot, excerpt, start, end, its candidate's evidence type), as rows
    (tuples by position: a case's claims are many, and a copy each costs)."""
    a, c, cand = t.assertions, t.citations, t.candidates
    return list(conn.execute(
        select(a.c.id, a.c.entity_id, a.c.field_name, a.c.value, a.c.date, a.c.confidence,
               c.c.id, c.c.snapshot_id, c.c.excerpt, c.c.char_start, c.c.char_end,
               cand.c.evidence_type)
        .join(c, c.c.assertion_id == a.c.id)
        .outerjoin(cand, cand.c.id == a.c.candidate_id)
        .where(a.c.entity_id.in_(list(ids)), a.c.field_name.in_(list(fields)),
               a.c.status != "rejected")
        .order_by(a.c.id, c.c.id)
    ).all())


def place_values(conn: Connection, ids: list[str]) -> set[str]:
    """Every place the case gives these persons (event places and residences), rejected
    claims aside."""
    a = t.assertions.c
    return {str(v) for v in conn.execute(select(a.value).where(
        a.entity_id.in_(ids), a.status != "rejected",
        or_(a.field_name.like("%_place"), a.field_name == "residence"))).scalars()}


def live_values(conn: Connection, ids: list[str],
                fields: tuple[str, ...]) -> list[tuple[str, str]]:
    """(field, value) of these persons' claims of these fields, rejected ones aside."""
    a = t.assertions.c
    return [(str(f), str(v)) for f, v in conn.execute(select(a.field_name, a.value).where(
        a.entity_id.in_(ids), a.status != "rejected", a.field_name.in_(fields)))]


def values_of(conn: Connection, ids: list[str], field: str) -> list[str]:
    """Every value these persons' assertions of one field hold, whatever their status."""
    a = t.assertions.c
    return [str(v) for v in conn.execute(select(a.value).where(
        a.entity_id.in_(ids), a.field_name == field)).scalars()]


def name_and_place_values(conn: Connection, *, not_media: Iterable[str],
                          not_paths: Iterable[str]) -> list[str]:
    """The distinct values of name and place claims cited by a snapshot whose media type
    is none of `not_media` and whose URL holds none of `not_paths` (case-blind): the words
    an OCR page's misread words are read against come from sources that are not OCR."""
    a, c, s = t.assertions.c, t.citations.c, t.snapshots.c
    return [str(v) for v in conn.execute(select(a.value).distinct().join(
        t.citations, c.assertion_id == a.id).join(t.snapshots, s.id == c.snapshot_id).where(
        or_(a.field_name.in_(("name", "given_name", "surname", "birth_surname")),
            a.field_name.like("%_place")),
        s.media_type.not_in(list(not_media)),
        or_(s.url.is_(None), and_(*(func.lower(s.url).not_like(f"%{p}%")
                                    for p in not_paths))))).scalars()]
