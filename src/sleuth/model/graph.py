"""Read-side views: what exports, reports and `sleuth show` consume.

The store assembles a CaseGraph; everything that writes a file or a screen reads only this,
always after the Censor has produced a redacted copy of it.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from sleuth.model.records import Assertion, Hypothesis, Person, Snapshot


class RankedClaim(BaseModel):
    assertion_id: str
    value: str
    weight: float
    evidence_type: str
    tier: int
    confidence: float
    rank: int
    reason: str
    # every assertion stating this value (one ranked value, several citations) and whether
    # it agrees with the recommended value (less precise, or the same place named shorter)
    assertion_ids: list[str] = Field(default_factory=list)
    agrees: bool = False


class Conflict(BaseModel):
    """Seed 000 §3.4 conflict resolution: every competing claim is kept, one is recommended."""

    id: str
    person_id: str
    field: str
    competing: list[RankedClaim]
    recommended_assertion_id: str
    recommended_value: str
    is_tentative: bool
    rationale: str
    next_actions: list[str] = Field(default_factory=list)


class CaseGraph(BaseModel):
    """Everything known in a case, ready for an output path (after redaction)."""

    title: str = ""
    persons: list[Person] = Field(default_factory=list)
    assertions: dict[str, list[Assertion]] = Field(default_factory=dict)  # person id -> claims
    snapshots: dict[str, Snapshot] = Field(default_factory=dict)
    conflicts: list[Conflict] = Field(default_factory=list)
    hypotheses: list[Hypothesis] = Field(default_factory=list)
    review_open: int = 0
    redactions: list[dict[str, Any]] = Field(default_factory=list)
    # person id -> parents their merged records give beyond two (a conflict, shown as one)
    extra_parents: dict[str, list[str]] = Field(default_factory=dict)

    def person(self, person_id: str) -> Person | None:
        return next((p for p in self.persons if p.id == person_id), None)
