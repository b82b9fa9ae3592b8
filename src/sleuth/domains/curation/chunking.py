"""Deterministic chunking (seed 002 "Pipeline Functions (Not Agents)": no model, no agent):
a stored file cut into pieces a search can rank, each one a run of the file's own lines.

Pure functions over text. Every `Chunk` is lines [start, end] of the text it was cut from,
verbatim (`text == "\\n".join(lines[start - 1:end])`), so its citation is the document and
those lines; `context` says where it sits (a Markdown heading path, an FPP declaration's
scope) and is searched with it, never quoted as the source.

- Markdown (the SDDs): one chunk per section (heading to the next heading); a table is a
  chunk of its own (its header row in the context), split into groups of `TABLE_ROWS` rows
  when longer; prose longer than `MAX_CHARS` is split at blank lines.
- FPP (`.fpp`, `.fppi`): one chunk per declaration with the `@` annotations and comments
  directly above it and its continuation lines (`\\`, open brackets, a `format` or
  `severity` line); `module`, `component` and `topology` blocks give a header chunk and
  their members; other blocks (enum, struct, connections) one chunk each, split at blank
  lines past `MAX_LINES`; one-line declarations with no blank line between them (a run of
  `instance` or `constant` lines) share a chunk.
- Anything else: paragraphs (blank-line separated) grouped up to `MAX_CHARS`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

CHUNKER = "curation-chunks-2"  # stored with each row: a new version re-chunks the case
MAX_CHARS = 1500
MAX_LINES = 40
TABLE_ROWS = 12


@dataclass(frozen=True)
class Chunk:
    kind: str  # section, table, declaration, text
    context: str
    start: int  # first line, 1-based
    end: int  # last line, inclusive
    text: str


def lines_of(text: str) -> list[str]:
    """The text's lines as `Chunk.text` joins them (split on "\\n" only, so a "\\r" stays)."""
    return text.split("\n")


def _chunk(lines: list[str], kind: str, context: str, a: int, b: int) -> Chunk | None:
    """Lines [a, b] (1-based) without blank lines at either end; None when all blank."""
    while a <= b and not lines[a - 1].strip():
        a += 1
    while b >= a and not lines[b - 1].strip():
        b -= 1
    if a > b:
        return None
    return Chunk(kind, context, a, b, "\n".join(lines[a - 1:b]))


def chunk_file(text: str, doc: str) -> list[Chunk]:
    """The chunks of one stored file, by its name."""
    name = doc.lower()
    if name.endswith((".fpp", ".fppi")):
        return fpp_chunks(text)
    if name.endswith((".md", ".markdown")):
        return markdown_chunks(text)
    return paragraph_chunks(text)


# -- plain text ---------------------------------------------------------------------------


def _paragraphs(lines: list[str], a: int, b: int) -> Iterator[tuple[int, int]]:
    """(first, last) line of each blank-line separated paragraph in [a, b]."""
    start = None
    for n in range(a, b + 1):
        if lines[n - 1].strip():
            start = n if start is None else start
        elif start is not None:
            yield start, n - 1
            start = None
    if start is not None:
        yield start, b


def _grouped(lines: list[str], a: int, b: int, limit: int = MAX_CHARS
             ) -> Iterator[tuple[int, int]]:
    """Paragraphs of [a, b] grouped into runs of at most `limit` characters (a longer
    paragraph alone, cut every `MAX_LINES` lines)."""
    group: tuple[int, int] | None = None

    def size(x: int, y: int) -> int:
        return sum(len(line) + 1 for line in lines[x - 1:y]) - 1

    for p, q in _paragraphs(lines, a, b):
        while q - p + 1 > MAX_LINES:  # one very long paragraph: cut it by lines
            if group:
                yield group
                group = None
            yield p, p + MAX_LINES - 1
            p += MAX_LINES
        if group and size(group[0], q) > limit:
            yield group
            group = None
        group = (group[0], q) if group else (p, q)
    if group:
        yield group


def paragraph_chunks(text: str, context: str = "") -> list[Chunk]:
    lines = lines_of(text)
    out = [_chunk(lines, "text", context, p, q) for p, q in _grouped(lines, 1, len(lines))]
    return [c for c in out if c]


