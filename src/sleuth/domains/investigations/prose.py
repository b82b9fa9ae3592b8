"""Reading captured text: sentences, verbatim quotes, the evidence a statement is checked
against, and a document's language.

A quote is always a slice of the stored snapshot text with its whitespace runs shown as
one space (the words and their order untouched). What the verifier reads is the cited pages
as sentences, with words an OCR line break split joined again ("Adams-\\nson" → "Adamsson"):
the verifier compares words, and a hyphen at a line end is typesetting, not spelling.
"""

from __future__ import annotations

import re

from sleuth.domains.documents.cite import Pages
from sleuth.model import Snapshot
from sleuth.verify.claims import split_sentences

# A word split at a line end: a hyphen (or the dash OCR reads for it) before a line break
# and a lower-case continuation. "Sven-Erik" keeps its hyphen (no line break, a capital).
_SPLIT_WORD = re.compile(r"(\w)[-—–¬]\s*\n\s*(?=[a-zåäöéüæø])")
# Abbreviations whose full stop ends no sentence ("Kungl. Maj:t", "bl. a.", "fr.o.m.").
_ABBREV = re.compile(r"\b(?:Kungl|bl\. ?a|m\. ?m|t\. ?f|t\. ?ex|fr\. ?o\. ?m|t\. ?o\. ?m|dir|"
                     r"prop|Prop|Dir|s|nr|Nr|No|St|Mr|Mrs|Dr|e\. ?g|i\. ?e|U\. ?S|jfr|resp)\.")
_SENTENCE_END = re.compile(r"[.!?](?=[\"'”)\]]?(?:\s+[A-ZÅÄÖ(\"“]|\s*\n\s*\n|\s*$))|\n\s*\n")
_SV_WORDS_TEXT = (
    "och att som den det för med till av på är har inte om de en ett från eller vid "
    "skall ska denna detta sina"
)
_SV_WORDS = frozenset(_SV_WORDS_TEXT.split())
_EN_WORDS_TEXT = (
    "the and of to in that is was for with as by on it be are from this which were at "
    "or has have"
)
_EN_WORDS = frozenset(_EN_WORDS_TEXT.split())
_WORD = re.compile(r"[^\W\d_]+")


def join_split_words(text: str) -> str:
    return _SPLIT_WORD.sub(r"\1", text)


def one_line(text: str) -> str:
    """Whitespace runs as one space: how a quote is shown."""
    return " ".join(text.split())


def language(text: str) -> str:
    """'sv' or 'en' (the only two the extractors read), by their commonest words."""
    sv = en = 0
    for m in _WORD.finditer(text[:20000].lower()):
        w = m.group(0)
        sv += w in _SV_WORDS
        en += w in _EN_WORDS
    return "sv" if sv > en else "en"


def masked(text: str) -> str:
    """`text` with abbreviation full stops replaced (same length); one that ends a line
    before a capital ("m. m.\nMed stöd") still ends its sentence."""

    def hide(m: re.Match[str]) -> str:
        after = text[m.end():m.end() + 4]
        if not m.group(0).startswith("Kungl") and re.match(r"[ \t]*\n\s*[A-ZÅÄÖ]", after):
            return m.group(0)
        return m.group(0).replace(".", "\u00b7")

    return _ABBREV.sub(hide, text)


def sentence_bounds(text: str, start: int, end: int, *, lo: int = 0,
                    hi: int | None = None) -> tuple[int, int]:
    """The sentence(s) holding text[start:end], within [lo, hi): from after the last
    sentence end before `start` to the first sentence end at or after `end`."""
    hi = len(text) if hi is None else hi
    window_lo = max(lo, start - 1500)
    window_hi = min(hi, end + 1500)
    view = masked(text[window_lo:window_hi])
    ends = [m.end() + window_lo for m in _SENTENCE_END.finditer(view)]
    left = max((e for e in ends if e <= start), default=window_lo)
    right = min((e for e in ends if e >= end), default=window_hi)
    while left < start and text[left].isspace():
        left += 1
    return left, right


# An initial ("Charles E. Hughes") or a title before a name: its full stop ends nothing.
_INITIAL = re.compile(r"(?:\b[A-Z]|\b(?:Gen|Col|Capt|Lieut|Gov|Sen|Rep|Hon|Rev|Prof|Mrs|Mr|Dr|"
                      r"Jr|Sr|Co|Ft|Mt))\.$")


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Every sentence of `text` as a span [start, end), leading whitespace skipped: what a
    quote may be cut from whole."""
    view = masked(text)
    out: list[tuple[int, int]] = []
    start = 0
    for m in _SENTENCE_END.finditer(view):
        if m.group(0) == "." and _INITIAL.search(view[max(0, m.start() - 6):m.end()]):
            continue
        a, b = start, m.end()
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        if b > a:
            out.append((a, b))
        start = m.end()
    rest = len(text)
    while start < rest and text[start].isspace():
        start += 1
    if start < rest:
        out.append((start, len(text.rstrip())))
    return out


def page_range(snap: Snapshot, start: int, end: int) -> tuple[int, int]:
    """The text span of the pages that hold text[start:end]."""
    pages = Pages.of(snap)
    first, last = pages.index(start), pages.index(max(start, end - 1))
    return pages.starts[first], pages.ends[last]


def evidence_sentences(snap: Snapshot, start: int, end: int) -> list[str]:
    """What a statement citing text[start:end] is checked against: its pages, as sentences,
    split words joined."""
    a, b = page_range(snap, start, end)
    return split_sentences(join_split_words(snap.text[a:b]))


def page_of(snap: Snapshot, offset: int) -> tuple[int | None, str]:
    """1-based page and printed label of an offset (None, "" for unpaged text)."""
    if not snap.page_starts:
        return None, ""
    pages = Pages.of(snap)
    page = pages.index(offset) + 1
    return page, pages.label(page)


def sentences_with(snap: Snapshot, words: list[str], *, limit: int = 40) -> list[str]:
    """Sentences of the whole text (split words joined) that name every one of `words`:
    what another source says about the same thing."""
    folded = [w.lower() for w in words if w]
    out: list[str] = []
    for sent in split_sentences(join_split_words(snap.text)):
        low = sent.lower()
        if folded and all(w in low for w in folded):
            out.append(sent)
            if len(out) >= limit:
                break
    return out
