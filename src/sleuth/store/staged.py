"""What promotion asks of the rows staged so far (issue 21: the store is the one door to the
database): which person a snapshot's subject already stands for, what a snapshot's earlier
candidates named, and whether a person already says the same thing from another copy of
the same source. Reads only; staging and promoting are `Store` methods."""

from __future__ import annotations

from functools import cache
from typing import Any

from sqlalchemy import Connection, Select, bindparam, select

from sleuth.store import schema as t


def subject_person(conn: Connection, snapshot_id: str, subject: str) -> str | None:
    """The person one of this snapshot's candidates for `subject` was linked to."""
    c = t.candidates.c
    known = conn.execute(select(c.person_id).where(
        c.snapshot_id == snapshot_id, c.subject == subject, c.person_id.is_not(None)
    ).limit(1)).scalar()
    return str(known) if known else None


def related_person(conn: Connection, snapshot_id: str, subject: str) -> str | None:
    """The person a relationship candidate of this snapshot created for `subject` as its
    relative."""
    c, a = t.candidates.c, t.assertions.c
    related = conn.execute(select(a.related_id).join(
        t.candidates, c.id == a.candidate_id).where(
        c.snapshot_id == snapshot_id, c.related == subject, a.related_id.is_not(None)
    ).limit(1)).scalar()
    return str(related) if related else None


def given_to_another_subject(conn: Connection, snapshot_id: str, subject: str,
                             person_id: str) -> bool:
    """This snapshot already gave `person_id` to a subject other than `subject`."""
    c = t.candidates.c
    return conn.execute(select(c.id).where(
        c.snapshot_id == snapshot_id, c.person_id == person_id, c.subject != subject
    ).limit(1)).first() is not None


def subjects_placed(conn: Connection, snapshot_id: str) -> list[tuple[Any, Any]]:
    """(subject, person) of each link this snapshot's candidates made: relatives created by
    relationship candidates first, then the subjects' own candidates."""
    c, a = t.candidates.c, t.assertions.c
    related = conn.execute(select(c.related, a.related_id).join(
        t.assertions, c.id == a.candidate_id).where(
        c.snapshot_id == snapshot_id, c.related.is_not(None), a.related_id.is_not(None)
    )).all()
    known = conn.execute(select(c.subject, c.person_id).where(
        c.snapshot_id == snapshot_id, c.person_id.is_not(None))).all()
    return [*(tuple(r) for r in related), *(tuple(r) for r in known)]


def name_lines(conn: Connection, snapshot_id: str) -> list[tuple[Any, Any, Any]]:
    """(subject, name, excerpt) of this snapshot's name candidates staged so far."""
    c = t.candidates.c
    return [tuple(r) for r in conn.execute(select(c.subject, c.value, c.excerpt).where(
        c.snapshot_id == snapshot_id, c.field == "name"))]


def names_elsewhere(conn: Connection, snapshot_id: str) -> bool:
    """Any other snapshot has staged a name (else no one here can be anyone known)."""
    c = t.candidates.c
    return conn.execute(select(c.id).where(
        c.field == "name", c.snapshot_id != snapshot_id).limit(1)).first() is not None


def same_statement(conn: Connection, person_id: str, field: str, value: str, excerpt: str,
                   snapshot_id: str) -> str | None:
    """An assertion of this person that already says this, cited by the very same words in
    another snapshot of the same source."""
    found = conn.execute(_same_statement_sql(), {
        "person": person_id, "field": field, "value": value, "excerpt": excerpt,
        "snapshot": snapshot_id}).scalar()
    return str(found) if found else None


@cache
def _same_statement_sql() -> Select[Any]:
    """Built once: promotion asks it for nearly every claim of a known person, and building
    a statement of three joins costs ten times what SQLite takes to answer it."""
    a, c, s = t.assertions.c, t.citations.c, t.snapshots.c
    source = select(s.source_name).where(s.id == bindparam("snapshot")).scalar_subquery()
    return (select(a.id).join(t.citations, c.assertion_id == a.id)
            .join(t.snapshots, s.id == c.snapshot_id)
            .where(a.entity_id == bindparam("person"), a.field_name == bindparam("field"),
                   a.value == bindparam("value"), a.status != "rejected",
                   c.excerpt == bindparam("excerpt"), c.snapshot_id != bindparam("snapshot"),
                   s.source_name == source)
            .limit(1))
