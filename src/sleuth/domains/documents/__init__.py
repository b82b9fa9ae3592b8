"""Documents (seed 004): the dated process and the people of long official documents
(inquiries, directives, bills, regulations), every fact cited to a page and a 50-200-character
verbatim excerpt.

This package holds the deterministic extractors (`timeline`, `entities`) and the domain's
declaration. The agents, the blackboard and the commands come next: until they exist the
domain is not registered in `sleuth.domains.DOMAINS` (its `ingest` says so), and it writes no
outputs yet (`exports` is an empty mapping).
"""

from __future__ import annotations

import re
from typing import Any

from sleuth.domains.base import Domain, EntityType
from sleuth.domains.documents.cite import EXCERPT_MAX, EXCERPT_MIN, Pages
from sleuth.domains.documents.entities import (
    ENTITY_FIELDS,
    KINDS,
    ROLES,
    Entity,
    Mention,
    dedupe,
    entity_candidates,
    entity_key,
    extract_mentions,
)
from sleuth.domains.documents.timeline import (
    EVENT_FIELDS,
    EVENT_TYPES,
    Event,
    event_candidates,
    extract_events,
)
from sleuth.model import Candidate, InputError, Snapshot
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

EVENT = EntityType(
    "event",
    "a dated step of the document's own process (directive, appointment, report, "
    "proposition, law, or other with a description), with page, excerpt and actors",
    EVENT_FIELDS,
    required=("date", "page", "excerpt"),
)
PERSON = EntityType(
    "person",
    "someone the document names in a role (chair, member, expert, secretary, minister, other) "
    "with the document's own wording",
    frozenset(f"person_{r}" for r in ROLES),
    required=("name", "role", "page", "excerpt"),
)
AGENCY = EntityType(
    "agency",
    "an agency, ministry or committee the document names in a role",
    frozenset(f"{k}_{r}" for k in KINDS if k != "person" for r in ROLES),
    required=("name", "role", "page", "excerpt"),
)


_DESIGNATION = re.compile(
    r"\b(SOU|Dir\.|Prop\.|AFS)\s*(\d{4}(?:/\d{2})?)\s*:\s*(\d+)\b"
    r"|\b(REGULATION|DIRECTIVE) \(EU\) (\d{4}/\d+)|FR Doc\. (\d{4}.\d+)")


def title_of(snap: Snapshot) -> str | None:
    """The document's own designation where its text prints one ("SOU 1972:47", "Dir.
    2016:15", "REGULATION (EU) 2016/679", "FR Doc. 2020–17221"), else its first line."""
    m = _DESIGNATION.search(snap.text)
    if m and m.group(1):
        return f"{m.group(1)} {m.group(2)}:{m.group(3)}"
    if m:
        return " ".join(m.group(0).split())
    for line in snap.text.splitlines():
        words = line.split()
        if sum(ch.isalpha() for ch in line) >= 4:
            return " ".join(words)[:80].rsplit(" ", 1)[0] if len(line) > 80 else " ".join(words)
    return None


def extract(snap: Snapshot, raw: bytes | None = None) -> list[Candidate]:
    """Every event and entity mention of one document as firewall-ready candidates."""
    name = title_of(snap)
    return event_candidates(snap, subject_name=name) + entity_candidates(snap, subject_name=name)


def ingest(*args: Any, **kwargs: Any) -> Any:
    raise InputError("the documents domain stores nothing yet: its agents, blackboard and "
                     "commands are the next step", field="--domain")


DOMAIN = Domain(
    name="documents",
    description=__doc__.split("\n\n")[0].replace("\n", " "),
    entity_types=(EVENT, PERSON, AGENCY),
    extract=extract,
    ingest=ingest,
    rules=RULES,
    thresholds=THRESHOLDS,
    exports={},
    export_help={},
)

__all__ = ["DOMAIN", "EVENT_TYPES", "FIELDS", "KINDS", "ROLES", "RULES", "THRESHOLDS", "Entity",
           "Event", "Mention", "PageCited", "Pages", "dedupe", "entity_key", "extract",
           "extract_events", "extract_mentions"]
