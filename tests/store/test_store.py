"""The store's guarantees, on SQLite and PostgreSQL alike: immutability, atomicity, guards."""

from __future__ import annotations

import hashlib

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from sleuth.model import (
    Assertion,
    Citation,
    Hypothesis,
    ImmutableError,
    InvariantViolation,
    Locator,
    LogEntry,
    Person,
    Relationship,
    Snapshot,
)
from sleuth.store import Store, counts, person_page

RAW = b"Samuel Hollis was born March 3, 1838."


def snapshot(raw: bytes = RAW, path: str = "/x/obit.txt") -> Snapshot:
    return Snapshot(
        sha256=hashlib.sha256(raw).hexdigest(), path=path, source_name="test", text=raw.decode()
    )


def put(store: Store, raw: bytes = RAW, path: str = "/x/obit.txt") -> Snapshot:
    with store.transaction() as tx:
        snap, _ = store.put_snapshot(tx, raw, snapshot(raw, path))
    return snap


def add_person(store: Store, name: str) -> str:
    p = Person(canonical_name=name)
    with store.transaction() as tx:
        store.add_person(tx, p)
    return p.id


def test_snapshot_bytes_round_trip_and_dedupe(store: Store) -> None:
    snap = put(store)
    assert store.blob(snap.sha256) == RAW
    assert store.snapshot(snap.id).text == RAW.decode()
    with store.transaction() as tx:
        again, created = store.put_snapshot(tx, RAW, snapshot())
    assert not created and again.id == snap.id
    other = put(store, path="/y/copy.txt")  # same bytes, other origin: new snapshot, one blob
    assert other.id != snap.id
    with store.engine.connect() as c:
        assert c.execute(text("SELECT count(*) FROM blobs")).scalar() == 1


def test_snapshot_hash_must_match_bytes(store: Store) -> None:
    with pytest.raises(ValueError, match="does not match"), store.transaction() as tx:
        store.put_snapshot(tx, b"other bytes", snapshot())


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE blobs SET data = :b",
        "DELETE FROM blobs",
        "UPDATE snapshots SET text = 'changed'",
        "DELETE FROM snapshots",
        "UPDATE audit_log SET reason = 'rewritten'",
        "DELETE FROM audit_log",
    ],
)
def test_raw_layer_and_audit_log_cannot_change(store: Store, sql: str) -> None:
    snap = put(store)
    with pytest.raises(ImmutableError, match="immutable"), store.transaction() as tx:
        tx.execute(text(sql), {"b": b"tampered"} if ":b" in sql else {})
    assert store.blob(snap.sha256) == RAW
    assert store.snapshot(snap.id).text == RAW.decode()
    assert counts(store)["audit"] >= 1


def _assertion(store: Store, snap: Snapshot, pid: str) -> Assertion:
    excerpt = "born March 3, 1838"
    start = snap.text.find(excerpt)
    a = Assertion(
        entity_id=pid,
        field_name="birth_date",
        value="1838-03-03",
        confidence=0.9,
        citations=[
            Citation(
                snapshot_id=snap.id,
                excerpt=excerpt,
                locator=Locator(start=start, end=start + len(excerpt)),
            )
        ],
    )
    with store.transaction() as tx:
        store.add_assertion(tx, a, candidate_id=None)
    return a


def test_assertion_values_are_frozen_but_status_may_change(store: Store) -> None:
    snap = put(store)
    pid = add_person(store, "Samuel Hollis")
    a = _assertion(store, snap, pid)
    with pytest.raises(ImmutableError), store.transaction() as tx:
        tx.execute(text("UPDATE assertions SET value = '1839' WHERE id = :i"), {"i": a.id})
    with pytest.raises(ImmutableError), store.transaction() as tx:
        tx.execute(text("DELETE FROM assertions WHERE id = :i"), {"i": a.id})
    with pytest.raises(ImmutableError), store.transaction() as tx:
        tx.execute(text("UPDATE citations SET excerpt = 'x'"))
    from sleuth.model import AssertionStatus

    with store.transaction() as tx:
        store.set_assertion_status(
            tx, a.id, AssertionStatus.CONFLICTING, agent="Analyst", reason="test"
        )
    _, claims, _ = person_page(store, pid)
    assert [(c.value, str(c.status)) for c in claims] == [("1838-03-03", "conflicting")]
    assert claims[0].citations[0].excerpt == "born March 3, 1838"


