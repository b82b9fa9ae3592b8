"""Wikipedia API responses: the infobox of `action=parse` wikitext and the lead of the REST
summary, as grounded candidates.

The snapshot text is the JSON body as fetched; wikitext and lead text are JSON strings inside
it. Their decoded text is mapped back to the stored text character by character
(`string_offsets`), so an infobox value is cited by its own infobox line exactly as stored
(`| birth_place   = [[Cambridge]], England`) and the prose extractor's spans over the lead
are moved onto the stored JSON. A span whose stored form differs from the decoded text (a JSON
escape such as `\\"` or `\\n` inside it) would not be a verbatim citation, so that candidate
is dropped, never rewritten.

REST `page/html` (Parsoid HTML) needs no module: it is a web page, and its visible text goes
through the prose extractor like any other page.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sleuth.extract import extract_text
from sleuth.extract.dates import parse_date
from sleuth.extract.records.common import RecordDoc
from sleuth.extract.records.familysearch import MAX_CHARS, JSONSpanError, Node, parse_spans
from sleuth.model.citation import EvidenceType, Locator
from sleuth.model.dates import GenDate
from sleuth.model.records import Candidate, Snapshot

_INFOBOX = re.compile(r"\{\{\s*Infobox\b", re.I)
_FIELD = re.compile(
    r"^[ \t]*(?P<line>\|[ \t]*(?P<key>[\w ]+?)[ \t]*=[ \t]*(?P<value>.*?))[ \t]*$", re.M)
_DATE_TPL = re.compile(
    r"\{\{\s*(?:birth|death|start|end)[ _]date(?:[ _]and[ _]age)?\s*\|"
    r"\s*(?:[a-z]+=[^|}]*\|\s*)*(?P<y>\d{3,4})\s*(?:\|\s*(?P<m>\d{1,2})\s*)?"
    r"(?:\|\s*(?P<d>\d{1,2})\s*)?", re.I)
_LINK = re.compile(r"\[\[(?:[^|\]]*\|)?(?P<text>[^\]]*)\]\]")
_TEMPLATE = re.compile(r"\{\{[^{}]*\}\}")
_COMMENT = re.compile(r"<!--.*?-->|<ref[^>]*/>|<ref[^>]*>.*?</ref>|<[^>]+>", re.S)
_MARRIAGE = re.compile(r"\{\{\s*marriage\s*\|\s*(?P<name>[^|}]+)", re.I)
_NAME_OK = re.compile(r"^[^\W\d_][\w .'\-]{1,80}$")
PLACE_KEYS = {"birth_place": "birth_place", "death_place": "death_place",
              "resting_place": "burial_place"}
DATE_KEYS = {"birth_date": "birth_date", "death_date": "death_date"}
PERSON_KEYS = frozenset({"birth_date", "birth_place", "death_date", "death_place",
                         "birth_name"})
REL_KEYS = {"spouse": "spouse", "spouses": "spouse", "partner": "spouse", "parents": "parent",
            "father": "parent", "mother": "parent", "children": "child"}


# -- JSON strings mapped onto the stored text --------------------------------------------


def string_offsets(text: str, node: Node) -> list[int]:
    """Stored-text offset of each decoded character of a JSON string node, plus its end."""
    out: list[int] = []
    i, end = node.start + 1, node.end - 1
    while i < end:
        if text[i] != "\\":
            out.append(i)
            i += 1
            continue
        if text[i + 1] == "u":
            cp = int(text[i + 2 : i + 6], 16)
            width = 6
            if 0xD800 <= cp < 0xDC00 and text.startswith("\\u", i + 6):
                width = 12  # a surrogate pair decodes to one character
            out.append(i)
            i += width
        else:
            out.append(i)
            i += 2
    out.append(end)
    return out


@dataclass(frozen=True)
class JsonText:
    """A decoded JSON string and the map from its offsets to the stored text's."""

    value: str
    offsets: list[int]

    def stored(self, text: str, start: int, end: int) -> tuple[int, int] | None:
        """The stored span of decoded [start, end), or None when it is not verbatim there."""
        if not 0 <= start < end <= len(self.value):
            return None
        s, e = self.offsets[start], self.offsets[end]
        return (s, e) if text[s:e] == self.value[start:end] else None


def json_text(text: str, node: Node | None) -> JsonText | None:
    if node is None or not isinstance(node.value, str):
        return None
    offsets = string_offsets(text, node)
    if len(offsets) != len(node.value) + 1:
        return None  # a decoding this map does not follow: cite nothing rather than guess
    return JsonText(node.value, offsets)


def map_candidates(cands: list[Candidate], jt: JsonText, text: str) -> list[Candidate]:
    """Move candidates cited in the decoded string onto the stored text; drop the rest."""
    out: list[Candidate] = []
    for c in cands:
        if c.citation is None:
            continue
        loc = c.citation.locator
        span = jt.stored(text, loc.start, loc.end)
        if span is None:
            continue
        cit = c.citation.model_copy(update={"locator": Locator(start=span[0], end=span[1],
                                                               page=loc.page, line=loc.line)})
        out.append(c.model_copy(update={"citation": cit}))
    return out


# -- detection --------------------------------------------------------------------------


def _root(text: str) -> Node | None:
    if len(text) > MAX_CHARS or not text.lstrip(" \t\r\n").startswith("{"):
        return None
    try:
        root = parse_spans(text)
    except JSONSpanError:
        return None
    return root if isinstance(root.value, dict) else None


def _wikitext(parse: Node) -> Node | None:
    w = parse.get("wikitext")
    if w is not None and isinstance(w.value, dict):  # formatversion=1: {"*": "..."}
        w = w.get("*")
    return w if w is not None and isinstance(w.value, str) else None


