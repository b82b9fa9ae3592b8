"""GEDCOM lines to a tree of records, keeping every line's character span.

The span is the point: an imported fact is cited by the GEDCOM lines that state it, so each
node knows the offsets of its own line and of its whole subtree in the decoded text.
CONC/CONT continuation lines are folded into their parent's value (5.5.1 and 7.0 rules)
while the span grows to cover them. Real files are messy, so malformed lines are reported
with their line number and skipped; a file that does not start with `0 HEAD` is refused.

Speed (benchmarks/gedcom.py): a 100k-person tree is 1.5 million lines, so the loop is written
for CPython: lines split a chunk at a time, the common line read by `str.split` with the regex
only as the judge of anything unusual, a subtree's end handed to its parent when the parent's
structure closes (not to every ancestor per line), slotted nodes filled in place, and one
shared empty tuple as the children of every leaf.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import repeat

from sleuth.model.errors import InputError

_LINE = re.compile(
    r"[ \t]*(?P<level>\d{1,2})[ \t]+(?:(?P<xref>@[^@\s][^@]{0,4000}@)[ \t]+)?"
    r"(?P<tag>[A-Za-z0-9_]{1,63})(?:[ \t](?P<value>.*))?"
)
_NEWLINE_SPLIT = re.compile(r"(\r\n|\r|\n)")
_POINTER = re.compile(r"@[^@\s#][^@]{0,80}@")
_LEAF: tuple[Node, ...] = ()


@dataclass(slots=True)
class Node:
    """One GEDCOM structure: its line, its folded value, and its substructures."""

    level: int
    tag: str
    value: str
    xref: str | None
    line: int  # 1-based line number of the structure's own line
    start: int  # character offset of the line in the decoded text
    end: int  # end of the structure's own line plus its CONC/CONT lines
    # A parsed leaf shares one empty tuple (a list apiece would cost 72 bytes per node).
    children: Sequence[Node] = field(default_factory=list)
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


_CHUNK = 1 << 16  # characters split at a time: fast like one split, without a list of all lines


def _chunks(text: str) -> Iterator[tuple[list[str], Iterable[int]]]:
    """The lines (without their ends) a chunk at a time, and the length of each line's end.

    Nearly every file uses one line end throughout, and `str.split` on it beats a regex scan
    by far; a file that mixes CR, LF and CRLF is split by the regex.
    """
    cr = text.count("\r")
    sep = None
    if not cr:
        sep = "\n"
    elif "\n" not in text:
        sep = "\r"
    elif text.count("\r\n") == cr == text.count("\n"):
        sep = "\r\n"
    if sep is None:
        parts = _NEWLINE_SPLIT.split(text)
        lines = parts[0::2]
        if lines[-1] == "":
            lines.pop()  # a final line end does not open another line
        yield lines, [*(len(x) for x in parts[1::2]), 0]
        return
    step = len(sep)
    ends = repeat(step)
    pos = 0
    while pos < len(text):
        cut = text.find(sep, pos + _CHUNK)
        if cut < 0:
            lines = text[pos:].split(sep)
            if lines[-1] == "":
                lines.pop()
            yield lines, ends
            return
        yield text[pos:cut].split(sep), ends
        pos = cut + step


# The fast path reads the common `LEVEL [@XREF@ ]TAG[ VALUE]` line with single spaces by
# `str.split`; anything it does not recognise (tabs, extra spaces, a BOM, odd levels or tags)
# goes to the regex, which alone decides what is malformed.
_LEVELS = {str(i): i for i in range(100)} | {f"0{i}": i for i in range(10)}
_TAG = re.compile(r"[A-Za-z0-9_]{1,63}")


def parse_gedcom(text: str, *, file: str | None = None, strict: bool = False) -> Gedcom:
    """Parse decoded GEDCOM text; malformed lines go to `problems` (or raise when strict)."""
    problems: list[tuple[int, str]] = []
    records: list[Node] = []
    stack: list[Node] = []
    tags: dict[str, str] = {}  # tags seen, as written -> upper case
    seen_head = False
    v7 = False
    no = 0
    pos = 0
    escapes = "@@" in text  # most files have none: skip the per-line look
    levels = _LEVELS.get
    known = tags.get
    new = object.__new__
    for lines, ends in _chunks(text):
        for raw, eol in zip(lines, ends, strict=False):
            no += 1
            s = pos
            e = pos + len(raw)
            pos = e + eol
            # -- fast path ---------------------------------------------------------------------
            parts = raw.split(" ", 2)
            level = levels(parts[0])
            tag = xref = None
            if level is not None and len(parts) > 1:
                word = parts[1]
                if word[:1] != "@":
                    tag = known(word)
                    if tag is None and _TAG.fullmatch(word):
                        tag = tags[word] = word.upper()
                    value = parts[2] if len(parts) > 2 else ""
                elif (
                    len(parts) > 2
                    and 3 <= len(word) <= 4003
                    and word[-1] == "@"
                    and "@" not in word[1:-1]
                    and not word[1].isspace()
                ):
                    xref = word
                    word, _, value = parts[2].partition(" ")
                    tag = known(word)
                    if tag is None and _TAG.fullmatch(word):
                        tag = tags[word] = word.upper()
            # -- the regex decides everything else ---------------------------------------------
            if tag is None:
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
                xref = m.group("xref")
            if not seen_head:
                if level != 0 or tag != "HEAD":
                    raise InputError("not a GEDCOM file: the first record must be 0 HEAD",
                                     file=file, line=no)
                seen_head = True
            if escapes:
                if v7:
                    if value.startswith("@@"):
                        value = value[1:]  # 7.0 escapes only a leading @
                elif "@@" in value:
                    value = value.replace("@@", "@")  # 5.5.1 doubles every @ in a value
            if stack:
                top = stack[-1]
                depth = top.level
                if level > depth:  # a substructure of the open one
                    if level == depth + 1:
                        if tag == "CONC" or tag == "CONT":
                            top.value += ("\n" + value) if tag == "CONT" else value
                            top.end = top.last = e
                            continue
                    else:
                        msg = f"level {level} jumps more than one below level {depth}"
                        if strict:
                            raise InputError(msg, file=file, line=no, field=tag)
                        problems.append((no, msg))
                        level = depth + 1
                    parent: Node | None = top
                else:
                    # Close the structures this line ends; each hands its subtree's end up.
                    while True:
                        stack.pop()
                        if not stack:
                            parent = None
                            break
                        parent = stack[-1]
                        if top.last > parent.last:
                            parent.last = top.last
                        if parent.level < level:
                            break
                        top = parent
            elif level:
                problems.append((no, f"level {level} line outside any record"))
                continue
            else:
                parent = None
            # Filling the slots here skips the dataclass __init__ call: 10% of the whole parse.
            node = new(Node)
            node.level = level
            node.tag = tag
            node.value = value
            node.xref = xref
            node.line = no
            node.start = s
            node.end = e
            node.children = _LEAF  # until it has a child: most structures never do
            node.last = e
            if parent is not None:
                kids = parent.children
                if kids:
                    kids.append(node)  # type: ignore[attr-defined]
                else:
                    parent.children = [node]
            else:
                records.append(node)
            stack.append(node)
            if tag == "VERS" and level == 2 and value.strip().startswith("7."):
                v7 = True
    while len(stack) > 1:  # close what is still open at the end of the file
        top = stack.pop()
        if top.last > stack[-1].last:
            stack[-1].last = top.last
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
