"""The Validator ⇄ extractor refinement loop is bounded; past the limit a person decides."""

from __future__ import annotations

import hashlib

from sqlalchemy import text

from sleuth.extract import refine
from sleuth.model import Candidate, Citation, Locator, Snapshot
from sleuth.pipeline import process_snapshot
from sleuth.store import Store, review_items

TEXT = "The farm was sold in April. John Hollis was born at Buck Valley, Fulton County."


def _snap() -> tuple[bytes, Snapshot]:
    raw = TEXT.encode()
    return raw, Snapshot(sha256=hashlib.sha256(raw).hexdigest(), path="/t.txt",
                         source_name="t", text=TEXT)


def _bare_place(snapshot_id: str) -> Candidate:
    """A place whose excerpt is the bare value: the Validator asks for the whole sentence."""
    start = TEXT.index("Buck Valley")
    return Candidate(subject="p1", subject_name="John Hollis", field="birth_place",
                     value="Buck Valley", confidence=0.9,
                     citation=Citation(snapshot_id=snapshot_id, excerpt="Buck Valley",
                                       locator=Locator(start=start, end=start + 11)))


def _decisions(store: Store) -> list[tuple[str, str]]:
    with store.engine.connect() as c:
        return [tuple(r) for r in c.execute(text(
            "SELECT stage, decision FROM decisions ORDER BY id"))]


def test_refinement_widens_the_excerpt_then_promotes(store: Store) -> None:
    raw, snap = _snap()
    with store.transaction() as tx:
        store.put_snapshot(tx, raw, snap)
        report = process_snapshot(store, tx, snap, [_bare_place(snap.id)], refine=refine)
    assert report.promoted == 1 and report.review == 0
    assert _decisions(store) == [("validator", "needs_more_evidence"),
                                 ("validator", "acceptable"), ("decision", "accept")]


def test_an_extractor_that_cannot_help_sends_the_candidate_to_review(store: Store) -> None:
    raw, snap = _snap()
    with store.transaction() as tx:
        store.put_snapshot(tx, raw, snap)
        report = process_snapshot(store, tx, snap, [_bare_place(snap.id)],
                                  refine=lambda c, r, t: None)
    assert report.review == 1
    [item] = review_items(store)
    assert "could not satisfy" in item["reason"] and "widen" in item["reason"]


def test_the_loop_stops_at_the_configured_limit(store: Store) -> None:
    raw, snap = _snap()

    def stubborn(c: Candidate, request: str, text_: str) -> Candidate:
        """Always returns a different, still too-short excerpt (one character further)."""
        loc = c.citation.locator
        end = loc.end + 1
        return c.model_copy(update={"citation": c.citation.model_copy(update={
            "excerpt": text_[loc.start:end], "locator": Locator(start=loc.start, end=end)})})

    with store.transaction() as tx:
        store.put_snapshot(tx, raw, snap)
        report = process_snapshot(store, tx, snap, [_bare_place(snap.id)], refine=stubborn,
                                  refinement_limit=2)
    assert report.review == 1
    [item] = review_items(store)
    assert item["reason"].startswith("Exceeded refinement limit after 2 attempts")
    assert [d for d in _decisions(store) if d[0] == "validator"] == [
        ("validator", "needs_more_evidence")] * 2
