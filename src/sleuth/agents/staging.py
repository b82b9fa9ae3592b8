"""Staged promotion (seed 002): extractor → firewall → validator ⇄ refinement → decision.

One call handles one snapshot inside the caller's transaction, so the whole batch lands or
none of it does. Every candidate is staged, including the ones the firewall rejected, and
every step's verdict is stored with its reason.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from sqlalchemy import Connection, and_, func, or_, select

from sleuth.agents.analyst import analyse_persons
from sleuth.agents.decision import make_decision
from sleuth.agents.promote import SubjectMap, promote
from sleuth.agents.validator import validate
from sleuth.extract import ocr_words
from sleuth.model import Candidate, Hypothesis, InvariantViolation, Snapshot, new_id
from sleuth.store import Store
from sleuth.store import schema as t
from sleuth.store.queries import merged_into
from sleuth.verify import FirewallReport, Source, check_candidate, check_candidates

DEFAULT_REFINEMENT_LIMIT = 3
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
    candidates: list[Candidate],
    *,
    refine: Refiner | None = None,
    refinement_limit: int = DEFAULT_REFINEMENT_LIMIT,
    consume: bool = False,
) -> StageReport:
    """Stage, check and decide every candidate of one snapshot, in the caller's transaction.

    Everything is written in one `Store.bulk` batch. With `consume`, the caller hands the
    list over: it is emptied as the firewall goes, so a large tree's candidates are not held
    twice (the firewall's copies and the originals); each candidate is also let go once
    staged (`sleuth ingest` of a 100,000-person tree holds about a million of them).
    """
    report = StageReport(snapshot_id=snap.id, candidates=len(candidates))
    sources = {snap.id: Source.of(snap.text, snap.url)}
    fw = _firewall(candidates, sources, consume)
    touched: set[str] = set()
    with store.bulk(conn):
        for cand, violations in fw.rejected:
            store.stage(conn, cand, status="rejected", violations=[str(v) for v in violations])
            store.decide(
                conn,
                cand.id,
                "firewall",
                "reject",
                "; ".join(str(v) for v in violations),
                by="Firewall",
            )
            report.firewall_rejected += 1
            report.violations.extend(str(v) for v in violations)
        fw.rejected.clear()
        passed = fw.passed
        if ocr_words.is_ocr(snap):  # the firewall has checked the page's words; now read them
            passed = ocr_words.mend_candidates(passed, _lexicon(conn))
        subjects = SubjectMap.load(conn, snap.id).note_years(passed)
        queue, fw.passed, passed = passed[::-1], [], []  # popped in order, let go when staged
        while queue:
            cand = queue.pop()
            if not cand.is_fact:
                _stage_hypothesis(store, conn, cand, report)
                continue
            pid = _stage_fact(
                store, conn, cand, snap, sources, refine, refinement_limit, report, subjects
            )
            if pid:
                touched.add(pid)
    report.conflicts = _analyse(store, conn, touched)
    return report


_ANALYSE_CHUNK = 2000  # persons a call: each call reads them with IN (...) lists, and
# SQLite refuses more than 32,766 values in one statement (a 100,000-person tree)


def _analyse(store: Store, conn: Connection, touched: set[str]) -> int:
    """`analyse_persons` over the persons this snapshot touched, a slice of merge clusters
    at a time, in the order one call takes them (by canonical id); the number of conflicts."""
    merged = merged_into(conn)
    roots = sorted({merged.get(p, p) for p in touched})
    return sum(len(analyse_persons(store, conn, set(roots[i:i + _ANALYSE_CHUNK])))
               for i in range(0, len(roots), _ANALYSE_CHUNK))


_FIREWALL_CHUNK = 5000


def _firewall(candidates: list[Candidate], sources: dict[str, Source],
              consume: bool) -> FirewallReport:
    """`check_candidates`; with `consume`, a chunk at a time, each chunk's originals removed
    from `candidates` once checked (the report holds the passing copies)."""
    if not consume:
        return check_candidates(candidates, sources)
    report = FirewallReport()
    candidates.reverse()
    while candidates:
        chunk = candidates[-_FIREWALL_CHUNK:]
        del candidates[-_FIREWALL_CHUNK:]
        chunk.reverse()
        part = check_candidates(chunk, sources)
        report.passed += part.passed
        report.rejected += part.rejected
    return report


def _lexicon(conn: Connection) -> frozenset[str]:
    """The words of names and places the case holds from sources that are not OCR: what an
    OCR page's misread words are read against (`extract.ocr_words`)."""
    a, c, s = t.assertions.c, t.citations.c, t.snapshots.c
    values = conn.execute(select(a.value).distinct().join(
        t.citations, c.assertion_id == a.id).join(t.snapshots, s.id == c.snapshot_id).where(
        or_(a.field_name.in_(("name", "given_name", "surname", "birth_surname")),
            a.field_name.like("%_place")),
        s.media_type.not_in(ocr_words.OCR_MEDIA),
        or_(s.url.is_(None), and_(*(func.lower(s.url).not_like(f"%{p}%")
                                    for p in ocr_words.OCR_PATHS))))).scalars()
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
) -> str | None:
    attempts = 0
    while True:
        verdict = validate(cand)
        status = (
            "acceptable"
            if verdict.acceptable
            else ("rejected" if verdict.decision == "reject" else "needs_more_evidence")
        )
        store.stage(conn, cand, status=status, missing=verdict.missing_fields, attempts=attempts)
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
    decision = make_decision(cand.confidence, verdict.missing_fields)
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
