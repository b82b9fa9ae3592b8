"""What the documents domain's agents write (issue 22): the documents read and the links
that put them in a process, processes with their stage, dated events, and entities with
every mention. Every row names its snapshot, page, printed page
label and a 50-200-character verbatim excerpt, and the tables refuse one without (CHECK
constraints, `schema.doc_events` and `schema.doc_mentions`). Each write is audited in the
caller's transaction; a second write of the same event or mention is a no-op.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, func, insert, select, text, update

from sleuth.model import stable_id, utcnow
from sleuth.store import schema as t
from sleuth.store.store import Store

_P, _E, _N, _M = (t.doc_processes.c, t.doc_events.c, t.doc_entities.c, t.doc_mentions.c)
_D, _L = t.doc_documents.c, t.doc_links.c


@dataclass(frozen=True)
class Process:
    """One inquiry's chain of documents (`documents`: their snapshot ids, by designation)."""

    id: str
    designation: str
    stage: str | None
    explanation: str | None
    documents: tuple[str, ...] = ()


@dataclass(frozen=True)
class Document:
    snapshot_id: str
    designation: str
    document_kind: str
    process_id: str | None


@dataclass(frozen=True)
class StoredEntity:
    id: str
    seq: int
    name: str
    kind: str
    key: str
    variants: list[str]


def process_id_of(designation: str) -> str:
    return stable_id("doc_process", designation)


def put_document(store: Store, conn: Connection, snapshot_id: str, designation: str,
                 kind: str, by: str) -> None:
    """A read document's designation and kind (stored once, audited)."""
    if conn.execute(select(_D.snapshot_id).where(_D.snapshot_id == snapshot_id)).first():
        return
    conn.execute(insert(t.doc_documents).values(
        snapshot_id=snapshot_id, designation=designation, document_kind=kind,
        process_id=None, updated_at=utcnow()))
    store.audit(conn, "doc_document_read", "doc_document", snapshot_id, None,
                {"designation": designation, "document_kind": kind}, by)


def documents(conn: Connection) -> list[Document]:
    """Every read document, by designation."""
    return [Document(str(r[0]), r[1], r[2], None if r[3] is None else str(r[3]))
            for r in conn.execute(select(_D.snapshot_id, _D.designation, _D.document_kind,
                                         _D.process_id).order_by(_D.designation,
                                                                 _D.snapshot_id))]


def add_link(store: Store, conn: Connection, row: dict[str, Any], by: str) -> tuple[str, bool]:
    """Store one link (`schema.doc_links`' columns but the id), audited; (id, created). The
    same (snapshot, key, relation) is one link."""
    lid = stable_id("doc_link", row["snapshot_id"], row["key"], row["relation"])
    if conn.execute(select(_L.id).where(_L.id == lid)).first() is not None:
        return lid, False
    conn.execute(insert(t.doc_links).values(id=lid, **row))
    store.audit(conn, "doc_link_stored", "doc_link", lid, None,
                {"key": row["key"], "relation": row["relation"], "page": row["page"]}, by)
    return lid, True


def links(conn: Connection, snapshot_id: str | None = None) -> list[dict[str, Any]]:
    """Stored links (all, or one document's), by document, relation and text order."""
    q = select(t.doc_links)
    if snapshot_id is not None:
        q = q.where(_L.snapshot_id == snapshot_id)
    return [dict(r) for r in conn.execute(q.order_by(_L.snapshot_id, _L.relation,
                                                     _L.char_start, _L.key)).mappings()]


def _members(conn: Connection) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for pid, sid in conn.execute(select(_D.process_id, _D.snapshot_id)
                                 .where(_D.process_id.is_not(None))
                                 .order_by(_D.designation, _D.snapshot_id)):
        out.setdefault(str(pid), []).append(str(sid))
    return out


def processes(conn: Connection) -> list[Process]:
    """Every process, by designation, with its documents."""
    members = _members(conn)
    return [Process(str(r[0]), r[1], r[2], r[3], tuple(members.get(str(r[0]), ())))
            for r in conn.execute(select(_P.id, _P.designation, _P.stage, _P.explanation)
                                  .order_by(_P.designation, _P.id))]


def process_of(conn: Connection, process_id: str) -> Process | None:
    return next((p for p in processes(conn) if p.id == process_id), None)


# One key for the transaction-scoped lock under which processes are regrouped (PostgreSQL).
_PROCESS_LOCK = 0x5D0C_0014


