"""The research loop with a model configured: the verifier reads every record, what it
invents is refused and logged, its cost is counted in the run state and carried to resume."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import CONTACT, run
from pytest_httpserver import HTTPServer
from sqlalchemy import select

from sleuth.loop import Budget, resume
from sleuth.store import Store
from sleuth.store import schema as t

CHAT = "/v1/chat/completions"


def _reply(content: str) -> dict:
    """A chat.completion object in the shape api.openai.com returns."""
    return {"id": "chatcmpl-1", "object": "chat.completion", "created": 1741570283,
            "model": "scripted-model",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content,
                                                 "refusal": None},
                         "logprobs": None, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 1000, "completion_tokens": 100,
                      "total_tokens": 1100}}


INVENTED = json.dumps({
    "verification_results": [{
        "field": "occupation", "value": "astronaut", "status": "Verified", "confidence": 0.99,
        "citation_snippet": "He flew to the moon in 1850.", "rationale": "obvious",
        "subject_name": None}],
    "hypotheses": [{"type": "parental_discovery", "text": "Her father was a king",
                    "evidence_hint": "", "priority": 0.9, "is_fact": True,
                    "suggested_queries": []}],
    "hallucination_flags": []})


def test_the_verifier_runs_inside_the_loop_and_invents_nothing(
        httpserver: HTTPServer, world_on, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    w = world_on(seed=3, generations=2)
    httpserver.expect_request(CHAT).respond_with_json(_reply(INVENTED))
    for k, v in {"SLEUTH_LLM_BASE_URL": httpserver.url_for("/v1"),
                 "SLEUTH_LLM_API_KEY": "sk-test-loop", "SLEUTH_LLM_MODEL": "scripted-model",
                 "SLEUTH_LLM_PRICE_IN": "2.5", "SLEUTH_LLM_PRICE_OUT": "10",
                 "SLEUTH_LLM_MAX_RETRIES": "1"}.items():
        monkeypatch.setenv(k, v)
    case = tmp_path / "case"
    events: list[dict] = []
    first = run(case, httpserver, w, Budget(max_requests=4, target_generations=2),
                progress=events.append)
    calls = [e for e, _ in httpserver.log if e.path == CHAT]
    assert calls, "the verifier was asked about the records the loop read"
    shown = [e["model"] for e in events if "model" in e]  # model use is shown live
    assert shown and shown[-1].startswith(f"{len(calls)} calls, ")
    assert first.state["llm_cost"] == pytest.approx(len(calls) * (1000 * 2.5 + 100 * 10) / 1e6)
    store = Store.open_case(case)
    try:
        with store.engine.connect() as conn:
            values = set(conn.execute(select(t.assertions.c.value)).scalars())
            rejected = conn.execute(select(t.research_log.c.context).where(
                t.research_log.c.action_type == "llm_rejected")).scalars().all()
            hyps = conn.execute(select(t.hypotheses.c.statement)).scalars().all()
    finally:
        store.close()
    assert "astronaut" not in values
    assert rejected and all(r.get("check") for r in rejected)
    assert not any("king" in h for h in hyps)
    meter = json.loads((case / "llm-meter.json").read_text())
    assert sum(u["calls"] for u in meter["usage"].values()) == len(calls)
    again = resume(case, budget=Budget(max_requests=6, target_generations=2),
                   fetcher_options=CONTACT)
    assert again.state["llm_cost"] >= first.state["llm_cost"]  # carried over, not reset


def test_the_resolver_keeps_a_separate_pair_off_the_review_queue(
        httpserver: HTTPServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A pair the deterministic resolver was unsure of: a model judging them separate keeps
    them off the queue (logged); a model that says merge only gets them reviewed."""
    from types import SimpleNamespace

    from sleuth.llm import LLMClient, LLMConfig
    from sleuth.loop.advice import llm_judged
    from sleuth.resolve.explain import Proposal

    features = {"given": {"level": "exact", "weight": 3.1}}
    verdicts = [{"similarity_score": 0.2, "feature_scores": {"given": {"score": 0.9}},
                 "merge_rationale": "same given name", "why_not_merge": "different parents",
                 "recommendation": rec, "confidence": 0.9} for rec in ("separate", "merge")]
    for v in verdicts:
        httpserver.expect_ordered_request(CHAT).respond_with_json(_reply(json.dumps(v)))
    env = {"SLEUTH_LLM_BASE_URL": httpserver.url_for("/v1"), "SLEUTH_LLM_API_KEY": "sk-x",
           "SLEUTH_LLM_MODEL": "scripted-model"}
    store = Store.create_case(tmp_path / "case")
    try:
        rt = SimpleNamespace(llm=LLMClient(LLMConfig.load(env=env)), store=store)
        graph = SimpleNamespace(persons=[SimpleNamespace(id=i, canonical_name="Ann Carter")
                                         for i in ("a", "b", "c")])
        pairs = [Proposal("a", "b", 0.6, "review", features, "same name", "dates differ"),
                 Proposal("a", "c", 0.6, "review", features, "same name", "dates differ")]
        kept = llm_judged(rt, graph, pairs)  # type: ignore[arg-type]
        with store.engine.connect() as conn:
            decisions = conn.execute(select(t.research_log.c.context).where(
                t.research_log.c.action_type == "decision")).scalars().all()
    finally:
        store.close()
    assert [(p.a, p.b) for p in kept] == [("a", "c")]
    assert kept[0].why_not_merge == "different parents"
    assert any(d.get("decision") == "llm_separate" for d in decisions)


