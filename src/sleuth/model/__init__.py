"""The evidence model: importable without the database, the network or any extractor."""

from sleuth.model.citation import Citation, EvidenceType, Locator, MatchStatus, Tier
from sleuth.model.dates import DateQualifier, GenDate
from sleuth.model.errors import (
    ImmutableError,
    InputError,
    InvariantViolation,
    NotFound,
    SleuthError,
)
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
    Task,
    new_id,
    utcnow,
)
from sleuth.model.weights import EVIDENCE_WEIGHT, TIER_WEIGHT, claim_weight

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
    "Citation",
    "DateQualifier",
    "Event",
    "EvidenceType",
    "GenDate",
    "Hypothesis",
    "ImmutableError",
    "InputError",
    "InvariantViolation",
    "Locator",
    "LogEntry",
    "MatchStatus",
    "MergeCluster",
    "NotFound",
    "Person",
    "Relationship",
    "SleuthError",
    "Snapshot",
    "Task",
    "Tier",
    "claim_weight",
    "new_id",
    "utcnow",
]

from sleuth.model.graph import CaseGraph, Conflict, RankedClaim

__all__ += ["CaseGraph", "Conflict", "RankedClaim"]

from sleuth.model.evidence import (  # noqa: E402
    EvidenceClass,
    InformationClass,
    ResearchQuestion,
    SourceClass,
)

__all__ += ["EvidenceClass", "InformationClass", "ResearchQuestion", "SourceClass"]
