"""The only normalisations the firewall tolerates when matching an excerpt to its source.

1. Unicode NFC (a precomposed "é" equals "e" + combining acute).
2. Whitespace folding: any run of spaces, tabs and line breaks is one space; ends are trimmed.
3. Soft hyphenation at line ends: "exam-\\nple" and "exam\\u00adple" read "example".
4. Typographic quotes: ‘ ’ ‚ ‛ ′ read ', and “ ” „ ‟ ″ read ".

Nothing else (no case folding, no spelling, no OCR guessing): a citation either says what the
source says, under these rules, or it is not a citation.

One more reading holds for the *words* of a value (a name, a place), never for matching an
excerpt: a word the line end broke without a hyphen ("Ma\\nbry", as newspaper OCR drops most
of them) is also read whole (`line_joins`), as the extractor's reading view reads it.

A year is read the same way: a four-character year whose OCR took a digit or two for a
letter ("1J16", "18G5") also reads as that year (`ocr_years`), never any other number.

`SourceText` keeps a piecewise offset map from the normalised text back to the stored text
so a match found in normalised space resolves to a real character span of the snapshot.
"""

from __future__ import annotations

import re
import unicodedata
from array import array
from bisect import bisect_right
from collections.abc import Sequence
from functools import cached_property

_QUOTES = str.maketrans(
    {
        "‘": "'",
        "’": "'",
        "‚": "'",
        "‛": "'",
        "′": "'",
        "“": '"',
        "”": '"',
        "„": '"',
        "‟": '"',
        "″": '"',
    }
)
# Order matters: a line-end hyphen (or soft hyphen) with the break and following indent goes
# first, then whitespace that is not already a single plain space (a lone " " is left alone,
# which keeps the hot path free of callbacks), then typographic quotes.
_SPECIAL = re.compile(
    r"-[ \t]*(?:\r\n|\r|\n)[ \t]*"
    r"|\u00ad\s*"
    r"|\s{2,}|[^\S ]"
    r"|[‘’‚‛′“”„‟″]"
)


def normalise(text: str, *, join_hyphens: bool = True) -> str:
    """Normalise a short string (an excerpt) exactly as `SourceText` normalises a snapshot.

    With `join_hyphens=False` a line-end hyphen is kept as a hyphen ("well-\nknown" reads
    "well-known"), so an excerpt may quote a real compound that happens to break a line.
    """
    if text.isascii():
        if "-" not in text or _HYPHEN_BREAK.search(text) is None:
            # Plain ASCII with no line-end hyphen: each run of whitespace is one space,
            # which is all the rules do to it (and `str.split` reads whitespace as `\s`).
            return " ".join(text.split())
    else:
        text = unicodedata.normalize("NFC", text)
        if _NOT_SPACE.search(text) is None:  # the same, past NFC (a tree's "José")
            return " ".join(text.split())
    repl = _replacement if join_hyphens else _replacement_keep_hyphen
    return _SPECIAL.sub(repl, text).strip(" ")


_HYPHEN_BREAK = re.compile(r"-[ \t]*[\r\n]")
# `_SPECIAL` less its whitespace: between two of these matches, normalising is only each
# run of whitespace read as one space, which the regex engine does without a call back into
# Python per run (a large tree has a run per line). None of them begins with whitespace,
# and `_SPECIAL` finds them where this does (a run of whitespace holds none).
_NOT_SPACE = re.compile(r"-[ \t]*(?:\r\n|\r|\n)[ \t]*|\u00ad\s*|[‘’‚‛′“”„‟″]")
_SPACES = re.compile(r"\s+")
_PUNCT = re.compile(r"[^\w\s]", re.UNICODE)


def fold(text: str) -> str:
    """Case- and punctuation-insensitive form used to ground name tokens (never citations).

    Padded with spaces so a token can be looked up as " token " without matching inside words.
    """
    return " " + " ".join(_PUNCT.sub(" ", text).lower().split()) + " "


def _replacement_keep_hyphen(m: re.Match[str]) -> str:
    return "-" if m.group(0)[0] == "-" else _replacement(m)


def _replacement(m: re.Match[str]) -> str:
    s = m.group(0)
    first = s[0]
    if first == "-" and len(s) > 1:
        return ""
    if first == "\u00ad":
        return ""
    if first.isspace():
        return " "
    return s.translate(_QUOTES)


