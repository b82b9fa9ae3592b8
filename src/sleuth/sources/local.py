"""Local files as sources: bytes in, an immutable Snapshot (plus its exact bytes) out.

Text is decoded strictly. A file that is not text, is empty, or cannot be decoded gets an
InputError naming the file and the offending byte, never a half-guessed snapshot.

Reading is bounded (`sleuth.model.limits`): a size limit per kind of document, checked
before the file is read, and compressed content inflated under it a step at a time.

Long documents are read page by page (`sleuth.text.pages`): a PDF's text layer, hOCR,
pdftohtml XML and ALTO XML (each also as `.bz2`, read transparently), and plain text with
form feeds; a scanned PDF or a page image (JPEG, PNG, TIFF) is read by OCR where tesseract
is installed (`sleuth.text.ocr`), else refused as needing OCR. Their snapshot text is the
pages joined, `page_starts` says where each begins, and the metadata keeps each page's
printed label (`page_labels`, where it came from in `page_labels_from`) and, for OCR, every
word's box (`word_boxes`).

GEDCOM and JSON are read strictly (issue 26, `sleuth.sources.strict`): a file with a
problem that makes it unsafe to read is refused with its line and field unless read
leniently; every problem found is kept in the snapshot's metadata (`input_problems`).
"""

from __future__ import annotations

import bz2
import hashlib
import io
import re
import zipfile
import zlib
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from sleuth.gedcom import decode_gedcom
from sleuth.gedcom.validate import check_gedcom
from sleuth.model import EvidenceType, InputError, Snapshot, Tier, limits
from sleuth.sources.masthead import masthead_date
from sleuth.sources.strict import check_json, judge, looks_json, without_control_escapes
from sleuth.text import decode_text, html_text, looks_html, vld_text
from sleuth.text.alto import alto_pages, is_alto
from sleuth.text.hocr import hocr_pages, is_hocr
from sleuth.text.ocr import image_kind, ocr_images
from sleuth.text.pages import Paged
from sleuth.text.pdf import pdf_pages
from sleuth.text.pdf2xml import is_pdf2xml, pdf2xml_pages, read_page_mapping
from sleuth.text.sidbrytning import is_paged_xhtml, sidbrytning_pages

