"""A merge revises itself: evidence arriving after it that rules it out becomes an unmerge
proposal with a diff on the review queue; accepting splits, rejecting keeps the merge and
the same evidence does not propose it again."""

from __future__ import annotations

import time

from sqlalchemy import select

from case_builder import add_fact, add_person, snapshot
from sleuth.model import EvidenceType, GenDate
from sleuth.pipeline.review import accept, reject
from sleuth.resolve import merge
from sleuth.resolve.revise import NOT_SAME, propose_unmerges
from sleuth.store import Store, case_graph
from sleuth.store import schema as t


def _queue(store: Store) -> list[tuple[int, str]]:
    q, c = t.review_queue.c, t.candidates.c
    with store.engine.connect() as conn:
        return [(int(i), str(r)) for i, r in conn.execute(
            select(q.id, q.reason).join(t.candidates, c.id == q.candidate_id).where(
                c.field == NOT_SAME, q.status == "open"))]


def _merged_pair(store: Store) -> tuple[str, str, str]:
    a = add_person(store, "John Smith", "M")
    b = add_person(store, "John Smith", "M")
    snap = snapshot(store, "John Smith born 1850 in Leeds.")
    add_fact(store, a, "birth_date", "1850", snap, GenDate.from_parts(1850))
    mc = merge(store, [a, b], "same name and place")
    return a, b, mc.id


def test_new_contradicting_evidence_proposes_an_unmerge_and_accept_splits(
        store: Store) -> None:
    a, b, _cluster = _merged_pair(store)
    assert propose_unmerges(store) == []  # nothing new since the merge
    time.sleep(0.01)
    later = snapshot(store, "John Smith, born 1881, was baptised.", EvidenceType.PRIMARY)
    add_fact(store, b, "birth_date", "1881", later, GenDate.from_parts(1881))
    [cand] = propose_unmerges(store)
    [(rid, reason)] = _queue(store)
    assert "1881 vs 1850" in reason
    with store.engine.connect() as conn:
        text = conn.execute(select(t.snapshots.c.text).join(
            t.candidates, t.candidates.c.snapshot_id == t.snapshots.c.id).where(
            t.candidates.c.id == cand)).scalar_one()
    assert "birth_date" in text and "1881" in text and "1850" in text  # the diff
    assert propose_unmerges(store) == []  # one open proposal per cluster
    restored = accept(store, rid, reason="two men: a father and his son")
    assert set(restored.split(",")) == {a, b}
    assert {p.id for p in case_graph(store).persons} == {a, b}


def test_a_rejected_unmerge_is_not_proposed_again_without_newer_evidence(
        store: Store) -> None:
    _a, b, _cluster = _merged_pair(store)
    time.sleep(0.01)
    later = snapshot(store, "John Smith, born 1881, was baptised.", EvidenceType.PRIMARY)
    add_fact(store, b, "birth_date", "1881", later, GenDate.from_parts(1881))
    propose_unmerges(store)
    [(rid, _)] = _queue(store)
    reject(store, rid, reason="the 1881 entry is a transcription error")
    assert propose_unmerges(store) == []
    assert len(case_graph(store).persons) == 1  # the merge stands
    time.sleep(0.01)
    newer = snapshot(store, "John Smith, born 1881, died 1960.", EvidenceType.SECONDARY)
    add_fact(store, b, "birth_date", "1881", newer, GenDate.from_parts(1881))
    assert len(propose_unmerges(store)) == 1  # new evidence: asked again
