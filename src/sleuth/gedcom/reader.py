"""GEDCOM lines to a tree of records, keeping every line's character span.

The span is the point: an imported fact is cited by the GEDCOM lines that state it, so each
node knows the offsets of its own line and of its whole subtree in the decoded text.
CONC/CONT continuation lines are folded into their parent's value (5.5.1 and 7.0 rules)
while the span grows to cover them. Real files are messy, so malformed lines are reported
with their line number and skipped; a file that does not start with `0 HEAD` is refused.

Speed and memory (benchmarks/gedcom.py): a 100k-person tree is 1.5 million lines, so the loop
is written for CPython: lines split a chunk at a time, the common line read by `str.split`
with the regex only as the judge of anything unusual, slotted nodes filled in place, and one
shared empty tuple as the children of every leaf. A node stores no offsets and, usually, no
value string: where each line starts sits once in a compact array shared by the tree, the
node keeps its line number and the length of its value, and `start`, `end`, `value` and
`last` are read from the text on demand. Only a value that differs from its line's tail
(CONC/CONT folded in, `@@` unescaped) is kept as a string. A node is then 88 bytes plus its
line number, where three offsets and the value string added some 160 more: the 100k-person
tree's peak memory fell from 445 MB to 274 MB, below gedcom7's 329 MB.
"""

from __future__ import annotations

import gc
import re
from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import accumulate, repeat
from operator import add

from sleuth.model import limits
from sleuth.model.errors import InputError, InputProblem

_LINE = re.compile(
    r"[ \t]*(?P<level>\d{1,2})[ \t]+(?:(?P<xref>@[^@\s][^@]{0,4000}@)[ \t]+)?"
    r"(?P<tag>[A-Za-z0-9_]{1,63})(?:[ \t](?P<value>.*))?"
)
_NEWLINE_SPLIT = re.compile(r"(\r\n|\r|\n)")
_POINTER = re.compile(r"@[^@\s#][^@]{0,80}@")
_LEAF: tuple[Node, ...] = ()


