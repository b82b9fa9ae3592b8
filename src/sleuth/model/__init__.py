"""The evidence model: importable without the database, the network or any extractor.

Names are loaded on first use (PEP 562): `from sleuth.model import InputError` reads only
`errors.py`, so a command that fails early, or only prints its help, does not pay for
building the pydantic models (start-up time, issue 19).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sleuth._lazy import loader

if TYPE_CHECKING:
    from sleuth.model.citation import Citation, EvidenceType, Locator, MatchStatus, Tier
    from sleuth.model.dates import DateQualifier, GenDate
    from sleuth.model.errors import (
        ImmutableError,
        InputError,
        InvariantViolation,
        NotFound,
        SleuthError,
    )
    from sleuth.model.evidence import (
        EvidenceClass,
        InformationClass,
        ResearchQuestion,
        SourceClass,
    )
    from sleuth.model.graph import CaseGraph, Conflict, RankedClaim
    from sleuth.model.ids import id_stream, stable_id
    from sleuth.model.records import (
        DATE_FIELDS,
        NAME_FIELDS,
        PLACE_FIELDS,
        RELATIONSHIP_FIELDS,
        REVISIT_REASONS,
        Agent,
        Assertion,
        AssertionStatus,
        AuditEntry,
        Candidate,
        Event,
        Hypothesis,
        LogEntry,
        MergeCluster,
        Person,
        Relationship,
        Snapshot,
        new_id,
        utcnow,
    )
    from sleuth.model.weights import EVIDENCE_WEIGHT, TIER_WEIGHT, claim_weight

_WHERE: dict[str, tuple[str, ...]] = {
    "sleuth.model.citation": ("Citation", "EvidenceType", "Locator", "MatchStatus", "Tier"),
    "sleuth.model.dates": ("DateQualifier", "GenDate"),
    "sleuth.model.errors": (
        "ImmutableError", "InputError", "InvariantViolation", "NotFound", "SleuthError",
    ),
    "sleuth.model.records": (
        "DATE_FIELDS", "NAME_FIELDS", "PLACE_FIELDS", "RELATIONSHIP_FIELDS", "REVISIT_REASONS",
        "Agent", "Assertion", "AssertionStatus", "AuditEntry", "Candidate", "Event",
        "Hypothesis", "LogEntry", "MergeCluster", "Person", "Relationship", "Snapshot",
        "new_id", "utcnow",
    ),
    "sleuth.model.ids": ("id_stream", "stable_id"),
    "sleuth.model.weights": ("EVIDENCE_WEIGHT", "TIER_WEIGHT", "claim_weight"),
    "sleuth.model.graph": ("CaseGraph", "Conflict", "RankedClaim"),
    "sleuth.model.evidence": (
        "EvidenceClass", "InformationClass", "ResearchQuestion", "SourceClass",
    ),
}

__all__ = [
    "DATE_FIELDS",
    "EVIDENCE_WEIGHT",
    "NAME_FIELDS",
    "PLACE_FIELDS",
    "RELATIONSHIP_FIELDS",
    "REVISIT_REASONS",
    "TIER_WEIGHT",
    "Agent",
    "Assertion",
    "AssertionStatus",
    "AuditEntry",
    "Candidate",
    "CaseGraph",
    "Citation",
    "Conflict",
    "DateQualifier",
    "Event",
    "EvidenceClass",
    "EvidenceType",
    "GenDate",
    "Hypothesis",
    "ImmutableError",
    "InformationClass",
    "InputError",
    "InvariantViolation",
    "Locator",
    "LogEntry",
    "MatchStatus",
    "MergeCluster",
    "NotFound",
    "Person",
    "RankedClaim",
    "Relationship",
    "ResearchQuestion",
    "SleuthError",
    "Snapshot",
    "SourceClass",
    "Tier",
    "claim_weight",
    "id_stream",
    "new_id",
    "stable_id",
    "utcnow",
]


__getattr__ = loader("sleuth.model", _WHERE)


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
