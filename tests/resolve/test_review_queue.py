"""Uncertain merges reach the review queue; accepting merges, rejecting records why not.

A real tree (bronte.ged) plus a second, test-written tree that records Patrick Brontë under
his birth name Brunty with only a birth year: the resolver proposes the pair, the proposal
is an authored snapshot that the firewall accepts, and accepting it merges the two with the
Analyst weighing their disagreeing birth dates (every alternative kept and ranked, the
result marked tentative or not, next actions proposed as hypotheses).
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest
from sqlalchemy import select

from shared_data import shared_path
from sleuth.model import EvidenceType, InputError
from sleuth.pipeline.ingest import ingest_path
from sleuth.privacy import censor
from sleuth.resolve import Thresholds, records_from_graph, resolve, split
from sleuth.resolve.review import (
    SAME_PERSON,
    SOURCE_NAME,
    accept_if_merge,
    enqueue_proposals,
    reject_if_merge,
)
from sleuth.store import Store, case_graph, person_page, review_items
from sleuth.store import schema as t

SECOND_TREE = """0 HEAD
1 CHAR UTF-8
1 GEDC
2 VERS 5.5.1
0 @I1@ INDI
1 NAME Patrick /Brunty/
1 SEX M
1 BIRT
2 DATE 1778
2 PLAC County Down, Ireland
1 DEAT
2 DATE 1861
2 PLAC Haworth, Yorks.
0 @I2@ INDI
1 NAME Maria /Bronte/
1 SEX F
1 BIRT
2 DATE 1814
0 TRLR
"""


def _case(store: Store, tmp_path: Path) -> None:
    ingest_path(store, shared_path("gedcom/samples/bronte.ged"),
                evidence_type=EvidenceType.SECONDARY)
    second = tmp_path / "second.ged"
    second.write_text(SECOND_TREE, encoding="utf-8")
    ingest_path(store, second, evidence_type=EvidenceType.AUTHORED)


def _pair(store: Store, given: str) -> list:  # type: ignore[type-arg]
    res = resolve(records_from_graph(censor(case_graph(store))),
                  thresholds=Thresholds(merge=0.999999, review=0.3))
    names = {r.id: r.given for r in res.table.records}
    return [p for p in res.proposals() if names[p.a] == given == names[p.b]]


def test_uncertain_pair_queued_accepted_merged_adjudicated(store: Store, tmp_path: Path) -> None:
    _case(store, tmp_path)
    props = _pair(store, "Patrick")
    assert len(props) == 1 and props[0].recommended_action == "review", props
    (cid,) = enqueue_proposals(store, props)
    assert enqueue_proposals(store, props) == []  # queued once
    (item,) = [i for i in review_items(store) if i["candidate_id"] == cid]
    assert item["field"] == SAME_PERSON and not item["is_fact"]
    with store.engine.connect() as c:
        snap = c.execute(select(t.snapshots).where(t.snapshots.c.id == item["snapshot_id"])
                         ).mappings().one()
    assert snap["source_name"] == SOURCE_NAME and snap["evidence_type"] == "authored"
    assert "Why not merge:" in snap["text"] and item["excerpt"] in snap["text"]
    # Patrick died in 1861: the case's own verdicts judge the pair, so the reviewer reads
    # the proposal (alone, without his dates, he would look living and be withheld)
    from sleuth.pipeline.review import censored_items

    (shown,) = [i for i in censored_items(store) if i["candidate_id"] == cid]
    assert shown["excerpt"] == item["excerpt"] and "Patrick" in shown["excerpt"]

    a, b = props[0].a, props[0].b
    mc = accept_if_merge(store, item["id"], reason="Brunty is Patrick's birth name")
    assert mc is not None
    person, claims, conflicts = person_page(store, b)
    assert person.id == a
    births = [x for x in claims if x.field_name == "birth_date"]
    assert len(births) >= 2  # both trees' birth dates are kept
    (conflict,) = [c for c in conflicts if c.field == "birth_date"]
    assert len(conflict.competing) == len(births)  # every alternative, ranked
    assert [r.rank for r in conflict.competing] == list(range(1, len(births) + 1))
    weights = [r.weight for r in conflict.competing]
    assert weights == sorted(weights, reverse=True)
    assert conflict.competing[0].assertion_id == conflict.recommended_assertion_id
    top = next(x for x in births if x.id == conflict.recommended_assertion_id)
    assert top.value.startswith("1777")  # the dated register-style claim outranks a year
    assert conflict.next_actions
    graph = case_graph(store)
    assert {h.statement for h in graph.hypotheses if h.target_person == a} >= set(
        conflict.next_actions)
    assert all(not h.is_fact for h in graph.hypotheses)
    assert review_items(store) == [i for i in review_items(store) if i["id"] != item["id"]]
    split(store, mc, reason="test")
    assert {a, b} <= {p.id for p in case_graph(store).persons}


def test_rejected_proposal_records_why_not(store: Store, tmp_path: Path) -> None:
    _case(store, tmp_path)
    props = _pair(store, "Maria")
    assert props, "the two Marias should at least be proposed for review"
    ids = enqueue_proposals(store, props[:1])
    (item,) = [i for i in review_items(store) if i["candidate_id"] in ids]
    assert reject_if_merge(store, item["id"], reason="the mother, not the daughter")
    with store.engine.connect() as c:
        why = c.execute(select(t.audit_log.c.after_state).where(
            t.audit_log.c.action_type == "merge_rejected")).scalar()
        clusters = c.execute(select(t.merge_clusters)).all()
    assert "the mother, not the daughter" in str(why) and clusters == []


def test_the_ordinary_review_commands_merge_or_refuse_a_proposal(
    store: Store, tmp_path: Path
) -> None:
    from sleuth.pipeline import review as ops

    _case(store, tmp_path)
    props = _pair(store, "Patrick")
    (cid,) = enqueue_proposals(store, props)
    (item,) = [i for i in review_items(store) if i["candidate_id"] == cid]
    with pytest.raises(InputError):
        ops.edit(store, item["id"], value="x", reason="no")
    cluster = ops.accept(store, item["id"], reason="same man, two spellings")
    with store.engine.connect() as c:
        ids = c.execute(select(t.merge_clusters.c.id)).scalars().all()
    assert ids == [cluster]


def test_a_resolution_is_audited_with_its_time(store: Store, tmp_path: Path) -> None:
    """The audit row of a resolved item holds when, as ISO text (issue 21 item 8: the type
    checker could not see that `resolve_review`'s `resolved_at` is a datetime)."""
    _case(store, tmp_path)
    ids = enqueue_proposals(store, _pair(store, "Maria")[:1])
    (item,) = [i for i in review_items(store) if i["candidate_id"] in ids]
    assert reject_if_merge(store, item["id"], reason="the mother, not the daughter")
    with store.engine.connect() as c:
        before, after = c.execute(
            select(t.audit_log.c.before_state, t.audit_log.c.after_state).where(
                t.audit_log.c.action_type == "review_rejected")).one()
        resolved_at = c.execute(select(t.review_queue.c.resolved_at).where(
            t.review_queue.c.id == item["id"])).scalar_one()
    assert before == {"status": "open"}
    assert after["status"] == "rejected" and after["resolved_by"]
    assert datetime.fromisoformat(after["resolved_at"]).replace(tzinfo=None) == (
        resolved_at.replace(tzinfo=None))


def test_show_prints_the_adjudicated_conflict(case_dir: Path, tmp_path: Path) -> None:
    """`sleuth show` names a merged person's conflict, its recommendation and next actions."""
    from typer.testing import CliRunner

    from sleuth.cli.app import app

    store = Store.open_case(case_dir)
    try:
        _case(store, tmp_path)
        props = _pair(store, "Patrick")
        (cid,) = enqueue_proposals(store, props)
        (item,) = [i for i in review_items(store) if i["candidate_id"] == cid]
        assert accept_if_merge(store, item["id"], reason="Brunty is Patrick's birth name")
        _, _, conflicts = person_page(store, props[0].a)
        (conflict,) = [c for c in conflicts if c.field == "birth_date"]
    finally:
        store.close()
    result = CliRunner().invoke(app, ["show", str(case_dir), "person", props[0].a])
    assert result.exit_code == 0, result.output
    out = " ".join(result.stdout.split())
    assert "conflict on birth_date: recommended" in out
    assert f"Next: {conflict.next_actions[0]}"[:40] in out
