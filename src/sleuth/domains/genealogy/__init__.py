"""Genealogy (seeds 000 and 001): persons, their vital events and their relationships, read
from records, trees and prose, and written out as a report, GEDCOM and linked data."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sleuth.domains.base import Domain, EntityType, Export
from sleuth.model import RELATIONSHIP_FIELDS
from sleuth.pipeline.decision import SEED_002
from sleuth.pipeline.ingest import extract_for, ingest_path
from sleuth.pipeline.validator import DEFAULT_RULES


class _PersonFields:
    """Every field but a relationship (and a merge proposal, which names two persons):
    records state a person's attributes under many names (`birth_date`, `census_date`,
    `fs_pid`, `occupation`), and each is promoted onto the person."""

    def __contains__(self, field: object) -> bool:
        return isinstance(field, str) and field not in RELATIONSHIP_FIELDS and (
            field != "same_person")


PERSON = EntityType(
    "person",
    "someone a record names: names, vital events and their dates and places, and the "
    "attributes a record states of them (sex, occupation, identifiers)",
    _PersonFields(),
    required=("subject_name",),
)
RELATIONSHIP = EntityType(
    "relationship",
    "two persons a record names together as parent and child, spouses or siblings",
    frozenset(RELATIONSHIP_FIELDS),
    required=("subject_name", "related_name"),
)

EXPORT_HELP = {
    "report": "Markdown report with GPS proof arguments",
    "html": "self-contained HTML report",
    "jsonld": "schema.org JSON-LD",
    "gedcom": "GEDCOM 5.5.1",
    "gedcom7": "GEDCOM 7.0",
    "gedcomx": "GEDCOM X JSON",
    "log": "research log, JSON lines",
}


def _export(fmt: str) -> Export:
    def run(store: Any, case_dir: Path) -> str:
        # Imported here, not at the top: the exporters (report, GEDCOM, GPS proof) load
        # only for `sleuth export`, not for `ingest` (start-up time, issue 19).
        from sleuth.domains.genealogy.exports import EXPORTS

        text: str = EXPORTS[fmt](store, case_dir)
        return text

    return run


DOMAIN = Domain(
    name="genealogy",
    description=__doc__.split("\n\n")[0].replace("\n", " "),
    entity_types=(PERSON, RELATIONSHIP),
    extract=extract_for,
    ingest=ingest_path,
    rules=DEFAULT_RULES,
    thresholds=SEED_002,
    exports={fmt: _export(fmt) for fmt in EXPORT_HELP},
    export_help=EXPORT_HELP,
)
