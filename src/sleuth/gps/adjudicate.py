"""The Analyst's conflict resolution (seed 001 AnalystResolveConflict, seed 000 §3.4).

Competing claims of one single-valued field are ranked by `sleuth.gps.ranking`: identical
values are one value with several citations, copies of one original count once, each
witness is weighed by its Evidence Explained classes (an original record beats a user
tree), and a baptism, burial or age at death corroborates or rules out a birth or death
date. Every competing assertion stays in the store; the values that agree with the
recommended one stay promoted (tentative when the decision is), only values that cannot
be true with it become `conflicting`. The rationale says why in words, and the Analyst
proposes next actions as hypotheses (never facts).

Claims are read on the merged view: a person in a merge cluster is adjudicated with every
member's claims, under the cluster's canonical id (what every output shows).
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection

from sleuth.gps.classify import classify
from sleuth.gps.independence import origin_keys
from sleuth.gps.kinds import SourceKind, describe, profile_in, wikitree_index
from sleuth.gps.ranking import Claim, Witness, evidence_words, rank
from sleuth.gps.weights import gps_weight
from sleuth.gps.words import source_name
from sleuth.model import (
    AssertionStatus,
    Citation,
    Conflict,
    EvidenceType,
    GenDate,
    Hypothesis,
    Locator,
    RankedClaim,
    Snapshot,
    Tier,
)
from sleuth.model.evidence import InformationClass, SourceClass
from sleuth.store import Store
from sleuth.store.assertions import assertion_statuses, cited_claims, live_statuses
from sleuth.store.conflicts import stored_analysis
from sleuth.store.hypotheses import hypothesis_exists
from sleuth.store.overrides import override_classes
from sleuth.store.persons import names_of
from sleuth.store.queries import merged_into
from sleuth.store.snapshots import snapshots_in

if TYPE_CHECKING:
    from sleuth.gps.kinds import SourceInfo, WikiTreeIndex

__all__ = ["SINGLE_VALUED", "Claim", "Witness", "adjudicate", "analyse_persons",
           "apply_conflict", "pooled_claims"]

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
# the events one field's ranking reads as corroboration (`gps.ranking.corroborate`)
RELATED = {"birth_date": ("baptism_date", "age_at_death", "death_date"),
           "death_date": ("burial_date",)}

NEXT_ACTIONS = {
    "birth_date": "Seek a birth certificate or baptism register entry for {name}",
    "birth_place": "Seek a birth or baptism record naming the place of birth of {name}",
    "death_date": "Seek a death certificate or burial register entry for {name}",
    "death_place": "Seek a death certificate naming the place of death of {name}",
    "burial_date": "Seek the cemetery or burial register entry for {name}",
    "burial_place": "Seek the cemetery or burial register entry for {name}",
    "sex": "Seek a record that states the sex of {name} explicitly",
}


def _legacy_type(claim: Claim) -> str:
    """Seed 001's one-axis word for the claim's best witness (what older readers show)."""
    ws = claim.weighed()
    best = max(ws, key=lambda w: (w.weight, w.name))
    if not best.record:
        return "authored"
    return "primary" if str(best.information) == "primary" else "secondary"


def adjudicate(person_id: str, name: str, field: str, claims: Sequence[Claim],
               related: Mapping[str, Sequence[Claim]] | None = None) -> Conflict | None:
    """Rank the values of one field; None when they do not actually disagree. `related`:
    the person's claims of other fields, by field (corroboration, `RELATED`)."""
    r = rank(field, claims, related)
    if r is None:
        return None
    ranked: list[RankedClaim] = []
    for i, v in enumerate(r.values, start=1):
        best = v.best
        agrees = v is r.winner or v not in r.rivals
        reason = evidence_words(v)
        if v.corroboration:
            reason += "; fits " + "; ".join(text for text, _ in v.corroboration)
        if v.impossible or v.disagree:
            reason += "; " + "; ".join(v.impossible + v.disagree)
        ranked.append(RankedClaim(
            assertion_id=best.assertion_id, value=best.value, weight=round(v.support, 4),
            evidence_type=_legacy_type(best), tier=int(best.tier),
            confidence=max(c.confidence for c in v.claims), rank=i, reason=reason,
            assertion_ids=sorted(c.assertion_id for c in v.claims),
            agrees=agrees and v is not r.winner))
    template = NEXT_ACTIONS.get(field, "Seek an original record that states the {field} of {name}")
    cid = hashlib.sha256(f"{person_id}:{field}".encode()).hexdigest()[:32]
    return Conflict(
        id=cid,
        person_id=person_id,
        field=field,
        competing=ranked,
        recommended_assertion_id=r.winner.best.assertion_id,
        recommended_value=r.winner.best.value,
        is_tentative=r.tentative,
        rationale=r.rationale,
        next_actions=[template.format(name=name, field=field.replace("_", " "))],
    )