def test_assertion_without_citation_is_refused(store: Store) -> None:
    pid = add_person(store, "A B")
    with pytest.raises(InvariantViolation, match="no citation"), store.transaction() as tx:
        store.add_assertion(
            tx,
            Assertion(entity_id=pid, field_name="name", value="A B", confidence=0.9),
            candidate_id=None,
        )


def test_third_parent_refused_in_code_and_in_the_database(store: Store) -> None:
    child, p1, p2, p3 = (add_person(store, n) for n in ("C", "P1", "P2", "P3"))
    with store.transaction() as tx:
        for p in (p1, p2):
            store.add_relationship(
                tx, Relationship(person1_id=p, person2_id=child, relationship_type="parent")
            )
    with pytest.raises(InvariantViolation, match="third"), store.transaction() as tx:
        store.add_relationship(
            tx, Relationship(person1_id=p3, person2_id=child, relationship_type="parent")
        )
    # A writer that bypasses the Store hits the trigger.
    with pytest.raises(InvariantViolation, match="two parents"), store.transaction() as tx:
        tx.execute(
            text(
                "INSERT INTO relationships (id, person1_id, person2_id, relationship_type,"
                " confidence, created_at) VALUES ('r3', :p, :c, 'parent', 0.5, CURRENT_TIMESTAMP)"
            ),
            {"p": p3, "c": child},
        )
    with store.engine.connect() as c:
        n = c.execute(
            text("SELECT count(*) FROM relationships WHERE person2_id = :c"), {"c": child}
        ).scalar()
    assert n == 2


def test_self_and_mutual_parenthood_refused(store: Store) -> None:
    a, b = add_person(store, "A"), add_person(store, "B")
    with pytest.raises(IntegrityError), store.transaction() as tx:
        tx.execute(
            text(
                "INSERT INTO relationships (id, person1_id, person2_id, relationship_type,"
                " confidence, created_at) VALUES ('r1', :a, :a, 'parent', 0.5, CURRENT_TIMESTAMP)"
            ),
            {"a": a},
        )
    with store.transaction() as tx:
        store.add_relationship(
            tx, Relationship(person1_id=a, person2_id=b, relationship_type="parent")
        )
    with pytest.raises(InvariantViolation, match="each be the other"), store.transaction() as tx:
        store.add_relationship(
            tx, Relationship(person1_id=b, person2_id=a, relationship_type="parent")
        )


def test_database_refuses_fact_hypotheses_and_reasonless_revisits(store: Store) -> None:
    with store.transaction() as tx:
        store.add_hypothesis(tx, Hypothesis(hypothesis_type="t", statement="s", priority=0.5))
    with pytest.raises(IntegrityError), store.transaction() as tx:
        tx.execute(text("UPDATE hypotheses SET is_fact = true"))
    with pytest.raises(IntegrityError), store.transaction() as tx:
        tx.execute(text("UPDATE hypotheses SET generated_by = 'Scout'"))
    with pytest.raises(IntegrityError), store.transaction() as tx:
        tx.execute(
            text(
                "INSERT INTO research_log (id, seq, timestamp, agent, action_type, rationale,"
                " context) VALUES ('l1', 1, CURRENT_TIMESTAMP, 'Scout', 'revisit', '', '{}')"
            )
        )
    with store.transaction() as tx:
        store.log(
            tx,
            LogEntry(
                agent="Scout",
                action_type="revisit",
                revisit_reason="Time-based record update check",
            ),
        )


def test_tier0_is_always_permitted(store: Store) -> None:
    with pytest.raises(IntegrityError), store.transaction() as tx:
        tx.execute(text("UPDATE source_permissions SET allowed = false WHERE tier = 0"))
    with store.engine.connect() as c:
        assert c.execute(text("SELECT allowed FROM source_permissions WHERE tier = 0")).scalar()


def test_a_failed_batch_leaves_nothing_behind(store: Store) -> None:
    before = counts(store)
    with pytest.raises(RuntimeError), store.transaction() as tx:
        store.put_snapshot(tx, RAW, snapshot())
        store.add_person(tx, Person(canonical_name="Half Written"))
        raise RuntimeError("crash mid-batch")
    assert counts(store) == before


def test_every_change_is_audited(store: Store) -> None:
    snap = put(store)
    pid = add_person(store, "Samuel Hollis")
    _assertion(store, snap, pid)
    with store.engine.connect() as c:
        actions = [r[0] for r in c.execute(text("SELECT action_type FROM audit_log ORDER BY id"))]
    assert actions == ["snapshot_stored", "person_created", "assertion_added"]
