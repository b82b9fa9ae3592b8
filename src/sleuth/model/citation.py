"""Grounding is data: where in which stored snapshot a fact was read.

This module depends on nothing but Pydantic so that extractors, the firewall and exports can
share one definition of a citation without importing the database or the network.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum

from pydantic import BaseModel, ConfigDict, Field, model_validator


class EvidenceType(StrEnum):
    """Seed 001 EVIDENCE_TYPE: how close the informant was to the event."""

    PRIMARY = "primary"
    SECONDARY = "secondary"
    AUTHORED = "authored"


class Tier(IntEnum):
    """Seed 000/001 source tiers: 0 free and open, 1 needs a login, 2 paid or credentialed."""

    TIER0 = 0
    TIER1 = 1
    TIER2 = 2


class MatchStatus(StrEnum):
    """How the firewall found the excerpt in the snapshot."""

    EXACT = "exact"  # byte-for-byte at the locator
    NORMALISED = "normalised"  # equal after the documented normalisations
    NOT_FOUND = "not_found"


class Locator(BaseModel):
    """Character span [start, end) into the snapshot's text; page and line where they exist."""

    model_config = ConfigDict(frozen=True)

    start: int = Field(ge=0)
    end: int = Field(ge=0)
    page: int | None = Field(default=None, ge=1)
    line: int | None = Field(default=None, ge=1)

    @model_validator(mode="after")
    def _ordered(self) -> Locator:
        if self.end < self.start:
            raise ValueError(f"locator end {self.end} is before start {self.start}")
        return self


class Citation(BaseModel):
    """Seed 000 EvidenceClaim: the verbatim excerpt that supports an assertion."""

    model_config = ConfigDict(frozen=True)

    snapshot_id: str = Field(min_length=1)
    excerpt: str
    locator: Locator
    extraction_method: str = "deterministic"
    source_reliability: float = Field(default=0.5, ge=0.0, le=1.0)
    rationale: str = ""
    match_status: MatchStatus | None = None
