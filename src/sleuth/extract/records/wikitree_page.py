"""A parsed WikiTree page: each node's span in the snapshot text, and the candidates
emitted from it (shared by the read views, `wikitree.py`, and the edit form, `wikitree_edit.py`)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from selectolax.lexbor import LexborHTMLParser, LexborNode

from sleuth.extract.dates import parse_date
from sleuth.extract.records.common import RecordDoc
from sleuth.extract.records.html_spans import (
    Span,
    node_span,
    shown_text,
    text_node_lines,
    trim_span,
)
from sleuth.model.dates import GenDate
from sleuth.model.records import Candidate

PROFILE_HREF = re.compile(r"/wiki/(?P<id>[^/#?:\s]{1,80}-\d{1,9})$")
_DECADE = re.compile(r"^(?P<y>\d{3})0s$")
# Placeholder "places" that WikiTree users type into the field; they name no place.
NOT_PLACES = frozenset({"unmarried", "unknown", "n/a", "none"})
# Words typed into a name field when the name is not known: no name.
NOT_NAMES = frozenset({"unknown", "anonymous"})


@dataclass(frozen=True)
class PageInfo:
    """What kind of WikiTree page this is; `privacy` is the profile's own privacy level."""

    wiki_id: str | None
    page_type: str  # "read" | "edit" | "edit_family"
    privacy: str | None
    layout: str  # "classic" | "2025"


class WikiTreePage:
    """One parsed page: node spans in the snapshot text plus the people found so far."""

    """One parsed page: node spans in the snapshot text plus the people found so far."""

    def __init__(self, tree: LexborHTMLParser, doc: RecordDoc, info: PageInfo) -> None:
        self.tree = tree
        self.doc = doc
        self.info = info
        self.node_lines: dict[int, list[Span]] = {}
        self.exact = self._index()
        self.cursor = 0
        self.keys: dict[str, str] = {}
        self.p1_name: str | None = None
        note = f"; privacy level {info.privacy}" if info.privacy and info.privacy != "Open" else ""
        self.note = f"WikiTree {info.page_type} page{note}"

    # -- grounding ----------------------------------------------------------------------
    def _index(self) -> bool:
        """Spans of every text node, rebuilt the way `html_text` builds the snapshot."""
        self.node_lines, rebuilt = text_node_lines(self.tree, self.doc.text)
        return rebuilt == self.doc.text

    def span(self, node: LexborNode | None) -> Span | None:
        """Where `node`'s visible text is in the snapshot (None when it shows nothing)."""
        if node is None:
            return None
        if self.exact:
            return node_span(node, self.node_lines)
        text = shown_text(node)
        found = self.doc.find(text, self.cursor) or self.doc.find(text)
        if found:
            self.cursor = found[1]
        return found

    def own_span(self, node: LexborNode) -> Span | None:
        """Span of `node` without trailing badges ("25°" distance, copy buttons)."""
        span = self.span(node)
        if span is None:
            return None
        for badge in node.css(".distanceFromYou, button, .copyWidget"):
            bspan = self.span(badge)
            if bspan and span[0] < bspan[0] < span[1]:
                span = (span[0], bspan[0])
        return trim_span(self.doc.text, span)

    def text_of(self, span: Span) -> str:
        return self.doc.text[span[0] : span[1]]

    # -- people -------------------------------------------------------------------------
    def relative(self, wiki_id: str | None, name: str) -> str:
        ident = wiki_id or f"name:{' '.join(name.split()).lower()}"
        if ident not in self.keys:
            self.keys[ident] = f"p{len(self.keys) + 2}"
        return self.keys[ident]

    def emit(self, subject: str, field: str, value: str, span: Span, conf: float, why: str,
             **kw: object) -> Candidate | None:
        return self.doc.emit(subject, field, value, span, conf, f"{why} ({self.note})",
                             **kw)  # type: ignore[arg-type]

    def emit_date(self, subject: str, field: str, span: Span, why: str,
                  related: str | None = None, related_name: str | None = None) -> None:
        span = trim_span(self.doc.text, span)
        gd = date_of(self.text_of(span))
        if gd is None:
            return
        self.emit(subject, field, gd.iso(), span, 0.95, why, date=gd,
                  related=related, related_name=related_name)

    def emit_place(self, subject: str, field: str, span: Span, why: str,
                   related: str | None = None) -> None:
        span = trim_span(self.doc.text, span, " \t\n,.")
        value = " ".join(self.text_of(span).split())
        if not value or value.lower() in NOT_PLACES or value.startswith("["):
            return
        self.emit(subject, field, value, span, 0.9, why, related=related)

    # -- read / private / logged-out views ----------------------------------------------

    def _field_value(self, node: LexborNode | None) -> tuple[Span, str] | None:
        """A field's trimmed span and its value, space-folded (None when it shows nothing)."""
        span = self.span(node)
        if span is None:
            return None
        span = trim_span(self.doc.text, span)
        return span, " ".join(self.text_of(span).split())

    def _name_field(self, node: LexborNode, field: str, why: str) -> None:
        got = self._field_value(node)
        if got and got[1] and not got[1].startswith("["):
            self.emit("p1", field, got[1], got[0], 0.95, why)

    def _emit_inner(self, field: str, span: Span, why: str) -> None:
        inner = trim_span(self.doc.text, (span[0] + 1, span[1] - 1))
        value = " ".join(self.text_of(inner).split())
        if value:
            self.emit("p1", field, value, inner, 0.9, why)



# -- helpers ----------------------------------------------------------------------------


def date_of(text: str) -> GenDate | None:
    """WikiTree's display dates, plus the decades ("1910s") private profiles show."""
    s = " ".join(text.split())
    if not s or s.startswith("["):
        return None
    gd = parse_date(s)
    if gd is None:
        m = _DECADE.match(s)
        if m:
            y = int(m.group("y")) * 10
            gd = parse_date(f"BET {y} AND {y + 9}")
            if gd is not None:
                gd = gd.model_copy(update={"original": s})
    return gd




def line_spans(text: str) -> list[Span]:
    out: list[Span] = []
    pos = 0
    for line in text.split("\n"):
        stripped = line.strip()
        if stripped:
            a = pos + line.index(stripped)
            out.append((a, a + len(stripped)))
        pos += len(line) + 1
    return out


def split_commas(text: str, base: int) -> list[tuple[str, Span]]:
    out: list[tuple[str, Span]] = []
    pos = 0
    for part in text.split(","):
        stripped = part.strip()
        if stripped:
            a = base + pos + part.index(stripped)
            out.append((stripped, (a, a + len(stripped))))
        pos += len(part) + 1
    return out


def closest_vitals(node: LexborNode | None) -> LexborNode | None:
    return closest_class(node, "VITALS")


def closest_class(node: LexborNode | None, cls: str) -> LexborNode | None:
    depth = 0
    while node is not None and depth < 12:
        if cls in (node.attributes.get("class") or "").split():
            return node
        node = node.parent
        depth += 1
    return None


def closest_id(node: LexborNode | None) -> LexborNode | None:
    depth = 0
    while node is not None and depth < 6:
        if (node.attributes.get("id") or "") in ("Father", "Mother", "Siblings", "Spouses",
                                                  "Children"):
            return node
        node = node.parent
        depth += 1
    return None
