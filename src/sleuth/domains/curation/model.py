"""A curation candidate exactly as seed 002's Extractor Output Schema, and its evidence.

`CurationCandidate` is what the Extractor writes to staging: `candidate_type`,
`candidate_key` (`fprime:Svc:TlmChan`, `fprime:Svc:TlmChan:port:TlmRecv`), the typed
`candidate_payload`, `confidence_score` with its `confidence_reason` (seed 002 rubric),
`evidence` `{text, source {doc, lines}}` and `evidence_type`, and `status`, always
`pending`. The evidence text is the file's own text at those lines (`evidence_at`), so
`evidence_holds` and the firewall (`as_candidate` -> `sleuth.verify`) can find it there.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from sleuth.model import Candidate, Citation, Locator, Snapshot

CandidateType = Literal["component", "port_type", "port", "command", "telemetry", "event",
                        "parameter", "instance", "connection", "requirement"]
CANDIDATE_TYPES: tuple[str, ...] = ("component", "port_type", "port", "command", "telemetry",
                                    "event", "parameter", "instance", "connection",
                                    "requirement")
EvidenceKind = Literal["interface_contract", "formal_definition", "topology", "design_table",
                       "requirement", "narrative"]
# Seed 002 rubric: HIGH 0.80-1.00, MEDIUM 0.50-0.79, LOW 0.00-0.49.
HIGH, MEDIUM, LOW = 0.80, 0.50, 0.0


def level(score: float) -> str:
    """The rubric's name for a score."""
    return "HIGH" if score >= HIGH else "MEDIUM" if score >= MEDIUM else "LOW"


class EvidenceSource(BaseModel):
    model_config = ConfigDict(frozen=True)

    doc: str = Field(min_length=1)
    lines: tuple[int, int]

    @model_validator(mode="after")
    def _ordered(self) -> EvidenceSource:
        a, b = self.lines
        if not 1 <= a <= b:
            raise ValueError(f"lines {self.lines} must be 1 <= first <= last")
        return self


class Evidence(BaseModel):
    model_config = ConfigDict(frozen=True)

    text: str = Field(min_length=1)
    source: EvidenceSource


class CurationCandidate(BaseModel):
    """One staging extraction (seed 002 `staging_extractions`), as the Extractor writes it."""

    model_config = ConfigDict(frozen=True)

    candidate_type: CandidateType
    candidate_key: str = Field(pattern=r"^fprime(:[^:\s]+)+$")
    candidate_payload: dict[str, Any]
    confidence_score: float = Field(ge=0.0, le=1.0)
    confidence_reason: str = Field(min_length=1)
    evidence: Evidence
    evidence_type: EvidenceKind
    status: Literal["pending"] = "pending"

    @property
    def name(self) -> str:
        return str(self.candidate_payload.get("name", ""))

    @property
    def owner(self) -> str | None:
        """The owning component (`Svc.TlmChan`) of a port, command, event, channel or
        parameter; None for what no component owns."""
        owner = self.candidate_payload.get("component")
        return str(owner) if owner and self.candidate_type not in ("instance",) else None


# -- evidence at lines -------------------------------------------------------------------


def line_starts(text: str) -> list[int]:
    """The offset of each line's first character (line n at index n - 1), plus len(text)."""
    starts = [0]
    starts.extend(i + 1 for i, ch in enumerate(text) if ch == "\n")
    if starts[-1] != len(text):
        starts.append(len(text))
    return starts


def span_of(text: str, lines: tuple[int, int], starts: list[int] | None = None
            ) -> tuple[int, int]:
    """The character span of lines [first, last] without the whitespace around it."""
    starts = starts if starts is not None else line_starts(text)
    a, b = lines
    if not 1 <= a <= b <= len(starts) - 1:
        raise ValueError(f"lines {lines} are outside a text of {len(starts) - 1} lines")
    lo, hi = starts[a - 1], starts[b]
    piece = text[lo:hi]
    lead = len(piece) - len(piece.lstrip())
    return lo + lead, lo + len(piece.rstrip())


def evidence_at(text: str, doc: str, lines: tuple[int, int],
                starts: list[int] | None = None) -> Evidence:
    """The file's own text at lines [first, last] (stripped of the whitespace around it)."""
    lo, hi = span_of(text, lines, starts)
    return Evidence(text=text[lo:hi], source=EvidenceSource(doc=doc, lines=lines))


def evidence_holds(c: CurationCandidate, text: str) -> bool:
    """Is the candidate's evidence text verbatim at its cited lines of `text`?"""
    try:
        lo, hi = span_of(text, c.evidence.source.lines)
    except ValueError:
        return False
    return text[lo:hi] == c.evidence.text


class StagedCuration(Candidate):
    """A curation candidate as the core pipeline sees it (`sleuth.model.Candidate`): the
    subject is the candidate key, the field its type, the value its name, the citation its
    evidence as a character span; the typed payload rides along for the domain's rules."""

    candidate_type: str
    payload: dict[str, Any] = Field(default_factory=dict)
    evidence_kind: str = ""


def as_candidate(c: CurationCandidate, snap: Snapshot) -> StagedCuration:
    """The candidate for the firewall and validator, cited into `snap` (the file's text)."""
    lo, hi = span_of(snap.text, c.evidence.source.lines)
    return StagedCuration(
        subject=c.candidate_key, subject_name=c.name or None, field=c.candidate_type,
        value=c.name, confidence=c.confidence_score, rationale=c.confidence_reason,
        method="fpp_reader" if c.evidence_type in ("interface_contract", "formal_definition",
                                                   "topology") else "sdd_prose",
        citation=Citation(snapshot_id=snap.id, excerpt=c.evidence.text,
                          locator=Locator(start=lo, end=hi, line=c.evidence.source.lines[0]),
                          extraction_method="deterministic",
                          rationale=c.confidence_reason),
        candidate_type=c.candidate_type, payload=dict(c.candidate_payload),
        evidence_kind=c.evidence_type)