# the second piece is only looked at, so it can start the next pair ("Ma\nry\nAnn")
_LINE_JOIN = re.compile(r"(?<![^\W\d_])([^\W\d_]+)[ \t]*\r?\n[ \t]*(?=([^\W\d_]+)(?![^\W\d_]))")


def line_joins(text: str) -> str:
    """The words broken by a plain line break, read whole and folded (" mabry ... "), or ""."""
    if "\n" not in text:
        return ""
    found = [(a + b).lower() for a, b in _LINE_JOIN.findall(text)]
    return " " + " ".join(found) + " " if found else ""


# Letters OCR prints for digits (a year's shapes: "1J16" for 1916, "18G5" for 1865)
# ("S" is a 5 or an 8: only in the century's place, where 18xx is what a 1900s page prints,
# is it read, as 8.)
_OCR_DIGIT = str.maketrans({"l": "1", "I": "1", "i": "1", "|": "1", "O": "0", "o": "0",
                            "D": "0", "Q": "0", "Z": "2", "z": "2", "G": "6", "b": "6",
                            "T": "7", "B": "8", "H": "8", "J": "9", "g": "9", "q": "9"})
_OCR_YEAR = re.compile(r"(?<![\w|])(?=[\w|]{0,2}\d[\w|]{0,2}\d)[1lI|][0-9lIi|OoDQZzSsGbTBHJgq]{3}"
                       r"(?![\w|])")


def ocr_year(token: str) -> str | None:
    """'1J16' -> '1916': a year with at most two digits misread as letters, or None."""
    if sum(ch.isdigit() for ch in token) < 2 or token.isdigit():
        return None
    if token[1] in "Ss":
        token = token[0] + "8" + token[2:]
    year = token.translate(_OCR_DIGIT)
    return year if year.isdigit() and 1500 <= int(year) <= 2029 else None


def ocr_years(text: str) -> list[tuple[int, str]]:
    """(offset, year) for every OCR-misread year in `text`."""
    out = []
    for m in _OCR_YEAR.finditer(text):
        year = ocr_year(m.group())
        if year is not None:
            out.append((m.start(), year))
    return out


class SourceText:
    """A snapshot's text with its normalised form and the offset map between the two."""

    __slots__ = ("__dict__", "text")

    def __init__(self, text: str) -> None:
        self.text = text

    @cached_property
    def _built(self) -> tuple[str, Sequence[int], Sequence[int], Sequence[int], Sequence[int]]:
        # The map held as machine integers (8 bytes an entry, not a list slot and an int
        # object): a large GEDCOM tree has a piece per line break, millions of them.
        text, *maps = _build(self.text)
        packed = [array("q", m) for m in maps]
        return text, packed[0], packed[1], packed[2], packed[3]

    @cached_property
    def normalised(self) -> str:
        """The normalised text. Most texts need no offset map to be normalised (`_plain`),
        and a citation found exactly where it says never reads the map: it is built on
        the first `to_original` (a large tree's lists of pieces were its ingest's peak)."""
        plain = _nfc_normalised(self.text)
        return plain if plain is not None else self._built[0]

    @cached_property
    def folded(self) -> str:
        """Case- and punctuation-folded normalised text, built once, for name grounding."""
        return fold(self.normalised)

    @cached_property
    def folded_words(self) -> frozenset[str]:
        """The words of `folded`: `t in folded_words` iff `f" {t} " in folded` for a token
        without whitespace, as a hash lookup instead of a scan of the whole snapshot."""
        return frozenset(_PUNCT.sub(" ", self.normalised).lower().split())  # fold, unjoined

    @cached_property
    def joined_words(self) -> frozenset[str]:
        """The words a plain line break split, read whole (`line_joins`), built on first need."""
        return frozenset(line_joins(self.text).split())

    def to_original(self, n_start: int, n_end: int) -> tuple[int, int]:
        """Map a span of the normalised text back to the stored text."""
        _, n_starts, n_lens, o_starts, o_lens = self._built
        return (
            _map(n_start, n_starts, n_lens, o_starts, o_lens, end=False),
            _map(n_end, n_starts, n_lens, o_starts, o_lens, end=True),
        )

    def find(self, excerpt: str, start_hint: int | None = None) -> tuple[int, int] | None:
        """Original-text span of the normalised excerpt, preferring the match nearest a hint."""
        return self.find_normalised(normalise(excerpt), start_hint)

    def find_normalised(self, needle: str, start_hint: int | None = None) -> tuple[int, int] | None:
        """`find` for a needle that is already normalised (the firewall has it at hand)."""
        if not needle:
            return None
        hay = self.normalised
        pos = hay.find(needle)
        if pos < 0:
            return None
        if start_hint is not None:
            best, best_dist = pos, abs(self.to_original(pos, pos)[0] - start_hint)
            nxt = hay.find(needle, pos + 1)
            while nxt >= 0 and best_dist:
                dist = abs(self.to_original(nxt, nxt)[0] - start_hint)
                if dist < best_dist:
                    best, best_dist = nxt, dist
                nxt = hay.find(needle, nxt + 1)
            pos = best
        return self.to_original(pos, pos + len(needle))


