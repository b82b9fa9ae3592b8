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
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from sleuth.model import EvidenceType, InputError, Snapshot, Tier
from sleuth.sources.masthead import masthead_date

if TYPE_CHECKING:
    from selectolax.lexbor import LexborNode

MAX_BYTES = 64 * 1024 * 1024
HTML_SUFFIXES = {".html", ".htm", ".xhtml"}
GEDCOM_SUFFIXES = {".ged", ".gedcom"}
_GEDCOM_START = re.compile(
    rb"(?:\xef\xbb\xbf|\xff\xfe|\xfe\xff)?(?:0\x00 \x00H|\x000\x00 \x00H|0 HEAD)"
)
_C1_CONTROLS = re.compile("[\x80-\x9f]")
# Chronicling America's bulk text names a page by issue date, LCCN, edition and sequence
_CHRONAM_NAME = re.compile(r"^\d{8}__(sn\d+)-ed-(\d+)_seq-(\d+)")
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
    meta.update(_document_date(path.name, text, media))
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
    """Visible text of an HTML page, one piece per line (scripts and styles dropped).

    What a reader sees, form controls included: a text box's value, the option a drop-down
    shows, a mark by a ticked box (`visible_pieces`, which the HTML extractors also use, via
    `sleuth.extract.records.html_spans`, to give every node its exact span)."""
    from selectolax.lexbor import LexborHTMLParser

    tree = LexborHTMLParser(html)
    for node in tree.css("script, style, noscript, template"):
        node.decompose()
    root = tree.body or tree.root
    if root is None:
        return ""
    return "\n".join(ln for _, lines in visible_pieces(root) for ln in lines)


# <input> types whose value a browser draws as text in the box (unknown types render as
# text; buttons show their value as their label). Not drawn: hidden, password (dots, and a
# secret), file, image, color, range; radio and checkbox draw only a mark (CHECKED).
_VALUE_HIDDEN = frozenset({"hidden", "password", "file", "image", "color", "range"})
# The mark a text browser (w3m, lynx) draws for a ticked radio button or check box; its label
# is ordinary text beside it. Unticked boxes draw nothing, to keep form-heavy pages readable.
CHECKED = {"radio": "(*)", "checkbox": "[X]"}


def control_text(node: LexborNode) -> str | None:
    """What a form control draws inside itself (None when nothing, or not an <input>).

    Placeholders are left out: greyed hints ("E.g. 2012"), not the page's data. Textarea
    content and option labels are text nodes, handled in `visible_pieces`."""
    if node.tag != "input":
        return None
    attrs = node.attributes
    kind = (attrs.get("type") or "").strip().lower()
    if kind in CHECKED:
        shown = CHECKED[kind] if "checked" in attrs else None
    elif kind in _VALUE_HIDDEN:
        return None
    else:
        shown = attrs.get("value") or None
    return shown if shown and not _not_rendered(node) else None


def _not_rendered(node: LexborNode) -> bool:
    """Marked in the markup itself as not drawn (`hidden`, inline `display:none`), here or
    on an ancestor. Stylesheets are not consulted (text nodes are shown regardless of them)."""
    cur: LexborNode | None = node
    while cur is not None and cur.tag not in ("body", "html"):
        attrs = cur.attributes
        if "hidden" in attrs:
            return True
        if "display:none" in (attrs.get("style") or "").replace(" ", "").lower():
            return True
        cur = cur.parent
    return False


def _unshown_text(root: LexborNode) -> set[int]:
    """Text nodes a browser does not draw: a drop-down's options other than the one it
    shows (the last selected one, else the first enabled one), and datalist suggestions."""
    skip: set[int] = set()
    for select in root.css("select"):
        attrs = select.attributes
        size = (attrs.get("size") or "").strip()
        if "multiple" in attrs or (size.isdigit() and int(size) > 1):
            continue  # a list box shows its options
        options = select.css("option")
        shown = next((o for o in reversed(options) if "selected" in o.attributes), None)
        if shown is None:
            shown = next((o for o in options if "disabled" not in o.attributes), None)
        for option in options:
            if shown is None or option.mem_id != shown.mem_id:
                skip.update(n.mem_id for n in option.traverse(include_text=True))
    for datalist in root.css("datalist"):
        skip.update(n.mem_id for n in datalist.traverse(include_text=True))
    return skip


def visible_pieces(root: LexborNode, *, forms: bool = True) -> Iterator[tuple[int, list[str]]]:
    """(`mem_id`, stripped non-empty lines) of every node under `root` that shows text, in
    document order: the snapshot text is all their lines joined by "\n". `forms=False` is
    the rendering used before form values were shown (every option label, no control
    values), so snapshots stored then can still be indexed exactly."""
    skip = _unshown_text(root) if forms else set()
    for node in root.traverse(include_text=True):
        if node.is_text_node:
            if node.mem_id in skip:
                continue
            raw = node.text_content or ""
        elif forms and node.tag == "input":
            raw = control_text(node) or ""
        else:
            continue
        lines = [ln for ln in (part.strip() for part in raw.strip().splitlines()) if ln]
        if lines:
            yield node.mem_id, lines


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


def _document_date(name: str, text: str, media: str) -> dict[str, object]:
    """The document's own date and where it was read (issue 20): its file name
    ("19161019__sn86081889-ed-1_seq-1.txt", a Chronicling America page), else a newspaper
    masthead in the text (`masthead`). Nothing when neither gives one."""
    if (day := _date_from_name(name)) is not None:
        out: dict[str, object] = {"document_date": day.isoformat(),
                                  "document_date_from": {"file_name": name}}
        if m := _CHRONAM_NAME.search(name):
            out.update(document_kind="newspaper", lccn=m.group(1), edition=int(m.group(2)),
                       page_sequence=int(m.group(3)))
        return out
    if media not in ("text/plain", "text/html", "application/pdf"):
        return {}
    found = masthead_date(text)
    if found is None:
        return {}
    return {"document_date": found.day.isoformat(), "document_kind": "newspaper",
            "document_date_from": {"masthead": found.excerpt(text), "start": found.start,
                                   "end": found.end}}


def _date_from_name(name: str) -> date | None:
    """Newspaper pages and scans are often named by their issue date (19160103__...)."""
    m = _DATED_NAME.search(name)
    if not m:
        return None
    try:
        return date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        return None
