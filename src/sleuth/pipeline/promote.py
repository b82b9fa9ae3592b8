"""Promotion to core (seed 002 promote_extraction): persons, assertions, relationships.

Only the Decision Maker (or a person through `sleuth review`) calls this. Subjects are keys
local to one snapshot; the first promoted candidate of a subject links it to a person
(`pipeline.linking`: the same record line, a known parent, the one namesake whose life fits)
or creates one. (Fuzzy matching and reversible merges belong to entity resolution, which
revisits these links.)
"""

from __future__ import annotations

from sqlalchemy import Connection

from sleuth.model import (
    RELATIONSHIP_FIELDS,
    Assertion,
    AssertionStatus,
    Candidate,
    Citation,
    GenDate,
    InvariantViolation,
    Relationship,
    new_id,
    utcnow,
)
from sleuth.model.trusted import trusted
from sleuth.pipeline.linking import person_for
from sleuth.pipeline.subjects import SubjectMap
from sleuth.store import Store
from sleuth.store.staged import same_statement


def _same_statement(conn: Connection, person_id: str, cand: Candidate) -> str | None:
    """An assertion of this person that already says this, cited by the very same words in
    another copy from the same source (a WikiTree profile inside each relative's
    getRelatives answer; a register row in a search answer and in the whole register):
    one statement, so one assertion with one more citation, not a second assertion."""
    assert cand.citation is not None
    return same_statement(conn, person_id, cand.field, cand.value, cand.citation.excerpt,
                          cand.citation.snapshot_id)


def promote(
    store: Store,
    conn: Connection,
    cand: Candidate,
    *,
    agent: str,
    reason: str,
    subjects: SubjectMap | None = None,
) -> tuple[str, str]:
    """Turn an accepted candidate into a cited assertion; returns (assertion id, person id).

    Raises InvariantViolation (leaving the transaction usable) when a relationship would break
    the Z invariants; the caller sends such a candidate to review instead. `subjects` is the
    batch's SubjectMap for its snapshot (see `person_for`).
    """
    assert cand.citation is not None, "the firewall never passes a fact without a citation"
    snap_id = cand.citation.snapshot_id
    person_id = person_for(store, conn, snap_id, cand.subject, cand.subject_name, subjects)
    copy = cand.field not in RELATIONSHIP_FIELDS and (
        subjects is None or person_id in subjects.linked)
    if copy and (same := _same_statement(conn, person_id, cand)) is not None:
        store.add_citations(conn, same, [cand.citation], agent=agent,
                            reason="the same statement in another copy of the record")
        store.set_candidate(conn, cand.id, agent, status="promoted", person_id=person_id,
                            assertion_id=same)
        store.decide(conn, cand.id, "decision", "accept", reason, by=agent,
                     confidence=cand.confidence)
        return same, person_id
    related_id = None
    if cand.field in RELATIONSHIP_FIELDS and cand.related:
        related_id = person_for(store, conn, snap_id, cand.related, cand.related_name, subjects)
        if related_id == person_id:
            raise InvariantViolation(f"{cand.subject_name!r} cannot be their own {cand.field}")
    assertion = _assertion(person_id, cand)
    if related_id is None:  # nothing below can refuse it, so no savepoint round trips
        store.add_assertion(conn, assertion, candidate_id=cand.id, agent=agent)
    else:
        with store.savepoint(conn):  # a refused link takes its assertion with it
            store.add_assertion(
                conn, assertion, candidate_id=cand.id, related_id=related_id, agent=agent
            )
            _link(
                store, conn, cand.field, person_id, related_id, cand.confidence, assertion.id, agent
            )
    if cand.field == "sex" and cand.value in {"M", "F"}:
        current = (store.person_fields(conn, person_id) or ("", None))[1]
        if current == "U":
            store.set_person(conn, person_id, agent, sex=cand.value)
    store.set_candidate(
        conn, cand.id, agent, status="promoted", person_id=person_id, assertion_id=assertion.id
    )
    store.decide(conn, cand.id, "decision", "accept", reason, by=agent, confidence=cand.confidence)
    return assertion.id, person_id


def _assertion(person_id: str, cand: Candidate) -> Assertion:
    """The promoted assertion of `cand`. Values of the types the model holds (a candidate
    that passed the firewall: a float confidence within bounds, a string value) are what
    validation would keep as they are, so they are not validated again (`model.trusted`;
    a tenth of a large tree's promotion); anything else goes through the model. Its id is
    drawn first either way, as the model's own default would draw it."""
    conf, date, cit = cand.confidence, cand.date, cand.citation
    if (type(conf) is float and 0.0 <= conf <= 1.0 and type(cand.value) is str
            and type(cand.field) is str and type(person_id) is str
            and (date is None or type(date) is GenDate) and type(cit) is Citation):
        return trusted(Assertion, {
            "id": new_id(), "entity_id": person_id, "entity_type": "person",
            "field_name": cand.field, "value": cand.value, "date": date,
            "confidence": conf, "status": AssertionStatus.PROMOTED, "asserted_at": utcnow(),
            "citations": [cit], "related_id": None})
    # Pydantic checks here what the fast path above did not trust: a missing citation is
    # refused by the model's validation, not by the checker.
    return Assertion(entity_id=person_id, field_name=cand.field, value=cand.value,
                     date=date, confidence=conf, status=AssertionStatus.PROMOTED,
                     citations=[cit])  # type: ignore[list-item]


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
