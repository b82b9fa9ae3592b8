"""Staged promotion (seed 002): extractor → firewall → validator ⇄ refinement → decision.

One call handles one snapshot inside the caller's transaction, so the whole batch lands or
none of it does. Every candidate is staged, including the ones the firewall rejected, and
every step's verdict is stored with its reason.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any

from sqlalchemy import Connection

from sleuth.extract import ocr_words
from sleuth.gps.adjudicate import SINGLE_VALUED, analyse_persons
from sleuth.model import (
    Candidate,
    Citation,
    Hypothesis,
    InvariantViolation,
    Locator,
    MatchStatus,
    Snapshot,
    new_id,
)
from sleuth.model.trusted import every_field, instance
from sleuth.pipeline.decision import SEED_002, Thresholds, make_decision
from sleuth.pipeline.promote import promote
from sleuth.pipeline.subjects import SubjectMap
from sleuth.pipeline.validator import DEFAULT_REFINEMENT_LIMIT, DEFAULT_RULES, Rule, validate
from sleuth.store import Store
from sleuth.store.assertions import name_and_place_values
from sleuth.store.queries import merged_into
from sleuth.verify import Source, Violation, check_candidate, screen

Refiner = Callable[[Candidate, str, str], Candidate | None]


@dataclass
class StageReport:
    snapshot_id: str
    candidates: int = 0
    firewall_rejected: int = 0
    promoted: int = 0
    review: int = 0
    rejected: int = 0
    hypotheses: int = 0
    conflicts: int = 0
    violations: list[str] = field(default_factory=list)


def process_snapshot(
    store: Store,
    conn: Connection,
    snap: Snapshot,
    candidates: Iterable[Candidate],
    *,
    refine: Refiner | None = None,
    refinement_limit: int = DEFAULT_REFINEMENT_LIMIT,
    consume: bool = False,
    load: bool = False,
    rules: tuple[Rule, ...] = DEFAULT_RULES,
    thresholds: Thresholds = SEED_002,
) -> StageReport:
    """Stage, check and decide every candidate of one snapshot, in the caller's transaction.

    Everything is written in one `Store.bulk` batch, in two passes. The first runs each
    candidate through the firewall as the extractor yields it (a list, or a generator such
    as `extract.records.gedcom.iter_extract`), stages the rejected ones and notes each
    subject's years (`SubjectMap.note_years`: linking needs them for the whole document
    before its first person is placed); of a passing candidate it keeps only the values.
    The second pass rebuilds each candidate and decides it. So `sleuth ingest` of a
    100,000-person tree never holds its million candidates as models at once (issue 19).
    With `consume`, a list handed over is emptied as the first pass goes; `load` (a whole
    file ingested) lets the store build the indexes no staging read needs at the end
    (`Store.bulk`). `rules` and `thresholds` are the domain's validator rules and decision
    cut-offs (`sleuth.domains.Domain`; genealogy's are the defaults).
    """
    report = StageReport(snapshot_id=snap.id)
    sources = {snap.id: Source.of_snapshot(snap)}
    touched: dict[str, dict[str, int]] = {}  # person -> single-valued field -> claims
    kept: list[_Kept] = []
    stream = _drain(candidates) if consume and isinstance(candidates, list) else candidates

    subjects = SubjectMap.load(conn, snap.id, snap.text)

    def passing() -> Iterator[Candidate]:
        for cand, violations, match in screen(stream, sources):
            report.candidates += 1
            if violations:
                _stage_rejected(store, conn, cand, violations, report)
                subjects.staged(cand)
                continue
            kept.append(_keep(cand, match, subjects))
            yield cand

    with store.bulk(conn, load=load):
        if ocr_words.is_ocr(snap):  # the firewall has checked the page's words; now read them
            for _ in passing():
                pass
            passed = ocr_words.mend_candidates([_restore(k, subjects) for k in kept],
                                                _lexicon(conn))
            subjects.note_years(passed)
            kept = [_keep(c, None, subjects) for c in passed]
            del passed
        else:
            subjects.note_years(passing())
        kept.reverse()  # popped in order, each let go once staged
        while kept:
            cand = _restore(kept.pop(), subjects)
            if not cand.is_fact:
                _stage_hypothesis(store, conn, cand, report)
                subjects.staged(cand)
                continue
            pid = _stage_fact(store, conn, cand, snap, sources, refine, refinement_limit,
                              report, subjects, (rules, thresholds))
            if pid:
                fields = touched.setdefault(pid, {})
                if cand.field in _SINGLE:
                    fields[cand.field] = fields.get(cand.field, 0) + 1
    report.conflicts = _analyse(store, conn, touched, subjects.linked)
    return report


def _stage_rejected(store: Store, conn: Connection, cand: Candidate,
                    violations: list[Violation], report: StageReport) -> None:
    said = [str(v) for v in violations]
    store.stage(conn, cand, status="rejected", violations=said)
    store.decide(conn, cand.id, "firewall", "reject", "; ".join(said), by="Firewall")
    report.firewall_rejected += 1
    report.violations.extend(said)


# What is kept of a passing candidate between the passes: its values without the models
# (a tenth of their memory), in one flat tuple: its fields but the citation, in their
# order, then, when it has one, its citation's: snapshot, excerpt, start, end, page, line,
# method, reliability, rationale, and the match status. A 100,000-person tree keeps about
# a million of them through its first pass (issue 19: < 2 GB), so the strings a tree
# repeats (field names, subject keys) are held once, equal confidences share one float,
# and an excerpt that is its span of the snapshot's text is read back from it (None here,
# as `SubjectMap.line_of` holds it).
_Kept = tuple[Any, ...]
_FIELDS = tuple(Candidate.model_fields)  # a model's values go in its fields' order
_CITATION = _FIELDS.index("citation")
_OWN = len(_FIELDS) - 1  # values before the citation's
_before = attrgetter(*_FIELDS[:_CITATION])
_after = attrgetter(*_FIELDS[_CITATION + 1:])
_SUBJECT, _FIELD, _RELATED, _CONFIDENCE = (_FIELDS.index(f) for f in (
    "subject", "field", "related", "confidence"))
_FLOATS: dict[float, float] = {}  # one float object per confidence value kept


def _keep(c: Candidate, match: MatchStatus | None, subjects: SubjectMap) -> _Kept:
    own = [*_before(c), *_after(c)]
    for i in (_SUBJECT, _FIELD, _RELATED):
        if type(own[i]) is str:
            own[i] = sys.intern(own[i])
    conf = own[_CONFIDENCE]
    if type(conf) is float and conf > 0.0:  # not -0.0 (equal to 0.0) nor NaN
        own[_CONFIDENCE] = _FLOATS.setdefault(conf, conf)
    cit = c.citation
    if cit is None:
        return tuple(own)
    loc = cit.locator
    excerpt = None if isinstance(subjects.line_of(cit), int) else cit.excerpt
    return (*own, cit.snapshot_id, excerpt, loc.start, loc.end, loc.page, loc.line,
            cit.extraction_method, cit.source_reliability, cit.rationale,
            cit.match_status if match is None else match)


def _restore(k: _Kept, subjects: SubjectMap) -> Candidate:
    """The candidate `_keep` kept, as the firewall passes it (its citation's match status
    set): the same values, which were validated when it was built (`model.trusted`; each
    model's every field given)."""
    values = dict(zip(_FIELDS[:_CITATION], k[:_CITATION], strict=True))
    excerpt = k[_OWN + 1] if len(k) > _OWN else None
    if excerpt is None and len(k) > _OWN:
        excerpt = subjects.text[k[_OWN + 2]:k[_OWN + 3]]  # type: ignore[index]
    values["citation"] = None if len(k) == _OWN else instance(Citation, {
        "snapshot_id": k[_OWN], "excerpt": excerpt,
        "locator": instance(Locator, {"start": k[_OWN + 2], "end": k[_OWN + 3],
                                      "page": k[_OWN + 4], "line": k[_OWN + 5]},
                            _EVERY_LOCATOR),
        "extraction_method": k[_OWN + 6], "source_reliability": k[_OWN + 7],
        "rationale": k[_OWN + 8], "match_status": k[_OWN + 9]}, _EVERY_CITATION)
    values.update(zip(_FIELDS[_CITATION + 1:], k[_CITATION:_OWN], strict=True))
    return instance(Candidate, values, _EVERY_CANDIDATE)


# Every field of each model is built above: `trusted`'s shared field sets, given at once
_EVERY_CANDIDATE, _EVERY_CITATION, _EVERY_LOCATOR = (
    every_field(Candidate), every_field(Citation), every_field(Locator))
if every_field(Citation) != {"snapshot_id", "excerpt", "locator", "extraction_method",
                             "source_reliability", "rationale", "match_status"} or (
        every_field(Locator) != {"start", "end", "page", "line"}):
    raise ImportError("staging._restore builds every field of Citation and Locator")


def _drain(candidates: list[Candidate]) -> Iterator[Candidate]:
    """The list's candidates in order, each chunk removed from it as it is handed out."""
    candidates.reverse()
    while candidates:
        chunk = candidates[-_DRAIN_CHUNK:]
        del candidates[-_DRAIN_CHUNK:]
        chunk.reverse()
        yield from chunk


_DRAIN_CHUNK = 5000


_ANALYSE_CHUNK = 2000  # persons a call: each call reads them with IN (...) lists, and
# SQLite refuses more than 32,766 values in one statement (a 100,000-person tree)


# A lone value is ruled out only by the event these register entries date (a birth after
# its baptism, a death after its burial: `gps.ranking.corroborate`), and only these pairs
# are put in order (`gps.adjudicate.vital_order`).
_RULED_BY = (("birth_date", "baptism_date"), ("death_date", "burial_date"))
_SINGLE = frozenset(SINGLE_VALUED)


def _may_conflict(fields: dict[str, int]) -> bool:
    """Whether the Analyst can find anything in these claims of one person: two claims of
    one field, or a date a register entry of this person can rule out."""
    return (any(n > 1 for n in fields.values())
            or any(a in fields and b in fields for a, b in _RULED_BY))


def _analyse(store: Store, conn: Connection, touched: dict[str, dict[str, int]],
             linked: set[str]) -> int:
    """`analyse_persons` over the persons this snapshot touched, a slice of merge clusters
    at a time, in the order one call takes them (by canonical id); the number of conflicts.
    A person this snapshot created holds only the claims it promoted (`touched`): when
    those cannot conflict (`_may_conflict`: a tree's ordinary person, one birth, one
    death), the Analyst would read them back to write nothing, and is not asked (at
    100,000 persons its reads and rankings were a tenth of the ingest, issue 19). Persons
    placed before (`linked`) or merged are always analysed."""
    merged = merged_into(conn)
    clustered = {*merged, *merged.values()}
    roots = sorted({merged.get(p, p) for p, fields in touched.items()
                    if p in linked or p in clustered or _may_conflict(fields)})
    return sum(len(analyse_persons(store, conn, set(roots[i:i + _ANALYSE_CHUNK])))
               for i in range(0, len(roots), _ANALYSE_CHUNK))


def _lexicon(conn: Connection) -> frozenset[str]:
    """The words of names and places the case holds from sources that are not OCR: what an
    OCR page's misread words are read against (`extract.ocr_words`)."""
    values = name_and_place_values(conn, not_media=ocr_words.OCR_MEDIA,
                                   not_paths=ocr_words.OCR_PATHS)
    return frozenset(ocr_words.words_of(" ".join(values)))


def _stage_hypothesis(store: Store, conn: Connection, cand: Candidate, report: StageReport) -> None:
    """Inferences are staged, then handed to the Analyst as hypotheses, never as facts."""
    store.stage(conn, cand, status="acceptable")
    store.decide(
        conn,
        cand.id,
        "validator",
        "hypothesis",
        "Inference kept as a hypothesis (is_fact=false)",
        by="Validator",
    )
    who = cand.subject_name or cand.subject
    store.add_hypothesis(
        conn,
        Hypothesis(
            hypothesis_type=f"inferred_{cand.field}",
            statement=f"{who}: {cand.field.replace('_', ' ')} {cand.value} (inferred)."
            + (f" {cand.rationale}" if cand.rationale else ""),
            suggested_queries=[f"{who} {cand.field.replace('_', ' ')}"],
            priority=min(1.0, max(0.0, cand.confidence)),
            evidence=[cand.citation] if cand.citation else [],
        ),
    )
    report.hypotheses += 1


def _stage_fact(
    store: Store,
    conn: Connection,
    cand: Candidate,
    snap: Snapshot,
    sources: dict[str, Source],
    refine: Refiner | None,
    limit: int,
    report: StageReport,
    subjects: SubjectMap | None = None,
    policy: tuple[tuple[Rule, ...], Thresholds] = (DEFAULT_RULES, SEED_002),
) -> str | None:
    rules, thresholds = policy
    attempts = 0
    while True:
        verdict = validate(cand, rules)
        status = (
            "acceptable"
            if verdict.acceptable
            else ("rejected" if verdict.decision == "reject" else "needs_more_evidence")
        )
        store.stage(conn, cand, status=status, missing=verdict.missing_fields, attempts=attempts)
        if subjects is not None:
            subjects.staged(cand)
        store.decide(
            conn,
            cand.id,
            "validator",
            verdict.decision,
            verdict.reason,
            request=verdict.request,
            by="Validator",
            confidence=cand.confidence,
        )
        if verdict.acceptable:
            break
        if verdict.decision == "reject":
            report.rejected += 1
            return None
        attempts += 1
        refined = refine(cand, verdict.request or "", snap.text) if refine else None
        reason = None
        if attempts >= limit:
            reason = f"Exceeded refinement limit after {limit} attempts: {verdict.reason}"
        elif refined is None or refined.citation == cand.citation:
            reason = (
                f"Extractor could not satisfy the request ({verdict.request}): {verdict.reason}"
            )
        elif violations := check_candidate(refined, sources):
            reason = f"Refined candidate failed the firewall: {violations[0]}"
        if reason:
            _to_review(store, conn, cand.id, "normal", reason)
            report.review += 1
            return None
        assert refined is not None
        cand = refined.model_copy(update={"id": new_id()})  # each attempt is its own row
    decision = make_decision(cand.confidence, verdict.missing_fields, thresholds)
    if decision.action == "queue_for_human":
        store.decide(
            conn,
            cand.id,
            "decision",
            decision.decision,
            decision.reason,
            priority=decision.priority,
            by="DecisionMaker",
            confidence=cand.confidence,
        )
        _to_review(store, conn, cand.id, decision.priority or "normal", decision.reason)
        report.review += 1
        return None
    try:
        _, person_id = promote(
            store, conn, cand, agent="DecisionMaker", reason=decision.reason, subjects=subjects
        )
    except InvariantViolation as exc:
        _to_review(store, conn, cand.id, "high", f"Would break an invariant: {exc}")
        report.review += 1
        return None
    report.promoted += 1
    return person_id


def _to_review(
    store: Store, conn: Connection, candidate_id: str, priority: str, reason: str
) -> None:
    store.set_candidate(conn, candidate_id, "DecisionMaker", status="review")
    store.enqueue_review(conn, candidate_id, priority, reason)
