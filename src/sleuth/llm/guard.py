"""The firewall for model output: nothing a model says is trusted, every claim is re-checked.

Verifier claims become `sleuth.model.Candidate`s (method "llm", or "hypothesis" for its
hypotheses) and go through the real firewall, `sleuth.verify.check_candidates`, against
the stored snapshot text, plus one check of this layer: `prompt_injection` refuses any
claim whose citation overlaps a passage of the source that addresses a model ("ignore
previous instructions..."), because such a passage can be written to ground any value.
The other roles write no facts; their outputs are checked for the same hallucination
classes (invented targets, values, dates and URLs, out-of-range scores) by named checks.
Every rejection becomes a `Rejection`, which the roles log to the research log.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field

from jellyfish import soundex

from sleuth.extract.dates import parse_date
from sleuth.extract.nicknames import GROUPS
from sleuth.model import (
    DATE_FIELDS,
    RELATIONSHIP_FIELDS,
    Candidate,
    Citation,
    Locator,
    Snapshot,
)
from sleuth.verify import Source, Violation, check_candidates
from sleuth.verify.normalise import fold, normalise

LLM_METHOD = "llm"
HYPOTHESIS_METHOD = "hypothesis"
_URL = re.compile(r"https?://[^\s<>\"')\]]+", re.IGNORECASE)
_YEAR = re.compile(r"(?<!\d)(1[0-9]{3}|20[0-9]{2})(?!\d)")
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
# Phrases with which a page addresses a model rather than a reader (folded, lower case).
INJECTION_MARKERS: tuple[str, ...] = (
    "ignore previous instructions", "ignore all previous", "ignore the previous",
    "ignore prior instructions", "ignore the above", "ignore all instructions",
    "disregard previous", "disregard all previous", "disregard the above",
    "forget your instructions", "new instructions:", "system prompt", "you are now",
    "mark everything", "mark all fields", "mark all facts", "as verified", "is_fact",
    "citation_snippet", "<<<", "assistant:", "### instruction",
)


@dataclass(frozen=True)
class Rejection:
    """One refused claim and the check that caught it (logged to the research log)."""

    role: str
    check: str
    field: str
    value: str
    message: str
    candidate_id: str | None = None

    def __str__(self) -> str:
        return f"{self.check}: {self.field}: {self.message}"


@dataclass
class Gate:
    """Collects the rejections of one role call."""

    role: str
    rejections: list[Rejection] = field(default_factory=list)

    def reject(self, check: str, fld: str, value: str, message: str,
               candidate_id: str | None = None) -> None:
        self.rejections.append(Rejection(self.role, check, fld, value[:200], message,
                                         candidate_id))

    def violations(self, cand: Candidate, vs: Iterable[Violation]) -> None:
        for v in vs:
            self.reject(v.check, v.field, cand.value, v.message, cand.id)


# -- grounding helpers ------------------------------------------------------------------------
def urls_ungrounded(text: str, known: str) -> list[str]:
    """URLs in `text` that do not occur in `known` (the input the model was given)."""
    return [u.rstrip(".,;") for u in _URL.findall(text) if u.rstrip(".,;") not in known]


# Capitalised words a search query may carry that name no one: titles, suffixes, the kinds
# of record searched for. Anything else capitalised is read as a name or a place.
NOT_TARGETS = frozenset({
    "mr", "mrs", "miss", "ms", "dr", "rev", "sir", "lady", "sr", "jr", "senior", "junior",
    "born", "died", "married", "census", "record", "records", "birth", "death", "marriage",
    "baptism", "christening", "burial", "obituary", "grave", "probate", "family",
    "search", "find", "and", "or", "of", "the", "in", "at", "near", "county", "parish"})
_QUERY_WORD = re.compile(r"[^\s,;()\[\]{}\"]+")


def _bare(text: str) -> str:
    """`fold` with accents dropped too (Zoë and Zoe, Müller and Muller are one name)."""
    decomposed = unicodedata.normalize("NFKD", text)
    return fold("".join(c for c in decomposed if not unicodedata.combining(c)))


def targets_ungrounded(query: str, known: str, names: Iterable[str] = ()) -> list[str]:
    """The words of a search query that would aim it at something the input does not name
    (the no-invented-targets check applied to queries, issue 26): a capitalised word (a name
    or a place) or a word of letters and digits (an id) that is not in `known`, nor, for a
    name, a variant of one of `names` (an initial, a nickname of one of its given names, a
    spelling of its surname with the same Soundex code). Years, numbers, lower-case words,
    titles and record kinds (`NOT_TARGETS`) and URLs (checked apart) aim at nothing."""
    have = set(_bare(known).split())
    folded = [_bare(n).split() for n in names]
    words = {w for n in folded for w in n}
    surnames = {soundex(n[-1]) for n in folded if n and n[-1].isalpha()}
    groups = frozenset().union(*(GROUPS.get(w, frozenset()) for w in words))
    bad = []
    for raw in _QUERY_WORD.findall(query):
        tok = raw.strip(".,:;!?'\u2019")
        if not tok or "://" in tok or not any(c.isalpha() for c in tok):
            continue
        if any(c.isdigit() for c in tok):  # an id: as the input has it
            if _bare(tok) not in _bare(known):
                bad.append(tok)
            continue
        if not tok[0].isupper():
            continue
        for part in _bare(tok).split():
            if (part in have or part in NOT_TARGETS
                    or (len(part) == 1 and any(w.startswith(part) for w in words))
                    or bool(GROUPS.get(part, frozenset()) & groups)
                    or (len(part) > 1 and part.isalpha() and soundex(part) in surnames)):
                continue
            bad.append(tok)
            break
    return bad


def years_ungrounded(text: str, known: str) -> list[str]:
    """Four-digit years in `text` that do not occur in `known`."""
    have = set(_YEAR.findall(known))
    return sorted({y for y in _YEAR.findall(text) if y not in have})


def injection_spans(text: str) -> list[tuple[int, int]]:
    """Lines of the source that address a model; claims citing them are refused."""
    low = text.translate(_ASCII_LOWER)  # the markers are ASCII; offsets must not move
    spans: list[tuple[int, int]] = []
    for marker in INJECTION_MARKERS:
        i = low.find(marker)
        while i >= 0:
            s = max(low.rfind("\n", max(0, i - 400), i) + 1, i - 400)
            e = low.find("\n", i, i + len(marker) + 400)
            spans.append((s, e if e >= 0 else min(len(text), i + len(marker) + 400)))
            i = low.find(marker, i + len(marker))
    return sorted(spans)


def locate(text: str, snippet: str, source: Source | None = None) -> Locator:
    """Where a snippet is in the snapshot (exactly, else normalised); a locator that cannot
    resolve when it is nowhere, so the firewall's `citation_in_source` names the failure."""
    i = text.find(snippet) if snippet else -1
    if i >= 0:
        return Locator(start=i, end=i + len(snippet))
    src = source or Source.of(text)
    found = src.text.find_normalised(normalise(snippet)) if snippet else None
    if found:
        return Locator(start=found[0], end=found[1])
    return Locator(start=0, end=0)