def _nfc_normalised(text: str) -> str | None:
    """`_build(text)[0]` for a text in NFC (None for another): its pieces between
    `_SPECIAL`'s matches are kept verbatim when they are in NFC, which they are when the
    whole text is (a cut before or after a special, which composes with nothing, leaves
    each side as it was; tests compare the two ways), so the specials are all that
    changes, the runs of whitespace replaced in C."""
    if not text.isascii() and not unicodedata.is_normalized("NFC", text):
        return None
    out: list[str] = []
    o = 0
    for m in _NOT_SPACE.finditer(text):
        out.append(_SPACES.sub(" ", text[o:m.start()]))
        out.append(_replacement(m))
        o = m.end()
    out.append(_SPACES.sub(" ", text[o:]))
    return "".join(out)


def _build(text: str) -> tuple[str, list[int], list[int], list[int], list[int]]:
    """Normalise `text` and record every piece that changed length or content.

    Unchanged stretches map one-to-one; each replaced piece records its lengths on both sides.
    The map holds only breakpoints, so memory stays proportional to the number of changes.
    """
    out: list[str] = []
    n_starts: list[int] = []
    n_lens: list[int] = []
    o_starts: list[int] = []
    o_lens: list[int] = []
    n = 0
    o = 0

    def verbatim(seg: str, seg_start: int) -> None:
        nonlocal n
        if not seg:
            return
        if seg.isascii() or unicodedata.is_normalized("NFC", seg):
            out.append(seg)
            n_starts.append(n)
            n_lens.append(len(seg))
            o_starts.append(seg_start)
            o_lens.append(-1)  # -1 marks a one-to-one piece
            n += len(seg)
            return
        # Group each base character with its combining marks and normalise group by group.
        i = 0
        while i < len(seg):
            j = i + 1
            while j < len(seg) and unicodedata.combining(seg[j]):
                j += 1
            group = unicodedata.normalize("NFC", seg[i:j])
            out.append(group)
            n_starts.append(n)
            n_lens.append(len(group))
            o_starts.append(seg_start + i)
            o_lens.append(-1 if len(group) == j - i else j - i)
            n += len(group)
            i = j

    for m in _SPECIAL.finditer(text):
        verbatim(text[o : m.start()], o)
        rep = _replacement(m)
        out.append(rep)
        n_starts.append(n)
        n_lens.append(len(rep))
        o_starts.append(m.start())
        o_lens.append(m.end() - m.start())
        n += len(rep)
        o = m.end()
    verbatim(text[o:], o)
    return "".join(out), n_starts, n_lens, o_starts, o_lens


def _map(
    pos: int,
    n_starts: Sequence[int],
    n_lens: Sequence[int],
    o_starts: Sequence[int],
    o_lens: Sequence[int],
    *,
    end: bool,
) -> int:
    if not n_starts:
        return pos
    # An end offset belongs to the piece holding the character before it.
    probe = pos - 1 if end and pos > 0 else pos
    i = max(bisect_right(n_starts, probe) - 1, 0)
    offset = pos - n_starts[i]
    if o_lens[i] == -1:
        return o_starts[i] + offset
    if offset <= 0:
        return o_starts[i]
    return o_starts[i] + o_lens[i]
