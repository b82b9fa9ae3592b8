"""Columns the OCR read side by side, put back in reading order.

A 1916 front page's OCR often reads two neighbouring columns line by line as one line:
"Mrs. Manary was born in In- the county, died Tuesday morn" /
"dependence, August 28, 1861, ing at his home, 303 Washington". Read as printed, the
birth's place loses its end and the death's day runs into the other item. Here such a
stretch is cut at its column gap and each column read on its own: the left pieces first,
then the right ones, every piece with its line break.

Wide single columns (an editorial across two column widths) have long lines too; a stretch
is read as two columns only when its words say so: a word the line end broke at the gap
("dis- Ewing"), or a word broken at one line's end whose rest opens the same column's next
piece ("morn" ... "ing at his home"), more often than a line's last word runs on into the
next line's first as one column would ("rep" / "resented").

The result is a permutation of the source's characters (the gap's blank becomes the left
piece's line break), so it has the source's length; `Order.to_source` maps a span of it
back to the source span that holds all of its characters. Excerpts are sliced from the
source, so a sentence read across pieces is cited by the printed lines that hold it, the
other column's words in between included.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

Span = tuple[int, int]
Segment = tuple[int, int, int]  # (start in the ordered text, end, start in the source)

_MIN_LINES = 12  # a column's lines needed to know its width
_LONG = 1.45  # a line this many column widths long may hold two columns
_TOO_LONG = 2.5  # three columns or more: left as printed
_REACH = 7  # lines between two long lines of one stretch, at most
_GAP = re.compile(r" +")
_LAST = re.compile(r"([A-Za-z]+)-?[ \t]*$")
_FIRST = re.compile(r"[ \t'\"!|,]{0,3}([a-z]+)\b")
_HYPHEN_END = re.compile(r"[A-Za-z]-$")
_STOP_END = re.compile(r"[.!?:;,]['\"]?$")
_RULE_SPECKS = frozenset("'!|")


@dataclass(frozen=True)
class Order:
    """The text in reading order and the moved stretches' segments (sorted); offsets
    outside every segment are the source's own."""

    text: str
    segments: tuple[Segment, ...] = ()
    _starts: tuple[int, ...] = field(init=False, repr=False, compare=False)
    _back: tuple[Segment, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # (looked up for every candidate: built once)
        back = tuple(sorted((src, src + r1 - r0, r0) for r0, r1, src in self.segments))
        object.__setattr__(self, "_starts", tuple(seg[0] for seg in self.segments))
        object.__setattr__(self, "_back", back)

    def to_source(self, s: int, e: int) -> Span:
        """The smallest source span holding every character of [s, e) (a point maps to
        a point)."""
        if not self.segments:
            return s, e
        i = bisect_right(self._starts, s) - 1
        if e <= s:
            p = self._point(i, s)
            return p, p
        lo = hi = None
        pos = s
        while pos < e:
            if i >= 0 and self.segments[i][0] <= pos < self.segments[i][1]:
                r0, r1, src = self.segments[i]
                b = min(e, r1)
                a_src, b_src = src + pos - r0, src + b - r0
            else:
                nxt = self.segments[i + 1][0] if i + 1 < len(self.segments) else e
                b = min(e, nxt)
                a_src, b_src = pos, b
            lo = a_src if lo is None else min(lo, a_src)
            hi = b_src if hi is None else max(hi, b_src)
            pos = b
            if i + 1 < len(self.segments) and pos >= self.segments[i + 1][0]:
                i += 1
        assert lo is not None and hi is not None
        return lo, hi

    def to_view(self, s: int, e: int) -> Span:
        """A source span (one piece's, such as a candidate's excerpt) in this text."""
        if not self.segments:
            return s, e
        back = self._back
        starts = [seg[0] for seg in back]

        def point(pos: int) -> int:
            i = bisect_right(starts, pos) - 1
            if i >= 0 and back[i][0] <= pos < back[i][1]:
                return back[i][2] + pos - back[i][0]
            return pos

        a, b = point(s), point(e - 1) + 1 if e > s else point(s)
        return (a, b) if a <= b else (b, a)

    def piece_end(self, s: int, e: int) -> int:
        """Where the piece (a moved segment, or the source's own stretch) holding `s` ends,
        or `e` if sooner."""
        i = bisect_right(self._starts, s) - 1
        if i >= 0 and self.segments[i][0] <= s < self.segments[i][1]:
            return min(e, self.segments[i][1])
        nxt = self.segments[i + 1][0] if i + 1 < len(self.segments) else e
        return min(e, nxt)

    def _point(self, i: int, pos: int) -> int:
        if i >= 0 and self.segments[i][0] <= pos < self.segments[i][1]:
            return self.segments[i][2] + pos - self.segments[i][0]
        return pos


def _lines(text: str) -> list[Span]:
    out = []
    pos = 0
    for line in text.split("\n"):
        out.append((pos, pos + len(line)))
        pos += len(line) + 1
    return out


def _width(text: str, lines: list[Span]) -> int | None:
    """The page's column width in characters: the commonest length (two at a time) of its
    lines of 12-50 characters (a newspaper's columns); None where too few lines are."""
    counts: Counter[int] = Counter()
    for s, e in lines:
        if 12 <= e - s <= 50 and sum(ch.isalnum() for ch in text[s:e]) >= 4:
            counts[(e - s) // 2] += 1
    if sum(counts.values()) < _MIN_LINES:
        return None
    best = max(sorted(counts), key=lambda k: counts[k - 1] + counts[k] + counts[k + 1])
    return best * 2 + 1


Words = Callable[[], tuple[dict[str, int], int]]  # the word list and its total count


def _joins(a: str, b: str, word_list: Words) -> bool:
    """`a`'s last word, broken at its end, and `b`'s first word are one word of the list."""
    ma, mb = _LAST.search(a), _FIRST.match(b)
    if ma is None or mb is None:
        return False
    words, total = word_list()
    x, y = ma.group(1).lower(), mb.group(1)
    whole = words.get(x + y)
    if whole is None:
        return False
    fx, fy = words.get(x), words.get(y)
    if fx is None or fy is None or _HYPHEN_END.search(a.rstrip()):
        return True
    return whole * total >= fx * fy


def _split(line: str, width: int, prev: tuple[str, str] | None, word_list: Words) -> int | None:
    """Where a long line's column gap is: a blank near one column width in, preferably
    after a word the line end broke ("dis-"), after a stop, before the column rule's speck,
    or where the right piece goes on with the word the line before it broke ("morn" /
    "ing")."""
    best: tuple[float, int] | None = None
    for m in _GAP.finditer(line):
        left, right = line[:m.start()], line[m.end():]
        if not (0.45 * width <= len(left) <= 1.45 * width and len(right) >= 0.25 * width):
            continue
        cost = abs(len(left) - width) * 0.5
        if _HYPHEN_END.search(left):
            cost -= 6
        if _STOP_END.search(left):
            cost -= 2
        if right[:1] in _RULE_SPECKS:
            cost -= 2  # "Sodeman. | ' Child's Funeral": the column rule read as a speck
        if prev is not None and _joins(prev[1], right, word_list):
            cost -= 6
        if best is None or cost < best[0]:
            best = (cost, m.start())
    return best[1] if best else None


def _stream(piece: str, streams: list[list[str]], prev_single: int | None,
            word_list: Words) -> int:
    """Which column a one-column line in a two-column stretch belongs to: the one whose
    last piece it goes on from ("sor-" / "row in the community."), else the previous such
    line's, else the left."""
    for k in (0, 1):
        if streams[k] and _joins(streams[k][-1], piece, word_list):
            return k
    return prev_single if prev_single is not None else 0


def column_order(text: str, word_list: Words) -> Order:
    """`text` with side-by-side columns read one after the other (see the module
    docstring); the text itself where there are none. `word_list` gives the English words
    and their frequencies (`reading.word_list`), asked for only where lines are long."""
    if text.count("\n") < _MIN_LINES:
        return Order(text)
    lines = _lines(text)
    width = _width(text, lines)
    if width is None:
        return Order(text)
    cuts: dict[int, int] = {}
    prev: tuple[str, str] | None = None
    for i, (s, e) in enumerate(lines):
        line = text[s:e]
        long = _LONG * width <= e - s < _TOO_LONG * width
        p = _split(line, width, prev, word_list) if long else None
        if p is None:
            prev = None
            continue
        cuts[i] = p
        prev = (line[:p], line[p:].lstrip(" "))
    segments: list[Segment] = []
    chars = None
    for first, last in _stretches(sorted(cuts)):
        if not _two_columns(text, lines, cuts, first, last, word_list):
            continue
        if chars is None:
            chars = list(text)
        segments.extend(_reorder(text, lines, cuts, (first, last), chars, word_list))
    if chars is None:
        return Order(text)
    return Order("".join(chars), tuple(sorted(segments)))


def _stretches(longs: list[int]) -> list[Span]:
    """Runs of long lines (first, last index) at most `_REACH` lines apart."""
    out: list[Span] = []
    for i in longs:
        if out and i - out[-1][1] <= _REACH:
            out[-1] = (out[-1][0], i)
        else:
            out.append((i, i))
    return [(a, b) for a, b in out if b > a]


def _two_columns(text: str, lines: list[Span], cuts: dict[int, int], first: int,
                 last: int, word_list: Words) -> bool:
    """Do the stretch's words read as two columns (breaks at the gap, a column's word
    going on in its next piece) more than as one wide column?"""
    split = full = 0
    for i in range(first, last + 1):
        s, e = lines[i]
        line = text[s:e]
        nxt = text[lines[i + 1][0]:lines[i + 1][1]] if i + 1 < len(lines) else ""
        if i not in cuts:
            continue
        left, right = line[:cuts[i]], line[cuts[i]:].lstrip(" ")
        if _HYPHEN_END.search(left):
            split += 1
        if i + 1 in cuts:
            nl, nr = nxt[:cuts[i + 1]], nxt[cuts[i + 1]:].lstrip(" ")
            split += _joins(right, nr, word_list) + _joins(left, nl, word_list)
        if nxt and _joins(line, nxt, word_list):
            full += 1
    return split >= 2 and split > full


def _reorder(text: str, lines: list[Span], cuts: dict[int, int], stretch: Span,
             chars: list[str], word_list: Words) -> list[Segment]:
    """Write the stretch's left pieces, then its right pieces, into `chars` (each piece
    with one line break: the gap's first blank, or the line's own) and return where each
    piece came from."""
    first, last = stretch
    start = lines[first][0]
    end = lines[last][1] + 1 if lines[last][1] < len(text) else lines[last][1]
    streams: list[list[str]] = [[], []]
    # source spans, each with its break character; True where that is the gap's blank
    pieces: list[list[tuple[int, int, bool]]] = [[], []]
    single: int | None = None
    for i in range(first, last + 1):
        s, e = lines[i]
        brk = e + 1 if e < len(text) else e
        if i in cuts:
            p = s + cuts[i]
            streams[0].append(text[s:p])
            streams[1].append(text[p:e].lstrip(" "))
            pieces[0].append((s, p + 1, True))
            pieces[1].append((p + 1, brk, False))
            single = None
            continue
        k = _stream(text[s:e], streams, single, word_list)
        streams[k].append(text[s:e])
        pieces[k].append((s, brk, False))
        single = k
    segments: list[Segment] = []
    pos = start
    for a, b, gap in [*pieces[0], *pieces[1]]:
        segments.append((pos, pos + b - a, a))
        chars[pos:pos + b - a] = text[a:b]
        if gap:
            chars[pos + b - a - 1] = "\n"  # the gap's blank ends the left piece's line
        pos += b - a
    assert pos == end, (pos, end)
    return segments
