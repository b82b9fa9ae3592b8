"""A reading view of OCR text: words the page broke at a line end are read whole.

Newspaper columns are narrow and their OCR drops most end-of-line hyphens, so "Ma\\nbry",
"she mar\\nried", "de\\nceased" and "West In\\ndies" are everywhere. Patterns that read "dies"
as a death, or "Ma" and "bry" as two words, lose the relatives and dates a reader sees. The
view joins such a break when the two pieces read as one word: the joined word is in an
English word list (pyspellchecker's frequency list) and, when both pieces are words too,
more likely as one word than as two ("re|sided" joins, "at|one" does not); or it is the rest
of a capitalised name ("Ma|bry", "McCon|nellsburg": the tail is no word on its own).

A year or a month OCR misread by a letter or two ("1J16", "18G5", "Jauuary") reads as that
year or month, and a couple's "Air. and Mrs." as "Mr. and Mrs."; the firewall grounds
such a year by the same rule (`verify.normalise.ocr_year`).
Debris the OCR read at a line's start (a column rule as "|", "!" or "I") reads as blanks.

The view has the source's length: the break's own characters move in front of the word
("Mrs. Ma\\nbry," reads "Mrs. \\nMabry,"), so every offset outside a joined word is the
source's offset, and a span that cuts into a joined word widens to the whole of it
(`Reading.to_source`). Excerpts are always sliced from the source, never the view; the
firewall grounds a joined word by the same rule (`verify.normalise.line_joins`).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache

from sleuth.verify.normalise import ocr_years

Span = tuple[int, int]

# (and "Robert Mc|Clellan": a "Mc" or "Mac" the line end parted from the rest of the name)
_BREAK = re.compile(r"(?<![A-Za-z'])(?P<a>(?P<mc>Mc|Mac)(?![A-Za-z])|[A-Za-z]+)"
                    r"(?P<brk>-?[ \t]*\r?\n[ \t]*)"
                    r"(?P<b>[a-z][a-z]*|(?(mc)[A-Z][a-z]+|(?!)))(?![A-Za-z])")


_VOWEL = re.compile(r"[aeiouy]")


@lru_cache(maxsize=1)
def _lexicon() -> tuple[dict[str, int], int]:
    """English word -> frequency, and the total count (loaded on first use, ~0.3 s)."""
    from spellchecker import SpellChecker  # heavy-ish: only OCR text with breaks needs it

    freq = SpellChecker(language="en", distance=1).word_frequency
    return dict(freq.dictionary), int(freq.total_words)


def joins(a: str, b: str, lexicon: tuple[dict[str, int], int] | None = None) -> bool:
    """Is `a` + line break + `b` one word broken by the line end?"""
    words, total = lexicon or _lexicon()
    low = a.lower()
    whole = words.get(low + b)
    fa, fb = words.get(low), words.get(b)
    if whole is not None:
        if fa is None or fb is None:
            return True
        return whole * total >= fa * fb  # a unigram model: one word beats two
    if a[0].isupper():
        # "Ma|bry": the rest of a name; not "December|ft." (a whole word, then an abbreviation)
        return (fb is None and len(b) >= 2 and (fa is None or len(a) <= 4)
                and _VOWEL.search(b) is not None)
    return fa is None and fb is None and len(a) + len(b) >= 5  # "ceme|tary": garbled, whole


@lru_cache(maxsize=1 << 16)
def _joins(a: str, b: str) -> bool:
    """`joins` against the word list, remembered: the same breaks recur page after page."""
    return joins(a, b)


@dataclass(frozen=True)
class Reading:
    """`text` as read (same length as the source) and the joined words' source spans."""

    text: str
    joined: tuple[Span, ...] = ()

    def to_source(self, s: int, e: int) -> Span:
        """A view span as a source span: an end or start inside a joined word widens to it."""
        if not self.joined:
            return s, e
        i = bisect_right(self.joined, (s, len(self.text) + 1)) - 1
        if i >= 0 and self.joined[i][0] < s < self.joined[i][1]:
            s = self.joined[i][0]
        j = bisect_right(self.joined, (e, len(self.text) + 1)) - 1
        if j >= 0 and self.joined[j][0] < e < self.joined[j][1]:
            e = self.joined[j][1]
        return s, e


# Column rules and specks the OCR read as a character at a line's start: "a\nI brother;",
# "! wayville. Pa.", "i and Willis". Read as blanks (same length).
DEBRIS = re.compile(r"(?m)^[ \t]*(?:[|!;,'\"\]\[{}?]+|[Iij](?=[ \t]+[a-z]))[ \t]+")


def _blank(m: re.Match[str]) -> str:
    return " " * len(m.group())


_MONTHS = ("January", "February", "March", "April", "August", "September", "October",
           "November", "December")
_MONTH_LIKE = re.compile(r"(?<![A-Za-z])[A-Z][a-z]{4,8}(?=\.?,?[ \t\n]{0,3}[0-9])")


_MONTHS_BY_SHAPE: dict[tuple[int, str], list[str]] = {}
for _m in _MONTHS:
    _MONTHS_BY_SHAPE.setdefault((len(_m), _m[0]), []).append(_m)


def _month(word: str) -> str | None:
    """'Jauuary' -> 'January': a capitalised non-word one letter from a month's name."""
    for month in _MONTHS_BY_SHAPE.get((len(word), word[0]), ()):
        if month != word and sum(a != b for a, b in zip(word, month, strict=True)) == 1:
            return month if word.lower() not in _lexicon()[0] else None
    return None


# A speck after a month's name: "September' 3, 1873"
_MONTH_SPECK = re.compile(r"(?<=[a-z])['`\"]+(?=[ \t]{0,2}\d)")


# "Air. and Mrs. Jesso Redman": the OCR's "Ai" for an "M" in the couple's title (no other
# reading of "Air. and Mrs." exists); read " Mr." (same length: the blank goes in front)
_AIR_COUPLE = re.compile(r"(?<![\w.])Air\.(?=[ \t\n]+and[ \t\n]+Mrs\.)")


def _mend(text: str) -> str:
    """Years and months as OCR misprinted them, read as printed ("1J16", "Jauuary")."""
    if "'" in text or "`" in text or '"' in text:
        text = _MONTH_SPECK.sub(_blank, text)
    if "Air." in text:
        text = _AIR_COUPLE.sub("Mr. ", text)
    found = ocr_years(text)
    months = [(m.start(), name) for m in _MONTH_LIKE.finditer(text)
              if (name := _month(m.group())) is not None] if _MONTH_LIKE.search(text) else []
    if not found and not months:
        return text
    chars = list(text)
    for pos, word in [*found, *months]:
        chars[pos:pos + len(word)] = word
    return "".join(chars)


def reading_view(text: str) -> Reading:
    """The text with line-broken words joined, line-start debris blanked and misread years and
    months mended (see the module docstring)."""
    text = _mend(text)
    if "\n" not in text:
        return Reading(text)
    text = DEBRIS.sub(_blank, text)
    pieces: list[str] = []
    joined: list[Span] = []
    pos = 0
    for m in _BREAK.finditer(text):
        a, b = m.group("a", "b")
        if not (m.group("mc") or _joins(a, b)):
            continue
        pieces.append(text[pos:m.start()])
        pieces.append(m.group("brk").replace("-", " ") + a + b)
        joined.append((m.start(), m.end()))
        pos = m.end()
    if not joined:
        return Reading(text)  # (debris, if any, blanked)
    pieces.append(text[pos:])
    return Reading("".join(pieces), tuple(joined))