def statuses_of(conflict: Conflict) -> dict[str, AssertionStatus]:
    """What each competing assertion becomes: the recommended value and the values that
    agree with it promoted (tentative when the decision is), the others conflicting."""
    out: dict[str, AssertionStatus] = {}
    win = AssertionStatus.TENTATIVE if conflict.is_tentative else AssertionStatus.PROMOTED
    for rc in conflict.competing:
        ids = rc.assertion_ids or [rc.assertion_id]
        if rc.assertion_id == conflict.recommended_assertion_id or rc.agrees:
            status = win
        else:
            status = AssertionStatus.CONFLICTING
        for aid in ids:
            out[aid] = status
    return out


def apply_conflict(store: Store, conn: Connection, conflict: Conflict, reason: str,
                   current: Mapping[str, str] | None = None) -> None:
    """Store the conflict (unless unchanged) and set the statuses `statuses_of` gives.
    A human's `verified` is never changed by the Analyst."""
    stored = stored_analysis(conn, conflict.person_id, conflict.field)
    if stored != conflict.model_dump(mode="json"):
        store.upsert_conflict(conn, conflict)
    wanted = statuses_of(conflict)
    if current is None:
        current = assertion_statuses(conn, wanted)
    for aid, status in sorted(wanted.items()):
        if current.get(aid) in (str(status), "verified", "rejected"):
            continue
        store.set_assertion_status(conn, aid, status, agent="Analyst",
                                   reason=f"{reason}: {conflict.rationale}"[:2000])


BAPTISM_GAP_DAYS = 366  # a birth more than a year before a recorded infant baptism is doubtful
BURIAL_GAP_DAYS = 366  # so is a death more than a year before a recorded burial

# (event a non-primary claim dates, primary register event, the register's event comes after)
_ORDERED = (("birth_date", "baptism_date", "baptised", "birth after baptism",
             BAPTISM_GAP_DAYS),
            ("death_date", "burial_date", "buried", "death after burial", BURIAL_GAP_DAYS))


def _dated(c: Claim) -> bool:
    return c.date is not None and c.date.earliest is not None and c.date.latest is not None


def vital_order(claims: Mapping[str, Mapping[str, Claim]]) -> list[tuple[str, str]]:
    """Birth and death claims a primary baptism or burial entry contradicts, with why (GPS:
    resolve conflicting evidence across events, not only within one field). A non-primary
    birth after the baptism (death after the burial) is impossible; one more than a year
    before it is doubtful (a user tree's date off by a year or ten is the usual cause). They
    are kept, marked tentative, never dropped."""
    out: list[tuple[str, str]] = []
    for field, register, verb, impossible, gap in _ORDERED:
        entries = sorted((c for c in claims.get(register, {}).values()
                          if c.evidence_type == EvidenceType.PRIMARY and _dated(c)),
                         key=lambda c: c.assertion_id)
        word = field.split("_")[0]
        for b in sorted(claims.get(field, {}).values(), key=lambda c: c.assertion_id):
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


