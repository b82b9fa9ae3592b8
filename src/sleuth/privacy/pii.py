"""Pattern scrubbers for personal data that must never reach an output, a log or an error.

Two kinds of scrubbing live here:

* generic PII patterns (US SSN, Swedish personnummer, UK National Insurance number, e-mail
  address, phone numbers in North American, international "+" and UK, Swedish, French and
  German national formats) that are wrong to print whatever person they belong to, used by
  `redact_text` for logs and error messages and by the Censor;
* street-address patterns (US/UK "42 Maple Avenue", French "12 rue de la Paix", German and
  Swedish "Hauptstraße 5", "Storgatan 12"), used by the PII scanner only: an address in an
  1880 census is history, not a leak, so the Censor removes addresses by field for the living.

A living person's written dates are found by `written_dates`; the literals the Censor masks
(`Literals`) are found here, in one pass for all.

Every pattern is precompiled or bounded, with no nested quantifiers, so scrubbing a long
snapshot text stays linear.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator
from itertools import accumulate
from typing import Any

SSN_RE = re.compile(r"(?<![\d-])\d{3}-\d{2}-\d{4}(?![\d-])")
# Swedish personnummer (YYMMDD-NNNN, YYYYMMDD-NNNN, "+" past 100) with a real month and day.
PERSONNUMMER_RE = re.compile(
    r"(?<![\w-])(?:19|20)?\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])[-+]\d{4}(?![\w-])"
)
# UK National Insurance number: two prefix letters (not D F I Q U V; no O second), six
# digits, suffix A-D.
NINO_RE = re.compile(r"\b[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z](?:\s?\d{2}){3}\s?[A-D]\b")
# Starts only where a run of address characters starts, and never gives the run back: a
# long token with no "@" (OCR junk, "xxxx…") is read once, not once per position (was O(n²)).
EMAIL_RE = re.compile(
    r"(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]++@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}")
# North American numbers need separators (so years, ranges and ids do not match);
# international numbers need a leading "+" and 7+ digits (GEDCOM X formal dates such as
# +1837-03-03 or A+1990/+1999 are not numbers).
PHONE_RE = re.compile(
    r"(?<![\w-])(?:\+?1[\s.-]?)?(?:\(\d{3}\)\s?|\d{3}[\s.-])\d{3}[\s.-]\d{4}(?![\d-])"
    r"|(?<![\w+/])\+(?!\d{4}-\d\d(?:-\d\d)?\b)(?=(?:[\s.()-]{0,2}\d){7})"
    r"\d{1,3}(?:[\s.-]?\(?\d{1,4}\)?){2,5}(?!\d)"
)
# National formats with a trunk "0" and the grouping each country writes (no bare digit runs,
# so ids, years and film numbers stay): UK 020 7946 0958 / 0161 496 0123 / 07700 900123;
# SE 08-123 456 78 / 070-123 45 67; FR 01 23 45 67 89 (or dots); DE 030 12345678 /
# 0171/1234567 / (089) 1234567.
NATIONAL_PHONE_RE = re.compile(
    r"(?<![\w.+/-])(?:"
    r"0\d{2}[\s-]\d{4}[\s-]\d{4}|0\d{3}[\s-]\d{3}[\s-]\d{4}|0\d{4}[\s-]\d{6}"  # UK
    r"|0\d{1,3}-\d{2,3}(?:\s\d{2,3}){1,3}"  # SE
    r"|0[1-9](?:([\s.])\d{2})(?:\1\d{2}){3}"  # FR
    r"|(?:\(0\d{2,4}\)\s?|0\d{2,4}[/\s-])\d{6,8}"  # DE
    r")(?![\w/-])"
)
SOCIAL_RE = re.compile(
    r"\b(?:facebook|instagram|twitter|linkedin|tiktok|snapchat|myspace|youtube)\.com\b"
    r"|\bx\.com/",
    re.IGNORECASE,
)
_STREET_WORDS = (
    "Street|St|Avenue|Ave|Road|Rd|Lane|Ln|Drive|Dr|Boulevard|Blvd|Court|Ct|Place|Pl|Way|"
    "Terrace|Close|Crescent|Parkway|Pkwy|Highway|Hwy|Square|Sq"
)
ADDRESS_RE = re.compile(
    rf"\b\d{{1,5}}[A-Za-z]?\s+(?:[A-Z][\w'.-]{{0,30}}\s+){{1,4}}(?:{_STREET_WORDS})\b\.?"
    r"|\b\d{1,4}(?:\s?(?:bis|ter))?,?\s+(?:rue|avenue|boulevard|bd|place|chemin|all[ée]e|"
    r"impasse|quai)\s+(?:(?:de|du|des|la|le|l')\s*)*[A-ZÀ-Ý][\w'-]{1,30}"
    r"|\b[A-ZÄÖÜÅ][a-zäöüßåé-]{1,30}(?:stra(?:ß|ss)e|str\.|weg|gasse|platz|allee|gatan|"
    r"vägen|gränd|torget)\s+\d{1,4}[a-z]?\b"
)

_PII: tuple[tuple[re.Pattern[str], str], ...] = (
    (SSN_RE, "[redacted: ssn]"),
    (PERSONNUMMER_RE, "[redacted: national id]"),
    (NINO_RE, "[redacted: national id]"),
    (EMAIL_RE, "[redacted: email]"),
    (PHONE_RE, "[redacted: phone]"),
    (NATIONAL_PHONE_RE, "[redacted: phone]"),
)
PII_PATTERNS: tuple[re.Pattern[str], ...] = tuple(p for p, _ in _PII)
# A cheap gate every generic PII match passes: an "@" (e-mail) or six digits with at most
# three separator characters between neighbours (SSN, personnummer, NINO, every phone
# format above). Texts failing it skip the six patterns; most dates and places do.
_PII_GATE = re.compile(r"@|\d(?:[\s().+/-]{0,3}+\d){5}")
# Every match of the digit-bearing generic patterns (all but e-mail) holds one of these:
# six digits with at most three separators between neighbours. Unlike `_PII_GATE` it
# starts with a digit, so the regex engine skips to candidates at C speed.
# (The separators are taken possessively: giving one back never lets a digit follow.)
_DIGIT_GATE = re.compile(r"\d(?:[\s().+/-]{0,3}+\d){5}")
# The characters every match of the digit-bearing patterns but the NINO is made of (and the
# NINO's middle): digits and the separators. A match lies inside one maximal run of them.
_RUN_TAIL = re.compile(r"[\d\s().+/-]*")
_RUN_SEPS = frozenset("().+/-")
# `NINO_RE`'s second prefix letter and its suffix letter (it is case-sensitive)
_NINO_SECOND = frozenset("ABCEGHJKLMNPRSTWXYZ")
_NINO_SUFFIX = frozenset("ABCD")
# An e-mail address from its "@" on, and the characters its local part is made of.
_EMAIL_DOMAIN = re.compile(r"@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}")
_EMAIL_LOCAL = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._%+-")


def _in_run(ch: str) -> bool:
    """`[\\d\\s().+/-]` for one character (`\\d` is `isdecimal`, `\\s` is `isspace`)."""
    return ch.isdecimal() or ch.isspace() or ch in _RUN_SEPS


class DigitRuns:
    """The maximal runs of digits and separators that hold a `_DIGIT_GATE` match, as the
    stretches the digit-bearing patterns are searched in. Every match of those patterns
    lies in one run: it is made of run characters (a NINO's middle is) and holds a gate
    match (one the gate's own scan finds, or one overlapping it). Most of a text is in
    no run: outputs run to megabytes, and searching each pattern at every position was
    most of `sleuth privacy report`'s time (issue 19)."""

    def __init__(self, text: str) -> None:
        n = len(text)
        self.mixed: list[tuple[int, int]] = []  # runs with a separator, and one more char
        self.nino: list[tuple[int, int]] = []  # runs between a NINO's letters, two around
        search = _DIGIT_GATE.search
        m = search(text)
        while m is not None:
            start = m.start()
            while start > 0 and _in_run(text[start - 1]):
                start -= 1
            tail = _RUN_TAIL.match(text, m.end())
            end = tail.end() if tail is not None else m.end()
            # a run of digits alone holds no match but a NINO's: the others need separators
            if not text[start:end].isdecimal():
                self.mixed.append((start, min(n, end + 1)))
            # a NINO's middle is a whole run (letters are no run characters), between its
            # second prefix letter and its suffix letter, both upper case (a hex id's are not)
            if start >= 2 and end < n and text[end] in _NINO_SUFFIX \
                    and text[start - 1] in _NINO_SECOND:
                self.nino.append((start - 2, min(n, end + 2)))
            m = search(text, end)  # the next run: gate matches inside this one add nothing
        self._text = text
        self._stretch: tuple[str, list[int], list[int]] | None = None

    def spans(self, pattern: re.Pattern[str]) -> list[tuple[int, int]]:
        """`[m.span() for m in pattern.finditer(text)]` for a gated pattern but the NINO's
        (made of run characters alone), in one search at C speed: a JSON output has tens of
        thousands of runs, and one search per run and pattern was most of a scan's time."""
        if self._stretch is None:
            self._stretch = self._join()
        joined, at, orig = self._stretch
        out: list[tuple[int, int]] = []
        for m in pattern.finditer(joined):
            i = bisect_right(at, m.start()) - 1
            shift = orig[i] - at[i]
            out.append((m.start() + shift, m.end() + shift))
        return out

    def _join(self) -> tuple[str, list[int], list[int]]:
        """The runs with a separator, each with the character before it and the one after
        (what the patterns' one-character lookarounds read), as one text; where each piece
        starts in it and in the text. Those characters are no run characters, so no match
        spans two pieces, and each run is read as the text reads it."""
        text = self._text
        pieces = [(max(0, a - 1), b) for a, b in self.mixed]
        orig = [a for a, _ in pieces]
        at = list(accumulate((b - a for a, b in pieces[:-1]), initial=0))
        return "".join(text[a:b] for a, b in pieces), at, orig


def finditer_near(pattern: re.Pattern[str], text: str,
                  where: list[tuple[int, int]]) -> Iterator[re.Match[str]]:
    """`pattern.finditer(text)` for patterns whose every match lies inside `where` (disjoint,
    in order): the same matches, searched only there. Lookbehinds still see the text before
    each stretch; each stretch ends one character past where a match can end, for the
    one-character lookaheads."""
    for a, b in where:
        yield from pattern.finditer(text, a, b)


def finditer_pii(pattern: re.Pattern[str], text: str,
                 runs: DigitRuns | None = None) -> Iterator[re.Match[str]]:
    """Exactly `pattern.finditer(text)` for a generic PII pattern, searched only where a
    match can be: the digit runs (`DigitRuns`; pass `runs` to share them between
    patterns), an e-mail's "@" followed by a domain."""
    if pattern is EMAIL_RE:
        return _emails(text)
    if pattern not in _GATED:
        return pattern.finditer(text)
    if runs is None:
        runs = DigitRuns(text)
    return finditer_near(pattern, text, runs.nino if pattern is NINO_RE else runs.mixed)


def sub_pii(patterns: Iterable[re.Pattern[str]], repl: Callable[[re.Match[str]], str],
            text: str) -> str:
    """Exactly `pattern.sub(repl, text)` for each generic PII pattern in turn, found by
    `finditer_pii` in the text's digit runs, shared until a pattern changes the text: a
    stored GEDCOM file is tens of megabytes, and each pattern read it all (issue 19)."""
    runs: DigitRuns | None = None
    for pattern in patterns:
        if runs is None and pattern in _GATED:
            runs = DigitRuns(text)
        out: list[str] = []
        last = 0
        for m in finditer_pii(pattern, text, runs):
            out += [text[last:m.start()], repl(m)]
            last = m.end()
        if out:
            text, runs = "".join([*out, text[last:]]), None
    return text


def _emails(text: str) -> Iterator[re.Match[str]]:
    """`EMAIL_RE.finditer(text)`, tried only where an "@" is followed by a domain: the local
    part is the run of address characters before it (GEDCOM's "@I12@" pointers are not)."""
    if "@" not in text:
        return
    last = 0
    for d in _EMAIL_DOMAIN.finditer(text):
        start = d.start()
        while start > 0 and text[start - 1] in _EMAIL_LOCAL:
            start -= 1
        if start == d.start() or d.end() <= last:
            continue
        for m in EMAIL_RE.finditer(text, max(start, last), d.end()):
            last = m.end()
            yield m


_PII_DIGITS = tuple((p, m) for p, m in _PII if p is not EMAIL_RE)
_PII_EMAIL = tuple((p, m) for p, m in _PII if p is EMAIL_RE)

# kind -> pattern, for the scanner (generic PII plus street addresses)
SCAN_PATTERNS: dict[str, tuple[re.Pattern[str], ...]] = {
    "ssn": (SSN_RE,),
    "national_id": (PERSONNUMMER_RE, NINO_RE),
    "email": (EMAIL_RE,),
    "phone": (PHONE_RE, NATIONAL_PHONE_RE),
    "address": (ADDRESS_RE,),
}
_GATED = frozenset({SSN_RE, PERSONNUMMER_RE, NINO_RE, PHONE_RE, NATIONAL_PHONE_RE})



def redact_text(text: str) -> str:
    """Replace SSNs, national ids, e-mail addresses and phone numbers with a labelled marker.

    Meant for anything that leaves the process without going through the Censor: log lines,
    exception messages, CLI errors. It is pattern-based, so it cannot know whose data it is;
    it errs on the side of removing.
    """
    for pattern, marker in pii_patterns_in(text):
        text = pattern.sub(marker, text)
    return text


def may_have_pii(text: str) -> bool:
    """False only when no generic PII pattern can match `text` (see `_PII_GATE`)."""
    return _PII_GATE.search(text) is not None


def pii_patterns_in(text: str) -> tuple[tuple[re.Pattern[str], str], ...]:
    """The generic PII patterns that can match `text`, in `_PII`'s order, with their
    markers: the digit-bearing ones where `_DIGIT_GATE` matches, the e-mail one where an
    "@" is followed by a domain. A GEDCOM excerpt's "@I12@" passes `_PII_GATE` but no
    e-mail can be there, and six searches per excerpt were a tenth of censoring a tree.
    Replacing a match (by a marker or a mask, neither holding a digit, a separator, an
    "@" or a domain character) never opens a match for a pattern left out, so applying
    these in order is applying all six."""
    digits = _DIGIT_GATE.search(text) is not None
    email = "@" in text and _EMAIL_DOMAIN.search(text) is not None
    if digits and email:
        return _PII
    if digits:
        return _PII_DIGITS
    return _PII_EMAIL if email else ()


def has_pii(text: str) -> bool:
    return any(pattern.search(text) for pattern, _ in pii_patterns_in(text))


def has_modern_clue(text: str) -> bool:
    """An e-mail, phone number or social-media URL: evidence the person lived recently."""
    return has_pii(text) or bool(SOCIAL_RE.search(text))




def _trie_pattern(words: list[str]) -> str:
    """One regex for many literals, shaped as their prefix trie: at each text position the
    engine follows one branch per character instead of trying every literal in turn, and
    the greedy optional tails prefer the longest literal."""
    trie: dict[str, dict[str, Any]] = {}
    for word in words:
        node = trie
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}

    def expand(node: dict[str, Any]) -> list[object]:
        kids = sorted((ch, child) for ch, child in node.items() if ch)
        if not kids:
            return []
        group = len(kids) > 1 or "" in node
        items: list[object] = ["(?:"] if group else []
        for i, (ch, child) in enumerate(kids):
            items += (["|"] if i else []) + [re.escape(ch), child]
        if group:
            items.append(")?" if "" in node else ")")  # "?": a literal may also end here
        return items

    # an explicit stack, not recursion: a literal can be longer than the recursion limit
    out: list[str] = []
    stack: list[object] = [trie]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
        else:
            stack.extend(reversed(expand(item)))  # type: ignore[arg-type]
    return "".join(out)


class Literals:
    """Many literal strings found and masked in one pass, case-insensitively.

    The Censor's secrets (a living person's removed address or e-mail, a date as the source
    wrote it, a masked name) can number in the thousands on a large case; one trie-shaped
    pattern keeps every text's scan linear in its length whatever their number, where a
    loop over the literals cost one substring test per literal per text.
    """

    def __init__(self, literals: Iterable[str]) -> None:
        words = sorted({w.lower() for w in literals if w})
        self.count = len(words)
        body = _trie_pattern(words) if words else ""
        self._any = re.compile(body, re.IGNORECASE) if words else None
        # a lookahead finds the longest literal at *every* position, so overlapping
        # occurrences ("...42 Maple" inside "12 Oak Lane, 42 Maple...") are all covered
        self._every = re.compile(f"(?=({body}))", re.IGNORECASE) if words else None

    def __bool__(self) -> bool:
        return self._any is not None

    def search(self, text: str) -> bool:
        return self._any is not None and self._any.search(text) is not None

    def starts(self, text: str) -> list[tuple[int, int]]:
        """(start, end) of the longest literal beginning at each position where one does,
        in text order (overlaps kept)."""
        if self._every is None or self._any is None or not self._any.search(text):
            return []
        return [m.span(1) for m in self._every.finditer(text)]

    def spans(self, text: str) -> list[tuple[int, int]]:
        """Every occurrence of any literal, overlapping ones merged."""
        if self._every is None or self._any is None or not self._any.search(text):
            return []
        merged: list[tuple[int, int]] = []
        for m in self._every.finditer(text):
            a, b = m.span(1)
            if merged and a <= merged[-1][1]:
                if b > merged[-1][1]:
                    merged[-1] = (merged[-1][0], b)
            else:
                merged.append((a, b))
        return merged

    def sub(self, repl: Callable[[str], str], text: str) -> str:
        """`text` with every occurrence replaced by `repl(occurrence)`."""
        spans = self.spans(text)
        if not spans:
            return text
        out: list[str] = []
        last = 0
        for a, b in spans:
            out += [text[last:a], repl(text[a:b])]
            last = b
        out.append(text[last:])
        return "".join(out)
