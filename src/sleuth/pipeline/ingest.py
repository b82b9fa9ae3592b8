"""Ingest: a file becomes an immutable snapshot, then goes through staged promotion.

Each file is one transaction. Reading and decoding happen before the transaction opens, so
bad input fails with a clear error and leaves the case exactly as it was; re-ingesting the
same bytes from the same place is a no-op, which is what makes an interrupted batch safe to
run again.

The PII scanner (`sleuth.privacy.scan`) reads what was stored, in the same transaction: SSNs,
national ids, e-mail addresses, phone numbers and street addresses become one Censor
compliance decision per snapshot (kinds, counts and character spans, never the matched
text). The bytes stay as they are; every output goes through the Censor. Living persons'
exact birth dates need the whole case's verdicts, so `sleuth privacy report` scans for those.
"""

from __future__ import annotations

import gc
import itertools
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from sleuth.model import Candidate, EvidenceType, GenDate, Snapshot, id_stream
from sleuth.pipeline.validator import DEFAULT_REFINEMENT_LIMIT
from sleuth.sources import load_file

if TYPE_CHECKING:
    from sleuth.pipeline.staging import StageReport
    from sleuth.store import Store


@dataclass
class IngestResult:
    path: str
    snapshot_id: str
    already_stored: bool
    report: StageReport | None
    pii_findings: int = 0  # PII matches the scanner logged for this snapshot


def extract_for(snap: Snapshot, raw: bytes | None = None) -> list[Candidate]:
    """Run the default deterministic extractor with what the snapshot knows of itself.

    A structured record (FamilySearch GEDCOM X, FreeREG CSV, a WikiTree profile, ...) goes to
    its format's extractor; anything else is read as prose. `raw` is the exact bytes read,
    which HTML profiles need because the snapshot text is the page's visible text.
    """
    from sleuth.extract import extract_text
    from sleuth.extract.records import extract_record
    from sleuth.sources.registry import spec_of

    record = extract_record(snap, raw, spec_of(snap))
    if record is not None:
        return record
    doc_date = None
    if iso := snap.metadata.get("document_date"):
        d = date.fromisoformat(str(iso))
        doc_date = GenDate.from_parts(d.year, d.month, d.day, original=str(iso))
    return extract_text(
        snap.text,
        snap.id,
        page_starts=snap.page_starts,
        document_date=doc_date,
        evidence_type=EvidenceType(snap.evidence_type),
        source_reliability=0.5,
    )


def _candidates(snap: Snapshot, raw: bytes) -> Iterable[Candidate]:
    """`extract_for`, except that a GEDCOM tree is read a record at a time as staging takes
    its candidates (`iter_extract`): a large tree's candidates are never all held. The
    file is parsed here, before the transaction opens, so a file that is not GEDCOM fails
    with nothing stored; every other format is extracted whole, as `extract_for` does."""
    from sleuth.extract.records import gedcom

    if not gedcom.detect(snap, raw):
        return extract_for(snap, raw)
    stream = gedcom.iter_extract(snap, raw)
    first = next(stream, None)  # parses the file and reads its first record
    return stream if first is None else itertools.chain((first,), stream)


def ingest_path(
    store: Store,
    path: Path,
    *,
    source_name: str = "local file",
    evidence_type: EvidenceType = EvidenceType.SECONDARY,
    refinement_limit: int = DEFAULT_REFINEMENT_LIMIT,
) -> IngestResult:
    """Ids are drawn from a stream named by the case's size (`model.ids`): the same files
    ingested in the same order give the same ids, hence the same exports. They ascend
    (an ordered stream), so a large file's rows append to the id indexes."""
    # Imported here, not at the top: start-up time (`sleuth extract` needs `extract_for`
    # alone, not the store, staging and the PII scanner; issue 19).
    from sleuth.store.store import id_namespace

    with store.engine.connect() as conn:
        namespace = id_namespace(conn, "ingest")
    # Extraction and staging allocate a few objects per candidate and make no reference
    # cycle, beside a heap that holds every candidate: each collection the cyclic GC would
    # start walks that heap (a quarter of a 10,000-person tree's ingest). Paused, as the
    # GEDCOM parser and exporter do; reference counting still frees everything.
    paused = gc.isenabled()
    gc.disable()
    try:
        with id_stream(namespace, ordered=True):
            return _ingest(store, path, source_name, evidence_type, refinement_limit)
    finally:
        if paused:
            gc.enable()


def _ingest(store: Store, path: Path, source_name: str, evidence_type: EvidenceType,
            refinement_limit: int) -> IngestResult:
    from sleuth.extract import refine  # start-up time, as `ingest_path`'s imports
    from sleuth.pipeline.staging import process_snapshot
    from sleuth.privacy.scan import log_snapshot_pii

    loaded = load_file(path, source_name=source_name, evidence_type=evidence_type)
    with store.engine.connect() as conn:  # a resumed batch skips stored files before extracting
        stored = store.find_snapshot(conn, loaded.snapshot.origin, loaded.snapshot.sha256)
    if stored:
        return IngestResult(str(path), stored, True, None)
    candidates = _candidates(loaded.snapshot, loaded.raw)
    with store.transaction() as tx:
        snap, created = store.put_snapshot(tx, loaded.raw, loaded.snapshot)
        if not created:
            return IngestResult(str(path), snap.id, True, None)
        report = process_snapshot(  # consumes the list: a large tree is not held twice
            store, tx, snap, candidates, refine=refine, refinement_limit=refinement_limit,
            consume=True, load=True,
        )
        found = log_snapshot_pii(store, tx, snap)
    return IngestResult(str(path), snap.id, False, report, found)
