"""The hallucination firewall (seed 000 §6): ten checks, one pure function, every candidate.

Whatever produced a candidate (the deterministic extractor, an LLM, a person typing), it
reaches the store only through `check_candidates`. Each check is a small named rule that
returns violations; none of them trusts the candidate's own account of itself.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import date
from functools import lru_cache

from sleuth.gedcom.age import whole_years
from sleuth.model import (
    DATE_FIELDS,
    NAME_FIELDS,
    PLACE_FIELDS,
    RELATIONSHIP_FIELDS,
    Candidate,
    Citation,
    MatchStatus,
    Snapshot,
)
from sleuth.model.documents import document_date
from sleuth.verify.normalise import SourceText, fold, line_joins, normalise, ocr_years


@dataclass(frozen=True)
class Source:
    """What the firewall may look at for one snapshot: its stored text, its own URL and the
    date its metadata gives the document (a newspaper's issue date), which dates "died
    Sunday" as a printed dateline would when the OCR lost the masthead's year."""

    text: SourceText
    url: str | None = None
    dated: date | None = None

    @classmethod
    def of(cls, text: str, url: str | None = None, dated: date | None = None) -> Source:
        return cls(SourceText(text), url, dated)

    @classmethod
    def of_snapshot(cls, snap: Snapshot) -> Source:
        """The snapshot's text, address and document date (`model.documents`)."""
        return cls(SourceText(snap.text), snap.url, document_date(snap))


@dataclass(frozen=True)
class Violation:
    check: str
    candidate_id: str
    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.check}: {self.field}: {self.message}"


@dataclass
class FirewallReport:
    passed: list[Candidate] = field(default_factory=list)
    rejected: list[tuple[Candidate, list[Violation]]] = field(default_factory=list)

    @property
    def violations(self) -> list[Violation]:
        return [v for _, vs in self.rejected for v in vs]


@dataclass
class _Ctx:
    """Per-candidate facts computed once and shared by the checks."""

    candidate: Candidate
    source: Source | None
    match: MatchStatus | None = None
    excerpt_norm: str = ""
    _folded: str | None = None
    _joined: str | None = None

    @property
    def folded(self) -> str:
        """`fold(excerpt_norm)`, computed once: several checks look tokens up in it."""
        if self._folded is None:
            self._folded = fold(self.excerpt_norm)
        return self._folded


    @property
    def joined(self) -> str:
        """The words the excerpt's line ends broke, read whole (`line_joins`): looked up only
        for a token `folded` lacks."""
        if self._joined is None:
            cit = self.candidate.citation
            self._joined = line_joins(cit.excerpt) if cit else ""
        return self._joined


Check = Callable[[_Ctx], Iterable[str]]
# Fields whose values are codes or are checked by their own rule, not free text.
_XREF = re.compile(r"@[^@\s]{1,80}@")  # a GEDCOM cross-reference id
_OTHER_STRUCTURED = RELATIONSHIP_FIELDS | {"sex"}
_AGE_LINE = re.compile(r"(?:^|[\r\n])[ \t]*\d{1,2} AGE ([^\r\n]*)")  # CR, LF or CRLF


def _structured(field: str) -> bool:
    """Fields with their own grounding check (dates, places, relatives, sex)."""
    return field in DATE_FIELDS or field in PLACE_FIELDS or field in _OTHER_STRUCTURED
_LINE_END_HYPHEN = re.compile(r"-[ \t]*[\r\n]")
_YEAR = re.compile(r"\d{3,4}")
_URL = re.compile(r"https?://[^\s<>\"')\]]+", re.IGNORECASE)


# -- the ten checks ---------------------------------------------------------------------


def citation_required(ctx: _Ctx) -> Iterable[str]:
    c = ctx.candidate
    if c.is_fact and (c.citation is None or not c.citation.excerpt.strip()):
        yield "a fact without a citation excerpt"


@dataclass(frozen=True)
class CitationCheck:
    """Where a citation's excerpt stands in its snapshot (check 2 on its own)."""

    status: MatchStatus
    found_at: tuple[int, int] | None = None  # where the excerpt really is, when not at the locator


def check_citation(
    citation: Citation, text: SourceText, excerpt_norm: str | None = None
) -> CitationCheck:
    """Does the locator resolve to the excerpt (exactly, or under the documented
    normalisations)? If not, search the whole snapshot so the error can say where it is."""
    raw = text.text
    loc = citation.locator
    excerpt = citation.excerpt
    needle = normalise(excerpt) if excerpt_norm is None else excerpt_norm
    if loc.end <= len(raw):
        piece = raw[loc.start : loc.end]
        if piece == excerpt:
            return CitationCheck(MatchStatus.EXACT)
        if normalise(piece) == needle or (
            _LINE_END_HYPHEN.search(piece)  # the only place the two readings can differ
            and normalise(piece, join_hyphens=False) == normalise(excerpt, join_hyphens=False)
        ):
            return CitationCheck(MatchStatus.NORMALISED)
    return CitationCheck(MatchStatus.NOT_FOUND, text.find_normalised(needle, start_hint=loc.start))