def _advise(httpserver: HTTPServer, store: Store, **env: str) -> None:
    """The loop's conflict-advice step on the case's one snapshot, with a scripted model."""
    from types import SimpleNamespace

    from sleuth.llm import LLMClient, LLMConfig
    from sleuth.loop.advice import llm_conflict_advice
    from sleuth.loop.queues import ClueQueue

    env = {"SLEUTH_LLM_BASE_URL": httpserver.url_for("/v1"), "SLEUTH_LLM_API_KEY": "k",
           "SLEUTH_LLM_MODEL": "scripted-model", **env}
    rt = SimpleNamespace(llm=LLMClient(LLMConfig.load(env=env)), store=store,
                         clues=ClueQueue(store))
    with store.transaction() as conn:
        snap_id = conn.execute(select(t.snapshots.c.id)).scalar_one()
        llm_conflict_advice(rt, conn, store.snapshot(snap_id, conn))  # type: ignore[arg-type]


def test_the_conflict_analyst_writes_rationale_and_clues_never_the_ranking(
        httpserver: HTTPServer, tmp_path: Path) -> None:

    from sleuth.pipeline import ingest_path
    from sleuth.store.queries import conflicts_of

    page = tmp_path / "notes.txt"
    page.write_text("John Whitcombe was born on May 12, 1890 at Dorchester.\n\n"
                    "John Whitcombe was born on June 3, 1889 at Dorchester.\n", encoding="utf-8")
    store = Store.create_case(tmp_path / "case")
    try:
        res = ingest_path(store, page)
        assert res.report is not None and res.report.conflicts
        with store.engine.connect() as conn:
            (before,) = conflicts_of(conn, None)
        values = [r.value for r in before.competing]
        httpserver.expect_request(CHAT).respond_with_json(_reply(json.dumps({
            "analysis": "Two statements in one note; neither is an original record.",
            "evidence_ranking": [{"claim_index": 0, "rank": 1, "reason": "first"},
                                 {"claim_index": 1, "rank": 2, "reason": "second"}],
            "recommended_value": values[-1], "confidence": 0.6, "is_tentative": True,
            "next_actions": ["Seek the Dorchester baptism register for John Whitcombe"],
            "preserve_alternatives": True})))
        _advise(httpserver, store)
        with store.engine.connect() as conn:
            (after,) = conflicts_of(conn, None)
            clues = conn.execute(select(t.hypotheses.c.statement, t.hypotheses.c.is_fact)
                                 ).all()
    finally:
        store.close()
    assert after.rationale.startswith("Two statements") and after.is_tentative
    assert after.recommended_assertion_id == before.recommended_assertion_id  # ranking kept
    assert ("Seek the Dorchester baptism register for John Whitcombe", False) in clues


