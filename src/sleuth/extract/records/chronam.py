"""Chronicling America newspaper pages: OCR text (plain or ALTO XML) with issue provenance.

A page's snapshot text is its OCR text, so the prose extractor's spans are citations as they
stand. The ALTO reader builds that text from the `String` elements (a space between words, a
line break between lines, a blank line between blocks, the `HYP` hyphen kept at the line end,
which the firewall's hyphenation rule then joins) and records each word's character span with
its box on the page image (`alto_words` in the snapshot metadata: `[start, end, HPOS, VPOS,
WIDTH, HEIGHT]`), so `boxes(snapshot, start, end)` can draw any excerpt on the scan.

Provenance comes from chronam's issue and page records: `date_issued` becomes the document date
(relative dates such as "yesterday" are read against it) and the page `sequence` the page
number of every citation. Detection is by the snapshot these helpers build (media type
`text/x-alto` or `text/x-chronam-ocr`): plain OCR text cannot be told from any other text by
its content.
"""

from __future__ import annotations

import hashlib
import json
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from sleuth.extract import extract_text
from sleuth.model.citation import EvidenceType, Locator, Tier
from sleuth.model.dates import GenDate
from sleuth.model.records import Candidate, Snapshot
from sleuth.text.alto import block_text, local_name

ALTO_MEDIA = "text/x-alto"
OCR_MEDIA = "text/x-chronam-ocr"
MAX_XML_BYTES = 64 * 1024 * 1024


class ChronamError(ValueError):
    """Not an ALTO document or a chronam record (names what was wrong)."""


@dataclass
class AltoPage:
    text: str
    words: list[list[int]] = field(default_factory=list)  # [start, end, x, y, w, h]


def is_alto(raw: bytes) -> bool:
    head = raw[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    return head.startswith(b"<") and b"<alto" in head and b"ALTO" in head.upper()


def read_alto(raw: bytes) -> AltoPage:
    """The page text and word boxes of an ALTO document (DTDs and entities refused)."""
    if len(raw) > MAX_XML_BYTES:
        raise ChronamError(f"ALTO document is {len(raw)} bytes; the limit is {MAX_XML_BYTES}")
    if b"<!DOCTYPE" in raw[:4096] or b"<!ENTITY" in raw:
        raise ChronamError("ALTO document declares a DTD or entities; refused")
    try:
        root = ET.fromstring(raw)
    except ET.ParseError as exc:
        raise ChronamError(f"not well-formed XML: {exc}") from exc
    if local_name(root.tag).lower() != "alto":
        raise ChronamError(f"root element is <{local_name(root.tag)}>, not <alto>")
    text, words = block_text(root)
    return AltoPage(text, words)


def _find(obj: Any, key: str) -> Any:
    """The first value of `key` anywhere in a JSON structure (chronam fixtures and the API
    nest it differently: `fields.date_issued`, `issue.date_issued`)."""
    if isinstance(obj, dict):
        if key in obj:
            return obj[key]
        for v in obj.values():
            found = _find(v, key)
            if found is not None:
                return found
    elif isinstance(obj, list):
        for v in obj:
            found = _find(v, key)
            if found is not None:
                return found
    return None


def provenance(issue: bytes | None = None, page: bytes | None = None) -> dict[str, Any]:
    """Document date, page sequence and title (LCCN) from chronam issue/page JSON."""
    meta: dict[str, Any] = {"source_format": "chronam"}
    for raw, what in ((issue, "issue"), (page, "page")):
        if raw is None:
            continue
        try:
            obj = json.loads(raw)
        except (ValueError, UnicodeDecodeError) as exc:
            raise ChronamError(f"{what} record is not JSON: {exc}") from exc
        issued = _find(obj, "date_issued")
        if isinstance(issued, str):
            try:
                meta["document_date"] = date.fromisoformat(issued[:10]).isoformat()
            except ValueError as exc:
                raise ChronamError(f"{what} record: date_issued {issued!r} is no date") from exc
        seq = _find(obj, "sequence")
        if isinstance(seq, int) and seq > 0:
            meta["page_sequence"] = seq
        title = _find(obj, "title")
        if isinstance(title, str) and title.startswith("sn"):
            meta["lccn"] = title
        elif isinstance(title, dict) and isinstance(title.get("lccn"), str):
            meta["lccn"] = title["lccn"]
    return meta


def page_snapshot(raw: bytes, *, issue: bytes | None = None, page: bytes | None = None,
                  url: str | None = None, path: str | None = None,
                  source_name: str = "Chronicling America") -> Snapshot:
    """A snapshot of one page's OCR (ALTO XML or plain text) with its provenance."""
    meta = provenance(issue, page)
    if is_alto(raw):
        alto = read_alto(raw)
        text, media = alto.text, ALTO_MEDIA
        meta["alto_words"] = alto.words
    else:
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ChronamError(f"OCR text is not UTF-8 (byte {exc.start})") from exc
        media = OCR_MEDIA
    if not text.strip():
        raise ChronamError("the page has no OCR text")
    return Snapshot(sha256=hashlib.sha256(raw).hexdigest(), url=url, path=path,
                    source_name=source_name, tier=Tier.TIER0,
                    evidence_type=EvidenceType.PRIMARY, media_type=media, text=text,
                    metadata=meta)


def boxes(snap: Snapshot, start: int, end: int) -> list[tuple[int, int, int, int]]:
    """Boxes (x, y, w, h, in the ALTO measurement unit) of the words a span touches."""
    words = snap.metadata.get("alto_words") or []
    return [(w[2], w[3], w[4], w[5]) for w in words if w[0] < end and w[1] > start]


def detect(snap: Snapshot, raw: bytes | None = None) -> bool:
    return snap.media_type in (ALTO_MEDIA, OCR_MEDIA) or (
        snap.metadata.get("source_format") == "chronam" and not snap.text.lstrip().startswith("<"))


def extract(snap: Snapshot, raw: bytes | None = None) -> list[Candidate]:
    """The prose extractor over the page text, dated by the issue, paged by its sequence."""
    if not detect(snap, raw):
        return []

    doc_date = None
    if iso := snap.metadata.get("document_date"):
        d = date.fromisoformat(str(iso))
        doc_date = GenDate.from_parts(d.year, d.month, d.day, original=str(iso))
    cands = extract_text(snap.text, snap.id, document_date=doc_date,
                         evidence_type=snap.evidence_type, source_reliability=0.6)
    seq = snap.metadata.get("page_sequence")
    if not isinstance(seq, int):
        return cands
    out: list[Candidate] = []
    for c in cands:
        if c.citation is not None:
            loc = c.citation.locator
            cit = c.citation.model_copy(update={"locator": Locator(
                start=loc.start, end=loc.end, page=seq, line=loc.line)})
            c = c.model_copy(update={"citation": cit})
        out.append(c)
    return out