def lock_processes(conn: Connection) -> None:
    """Regroup processes one worker at a time: on PostgreSQL a transaction-scoped advisory
    lock (two Head Detectives finishing at once would otherwise each read the documents
    before the other's move); SQLite's writer already holds the whole database."""
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _PROCESS_LOCK})


def assign_processes(store: Store, conn: Connection, assignment: dict[str, str],
                     by: str) -> tuple[dict[str, str], set[str]]:
    """Documents (snapshot id -> process designation) moved into their processes: a process
    created for a new designation (its id named by the designation; one kept from before
    migration 0014 keeps its own), a document's move audited, a process left with no
    document removed. (designation -> process id, ids of the processes whose documents
    changed)."""
    before = {d.snapshot_id: d.process_id for d in documents(conn)}
    ids = {r[1]: str(r[0]) for r in conn.execute(select(_P.id, _P.designation))}
    changed: set[str] = set()
    for sid, designation in sorted(assignment.items()):
        pid = ids.get(designation)
        if pid is None:
            pid = ids[designation] = process_id_of(designation)
            conn.execute(insert(t.doc_processes).values(id=pid, designation=designation,
                                                        updated_at=utcnow()))
            store.audit(conn, "doc_process_created", "doc_process", pid, None,
                        {"designation": designation}, by)
        if before.get(sid) != pid:
            conn.execute(update(t.doc_documents).where(_D.snapshot_id == sid).values(
                process_id=pid, updated_at=utcnow()))
            store.audit(conn, "doc_document_linked", "doc_document", sid,
                        {"process_id": before.get(sid)}, {"process_id": pid}, by)
            changed.add(pid)
            if before.get(sid):
                changed.add(str(before[sid]))
    held = set(_members(conn))
    for designation, pid in sorted(ids.items()):
        if pid not in held:
            conn.execute(t.doc_processes.delete().where(_P.id == pid))
            store.audit(conn, "doc_process_removed", "doc_process", pid,
                        {"designation": designation}, None, by)
            changed.discard(pid)
            del ids[designation]
    return ids, changed


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


def events(conn: Connection, snapshot_id: str | Sequence[str] | None = None
           ) -> list[dict[str, Any]]:
    """Stored events (all, or one document's, or some documents') in document then text
    order."""
    q = select(t.doc_events)
    if isinstance(snapshot_id, str):
        q = q.where(_E.snapshot_id == snapshot_id)
    elif snapshot_id is not None:
        q = q.where(_E.snapshot_id.in_(list(snapshot_id)))
    return [dict(r) for r in conn.execute(q.order_by(_E.snapshot_id, _E.char_start,
                                                     _E.event_type)).mappings()]


def entities(conn: Connection) -> list[StoredEntity]:
    """Every entity, in the order they were first met."""
    return [StoredEntity(str(r[0]), int(r[1]), r[2], r[3], r[4], list(r[5] or []))
            for r in conn.execute(select(_N.id, _N.seq, _N.name, _N.kind, _N.key, _N.variants)
                                  .order_by(_N.seq))]


def entity_roles(conn: Connection) -> dict[str, set[str]]:
    """entity id -> the roles of its stored mentions."""
    out: dict[str, set[str]] = {}
    for eid, role in conn.execute(select(_M.entity_id, _M.role).distinct()):
        out.setdefault(str(eid), set()).add(role)
    return out


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


def mentions(conn: Connection, snapshot_id: str | Sequence[str] | None = None
             ) -> list[dict[str, Any]]:
    """Stored mentions with their entity's name and kind (`entity_name`, `kind`), in
    entity order (`entity_seq`), then document and text order."""
    q = select(t.doc_mentions, _N.name.label("entity_name"), _N.kind,
               _N.seq.label("entity_seq")).join(
        t.doc_entities, _N.id == _M.entity_id)
    if isinstance(snapshot_id, str):
        q = q.where(_M.snapshot_id == snapshot_id)
    elif snapshot_id is not None:
        q = q.where(_M.snapshot_id.in_(list(snapshot_id)))
    return [dict(r) for r in conn.execute(q.order_by(_N.seq, _M.snapshot_id, _M.name_start,
                                                     _M.name_end, _M.role)).mappings()]


def designations(conn: Connection) -> dict[str, str]:
    """snapshot id -> its document's designation."""
    return {str(s): d for s, d in conn.execute(select(_D.snapshot_id, _D.designation))}
