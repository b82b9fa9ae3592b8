"""Generic CSS-selector extraction for sources written as YAML alone (seed 000 §4.1).

A spec's `extraction` rules say which element holds which field (`h1#bio-name` is the
name, `#birthDateLabel` the birth date). The snapshot text of an HTML page is its *visible*
text (`sleuth.text.html_text`), so a value read from the markup must still be
cited where the page shows it: we rebuild the visible text node by node, exactly as
`html_text` does, and give every text node its span (the approach of `wikitree.py`). When
the rebuild disagrees with the snapshot the node's text is searched for verbatim instead,
and a value that is not in the visible text (an attribute, hidden markup) is never emitted.

A record whose `required` fields are not all on the page is not that record (a search
page, an error page): it yields nothing, and a page with no complete record is not
recognised at all, so the caller falls back to the prose extractor.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from selectolax.lexbor import LexborHTMLParser, LexborNode

from sleuth.extract.dates import DATE_FIND, parse_date
from sleuth.extract.records.common import RecordDoc
from sleuth.extract.records.html_spans import (
    Span,
    node_span,
    shown_text,
    text_node_lines,
    trim_span,
)
from sleuth.model.dates import GenDate
from sleuth.model.records import Candidate, Snapshot
from sleuth.text import decode_text

if TYPE_CHECKING:
    from sleuth.model.source_spec import FieldRule, SourceSpec


_CHARSET = re.compile(r"charset=[\"']?([A-Za-z0-9_.:-]{1,40})", re.I)
_NUMBER = re.compile(r"[+-]?\d{1,15}(?:[.,]\d{1,15}){0,4}")
# A fuzzy date stops at the first note in brackets: "3 Jan 1921 (aged 70)".
_DATE_NOTE = re.compile(r"\s*[(\[]")
_TRIM = " \t\n,;:"
_CONFIDENCE = {"text": 0.9, "name": 0.9, "place": 0.9, "date": 0.9, "url": 0.85,
               "number": 0.85}


def detect(snap: Snapshot, raw: bytes | None, spec: SourceSpec | None) -> bool:
    """An HTML snapshot of a source with extraction rules and a complete record on it."""
    if raw is None or spec is None or not spec.extraction:
        return False
    if not snap.media_type.startswith(("text/html", "application/xhtml")):
        return False
    return bool(extract(snap, raw, spec))


def extract(snap: Snapshot, raw: bytes | None, spec: SourceSpec | None) -> list[Candidate]:
    """One subject per record type (`p1`, `p2`... in the spec's order), cited verbatim."""
    if raw is None or spec is None or not spec.extraction:
        return []
    tree = _parse(raw, snap)
    if tree is None:
        return []
    doc = RecordDoc(snap.text, snap.id, evidence_type=snap.evidence_type,
                    source_reliability=spec.reliability.base_weight)
    index = _VisibleIndex(tree, snap.text)
    for i, (record, rules) in enumerate(spec.extraction.items()):
        _record(doc, index, tree, f"p{i + 1}", record, rules, spec)
    return doc.out


# -- one record -------------------------------------------------------------------------


def _record(doc: RecordDoc, index: _VisibleIndex, tree: LexborHTMLParser, subject: str,
            record: str, rules: dict[str, FieldRule], spec: SourceSpec) -> None:
    found: dict[str, tuple[str, Span, GenDate | None]] = {}
    for field, rule in rules.items():
        got = _field(index, tree, rule)
        if got is not None:
            found[field] = got
        elif rule.required:
            return  # not this kind of record: emit nothing rather than a partial one
    name_field = next((f for f, r in rules.items() if f == "name" or r.type == "name"), None)
    subject_name = found[name_field][0] if name_field in found else None
    for field, (value, span, gd) in found.items():
        rule = rules[field]
        why = f"{spec.name} {record} {field} ({rule.selector})"
        doc.emit(subject, field, value, span, _CONFIDENCE[rule.type], why,
                 subject_name=subject_name, date=gd)


def _field(index: _VisibleIndex, tree: LexborHTMLParser,
           rule: FieldRule) -> tuple[str, Span, GenDate | None] | None:
    """The first selected element whose value the page shows, typed; None if none does."""
    for node in _select(tree, rule.selector):
        span = index.span(node)
        if span is None:
            continue
        if rule.attribute is not None:
            attr = (node.attributes.get(rule.attribute) or "").strip()
            span = index.find(attr, span) if attr else None
            if span is None:
                continue  # an attribute the page does not show is never a citation
        typed = _typed(index.text, _trim(index.text, span), rule)
        if typed is not None:
            return typed
    return None


def _typed(text: str, span: Span, rule: FieldRule) -> tuple[str, Span, GenDate | None] | None:
    shown = text[span[0] : span[1]]
    if rule.type == "date":
        gd = parse_date(" ".join(shown.split()))
        if gd is None and (m := _DATE_NOTE.search(shown)) and m.start() > 0:
            cut = _trim(text, (span[0], span[0] + m.start()))
            gd = parse_date(" ".join(text[cut[0] : cut[1]].split()))
            span = cut if gd is not None else span
        if gd is None and rule.format in (None, "fuzzy"):
            # A fuzzy cell may wrap its date in words ("buried 4 May 1788"): the first date
            # phrase the prose scanner finds in it is the value, cited on its own.
            for m in DATE_FIND.finditer(text, span[0], span[1]):
                if (gd := parse_date(" ".join(m.group().split()))) is not None:
                    span = m.span()
                    break
        return (gd.iso(), span, gd) if gd is not None else None
    if rule.type == "number":
        m = _NUMBER.search(shown)
        if m is None:
            return None
        return m.group(), (span[0] + m.start(), span[0] + m.end()), None
    value = " ".join(shown.split())
    return (value, span, None) if value else None


def _select(tree: LexborHTMLParser, selector: str) -> Iterable[LexborNode]:
    try:
        return tree.css(selector)
    except Exception:  # a selector lexbor cannot parse selects nothing (spec load checks it)
        return ()


def _trim(text: str, span: Span) -> Span:
    return trim_span(text, span, _TRIM)


def _parse(raw: bytes, snap: Snapshot) -> LexborHTMLParser | None:
    """The page as the fetcher decoded it (declared charset, else the strict decoder)."""
    html: str | None = None
    headers = snap.metadata.get("response_headers") if isinstance(snap.metadata, dict) else None
    ctype = str((headers or {}).get("content-type", ""))
    if m := _CHARSET.search(ctype):
        try:
            html = raw.decode(m.group(1))
        except (LookupError, UnicodeDecodeError):
            html = None
    if html is None:
        try:
            html = decode_text(raw, snap.url or snap.path or "page")[0]
        except Exception:  # InputError or anything a broken byte stream raises
            return None
    tree = LexborHTMLParser(html)
    for node in tree.css("script, style, noscript, template"):
        node.decompose()
    return tree


# -- grounding --------------------------------------------------------------------------


class _VisibleIndex:
    """Spans of every text node in the visible text, rebuilt the way `html_text` builds it."""

    def __init__(self, tree: LexborHTMLParser, text: str) -> None:
        self.text = text
        self.node_lines: dict[int, list[Span]] = {}
        self.cursor = 0
        self.exact = self._build(tree)

    def _build(self, tree: LexborHTMLParser) -> bool:
        self.node_lines, rebuilt = text_node_lines(tree, self.text)
        return rebuilt == self.text

    def span(self, node: LexborNode) -> Span | None:
        """Where `node`'s visible text is in the snapshot (None when it shows nothing)."""
        if self.exact:
            return node_span(node, self.node_lines)
        shown = shown_text(node)
        found = self.find(shown, (self.cursor, len(self.text))) or self.find(shown)
        if found:
            self.cursor = found[1]
        return found

    def find(self, needle: str, within: Span | None = None) -> Span | None:
        """The first verbatim occurrence of `needle` (inside `within` when given)."""
        if not needle:
            return None
        s, e = within or (0, len(self.text))
        i = self.text.find(needle, s, e)
        return None if i < 0 else (i, i + len(needle))
