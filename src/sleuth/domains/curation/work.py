"""`sleuth ingest` for a curation case: store each file as an immutable snapshot named by
its content (through the Extractor's handle: seed 002's `raw_snapshots` INSERT is the
Extractor's) and queue its `curation_extraction` task, in one transaction per folder or
file; `sleuth work` then runs the tasks (`agents`).

A folder is read flat and in name order, FPP files (`.fpp`, `.fppi`) before design
documents (`.md`), so the formal work is queued first; files of other kinds are skipped and
counted. A file already stored is skipped.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sleuth.domains.curation.agents import EXTRACTOR, FORMAL_SUFFIXES, PROSE_SUFFIXES, TASK_EXTRACT
from sleuth.model import EvidenceType, InputError
from sleuth.sources import load_file
from sleuth.store import agent_tasks as bb
from sleuth.store.curation import as_extractor
from sleuth.store.store import Store


@dataclass
class CurationIngest:
    """One folder's or file's ingest (what `sleuth ingest` prints: `summary`, one line)."""

    path: str
    snapshot_ids: list[str]
    already_stored: bool
    summary: str
    report: Any = None


def _files(path: Path) -> tuple[list[Path], int]:
    """The files to read, formal first, and how many others were skipped."""
    if not path.exists():
        raise InputError("no such file or folder", file=str(path))
    if path.is_dir():
        every = sorted(p for p in path.iterdir() if p.is_file())
        readable = [p for p in every if p.suffix in FORMAL_SUFFIXES + PROSE_SUFFIXES]
    else:
        if path.suffix not in FORMAL_SUFFIXES + PROSE_SUFFIXES:
            raise InputError("not an FPP (.fpp, .fppi) or Markdown (.md) file", file=str(path))
        every = readable = [path]
    readable.sort(key=lambda p: (p.suffix in PROSE_SUFFIXES, p.name))
    return readable, len(every) - len(readable)


def ingest(store: Store, path: Path, *, source_name: str = "local file",
           evidence_type: EvidenceType = EvidenceType.PRIMARY, **_: Any) -> CurationIngest:
    """Store a folder's (or one file's) FPP and SDD files and queue an extraction task for
    each newly stored one; reading every file first, so bad input changes nothing."""
    files, skipped = _files(path)
    loaded = [load_file(p, source_name=source_name, evidence_type=evidence_type)
              for p in files]
    new: list[str] = []
    ids: list[str] = []
    with store.transaction() as tx:
        for item in loaded:
            with as_extractor(store, tx) as ex:
                snap, created = ex.put_snapshot(item.raw,
                                                item.snapshot.named_by_content("curation"))
            ids.append(snap.id)
            if created:
                new.append(snap.id)
                bb.create_task(store, tx, task_type=TASK_EXTRACT, agent=EXTRACTOR,
                               snapshot_id=snap.id, parent_id=None,
                               payload={"document": Path(item.snapshot.path or snap.id).name},
                               by="ingest")
    others = f"; {skipped} other files skipped" if skipped else ""
    summary = (f"{len(files)} files ({len(new)} newly stored, "
               f"{len(files) - len(new)} already stored); {len(new)} extraction tasks "
               f"queued{others}")
    return CurationIngest(str(path), ids, not new, summary)
