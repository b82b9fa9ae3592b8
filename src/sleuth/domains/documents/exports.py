"""The documents domain's outputs (`sleuth export CASE --format timeline|entities|report`).

- timeline: JSON lines `{"document", "event_type", "date", "earliest", "latest",
  "description", "page", "page_label", "excerpt", "actors"}`, by document, then text order;
- entities: JSON lines `{"name", "kind", "role", "role_text", "document", "page",
  "page_label", "excerpt"}`, one per mention (the entity's deduplicated name beside the
  document's own wording), by entity, then document and text order;
- report: a Markdown dossier per process: its stage with the explanation, its timeline,
  its people and bodies, every line footnoted to its page and verbatim excerpt.

Only what the agents stored is written, in an order fixed by content, never by time: the
same documents give the same bytes, whether the work ran through or was killed and resumed.
The documents are public official publications, whose named office-holders are what they
are about; no living-person rule of genealogy's Censor applies to them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sleuth.store import documents as docs
from sleuth.store.store import Store

EXPORT_HELP = {
    "timeline": "process events, JSON lines, each with page, page label and excerpt",
    "entities": "people and bodies with roles, JSON lines, one per mention",
    "report": "Markdown dossier per process: stage, timeline, people, footnoted",
}


def _timeline_rows(store: Store) -> list[dict[str, Any]]:
    with store.engine.connect() as conn:
        names = docs.designations(conn)
        rows = docs.events(conn)
    out = [{"document": names.get(e["snapshot_id"], e["snapshot_id"]),
            "event_type": e["event_type"], "date": e["date"], "earliest": e["earliest"],
            "latest": e["latest"], "description": e["description"], "page": e["page"],
            "page_label": e["page_label"], "excerpt": e["excerpt"],
            "actors": list(e["actors"] or [])} | {"_start": e["char_start"]} for e in rows]
    out.sort(key=lambda r: (r["document"], r["_start"], r["event_type"]))
    for r in out:
        del r["_start"]
    return out


def _entity_rows(store: Store) -> list[dict[str, Any]]:
    with store.engine.connect() as conn:
        names = docs.designations(conn)
        rows = docs.mentions(conn)
    rows.sort(key=lambda m: (m["entity_seq"], names.get(m["snapshot_id"], ""),
                             m["name_start"], m["name_end"], m["role"]))
    return [{"name": m["entity_name"], "kind": m["kind"], "role": m["role"],
             "role_text": m["role_text"], "document": names.get(m["snapshot_id"],
                                                                m["snapshot_id"]),
             "page": m["page"], "page_label": m["page_label"], "excerpt": m["excerpt"]}
            for m in rows]


def _lines(rows: list[dict[str, Any]]) -> str:
    return "\n".join(json.dumps(r, ensure_ascii=False, sort_keys=False) for r in rows)


def timeline(store: Store, case_dir: Path) -> str:
    return _lines(_timeline_rows(store))


def entities(store: Store, case_dir: Path) -> str:
    return _lines(_entity_rows(store))


def _quote(excerpt: str) -> str:
    return " ".join(excerpt.split()).replace("|", "\\|")


def process_dossier(store: Store, process: docs.Process, notes: list[str]) -> list[str]:
    """One process's section of the report; its footnotes are appended to `notes`."""

    def cite(page: int, label: str, excerpt: str) -> str:
        notes.append(f"[^{len(notes) + 1}]: p. {label} (page {page} of the file): "
                     f"“{_quote(excerpt)}”")
        return f"[^{len(notes)}]"

    with store.engine.connect() as conn:
        evs = sorted(docs.events(conn, process.snapshot_id),  # in date order
                     key=lambda e: (e["earliest"] or e["date"], e["page"], e["char_start"]))
        ms = docs.mentions(conn, process.snapshot_id)
    out = [f"## {process.designation}", "",
           f"Process `{process.id}` · document kind: {process.document_kind or 'unknown'}", "",
           f"**Stage: {process.stage or 'not yet determined'}.** "
           f"{process.explanation or 'The Head Detective has not finished this document.'}",
           "", "### Timeline", ""]
    if not evs:
        out.append("No dated process events were found.")
    for e in evs:
        date = e["date"] if e["earliest"] == e["latest"] else (
            f"{e['date']} (between {e['earliest']} and {e['latest']})")
        actors = f" Actors: {', '.join(e['actors'])}." if e["actors"] else ""
        out.append(f"- {date}: {e['event_type'].replace('_', ' ')} — {e['description']}."
                   f"{actors} {cite(e['page'], e['page_label'], e['excerpt'])}")
    out += ["", "### People and bodies", ""]
    if not ms:
        out.append("No people, agencies, ministries or committees were found in a role.")
    by_entity: dict[str, list[dict[str, Any]]] = {}
    for m in ms:
        by_entity.setdefault(m["entity_id"], []).append(m)
    for group in by_entity.values():
        first = group[0]
        roles = "; ".join(f"{m['role']} (“{' '.join(m['role_text'].split())}”) "
                          f"{cite(m['page'], m['page_label'], m['excerpt'])}" for m in group)
        out.append(f"- **{first['entity_name']}** ({first['kind']}): {roles}")
    out.append("")
    return out


def report(store: Store, case_dir: Path) -> str:
    with store.engine.connect() as conn:
        procs = docs.processes(conn)
    lines = ["# Documents dossier", "",
             f"{len(procs)} documents. Every line is footnoted to the page it is printed on "
             "(the printed page label, then the page of the file) and a verbatim excerpt.", ""]
    notes: list[str] = []
    for p in procs:
        lines += process_dossier(store, p, notes)
    if notes:
        lines += ["---", "", *notes]
    return "\n".join(lines) + "\n"


EXPORTS = {"timeline": timeline, "entities": entities, "report": report}
