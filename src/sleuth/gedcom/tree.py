"""A stored GEDCOM snapshot read back: the structures its citations point at, and its records.

An imported fact is cited by the line of the structure that states it (`1 BIRT`, `1 NAME`,
`1 CHIL @I3@`: `Locator.line`), and the snapshot is immutable, so everything the tree said
about that fact (its own source citations with PAGE, QUAY, DATA/DATE, DATA/TEXT and NOTE,
its notes, media links and custom tags) can be read again from the stored text whenever an
output needs it. Nothing has to be copied into the database at import, and nothing is lost.

`Tree` parses one snapshot once and indexes the level-1 structures of its INDI and FAM
records by line; `Item` is a detached, editable copy of a structure (what an exporter
rewrites: pointers renamed, tags fitted to the output version); `tree_citations` gives the
tree's citations of a structure in plain fields, for reports that want to name them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from sleuth.gedcom.reader import Gedcom, Node, parse_gedcom
from sleuth.model.errors import InputError

VOID = "@VOID@"
_SPACES = re.compile(r"\s+")


@dataclass(slots=True)
class Item:
    """One GEDCOM structure, detached from the text it was read from."""

    tag: str
    value: str = ""
    pointer: str | None = None
    children: list[Item] = field(default_factory=list)

    def first(self, tag: str) -> Item | None:
        return next((c for c in self.children if c.tag == tag), None)

    def key(self) -> tuple[object, ...]:
        """The structure's whole content: two items with the same key say the same."""
        return (self.tag, self.value, self.pointer, tuple(c.key() for c in self.children))


def lift(node: Node) -> Item:
    """A detached copy of `node` and its substructures (CONC/CONT already folded)."""
    pointer = node.pointer
    return Item(node.tag, "" if pointer else node.value, pointer,
                [lift(c) for c in node.children])


class Tree:
    """One GEDCOM snapshot, parsed once: records by xref, level-1 structures by line."""

    def __init__(self, text: str) -> None:
        self.ged: Gedcom = parse_gedcom(text, require_head=False)  # as stored (--lenient)
        self.records = [r for r in self.ged.records if r.tag not in ("HEAD", "TRLR")]
        self.by_xref: dict[str, Node] = {r.xref: r for r in self.records if r.xref}
        self.at_line: dict[int, tuple[Node, Node]] = {}
        for r in self.records:
            if r.tag in ("INDI", "FAM"):
                for c in r.children:
                    self.at_line[c.line] = (r, c)

    def structure(self, line: int | None) -> tuple[Node, Node] | None:
        """(record, level-1 structure) whose own line is `line`, for INDI and FAM records."""
        return self.at_line.get(line) if line is not None else None

    def schema(self) -> list[tuple[str, str]]:
        """A 7.0 file's extension tag definitions (`HEAD.SCHMA.TAG _X uri`)."""
        head = self.ged.records[0]
        out: list[tuple[str, str]] = []
        for schma in head.all("SCHMA"):
            for tag in schma.all("TAG"):
                name, _, uri = tag.value.strip().partition(" ")
                if name.startswith("_") and uri.strip():
                    out.append((name, uri.strip()))
        return out


@lru_cache(maxsize=8)
def tree_of(text: str) -> Tree:
    """The parsed tree of a snapshot text (a report asks for many citations of one file)."""
    return Tree(text)


@dataclass(frozen=True, slots=True)
class TreeCitation:
    """One source citation a tree gives for a structure, in plain fields."""

    source: str  # the cited SOUR record's title (or an inline source's text)
    xref: str | None  # the SOUR record's xref in the tree; None for an inline source
    page: str = ""
    quality: str = ""  # QUAY 0-3
    date: str = ""  # DATA/DATE: when the source recorded it
    text: tuple[str, ...] = ()  # DATA/TEXT (and 5.5.1 inline TEXT): the tree's transcription
    notes: tuple[str, ...] = ()  # inline NOTE texts (shared notes by their text too)


def source_title(record: Node | None) -> str:
    """A SOUR record's title: TITL, else ABBR, else its value."""
    if record is None:
        return ""
    for tag in ("TITL", "ABBR"):
        if (value := (record.value_of(tag) or "").strip()):
            return _SPACES.sub(" ", value)
    return _SPACES.sub(" ", record.value).strip()


def citations_of(tree: Tree, node: Node) -> list[TreeCitation]:
    """The SOUR citations directly under `node`, each with its source's title."""
    out: list[TreeCitation] = []
    for cite in node.all("SOUR"):
        pointer = cite.pointer
        if pointer is None and not cite.value.strip():
            continue
        title = source_title(tree.by_xref.get(pointer)) if pointer else cite.value.strip()
        data = cite.first("DATA")
        texts = [t.value for t in (data.all("TEXT") if data is not None else [])]
        texts += [t.value for t in cite.all("TEXT")]
        notes: list[str] = []
        for n in cite.all("NOTE") + cite.all("SNOTE"):
            shared = tree.by_xref.get(n.pointer) if n.pointer else None
            notes.append(shared.value if shared is not None else n.value)
        out.append(TreeCitation(
            source=title, xref=pointer, page=(cite.value_of("PAGE") or "").strip(),
            quality=(cite.value_of("QUAY") or "").strip(),
            date=((data.value_of("DATE") if data is not None else None) or "").strip(),
            text=tuple(t for t in texts if t.strip()),
            notes=tuple(n for n in notes if n.strip())))
    return out


def tree_citations(text: str, line: int | None) -> list[TreeCitation]:
    """What the tree cites for the structure on `line` (and, for a FAM link, its FAM record).

    `text` is a GEDCOM snapshot's text and `line` a citation's `Locator.line`: a fact's own
    citations, then, for a family link (HUSB, WIFE, CHIL), the FAM record's.
    """
    try:
        tree = tree_of(text)
    except InputError:  # not a GEDCOM text (or the Censor emptied it)
        return []
    found = tree.structure(line)
    if found is None:
        return []
    record, node = found
    out = citations_of(tree, node)
    if node.tag in ("HUSB", "WIFE", "CHIL"):
        out += citations_of(tree, record)
    return out
