"""The Analyst's conflict resolution (seed 001 AnalystResolveConflict, seed 000 §3.4).

weight = evidenceWeight(type) × tierWeight(tier) × confidence. The highest weight is
recommended; every competing assertion stays in the store. A narrow margin, or a winner that
is not primary evidence, makes the result tentative, and the Analyst proposes next actions as
hypotheses (never facts).
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from dataclasses import dataclass

from sqlalchemy import Connection, select

from sleuth.model import (
    AssertionStatus,
    Conflict,
    EvidenceType,
    GenDate,
    Hypothesis,
    RankedClaim,
    Tier,
    claim_weight,
)
from sleuth.store import Store
from sleuth.store import schema as t

SINGLE_VALUED = (
    "birth_date",
    "birth_place",
    "death_date",
    "death_place",
    "burial_date",
    "burial_place",
    "baptism_date",
    "baptism_place",
    "sex",
    "age_at_death",
)
TENTATIVE_MARGIN = 0.8  # runner-up within 80% of the winner ⇒ tentative

NEXT_ACTIONS = {
    "birth_date": "Seek a birth certificate or baptism register entry for {name}",
    "birth_place": "Seek a birth or baptism record naming the place of birth of {name}",
    "death_date": "Seek a death certificate or burial register entry for {name}",
    "death_place": "Seek a death certificate naming the place of death of {name}",
    "burial_date": "Seek the cemetery or burial register entry for {name}",
    "burial_place": "Seek the cemetery or burial register entry for {name}",
    "sex": "Seek a record that states the sex of {name} explicitly",
}


@dataclass(frozen=True)
class Claim:
    assertion_id: str
    value: str
    date: GenDate | None
    evidence_type: EvidenceType
    tier: Tier
    confidence: float


def _compatible(a: Claim, b: Claim) -> bool:
    """Two claims agree when their date ranges overlap or one place names the other."""
    if a.date is not None and b.date is not None:
        return a.date.overlaps(b.date)
    x, y = _fold(a.value), _fold(b.value)
    return x == y or x in y or y in x


def _fold(s: str) -> str:
    return " ".join("".join(ch if ch.isalnum() else " " for ch in s.lower()).split())


def adjudicate(person_id: str, name: str, field: str, claims: list[Claim]) -> Conflict | None:
    """Rank competing claims for one field; None when they do not actually disagree."""
    if len(claims) < 2:
        return None
    if all(_compatible(a, b) for i, a in enumerate(claims) for b in claims[i + 1 :]):
        return None
    weighted = sorted(
        ((claim_weight(c.evidence_type, c.tier, c.confidence), c) for c in claims),
        key=lambda wc: (-wc[0], wc[1].assertion_id),
    )
    ranked = [
        RankedClaim(
            assertion_id=c.assertion_id,
            value=c.value,
            weight=round(w, 4),
            evidence_type=str(c.evidence_type),
            tier=int(c.tier),
            confidence=c.confidence,
            rank=i + 1,
            reason=(
                f"{c.evidence_type} evidence × tier {int(c.tier)} × confidence"
                f" {c.confidence:.2f} = {w:.3f}"
            ),
        )
        for i, (w, c) in enumerate(weighted)
    ]
    best_w, best = weighted[0]
    rival_w = max((w for w, c in weighted[1:] if not _compatible(best, c)), default=0.0)
    tentative = rival_w >= TENTATIVE_MARGIN * best_w or best.evidence_type != "primary"
    why = [f"{best.value!r} carries the highest weight ({best_w:.3f})"]
    if rival_w:
        why.append(f"the strongest disagreeing claim weighs {rival_w:.3f}")
    if best.evidence_type != "primary":
        why.append("no primary evidence supports the recommended value")
    template = NEXT_ACTIONS.get(field, "Seek an original record that states the {field} of {name}")
    actions = [template.format(name=name, field=field.replace("_", " "))]
    cid = hashlib.sha256(f"{person_id}:{field}".encode()).hexdigest()[:32]
    return Conflict(
        id=cid,
        person_id=person_id,
        field=field,
        competing=ranked,
        recommended_assertion_id=best.assertion_id,
        recommended_value=best.value,
        is_tentative=tentative,
        rationale="; ".join(why) + ".",
        next_actions=actions,
    )


BAPTISM_GAP_DAYS = 366  # a birth more than a year before a recorded infant baptism is doubtful
BURIAL_GAP_DAYS = 366  # so is a death more than a year before a recorded burial

# (event a non-primary claim dates, primary register event, the register's event comes after)
_ORDERED = (("birth_date", "baptism_date", "baptised", "birth after baptism",
             BAPTISM_GAP_DAYS),
            ("death_date", "burial_date", "buried", "death after burial", BURIAL_GAP_DAYS))


def _dated(c: Claim) -> bool:
    return c.date is not None and c.date.earliest is not None and c.date.latest is not None


def vital_order(claims: dict[str, dict[str, Claim]]) -> list[tuple[str, str]]:
    """Birth and death claims a primary baptism or burial entry contradicts, with why (GPS:
    resolve conflicting evidence across events, not only within one field). A non-primary
    birth after the baptism (death after the burial) is impossible; one more than a year
    before it is doubtful (a user tree's date off by a year or ten is the usual cause). They
    are kept, marked tentative, never dropped."""
    out: list[tuple[str, str]] = []
    for field, register, verb, impossible, gap in _ORDERED:
        entries = [c for c in claims.get(register, {}).values()
                   if c.evidence_type == EvidenceType.PRIMARY and _dated(c)]
        word = field.split("_")[0]
        for b in claims.get(field, {}).values():
            if b.evidence_type == EvidenceType.PRIMARY or not _dated(b):
                continue
            for bp in entries:
                if b.date.earliest > bp.date.latest:  # type: ignore[operator,union-attr]
                    out.append((b.assertion_id, f"{word} {b.value} but {verb} {bp.value} "
                                                f"(primary register): {impossible}"))
                    break
                if (bp.date.earliest - b.date.latest).days > gap:  # type: ignore[operator,union-attr]
                    out.append((b.assertion_id, f"{word} {b.value} but {verb} {bp.value} "
                                                "(primary register): more than a year apart"))
                    break
    return out


def mark_vital_order(store: Store, conn: Connection, claims: dict[str, dict[str, Claim]],
                     statuses: dict[str, str] | None = None) -> int:
    """Set the birth claims `vital_order` doubts to tentative (audited, reversible)."""
    n = 0
    doubted = vital_order(claims)
    if statuses is None and doubted:  # as they stand now in the store
        a = t.assertions.c
        statuses = {str(i): str(st) for i, st in conn.execute(select(a.id, a.status).where(
            a.id.in_([aid for aid, _ in doubted])))}
    for aid, why in doubted:
        if statuses is not None and statuses.get(aid) in ("tentative", "conflicting"):
            continue
        store.set_assertion_status(conn, aid, AssertionStatus.TENTATIVE, agent="Analyst",
                                   reason=f"events out of order: {why}")
        n += 1
    return n


def analyse_persons(store: Store, conn: Connection, person_ids: set[str]) -> list[Conflict]:
    """Adjudicate every single-valued field of these persons, inside the caller's transaction."""
    a, c, s, p = t.assertions, t.citations, t.snapshots, t.persons
    if not person_ids:
        return []
    rows = conn.execute(
        select(
            a.c.id,
            a.c.entity_id,
            a.c.field_name,
            a.c.value,
            a.c.date,
            a.c.confidence,
            a.c.status,
            s.c.evidence_type,
            s.c.tier,
            t.candidates.c.evidence_type,
        )
        .join(c, c.c.assertion_id == a.c.id)
        .join(s, s.c.id == c.c.snapshot_id)
        .outerjoin(t.candidates, t.candidates.c.id == a.c.candidate_id)
        .where(
            a.c.entity_id.in_(person_ids),
            a.c.field_name.in_(SINGLE_VALUED),
            a.c.status != "rejected",
        )
    ).all()
    names = dict(
        conn.execute(select(p.c.id, p.c.canonical_name).where(p.c.id.in_(person_ids))).all()
    )
    groups: dict[tuple[str, str], dict[str, Claim]] = defaultdict(dict)
    statuses: dict[str, str] = {}
    for aid, pid, field, value, date, conf, _status, snap_ev, tier, cand_ev in rows:
        statuses[aid] = str(_status)
        groups[(pid, field)][aid] = Claim(
            aid,
            value,
            GenDate.model_validate(date) if date else None,
            EvidenceType(cand_ev or snap_ev),
            Tier(tier),
            conf,
        )
    out: list[Conflict] = []
    for (pid, field), claims in sorted(groups.items()):
        conflict = adjudicate(pid, names.get(pid, pid), field, list(claims.values()))
        if conflict is None:
            continue
        store.upsert_conflict(conn, conflict)
        for rc in conflict.competing:
            status = AssertionStatus.CONFLICTING
            if rc.assertion_id == conflict.recommended_assertion_id:
                status = (
                    AssertionStatus.TENTATIVE if conflict.is_tentative else AssertionStatus.PROMOTED
                )
            store.set_assertion_status(
                conn,
                rc.assertion_id,
                status,
                agent="Analyst",
                reason=f"conflict on {field}: {conflict.rationale}",
            )
        for action in conflict.next_actions:
            _propose(
                store,
                conn,
                Hypothesis(
                    hypothesis_type="conflict_resolution",
                    statement=action,
                    target_person=pid,
                    suggested_queries=[f"{names.get(pid, '')} {field.replace('_', ' ')}".strip()],
                    priority=round(min(1.0, 0.5 + 0.5 * float(conflict.is_tentative)), 2),
                ),
            )
        out.append(conflict)
        for rc in conflict.competing:  # what the loop above has just set
            statuses[rc.assertion_id] = "conflicting"
        statuses[conflict.recommended_assertion_id] = (
            "tentative" if conflict.is_tentative else "promoted")
    by_person: dict[str, dict[str, dict[str, Claim]]] = defaultdict(dict)
    for (pid, field), claims in groups.items():
        by_person[pid][field] = claims
    for claims in by_person.values():
        mark_vital_order(store, conn, claims, statuses)
    return out


def _propose(store: Store, conn: Connection, h: Hypothesis) -> None:
    """Add a hypothesis once: the same statement for the same person is not repeated."""
    exists = conn.execute(
        select(t.hypotheses.c.id).where(
            t.hypotheses.c.statement == h.statement, t.hypotheses.c.target_person == h.target_person
        )
    ).first()
    if exists is None:
        store.add_hypothesis(conn, h)