HTML_SUFFIXES = {".html", ".htm", ".xhtml"}
GEDCOM_SUFFIXES = {".ged", ".gedcom"}
_GEDCOM_START = re.compile(
    rb"(?:\xef\xbb\xbf|\xff\xfe|\xfe\xff)?(?:0\x00 \x00H|\x000\x00 \x00H|0 HEAD)"
)
# Chronicling America's bulk text names a page by issue date, LCCN, edition and sequence
_CHRONAM_NAME = re.compile(r"^\d{8}__(sn\d+)-ed-(\d+)_seq-(\d+)")
_BZ2_MAGIC = re.compile(rb"BZh[1-9]1AY&SY")
# JSON's start, as `strict.looks_json` reads it ("[Transcriber's note]" is text)
_JSON_BYTES = re.compile(rb'(?:\xef\xbb\xbf)?[ \t\r\n]*(?:\{[ \t\r\n]*["}]|\[[ \t\r\n]*[\[{"\]])')
_SNIFF_BYTES = 8192  # how far into a document its kind is looked for
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
    lenient: bool | None = None,
) -> LoadedFile:
    """Read one file into a snapshot (text, HTML, GEDCOM, a paged document: see the module);
    raise InputError when it can't, or (unless `lenient`, by default the `reading` in
    force) when it has a problem the strict default refuses (`sleuth.sources.strict`).

    Bounded (`sleuth.model.limits`): a file is refused unread past the limit of its kind
    (known from its name and first bytes; a compressed file, past the largest limit), a
    compressed one is inflated under its kind's limit and no further and then checked
    like any other, and one past a quarter of its limit is read after a warning."""
    where = str(path)
    if not path.exists():
        raise InputError("no such file", file=where)
    if path.is_dir():
        raise InputError("is a directory, not a file", file=where)
    size = path.stat().st_size
    suffix = path.suffix.lower()
    with path.open("rb") as fh:
        head = fh.read(_SNIFF_BYTES)
    packed = suffix in (".bz2", ".gdz") or _BZ2_MAGIC.match(head) is not None
    if not packed:  # its kind is known from its start: checked before it is read
        limits.check_size(_kind(suffix, head), size, where)
    elif size > limits.current().largest:
        raise limits.too_large("file", size, where, limit=limits.current().largest,
                               what="a compressed file")
    raw = path.read_bytes()
    if not raw.strip():
        raise InputError("file is empty", file=where)
    meta: dict[str, object] = {"filename": path.name}
    page_starts: tuple[int, ...] = ()
    body = raw
    if suffix == ".bz2" or _BZ2_MAGIC.match(raw):
        suffix = Path(path.stem).suffix.lower() if suffix == ".bz2" else suffix
        body = _bunzip(raw, where, _kind_by_suffix(suffix))
        meta["container"] = "bz2"
        if not body.strip():
            raise InputError("file is empty (once decompressed)", file=where)
        limits.check_size(_kind(suffix, body), len(body), where)
    paged = _paged(path, body, suffix, where)
    if paged is not None:
        doc, media = paged
        text, page_starts = doc.text, doc.page_starts
        meta["page_labels"] = list(doc.page_labels)
        meta.update(doc.extra)
    elif suffix == ".vld":  # FreeCEN census transcription: fixed-width, Latin-1, NUL-padded
        text, media = vld_text(body, where), "text/x-freecen-vld"
        meta["encoding"] = "iso-8859-1"
    elif suffix == ".gdz":  # GEDCOM 7 GEDZIP: the dataset is gedcom.ged, the rest media
        with _gedzip(body, where) as zf:
            decoded = decode_gedcom(_gedzip_dataset(zf, where))
            meta["media_files"] = sorted(n for n in zf.namelist()
                                         if n != "gedcom.ged" and not n.endswith("/"))
        inner = f"{where}!gedcom.ged"
        text, _, problems = check_gedcom(decoded, file=inner)
        judge(problems, inner, meta, lenient)
        media = "text/x-gedcom"
        meta["container"] = "gedzip"
        meta["encoding"] = decoded.encoding
    elif suffix in GEDCOM_SUFFIXES or _GEDCOM_START.match(body):
        decoded = decode_gedcom(body)
        text, _, problems = check_gedcom(decoded, file=where)
        judge(problems, where, meta, lenient)
        media = "text/x-gedcom"
        meta["encoding"] = decoded.encoding
        if decoded.warnings:
            meta["encoding_warnings"] = decoded.warnings
    else:
        text, encoding = decode_text(body, where)
        meta["encoding"] = encoding
        media = "text/plain"
        if suffix in HTML_SUFFIXES or looks_html(text):
            try:
                text = html_text(text)
            except InputError as exc:
                raise InputError(exc.message, file=where) from None
            media = "text/html"
        elif "\f" in text:  # form feeds break a plain text into pages
            page_starts = (0, *(i + 1 for i, c in enumerate(text) if c == "\f"))
            meta["page_labels"] = [str(i) for i in range(1, len(page_starts) + 1)]
            meta["page_labels_from"] = "form feed"
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
    if media == "text/plain" and looks_json(suffix, text):
        problems = check_json(snap, body)
        if problems:
            judge(problems, where, meta, lenient)  # past it: read leniently, or a warning
            snap = snap.model_copy(update={"metadata": meta,
                                           "text": without_control_escapes(snap.text)})
    return LoadedFile(raw=raw, snapshot=snap)


def _bunzip(raw: bytes, where: str, kind: str | None) -> bytes:
    """A bz2 file's content, inflated a megabyte at a time and refused as soon as it passes
    the limit of its kind (`kind`, from the name inside: `.hocr.bz2`; else the largest
    limit), so a bomb costs at most the limit, never its inflated size. Several streams
    one after another (pbzip2's output) are read as one file."""
    cap = limits.current().limit(kind) if kind else limits.current().largest
    out: list[bytes] = []
    size = 0
    rest = raw
    while rest:
        dec = bz2.BZ2Decompressor()
        data = rest
        try:
            while not dec.eof:
                chunk = dec.decompress(data, max_length=_INFLATE_STEP)
                data = b""
                size += len(chunk)
                if size > cap:
                    raise limits.too_large(kind or "file", size, where, limit=cap,
                                           what="bz2 content", at_least=True)
                out.append(chunk)
                if dec.needs_input and not dec.eof:
                    raise InputError("bz2 file is truncated", file=where)
        except (OSError, ValueError, EOFError) as exc:
            if out or rest is not raw:  # a damaged stream after a good start
                raise InputError(f"damaged bz2 data: {exc}", file=where) from None
            raise InputError(f"not a valid bz2 file: {exc}", file=where) from None
        rest = dec.unused_data
        if rest and not _BZ2_MAGIC.match(rest):
            break  # padding after the last stream (tar-style zeros): not another stream
    return b"".join(out)


_INFLATE_STEP = 1 << 20  # bytes inflated at a time (bz2, GEDZIP)