def _overlaps(loc: Locator, spans: list[tuple[int, int]]) -> bool:
    return any(loc.start < e and s < loc.end for s, e in spans)


# -- verifier output → candidates → firewall ------------------------------------------------
@dataclass
class Checked:
    passed: list[Candidate]
    rejected: list[tuple[Candidate, list[Violation]]]


def firewall(cands: list[Candidate], snap: Snapshot, gate: Gate,
             source: Source | None = None) -> Checked:
    """The real firewall, plus `prompt_injection`, on candidates citing one snapshot."""
    report = check_candidates(cands, {snap.id: source or Source.of_snapshot(snap)})
    spans = injection_spans(snap.text)
    passed: list[Candidate] = []
    rejected = list(report.rejected)
    for cand in report.passed:
        if cand.citation is not None and _overlaps(cand.citation.locator, spans):
            v = Violation("prompt_injection", cand.id, cand.field,
                          "cites a passage of the source that addresses a model "
                          "(instructions in the data are never evidence)")
            rejected.append((cand, [v]))
        else:
            passed.append(cand)
    for cand, vs in rejected:
        gate.violations(cand, vs)
    return Checked(passed, rejected)


def build_candidate(snap: Snapshot, *, subject: str, subject_name: str | None, fld: str,
                    value: str, snippet: str | None, confidence: float, rationale: str,
                    is_fact: bool, method: str, base: Candidate | None = None,
                    source: Source | None = None) -> Candidate:
    """A model claim as a candidate: the excerpt is the model's snippet, located in the text."""
    date = None
    if fld in DATE_FIELDS:
        date = base.date if base is not None and base.value == value else parse_date(value)
        if date is not None and date.iso():
            value = date.iso()
    related = base.related if base is not None else None
    related_name = base.related_name if base is not None else None
    if fld in RELATIONSHIP_FIELDS and base is None:
        related_name = value
    citation = None
    if snippet:
        citation = Citation(snapshot_id=snap.id, excerpt=snippet, locator=locate(snap.text,
                            snippet, source), extraction_method=method, rationale=rationale)
    return Candidate(subject=subject, subject_name=subject_name, field=fld, value=value,
                     date=date, related=related, related_name=related_name,
                     confidence=confidence, citation=citation, is_fact=is_fact, method=method,
                     evidence_type=snap.evidence_type, rationale=rationale)


def same_value(a: str, b: str) -> bool:
    return fold(normalise(a)).strip() == fold(normalise(b)).strip()
