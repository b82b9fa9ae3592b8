"""Investigations (seed 003): a contested question investigated until every statement of the
deliverable is verified against captured evidence and no gap remains.

`sleuth investigate "question" --out CASE --corpus DIR` makes the case folder its own git
repository and a sleuth case (its store holds every captured source as a snapshot), then
runs the loop (`loop`): the phases as a state machine (`phases`), research over the corpus
(`corpus`, leads only), capture (`capture`: `evidence/SXXX/` and the store), deterministic
extraction (`extraction`), the frameworks' questions (`frameworks`), statements composed for
the question (`statements`) and verified with the claim verifier (`verification`), the
Markdown files (`render`), the finale's integrity check and legal review (`finale`), living
private persons kept out (`protect`) and one commit per iteration (`repo`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sleuth.domains.base import Domain, EntityType
from sleuth.model import Candidate, EvidenceType, InputError, Snapshot, stable_id
from sleuth.sources import load_file
from sleuth.store.store import Store

SOURCE = EntityType("source", "a captured source: the stored snapshot of a corpus file, "
                    "with its id (S001...) and hash in evidence/", frozenset())


def extract(snap: Snapshot, raw: bytes | None = None) -> list[Candidate]:
    """An investigation promotes nothing through the candidate pipeline: its statements are
    checked by the claim verifier against the captured text instead."""
    return []


@dataclass
class Stored:
    path: str
    snapshot_id: str
    summary: str


def ingest(store: Store, path: Path, *, source_name: str = "local file",
           evidence_type: EvidenceType = EvidenceType.SECONDARY, **_: Any) -> Stored:
    """Store a file as a snapshot of the case (the loop captures its sources from the
    corpus; a file ingested by hand is kept, not cited)."""
    loaded = load_file(path, source_name=source_name, evidence_type=evidence_type)
    snap = loaded.snapshot.model_copy(update={"id": stable_id(
        "investigation", loaded.snapshot.sha256, loaded.snapshot.origin)})
    with store.transaction() as tx:
        stored, created = store.put_snapshot(tx, loaded.raw, snap)
    state = "stored" if created else "already stored"
    return Stored(str(path), stored.id, f"{state} as snapshot {stored.id}; an investigation "
                  "cites what it captures from its --corpus")


def _file(name: str) -> Any:
    def export(store: Store, case_dir: Path) -> str:
        path = case_dir / name
        if not path.exists():
            raise InputError(f"no {name} yet: run `sleuth investigate` or `sleuth resume`",
                             file=str(case_dir))
        return path.read_text(encoding="utf-8")
    return export


EXPORTS = {"summary": _file("summary.md"), "fact-check": _file("fact-check.md"),
           "state": _file("_state.json")}
EXPORT_HELP = {"summary": "summary.md: the deliverable, every sentence footnoted and verified",
               "fact-check": "fact-check.md: every statement with its verdict and evidence",
               "state": "_state.json: phase, iteration, gaps, termination"}

DOMAIN = Domain(
    name="investigations",
    description=__doc__.split("\n\n")[0].replace("\n", " "),
    entity_types=(SOURCE,),
    extract=extract,
    ingest=ingest,
    rules=(),
    exports=EXPORTS,
    export_help=EXPORT_HELP,
)

__all__ = ["DOMAIN", "extract", "ingest"]
