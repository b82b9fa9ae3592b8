"""Human review (seed 002 HITL queue): accept, reject or edit, always with a reason.

A person's edit is a new candidate that goes through the same firewall: a reviewer can correct
a misread value but cannot assert something the cited excerpt does not say.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection

from sleuth.model import (
    DATE_FIELDS,
    RELATIONSHIP_FIELDS,
    Assertion,
    Candidate,
    CaseGraph,
    GenDate,
    InputError,
    NotFound,
    Person,
    new_id,
)
from sleuth.pipeline.review_labels import POINTER, Labels
from sleuth.privacy import REDACTED_EXCERPT, censor, redact_text
from sleuth.privacy.redaction import REDACTED
from sleuth.store import Store, review_items
from sleuth.store.review_queue import review_row, staged_for
from sleuth.store.rows import load_candidate

if TYPE_CHECKING:
    from sleuth.privacy import Verdict


def censored_items(store: Store, status: str | None = "open", *,
                   verdicts: Callable[[], Mapping[str, Verdict]] | None = None,
                   ) -> list[dict[str, Any]]:
    """The review queue as a person sees it: every item through the privacy Censor.

    Candidates are not persons yet, so each item's subject (all facts staged for it from the
    same snapshot) is assembled into a one-person graph and censored exactly as exports are.
    A merge proposal is judged by the whole case's verdicts: `verdicts` gives them where the
    caller keeps them (the workbench), else the case is read and judged here.
    """
    items = review_items(store, status)
    subjects = {(i["snapshot_id"], i["subject"]) for i in items}
    shown: dict[str, tuple[str, str | None]] = {}
    staged: dict[str, Candidate] = {}
    with store.engine.connect() as conn:
        for snapshot_id, subject in subjects:
            cands = [load_candidate(conn, i) for i in staged_for(conn, snapshot_id, subject)]
            staged.update((c.id, c) for c in cands)
            shown.update(_censor_subject(cands))
    shown.update(_censor_pairs(store, [i for i in items if i["field"] == "same_person"],
                               verdicts))
    labels = Labels(store)
    out = []
    for item in items:
        value, excerpt = shown.get(item["candidate_id"], (REDACTED, REDACTED_EXCERPT))
        cand = staged.get(item["candidate_id"])
        if cand is not None and cand.field in RELATIONSHIP_FIELDS and POINTER.fullmatch(value):
            # the relative by name (or label), never the bare pointer the FAM lines give
            value = labels.of(cand.citation.snapshot_id if cand.citation else "",
                              cand.related or value, cand.related_name)
        out.append(
            {
                **item,
                "value": value,
                "excerpt": excerpt,
                "subject_name": redact_text(labels.of(item["snapshot_id"], item["subject"],
                                                      item["subject_name"])),
            }
        )
    return out


def _censor_pairs(store: Store, items: list[dict[str, Any]],
                  verdicts: Callable[[], Mapping[str, Verdict]] | None = None,
                  ) -> dict[str, tuple[str, str | None]]:
    """Candidate id -> (value, excerpt) of merge proposals whose two persons are both in
    the case and neither is living there: the proposal's words are shown. A proposal is
    about two persons of the case, so the case's own verdicts judge them (alone, without
    their dates, anyone looks living); any other pair keeps the one-subject censoring."""
    if not items:
        return {}
    if verdicts is None:
        # Imported here for start-up time: a queue without merge proposals needs no case view.
        from sleuth.privacy.redaction import living_verdicts
        from sleuth.store import case_graph

        judged: Mapping[str, Verdict] = living_verdicts(case_graph(store))
    else:
        judged = verdicts()
    out: dict[str, tuple[str, str | None]] = {}
    for it in items:
        pair = [judged.get(str(it[k])) for k in ("subject", "value")]
        if all(v is not None and not v.living for v in pair):
            out[it["candidate_id"]] = (str(it["value"]), it["excerpt"])
    return out


def _censor_subject(cands: list[Candidate]) -> dict[str, tuple[str, str | None]]:
    """Candidate id -> (value, excerpt) after censoring the subject as one person."""
    if not cands:
        return {}
    pid = cands[0].subject
    person = Person(id=pid, canonical_name=cands[0].subject_name or pid)
    claims = [
        Assertion(
            id=c.id,
            entity_id=pid,
            field_name=c.field,
            value=c.value,
            date=c.date,
            confidence=min(max(c.confidence, 0.0), 1.0),
            citations=[c.citation] if c.citation else [],
        )
        for c in cands
    ]
    graph = censor(CaseGraph(persons=[person], assertions={pid: claims}))
    return {
        a.id: (a.value, a.citations[0].excerpt if a.citations else None)
        for a in graph.assertions.get(pid, [])
    }


def _open_item(conn: Connection, review_id: int) -> dict[str, Any]:
    item = review_row(conn, review_id)
    if item is None:
        raise NotFound(f"review item {review_id} does not exist")
    if item["status"] != "open":
        raise InputError(f"review item {review_id} is already {item['status']}", field="review_id")
    return item


def _require_reason(reason: str) -> None:
    if not reason.strip():
        raise InputError("a review decision needs a reason", field="--reason")


def accept(store: Store, review_id: int, *, reason: str, by: str = "Human") -> str:
    """Promote the candidate behind a review item; returns the new assertion id.

    A resolver's "same person?" proposal is accepted by merging the two persons instead
    (returns the merge cluster id); an unmerge proposal by splitting its cluster (returns
    the restored person ids, comma-separated).
    """
    _require_reason(reason)
    # Imported here for start-up time: `sleuth review` lists the queue without them.
    from sleuth.resolve.review import accept_if_merge
    from sleuth.resolve.revise import accept_if_unmerge

    if (cluster := accept_if_merge(store, review_id, reason=reason, by=by)) is not None:
        return cluster
    if (persons := accept_if_unmerge(store, review_id, reason=reason, by=by)) is not None:
        return ",".join(persons)
    # Imported here for start-up time: `sleuth review` lists the queue without them.
    from sleuth.gps.adjudicate import analyse_persons
    from sleuth.pipeline.promote import promote

    with store.transaction() as tx:
        item = _open_item(tx, review_id)
        cand = load_candidate(tx, item["candidate_id"])
        aid, pid = promote(store, tx, cand, agent=by, reason=f"accepted by reviewer: {reason}")
        store.resolve_review(tx, review_id, "accepted", by=by, reason=reason)
        analyse_persons(store, tx, {pid})
    return aid


def reject(store: Store, review_id: int, *, reason: str, by: str = "Human") -> None:
    _require_reason(reason)
    # Imported here for start-up time: `sleuth review` lists the queue without them.
    from sleuth.resolve.review import reject_if_merge
    from sleuth.resolve.revise import reject_if_unmerge

    if reject_if_merge(store, review_id, reason=reason, by=by):
        return  # the reason is recorded as the proposal's "why not merge"
    if reject_if_unmerge(store, review_id, reason=reason, by=by):
        return  # the merge stands, with the reviewer's reason
    with store.transaction() as tx:
        item = _open_item(tx, review_id)
        store.set_candidate(tx, item["candidate_id"], by, status="rejected")
        store.decide(tx, item["candidate_id"], "human", "reject", reason, by=by)
        store.resolve_review(tx, review_id, "rejected", by=by, reason=reason)


def edit(
    store: Store,
    review_id: int,
    *,
    value: str,
    reason: str,
    by: str = "Human",
    date: GenDate | None = None,
) -> str:
    """Replace the value (the excerpt stays), re-check it with the firewall, then promote."""
    _require_reason(reason)
    # Imported here for start-up time: `sleuth review` lists the queue without them.
    from sleuth.extract import parse_date
    from sleuth.gps.adjudicate import analyse_persons
    from sleuth.pipeline.promote import promote
    from sleuth.pipeline.validator import validate
    from sleuth.verify import Source, check_candidate

    with store.transaction() as tx:
        item = _open_item(tx, review_id)
        old = load_candidate(tx, item["candidate_id"])
        if old.field == "same_person":
            raise InputError("a merge proposal is accepted or rejected, not edited",
                             field="--edit")
        if old.citation is None:
            raise InputError("this candidate has no citation to edit against", field="value")
        snap = store.snapshot(old.citation.snapshot_id, tx)
        if old.field in DATE_FIELDS and date is None:
            date = parse_date(value)
            if date is None:
                raise InputError(f"{value!r} is not a date sleuth can read", field="value")
            value = date.iso()
        new = old.model_copy(
            update={
                "id": new_id(),
                "value": value,
                "date": date if date is not None else old.date,
                "confidence": max(old.confidence, 0.8),
                "method": "human_edit",
                "rationale": f"edited by {by}: {reason}",
            }
        )
        violations = check_candidate(new, {snap.id: Source.of_snapshot(snap)})
        if violations:
            raise InputError("; ".join(str(v) for v in violations), field="value")
        verdict = validate(new)
        if verdict.decision == "reject" or verdict.missing_fields:
            raise InputError(verdict.reason, field="value")
        store.stage(tx, new, status="acceptable")
        store.decide(tx, new.id, "human", "edit", reason, by=by)
        store.set_candidate(tx, old.id, by, status="rejected")
        aid, pid = promote(store, tx, new, agent=by, reason=f"edited by reviewer: {reason}")
        store.resolve_review(tx, review_id, "edited", by=by, reason=reason)
        analyse_persons(store, tx, {pid})
    return aid
