"""The evidence model shared by every domain (seed 000 §2, seed 001 Z schemas, seed 002 tables).

Invariants from the Z specification are enforced here, at construction, so that no code path
can even build a person who is their own parent or a hypothesis that claims to be a fact.
"""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from sleuth.model.citation import Citation, EvidenceType, Tier
from sleuth.model.dates import GenDate
from sleuth.model.ids import new_id, stable_id


def utcnow() -> datetime:
    return datetime.now(UTC)


class AssertionStatus(StrEnum):
    CANDIDATE = "candidate"
    VERIFIED = "verified"
    REJECTED = "rejected"
    PROMOTED = "promoted"
    TENTATIVE = "tentative"
    CONFLICTING = "conflicting"


class Agent(StrEnum):
    """Seed 001 AGENT, plus the people and pipeline stages that also act on a case."""

    LEAD = "Lead"
    SCOUT = "Scout"
    ANALYST = "Analyst"
    CENSOR = "Censor"
    EXTRACTOR = "Extractor"
    VALIDATOR = "Validator"
    DECISION_MAKER = "DecisionMaker"
    HUMAN = "Human"


REVISIT_REASONS: tuple[str, ...] = (
    "New hypothesis requires additional data",
    "Previous search parameters too narrow",
    "Conflict resolution requires corroboration",
    "Time-based record update check",
)

# Fields that name an event date, an event place, or a relative. Everything else is a
# plain attribute (name, sex, occupation...).
class FieldFamily(frozenset[str]):
    """Named fields plus any other field with the family's suffix.

    Records name events no fixed list foresees (GEDCOM X `divorce_date`, `probate_place`);
    they must still get a date's or a place's checks, so membership goes by suffix too.
    """

    suffix: str

    def __new__(cls, names: set[str], suffix: str) -> FieldFamily:
        family = super().__new__(cls, names)
        family.suffix = suffix
        return family

    def __contains__(self, field: object) -> bool:
        return frozenset.__contains__(self, field) or (
            isinstance(field, str) and field.endswith(self.suffix)
        )


DATE_FIELDS = FieldFamily(
    {"birth_date", "death_date", "burial_date", "baptism_date", "marriage_date",
     "residence_date"},
    "_date",
)
PLACE_FIELDS = FieldFamily(
    {"birth_place", "death_place", "burial_place", "baptism_place", "marriage_place",
     "residence"},
    "_place",
)
NAME_FIELDS = frozenset({"name"})
# Parts and variants of a name that records state separately (WikiTree, GEDCOM, FamilySearch).
NAME_PART_FIELDS = frozenset(
    {"given_name", "middle_name", "surname", "birth_surname", "name_prefix", "name_suffix",
     "name_variant", "nickname", "alias"}
)
RELATIONSHIP_FIELDS = frozenset({"parent", "child", "spouse", "sibling"})


class Snapshot(BaseModel):
    """Seed 000 SourceRecord / seed 002 raw_snapshots: an immutable copy of what was read."""

    model_config = ConfigDict(frozen=True)

    id: str = Field(default_factory=new_id)
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    url: str | None = None
    path: str | None = None
    source_name: str
    tier: Tier = Tier.TIER0
    evidence_type: EvidenceType = EvidenceType.SECONDARY
    accessed_at: datetime = Field(default_factory=utcnow)
    media_type: str = "text/plain"
    text: str
    page_starts: tuple[int, ...] = ()
    metadata: dict[str, Any] = Field(default_factory=dict)

    @property
    def origin(self) -> str:
        """Where the bytes came from: same bytes from the same origin are the same snapshot."""
        return self.url or self.path or self.source_name

    def named_by_content(self, kind: str) -> Snapshot:
        """This snapshot with an id named by `kind`, its bytes and its origin (the identity
        `put_snapshot` keeps): the same file gives the same id in every case and every run,
        whatever else the case holds or the order files came in, so ties broken by snapshot
        id, and every export, are the same twice."""
        return self.model_copy(update={"id": stable_id(kind, self.sha256, self.origin)})

    def page_of(self, offset: int) -> int | None:
        """1-based page holding a character offset, or None for unpaged text."""
        if not self.page_starts:
            return None
        page = 0
        for i, start in enumerate(self.page_starts):
            if start <= offset:
                page = i
            else:
                break
        return page + 1


class Candidate(BaseModel):
    """A proposed fact (seed 002 staging_extractions row) before the firewall has seen it.

    `subject` and `related` are keys local to one document ("p1", "p2"); the store maps
    them to persons when the candidate is promoted.
    """

    id: str = Field(default_factory=new_id)
    subject: str = Field(min_length=1)
    subject_name: str | None = None
    field: str = Field(min_length=1)
    value: str
    date: GenDate | None = None
    related: str | None = None
    related_name: str | None = None
    confidence: float
    citation: Citation | None = None
    is_fact: bool = True
    method: str = "deterministic"
    evidence_type: EvidenceType | None = None
    rationale: str = ""
    replaces: str | None = None  # an assertion id this candidate would overwrite (never allowed)