def mark_vital_order(store: Store, conn: Connection, claims: Mapping[str, Mapping[str, Claim]],
                     statuses: dict[str, str] | None = None) -> int:
    """Set the birth claims `vital_order` doubts to tentative (audited, reversible)."""
    n = 0
    doubted = vital_order(claims)
    if statuses is None and doubted:  # as they stand now in the store
        statuses = assertion_statuses(conn, [aid for aid, _ in doubted])
    for aid, why in doubted:
        if statuses is not None and statuses.get(aid) in ("tentative", "conflicting",
                                                          "verified"):
            continue
        store.set_assertion_status(conn, aid, AssertionStatus.TENTATIVE, agent="Analyst",
                                   reason=f"events out of order: {why}")
        n += 1
    return n


# -- reading claims ------------------------------------------------------------------------
_Read = tuple[Snapshot, "SourceInfo", "WikiTreeIndex | None"]  # (no-text copy, info, index)
_SNAPSHOTS: dict[str, _Read] = {}  # by snapshot id
_CACHE_LIMIT = 20_000


def _sources(conn: Connection, ids: Iterable[str]) -> dict[str, _Read]:
    """Each snapshot's kind and WikiTree index, read once per process (snapshots are
    immutable, so what was read stays true); texts are not kept."""
    want = sorted(set(ids) - set(_SNAPSHOTS))
    for snap in snapshots_in(conn, want):
        info = describe(snap)
        index = wikitree_index(snap) if info.kind is SourceKind.WIKITREE_PROFILE else None
        if len(_SNAPSHOTS) >= _CACHE_LIMIT:
            _SNAPSHOTS.clear()
        _SNAPSHOTS[snap.id] = (snap.model_copy(update={"text": ""}), info, index)
    return {i: _SNAPSHOTS[i] for i in ids if i in _SNAPSHOTS}


@dataclass(slots=True)
class _Head:
    """An assertion's stored values, and its snapshot's evidence type and tier once read."""

    value: str
    date: dict[str, Any] | None  # GenDate's JSON
    confidence: float
    evidence_type: str | None  # its candidate's, when it has one
    snap: tuple[EvidenceType, Tier] | None = None


def pooled_claims(conn: Connection, ids: Sequence[str],
                  fields: Sequence[str] = SINGLE_VALUED) -> dict[str, dict[str, dict[str, Claim]]]:
    """person id -> field -> assertion id -> Claim with its classified citations, for the
    given person ids exactly as stored (callers fold merge clusters)."""
    if not ids:
        return {}
    rows = cited_claims(conn, ids, fields)
    snaps = _sources(conn, {r[7] for r in rows})
    overrides: dict[str, tuple[str | None, str | None]] = {}
    for cid, src, inf in override_classes(conn, [r[6] for r in rows]):
        prev = overrides.get(cid, (None, None))
        overrides[cid] = (src or prev[0], inf or prev[1])
    by: dict[str, dict[str, dict[str, tuple[_Head, list[Witness]]]]] = defaultdict(
        lambda: defaultdict(dict))
    # What depends only on the snapshot and the field (its classes; its name, unless a
    # WikiTree answer names the profile at the citation) or on a few values (a weight) is
    # worked out once: a tree's citations share one snapshot (issue 19)
    class_of: dict[tuple[str, str], Any] = {}
    name_of: dict[str, str] = {}
    weight_of: dict[tuple[Any, ...], float] = {}
    for aid, pid, field, value, gd, conf, cid, sid, excerpt, start, end, cand_ev in rows:
        entry = by[str(pid)][field].setdefault(str(aid), (_Head(value, gd, conf, cand_ev), []))
        found = snaps.get(sid)
        if found is None:
            continue
        snap, info, index = found
        head = entry[0]
        if head.snap is None:
            head.snap = (snap.evidence_type, snap.tier)
        classes = class_of.get((sid, field))
        if classes is None:
            classes = class_of[(sid, field)] = classify(snap, info, field)
        src_o, inf_o = overrides.get(cid, (None, None))
        source = SourceClass(src_o) if src_o else classes.source
        information = InformationClass(inf_o) if inf_o else classes.information
        cite = Citation(snapshot_id=sid, excerpt=excerpt, locator=Locator(start=start, end=end))
        profile = profile_in(index, start, end) if index is not None else None
        keys = origin_keys(info, snap, cite, source, profile)
        wkey = (source, information, classes.evidence, snap.tier, conf)
        weight = weight_of.get(wkey)
        if weight is None:
            weight = weight_of[wkey] = gps_weight(*wkey)
        name = name_of.get(sid) or source_name(info, snap, cite)
        if info.kind is not SourceKind.WIKITREE_PROFILE:
            name_of[sid] = name  # the same for every citation of this snapshot
        if profile and "WikiTree" in name:
            name = f"the WikiTree profile {profile}"
        entry[1].append(Witness(round(weight, 6), source, information, frozenset(keys), name))
    out: dict[str, dict[str, dict[str, Claim]]] = {}
    for pid, fields_ in by.items():
        for field, claims in fields_.items():
            for aid, (head, witnesses) in claims.items():
                if head.snap is None:
                    continue
                snap_ev, tier = head.snap
                out.setdefault(pid, {}).setdefault(field, {})[aid] = Claim(
                    aid, head.value, GenDate.model_validate(head.date) if head.date else None,
                    EvidenceType(head.evidence_type or snap_ev), Tier(tier), head.confidence,
                    tuple(witnesses))
    return out


