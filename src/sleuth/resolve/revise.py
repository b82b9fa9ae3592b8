"""Self-revising merges (issue 10): new evidence that contradicts a merge proposes undoing it.

A merge is kept with its evidence (the cluster's rationale and "why not split"). When an
assertion arrives *after* the merge that cannot be true of the same person as another
member's (a birth or death year more than `YEARS_APART` years away from every other
member's, or the other sex), the engine does not split on its own: it writes an unmerge
proposal, the diff of the contradicting claims, to the human review queue (an authored
snapshot, cited like the resolver's merge proposals). Accepting it splits the cluster
(restoring everything the merge changed); rejecting it records why the merge stands, and the
same cluster is not proposed again until newer evidence arrives.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Connection

from sleuth.model import (
    Agent,
    Candidate,
    Citation,
    EvidenceType,
    InputError,
    Locator,
    LogEntry,
    Snapshot,
    utcnow,
)
from sleuth.resolve.merge import enclosing_cluster_of, leaves, split_in
from sleuth.store import Store
from sleuth.store.assertions import claims_asserted, newest_asserted
from sleuth.store.merges import active_clusters
from sleuth.store.persons import names_of
from sleuth.store.proposals import last_rejected, open_about, review_item
from sleuth.store.queries import merged_into
from sleuth.verify import Source, check_candidate

NOT_SAME = "not_same_person"
SOURCE_NAME = "sleuth resolver"
YEARS_APART = 10  # vital years this far apart are not one person's, whatever the spelling
_YEAR_FIELDS = ("birth_date", "death_date")


@dataclass(frozen=True)
class Contradiction:
    field: str
    new_person: str
    new_value: str
    new_assertion: str
    old_person: str
    old_value: str

    def line(self, names: dict[str, str]) -> str:
        return (f"  {self.field}: {names.get(self.new_person, self.new_person)} "
                f"[{self.new_person}] {self.new_value} (new, assertion {self.new_assertion}) vs "
                f"{names.get(self.old_person, self.old_person)} [{self.old_person}] "
                f"{self.old_value}")


def _as_utc(d: datetime) -> datetime:
    return d if d.tzinfo else d.replace(tzinfo=utcnow().tzinfo)


def contradictions(conn: Connection, members: list[str], since: datetime,
                   ) -> list[Contradiction]:
    """Claims asserted after `since` that another member's claims rule out."""
    rows = claims_asserted(conn, members, (*_YEAR_FIELDS, "sex"))
    out: list[Contradiction] = []
    for aid, pid, field, value, at in rows:
        if _as_utc(at) <= _as_utc(since):
            continue
        others = [r for r in rows if r[2] == field and r[1] != pid]
        if not others:
            continue
        if field == "sex":
            clash = [r for r in others if r[3] in ("M", "F") and value in ("M", "F")
                     and r[3] != value]
            if clash and len(clash) == len(others):
                out.append(Contradiction(field, str(pid), value, str(aid), str(clash[0][1]),
                                         clash[0][3]))
            continue
        year = _year(value)
        years = [(r, y) for r, y in ((r, _year(r[3])) for r in others) if y is not None]
        if year is None or not years:
            continue
        if all(abs(y - year) > YEARS_APART for _, y in years):
            r, _y = years[0]
            out.append(Contradiction(field, str(pid), value, str(aid), str(r[1]), r[3]))
    return out


def _year(value: str) -> int | None:
    head = value.lstrip("-")[:4]
    return int(head) if head.isdigit() else None


def propose_unmerges(store: Store) -> list[str]:
    """Review items (candidate ids) for clusters that evidence newer than the merge
    contradicts; one open proposal per cluster at most."""
    out: list[str] = []
    with store.engine.connect() as conn:
        clusters = active_clusters(conn)
        merged = merged_into(conn)
    for cid, canonical, members, created in clusters:
        if enclosing_cluster_of(clusters, str(cid)):
            continue  # the larger merge that absorbed it is the one to undo first
        with store.transaction() as tx:
            ids = list(dict.fromkeys(leaves(merged, [str(m) for m in members])))
            found = contradictions(tx, ids, created)
            if (not found or _rejected_since(tx, str(cid), found)
                    or open_about(tx, NOT_SAME, str(cid))):
                continue
            out.append(_enqueue(store, tx, str(cid), str(canonical), ids, found))
    return out


