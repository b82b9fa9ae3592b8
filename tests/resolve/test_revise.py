"""Self-revising merges: a "not a match" decision is remembered until new evidence arrives."""

from __future__ import annotations

from pathlib import Path

from test_review_queue import _case, _pair

from sleuth.model import Citation, Locator
from sleuth.model.records import Assertion, AssertionStatus
from sleuth.resolve.review import enqueue_proposals, reject_if_merge
from sleuth.store import Store, case_graph, review_items


def test_rejected_pair_is_not_proposed_again_without_new_evidence(
        store: Store, tmp_path: Path) -> None:
    _case(store, tmp_path)
    props = _pair(store, "Maria")[:1]
    (cid,) = enqueue_proposals(store, props)
    (item,) = [i for i in review_items(store) if i["candidate_id"] == cid]
    assert reject_if_merge(store, item["id"], reason="the mother, not the daughter")
    assert enqueue_proposals(store, props) == []  # remembered
    assert enqueue_proposals(store, _pair(store, "Maria")[:1]) == []  # a fresh resolver run
    # new evidence about one of the two: the pair may be weighed again
    g = case_graph(store)
    snap = next(iter(g.snapshots.values()))
    excerpt = snap.text[:20]
    with store.transaction() as tx:
        store.add_assertion(tx, Assertion(
            entity_id=props[0].a, field_name="note", value="new", confidence=0.5,
            status=AssertionStatus.VERIFIED,
            citations=[Citation(snapshot_id=snap.id, excerpt=excerpt,
                                locator=Locator(start=0, end=len(excerpt)))]),
            candidate_id=None)
    assert len(enqueue_proposals(store, props)) == 1
