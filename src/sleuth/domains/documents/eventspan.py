"""The words an event is cited by: one verbatim span that holds its date and every person
named as its actor, from the start of their sentence where a quote's length allows (an
excerpt that stops before the names, or begins with the end of the sentence before, cites
nothing about them)."""

from __future__ import annotations

import re

from sleuth.domains.documents.cite import EXCERPT_MAX, EXCERPT_MIN

# Where a clause begins inside a sentence: after a comma, semicolon or colon.
_CLAUSE_START = re.compile(r"[,;:]\s+")
# A sentence's end: a full stop after a word or bracket, then a capital letter (not after
# "Kungl." or "t. f.": abbreviations and initials end no sentence).
_SENTENCE_END = re.compile(r"(?P<word>\w+|\))[.!?]\s+(?=[A-ZÀ-ÖØ-Þ])")
_ABBREVIATIONS = frozenset({"Kungl", "Maj", "bl", "fr", "Dr", "Mr", "St", "Nr", "No", "nr",
                            "dir", "Dir", "prop", "Prop", "jfr", "resp", "dvs", "ang"})
# Between two letters of a name as the page prints it: a hyphenated line break ("Adams-\nson").
_BREAK = r"(?:-[ \t]*\n[ \t]*)?"


def locate(text: str, name: str, lo: int, hi: int, near: int) -> tuple[int, int] | None:
    """Where `name` (as `_actors` reads it: line breaks and hyphenation joined) stands in
    text[lo:hi], the occurrence nearest `near`; None where it does not."""
    parts = [_BREAK.join(re.escape(ch) for ch in word) for word in name.split()]
    pattern = re.compile(r"\s+".join(parts))
    found = [(m.start(), m.end()) for m in pattern.finditer(text, lo, hi)]
    return min(found, key=lambda s: abs(s[0] - near)) if found else None


def event_span(text: str, sentence: tuple[int, int], date: tuple[int, int], trigger: int,
               actors: list[str]) -> tuple[int, int, list[str]]:
    """(start, end, actors): the span of text that cites an event, and the actors it names.

    The date first, then each actor found in the date's sentence while the span stays a
    quote's length (an actor outside it is not this event's: it is not in its words); then
    the trigger phrase before the date, the sentence's start and its end where they fit.
    """
    s0, s1 = sentence
    a, b = date
    kept: list[str] = []
    for name in actors:
        at = locate(text, name, s0, s1, date[0])
        if at is None:
            continue
        na, nb = min(a, at[0]), max(b, at[1])
        if nb - na <= EXCERPT_MAX:
            a, b = na, nb
            kept.append(name)
    s0 = max((m.end() for m in _SENTENCE_END.finditer(text, s0, a)
              if m.group("word") not in _ABBREVIATIONS), default=s0)
    # from the sentence's start, else the trigger phrase ("tillkallades den …"), else the
    # clause's ("…, den 6 mars 1970"), else the word before the date ("den 10 februari")
    clause = max((m.end() for m in _CLAUSE_START.finditer(text, s0, a)), default=s0)
    word = a - len(text[s0:a].rstrip().split()[-1]) - (len(text[s0:a]) - len(
        text[s0:a].rstrip())) if text[s0:a].strip() else a
    for start in (s0, trigger if s0 <= trigger else a, clause, word):
        if start < a and b - start <= EXCERPT_MAX:
            a = start
            break
    # to the sentence's end ("… Hans-Olov\nStark."), where it fits
    s1 = next((m.end("word") + 1 for m in _SENTENCE_END.finditer(text, max(a, b - 40), s1 + 2)
               if m.end("word") >= b and m.group("word") not in _ABBREVIATIONS), s1)
    if b < s1 and s1 - a <= EXCERPT_MAX:
        b = s1
    if b - a < EXCERPT_MIN:  # too short to quote ("Stockholm ijuni 1972."): the sentence before
        a = max((m.end() for m in _SENTENCE_END.finditer(text, max(0, b - EXCERPT_MAX), a)
                 if m.group("word") not in _ABBREVIATIONS and b - m.end() >= EXCERPT_MIN),
                default=a)
    return a, b, kept