def citation_in_source(ctx: _Ctx) -> Iterable[str]:
    c = ctx.candidate
    if c.citation is None or not c.citation.excerpt.strip():
        return
    if ctx.source is None:
        yield f"cites snapshot {c.citation.snapshot_id!r}, which does not exist"
        return
    result = check_citation(c.citation, ctx.source.text, ctx.excerpt_norm)
    ctx.match = result.status
    if result.status is not MatchStatus.NOT_FOUND:
        return
    loc = c.citation.locator
    if result.found_at is None:
        yield f"excerpt not found in snapshot: {c.citation.excerpt[:60]!r}"
    else:
        yield (
            f"locator [{loc.start}, {loc.end}) does not resolve to the excerpt"
            f" (it is at [{result.found_at[0]}, {result.found_at[1]}))"
        )


def no_invented_dates(ctx: _Ctx) -> Iterable[str]:
    c = ctx.candidate
    if c.field not in DATE_FIELDS or not c.is_fact or c.citation is None:
        return
    if c.date is None:
        yield f"date field without a parsed date range (value {c.value!r})"
        return
    if c.date.earliest is None and c.date.latest is None:
        # A date kept as written, with no range (`31 FEB 1900`, `(unknown)`): its value is
        # its words, and they must be the excerpt's
        if c.value not in (c.date.phrase, c.date.original) or not _phrase_in(c.value, ctx):
            yield f"date {c.value!r} kept as written does not appear in its excerpt"
        return
    if c.value != c.date.iso():
        yield f"value {c.value!r} does not match its date range ({c.date.iso()})"
    years = {y for y in c.date.years() if y is not None}
    # A year before 1 CE is written as its BCE number ("1100 B.C." is astronomical -1099).
    years |= {1 - y for y in years if y <= 0}
    written = set(_YEAR.findall(ctx.excerpt_norm))
    grounded = any(str(y) in written or f"{y:04d}" in written for y in years)
    if not grounded:  # "1J16" printed for 1916 (read only when the digits do not say it)
        written.update(y for _, y in ocr_years(ctx.excerpt_norm))
        grounded = any(str(y) in written or f"{y:04d}" in written for y in years)
    unusual = c.date.calendar != "gregorian" or c.date.earliest_bce or c.date.latest_bce
    if not grounded and unusual and c.date.original:
        # A Julian, Hebrew or French Republican date is converted to Gregorian bounds (and a
        # short BCE year escapes the year pattern), so the Gregorian year need not be written;
        # what must be written is the date itself.
        grounded = _phrase_in(c.date.original, ctx)
    if not grounded and c.date.original:
        # Relative dates ("yesterday") are grounded by the phrase in the excerpt and the
        # year printed elsewhere in the same document (its dateline).
        phrase_here = _phrase_in(c.date.original, ctx)
        year_in_doc = ctx.source is not None and (any(
            str(y) in ctx.source.text.normalised for y in years
        ) or (ctx.source.dated is not None and ctx.source.dated.year in years))
        grounded = phrase_here and year_in_doc
    if not grounded:
        yield f"date {c.value!r} does not appear in its excerpt"


def _phrase_in(phrase: str, ctx: _Ctx) -> bool:
    """A date's words as the excerpt prints them ("last Monday"), or as one word the line end
    broke ("Mon\nday")."""
    folded = fold(phrase).strip()
    return folded in ctx.folded or (" " not in folded and f" {folded} " in ctx.joined)


def no_invented_names(ctx: _Ctx) -> Iterable[str]:
    """Names (and any other free-text value, e.g. an occupation) must be read in the excerpt."""
    c = ctx.candidate
    if not c.is_fact:
        return
    if c.field in NAME_FIELDS:
        yield from _tokens_in(c.value, ctx, "name")
    elif not _structured(c.field) and c.citation is not None \
            and not _age_line(c.field, c.value, c.citation.excerpt):
        yield from _tokens_in(c.value, ctx, "value", keep_digits=True)
    if ctx.source is None:
        return
    text = ctx.source.text
    words = text.folded_words  # tokens never hold whitespace: a set lookup will do
    for label, name in (("subject name", c.subject_name), ("related name", c.related_name)):
        if name and any(t not in words and t not in text.joined_words
                        for t in _name_tokens(name)):
            yield f"{label} {name!r} does not appear in the snapshot"


def _age_line(field: str, value: str, excerpt: str) -> bool:
    """An age at death a tree states in GEDCOM's grammar (`2 AGE 76y`, `2 AGE <1y` for 0):
    the number is read from the excerpt's own AGE line (`gedcom.age`)."""
    return field == "age_at_death" and value.isdecimal() and any(
        whole_years(m.group(1)) == int(value) for m in _AGE_LINE.finditer(excerpt))


def no_invented_places(ctx: _Ctx) -> Iterable[str]:
    c = ctx.candidate
    if c.field in PLACE_FIELDS and c.is_fact:
        yield from _tokens_in(c.value, ctx, "place")


