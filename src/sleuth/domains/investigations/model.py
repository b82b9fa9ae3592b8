"""The investigation's records: sources, gaps, questions, statements and their checks.

Plain dataclasses that go to and come from JSON (`_state.json`, `_extraction.json`) as they
are; nothing here reads a file or a store.
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass, field, fields
from typing import Any, TypeVar

# Seed 003's verdicts, and what the verifier's (`sleuth.verify.claims`) map to.
VERIFIED, NOT_FOUND, CONTRADICTED, NO_EVIDENCE = "VERIFIED", "NOT_FOUND", "CONTRADICTED", \
    "NO_EVIDENCE"
VERDICT_OF = {
    "supported": VERIFIED,
    "partially_supported": NOT_FOUND,  # a part of the claim is not in the evidence
    "not_supported": NOT_FOUND,
    "not_found": NOT_FOUND,  # the evidence does not address the claim
    "contradicted": CONTRADICTED,
}

# Gap kinds, and what closes each.
GAP_PATHS = {
    "unverified": "revise the statement to what its evidence shows, or capture evidence",
    "no_evidence": "capture the source the statement cites",
    "contradicted": "state every position, each attributed to its own source",
    "capture_failed": "repair or replace the file, then `sleuth resume` the case",
    "bad_input": "give a question, then start the investigation again",
    "unanswered": "search the corpus for the questions that ask it",
    "source_unreachable": "`sleuth resume` the case when the source answers again",
    "unread": "capture it: a corpus file above the question's relevance bar not yet read",
}

T = TypeVar("T")


def short_id(*parts: str) -> str:
    """A 12-hex id named by its content (stable across runs and processes)."""
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:12]


def _from(cls: type[T], data: dict[str, Any]) -> T:
    names = {f.name for f in fields(cls)}  # type: ignore[arg-type]
    return cls(**{k: v for k, v in data.items() if k in names})


@dataclass
class SourceRecord:
    """One source in the registry (`sources.md`): captured, or a capture that failed."""

    id: str  # S001, S002 ...
    path: str
    status: str = "captured"  # captured | failed
    sha256: str = ""
    snapshot_id: str = ""
    captured_at: str = ""
    title: str = ""
    media_type: str = ""
    pages: int = 0
    language: str = ""
    error: str = ""
    rendering: str = ""  # the PDF/PNG capture: "PDF and PNG", or why there is none
    query: str = ""  # the search that led to it
    iteration: int = 0

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SourceRecord:
        return _from(cls, data)


@dataclass
class Gap:
    """Something that keeps the investigation from completing, and what would close it."""

    id: str
    kind: str
    text: str
    path: str
    since: int = 0
    ref: str = ""  # the statement, source or ask it is about

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Gap:
        return _from(cls, data)

    @classmethod
    def of(cls, kind: str, text: str, *, ref: str = "", since: int = 0) -> Gap:
        return cls(short_id(kind, ref or text), kind, text, GAP_PATHS[kind], since, ref)


@dataclass
class Question:
    """A question a framework asked of the extraction, with the search it leads to."""

    id: str
    framework: str
    stage: str  # early | mid | stuck | late
    text: str
    query: list[str]
    critical: bool = False  # in the finale: new evidence it finds sends the case back
    status: str = "open"  # open | searched
    asked_in: int = 0
    result: str = ""
    origin: str = ""  # "" for a framework's own question; `model:<role>` for a model's lead

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        if not self.origin:  # the deterministic questions' records stay as they were
            del out["origin"]
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Question:
        return _from(cls, data)


@dataclass
class Statement:
    """One sentence of the deliverable, or one position of a contested claim.

    `text` is the sentence as written (English); `claim` the wording checked against the
    evidence: the sentence itself for a source in English, else the same fact in the
    source's own language and words (names, date phrase, the verb and role it uses)."""

    id: str
    kind: str  # directive | appointment | committee | report | proposal | event | statement
    ask: str  # the part of the question it answers: who | what | when | why | where | how
    text: str
    claim: str
    source_id: str
    snapshot_id: str
    start: int  # the quote's span in the snapshot text
    end: int
    quote: str
    page: int | None = None
    page_label: str = ""
    names: list[str] = field(default_factory=list)
    numbers: list[str] = field(default_factory=list)  # years, days and counts it states
    sort: str = ""  # date order (ISO), then text order
    section: str = ""
    contested: str = ""  # the contested claim's key, when it is one position of it
    position: str = ""  # whose position ("S001: 9 May 1969")

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Statement:
        return _from(cls, data)


@dataclass
class Check:
    """A statement's verification: the seed's verdict, the verifier's, and the evidence."""

    statement_id: str
    verdict: str  # VERIFIED | NOT_FOUND | CONTRADICTED | NO_EVIDENCE
    verifier_verdict: str  # the verifier's own (supported, not_found, ...) or "" for none
    rationale: str
    evidence: list[dict[str, Any]] = field(default_factory=list)
    unsupported: list[str] = field(default_factory=list)
    against: list[dict[str, Any]] = field(default_factory=list)  # other sources' verdicts

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Check:
        return _from(cls, data)
