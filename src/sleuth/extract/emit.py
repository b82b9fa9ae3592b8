"""Per-document state: sentence spans, local person keys, and grounded candidate building.

Every candidate leaves through `Doc.emit`, which slices its excerpt from the input text, so
the firewall invariant `excerpt == text[start:end]` holds by construction rather than by care.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from sleuth.extract.names import TITLES, person_key
from sleuth.model.citation import Citation, EvidenceType, Locator
from sleuth.model.dates import GenDate
from sleuth.model.records import (
    DATE_FIELDS,
    NAME_FIELDS,
    PLACE_FIELDS,
    RELATIONSHIP_FIELDS,
    Candidate,
)
from sleuth.verify.normalise import fold, normalise

MAX_SENTENCE = 600
MAX_EXCERPT = 400
_BOUNDARY = re.compile(r"[.!?]['\")\]]*[ \t]*\n?\s+|\n[ \t]*\n\s*| \.\s+")
_NO_SPLIT = frozenset(
    [
        "mr", "mrs", "ms", "messrs", "dr", "rev", "st", "mt", "ft", "prof", "capt", "col", "gen",
        "maj", "lieut", "lt", "sgt", "hon", "jr", "sr", "co", "no", "vs", "esq", "geo", "chas",
        "wm", "jas", "jno", "thos", "jos", "benj", "saml", "robt", "edw", "alex", "danl", "jan",
        "feb", "mar", "apr", "aug", "sep", "sept", "oct", "nov", "dec", "twp", "inst", "ult",
        "prox", "bro", "bros", "messrs", "mme", "mlle", "gov", "sen", "rep", "supt"
    ]
)
_CLAUSE = re.compile(r"[,;:\n]")
_YEAR = re.compile(r"\d{3,4}")


def _tokens_in(value: str, excerpt_folded: str, *, keep_digits: bool = False) -> bool:
    """Every word of `value` is a word of the excerpt, as the firewall reads it."""
    return all(f" {t} " in excerpt_folded for t in fold(value).split()
               if (len(t) > 1 or value.isupper()) and (keep_digits or not t.isdigit()))


def split_sentences(text: str) -> list[tuple[int, int]]:
    """Sentence spans, bounded in length; abbreviations and initials do not end a sentence."""
    spans: list[tuple[int, int]] = []
    start = 0
    for m in _BOUNDARY.finditer(text):
        p = m.start()
        if text[p] == ".":
            j = p
            while j > start and j > p - 12 and not text[j - 1].isspace():
                j -= 1
            word = text[j:p].lstrip("\"'(").lower()
            if (len(word) == 1 and word.isalpha()) or word in _NO_SPLIT:
                continue
            nxt = text[m.end() : m.end() + 1]
            if nxt and nxt.islower() and m.group()[0:2] != " .":
                continue
        _add(text, spans, start, m.end())
        start = m.end()
    _add(text, spans, start, len(text))
    return spans


def _add(text: str, spans: list[tuple[int, int]], s: int, e: int) -> None:
    """Append [s, e), cutting over-long stretches at a line break or space."""
    while e - s > MAX_SENTENCE:
        hi = s + MAX_SENTENCE
        cut = text.rfind("\n", s + MAX_SENTENCE // 2, hi)
        if cut < 0:
            cut = text.rfind(" ", s + MAX_SENTENCE // 2, hi)
        cut = hi if cut < 0 else cut + 1
        spans.append((s, cut))
        s = cut
    if e > s:
        spans.append((s, e))


class Doc:
    """Everything one `extract_text` call shares: text, person keys and the output list."""

    def __init__(
        self,
        text: str,
        snapshot_id: str,
        page_starts: tuple[int, ...],
        document_date: GenDate | None,
        evidence_type: EvidenceType | None,
        source_reliability: float,
    ) -> None:
        self.text = text
        self.snapshot_id = snapshot_id
        self.page_starts = page_starts
        self.document_date = document_date
        self.evidence_type = evidence_type
        self.reliability = min(1.0, max(0.0, source_reliability))
        self.keys: dict[str, str] = {}
        self.display: dict[str, str] = {}
        self.out: list[Candidate] = []
        self.seen: set[tuple[str, str, str]] = set()
        self.sex_of: dict[str, str] = {}
        self.death: dict[str, tuple[GenDate, int, int]] = {}
        self.focus: tuple[str, str, int] | None = None  # (key, name, position)
        self.named: set[str] = set()  # keys whose name candidate passed the guard
        self._years: dict[str, bool] = {}

    # -- spans ----------------------------------------------------------------------
    def trim(self, s: int, e: int) -> tuple[int, int]:
        t = self.text
        while s < e and t[s].isspace():
            s += 1
        while e > s and t[e - 1].isspace():
            e -= 1
        return s, e

    def excerpt(self, sent: tuple[int, int], *spans: tuple[int, int]) -> tuple[int, int]:
        """The sentence if short enough, else the clause window around the needed spans."""
        s, e = self.trim(*sent)
        if e - s <= MAX_EXCERPT or not spans:
            return s, e
        lo = min(sp[0] for sp in spans)
        hi = max(sp[1] for sp in spans)
        lo2 = max(s, lo - 80)
        cuts = [c.end() for c in _CLAUSE.finditer(self.text, lo2, lo)]
        lo = cuts[-1] if cuts else lo2
        hi_lim = min(e, hi + 80)
        m2 = _CLAUSE.search(self.text, hi, hi_lim)
        hi = m2.start() if m2 else hi_lim
        return self.trim(lo, hi)

    def page(self, offset: int) -> int | None:
        if not self.page_starts:
            return None
        return max(1, bisect_right(self.page_starts, offset))

    # -- people ---------------------------------------------------------------------
    def person(self, name: str, span: tuple[int, int], sent: tuple[int, int],
               confidence: float = 0.9, *, inferred: bool = False) -> str:
        """Local key for a name, emitting its `name` candidate the first time it is seen."""
        pk = person_key(name)
        key = self.resolve(name)
        if key is None:
            key = f"p{len(self.display) + 1}"
            self.keys[pk] = key
            self.display[key] = normalise(name)
            why = "name as written" if not inferred else "name implied by Jr."
            if self.emit(key, "name", normalise(name), sent, [span], confidence, why,
                         is_fact=not inferred) is None:
                self.emit(key, "name", normalise(name), sent, [span], confidence, why,
                          is_fact=not inferred, exact_span=self.trim(*span))
            title = name.split(None, 1)[0].rstrip(".").lower() if name.strip() else ""
            if not inferred and title in ("mr", "mrs", "miss", "ms", "mme", "mlle", "madame"):
                self.sex(key, TITLES[title], sent, span, 0.85, f"title {title.capitalize()}.")
        return key

    def resolve(self, name: str) -> str | None:
        """Key of an already-known person: same full name, or "Mr. Smith" for the subject Smith."""
        key = self.keys.get(person_key(name))
        if key is not None or self.focus is None:
            return key
        words = normalise(name).split()
        if len(words) == 1 and words[0] == self.focus[1].split()[-1]:
            return self.focus[0]  # "Sullivan was born ..." after "John Sullivan (born ...)"
        if len(words) != 2 or words[1] != self.focus[1].split()[-1]:
            return None
        title = words[0].rstrip(".").lower()
        sex = self.sex_of.get(self.focus[0])
        if (title in ("mr", "dr", "rev", "capt", "col", "judge") and sex != "F") or (
            title in ("mrs", "miss") and sex == "F"
        ):
            return self.focus[0]
        return None

    def set_focus(self, key: str, pos: int) -> None:
        self.focus = (key, self.display[key], pos)

    def focus_at(self, pos: int) -> str | None:
        if self.focus and 0 <= pos - self.focus[2] <= 1500:
            return self.focus[0]
        return None

    # -- candidates -----------------------------------------------------------------
    def emit(
        self,
        subject: str,
        field: str,
        value: str,
        sent: tuple[int, int],
        spans: list[tuple[int, int]],
        confidence: float,
        rationale: str,
        *,
        date: GenDate | None = None,
        related: str | None = None,
        is_fact: bool = True,
        exact_span: tuple[int, int] | None = None,
    ) -> Candidate | None:
        if not value:
            return None
        dedupe = (subject, field, value)
        if dedupe in self.seen:
            return None
        s, e = exact_span if exact_span else self.excerpt(sent, *spans)
        if e <= s:
            return None
        ok = self._grounded(subject, field, value, date, is_fact, self.text[s:e], related)
        if ok and is_fact and (field in NAME_FIELDS or field in RELATIONSHIP_FIELDS):
            # The firewall also looks the name up in the whole text, where a hyphen at a line
            # end joins words ("Hix-\non" reads "hixon"): check a window past the excerpt.
            wide = fold(normalise(self.text[max(0, s - 40) : e + 40]))
            ok = _tokens_in(value, wide)
        if ok is None:
            is_fact = False
            rationale += " (year from the document's date, not printed in the text)"
        elif not ok:
            return None
        if field == "name" and is_fact:
            self.named.add(subject)
        self.seen.add(dedupe)
        method = "deterministic" if is_fact else "inference"
        cand = Candidate(
            subject=subject,
            subject_name=self.display.get(subject),
            field=field,
            value=value,
            date=date,
            related=related,
            related_name=self.display.get(related) if related else None,
            confidence=round(min(confidence, 0.6) if not is_fact else confidence, 3),
            citation=Citation(
                snapshot_id=self.snapshot_id,
                excerpt=self.text[s:e],
                locator=Locator(start=s, end=e, page=self.page(s)),
                extraction_method=method,
                source_reliability=self.reliability,
                rationale=rationale,
            ),
            is_fact=is_fact,
            method=method,
            evidence_type=self.evidence_type,
            rationale=rationale,
        )
        self.out.append(cand)
        return cand

    def _grounded(self, subject: str, field: str, value: str, date: GenDate | None,
                  is_fact: bool, excerpt: str, related: str | None) -> bool | None:
        """Last guard before a candidate leaves, mirroring the firewall's own checks (same
        `normalise`/`fold`), so what we emit is what it accepts. None: a relative date
        whose year the text never prints (a fact only with a printed year; the caller
        downgrades it to a hypothesis)."""
        if not is_fact:
            return True
        if field != "name" and (subject not in self.named
                                or (related is not None and related not in self.named)):
            return False  # the person's own name was not grounded, so nothing about them is
        ex = fold(normalise(excerpt))
        if field in PLACE_FIELDS or field in NAME_FIELDS:
            return _tokens_in(value, ex)
        if field in RELATIONSHIP_FIELDS:
            return _tokens_in(value, ex)
        if field in DATE_FIELDS:
            if date is None or value != date.iso():
                return False
            years = {str(y) for y in date.years() if y is not None}
            if years & set(_YEAR.findall(normalise(excerpt))):
                return True
            if not date.original or fold(date.original).strip() not in ex:
                return False
            return True if any(self._year_in_text(y) for y in years) else None
        if field == "sex":
            return True
        return _tokens_in(value, ex, keep_digits=True)

    def _year_in_text(self, year: str) -> bool:
        hit = self._years.get(year)
        if hit is None:
            hit = self._years[year] = year in self.text
        return hit

    def sex(self, key: str, value: str | None, sent: tuple[int, int], span: tuple[int, int],
            confidence: float, why: str) -> None:
        if value in ("M", "F") and key not in self.sex_of:
            self.sex_of[key] = value
            self.emit(key, "sex", value, sent, [span], confidence, why)