# -- Markdown -----------------------------------------------------------------------------

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")


def _heading_lines(lines: list[str]) -> list[tuple[int, int, str]]:
    """(line, level, title) of each ATX heading outside code fences."""
    out, fenced = [], False
    for n, line in enumerate(lines, start=1):
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced and (m := _HEADING.match(line)):
            out.append((n, len(m.group(1)), m.group(2).strip()))
    return out


def _tables(lines: list[str], a: int, b: int) -> list[tuple[int, int]]:
    """(first, last) line of each pipe table in [a, b]: a header row with a `|`, a rule
    line, and the rows with a `|` that follow."""
    out, n, fenced = [], a, False
    while n <= b:
        line = lines[n - 1]
        if _FENCE.match(line):
            fenced = not fenced
        elif (not fenced and "|" in line and n < b and _TABLE_RULE.match(lines[n])
              and "|" in lines[n] + line):
            end = n + 1
            while end < b and "|" in lines[end] and lines[end].strip():
                end += 1
            out.append((n, end))
            n = end + 1
            continue
        n += 1
    return out


def markdown_chunks(text: str) -> list[Chunk]:
    lines = lines_of(text)
    heads = _heading_lines(lines)
    bounds = [(1, 0, ""), *heads]  # the preamble (a Doxygen \page line) before the first
    path: list[tuple[int, str]] = []
    out: list[Chunk] = []
    for i, (start, level, title) in enumerate(bounds):
        end = bounds[i + 1][0] - 1 if i + 1 < len(bounds) else len(lines)
        if level:
            path = [(lv, t) for lv, t in path if lv < level] + [(level, title)]
        context = " > ".join(t for _, t in path)
        if start > end or (not level and start == end == 0):
            continue
        out.extend(_section(lines, context, start, end))
    return out


def _section(lines: list[str], context: str, a: int, b: int) -> Iterator[Chunk]:
    """One section's chunks: prose runs (split at blank lines past MAX_CHARS) and tables."""
    at = a
    for p, q in [*_tables(lines, a, b), (b + 1, b)]:
        for x, y in _grouped(lines, at, p - 1):
            if c := _chunk(lines, "section", context, x, y):
                yield c
        if p > b:
            break
        header = lines[p - 1].strip()
        tctx = f"{context} | table: {header}" if context else f"table: {header}"
        if q - p + 1 <= TABLE_ROWS + 2:
            if c := _chunk(lines, "table", tctx, p, q):
                yield c
        else:
            first = p + 2 + TABLE_ROWS - 1  # the header, its rule and the first rows
            if c := _chunk(lines, "table", tctx, p, first):
                yield c
            for r in range(first + 1, q + 1, TABLE_ROWS):
                if c := _chunk(lines, "table", tctx, r, min(r + TABLE_ROWS - 1, q)):
                    yield c
        at = q + 1


# -- FPP ----------------------------------------------------------------------------------

_CONTAINERS = {"module", "component", "topology"}
_CONTINUES = re.compile(r"^\s*(severity|format|id|opcode|throttle|update|default|set|save|"
                        r"base|queue|stack|priority|cpu|at|low|high|red|orange|yellow)\b")
_RULE = re.compile(r"^\s*#\s*[-=*]{4,}\s*$")
_KEYWORD = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")


def _code(line: str) -> str:
    """The line without its `#` comment and string literals (for counting brackets)."""
    line = re.sub(r'"(?:[^"\\]|\\.)*"', '""', line)
    return line.split("#", 1)[0]


def _brackets(line: str) -> int:
    """Open minus closed ( and [ on the line (a statement goes on while some are open)."""
    c = "" if line.lstrip().startswith("@") else _code(line)
    return c.count("(") + c.count("[") - c.count(")") - c.count("]")


def _opens_block(line: str) -> bool:
    c = "" if line.lstrip().startswith("@") else _code(line)
    return c.count("{") > c.count("}")


def _is_note(line: str) -> bool:
    return line.strip().startswith(("@", "#"))


def _title(line: str) -> str:
    return " ".join(_code(line).replace("{", " ").split())


