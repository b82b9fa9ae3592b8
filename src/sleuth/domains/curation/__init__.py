"""Curation (seed 002, PROVES): a typed knowledge base of a technical system (F´), every
entity a candidate with its definition's own lines as evidence.

`fpp` reads the FPP subset F´'s files use (line numbers kept), `candidates` turns its
definitions into seed 002 candidates (`model.CurationCandidate`), `prose` proposes the same
types from the SDD Markdown at MEDIUM or LOW confidence, `census` counts definitions by an
independent line method, `rules` declares the entity types, validator rules and thresholds.
Not built yet: ingest, the agents, the refinement loop, equivalences, exports and search, so
`sleuth.domains.DOMAINS["curation"]` stays None.
"""

from __future__ import annotations

from typing import Any

from sleuth.domains.base import Domain
from sleuth.domains.curation.candidates import file_candidates, folder_candidates
from sleuth.domains.curation.fpp import Decl, FppSyntaxError, read, read_tree
from sleuth.domains.curation.model import (
    CANDIDATE_TYPES,
    CurationCandidate,
    StagedCuration,
    as_candidate,
    evidence_holds,
)
from sleuth.domains.curation.prose import sdd_candidates
from sleuth.domains.curation.rules import ENTITY_TYPES, REQUIRED, RULES, THRESHOLDS
from sleuth.model import Candidate, InputError, Snapshot


def candidates_of(snap: Snapshot) -> list[CurationCandidate]:
    """The seed 002 candidates of one stored file, by its name: FPP (`.fpp`, `.fppi`) or
    SDD Markdown (`.md`); other files have none."""
    doc = (snap.path or snap.url or snap.source_name).replace("\\", "/").rsplit("/", 1)[-1]
    if doc.endswith((".fpp", ".fppi")):
        return file_candidates(snap.text, doc)
    if doc.endswith(".md") and doc != "INDEX.md":
        return sdd_candidates(snap.text, doc)
    return []


def extract(snap: Snapshot, raw: bytes | None = None) -> list[Candidate]:
    """Every candidate of one file, firewall-ready (`model.as_candidate`)."""
    return [as_candidate(c, snap) for c in candidates_of(snap)]


def _not_built(*_: Any, **__: Any) -> Any:
    raise InputError("the curation domain's ingest is not built yet", field="--domain")


DOMAIN = Domain(
    name="curation",
    description=__doc__.split("\n\n")[0].replace("\n", " "),
    entity_types=ENTITY_TYPES,
    extract=extract,
    ingest=_not_built,
    rules=RULES,
    thresholds=THRESHOLDS,
)

__all__ = ["CANDIDATE_TYPES", "DOMAIN", "REQUIRED", "RULES", "THRESHOLDS", "CurationCandidate",
           "Decl", "FppSyntaxError", "StagedCuration", "as_candidate", "candidates_of",
           "evidence_holds", "extract", "folder_candidates", "read", "read_tree",
           "sdd_candidates"]