def _rejected_since(conn: Connection, cluster_id: str, found: list[Contradiction]) -> bool:
    """A reviewer kept this merge after every contradiction found now was already known."""
    last = last_rejected(conn, NOT_SAME, cluster_id)
    if last is None:
        return False
    newest = newest_asserted(conn, [f.new_assertion for f in found])
    return newest is not None and _as_utc(newest) <= _as_utc(last)


def _enqueue(store: Store, tx: Connection, cluster_id: str, canonical: str, ids: list[str],
             found: list[Contradiction]) -> str:
    names = names_of(tx, ids)
    claim = f"Not the same person? merge cluster {cluster_id}"
    text = "\n".join([
        "Unmerge proposal written by the sleuth resolver (authored, not a source).",
        claim,
        "Evidence that arrived after the merge and contradicts it:",
        *(f.line(names) for f in found),
        "Accept to split the cluster back into its persons (reversible); reject to keep it.",
        "",
    ])
    raw = text.encode()
    snap, _ = store.put_snapshot(tx, raw, Snapshot(
        sha256=hashlib.sha256(raw).hexdigest(), source_name=SOURCE_NAME,
        path=f"sleuth-resolver/unmerge-{cluster_id}.txt", text=text,
        evidence_type=EvidenceType.AUTHORED,
        metadata={"kind": "unmerge_proposal", "cluster": cluster_id}))
    start = snap.text.index(claim)
    cand = Candidate(
        subject=canonical, subject_name=names.get(canonical), field=NOT_SAME, value=cluster_id,
        confidence=0.5, is_fact=False, method="resolver", evidence_type=EvidenceType.AUTHORED,
        citation=Citation(snapshot_id=snap.id, excerpt=claim,
                          locator=Locator(start=start, end=start + len(claim))),
        rationale="; ".join(f"{f.field} {f.new_value} vs {f.old_value}" for f in found))
    if violations := check_candidate(cand, {snap.id: Source.of_snapshot(snap)}):
        raise InputError("; ".join(str(v) for v in violations), field=NOT_SAME)
    store.stage(tx, cand, status="review")
    store.enqueue_review(tx, cand.id, "high",
                         f"merge contradicted by new evidence: {cand.rationale}"[:500])
    store.log(tx, _log_entry(cluster_id, found))
    return cand.id


def _log_entry(cluster_id: str, found: list[Contradiction]) -> LogEntry:
    return LogEntry(agent=Agent.ANALYST, action_type="decision",
                    rationale=f"unmerge proposed for cluster {cluster_id}",
                    context={"decision": "unmerge_proposed", "cluster": cluster_id,
                             "contradictions": [f.__dict__ for f in found]})


def _item(conn: Connection, review_id: int) -> tuple[str, str] | None:
    row = review_item(conn, review_id)
    if row is None or row["field"] != NOT_SAME:
        return None
    if row["status"] != "open":
        raise InputError(f"review item {review_id} is already {row['status']}",
                         field="review_id")
    return str(row["id"]), str(row["value"])


def accept_if_unmerge(store: Store, review_id: int, *, reason: str, by: str = "Human"
                      ) -> list[str] | None:
    """Accept an unmerge proposal: split the cluster (one transaction with the decision)."""
    with store.transaction() as tx:
        found = _item(tx, review_id)
        if found is None:
            return None
        cand_id, cluster_id = found
        ids = split_in(store, tx, cluster_id, reason=f"accepted by reviewer: {reason}", by=by)
        store.set_candidate(tx, cand_id, by, status="promoted")
        store.decide(tx, cand_id, "human", "accept", reason, by=by)
        store.resolve_review(tx, review_id, "accepted", by=by, reason=reason)
    return ids


def reject_if_unmerge(store: Store, review_id: int, *, reason: str, by: str = "Human") -> bool:
    """Keep the merge; the reason is recorded and the cluster is not proposed again until
    newer contradicting evidence arrives."""
    with store.transaction() as tx:
        found = _item(tx, review_id)
        if found is None:
            return False
        cand_id, cluster_id = found
        store.set_candidate(tx, cand_id, by, status="rejected")
        store.decide(tx, cand_id, "human", "reject", reason, by=by)
        store.audit(tx, "unmerge_rejected", "merge_cluster", cluster_id, None,
                    {"why_the_merge_stands": reason}, by, reason)
        store.resolve_review(tx, review_id, "rejected", by=by, reason=reason)
    return True