class Person(BaseModel):
    """Seed 001 Person with its two schema invariants."""

    id: str = Field(default_factory=new_id)
    canonical_name: str = ""
    given_name: str = ""
    surname: str = ""
    sex: Literal["M", "F", "U"] = "U"
    name_variants: list[str] = Field(default_factory=list)
    birth: GenDate | None = None
    death: GenDate | None = None
    birth_place: str | None = None
    death_place: str | None = None
    is_living: bool | None = None
    parents: set[str] = Field(default_factory=set)
    spouses: set[str] = Field(default_factory=set)
    children: set[str] = Field(default_factory=set)
    confidence: float = Field(default=0.5, ge=0.0, le=1.0)

    @model_validator(mode="after")
    def _z_invariants(self) -> Person:
        if len(self.parents) > 2:
            raise ValueError(f"person {self.id} has {len(self.parents)} parents; at most 2")
        if self.id in self.parents | self.spouses | self.children:
            raise ValueError(f"person {self.id} cannot be their own relative")
        return self


class Event(BaseModel):
    id: str = Field(default_factory=new_id)
    event_type: str
    date: GenDate | None = None
    place: str | None = None
    participants: dict[str, str] = Field(default_factory=dict)  # role -> person id
    confidence: float = Field(default=0.5, ge=0.0, le=1.0)


class Relationship(BaseModel):
    """person1 is `relationship_type` of person2 (parent: person1 is parent of person2)."""

    id: str = Field(default_factory=new_id)
    person1_id: str
    person2_id: str
    relationship_type: Literal["parent", "spouse"]
    start: GenDate | None = None
    end: GenDate | None = None
    confidence: float = Field(default=0.5, ge=0.0, le=1.0)

    @model_validator(mode="after")
    def _not_self(self) -> Relationship:
        if self.person1_id == self.person2_id:
            raise ValueError(
                f"person {self.person1_id} cannot be their own {self.relationship_type}"
            )
        return self


class Assertion(BaseModel):
    """Seed 000 Assertion: one value of one field of one entity, with its citations."""

    id: str = Field(default_factory=new_id)
    entity_id: str
    entity_type: Literal["person", "event", "relationship"] = "person"
    field_name: str
    value: str
    date: GenDate | None = None
    confidence: float = Field(ge=0.0, le=1.0)
    status: AssertionStatus = AssertionStatus.CANDIDATE
    asserted_at: datetime = Field(default_factory=utcnow)
    citations: list[Citation] = Field(default_factory=list)
    # The relative a parent/child/spouse claim links (stored with the assertion): a tree's
    # `1 CHIL @I3@` names the relative by xref, so the claim is found by this, not its value.
    related_id: str | None = None


class Hypothesis(BaseModel):
    """Seed 001 ClueHypothesis: a lead, never a fact, generated only by the Analyst."""

    id: str = Field(default_factory=new_id)
    hypothesis_type: str
    statement: str
    target_person: str | None = None
    related_person: str | None = None  # who a same-person hypothesis proposes the target is
    suggested_queries: list[str] = Field(default_factory=list)
    suggested_sources: list[str] = Field(default_factory=list)
    priority: float = Field(ge=0.0, le=1.0)
    status: Literal["Pending", "InProgress", "Completed", "Rejected"] = "Pending"
    generated_by: Literal[Agent.ANALYST] = Agent.ANALYST
    is_fact: Literal[False] = False
    evidence: list[Citation] = Field(default_factory=list)


class MergeCluster(BaseModel):
    id: str = Field(default_factory=new_id)
    canonical_id: str
    member_ids: list[str]
    merge_rationale: str
    why_not_split: str = ""
    is_reversible: Literal[True] = True
    created_at: datetime = Field(default_factory=utcnow)


class LogEntry(BaseModel):
    """Seed 001 LogEntry: a revisit without a documented reason cannot exist."""

    id: str = Field(default_factory=new_id)
    timestamp: datetime = Field(default_factory=utcnow)
    agent: Agent
    action_type: str
    rationale: str = ""
    context: dict[str, Any] = Field(default_factory=dict)
    revisit_reason: str | None = None

    @model_validator(mode="after")
    def _revisit_has_reason(self) -> LogEntry:
        if self.action_type == "revisit":
            if not self.revisit_reason:
                raise ValueError("a revisit log entry needs a revisit_reason")
            if self.revisit_reason not in REVISIT_REASONS:
                raise ValueError(
                    f"revisit reason {self.revisit_reason!r} is not one of {list(REVISIT_REASONS)}"
                )
        return self


class AuditEntry(BaseModel):
    id: int | None = None
    action_type: str
    entity_type: str
    entity_id: str
    before_state: dict[str, Any] | None = None
    after_state: dict[str, Any] | None = None
    agent_name: str
    reason: str = ""
    timestamp: datetime = Field(default_factory=utcnow)