class _Lines:
    """Where the text's lines start (and, when line ends are mixed, end): one per tree."""

    __slots__ = ("ends", "folds", "starts", "step", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        # 4 bytes a line for any text under 4 G characters; entry n is line n+1's start, the
        # last one where a line after the final one would start
        self.starts = array("I" if len(text) < (1 << 32) - 4 else "q")
        self.ends: array[int] | None = None  # only for a file that mixes CR, LF and CRLF
        self.step = 0  # the line end's length when one kind ends every line
        self.folds: dict[int, int] = {}  # line of a folded value -> its last CONC/CONT line

    def end(self, no: int) -> int:
        """Offset just past the text of 1-based line `no` (before its line end)."""
        ends = self.ends
        return ends[no - 1] if ends is not None else self.starts[no] - self.step


class Node:
    """One GEDCOM structure: its line, its folded value, and its substructures.

    `line`, `start`, `end` (of the own line plus its CONC/CONT lines), `last` (end of the
    whole subtree) and `value` are computed from the shared line table; see the module doc.
    """

    __slots__ = ("_at", "_no", "_v", "children", "level", "tag", "xref")
    level: int
    tag: str
    xref: str | None
    # A parsed leaf shares one empty tuple (a list apiece would cost 56 bytes per node).
    children: Sequence[Node]
    _no: int  # 1-based line number of the structure's own line
    _v: int | str  # length of the value (the tail of the line), or the value itself
    _at: _Lines

    @property
    def line(self) -> int:
        return self._no

    @property
    def start(self) -> int:
        """Character offset of the structure's own line in the decoded text."""
        return self._at.starts[self._no - 1]

    @property
    def end(self) -> int:
        """End of the structure's own line plus its CONC/CONT lines."""
        no = self._no
        if self._v.__class__ is str:
            no = self._at.folds.get(no, no)
        return self._at.end(no)

    @property
    def last(self) -> int:
        """End offset of the whole subtree: a later line always ends later."""
        node = self
        while node.children:
            node = node.children[-1]
        return node.end

    @property
    def value(self) -> str:
        v = self._v
        if v.__class__ is str:
            return v
        if not v:
            return ""
        at = self._at
        e = at.end(self._no)
        return at.text[e - v : e]  # type: ignore[operator]

    @property
    def pointer(self) -> str | None:
        """The xref this structure points to (`1 FAMC @F1@`), if its value is a pointer."""
        value = self.value
        return value if _POINTER.fullmatch(value) else None

    @property
    def span(self) -> tuple[int, int]:
        return self.start, self.last

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

    def __repr__(self) -> str:
        return (f"Node(level={self.level}, tag={self.tag!r}, value={self.value!r}, "
                f"xref={self.xref!r}, line={self.line}, span={self.span}, "
                f"children={len(self.children)})")


@dataclass
class Gedcom:
    text: str
    records: list[Node]
    problems: list[tuple[int, str]]
    version: str | None = None
    # the same problems, typed and located for `sleuth.gedcom.validate` (issue 26)
    issues: list[InputProblem] = field(default_factory=list)

    def by_xref(self) -> dict[str, Node]:
        return {r.xref: r for r in self.records if r.xref}

    def of_tag(self, tag: str) -> list[Node]:
        return [r for r in self.records if r.tag == tag]


_CHUNK = 1 << 16  # characters split at a time: fast like one split, without a list of all lines


def _chunks(text: str, at: _Lines) -> Iterator[list[str]]:
    """The lines (without their ends) a chunk at a time, filling in where each one starts.

    Nearly every file uses one line end throughout, and `str.split` on it beats a regex scan
    by far; a file that mixes CR, LF and CRLF is split by the regex.
    """
    starts = at.starts
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
        starts.extend(accumulate(map(add, map(len, lines), map(len, parts[1::2])), initial=0))
        if len(starts) == len(lines):  # no line end after the last line
            starts.append(len(text))
        at.ends = array(starts.typecode, map(add, starts, map(len, lines)))
        yield lines
        return
    step = at.step = len(sep)
    pos = 0
    while pos < len(text):
        cut = text.find(sep, pos + _CHUNK)
        if cut < 0:
            lines = text[pos:].split(sep)
            if lines[-1] == "":
                lines.pop()
        else:
            lines = text[pos:cut].split(sep)
        if starts:
            starts.pop()  # the previous chunk's "next start" is this chunk's first
        # each line's start, and after the last one where the next line would start (past
        # the text by `step` when the last line has no line end)
        starts.extend(accumulate(map(add, map(len, lines), repeat(step)), initial=pos))
        yield lines
        if cut < 0:
            return
        pos = cut + step


# The fast path reads the common `LEVEL [@XREF@ ]TAG[ VALUE]` line with single spaces by
# `str.split`; anything it does not recognise (tabs, extra spaces, a BOM, odd levels or tags)
# goes to the regex, which alone decides what is malformed.
_LEVELS = {str(i): i for i in range(100)} | {f"0{i}": i for i in range(10)}
_TAG = re.compile(r"[A-Za-z0-9_]{1,63}")


def parse_gedcom(text: str, *, file: str | None = None, strict: bool = False,
                 require_head: bool = True) -> Gedcom:
    """Parse decoded GEDCOM text; malformed lines go to `problems` (or raise when strict).

    `require_head=False` reads a file whose first line is a level-0 record other than
    `0 HEAD` (a missing HEAD is then a problem, not an error): what `--lenient` stores.

    The cyclic garbage collector is paused meanwhile: a parse allocates a node a line and
    no cycle, and inside a process that already holds a large case (an export parses the
    stored tree beside the whole case graph) each collection it triggers would walk that
    heap: 1.2 s instead of 0.15 s for royal92.
    """
    paused = gc.isenabled()
    gc.disable()
    try:
        return _parse(text, file, strict, require_head)
    finally:
        if paused:
            gc.enable()


def _parse(text: str, file: str | None, strict: bool, require_head: bool) -> Gedcom:
    problems: list[tuple[int, str]] = []
    issues: list[InputProblem] = []
    records: list[Node] = []
    # stack[i] is the open structure of level i: a level that jumps is read as one below
    stack: list[Node] = []
    tags: dict[str, str] = {}  # tags seen, as written -> upper case
    at = _Lines(text)
    folds = at.folds
    seen_head = False
    v7 = False
    no = 0
    escapes = "@@" in text  # most files have none: skip the per-line look
    levels = _LEVELS.get
    known = tags.get
    new = object.__new__
    for lines in _chunks(text, at):
        limits.checkpoint()
        for raw in lines:
            no += 1
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
            if tag is None or level is None:  # (a tag is only read after a level)
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
                    words = raw.split(None, 2)
                    issues.append(InputProblem(
                        "line", "not a GEDCOM line (level, optional @xref@, tag, value)", no,
                        words[1].upper() if len(words) > 1 and _TAG.fullmatch(words[1])
                        else None))
                    continue
                level = int(m.group("level"))
                tag = m.group("tag").upper()
                value = m.group("value") or ""
                xref = m.group("xref")
            if not seen_head:
                if level != 0 or (tag != "HEAD" and require_head):
                    raise InputError("not a GEDCOM file: the first record must be 0 HEAD",
                                     file=file, line=no)
                seen_head = True
                if tag != "HEAD":
                    problems.append((no, "no 0 HEAD record"))
                    issues.append(InputProblem(
                        "head", "no 0 HEAD record: the file's first record is "
                        f"0 {xref + ' ' if xref else ''}{tag}", no, tag))
            # the value is the tail of its line: its length says it, unless unescaped below
            held: int | str = len(value)
            if escapes:
                if v7:
                    if value.startswith("@@"):
                        held = value = value[1:]  # 7.0 escapes only a leading @
                elif "@@" in value:
                    held = value = value.replace("@@", "@")  # 5.5.1 doubles every @ in a value
            depth = len(stack)
            if level >= depth:  # a substructure of the open one
                if not depth:
                    if level:
                        problems.append((no, f"level {level} line outside any record"))
                        issues.append(InputProblem(
                            "level", f"level {level} line outside any record", no, tag))
                        continue
                    parent = None
                else:
                    parent = stack[-1]
                    if level == depth:
                        if tag == "CONC" or tag == "CONT":
                            parent._v = parent.value + (
                                ("\n" + value) if tag == "CONT" else value)
                            folds[parent._no] = no
                            continue
                    else:
                        msg = f"level {level} jumps more than one below level {depth - 1}"
                        if strict:
                            raise InputError(msg, file=file, line=no, field=tag)
                        problems.append((no, msg))
                        issues.append(InputProblem(
                            "level", f"{msg} (its parent {parent.tag} is on line {parent._no})",
                            no, tag))
                        level = depth
            else:  # close the structures this line ends
                del stack[level:]
                parent = stack[-1] if level else None
            # Filling the slots here skips an __init__ call: 10% of the whole parse.
            node = new(Node)
            node.level = level
            node.tag = tag
            node.xref = xref
            node.children = _LEAF  # until it has a child: most structures never do
            node._no = no
            node._v = held
            node._at = at
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
    if not seen_head:
        raise InputError("not a GEDCOM file: no 0 HEAD record", file=file)
    version = None
    head = records[0]
    gedc = head.first("GEDC") if head.tag == "HEAD" else None
    if gedc is not None:
        version = gedc.value_of("VERS")
    if records[-1].tag != "TRLR":
        problems.append((no, "no 0 TRLR at the end (file may be truncated)"))
        issues.append(InputProblem(
            "trailer", "no 0 TRLR at the end (the file may be truncated)", no))
    return Gedcom(text, records, problems, version, issues)


def xref(value: str) -> str:
    """A cross-reference without its @ signs ("@I1@" -> "I1"): the id readers key records by."""
    return value.strip().strip("@")