def hypothesis_labeling(ctx: _Ctx) -> Iterable[str]:
    c = ctx.candidate
    inferred = c.method in {"inference", "hypothesis"} or c.field == "hypothesis"
    if inferred and c.is_fact:
        yield "an inference is marked as a fact (is_fact must be false)"


def confidence_bounds(ctx: _Ctx) -> Iterable[str]:
    conf = ctx.candidate.confidence
    if math.isnan(conf) or not 0.0 <= conf <= 1.0:
        yield f"confidence {conf} is outside [0, 1]"


def no_fabricated_urls(ctx: _Ctx) -> Iterable[str]:
    c = ctx.candidate
    known = ctx.source.text.normalised if ctx.source else ""
    own = (ctx.source.url or "") if ctx.source else ""
    for text in (c.value, c.rationale):
        for url in _URL.findall(text):
            url = url.rstrip(".,;")
            if url not in known and url != own:
                yield f"URL {url!r} is not in the source"


def relationship_grounding(ctx: _Ctx) -> Iterable[str]:
    c = ctx.candidate
    if c.field not in RELATIONSHIP_FIELDS or not c.is_fact:
        return
    if c.citation is None:
        yield "a relationship without specific evidence"
        return
    if c.related_name and _XREF.fullmatch(c.value) and c.value in ctx.excerpt_norm:
        # A record that links people by identifier (GEDCOM `1 CHIL @I3@`) grounds the link by
        # that identifier; the relative's name must then be in the snapshot (no_invented_names).
        return
    yield from _tokens_in(c.related_name or c.value, ctx, "relative's name")


def conflict_preservation(ctx: _Ctx) -> Iterable[str]:
    if ctx.candidate.replaces:
        yield (
            f"would overwrite assertion {ctx.candidate.replaces}; conflicting claims are "
            "added alongside, never overwritten"
        )


CHECKS: tuple[tuple[str, Check], ...] = (
    ("citation_required", citation_required),
    ("citation_in_source", citation_in_source),
    ("no_invented_dates", no_invented_dates),
    ("no_invented_names", no_invented_names),
    ("no_invented_places", no_invented_places),
    ("hypothesis_labeling", hypothesis_labeling),
    ("confidence_bounds", confidence_bounds),
    ("no_fabricated_urls", no_fabricated_urls),
    ("relationship_grounding", relationship_grounding),
    ("conflict_preservation", conflict_preservation),
)


@lru_cache(maxsize=65536)
def _name_tokens(name: str, *, keep_digits: bool = False) -> tuple[str, ...]:
    """Word tokens folded exactly like the text they are looked up in (see `fold`).

    Cached: a tree's candidates repeat the same few thousand names (subject, relative).
    """
    return tuple(
        t
        for t in fold(normalise(name)).split()
        if (len(t) > 1 or name.isupper()) and (keep_digits or not t.isdigit())
    )


def _tokens_in(
    value: str, ctx: _Ctx, what: str, *, keep_digits: bool = False
) -> Iterable[str]:
    """`value`'s tokens missing from its excerpt (`_Ctx.folded`, then `_Ctx.joined`)."""
    hay = ctx.folded
    missing = [t for t in _name_tokens(value, keep_digits=keep_digits) if f" {t} " not in hay]
    if missing:
        joined = ctx.joined
        missing = [t for t in missing if f" {t} " not in joined]
    if missing:
        yield f"{what} {value!r} is not in its excerpt (missing {', '.join(missing)})"


def _run(candidate: Candidate, sources: Mapping[str, Source]) -> tuple[_Ctx, list[Violation]]:
    cit = candidate.citation
    ctx = _Ctx(
        candidate,
        sources.get(cit.snapshot_id) if cit else None,
        excerpt_norm=normalise(cit.excerpt) if cit else "",
    )
    out: list[Violation] = []
    for name, check in CHECKS:
        for m in check(ctx):
            out.append(Violation(name, candidate.id, candidate.field, m))
    return ctx, out


def check_candidate(candidate: Candidate, sources: Mapping[str, Source]) -> list[Violation]:
    """All violations of one candidate; an empty list means it may enter staging."""
    return _run(candidate, sources)[1]


def check_candidates(
    candidates: Iterable[Candidate], sources: Mapping[str, Source]
) -> FirewallReport:
    """Split candidates into those that pass (with match status recorded) and those rejected."""
    report = FirewallReport()
    for cand, violations, match in screen(candidates, sources):
        if violations:
            report.rejected.append((cand, violations))
            continue
        if cand.citation is not None and match is not None:
            cand = cand.model_copy(
                update={"citation": cand.citation.model_copy(update={"match_status": match})}
            )
        report.passed.append(cand)
    return report


def screen(
    candidates: Iterable[Candidate], sources: Mapping[str, Source]
) -> Iterator[tuple[Candidate, list[Violation], MatchStatus | None]]:
    """`check_candidates` one candidate at a time, as (candidate, violations, match status
    of its citation), the candidate as given: a caller that keeps only what it needs of a
    passing candidate (`sleuth ingest` of a large tree) need not copy each one."""
    for cand in candidates:
        ctx, violations = _run(cand, sources)
        yield cand, violations, ctx.match
