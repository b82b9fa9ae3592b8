"""Small cases written straight into a store, for merge/split tests, or ingested."""

from __future__ import annotations

import hashlib
from pathlib import Path

from sleuth.model import (
    Assertion,
    AssertionStatus,
    CaseGraph,
    Citation,
    EvidenceType,
    GenDate,
    Locator,
    Person,
    Relationship,
    Snapshot,
)
from sleuth.store import Store


def snapshot(store: Store, text: str, ev: EvidenceType = EvidenceType.PRIMARY) -> Snapshot:
    snap = Snapshot(sha256=hashlib.sha256(text.encode()).hexdigest(), source_name="test",
                    path=f"/t/{hashlib.sha1(text.encode()).hexdigest()}.txt", text=text,
                    evidence_type=ev)
    with store.transaction() as tx:
        stored, _ = store.put_snapshot(tx, text.encode(), snap)  # same bytes: the stored one
    return stored


def add_person(store: Store, name: str, sex: str = "U") -> str:
    given, _, surname = name.rpartition(" ")
    p = Person(canonical_name=name, given_name=given, surname=surname, sex=sex)  # type: ignore[arg-type]
    with store.transaction() as tx:
        store.add_person(tx, p)
    return p.id


def add_fact(store: Store, pid: str, field: str, value: str, snap: Snapshot,
             date: GenDate | None = None, confidence: float = 0.9) -> str:
    start = snap.text.index(value)
    a = Assertion(entity_id=pid, field_name=field, value=value, date=date,
                  confidence=confidence, status=AssertionStatus.PROMOTED,
                  citations=[Citation(snapshot_id=snap.id, excerpt=value,
                                      locator=Locator(start=start, end=start + len(value)))])
    with store.transaction() as tx:
        store.add_assertion(tx, a, candidate_id=None)
    return a.id


def link(store: Store, p1: str, p2: str, kind: str = "parent") -> None:
    with store.transaction() as tx:
        store.add_relationship(tx, Relationship(person1_id=p1, person2_id=p2,
                                                relationship_type=kind))  # type: ignore[arg-type]


def ingested_graph(case: Path, *files: Path) -> CaseGraph:
    """A fresh case at `case` with `files` ingested, read back as its graph (store closed)."""
    from sleuth.pipeline import ingest_path
    from sleuth.store import case_graph

    store = Store.create_case(case)
    try:
        for f in files:
            ingest_path(store, f)
        return case_graph(store)
    finally:
        store.close()
