"""The Validator (seed 002 agent 2): checks the extractor's work, never edits it.

Rules are small named classes composed into a list (Splink's comparison vocabulary): each
looks at one candidate and either passes or says what more evidence it needs, with a concrete
request the extractor can act on.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Protocol

from sleuth.model import DATE_FIELDS, NAME_FIELDS, RELATIONSHIP_FIELDS, Candidate, utcnow

Verdict = Literal["acceptable", "needs_more_evidence", "reject"]
WIDEN_REQUEST = "widen the excerpt to the full sentence"
# Round trips to the extractor for a candidate the validator asks more of (staging's
# default); here, not in staging, so that `ingest` names it without importing the store.
DEFAULT_REFINEMENT_LIMIT = 3


@dataclass(frozen=True)
class Finding:
    decision: Verdict
    reason: str
    request: str | None = None
    missing: tuple[str, ...] = ()


@dataclass(frozen=True)
class Validation:
    decision: Verdict
    reason: str
    request: str | None = None
    missing_fields: tuple[str, ...] = field(default_factory=tuple)

    @property
    def acceptable(self) -> bool:
        return self.decision == "acceptable"


class Rule(Protocol):
    name: str

    def __call__(self, c: Candidate) -> Finding | None: ...


class EvidencePresent:
    name = "evidence_present"

    def __call__(self, c: Candidate) -> Finding | None:
        if c.citation is None or not c.citation.excerpt.strip():
            return Finding(
                "needs_more_evidence",
                "No evidence text provided",
                "Extract the exact source quote supporting this candidate",
            )
        return None


class ExcerptHasContext:
    """An excerpt that is little more than the value itself proves nothing about whose it is."""

    name = "excerpt_has_context"

    def __init__(self, min_extra_chars: int = 8) -> None:
        self.min_extra_chars = min_extra_chars

    def __call__(self, c: Candidate) -> Finding | None:
        if c.citation is None:
            return None
        excerpt = c.citation.excerpt.strip()
        if len(excerpt) < len(c.value.strip()) + self.min_extra_chars:
            return Finding(
                "needs_more_evidence",
                f"Excerpt {excerpt[:40]!r} gives no context for the {c.field}",
                WIDEN_REQUEST,
            )
        return None


class ConfidenceMatchesEvidence:
    """Seed 002: confidence too high for inferred (narrative-only) evidence."""

    name = "confidence_matches_evidence"

    def __init__(self, max_inferred: float = 0.6) -> None:
        self.max_inferred = max_inferred

    def __call__(self, c: Candidate) -> Finding | None:
        if c.method == "inference" and c.confidence > self.max_inferred:
            return Finding(
                "needs_more_evidence",
                f"Confidence {c.confidence:.2f} too high for inferred evidence",
                "Find an explicit statement in the source or lower the confidence",
            )
        return None


class RequiredFields:
    """What each kind of fact must carry to be complete."""

    name = "required_fields"

    def __call__(self, c: Candidate) -> Finding | None:
        missing: list[str] = []
        if not c.subject_name:
            missing.append("subject_name")
        # a date kept as written (a tree's `31 FEB 1900`) has its words, not a range
        if c.field in DATE_FIELDS and (
            c.date is None or (not c.date.earliest and not c.date.latest
                               and not c.date.original)
        ):
            missing.append("date")
        if c.field in RELATIONSHIP_FIELDS and not (c.related and c.related_name):
            missing.append("related_name")
        if c.field in NAME_FIELDS and not any(ch.isalpha() for ch in c.value):
            missing.append("name")
        if not c.value.strip():
            missing.append("value")
        if missing:
            return Finding(
                "needs_more_evidence",
                f"Missing required fields: {missing}",
                f"Extract {missing} from source document",
                tuple(missing),
            )
        return None


class ValueWellFormed:
    """Coded fields take coded values: sex is M, F or U; an age is a number."""

    name = "value_well_formed"

    def __call__(self, c: Candidate) -> Finding | None:
        if c.field == "sex" and c.value not in {"M", "F", "U"}:
            return Finding("reject", f"Sex must be M, F or U, not {c.value!r}")
        if c.field == "age_at_death" and not c.value.replace(".", "", 1).isdigit():
            return Finding("reject", f"Age at death must be a number, not {c.value!r}")
        return None


class DatePlausible:
    """A date after today is not history; a reversed range cannot reach here (model rule)."""

    name = "date_plausible"

    def __call__(self, c: Candidate) -> Finding | None:
        if c.date and c.date.earliest and c.date.earliest > utcnow().date():
            return Finding("reject", f"Date {c.value} is in the future")
        return None


DEFAULT_RULES: tuple[Rule, ...] = (
    EvidencePresent(),
    RequiredFields(),
    ValueWellFormed(),
    DatePlausible(),
    ExcerptHasContext(),
    ConfidenceMatchesEvidence(),
)


def validate(c: Candidate, rules: tuple[Rule, ...] = DEFAULT_RULES) -> Validation:
    """First failing rule decides; missing fields from RequiredFields are always reported."""
    for rule in rules:
        finding = rule(c)
        if finding is None:
            continue
        return Validation(
            finding.decision, f"{rule.name}: {finding.reason}", finding.request, finding.missing
        )
    return ACCEPTABLE


# The verdict of every candidate no rule objects to: one frozen value, shared.
ACCEPTABLE = Validation("acceptable", "Evidence supports confidence level", None, ())
