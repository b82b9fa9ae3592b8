"""GEDCOM lines to a tree of records, keeping every line's character span.

The span is the point: an imported fact is cited by the GEDCOM lines that state it, so each
node knows the offsets of its own line and of its whole subtree in the decoded text.
CONC/CONT continuation lines are folded into their parent's value (5.5.1 and 7.0 rules)
while the span grows to cover them. Real files are messy, so malformed lines are reported
with their line number and skipped; a file that does not start with `0 HEAD` is refused.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from sleuth.model.errors import InputError

_LINE = re.compile(
    r"[ \t]*(?P<level>\d{1,2})[ \t]+(?:(?P<xref>@[^@\s][^@]{0,4000}@)[ \t]+)?"
    r"(?P<tag>[A-Za-z0-9_]{1,63})(?:[ \t](?P<value>.*))?"
)
_NEWLINE = re.compile(r"\r\n|\r|\n")
_POINTER = re.compile(r"@[^@\s#][^@]{0,80}@")


@dataclass
class Node:
    """One GEDCOM structure: its line, its folded value, and its substructures."""

    level: int
    tag: str
    value: str
    xref: str | None
    line: int  # 1-based line number of the structure's own line
    start: int  # character offset of the line in the decoded text
    end: int  # end of the structure's own line plus its CONC/CONT lines
    children: list[Node] = field(default_factory=list)
    last: int = 0  # end offset of the whole subtree

    @property
    def pointer(self) -> str | None:
        """The xref this structure points to (`1 FAMC @F1@`), if its value is a pointer."""
        return self.value if _POINTER.fullmatch(self.value) else None

    @property
    def span(self) -> tuple[int, int]:
        return self.start, max(self.last, self.end)

    def first(self, tag: str) -> Node | None:
        return next((c for c in self.children if c.tag == tag), None)

    def all(self, tag: str) -> list[Node]:
        return [c for c in self.children if c.tag == tag]

    def value_of(self, tag: str) -> str | None:
        c = self.first(tag)
        return c.value if c else None

    def walk(self) -> Iterator[Node]:
        yield self
        for c in self.children:
            yield from c.walk()


@dataclass
class Gedcom:
    text: str
    records: list[Node]
    problems: list[tuple[int, str]]
    version: str | None = None

    def by_xref(self) -> dict[str, Node]:
        return {r.xref: r for r in self.records if r.xref}

    def of_tag(self, tag: str) -> list[Node]:
        return [r for r in self.records if r.tag == tag]


def _lines(text: str) -> Iterator[tuple[int, int, int]]:
    """(line number, start, end) of every line, for any mix of CR, LF and CRLF."""
    pos = 0
    no = 1
    for m in _NEWLINE.finditer(text):
        yield no, pos, m.start()
        pos = m.end()
        no += 1
    if pos < len(text):
        yield no, pos, len(text)


def parse_gedcom(text: str, *, file: str | None = None, strict: bool = False) -> Gedcom:
    """Parse decoded GEDCOM text; malformed lines go to `problems` (or raise when strict)."""
    problems: list[tuple[int, str]] = []
    records: list[Node] = []
    stack: list[Node] = []
    seen_head = False
    v7 = False
    for no, s, e in _lines(text):
        raw = text[s:e]
        if not raw.strip():
            continue
        m = _LINE.fullmatch(raw.lstrip("\ufeff"))
        if m is None:
            msg = f"not a GEDCOM line: {raw[:60]!r}"
            if not seen_head:
                raise InputError(f"not a GEDCOM file ({msg})", file=file, line=no)
            if strict:
                raise InputError(msg, file=file, line=no)
            problems.append((no, msg))
            continue
        level = int(m.group("level"))
        tag = m.group("tag").upper()
        value = m.group("value") or ""
        if not seen_head:
            if level != 0 or tag != "HEAD":
                raise InputError("not a GEDCOM file: the first record must be 0 HEAD",
                                 file=file, line=no)
            seen_head = True
        if v7 and value.startswith("@@"):
            value = value[1:]  # 7.0 escapes only a leading @
        elif not v7 and "@@" in value:
            value = value.replace("@@", "@")  # 5.5.1 doubles every @ in a value
        if tag in ("CONC", "CONT") and stack and level == stack[-1].level + 1:
            parent = stack[-1]
            parent.value += ("\n" if tag == "CONT" else "") + value
            parent.end = e
            for anc in stack:
                anc.last = max(anc.last, e)
            continue
        if stack and level > stack[-1].level + 1:
            msg = f"level {level} jumps more than one below level {stack[-1].level}"
            if strict:
                raise InputError(msg, file=file, line=no, field=tag)
            problems.append((no, msg))
            level = stack[-1].level + 1
        if not stack and level != 0:
            problems.append((no, f"level {level} line outside any record"))
            continue
        while stack and stack[-1].level >= level:
            stack.pop()
        node = Node(level, tag, value, m.group("xref"), no, s, e, last=e)
        if stack:
            stack[-1].children.append(node)
            for anc in stack:
                anc.last = max(anc.last, e)
        else:
            records.append(node)
        stack.append(node)
        if tag == "VERS" and level == 2 and value.strip().startswith("7."):
            v7 = True
    if not seen_head:
        raise InputError("not a GEDCOM file: no 0 HEAD record", file=file)
    version = None
    head = records[0]
    gedc = head.first("GEDC")
    if gedc is not None:
        version = gedc.value_of("VERS")
    if records[-1].tag != "TRLR":
        problems.append((no, "no 0 TRLR at the end (file may be truncated)"))
    return Gedcom(text, records, problems, version)
