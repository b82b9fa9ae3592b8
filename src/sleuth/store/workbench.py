"""Reads for the review workbench (`sleuth serve`, `sleuth.web`): what its pages need beyond
`case_graph`, `review_items` and `person_page` (issue 21: the store is the one door)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import Select, func, literal_column, select

from sleuth.model import Candidate
from sleuth.store import schema as t
from sleuth.store.rows import load_candidate
from sleuth.store.store import Store


def case_version(store: Store) -> tuple[int, ...]:
    """Changes whenever the case does: every write is audited, and snapshots, staged
    candidates and the research log only ever grow (a page cache is valid while this stays
    the same)."""
    with store.engine.connect() as conn:
        grown: list[Select[Any]]
        if conn.dialect.name == "sqlite":  # rows only added: the last rowid, not a count
            grown = [select(literal_column("max(rowid)")).select_from(x)
                     for x in (t.snapshots, t.candidates)]
        else:
            grown = [select(func.count()).select_from(x) for x in (t.snapshots, t.candidates)]
        return tuple(
            int(conn.execute(q).scalar_one() or 0)
            for q in (
                select(func.max(t.audit_log.c.id)),
                select(func.max(t.research_log.c.seq)),
                *grown,
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


# Audit entries about things the case graph does not hold (`case_graph`): the review
# queue, candidates, tasks, sources, the documents domain's tables, a citation's evidence
# classes (the proof's inputs) and hypotheses (read whole every time).
_NOT_IN_GRAPH = frozenset({
    "candidate", "review", "task", "agent_task", "snapshot", "source", "citation",
    "hypothesis", "doc_process", "doc_event", "doc_entity", "doc_mention",
})


def audit_head(store: Store) -> int:
    """The last audit entry's id (0: none)."""
    with store.engine.connect() as conn:
        return int(conn.execute(select(func.max(t.audit_log.c.id))).scalar_one() or 0)


def touched_since(store: Store, after: int) -> tuple[int, set[str] | None]:
    """The persons (and other entities with claims) whose part of the case graph the
    writes audited after entry `after` changed, and the last entry's id: a person's row,
    conflicts or evidence; a claim's entity; both ends of a relationship; every member of a
    merge cluster made or split. None where an entry is of a kind this does not know
    (read the whole case again)."""
    a = t.audit_log.c
    out: set[str] = set()
    claims: set[str] = set()
    clusters: set[str] = set()
    last = after
    with store.engine.connect() as conn:
        rows = conn.execute(select(a.id, a.entity_type, a.entity_id, a.after_state)
                            .where(a.id > after).order_by(a.id)).all()
        for row in rows:
            last = max(last, int(row.id))
            kind, eid = str(row.entity_type), str(row.entity_id)
            if kind == "person":
                out.add(eid)
            elif kind == "assertion":
                claims.add(eid)
            elif kind == "relationship":
                state = row.after_state or {}
                if not (state.get("person1") and state.get("person2")):
                    return last, None
                out.update((str(state["person1"]), str(state["person2"])))
            elif kind == "merge_cluster":
                clusters.add(eid)
            elif kind not in _NOT_IN_GRAPH:
                return last, None
        if claims:
            c = t.assertions.c
            for chunk in _chunks(sorted(claims)):
                out.update(str(x) for x in conn.execute(
                    select(c.entity_id).where(c.id.in_(chunk))).scalars())
        if clusters:
            mc = t.merge_clusters.c
            for canonical, members in conn.execute(select(mc.canonical_id, mc.member_ids)
                                                   .where(mc.id.in_(clusters))):
                out.add(str(canonical))
                out.update(str(m) for m in members or [])
    return last, out


def _chunks(ids: list[str], size: int = 500) -> Iterable[list[str]]:
    for i in range(0, len(ids), size):
        yield ids[i:i + size]
