"""Capturing a source: the stored snapshot in the case's store, and `evidence/SXXX/` in the
case folder (the text as captured, the original bytes (`original.<ext>`; a PDF's are its
`capture.pdf`), a PDF and PNG of it where Chromium or pdfium can draw it (`browser`), and
`metadata.json`: where it came from, when, the hashes). The store's database is not in the
case's git history; the evidence folder is, so it alone must show what was captured.

A document an online source answered with is captured the same way from the snapshot the
fetcher stored (`capture_fetched`); its URL is its path.

A capture is idempotent: the same file is one source (one id, one snapshot), however often
a resumed run captures it again. A file that cannot be read is registered as a failed
capture with its one-line error and the SHA-256 of its bytes, and becomes a gap; once those
bytes change (repaired or replaced) the next research phase reads it again, and once it is
gone from the corpus its gap closes as removed (`recheck_failed`).

Paths of the investigator's machine stay in the loop's working state: what the evidence
folder records is the path relative to the corpus folder (`shown_path`).
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from sleuth.domains.documents.rules import title_of
from sleuth.domains.investigations.browser import PDF_MAGIC, PDF_NAME, render
from sleuth.domains.investigations.corpus import CorpusFile, newspaper_title
from sleuth.domains.investigations.model import Gap, SourceRecord
from sleuth.domains.investigations.prose import language
from sleuth.domains.investigations.state import CaseState, now, shown_path, write_json
from sleuth.model import Snapshot, stable_id
from sleuth.store.store import Store

EVIDENCE_DIR = "evidence"
ORIGINAL = "original"  # evidence/S00N/original.<ext>: the source's bytes, unless a PDF
_EXT = re.compile(r"\.[a-z0-9]{1,5}")
CAPTURE_TEXT = "capture.txt"
METADATA = "metadata.json"
FAILED, REMOVED = "failed", "removed"  # SourceRecord.status besides "captured"
REMOVED_NOTE = "file removed from the corpus"


def evidence_dir(case_dir: Path, sid: str) -> Path:
    return case_dir / EVIDENCE_DIR / sid


def _add_gap(state: CaseState, gap: Gap) -> None:
    if all(g.id != gap.id for g in state.gaps):
        state.gaps.append(gap)


def file_sha256(path: str) -> str:
    """The SHA-256 of a local file's bytes; "" for a URL or a file that cannot be read."""
    if not Path(path).is_absolute():
        return ""
    if not Path(path).is_file():  # nor a named pipe: reading it would wait for a writer
        return ""
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return ""


def _close_gap(state: CaseState, sid: str) -> None:
    state.gaps = [g for g in state.gaps if not (g.kind == "capture_failed" and g.ref == sid)]


def record_failure(state: CaseState, path: str, error: str, *, query: str,
                   iteration: int, sid: str = "") -> SourceRecord:
    """A capture that failed: registered with its error (and its bytes' hash), and a gap;
    `sid` is the id of the source a retry read again."""
    known = next((s for s in state.sources if s.path == path), None)
    if known is not None:
        return known
    rec = SourceRecord(sid or state.take_source_id(), path, status=FAILED, error=error,
                       sha256=file_sha256(path), captured_at=now(), query=query,
                       iteration=iteration)
    state.sources.append(rec)
    _close_gap(state, rec.id)  # a retry that failed again: its gap names the new error
    _add_gap(state, Gap.of("capture_failed", f"{rec.id} could not be captured: {error}",
                           ref=rec.id, since=iteration))
    return rec


def capture(store: Store, case_dir: Path, state: CaseState, entry: CorpusFile, *,
            query: str, iteration: int, sid: str = "") -> SourceRecord:
    """Capture one corpus file (see the module docstring); returns its registry entry.
    `sid`: the id of a failed source read again (`recheck_failed`)."""
    path = entry.where
    known = next((s for s in state.sources if s.path == path), None)
    if known is not None:
        return known
    state.budget.requests_used += 1
    if entry.loaded is None:
        return record_failure(state, path, entry.error, query=query, iteration=iteration,
                              sid=sid)
    raw, snap0 = entry.loaded.raw, entry.loaded.snapshot
    snap = snap0.model_copy(update={"id": stable_id("investigation", snap0.sha256, path),
                                    "source_name": "investigation corpus"})
    try:
        with store.transaction() as tx:
            existing = store.find_snapshot(tx, snap.origin, snap.sha256)
            if existing is None:
                stored, _ = store.put_snapshot(tx, raw, snap)
            else:
                stored = store.snapshot(existing, tx)
    except Exception as exc:  # the store refused it: a failed capture, not a crash
        first = (str(exc).splitlines() or [""])[0]
        return record_failure(state, path, f"{path}: not stored: {type(exc).__name__}: "
                              f"{first}", query=query, iteration=iteration, sid=sid)
    return _register(case_dir, state, path, stored, raw, title=newspaper_title(entry.path)
                     or title_of(stored, heading_only=True) or entry.path.name, query=query,
                     iteration=iteration, sid=sid)


