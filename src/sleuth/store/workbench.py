"""Reads for the review workbench (`sleuth serve`, `sleuth.web`): what its pages need beyond
`case_graph`, `review_items` and `person_page` (issue 21: the store is the one door)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import func, select

from sleuth.model import Candidate
from sleuth.store import schema as t
from sleuth.store.rows import load_candidate
from sleuth.store.store import Store


def case_version(store: Store) -> tuple[int, ...]:
    """Changes whenever the case does: every write is audited, and snapshots, staged
    candidates and the research log only ever grow (a page cache is valid while this stays
    the same)."""
    with store.engine.connect() as conn:
        return tuple(
            int(conn.execute(q).scalar_one() or 0)
            for q in (
                select(func.max(t.audit_log.c.id)),
                select(func.max(t.research_log.c.seq)),
                select(func.count()).select_from(t.snapshots),
                select(func.count()).select_from(t.candidates),
                select(func.count()).select_from(t.review_queue).where(
                    t.review_queue.c.status == "open"),
            )
        )


def candidate_spans(
    store: Store, candidate_ids: Iterable[str]
) -> dict[str, tuple[str, int | None, int | None]]:
    """Candidate id -> (snapshot id, start, end) of the words it cites."""
    ids = list(candidate_ids)
    if not ids:
        return {}
    c = t.candidates.c
    with store.engine.connect() as conn:
        rows = conn.execute(select(c.id, c.snapshot_id, c.char_start, c.char_end).where(
            c.id.in_(ids)))
        return {str(r.id): (str(r.snapshot_id), r.char_start, r.char_end) for r in rows}


def unpromoted(store: Store, snapshot_id: str) -> list[Candidate]:
    """Every candidate read from a snapshot that is not (yet) a person's assertion: waiting
    for review, rejected or refused. Their subjects are not persons of the case, so whoever
    shows the snapshot's text judges them as the review queue does."""
    c = t.candidates.c
    with store.engine.connect() as conn:
        ids = conn.execute(select(c.id).where(c.snapshot_id == snapshot_id,
                                              c.status != "promoted")).scalars().all()
        return [load_candidate(conn, str(i)) for i in ids]


def pairs(store: Store, candidate_ids: Iterable[str]) -> dict[str, tuple[str, str]]:
    """Candidate id -> (subject, related) as staged: for a resolver's "same person?"
    proposal, the two persons' ids."""
    ids = list(candidate_ids)
    if not ids:
        return {}
    c = t.candidates.c
    with store.engine.connect() as conn:
        rows = conn.execute(select(c.id, c.subject, c.related).where(c.id.in_(ids)))
        return {str(r.id): (str(r.subject), str(r.related or "")) for r in rows}


def clusters_of(store: Store, person_id: str) -> list[dict[str, Any]]:
    """The active merge clusters whose canonical person this is, newest first: id, member
    ids and the merge's rationale (what a split would undo)."""
    mc = t.merge_clusters.c
    with store.engine.connect() as conn:
        rows = conn.execute(select(mc.id, mc.member_ids, mc.merge_rationale, mc.created_at)
                            .where(mc.canonical_id == person_id, mc.dissolved_at.is_(None))
                            .order_by(mc.created_at.desc(), mc.id.desc())).mappings()
        return [dict(r) for r in rows]