def _kind(root: Node) -> str | None:
    parse = root.get("parse")
    if parse is not None and isinstance(parse.value, dict) and parse.str("title") and (
            _wikitext(parse) is not None or parse.get("text") is not None):
        return "parse"
    if root.str("extract") and root.str("title") and root.get("pageid") is not None and (
            root.get("extract_html") is not None or root.get("displaytitle") is not None):
        return "summary"
    return None


def detect(snap: Snapshot, raw: bytes | None = None) -> bool:
    """An `action=parse` answer (with wikitext or HTML) or a REST page summary."""
    head = snap.text[:4000]
    if '"parse"' not in head and '"extract"' not in snap.text:
        return False
    root = _root(snap.text)
    return root is not None and _kind(root) is not None


# -- infobox ------------------------------------------------------------------------------


def _clean(value: str) -> str:
    """Visible text of a wikitext value: links to their text, templates and tags dropped."""
    v = _COMMENT.sub("", value)
    v = _LINK.sub(lambda m: m.group("text"), v)
    for _ in range(3):
        v = _TEMPLATE.sub("", v)
    return " ".join(v.replace("'''", "").replace("''", "").split()).strip(" ,;")


def infobox_date(value: str) -> GenDate | None:
    """`{{birth date|1952|3|11}}`, `{{death date and age|2001|5|11|...}}` or plain text."""
    m = _DATE_TPL.search(value)
    if m:
        y, mo, d = int(m.group("y")), m.group("m"), m.group("d")
        try:
            return GenDate.from_parts(y, int(mo) if mo else None,
                                      int(d) if mo and d else None,
                                      original=m.group(0).strip())
        except ValueError:
            return None
    clean = _clean(value)
    return parse_date(clean) if clean else None


def _infobox(doc: RecordDoc, jt: JsonText, text: str) -> None:
    w = jt.value
    m = _INFOBOX.search(w)
    if m is None:
        return
    depth, i = 0, m.start()
    while i < len(w) - 1:  # the infobox ends where its braces balance
        pair = w[i : i + 2]
        if pair == "{{":
            depth, i = depth + 1, i + 2
            continue
        if pair == "}}":
            depth, i = depth - 1, i + 2
            if depth == 0:
                break
            continue
        i += 1
    body_start, body_end = m.start(), i
    fields = {f.group("key").strip().lower().replace(" ", "_"): f
              for f in _FIELD.finditer(w, body_start, body_end)}
    if not PERSON_KEYS & {k for k, f in fields.items() if f.group("value")}:
        return  # not a person's infobox (an album, a wine region)
    name = None
    for key in ("name", "birth_name"):
        f = fields.get(key)
        span = jt.stored(text, *f.span("line")) if f else None
        value = _clean(f.group("value")) if f else ""
        if f and span and value and _NAME_OK.match(value):
            name = name or value
            doc.emit("p1", "name", value, span, 0.9, f"infobox {key}", subject_name=name)
    for key, fld in DATE_KEYS.items():
        f = fields.get(key)
        span = jt.stored(text, *f.span("line")) if f else None
        g = infobox_date(f.group("value")) if f else None
        if span and g is not None and g.iso():
            doc.emit("p1", fld, g.iso(), span, 0.9, f"infobox {key}", date=g)
    for key, fld in PLACE_KEYS.items():
        f = fields.get(key)
        span = jt.stored(text, *f.span("line")) if f else None
        value = _clean(f.group("value")) if f else ""
        if span and value:
            doc.emit("p1", fld, value, span, 0.85, f"infobox {key}")
    n = 1
    for key, fld in REL_KEYS.items():
        f = fields.get(key)
        span = jt.stored(text, *f.span("line")) if f else None
        if not span or f is None:
            continue
        raw_v = f.group("value")
        names = [mm.group("name").strip() for mm in _MARRIAGE.finditer(raw_v)] or [
            p.strip() for p in re.split(r"<br\s*/?>|\n|;", _COMMENT.sub(
                lambda t: "<br>" if t.group(0).lower().startswith("<br") else "", raw_v))]
        for rel in (_clean(x) for x in names):
            if not rel or not _NAME_OK.match(rel) or len(rel.split()) < 2:
                continue  # "2" children, "none": nobody to name
            n += 1
            key_rel = f"p{n}"
            doc.emit(key_rel, "name", rel, span, 0.85, f"named in the infobox {key}",
                     subject_name=rel)
            inverse = {"parent": "child", "child": "parent", "spouse": "spouse"}[fld]
            doc.emit("p1", fld, rel, span, 0.85, f"infobox {key}", related=key_rel,
                     related_name=rel)
            if name:
                doc.emit(key_rel, inverse, name, span, 0.85, f"infobox {key} of {name}",
                         related="p1", related_name=name)


# -- extraction -------------------------------------------------------------------------


def extract(snap: Snapshot, raw: bytes | None = None) -> list[Candidate]:
    """Infobox candidates (parse) or lead-text candidates (REST summary)."""
    root = _root(snap.text)
    kind = _kind(root) if root is not None else None
    if root is None or kind is None:
        return []
    text = snap.text
    if kind == "parse":
        doc = RecordDoc(text, snap.id, evidence_type=EvidenceType.SECONDARY,
                        source_reliability=0.5)
        jt = json_text(text, _wikitext(root.get("parse")))  # type: ignore[arg-type]
        if jt is not None:
            _infobox(doc, jt, text)
        return doc.out

    jt = json_text(text, root.get("extract"))
    if jt is None:
        return []
    cands = extract_text(jt.value, snap.id, evidence_type=EvidenceType.SECONDARY,
                         source_reliability=0.5)
    return map_candidates(cands, jt, text)
