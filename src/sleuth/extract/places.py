"""Place phrases after a locative preposition ("in Buck Valley, Fulton Co., Pa.").

A place is read only where a pattern has already said "a place comes here" (after "born in",
"died at", "interment in"); the reader then takes capitalised words joined by commas, up to a
county/state/country tail, and stops at anything that looks like a date or a new clause.
"""

from __future__ import annotations

import re

from sleuth.extract.dates import MONTHS, WEEKDAYS

_NOT_PLACE_START = frozenset(
    {"the", "his", "her", "their", "a", "an", "mr", "mrs", "miss", "dr", "rev", "said", "this",
     "that", "which", "who", "he", "she", "it", "they", "early", "late", "infancy", "childhood",
     "age", "years", "year", "company", "order", "time", "all", "one", "some", *MONTHS, *WEEKDAYS}
)
_WORD = (
    r"(?:[A-ZÀ-Þ](?:[\w'’.]|-(?:[ \t]*\n[ \t]*)?)*"
    r"|(?:of|on|upon|de|la|le|du|del|der|sur|am|an|im|van)(?=[ \t]+[A-Z]))"
)
_PLACE = re.compile(
    rf"(?:(?:near|the|city\s+of|town\s+of|village\s+of|county\s+of)\s+)?"
    rf"{_WORD}(?:(?:[ \t]+|\n)(?:{_WORD}|(?:cemetery|county|township|co\.|twp\.|parish"
    rf"|church|parsonage|chapel|hospital|home|hall|mansion)\b)){{0,5}}"
    rf"(?:[ \t]*,[ \t]*\n?[ \t]*{_WORD}(?:(?:[ \t]+|\n){_WORD}){{0,3}}){{0,3}}"
)
_LOWER_PLACE = re.compile(r"[^\s,;()]{2,40}(?:[ ]+[^\s,;()]{2,40}){0,4}(?:[ ]*,[ ]*[^\s,;()]{2,40}"
                          r"(?:[ ]+[^\s,;()]{2,40}){0,3}){0,3}")
_LOWER_STOP = re.compile(
    r"\s(?:-rrb-|-lrb-|--|–|—|on|and|to|where|who|when|at the age|as|is|was"
    r"|,\s*(?:on|and|\d))(?:\s|$)"
)
_ABBR_KEEP = re.compile(r"(?:\b[A-Z][a-z]{0,3}\.|\b[A-Z]\.[A-Z]\.)$")
_TAIL_JUNK = re.compile(r"[\s,;:]+$")
_TAIL_CONNECTOR = re.compile(
    r"(?:[\s,]+(?:of|on|upon|de|la|le|du|del|der|sur|am|an|im|van))+[\s,]*$")
_TOK = re.compile(r"[\w'’.]+")


def read_place(text: str, pos: int, end: int) -> tuple[int, int] | None:
    """Span of a title-case place starting at `pos` (after whitespace), bounded by `end`."""
    while pos < end and text[pos] in " \t\n":
        pos += 1
    m = _PLACE.match(text, pos, min(end, pos + 160))
    if m is None:
        return None
    s, e = m.start(), m.end()
    words = text[s:e].split()
    first = words[0].rstrip(".,").lower() if words else ""
    if first in ("near", "the"):
        if len(words) < 2:
            return None
        first = words[1].rstrip(".,").lower()
    if first in _NOT_PLACE_START:
        return None
    # Cut the phrase at a month or weekday ("in Boston May 3") or at a title ("in Ohio Mrs.").
    cut = _cut_at_stopwords(text, s, e)
    if cut is None:
        return None
    e = cut
    frag = _TAIL_CONNECTOR.sub("", text[s:e])
    frag = _TAIL_JUNK.sub("", frag).rstrip("-")
    if frag.endswith(".") and not _ABBR_KEEP.search(frag):
        frag = frag[:-1]
    e = s + len(frag)
    if e - s < 3 or not any(ch.isalpha() for ch in frag):
        return None
    return s, e


def _cut_at_stopwords(text: str, s: int, e: int) -> int | None:
    for m in _TOK.finditer(text[s:e]):
        k = m.group().rstrip(".").lower()
        if m.start() > 0 and (k in MONTHS or k in WEEKDAYS or k in ("mr", "mrs", "miss", "and")):
            cut = s + m.start()
            return cut if cut > s else None
    return e


def read_lower_place(text: str, pos: int, end: int) -> tuple[int, int] | None:
    """Span of a place in lower-cased tokenised text (WikiBio), bounded by clause markers."""
    while pos < end and text[pos] == " ":
        pos += 1
    window = text[pos : min(end, pos + 120)]
    stop = _LOWER_STOP.search(" " + window)
    if stop:
        window = window[: max(0, stop.start() - 0)]
    m = _LOWER_PLACE.match(window)
    if m is None:
        return None
    frag = _TAIL_JUNK.sub("", m.group())
    if not frag or frag[0].isdigit() or frag.split()[0] in _NOT_PLACE_START or len(frag) < 2:
        return None
    if not any(ch.isalpha() for ch in frag):
        return None
    return pos, pos + len(frag)