def _kind_by_suffix(suffix: str) -> str | None:
    """The kind of document a file's name says it is (`limits.MAX_BYTES`), or None."""
    if suffix in GEDCOM_SUFFIXES or suffix == ".gdz":
        return "gedcom"
    if suffix in HTML_SUFFIXES:
        return "html"
    if suffix == ".json":
        return "json"
    if suffix == ".pdf":
        return "pdf"
    if suffix in (".hocr", ".xml", ".alto"):
        return "xml"
    if suffix == ".vld":
        return "census"
    if suffix in (".txt", ".text"):
        return "text"
    return None


def _kind(suffix: str, body: bytes) -> str:
    """The kind of document `body` is, for its size limit: by name, else by its start."""
    known = _kind_by_suffix(suffix)
    if known is not None and known != "text":
        return known
    head = body[:_SNIFF_BYTES]
    if head.startswith(b"%PDF-"):
        return "pdf"
    if _GEDCOM_START.match(head):
        return "gedcom"
    if is_pdf2xml(head) or is_alto(head) or is_hocr(head):
        return "xml"
    if _JSON_BYTES.match(head):
        return "json"
    if head.lstrip(b"\xef\xbb\xbf \t\r\n")[:15].lower().startswith((b"<!doctype html",
                                                                       b"<html")):
        return "html"
    return "text"


# Paged formats: media type of each reader's snapshot.
PDF_MEDIA, HOCR_MEDIA, PDF2XML_MEDIA, ALTO_MEDIA = (
    "application/pdf", "text/x-hocr", "text/x-pdf2xml", "text/x-alto")
# ferenda's parsed XHTML, paged at its page breaks (not "text/html": the HTML record
# extractors map nodes onto a one-page text)
SIDBRYTNING_MEDIA = "text/x-ferenda-xhtml"


def _paged(path: Path, body: bytes, suffix: str, where: str) -> tuple[Paged, str] | None:
    """A paged document's pages and media type, by suffix and content; None for others."""
    if suffix == ".pdf" or body.startswith(b"%PDF-"):
        return pdf_pages(body, where), PDF_MEDIA
    if (image := image_kind(body[:16])) is not None:  # a scanned page: OCR, where installed
        return ocr_images([body], where, source=f"an image ({image}), no text layer"), (
            f"image/{image.lower()}")
    head = body[:_SNIFF_BYTES]
    if is_pdf2xml(head):
        return pdf2xml_pages(body, where, _page_mapping(path)), PDF2XML_MEDIA
    if is_alto(head):
        return alto_pages(body, where), ALTO_MEDIA
    if is_hocr(head) and head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<"):
        return hocr_pages(body, where), HOCR_MEDIA
    if is_paged_xhtml(body) and head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<"):
        return sidbrytning_pages(body, where), SIDBRYTNING_MEDIA
    return None


def _page_mapping(path: Path) -> dict[int, str] | None:
    """Printed page labels for a pdftohtml file from a ferenda page mapping beside it
    (`*.pagemapping.json`, keyed by the PDF the XML was made from)."""
    stem = path.name
    for ext in (".bz2", ".xml"):
        if stem.lower().endswith(ext):
            stem = stem[: -len(ext)]
    for sidecar in sorted(path.parent.glob("*pagemapping.json")):
        try:
            found = read_page_mapping(sidecar.read_bytes(), stem)
        except OSError:
            continue
        if found:
            return found
    return None


def _gedzip(raw: bytes, where: str) -> zipfile.ZipFile:
    """A GEDZIP archive, refused with a clear error when it is not one."""
    try:
        zf = zipfile.ZipFile(io.BytesIO(raw))
    except zipfile.BadZipFile as exc:
        raise InputError(f"not a GEDZIP (.gdz) archive: {exc}", file=where) from exc
    if "gedcom.ged" not in zf.namelist():
        raise InputError("GEDZIP archive has no gedcom.ged", file=where)
    return zf


def _gedzip_dataset(zf: zipfile.ZipFile, where: str) -> bytes:
    """The archive's gedcom.ged, inflated under the GEDCOM limit: refused unread when the
    archive declares it larger, and as soon as it inflates past the limit when the
    declared size lies (a zip bomb)."""
    inner = f"{where}!gedcom.ged"
    cap = limits.current().limit("gedcom")
    declared = zf.getinfo("gedcom.ged").file_size
    if declared > cap:
        raise limits.too_large("gedcom", declared, inner, limit=cap)
    out: list[bytes] = []
    size = 0
    try:
        with zf.open("gedcom.ged") as member:
            while chunk := member.read(_INFLATE_STEP):
                size += len(chunk)
                if size > cap:
                    raise limits.too_large("gedcom", size, inner, limit=cap, at_least=True)
                out.append(chunk)
    except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, OSError) as exc:
        raise InputError(f"damaged GEDZIP archive: {exc}", file=where) from None
    data = b"".join(out)
    limits.check_size("gedcom", len(data), inner)
    return data


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