def test_the_planner_adds_grounded_searches_the_guard_and_sources_allow(
        httpserver: HTTPServer, world_on, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    w = world_on(seed=3, generations=2)
    assert (w.seed.given, w.seed.surname) == ("James", "Dunmore")
    plan = {"reasoning": "a nickname and a spelling variant",
            "next_actions": [
                {"action": "fetch", "query": "Jim Dunmore", "target": "wikitree",
                 "source_tier": 0, "priority": 0.9},
                {"action": "fetch", "query": "Dunmore", "target": "ancestry", "priority": 0.5}],
            # a near-identical spelling is refused by the NoveltyGuard, a distinct one is not
            "query_expansions": ["Dunmoore", "Donmoor"], "revisit_schedule": [],
            "should_stop": False, "stop_reason": None}
    httpserver.expect_request("/planner/v1/chat/completions").respond_with_json(
        _reply(json.dumps(plan)))
    for k, v in {"SLEUTH_LLM_PLANNER_BASE_URL": httpserver.url_for("/planner/v1"),
                 "SLEUTH_LLM_PLANNER_API_KEY": "sk-p", "SLEUTH_LLM_PLANNER_MODEL": "m"}.items():
        monkeypatch.setenv(k, v)
    case = tmp_path / "case"
    run(case, httpserver, w, Budget(max_requests=3, target_generations=2))
    store = Store.open_case(case)
    try:
        with store.engine.connect() as conn:
            queries = [p["query"] for p in conn.execute(select(t.tasks.c.payload)).scalars()
                       if p["action"] == "search"]
            rejected = conn.execute(select(t.research_log.c.context).where(
                t.research_log.c.action_type == "llm_rejected")).scalars().all()
    finally:
        store.close()
    planned = [q for q in queries if q.endswith("(planner)")]
    assert sorted(planned) == ["wikitree search: James Donmoor (planner)",
                               "wikitree search: Jim Dunmore (planner)"]
    assert not any("ancestry" in q for q in queries)
    assert any(r.get("check") == "no_invented_targets" for r in rejected)


@pytest.mark.parametrize(("born", "sent"), [(("May 12, 1890", "June 3, 1889"), True),
                                            (("May 12, 1990", "June 3, 1989"), False)])
def test_a_hosted_conflict_analyst_gets_the_cases_living_verdict(
        httpserver: HTTPServer, tmp_path: Path, born: tuple[str, str], sent: bool) -> None:
    """Alone, the analyst sees two birth claims and must assume the worst; the loop passes
    the Censor's verdict on the whole case, so the long dead are sent and the living not."""

    from sleuth.pipeline import ingest_path

    page = tmp_path / "notes.txt"
    page.write_text(f"John Whitcombe was born on {born[0]} at Dorchester.\n\n"
                    f"John Whitcombe was born on {born[1]} at Dorchester.\n", encoding="utf-8")
    store = Store.create_case(tmp_path / "case")
    try:
        assert ingest_path(store, page).report.conflicts  # type: ignore[union-attr]
        httpserver.expect_request(CHAT).respond_with_json(_reply(json.dumps({
            "analysis": "Two statements in one note.", "evidence_ranking": [],
            "recommended_value": None, "confidence": 0.5, "is_tentative": True,
            "next_actions": [], "preserve_alternatives": True})))
        _advise(httpserver, store, SLEUTH_LLM_ENDPOINT_LOCALITY="hosted")
        with store.engine.connect() as conn:
            actions = conn.execute(select(t.research_log.c.action_type)).scalars().all()
    finally:
        store.close()
    calls = [e for e, _ in httpserver.log if e.path == CHAT]
    assert bool(calls) is sent
    assert ("llm_skipped" in actions) is not sent
