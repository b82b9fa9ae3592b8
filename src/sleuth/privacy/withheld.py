"""The stretches of a source's text withheld for the living, wherever else they are quoted.

The Censor replaces a living person's every excerpt by its marker because excerpts quote
exact dates. The same stretch of a source is often cited for a dead person too - an
obituary's "She married Steven Joseph Golden in 1932." is the dead wife's marriage and
spouse, and the living husband's name - and quoted there it printed the year the marker
withheld, beside the marker, in every output. `Withheld` holds, per snapshot, the union of
the spans cited for the living (their claims, couple events shared with them, hypotheses
about them): a quote of one of those very spans is withheld as its marker is, and a quote
that overlaps one and holds a year in the overlap is withheld whole (an excerpt is never
cut, so what remains is verbatim); a shown snapshot text has those years masked in place,
same length, so every locator stays valid. A year is what a
decade-coarsened date must not show; exact days and months are the Censor's secrets
everywhere already.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Iterator

from sleuth.model.citation import Citation

Span = tuple[str, int, int]  # (snapshot id, start, end)
# a year as a date writes it; "1930s" is already no finer than the policy's decade
YEAR_RE = re.compile(r"(?<!\d)(?:1\d{3}|20\d{2})(?!\d)(?!s\b)")


def merged(spans: Iterable[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """Sorted, disjoint intervals covering `spans` (empty ones left out)."""
    out: list[list[int]] = []
    for a, b in sorted(s for s in spans if s[1] > s[0]):
        if out and a <= out[-1][1]:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return tuple((a, b) for a, b in out)


class Withheld:
    """Per snapshot, the spans cited for the living (`spans`) and their union as sorted,
    disjoint intervals (`by_snapshot`); see the module docstring."""

    def __init__(self, spans: dict[str, frozenset[tuple[int, int]]]) -> None:
        self.spans = {sid: got for sid, got in spans.items() if got}
        self.by_snapshot = {sid: merged(got) for sid, got in self.spans.items()}
        self._starts = {sid: [a for a, _ in iv] for sid, iv in self.by_snapshot.items()}

    @classmethod
    def of(cls, spans: Iterable[Span]) -> Withheld:
        grouped: dict[str, set[tuple[int, int]]] = {}
        for sid, a, b in spans:
            grouped.setdefault(sid, set()).add((a, b))
        return cls({sid: frozenset(v) for sid, v in grouped.items()})

    def __bool__(self) -> bool:
        return bool(self.by_snapshot)

    def overlaps(self, sid: str, start: int, end: int) -> Iterator[tuple[int, int]]:
        """The parts of [start, end) of snapshot `sid` that are withheld."""
        spans = self.by_snapshot.get(sid)
        if not spans:
            return
        i = max(bisect_right(self._starts[sid], start) - 1, 0)
        for a, b in spans[i:]:
            if a >= end:
                break
            if b > start:
                yield max(a, start), min(b, end)

    def withholds(self, c: Citation) -> bool:
        """Whether `c`'s excerpt is to be withheld: it quotes a withheld span itself, or
        shows a year where it overlaps one (the whole excerpt is read where it is not the
        span's text character for character)."""
        sid = c.snapshot_id
        spans = self.spans.get(sid)
        if spans is None:  # most citations: a source no living person is cited in
            return False
        start, end = c.locator.start, c.locator.end
        if (start, end) in spans:
            return True
        exact = len(c.excerpt) == end - start
        for a, b in self.overlaps(sid, start, end):
            part = c.excerpt[a - start:b - start] if exact else c.excerpt
            if YEAR_RE.search(part):
                return True
        return False

    def years_in(self, sid: str, text: str) -> Iterator[tuple[int, int]]:
        """(start, end) of each year of `text` (snapshot `sid`'s) inside a withheld span."""
        for a, b in self.by_snapshot.get(sid, ()):
            for m in YEAR_RE.finditer(text, a, min(b, len(text))):
                if m.end() <= b:
                    yield m.start(), m.end()

    def mask(self, sid: str, text: str) -> str:
        """`text` with every year inside a withheld span masked, same length."""
        hits = list(self.years_in(sid, text))
        if not hits:
            return text
        parts: list[str] = []
        at = 0
        for a, b in hits:
            parts += [text[at:a], "█" * (b - a)]
            at = b
        parts.append(text[at:])
        return "".join(parts)
