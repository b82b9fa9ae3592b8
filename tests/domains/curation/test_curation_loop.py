"""Seed 002's refinement loop and Decision Maker (issue 25, items 4 and 5), on SQLite and on
PostgreSQL when configured: the decision rules exactly, required fields from the domain's
declaration, and every limit (LangGraph's recursion_limit, tool and model calls) sending the
item to human review with its reason, never dropping it."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import replace

import pytest

from sleuth.domains.curation.agents import REQUIRED_FIELDS
from sleuth.domains.curation.loop import SEED_002, Limits, LoopContext, curate
from sleuth.domains.curation.match import Definitions
from sleuth.domains.curation.rules import ENTITY_TYPES, THRESHOLDS
from sleuth.model import Snapshot
from sleuth.store import Store
from sleuth.store import curation as cur
from sleuth.store.curation_roles import drop_agent_roles

TEXT = ("module Svc {\n"
        "  active component TlmChan {\n"
        "    async input port Run: Svc.Sched\n"
        "    internal port loqQueue\n"
        "  }\n"
        "}\n")
DOC = "Svc__TlmChan__TlmChan.fpp"


@pytest.fixture
def cstore(store: Store) -> Iterator[Store]:
    yield store
    drop_agent_roles(store.engine)


def _stage(store: Store, *, score: float, payload: dict[str, object], line: int = 3,
           key: str = "fprime:Svc:TlmChan:port:Run", kind: str = "port",
           evidence_type: str = "interface_contract", text: str | None = None) -> str:
    raw = TEXT.encode()
    snap = Snapshot(sha256=hashlib.sha256(raw).hexdigest(), path=DOC, source_name="fprime",
                    text=TEXT)
    starts = [0, *(i + 1 for i, c in enumerate(TEXT) if c == "\n")]
    lo = starts[line - 1] + 4
    hi = starts[line] - 1
    with store.transaction() as conn, cur.as_extractor(store, conn) as ex:
        stored, _ = ex.put_snapshot(raw, snap)
        x = ex.stage(cur.NewExtraction(
            snapshot_id=stored.id, candidate_type=kind, candidate_key=key,
            candidate_payload=payload, confidence_score=score, confidence_reason="test",
            evidence_text=text if text is not None else TEXT[lo:hi], evidence_doc=DOC,
            lines=(line, line), span=(lo, hi), evidence_type=evidence_type))
    return x.id


FULL = {"name": "Run", "component": "Svc.TlmChan", "type": "Svc.Sched", "direction": "input",
        "kind": "async"}


def _run(store: Store, xid: str, **ctx_args: object) -> tuple[str, LoopContext]:
    with store.transaction() as conn:
        args: dict[str, object] = {"required": REQUIRED_FIELDS, **ctx_args}
        ctx = LoopContext(store, conn, thresholds=THRESHOLDS, definitions=Definitions(),
                          **args)  # type: ignore[arg-type]
        status = curate(ctx, xid)
    return status, ctx


def _review(store: Store) -> list[cur.ReviewItem]:
    with store.engine.connect() as conn:
        return cur.review_items(conn)


@pytest.mark.parametrize(("score", "status", "priority", "reason"), [
    (0.95, "accepted", None, "High confidence (0.95) with complete fields"),
    (0.80, "accepted", None, "High confidence (0.80) with complete fields"),
    (0.79, "review", "normal", "Medium confidence (0.79) requires human verification"),
    (0.50, "review", "normal", "Medium confidence (0.50) requires human verification"),
    (0.49, "review", "high", "Low confidence (0.49) needs expert review"),
])
def test_the_decision_maker_follows_seed_002_exactly(cstore: Store, score: float, status: str,
                                                     priority: str | None, reason: str) -> None:
    xid = _stage(cstore, score=score, payload=FULL)
    got, _ = _run(cstore, xid)
    assert got == status
    with cstore.engine.connect() as conn:
        decided = cur.decisions(conn, xid)
        entities = cur.core_entities(conn)
    assert [d.stage for d in decided] == ["validator", "decision_maker"]
    assert decided[-1].reason == reason
    if status == "accepted":  # promoted with audit: the decision names the entity
        assert [e.candidate_key for e in entities] == ["fprime:Svc:TlmChan:port:Run"]
        assert decided[-1].canonical_id == entities[0].id and entities[0].reason == reason
        assert entities[0].evidence_text == "async input port Run: Svc.Sched"
        assert _review(cstore) == []
    else:
        assert entities == []
        (item,) = _review(cstore)
        assert (item.priority, item.reason, item.origin) == (priority, reason, "decision")


def test_high_but_incomplete_goes_to_review_naming_the_missing_fields(cstore: Store) -> None:
    xid = _stage(cstore, score=0.95, line=4, key="fprime:Svc:TlmChan:port:loqQueue",
                 payload={"name": "loqQueue", "component": "Svc.TlmChan", "type": None,
                          "direction": "internal", "kind": "internal"})
    status, ctx = _run(cstore, xid)
    assert status == "review" and ctx.refinements == 1  # asked once; nothing more to find
    (item,) = _review(cstore)
    assert item.reason == "High confidence but missing: ['type']"
    assert item.missing_fields == ["type"] and item.priority == "normal"
    with cstore.engine.connect() as conn:
        asked = [d for d in cur.decisions(conn, xid) if d.decision == "needs_more_evidence"]
    assert asked and asked[0].request == "Extract ['type'] from source document"


def test_required_fields_come_from_the_domains_declaration(cstore: Store) -> None:
    port = next(e for e in ENTITY_TYPES if e.name == "port")
    assert port.required == REQUIRED_FIELDS["port"] == (
        "name", "component", "type", "direction", "kind")
    xid = _stage(cstore, score=0.95, payload={**FULL, "kind": None})
    lenient = {**REQUIRED_FIELDS, "port": ("name", "component")}
    status, _ = _run(cstore, xid, required=lenient)  # declared otherwise: promoted
    assert status == "accepted"


def test_evidence_not_at_its_lines_is_re_read_from_the_stored_file(cstore: Store) -> None:
    xid = _stage(cstore, score=0.95, payload=FULL, text="async input port Run: Svc.Schedule")
    status, ctx = _run(cstore, xid)
    assert status == "accepted" and ctx.refinements == 1
    with cstore.engine.connect() as conn:
        (entity,) = cur.core_entities(conn)
        assert entity.evidence_text == "async input port Run: Svc.Sched"
        assert cur.extraction(conn, xid).status == "superseded"
        assert cur.extraction(conn, entity.extraction_id).refines == xid


def _stubborn(ctx: LoopContext, x: cur.Extraction, kind: str) -> cur.Extraction:
    """An extractor that always answers, never what was asked."""
    return replace(x, confidence_reason=f"{x.confidence_reason}; tried again")


def test_the_recursion_limit_sends_the_item_to_review_with_its_reason(cstore: Store) -> None:
    xid = _stage(cstore, score=0.95, payload={**FULL, "kind": None})
    status, ctx = _run(cstore, xid, refine=_stubborn)
    assert status == "review" and ctx.limits.recursion_limit == 5
    (item,) = _review(cstore)
    assert item.origin == "loop_limit" and item.priority == "high"
    assert item.reason.startswith("Exceeded refinement limit (LangGraph recursion_limit 5)")
    assert "Extract ['kind'] from source document" in item.reason
    assert item.missing_fields == ["kind"]
    with cstore.engine.connect() as conn:  # nothing dropped: every attempt still staged
        staged = cur.extractions(conn)
    assert len(staged) == 3 and staged[0].id == xid
    assert [x.status for x in staged] == ["superseded", "superseded", "review"]


@pytest.mark.parametrize(("limits", "said"), [
    (replace(SEED_002, per_tool={"fetch_document": 0}), "fetch_document tool-call run limit"),
    (replace(SEED_002, model_calls_run=1), "model-call run limit"),
    (replace(SEED_002, tool_calls={"extractor": 20, "validator": 1, "decision_maker": 5}),
     "validator tool-call run limit"),
    (replace(SEED_002, thread_tool_calls=4), "tool-call thread limit"),
])
def test_a_call_limit_sends_the_item_to_review_with_its_reason(cstore: Store, limits: Limits,
                                                               said: str) -> None:
    xid = _stage(cstore, score=0.95, payload={**FULL, "kind": None})
    status, _ = _run(cstore, xid, limits=limits)
    assert status == "review"
    (item,) = _review(cstore)
    assert item.origin == "call_limit" and said in item.reason, item.reason
    with cstore.engine.connect() as conn:
        assert cur.core_entities(conn) == []


def test_seed_002_limits() -> None:
    assert SEED_002.recursion_limit == 5
    assert dict(SEED_002.tool_calls) == {"extractor": 20, "validator": 10, "decision_maker": 5}
    assert dict(SEED_002.per_tool) == {"fetch_document": 5}
    assert (SEED_002.run_tool_calls, SEED_002.thread_tool_calls) == (15, 50)
    assert (SEED_002.model_calls_run, SEED_002.model_calls_thread) == (10, 20)
