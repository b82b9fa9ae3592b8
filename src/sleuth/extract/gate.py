"""Which sentences can hold a fact: trigger words matched on a lower-cased copy of the text.

Most sentences of a newspaper page hold no vital event, so the test that lets a sentence on
to the handlers runs on every sentence, and it cost more than all the handlers together.
Python's `re` matches a long alternation of words several times faster case-sensitively
than under IGNORECASE, so the test runs its pattern lower-cased on the document lower-cased
once: the same matches, as long as lower-casing keeps every offset (it does unless the text
holds a character such as a dotted capital I; then the case-insensitive pattern runs).
"""

from __future__ import annotations

import re


def lowered(text: str) -> str | None:
    """`text` lower-cased, or None when that would move an offset."""
    low = text.lower()
    return low if len(low) == len(text) else None


class Gate:
    """A case-insensitive pattern, also compiled lower-cased and case-sensitive for speed.

    `starts`: a character class of every character a match can start with, which lets `re`
    skip ahead over the rest (the pattern's own `\\b` does not)."""

    __slots__ = ("folded", "pattern")

    def __init__(self, pattern: str, starts: str) -> None:
        if re.search(r"\\[A-Z]|\(\?-?[a-z]*i", pattern):
            raise ValueError("a gate pattern must read the same lower-cased")
        self.pattern = re.compile(pattern, re.I)
        self.folded = re.compile(rf"(?=[{starts}])(?:{pattern.lower()})")

    def search(self, text: str, low: str | None, s: int, e: int) -> bool:
        """Does the pattern match in text[s:e]? (`low`: `lowered(text)`)"""
        if low is not None:
            return self.folded.search(low, s, e) is not None
        return self.pattern.search(text, s, e) is not None
