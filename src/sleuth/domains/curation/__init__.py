"""Curation (seed 002, PROVES): a typed knowledge base of a technical system (F´), every
entity a candidate with its definition's own lines as evidence.

`fpp` reads the FPP subset F´'s files use (line numbers kept), `candidates` turns its
definitions into seed 002 candidates (`model.CurationCandidate`), `prose` proposes the same
types from the SDD Markdown at MEDIUM or LOW confidence, `census` counts definitions by an
independent line method, `rules` declares the entity types (their required fields), validator
rules and thresholds. `work` is `sleuth ingest` (snapshots and extraction tasks), `agents`
the blackboard's Extractor and refinement tasks, `loop` seed 002's refinement loop on
LangGraph (Validator ⇄ Extractor → Decision Maker, with the seed's limits), `match` finds
the core entity a prose candidate is (equivalences and conflicts), `graph` builds the entity
graph and `exports` writes entities, equivalences, conflicts, review and the graph; `search`
(with `chunking` and `embeddings`) indexes the stored files and the core entities for
`sleuth search`. Every agent writes through its handle (`sleuth.store.curation`), under a
database role that refuses what seed 002 forbids it.
"""

from __future__ import annotations

from sleuth.domains.base import Domain
from sleuth.domains.curation.agents import AGENTS
from sleuth.domains.curation.candidates import file_candidates, folder_candidates
from sleuth.domains.curation.exports import EXPORT_HELP, EXPORTS
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
from sleuth.domains.curation.work import ingest
from sleuth.model import Candidate, Snapshot
from sleuth.store.store import Store


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


def after_work(store: Store) -> str:
    """The search index after `sleuth work` (`search.index_after_work`; numpy and the
    embedding model load only here, not with the domain)."""
    from sleuth.domains.curation.search import index_after_work

    return index_after_work(store)


def case_line(store: Store) -> str:
    """`sleuth ingest`'s closing line: the curation review queue, not genealogy's."""
    from sleuth.store.curation import case_summary

    with store.engine.connect() as conn:
        c = case_summary(conn)
    return (f"case: {c['snapshots']} snapshots, {c['core_entities']} core entities, "
            f"{c['review_open']} open review items")


DOMAIN = Domain(
    name="curation",
    description=__doc__.split("\n\n")[0].replace("\n", " "),
    entity_types=ENTITY_TYPES,
    extract=extract,
    ingest=ingest,
    rules=RULES,
    thresholds=THRESHOLDS,
    exports=EXPORTS,
    export_help=EXPORT_HELP,
    agents=AGENTS,
    after_work=after_work,
    case_line=case_line,
)

__all__ = ["CANDIDATE_TYPES", "DOMAIN", "REQUIRED", "RULES", "THRESHOLDS", "CurationCandidate",
           "Decl", "FppSyntaxError", "StagedCuration", "as_candidate", "candidates_of",
           "evidence_holds", "extract", "folder_candidates", "read", "read_tree",
           "sdd_candidates"]
