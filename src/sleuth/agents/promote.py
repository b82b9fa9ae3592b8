"""Promotion to core (seed 002 promote_extraction): persons, assertions, relationships.

Only the Decision Maker (or a person through `sleuth review`) calls this. Subjects are keys
local to one snapshot; the first promoted candidate of a subject links it to a person with
exactly the same full name, or creates one. (Fuzzy matching and reversible merges belong to
entity resolution, which revisits these links.)
"""

from __future__ import annotations

from sqlalchemy import Connection, select

from sleuth.model import (
    RELATIONSHIP_FIELDS,
    Assertion,
    AssertionStatus,
    Candidate,
    InvariantViolation,
    Person,
    Relationship,
)
from sleuth.store import Store
from sleuth.store import schema as t


def person_for(
    store: Store, conn: Connection, snapshot_id: str, subject: str, name: str | None
) -> str:
    """The person a document-local subject stands for, creating it when first promoted."""
    c = t.candidates.c
    known = conn.execute(
        select(c.person_id)
        .where(c.snapshot_id == snapshot_id, c.subject == subject, c.person_id.is_not(None))
        .limit(1)
    ).scalar()
    if known:
        return str(known)
    # A relationship candidate may already have created this subject as its relative.
    related = conn.execute(
        select(t.assertions.c.related_id)
        .join(t.candidates, t.candidates.c.id == t.assertions.c.candidate_id)
        .where(
            c.snapshot_id == snapshot_id,
            c.related == subject,
            t.assertions.c.related_id.is_not(None),
        )
        .limit(1)
    ).scalar()
    if related:
        return str(related)
    name = (name or "").strip()
    if len(name.split()) >= 2:
        same = store.persons_named(conn, name)
        if len(same) == 1 and not _other_subject_here(conn, snapshot_id, subject, same[0]):
            return same[0]
    parts = name.split()
    person = Person(
        canonical_name=name or f"Unnamed ({subject})",
        given_name=" ".join(parts[:-1]) if len(parts) > 1 else name,
        surname=parts[-1] if len(parts) > 1 else "",
    )
    store.add_person(conn, person)
    return person.id


def _other_subject_here(conn: Connection, snapshot_id: str, subject: str, person_id: str) -> bool:
    """True when this snapshot already gave `person_id` to a different subject.

    One document's distinct subjects are distinct people (two John Kennedys in one tree), so
    exact-name linking only ever joins people across documents.
    """
    c = t.candidates.c
    return conn.execute(
        select(c.id)
        .where(c.snapshot_id == snapshot_id, c.person_id == person_id, c.subject != subject)
        .limit(1)
    ).first() is not None


def promote(
    store: Store, conn: Connection, cand: Candidate, *, agent: str, reason: str
) -> tuple[str, str]:
    """Turn an accepted candidate into a cited assertion; returns (assertion id, person id).

    Raises InvariantViolation (leaving the transaction usable) when a relationship would break
    the Z invariants; the caller sends such a candidate to review instead.
    """
    assert cand.citation is not None, "the firewall never passes a fact without a citation"
    snap_id = cand.citation.snapshot_id
    person_id = person_for(store, conn, snap_id, cand.subject, cand.subject_name)
    related_id = None
    if cand.field in RELATIONSHIP_FIELDS and cand.related:
        related_id = person_for(store, conn, snap_id, cand.related, cand.related_name)
        if related_id == person_id:
            raise InvariantViolation(f"{cand.subject_name!r} cannot be their own {cand.field}")
    assertion = Assertion(
        entity_id=person_id,
        field_name=cand.field,
        value=cand.value,
        date=cand.date,
        confidence=cand.confidence,
        status=AssertionStatus.PROMOTED,
        citations=[cand.citation],
    )
    with conn.begin_nested():
        store.add_assertion(
            conn, assertion, candidate_id=cand.id, related_id=related_id, agent=agent
        )
        if related_id is not None:
            _link(
                store, conn, cand.field, person_id, related_id, cand.confidence, assertion.id, agent
            )
        if cand.field == "sex" and cand.value in {"M", "F"}:
            current = conn.execute(
                select(t.persons.c.sex).where(t.persons.c.id == person_id)
            ).scalar()
            if current == "U":
                store.set_person(conn, person_id, agent, sex=cand.value)
    store.set_candidate(
        conn, cand.id, agent, status="promoted", person_id=person_id, assertion_id=assertion.id
    )
    store.decide(conn, cand.id, "decision", "accept", reason, by=agent, confidence=cand.confidence)
    return assertion.id, person_id


def _link(
    store: Store,
    conn: Connection,
    field: str,
    subject_id: str,
    related_id: str,
    confidence: float,
    assertion_id: str,
    agent: str,
) -> None:
    if field == "parent":
        rel = Relationship(
            person1_id=related_id,
            person2_id=subject_id,
            relationship_type="parent",
            confidence=confidence,
        )
    elif field == "child":
        rel = Relationship(
            person1_id=subject_id,
            person2_id=related_id,
            relationship_type="parent",
            confidence=confidence,
        )
    elif field == "spouse":
        a, b = sorted((subject_id, related_id))
        rel = Relationship(
            person1_id=a, person2_id=b, relationship_type="spouse", confidence=confidence
        )
    else:  # siblings are implied by shared parents; the cited assertion is kept
        return
    store.add_relationship(conn, rel, assertion_id=assertion_id, agent=agent)