def recheck_failed(store: Store, case_dir: Path, state: CaseState, files: list[CorpusFile],
                   *, iteration: int) -> list[tuple[SourceRecord, str]]:
    """Read again each corpus file whose capture failed once its bytes changed (their
    SHA-256: a touched file fails as it did); one captured now closes its gap and keeps
    its id. A file gone from the corpus closes its gap as removed, and stays in the
    registry so; one that comes back is read again. The records changed, each with a line
    that says how (nothing when the corpus folder itself is missing)."""
    root = Path(state.corpus) if state.corpus else None
    if root is None or not root.is_dir():
        return []
    # a link repaired since: registered under its own name, read under its target's
    by_path = {str(f.path.parent.resolve() / f.path.name): f for f in files}
    by_path |= {f.where: f for f in files}
    out: list[tuple[SourceRecord, str]] = []
    for rec in [s for s in state.sources if s.status in (FAILED, REMOVED)
                and Path(s.path).is_absolute() and Path(s.path).is_relative_to(root)]:
        entry = by_path.get(rec.path)
        if entry is None:
            if rec.status == FAILED:
                rec.status, rec.error = REMOVED, f"{REMOVED_NOTE} (it could not be captured: " \
                    f"{rec.error})"
                _close_gap(state, rec.id)
                out.append((rec, f"gap closed: {rec.id} {REMOVED_NOTE}"))
            continue
        if (rec.status == FAILED and file_sha256(rec.path) == rec.sha256) or (
                state.budget.requests_used >= state.budget.max_requests):
            continue
        at = state.sources.index(rec)
        state.sources.remove(rec)
        _close_gap(state, rec.id)
        new = capture(store, case_dir, state, entry, query=rec.query, iteration=iteration,
                      sid=rec.id)
        state.sources.insert(at, state.sources.pop(state.sources.index(new)))
        out.append((new, f"captured {new.id} {new.title} ({entry.path.name}): the file "
                    "changed since its capture failed" if new.status == "captured" else
                    f"capture failed again: {new.id} {new.error}"))
    return out


def _register(case_dir: Path, state: CaseState, path: str, snap: Snapshot, raw: bytes, *,
              title: str, query: str, iteration: int, sid: str = "") -> SourceRecord:
    rec = SourceRecord(
        sid or state.take_source_id(), path, sha256=snap.sha256, snapshot_id=snap.id,
        captured_at=now(), title=title, media_type=snap.media_type,
        pages=len(snap.page_starts) or 1, language=language(snap.text), query=query,
        iteration=iteration)
    write_evidence(case_dir, rec, snap, raw, corpus=state.corpus)
    state.sources.append(rec)
    return rec


def capture_fetched(case_dir: Path, state: CaseState, snap: Snapshot, raw: bytes, *,
                    title: str, query: str, iteration: int) -> SourceRecord:
    """Capture a document an online source answered with: the fetcher already stored its
    snapshot (the same one however often it is fetched); the source is its URL."""
    url = snap.url or snap.id
    known = next((s for s in state.sources if s.path == url), None)
    if known is not None:
        return known
    return _register(case_dir, state, url, snap, raw, title=title, query=query,
                     iteration=iteration)


def write_evidence(case_dir: Path, rec: SourceRecord, snap: Snapshot, raw: bytes, *,
                   corpus: str = "") -> None:
    """The evidence folder; `rec.rendering` says whether a PDF and PNG were made."""
    folder = evidence_dir(case_dir, rec.id)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / CAPTURE_TEXT).write_text(snap.text, encoding="utf-8")
    rendering = render(folder, raw, snap.text, snap.media_type)
    rec.rendering = rendering.status
    original = PDF_NAME if raw.startswith(PDF_MAGIC) else original_name(rec.path,
                                                                        snap.media_type)
    if original != PDF_NAME:  # a PDF's own bytes are its capture.pdf already
        (folder / original).write_bytes(raw)
    write_json(folder / METADATA, {
        "source_id": rec.id,
        "path": shown_path(rec.path, corpus),  # relative to the corpus folder
        "url": snap.url,
        "captured_at": rec.captured_at,
        "sha256": snap.sha256,
        "capture_sha256": hashlib.sha256(snap.text.encode("utf-8")).hexdigest(),
        "snapshot_id": snap.id,
        "media_type": snap.media_type,
        "pages": len(snap.page_starts) or 1,
        "page_labels": snap.metadata.get("page_labels", []),
        "title": rec.title,
        "language": rec.language,
        "citable": True,
        "rendering": rendering.to_json(),  # capture.pdf / capture.png: paths, sha256, tool
        # the bytes as read or fetched (case.sqlite, which also holds them, is not in git)
        "original": {"path": original, "bytes": len(raw),
                     "sha256": hashlib.sha256(raw).hexdigest()},
    })


def original_name(path: str, media_type: str) -> str:
    """`original` with the source's own extensions ("original.hocr.html.bz2"), or one its
    media type gives when its path (a URL) has none."""
    name = path.split("?")[0].rstrip("/").rsplit("/", 1)[-1]
    ext = "".join(x for x in Path(name).suffixes[-3:] if _EXT.fullmatch(x))
    return ORIGINAL + (ext or (".html" if "html" in media_type else ".txt"))


def evidence_intact(case_dir: Path, rec: SourceRecord, snap: Snapshot) -> bool:
    """The capture in the case folder still is the stored snapshot's text (its hash)."""
    try:
        text = (evidence_dir(case_dir, rec.id) / CAPTURE_TEXT).read_bytes()
    except OSError:
        return False
    return hashlib.sha256(text).digest() == hashlib.sha256(snap.text.encode("utf-8")).digest()
