"""Local files as sources: bytes in, an immutable Snapshot (plus its exact bytes) out.

Text is decoded strictly. A file that is not text, is empty, or cannot be decoded gets an
InputError naming the file and the offending byte, never a half-guessed snapshot.
"""

from __future__ import annotations

import hashlib
import io
import logging
import re
import zipfile
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from sleuth.model import EvidenceType, InputError, Snapshot, Tier

MAX_BYTES = 64 * 1024 * 1024
HTML_SUFFIXES = {".html", ".htm", ".xhtml"}
GEDCOM_SUFFIXES = {".ged", ".gedcom"}
_GEDCOM_START = re.compile(
    rb"(?:\xef\xbb\xbf|\xff\xfe|\xfe\xff)?(?:0\x00 \x00H|\x000\x00 \x00H|0 HEAD)"
)
_C1_CONTROLS = re.compile("[\x80-\x9f]")
_DATED_NAME = re.compile(r"(?<!\d)(1[5-9]\d\d|20\d\d)(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])(?!\d)")


@dataclass(frozen=True)
class LoadedFile:
    raw: bytes
    snapshot: Snapshot


def load_file(
    path: Path,
    *,
    source_name: str = "local file",
    evidence_type: EvidenceType = EvidenceType.SECONDARY,
) -> LoadedFile:
    """Read one file into a snapshot (text, HTML or PDF); raise InputError when it can't."""
    where = str(path)
    if not path.exists():
        raise InputError("no such file", file=where)
    if path.is_dir():
        raise InputError("is a directory, not a file", file=where)
    size = path.stat().st_size
    if size > MAX_BYTES:
        raise InputError(f"file is {size} bytes; the limit is {MAX_BYTES}", file=where)
    raw = path.read_bytes()
    if not raw.strip():
        raise InputError("file is empty", file=where)
    suffix = path.suffix.lower()
    meta: dict[str, object] = {"filename": path.name}
    page_starts: tuple[int, ...] = ()
    if suffix == ".pdf" or raw.startswith(b"%PDF-"):
        text, page_starts = _pdf_text(raw, where)
        media = "application/pdf"
    elif suffix == ".vld":  # FreeCEN census transcription: fixed-width, Latin-1, NUL-padded
        from sleuth.extract.records.freecen import vld_text

        text, media = vld_text(raw), "text/x-freecen-vld"
        meta["encoding"] = "iso-8859-1"
    elif suffix == ".gdz":  # GEDCOM 7 GEDZIP: the dataset is gedcom.ged, the rest media
        from sleuth.gedcom import decode_gedcom

        with _gedzip(raw, where) as zf:
            decoded = decode_gedcom(zf.read("gedcom.ged"))
            meta["media_files"] = sorted(n for n in zf.namelist()
                                         if n != "gedcom.ged" and not n.endswith("/"))
        text, media = decoded.text, "text/x-gedcom"
        meta["container"] = "gedzip"
        meta["encoding"] = decoded.encoding
    elif suffix in GEDCOM_SUFFIXES or _GEDCOM_START.match(raw):
        from sleuth.gedcom import decode_gedcom

        decoded = decode_gedcom(raw)
        text, media = decoded.text, "text/x-gedcom"
        meta["encoding"] = decoded.encoding
        if decoded.warnings:
            meta["encoding_warnings"] = decoded.warnings
    else:
        text, encoding = decode_text(raw, where)
        meta["encoding"] = encoding
        media = "text/plain"
        if suffix in HTML_SUFFIXES or _looks_html(text):
            text = html_text(text)
            media = "text/html"
    if not text.strip():
        raise InputError("no readable text in file", file=where)
    doc_date = _date_from_name(path.name)
    if doc_date:
        meta["document_date"] = doc_date.isoformat()
    snap = Snapshot(
        sha256=hashlib.sha256(raw).hexdigest(),
        path=str(path.resolve()),
        source_name=source_name,
        tier=Tier.TIER0,
        evidence_type=evidence_type,
        media_type=media,
        text=text,
        page_starts=page_starts,
        metadata=meta,
    )
    return LoadedFile(raw=raw, snapshot=snap)


