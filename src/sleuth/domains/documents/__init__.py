"""Documents (seed 004): the dated process and the people of long official documents
(inquiries, directives, bills, regulations), every fact cited to a page and a 50-200-character
verbatim excerpt.

The deterministic extractors (`timeline`, `entities`), the agents that meet on the
blackboard (`agents`: Head Detective, Timeline, Metadata), the worker and the ingest behind
`sleuth ingest` and `sleuth work` (`work`), the process stage state machine (`stage`) and the
outputs (`exports`: timeline, entities, report).
"""

from __future__ import annotations

from sleuth.domains.base import Domain, EntityType
from sleuth.domains.documents.agents import AGENTS
from sleuth.domains.documents.cite import Pages
from sleuth.domains.documents.entities import (
    KINDS,
    ROLES,
    Entity,
    Mention,
    dedupe,
    entity_candidates,
    entity_key,
    extract_mentions,
)
from sleuth.domains.documents.exports import EXPORT_HELP, EXPORTS
from sleuth.domains.documents.links import printed_designation
from sleuth.domains.documents.rules import FIELDS, RULES, THRESHOLDS, PageCited, title_of
from sleuth.domains.documents.timeline import (
    EVENT_FIELDS,
    EVENT_TYPES,
    Event,
    event_candidates,
    extract_events,
)
from sleuth.domains.documents.work import ingest
from sleuth.model import Candidate, Snapshot

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


def extract(snap: Snapshot, raw: bytes | None = None) -> list[Candidate]:
    """Every event and entity mention of one document as firewall-ready candidates."""
    name = printed_designation(snap) or title_of(snap)
    return event_candidates(snap, subject_name=name) + entity_candidates(snap, subject_name=name)


DOMAIN = Domain(
    name="documents",
    description=__doc__.split("\n\n")[0].replace("\n", " "),
    entity_types=(EVENT, PERSON, AGENCY),
    extract=extract,
    ingest=ingest,
    rules=RULES,
    thresholds=THRESHOLDS,
    exports=EXPORTS,
    export_help=EXPORT_HELP,
    agents=AGENTS,
)

__all__ = ["DOMAIN", "EVENT_TYPES", "FIELDS", "KINDS", "ROLES", "RULES", "THRESHOLDS", "Entity",
           "Event", "Mention", "PageCited", "Pages", "dedupe", "entity_key", "extract",
           "extract_events", "extract_mentions", "title_of"]
