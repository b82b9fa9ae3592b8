"""The documents domain's validator rules and decision thresholds, and a document's own
designation: what the agents and the domain's declaration share."""

from __future__ import annotations

from sleuth.domains.documents.cite import EXCERPT_MAX, EXCERPT_MIN
from sleuth.domains.documents.entities import ENTITY_FIELDS
from sleuth.domains.documents.links import own_designation
from sleuth.domains.documents.timeline import EVENT_FIELDS
from sleuth.model import Candidate, Snapshot
from sleuth.pipeline.decision import Thresholds
from sleuth.pipeline.validator import (
    ConfidenceMatchesEvidence,
    DatePlausible,
    EvidencePresent,
    Finding,
    RequiredFields,
    Rule,
)

FIELDS = EVENT_FIELDS | ENTITY_FIELDS


class PageCited:
    """A documents candidate must name its page and quote 50-200 characters of it (seed 004:
    "every extracted fact must include page + excerpt")."""

    name = "page_cited"

    def __call__(self, c: Candidate) -> Finding | None:
        if c.field not in FIELDS:
            return None
        if c.citation is None or c.citation.locator.page is None:
            return Finding("reject", f"{c.field} has no page",
                           "Cite the page the fact is printed on")
        n = len(c.citation.excerpt)
        if not EXCERPT_MIN <= n <= EXCERPT_MAX:
            return Finding("reject", f"excerpt of {n} characters; a documents fact quotes "
                           f"{EXCERPT_MIN}-{EXCERPT_MAX}",
                           f"Quote {EXCERPT_MIN}-{EXCERPT_MAX} characters around the fact")
        return None


RULES: tuple[Rule, ...] = (EvidencePresent(), PageCited(), RequiredFields(), DatePlausible(),
                           ConfidenceMatchesEvidence())
# Deterministic, page-cited extractions: promoted at 0.85, reviewed from 0.5.
THRESHOLDS = Thresholds(auto_promote=0.85, normal_review=0.5)


def title_of(snap: Snapshot, *, heading_only: bool = False) -> str | None:
    """The document's own designation where its text prints one ("SOU 1972:47", "Dir.
    2016:15", "REGULATION (EU) 2016/679", "FR Doc. 2020–17221"; `links.own_designation`),
    else its first line, cut to 80 characters; with `heading_only`, None for a first line
    too long to be a heading (prose: half a sentence names nothing)."""
    own = own_designation(snap)
    if own is not None:
        return own[0]
    for line in snap.text.splitlines():
        words = line.split()
        if sum(ch.isalpha() for ch in line) >= 4:
            if len(line) <= 80:
                return " ".join(words)
            return None if heading_only else " ".join(words)[:80].rsplit(" ", 1)[0]
    return None