def fpp_chunks(text: str) -> list[Chunk]:
    lines = lines_of(text)
    out: list[Chunk] = []
    _fpp_block(lines, 1, len(lines), [], out)
    return out


def _statement_end(lines: list[str], n: int, b: int) -> int:
    """The last line of the statement starting at line n: ( and [ closed, no trailing
    backslash, the next line no continuation keyword, or a block's `{` opened."""
    depth, m = 0, n
    while True:
        line = lines[m - 1]
        depth += _brackets(line)
        if _opens_block(line) and depth <= 0:
            return m
        cont = _code(line).rstrip().endswith("\\")
        nxt = lines[m] if m < b else ""
        if m >= b or (depth <= 0 and not cont and not _CONTINUES.match(nxt)):
            return m
        m += 1


def _fpp_block(lines: list[str], a: int, b: int, scope: list[str], out: list[Chunk]) -> None:
    """Chunks of lines [a, b] inside `scope` (the enclosing module/component names)."""
    n = a
    notes: int | None = None  # first line of the notes directly above the next statement
    run: tuple[int, int] | None = None  # one-line statements sharing a chunk
    banner = ""  # the words of the last `# ---- Commands ----` comment block

    def context() -> str:
        return " > ".join([*scope, banner] if banner else scope)

    def flush() -> None:
        nonlocal run
        if run and (c := _chunk(lines, "declaration", context(), *run)):
            out.append(c)
        run = None

    while n <= b:
        line = lines[n - 1]
        s = line.strip()
        if not s or s.startswith("}"):
            flush()
            block = lines[notes - 1:n - 1] if notes is not None and not s else []
            if block and all(x.strip().startswith("#") for x in block) and any(
                    _RULE.match(x) for x in block):  # a `# ----` banner, not commented code
                words = [w.strip("# -=*") for w in block]
                banner = " ".join(w for w in words if w) or banner
            notes = None
            n += 1
            continue
        if _is_note(line):
            notes = notes or n
            n += 1
            continue
        end = _statement_end(lines, n, b)
        first, notes = notes or n, None
        if _opens_block(lines[end - 1]):
            flush()
            words = _KEYWORD.findall(_code(line))
            container = next((w for w in words[:3] if w in _CONTAINERS), None)
            close = _block_close(lines, end, b)
            if container:
                inner = [*scope, _title(line)]
                if c := _chunk(lines, "declaration", " > ".join(inner), first, end):
                    out.append(c)
                _fpp_block(lines, end + 1, close - 1, inner, out)
            else:
                title = " > ".join([*scope, *([banner] if banner else []), _title(line)])
                for x, y in _split_long(lines, first, close):
                    if c := _chunk(lines, "declaration", title, x, y):
                        out.append(c)
            n = close + 1
            continue
        if end == n and first == n:  # a bare one-line statement: joins its neighbours
            if run and run[1] == n - 1 and n - run[0] < MAX_LINES:
                run = (run[0], n)
            else:
                flush()
                run = (n, n)
            n += 1
            continue
        flush()
        if c := _chunk(lines, "declaration", context(), first, end):
            out.append(c)
        n = end + 1
    flush()


def _block_close(lines: list[str], n: int, b: int) -> int:
    """The line whose `}` closes the block opened on line n (b when none does)."""
    depth = 0
    for m in range(n, b + 1):
        c = "" if lines[m - 1].lstrip().startswith("@") else _code(lines[m - 1])
        depth += c.count("{") - c.count("}")
        if depth <= 0:
            return m
    return b


def _split_long(lines: list[str], a: int, b: int) -> Iterator[tuple[int, int]]:
    """[a, b] whole, or cut at blank lines into runs of at most MAX_LINES lines."""
    if b - a + 1 <= MAX_LINES:
        yield a, b
        return
    start, last_blank = a, None
    for n in range(a, b + 1):
        if not lines[n - 1].strip():
            last_blank = n
        if n - start + 1 >= MAX_LINES:
            cut = last_blank if last_blank and last_blank > start else n
            yield start, cut
            start, last_blank = cut + 1, None
    if start <= b:
        yield start, b
