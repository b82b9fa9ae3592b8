"""The documents domain's agents (seed 004), meeting only on the blackboard
(`sleuth.store.agent_tasks`): no agent calls another.

- Head Detective (`head_detective_analysis`, one per stored document): queues a
  `timeline_extraction` and a `metadata_extraction` task for its document and goes back to
  the end of the queue; on a later pass, once both are done, computes the process stage
  from the stored events (`stage.process_stage`), stores it and completes with a summary.
- Timeline agent: the document's dated process events (`timeline.extract_events`), each
  through the firewall, the domain's validator rules and the decision maker's thresholds
  (each staged as a candidate with its decisions, rejected ones included); those promoted
  are stored with page, printed page label and excerpt (`store.documents`: the core's
  promotion makes genealogy's persons, so a documents fact has its own tables).
- Metadata agent: people, agencies, ministries and committees with their roles
  (`entities.extract_mentions`), through the same gate, deduplicated against every entity
  the case already holds (`entities.assign`), every mention kept.

An agent writes in the caller's transaction and returns its `Outcome`; the worker
(`work.py`) completes, requeues or fails the task in that same transaction, so what a task
writes and its completion commit together. Every output records the agent's version, the
model used ("deterministic"), the items created, the sections skipped and the
uncertainties (seed 004 "Agent Output Data Standards"); the worker adds the time taken.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import Connection

from sleuth.domains.base import Outcome
from sleuth.domains.documents.cite import Pages
from sleuth.domains.documents.entities import (
    DocumentNames,
    Entities,
    Entity,
    Mention,
    assign,
    entity_candidates,
)
from sleuth.domains.documents.entities import extract_mentions as read_mentions
from sleuth.domains.documents.links import (
    extract_links,
    group,
    is_designation,
    printed_designation,
)
from sleuth.domains.documents.rules import RULES, THRESHOLDS, title_of
from sleuth.domains.documents.stage import Fact, StageResult, process_stage
from sleuth.domains.documents.timeline import document_kind, event_candidates, extract_events
from sleuth.model import Candidate, Snapshot
from sleuth.pipeline.decision import make_decision
from sleuth.pipeline.validator import validate
from sleuth.store import agent_tasks as bb
from sleuth.store import documents as docs
from sleuth.store.agent_tasks import AgentTask
from sleuth.store.store import Store
from sleuth.verify.firewall import Source, screen

AGENT_VERSION = "1.0.0"
MODEL = "deterministic"
HEAD, TIMELINE, METADATA = "head_detective", "timeline_agent", "metadata_agent"
TASK_HEAD, TASK_TIMELINE, TASK_METADATA = (
    "head_detective_analysis", "timeline_extraction", "metadata_extraction")


def _base(**more: Any) -> dict[str, Any]:
    return {"agent_version": AGENT_VERSION, "model_used": MODEL, "items_created": [],
            "skipped_sections": [], "uncertainties": [], **more}


def printed_name(snap: Snapshot) -> str | None:
    """The document's name as its text prints it, for its candidates' subject (the firewall
    finds a subject's name in the snapshot): its printed designation, else its first line."""
    return printed_designation(snap) or title_of(snap)


def designation(snap: Snapshot) -> str:
    """What the document calls itself, else its file name, else its snapshot id."""
    return title_of(snap) or str(snap.metadata.get("filename") or snap.id)


def _skipped(snap: Snapshot) -> list[str]:
    """The pages with no text, each with why: no text layer (a scanned page), or OCR could
    not read it reliably (`text.ocr`: its mean word confidence)."""
    pages = Pages.of(snap)
    ocr = snap.metadata.get("ocr")
    unsure = set(ocr.get("unreadable_pages") or []) if isinstance(ocr, dict) else set()
    out = []
    for i, (a, b) in enumerate(zip(pages.starts, pages.ends, strict=True)):
        if snap.text[a:b].strip():
            continue
        if i + 1 in unsure and isinstance(ocr, dict):
            conf = ocr["mean_confidence"][i]
            out.append(f"page {pages.labels[i]}: OCR could not read it reliably (mean word "
                       f"confidence {conf:.0f}%)")
        else:
            out.append(f"page {pages.labels[i]}: no text layer" if not ocr
                       else f"page {pages.labels[i]}: OCR found no words")
    return out


def _gate(store: Store, conn: Connection, snap: Snapshot, cands: list[Candidate],
          by: str) -> list[str | None]:
    """For each candidate: None when it passes the firewall, the domain's validator rules
    and the decision maker's thresholds (promoted), else why not. Each is staged with its
    decisions (seed 002: staging keeps every candidate the firewall saw, rejected ones
    included), in the caller's transaction; what is promoted is the agent's to store."""
    sources = {snap.id: Source.of_snapshot(snap)}
    out: list[str | None] = []
    for cand, violations, _ in screen(cands, sources):
        if violations:
            said = [str(v) for v in violations]
            store.stage(conn, cand, status="rejected", violations=said)
            store.decide(conn, cand.id, "firewall", "reject", "; ".join(said), by=by)
            out.append("firewall: " + "; ".join(said))
            continue
        check = validate(cand, RULES)
        if not check.acceptable:
            status = "rejected" if check.decision == "reject" else "needs_more_evidence"
            store.stage(conn, cand, status=status, missing=check.missing_fields)
            store.decide(conn, cand.id, "validator", check.decision, check.reason, by=by,
                         request=check.request)
            out.append(f"validator: {check.reason}")
            continue
        made = make_decision(cand.confidence, check.missing_fields, THRESHOLDS)
        promoted = made.action == "promote_to_core"
        store.stage(conn, cand, status="promoted" if promoted else "review")
        store.decide(conn, cand.id, "decision", made.decision, made.reason, by=by,
                     priority=made.priority, confidence=cand.confidence)
        out.append(None if promoted else f"decision: {made.reason}")
    return out


# -- Head Detective ------------------------------------------------------------------------
def _keys(doc: docs.Document, links: list[dict[str, Any]]) -> set[str]:
    """The designations that put a document in a process: its links, else its designation
    (a document read before links were stored, migration 0014), else a name of its own (a
    document that prints no designation is a process by itself)."""
    if links:
        return {link["key"] for link in links}
    if is_designation(doc.designation):
        return {doc.designation}
    return {f"{doc.designation} [{doc.snapshot_id[:8]}]"}


def facts_of(events: list[dict[str, Any]], names: dict[str, str],
             kinds: dict[str, str]) -> list[Fact]:
    """Stored events as the state machine reads them (`names`, `kinds`: by snapshot id)."""
    return [Fact(e["event_type"], e["date"], e["page"], e["page_label"],
                 names[str(e["snapshot_id"])], e["description"], kinds[str(e["snapshot_id"])],
                 e["excerpt"]) for e in events]


def settle_processes(store: Store, conn: Connection, snapshot_id: str,
                     by: str = HEAD) -> tuple[docs.Process, str | None, StageResult]:
    """Group every read document into processes by their links (`links.group`: any two
    that share a designation are one process), move documents whose process changed, and
    compute the stage (`stage.process_stage`) of every process whose documents changed and
    of `snapshot_id`'s from the evidence of all their documents. Its process, the stage
    before, and the new one. Whatever order documents are read in, once all are, the
    processes and stages are the same."""
    docs.lock_processes(conn)
    # only documents whose Head Detective has settled them (and this one): a document merely
    # put is staged by its own settlement, so what a task records does not depend on the
    # order other workers' tasks ran in
    read = {d.snapshot_id: d for d in docs.documents(conn)
            if d.process_id is not None or d.snapshot_id == snapshot_id}
    by_doc: dict[str, list[dict[str, Any]]] = {}
    for link in docs.links(conn):
        by_doc.setdefault(str(link["snapshot_id"]), []).append(link)
    assignment = group({sid: _keys(d, by_doc.get(sid, [])) for sid, d in read.items()})
    ids, changed = docs.assign_processes(store, conn, assignment, by)
    mine = ids[assignment[snapshot_id]]
    results: dict[str, tuple[str | None, StageResult]] = {}
    for p in docs.processes(conn):
        if p.id not in changed | {mine}:
            continue
        members = [read[sid] for sid in p.documents]
        names = {d.snapshot_id: d.designation for d in members}
        kinds = {d.snapshot_id: d.document_kind for d in members}
        result = process_stage([(d.document_kind, d.designation) for d in members],
                               facts_of(docs.events(conn, list(p.documents)), names, kinds))
        before, _ = docs.set_stage(store, conn, p.id, result.stage, result.explanation, by)
        results[p.id] = (before, result)
    process = docs.process_of(conn, mine)
    assert process is not None
    return process, results[mine][0], results[mine][1]


def head_detective(store: Store, conn: Connection, task: AgentTask) -> Outcome:
    sid = str(task.snapshot_id)
    snap = store.snapshot(sid, conn)
    name = designation(snap)
    kind = document_kind(snap)
    docs.put_document(store, conn, sid, name, kind, HEAD)
    delegated = bb.children(conn, task.id)
    if not delegated:
        payload = {"document": name}
        tl = bb.create_task(store, conn, task_type=TASK_TIMELINE, agent=TIMELINE,
                            snapshot_id=sid, parent_id=task.id, payload=payload, by=HEAD)
        md = bb.create_task(store, conn, task_type=TASK_METADATA, agent=METADATA,
                            snapshot_id=sid, parent_id=task.id, payload=payload, by=HEAD)
        return Outcome("requeued", f"{name}: delegated timeline and metadata extraction",
                       _base(phase="delegated",
                             delegated_tasks={"timeline_task_id": tl,
                                              "metadata_task_id": md}))
    open_ = [d for d in delegated if d.status in ("pending", "running")]
    ids = {d.task_type: d.id for d in delegated}
    if open_:
        return Outcome("requeued", f"{name}: waiting for {len(open_)} delegated tasks",
                       _base(phase="waiting"))
    failed = [f"{d.task_type} failed: {d.error}" for d in delegated if d.status == "failed"]
    created: list[str] = []
    for link in extract_links(snap):
        lid, new = docs.add_link(store, conn, {
            "snapshot_id": sid, "key": link.key, "key_kind": link.key_kind,
            "relation": link.relation, "page": link.page, "page_label": link.page_label,
            "excerpt": link.excerpt,
            "char_start": link.citation.locator.start if link.citation else None,
            "char_end": link.citation.locator.end if link.citation else None}, HEAD)
        if new:
            created.append(lid)
    process, before, result = settle_processes(store, conn, sid)
    evs = docs.events(conn, sid)
    n_mentions = len(docs.mentions(conn, sid))
    others = len(process.documents) - 1
    summary = (f"{name} ({kind or 'document'}, {len(snap.page_starts) or 1} pages): "
               f"{len(evs)} events, {n_mentions} entity mentions; process {process.designation}"
               + (f" with {others} other document{'s' if others != 1 else ''}" if others else "")
               + f"; stage {result.stage}")
    return Outcome("completed", summary, _base(
        phase="completed", process_id=process.id, process=process.designation,
        analysis_summary=summary, items_created=created, links_created=len(created),
        delegated_tasks={"timeline_task_id": ids.get(TASK_TIMELINE),
                         "metadata_task_id": ids.get(TASK_METADATA)},
        stage_update={"previous_stage": before, "new_stage": result.stage,
                      "reasoning": result.explanation},
        uncertainties=failed))


# -- Timeline agent ------------------------------------------------------------------------
def timeline_agent(store: Store, conn: Connection, task: AgentTask) -> Outcome:
    sid = str(task.snapshot_id)
    snap = store.snapshot(sid, conn)
    events = extract_events(snap)
    verdicts = _gate(store, conn, snap,
                     event_candidates(snap, events, subject_name=printed_name(snap)), TIMELINE)
    created: list[str] = []
    uncertain: list[str] = []
    for ev, why in zip(events, verdicts, strict=True):
        where = f"{ev.event_type} {ev.date.iso()} on p. {ev.page_label}"
        if why is not None:
            uncertain.append(f"not stored: {where}: {why}")
            continue
        d = ev.date
        if d.earliest != d.latest:
            uncertain.append(f"{where}: a range ({d.original.strip() or d.iso()})")
        if ev.event_type == "other":
            uncertain.append(f"{where}: typed 'other' ({ev.description})")
        eid, new = docs.add_event(store, conn, {
            "snapshot_id": sid, "task_id": task.id, "event_type": ev.event_type,
            "description": ev.description, "date": d.iso(),
            "earliest": d.earliest.isoformat() if d.earliest else None,
            "latest": d.latest.isoformat() if d.latest else None,
            "page": ev.page, "page_label": ev.page_label, "excerpt": ev.excerpt,
            "char_start": ev.citation.locator.start, "char_end": ev.citation.locator.end,
            "actors": ev.actors}, TIMELINE)
        if new:
            created.append(eid)
    skipped = _skipped(snap)
    return Outcome("completed", f"{designation(snap)}: {len(created)} events",
                   _base(events_created=len(created), event_ids=created, items_created=created,
                         skipped_sections=skipped, uncertainties=uncertain))


# -- Metadata agent ------------------------------------------------------------------------
def _known(conn: Connection) -> tuple[list[Entity], dict[int, str]]:
    """The case's entities as `entities.Entity` values (for `assign`) and their ids."""
    known: list[Entity] = []
    ids: dict[int, str] = {}
    roles = docs.entity_roles(conn)
    for row in docs.entities(conn):
        ent = Entity(row.name, row.kind, row.key, variants=list(row.variants),
                     roles=set(roles.get(row.id, ())))
        known.append(ent)
        ids[id(ent)] = row.id
    return known, ids


def metadata_agent(store: Store, conn: Connection, task: AgentTask) -> Outcome:
    sid = str(task.snapshot_id)
    snap = store.snapshot(sid, conn)
    found = read_mentions(snap)
    verdicts = _gate(store, conn, snap,
                     entity_candidates(snap, found, subject_name=printed_name(snap)), METADATA)
    known, ids = _known(conn)
    before = {id(e): (e.name, e.key, list(e.variants)) for e in known}
    stored = [m for m, why in zip(found, verdicts, strict=True) if why is None]
    joined, names = Entities(known), DocumentNames(found, stored)  # appends to `known`
    kept: list[tuple[Entity, Mention]] = []
    uncertain: list[str] = []
    for m, why in zip(found, verdicts, strict=True):
        if why is not None:
            uncertain.append(f"not stored: {m.kind} {m.name!r} ({m.role}) on p. "
                             f"{m.page_label}: {why}")
            continue
        ent, _ = assign(joined, m, names)
        kept.append((ent, m))
        if m.role == "other":
            uncertain.append(f"{m.name} on p. {m.page_label}: role 'other' ({m.role_text})")
    created: list[str] = []
    for ent in known:
        if id(ent) not in ids:
            ids[id(ent)] = docs.add_entity(store, conn, ent.name, ent.kind, ent.key,
                                           ent.variants, METADATA)
            created.append(ids[id(ent)])
        elif before[id(ent)] != (ent.name, ent.key, ent.variants):
            docs.update_entity(store, conn, ids[id(ent)], ent.name, ent.key, ent.variants,
                               METADATA)
    relations: list[str] = []
    for ent, m in kept:
        mid, new = docs.add_mention(store, conn, {
            "entity_id": ids[id(ent)], "snapshot_id": sid, "task_id": task.id,
            "name": m.name, "role": m.role, "role_text": m.role_text, "page": m.page,
            "page_label": m.page_label, "excerpt": m.excerpt,
            "char_start": m.citation.locator.start, "char_end": m.citation.locator.end,
            "name_start": m.start, "name_end": m.end},
            METADATA)
        if new:
            relations.append(mid)
    linked = sorted({ids[id(e)] for e, _ in kept} - set(created))
    skipped = _skipped(snap)
    return Outcome("completed", f"{designation(snap)}: {len(relations)} mentions of "
                   f"{len({id(e) for e, _ in kept})} entities ({len(created)} new)",
                   _base(entities_created=len(created), entities_linked=len(linked),
                         relations_created=len(relations), entity_ids=created,
                         linked_entity_ids=linked, items_created=created + relations,
                         skipped_sections=skipped, uncertainties=uncertain))


AGENTS: dict[str, Callable[[Store, Connection, AgentTask], Outcome]] = {
    TASK_HEAD: head_detective, TASK_TIMELINE: timeline_agent, TASK_METADATA: metadata_agent}
