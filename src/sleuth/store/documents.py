"""What the documents domain's agents write (issue 22): processes with their stage, dated
events, and entities with every mention. Every row names its snapshot, page, printed page
label and a 50-200-character verbatim excerpt, and the tables refuse one without (CHECK
constraints, `schema.doc_events` and `schema.doc_mentions`). Each write is audited in the
caller's transaction; a second write of the same event or mention is a no-op.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, func, insert, select, update

from sleuth.model import stable_id, utcnow
from sleuth.store import schema as t
from sleuth.store.store import Store

_P, _E, _N, _M = (t.doc_processes.c, t.doc_events.c, t.doc_entities.c, t.doc_mentions.c)


@dataclass(frozen=True)
class Process:
    id: str
    snapshot_id: str
    designation: str
    document_kind: str
    stage: str | None
    explanation: str | None


@dataclass(frozen=True)
class StoredEntity:
    id: str
    seq: int
    name: str
    kind: str
    key: str
    variants: list[str]


def process_id_of(snapshot_id: str) -> str:
    return stable_id("doc_process", snapshot_id)


def put_process(store: Store, conn: Connection, snapshot_id: str, designation: str,
                kind: str, by: str) -> str:
    """The process of one document (created once, audited); its id."""
    pid = process_id_of(snapshot_id)
    if conn.execute(select(_P.id).where(_P.id == pid)).first() is None:
        conn.execute(insert(t.doc_processes).values(
            id=pid, snapshot_id=snapshot_id, designation=designation, document_kind=kind,
            updated_at=utcnow()))
        store.audit(conn, "doc_process_created", "doc_process", pid, None,
                    {"designation": designation, "document_kind": kind}, by)
    return pid


def _process(r: Any) -> Process:
    return Process(str(r[0]), str(r[1]), r[2], r[3], r[4], r[5])


_PROCESS_COLS = (_P.id, _P.snapshot_id, _P.designation, _P.document_kind, _P.stage,
                 _P.explanation)


def processes(conn: Connection) -> list[Process]:
    """Every process, by designation."""
    return [_process(r) for r in conn.execute(
        select(*_PROCESS_COLS).order_by(_P.designation, _P.id))]


def process_of(conn: Connection, process_id: str) -> Process | None:
    r = conn.execute(select(*_PROCESS_COLS).where(_P.id == process_id)).first()
    return None if r is None else _process(r)


def set_stage(store: Store, conn: Connection, process_id: str, stage: str, explanation: str,
              by: str) -> tuple[str | None, str | None]:
    """A process's stage and its explanation, audited when they change; the stage before."""
    before = conn.execute(select(_P.stage, _P.explanation).where(_P.id == process_id)).one()
    if tuple(before) != (stage, explanation):
        conn.execute(update(t.doc_processes).where(_P.id == process_id).values(
            stage=stage, explanation=explanation, updated_at=utcnow()))
        store.audit(conn, "doc_process_staged", "doc_process", process_id,
                    {"stage": before[0], "explanation": before[1]},
                    {"stage": stage, "explanation": explanation}, by)
    return before[0], before[1]


def add_event(store: Store, conn: Connection, row: dict[str, Any], by: str) -> tuple[str, bool]:
    """Store one event (`schema.doc_events`' columns but the id), audited; (id, created).
    The same (snapshot, type, date) is one event."""
    eid = stable_id("doc_event", row["snapshot_id"], row["event_type"], row["date"])
    if conn.execute(select(_E.id).where(_E.id == eid)).first() is not None:
        return eid, False
    conn.execute(insert(t.doc_events).values(id=eid, **row))
    store.audit(conn, "doc_event_stored", "doc_event", eid, None,
                {"event_type": row["event_type"], "date": row["date"], "page": row["page"]}, by)
    return eid, True


def events(conn: Connection, snapshot_id: str | None = None) -> list[dict[str, Any]]:
    """Stored events (all, or one document's) in document then text order."""
    q = select(t.doc_events)
    if snapshot_id is not None:
        q = q.where(_E.snapshot_id == snapshot_id)
    return [dict(r) for r in conn.execute(q.order_by(_E.snapshot_id, _E.char_start,
                                                     _E.event_type)).mappings()]


def entities(conn: Connection) -> list[StoredEntity]:
    """Every entity, in the order they were first met."""
    return [StoredEntity(str(r[0]), int(r[1]), r[2], r[3], r[4], list(r[5] or []))
            for r in conn.execute(select(_N.id, _N.seq, _N.name, _N.kind, _N.key, _N.variants)
                                  .order_by(_N.seq))]


def add_entity(store: Store, conn: Connection, name: str, kind: str, key: str,
               variants: list[str], by: str) -> str:
    """A new entity (last in order), audited; its id."""
    seq = int(conn.execute(select(func.coalesce(func.max(_N.seq), 0))).scalar_one()) + 1
    nid = stable_id("doc_entity", kind, key, str(seq))
    conn.execute(insert(t.doc_entities).values(id=nid, seq=seq, name=name, kind=kind, key=key,
                                               variants=variants))
    store.audit(conn, "doc_entity_created", "doc_entity", nid, None,
                {"name": name, "kind": kind}, by)
    return nid


def update_entity(store: Store, conn: Connection, entity_id: str, name: str, key: str,
                  variants: list[str], by: str) -> None:
    """An entity's name (the fullest seen), key and variants, audited."""
    before = conn.execute(select(_N.name, _N.key, _N.variants).where(_N.id == entity_id)).one()
    if (before[0], before[1], list(before[2] or [])) == (name, key, variants):
        return
    conn.execute(update(t.doc_entities).where(_N.id == entity_id).values(
        name=name, key=key, variants=variants))
    store.audit(conn, "doc_entity_updated", "doc_entity", entity_id,
                {"name": before[0], "variants": before[2]}, {"name": name, "variants": variants},
                by)


def add_mention(store: Store, conn: Connection, row: dict[str, Any], by: str) -> tuple[str, bool]:
    """Store one mention (`schema.doc_mentions`' columns but the id), audited; (id,
    created). The same (snapshot, span read, role) is one mention."""
    mid = stable_id("doc_mention", row["snapshot_id"], str(row["name_start"]),
                    str(row["name_end"]), row["role"])
    if conn.execute(select(_M.id).where(_M.id == mid)).first() is not None:
        return mid, False
    conn.execute(insert(t.doc_mentions).values(id=mid, **row))
    store.audit(conn, "doc_mention_stored", "doc_mention", mid, None,
                {"entity_id": row["entity_id"], "role": row["role"], "page": row["page"]}, by)
    return mid, True


def mentions(conn: Connection, snapshot_id: str | None = None) -> list[dict[str, Any]]:
    """Stored mentions with their entity's name and kind (`entity_name`, `kind`), in
    entity order (`entity_seq`), then document and text order."""
    q = select(t.doc_mentions, _N.name.label("entity_name"), _N.kind,
               _N.seq.label("entity_seq")).join(
        t.doc_entities, _N.id == _M.entity_id)
    if snapshot_id is not None:
        q = q.where(_M.snapshot_id == snapshot_id)
    return [dict(r) for r in conn.execute(q.order_by(_N.seq, _M.snapshot_id, _M.name_start,
                                                     _M.name_end, _M.role)).mappings()]


def designations(conn: Connection) -> dict[str, str]:
    """snapshot id -> its document's designation."""
    return {str(s): d for s, d in conn.execute(select(_P.snapshot_id, _P.designation))}
