"""Planner, resolver and conflict analyst: outputs checked for invented targets, values,
dates, URLs and out-of-range scores, each refusal logged with its check."""

from __future__ import annotations

import json
from typing import Any

from llm_scripted import CHAT, Log, openai_reply
from pytest_httpserver import HTTPServer

from sleuth.llm import ConflictAnalyst, LLMClient, Planner, Resolver
from sleuth.model import REVISIT_REASONS

SOURCES = [{"id": "freebmd", "tier": 0, "name": "FreeBMD"},
           {"id": "wikitree", "tier": 0, "name": "WikiTree"}]


def answer(httpserver: HTTPServer, obj: dict[str, Any]) -> None:
    httpserver.expect_request(CHAT).respond_with_json(openai_reply(json.dumps(obj)))


def test_planner_keeps_grounded_actions_only(httpserver: HTTPServer, client: LLMClient,
                                             log: Log) -> None:
    answer(httpserver, {
        "reasoning": "Births first.",
        "next_actions": [
            {"action": "fetch", "query": "Whitcombe births Dorchester 1890", "target": "freebmd",
             "source_tier": 0, "priority": 0.9},
            {"action": "fetch", "query": "Whitcombe", "target": "ancestry", "priority": 0.5},
            {"action": "fetch", "query": "see https://made.up/records", "priority": 0.4},
            {"action": "revisit", "query": "Whitcombe", "target": "wikitree", "priority": 7},
        ],
        "query_expansions": ["Whitcomb", "Witcombe", "John Smith Atlantis"],
        "revisit_schedule": [
            {"source_id": "wikitree", "improved_query": "Whitcombe-12",
             "reason": REVISIT_REASONS[1]},
            {"source_id": "wikitree", "improved_query": "Whitcombe-99",  # an invented id
             "reason": REVISIT_REASONS[1]},
            {"source_id": "wikitree", "improved_query": "x", "reason": "just because"},
            {"source_id": "findagrave", "improved_query": "x", "reason": REVISIT_REASONS[0]},
        ],
        "should_stop": False, "stop_reason": None})
    plan = Planner(client, log).plan({"persons_discovered": 3, "budget_remaining": 0.8},
                                     sources=SOURCES,
                                     recent_discoveries=["John Henry Whitcombe b. 1890"],
                                     targets=["John Henry Whitcombe"],
                                     grounding=["Dorchester, Dorset", "Whitcombe-12"])
    assert plan is not None
    assert [a.target for a in plan.next_actions] == ["freebmd"]
    assert plan.query_expansions == ["Whitcomb", "Witcombe"]  # spellings of a known name
    assert [r.improved_query for r in plan.revisits] == ["Whitcombe-12"]
    assert sorted(log.checks()) == ["confidence_bounds", "no_fabricated_urls",
                                    "no_invented_targets", "no_invented_targets",
                                    "no_invented_targets", "no_invented_targets",
                                    "revisit_reason"]
    invented = {e.context["value"]: e.rationale for e in log
                if e.context.get("check") == "no_invented_targets"}
    assert ("'Smith', 'Atlantis': not a name, place or id in the case or the seed"
            in invented["John Smith Atlantis"])
    assert "Whitcombe-99" in invented
    assert all(e.agent == "Lead" for e in log)


FEATURES = {"name": {"level": "exact", "weight": 3.2}, "birth": {"level": "within 1y",
                                                                   "weight": 1.1}}
A = {"id": "a1", "name": "John Whitcombe", "birth": "1890"}
B = {"id": "b2", "name": "John H. Whitcombe", "birth": "1889"}


def verdict(**over: Any) -> dict[str, Any]:
    base = {"similarity_score": 0.86,
            "feature_scores": {"name": {"score": 0.9, "reason": "same name"},
                               "birth": {"score": 0.7, "reason": "1889 vs 1890"}},
            "merge_rationale": "same name, adjacent birth years",
            "why_not_merge": "birth years differ (1889 vs 1890)",
            "recommendation": "merge", "confidence": 0.8}
    return {**base, **over}


def test_resolver_uncertain_merge_becomes_review(httpserver: HTTPServer, client: LLMClient,
                                                 log: Log) -> None:
    answer(httpserver, verdict())
    v = Resolver(client, log).judge(A, B, FEATURES)
    assert v is not None and v.recommendation == "review" and v.rejected == []
    assert log.actions() == ["llm_resolver"]
    assert log[0].context["model_recommendation"] == "merge"


def test_resolver_refuses_invented_evidence(httpserver: HTTPServer, client: LLMClient,
                                            log: Log) -> None:
    answer(httpserver, verdict(
        feature_scores={"name": {"score": 0.9}, "dna": {"score": 0.99, "reason": "DNA match"}},
        merge_rationale="both baptised in 1887 per https://parish.example/reg",
        why_not_merge="", confidence=1.2))
    assert Resolver(client, log).judge(A, B, FEATURES) is None
    assert set(log.checks()) == {"no_invented_features", "why_not_merge_required",
                                 "no_invented_dates", "no_fabricated_urls", "confidence_bounds"}


CLAIMS = [{"value": "1890-05-12", "source": "birth register", "tier": 0,
           "evidence_type": "primary"},
          {"value": "1889", "source": "obituary", "tier": 0, "evidence_type": "secondary"}]


def test_analyst_advice(httpserver: HTTPServer, client: LLMClient, log: Log) -> None:
    answer(httpserver, {
        "analysis": "The register is primary evidence; the obituary is secondary.",
        "evidence_ranking": [{"claim_index": 0, "rank": 1, "reason": "primary"},
                             {"claim_index": 1, "rank": 2, "reason": "secondary"}],
        "recommended_value": "1890-05-12", "confidence": 0.85, "is_tentative": False,
        "next_actions": ["Seek the 1891 census for Dorchester",
                         "Order the certificate at https://gro.example/order"],
        "preserve_alternatives": True})
    adv = ConflictAnalyst(client, log).analyse("birth_date", CLAIMS, person_id="p-1")
    assert adv is not None and adv.recommended_value == "1890-05-12" and not adv.is_tentative
    assert adv.next_actions == ["Seek the 1891 census for Dorchester"]
    assert [h.is_fact for h in adv.hypotheses] == [False]
    assert adv.hypotheses[0].target_person == "p-1"
    assert log.checks() == ["no_fabricated_urls"]


def test_analyst_may_not_invent_or_discard(httpserver: HTTPServer, client: LLMClient,
                                           log: Log) -> None:
    answer(httpserver, {
        "analysis": "Probably 1888 really.", "evidence_ranking": [{"claim_index": 5, "rank": 1}],
        "recommended_value": "1888", "confidence": 0.9, "is_tentative": False,
        "next_actions": [], "preserve_alternatives": False})
    assert ConflictAnalyst(client, log).analyse("birth_date", CLAIMS) is None
    assert set(log.checks()) == {"no_invented_values", "conflict_preservation",
                                 "no_invented_claims", "no_invented_dates"}
