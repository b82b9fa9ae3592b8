"""Uncertain merges go to the human review queue as the resolver's own written proposal.

The review queue holds candidates, and a candidate needs a citation into a stored snapshot.
A merge proposal is not read from any source: it is what the resolver *wrote*. So each
proposal between the review and merge thresholds is stored as an authored snapshot
(`source_name="sleuth resolver"`, evidence type authored) whose text names the two persons,
lists the compared features and gives the rationale and the "why not merge"; the candidate
`field="same_person"` (subject = person A, value = person B's id, `is_fact=False`) cites its
"Same person?" line and passes the firewall like any other. Accepting the item merges the
two persons (reversibly, with the Analyst adjudicating their disagreements) in the same
transaction; rejecting it records the reviewer's "why not merge" in the audit log, and the
pair is not proposed again until new evidence about either person arrives.

`sleuth review` calls `accept_if_merge` / `reject_if_merge` first (one line each in
`sleuth.pipeline.review`); they return None for any other item.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from sqlalchemy import Connection

from sleuth.model import (
    Candidate,
    Citation,
    EvidenceType,
    InputError,
    Locator,
    NotFound,
    Snapshot,
)
from sleuth.resolve.explain import Proposal
from sleuth.resolve.merge import merge_in
from sleuth.store import Store
from sleuth.store.merges import outermost_cluster
from sleuth.store.persons import names_of
from sleuth.store.proposals import open_items, pair_declined, pair_queued, review_item
from sleuth.store.queries import merged_into
from sleuth.verify import Source, check_candidate

SAME_PERSON = "same_person"
SOURCE_NAME = "sleuth resolver"
METHOD = "resolver"


def proposal_text(p: Proposal, name_a: str, name_b: str) -> tuple[str, str]:
    """(snapshot text, the line the candidate cites) for one proposal."""
    claim = f"Same person? {name_a} [{p.a}] and {name_b} [{p.b}]"
    lines = [
        "Merge proposal written by the sleuth resolver (authored, not a source).",
        claim,
        f"Match probability: {p.probability:.4f}; recommended action: {p.recommended_action}.",
        "Features compared:",
        *(f"  {k}: {v['level']} ({v['weight']:+.2f} bits)" for k, v in p.features.items()),
        f"Why merge: {p.merge_rationale}",
        f"Why not merge: {p.why_not_merge}",
        "",
    ]
    return "\n".join(lines), claim


def declined(conn: Connection, a: str, b: str) -> bool:
    """A reviewer said "not a match" for this pair and nothing new is known of either since.

    New evidence is a non-rejected assertion about either person asserted after the last
    rejection: only then may the resolver propose the pair again.
    """
    return pair_declined(conn, SAME_PERSON, a, b)


def enqueue_proposals(store: Store, proposals: Iterable[Proposal]) -> list[str]:
    """Put every "review" proposal on the review queue; returns the new candidate ids.

    Proposals whose persons are not in the store (a GEDCOM run), that are already queued, or
    that a reviewer rejected with no new evidence since (`declined`) are skipped; each new one
    is its own transaction (snapshot, candidate, queue item).
    """
    out: list[str] = []
    for p in proposals:
        if p.recommended_action != "review":
            continue
        with store.transaction() as tx:
            names = names_of(tx, (p.a, p.b))
            if (len(names) < 2 or pair_queued(tx, SAME_PERSON, p.a, p.b)
                    or declined(tx, p.a, p.b)):
                continue
            text, claim = proposal_text(p, names[p.a] or p.a, names[p.b] or p.b)
            raw = text.encode()
            snap = Snapshot(
                sha256=hashlib.sha256(raw).hexdigest(), source_name=SOURCE_NAME,
                path=f"sleuth-resolver/{p.a}-{p.b}.txt", text=text,
                evidence_type=EvidenceType.AUTHORED,
                metadata={"kind": "merge_proposal", "a": p.a, "b": p.b},
            )
            snap, _ = store.put_snapshot(tx, raw, snap)
            start = snap.text.index(claim)
            cand = Candidate(
                subject=p.a, subject_name=names[p.a], field=SAME_PERSON, value=p.b,
                related=p.b, related_name=names[p.b], confidence=p.probability,
                citation=Citation(snapshot_id=snap.id, excerpt=claim,
                                  locator=Locator(start=start, end=start + len(claim))),
                is_fact=False, method=METHOD, evidence_type=EvidenceType.AUTHORED,
                rationale=f"{p.merge_rationale} | why not: {p.why_not_merge}",
            )
            violations = check_candidate(cand, {snap.id: Source.of_snapshot(snap)})
            if violations:  # the resolver's own text must pass the firewall like any other
                raise InputError("; ".join(str(v) for v in violations), field=SAME_PERSON)
            store.stage(tx, cand, status="review")
            store.enqueue_review(
                tx, cand.id, "high" if p.probability >= 0.8 else "normal",
                f"possible duplicate (p={p.probability:.3f}): {p.why_not_merge}"[:500],
            )
            out.append(cand.id)
    return out


def _merge_item(conn: Connection, review_id: int) -> tuple[dict[str, object], str, str] | None:
    row = review_item(conn, review_id)
    if row is None:
        raise NotFound(f"review item {review_id} does not exist")
    if row["field"] != SAME_PERSON:
        return None
    if row["status"] != "open":
        raise InputError(f"review item {review_id} is already {row['status']}",
                         field="review_id")
    return row, str(row["subject"]), str(row["value"])


def accept_if_merge(store: Store, review_id: int, *, reason: str, by: str = "Human"
                    ) -> str | None:
    """Accept a merge proposal: merge the two persons; returns the merge cluster id.

    None when the item is not a merge proposal. The merge and the review decision are one
    transaction: a merge the store refuses (ancestor, spouses, sex) leaves the item open.
    """
    if not reason.strip():
        raise InputError("a review decision needs a reason", field="--reason")
    with store.transaction() as tx:
        found = _merge_item(tx, review_id)
        if found is None:
            return None
        row, a, b = found
        merged = merged_into(tx)
        if merged.get(a, a) == merged.get(b, b):  # a later merge joined them already
            cluster = outermost_cluster(tx, merged.get(a, a))
        else:  # persons already merged are taken with their clusters (`merge_in`)
            cluster = merge_in(store, tx, [a, b], f"accepted by reviewer: {reason}",
                               by=by, judged=True).id
        store.set_candidate(tx, str(row["id"]), by, status="promoted")
        store.decide(tx, str(row["id"]), "human", "accept", reason, by=by)
        store.resolve_review(tx, review_id, "accepted", by=by, reason=reason)
    return cluster


def supersede_merged(store: Store, *, by: str = "Resolver") -> int:
    """Open merge proposals whose two persons a later merge made one are closed as accepted,
    naming that merge: the queue never asks about a pair that is no longer two persons.
    Returns how many were closed."""
    closed = 0
    with store.transaction() as tx:
        merged = merged_into(tx)
        for rid, cid, a, b in open_items(tx, SAME_PERSON):
            root = merged.get(str(a), str(a))
            if root != merged.get(str(b), str(b)):
                continue
            why = f"the two persons were merged since (cluster {outermost_cluster(tx, root)})"
            store.set_candidate(tx, str(cid), by, status="promoted")
            store.decide(tx, str(cid), "decision", "accept", why, by=by)
            store.resolve_review(tx, int(rid), "accepted", by=by, reason=why)
            closed += 1
    return closed


def reject_if_merge(store: Store, review_id: int, *, reason: str, by: str = "Human") -> bool:
    """Reject a merge proposal, recording the reviewer's reason as the "why not merge"."""
    if not reason.strip():
        raise InputError("a review decision needs a reason", field="--reason")
    with store.transaction() as tx:
        found = _merge_item(tx, review_id)
        if found is None:
            return False
        row, a, b = found
        cid = str(row["id"])
        store.set_candidate(tx, cid, by, status="rejected")
        store.decide(tx, cid, "human", "reject", reason, by=by)
        store.audit(tx, "merge_rejected", "candidate", cid, None,
                    {"persons": [a, b], "why_not_merge": reason}, by, reason)
        store.resolve_review(tx, review_id, "rejected", by=by, reason=reason)
    return True