def _clusters(conn: Connection, person_ids: set[str]) -> dict[str, list[str]]:
    """canonical id -> every id of its merge cluster, for the clusters these persons are in."""
    merged = merged_into(conn)
    out: dict[str, list[str]] = {}
    for pid in sorted(person_ids):
        canonical = merged.get(pid, pid)
        out.setdefault(canonical, [canonical])
    for member, canonical in sorted(merged.items()):
        if canonical in out and member not in out[canonical]:
            out[canonical].append(member)
    return out


def adjudicate_all(person_id: str, name: str,
                   claims: Mapping[str, Mapping[str, Claim]]) -> list[Conflict]:
    """Every single-valued field of one (merged) person, fields in name order."""
    out = []
    for field, by_id in sorted(claims.items()):
        if field not in SINGLE_VALUED:
            continue
        related = {f: list(claims.get(f, {}).values()) for f in RELATED.get(field, ())}
        conflict = adjudicate(person_id, name, field, list(by_id.values()), related)
        if conflict is not None:
            out.append(conflict)
    return out


def analyse_persons(store: Store, conn: Connection, person_ids: set[str]) -> list[Conflict]:
    """Adjudicate every single-valued field of these persons (merged view: the whole cluster
    of each, under its canonical id), inside the caller's transaction."""
    if not person_ids:
        return []
    clusters = _clusters(conn, set(person_ids))
    every = sorted({m for ids in clusters.values() for m in ids})
    per_person = pooled_claims(conn, every)
    names = names_of(conn, clusters)
    statuses = live_statuses(conn, every)  # at once: a row at a time cost more (issue 19)
    out: list[Conflict] = []
    for canonical, ids in sorted(clusters.items()):
        pooled: dict[str, dict[str, Claim]] = {}
        for pid in ids:
            for field, claims in per_person.get(pid, {}).items():
                pooled.setdefault(field, {}).update(claims)
        name = names.get(canonical) or canonical
        for conflict in adjudicate_all(canonical, name, pooled):
            apply_conflict(store, conn, conflict, f"conflict on {conflict.field}", statuses)
            statuses.update({k: str(v) for k, v in statuses_of(conflict).items()
                             if statuses.get(k) not in ("verified", "rejected")})
            for action in conflict.next_actions:
                _propose(store, conn, Hypothesis(
                    hypothesis_type="conflict_resolution", statement=action,
                    target_person=canonical,
                    suggested_queries=[f"{name} {conflict.field.replace('_', ' ')}".strip()],
                    priority=round(min(1.0, 0.5 + 0.5 * float(conflict.is_tentative)), 2)))
            out.append(conflict)
        mark_vital_order(store, conn, pooled, statuses)
    return out


def _propose(store: Store, conn: Connection, h: Hypothesis) -> None:
    """Add a hypothesis once: the same statement for the same person is not repeated."""
    if not hypothesis_exists(conn, h.statement, h.target_person):
        store.add_hypothesis(conn, h)
