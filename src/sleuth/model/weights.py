"""Seed 001 AnalystResolveConflict weight tables: weight = evidence × tier × confidence."""

from __future__ import annotations

from sleuth.model.citation import EvidenceType, Tier

EVIDENCE_WEIGHT: dict[EvidenceType, float] = {
    EvidenceType.PRIMARY: 1.0,
    EvidenceType.SECONDARY: 0.7,
    EvidenceType.AUTHORED: 0.4,
}

TIER_WEIGHT: dict[Tier, float] = {
    Tier.TIER0: 0.8,
    Tier.TIER1: 0.9,
    Tier.TIER2: 1.0,
}


def claim_weight(evidence_type: EvidenceType, tier: Tier, confidence: float) -> float:
    return EVIDENCE_WEIGHT[EvidenceType(evidence_type)] * TIER_WEIGHT[Tier(tier)] * confidence