def _gedzip(raw: bytes, where: str) -> zipfile.ZipFile:
    """A GEDZIP archive, refused with a clear error when it is not one."""
    try:
        zf = zipfile.ZipFile(io.BytesIO(raw))
    except zipfile.BadZipFile as exc:
        raise InputError(f"not a GEDZIP (.gdz) archive: {exc}", file=where) from exc
    if "gedcom.ged" not in zf.namelist():
        raise InputError("GEDZIP archive has no gedcom.ged", file=where)
    return zf


def decode_text(raw: bytes, where: str) -> tuple[str, str]:
    """Decode bytes as text: BOMs first, then strict UTF-8, then strict Windows-1252."""
    for bom, enc in (
        (b"\xef\xbb\xbf", "utf-8-sig"),
        (b"\xff\xfe", "utf-16"),
        (b"\xfe\xff", "utf-16"),
    ):
        if raw.startswith(bom):
            try:
                return raw.decode(enc), enc
            except UnicodeDecodeError as exc:
                raise InputError(f"invalid {enc} at byte {exc.start}", file=where) from exc
    nul = raw.find(b"\x00")
    if nul >= 0:
        raise InputError(f"binary data, not text (NUL byte at offset {nul})", file=where)
    try:
        return raw.decode("utf-8"), "utf-8"
    except UnicodeDecodeError as exc:
        first_bad = exc.start
    # Windows-1252 is the one legacy encoding genealogical text commonly arrives in; it is
    # accepted (and recorded in the snapshot) only when every byte maps to a printable
    # character. Anything else is refused rather than guessed.
    try:
        decoded = raw.decode("cp1252")
    except UnicodeDecodeError:
        decoded = ""
    if not decoded or _C1_CONTROLS.search(decoded):
        line = raw.count(b"\n", 0, first_bad) + 1
        raise InputError(
            f"not valid UTF-8 (byte 0x{raw[first_bad]:02x} at offset {first_bad}) nor"
            " Windows-1252 text; convert the file to UTF-8",
            file=where,
            line=line,
        )
    return decoded, "cp1252"


def _looks_html(text: str) -> bool:
    head = text[:1000].lstrip().lower()
    return head.startswith(("<!doctype html", "<html"))


def html_text(html: str) -> str:
    """Visible text of an HTML page, one block per line (scripts and styles dropped)."""
    from selectolax.lexbor import LexborHTMLParser

    tree = LexborHTMLParser(html)
    for node in tree.css("script, style, noscript, template"):
        node.decompose()
    root = tree.body or tree.root
    if root is None:
        return ""
    text = root.text(separator="\n", strip=True)
    lines = [ln.strip() for ln in text.splitlines()]
    return "\n".join(ln for ln in lines if ln)


def _pdf_text(raw: bytes, where: str) -> tuple[str, tuple[int, ...]]:
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    # pypdf logs font-parsing chatter at WARNING for ordinary PDFs; keep the CLI quiet.
    logging.getLogger("pypdf").setLevel(logging.ERROR)

    try:
        reader = PdfReader(io.BytesIO(raw))
        pages = [(p.extract_text() or "") for p in reader.pages]
    except (PdfReadError, ValueError, KeyError) as exc:
        raise InputError(f"unreadable PDF: {exc}", file=where) from exc
    starts: list[int] = []
    parts: list[str] = []
    pos = 0
    for text in pages:
        starts.append(pos)
        parts.append(text)
        pos += len(text) + 2  # pages joined by a blank line
    return "\n\n".join(parts), tuple(starts)


def _date_from_name(name: str) -> date | None:
    """Newspaper pages and scans are often named by their issue date (19160103__...)."""
    m = _DATED_NAME.search(name)
    if not m:
        return None
    try:
        return date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        return None
