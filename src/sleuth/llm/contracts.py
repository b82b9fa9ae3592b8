"""The roles' output contracts, field for field as seed 000 §3 and §5 write them.

Validation here is about shape only. Whether a claim is *true to the source* is the
firewall's job (`sleuth.llm.guard`), so values the model may get wrong on purpose or by
accident (a confidence of 1.5, a hypothesis with `is_fact: true`) are accepted here and
rejected there, by a named check that is logged. Extra keys a model adds are ignored.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class _Contract(BaseModel):
    model_config = ConfigDict(extra="ignore")


# -- planner (§3.1, §5.1) -------------------------------------------------------------------
class PlannedAction(_Contract):
    action: Literal["fetch", "revisit", "merge", "stop"]
    query: str = ""
    target: str = ""  # §3.1: a source id, person id or URL the action is aimed at
    source_tier: int = Field(default=0, ge=0, le=2)
    priority: float = 0.5


class RevisitRecommendation(_Contract):
    source_id: str
    improved_query: str
    reason: str


class PlannerOutput(_Contract):
    reasoning: str = ""
    next_actions: list[PlannedAction] = Field(default_factory=list)
    query_expansions: list[str] = Field(default_factory=list)
    revisit_schedule: list[RevisitRecommendation] = Field(default_factory=list)
    should_stop: bool = False
    stop_reason: str | None = None


# -- verifier (§3.2, §5.2) -----------------------------------------------------------------
class VerificationResult(_Contract):
    field: str
    value: str
    status: Literal["Verified", "Unverified", "Conflicting", "Not Found"]
    confidence: float = 0.5
    citation_snippet: str | None = None
    rationale: str = ""
    subject_name: str | None = None  # whose field (sleuth's addition: names are grounded too)


class VerifierHypothesis(_Contract):
    type: str
    text: str
    evidence_hint: str = ""
    priority: float = 0.5
    is_fact: bool = False
    suggested_queries: list[str] = Field(default_factory=list)


class VerifierOutput(_Contract):
    verification_results: list[VerificationResult] = Field(default_factory=list)
    hypotheses: list[VerifierHypothesis] = Field(default_factory=list)
    hallucination_flags: list[str] = Field(default_factory=list)


# -- entity resolver (§3.3, §5.3) -----------------------------------------------------------
class FeatureScore(_Contract):
    score: float
    reason: str = ""


class ResolverOutput(_Contract):
    similarity_score: float
    feature_scores: dict[str, FeatureScore] = Field(default_factory=dict)
    merge_rationale: str = ""
    why_not_merge: str = ""
    recommendation: Literal["merge", "review", "separate"]
    confidence: float


# -- conflict analyst (§3.4, §5.4) ----------------------------------------------------------
class EvidenceRank(_Contract):
    claim_index: int
    rank: int
    reason: str = ""


class ConflictOutput(_Contract):
    analysis: str = ""
    evidence_ranking: list[EvidenceRank] = Field(default_factory=list)
    recommended_value: str
    confidence: float
    is_tentative: bool = True
    next_actions: list[str] = Field(default_factory=list)
    preserve_alternatives: bool = True


# -- `sleuth llm check` ---------------------------------------------------------------------
class PingOutput(_Contract):
    ok: bool
    answer: int


CONTRACTS: dict[str, type[BaseModel]] = {
    "planner": PlannerOutput,
    "verifier": VerifierOutput,
    "resolver": ResolverOutput,
    "analyst": ConflictOutput,
}
