"""The documents domain's outputs (`sleuth export CASE --format timeline|entities|report`).

- timeline: JSON lines `{"document", "event_type", "date", "earliest", "latest",
  "description", "page", "page_label", "excerpt", "actors"}`, by document, then text order;
- entities: JSON lines `{"name", "kind", "role", "role_text", "document", "page",
  "page_label", "excerpt"}`, one per mention (the entity's deduplicated name beside the
  document's own wording), by entity, then document and text order;
- report: a Markdown dossier per process (one inquiry's chain of documents): its documents
  and what links them, its stage with the explanation, one timeline and one list of people
  and bodies across its documents, every line footnoted to its document, page and verbatim
  excerpt; html: the same dossier as one self-contained HTML page (footnotes linked).

Only what the agents stored is written, in an order fixed by content, never by time: the
same documents give the same bytes, whether the work ran through or was killed and resumed.
The documents are public official publications, whose named office-holders are what they
are about; no living-person rule of genealogy's Censor applies to them.
"""

from __future__ import annotations

import html as html_lib
import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from sleuth.domains.documents.agents import facts_of
from sleuth.domains.documents.stage import process_stage
from sleuth.store import documents as docs
from sleuth.store.store import Store

EXPORT_HELP = {
    "timeline": "process events, JSON lines, each with page, page label and excerpt",
    "entities": "people and bodies with roles, JSON lines, one per mention",
    "report": "Markdown dossier per process: stage, timeline, people, footnoted",
    "html": "the same dossier as one self-contained HTML page",
}


def in_date_order(events: Iterable[dict[str, Any]],
                  names: Mapping[str, str]) -> list[dict[str, Any]]:
    """Stored events in date order (a range by its first day; undated last), ties by type,
    document (`names`: snapshot id -> designation), page and place on it: how a process's
    timeline reads wherever it is shown."""
    def key(e: dict[str, Any]) -> tuple[Any, ...]:
        return (e["earliest"] is None, e["earliest"] or e["date"], e["date"], e["event_type"],
                names.get(str(e["snapshot_id"]), ""), e["page"], e["char_start"])
    return sorted(events, key=key)


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


def _date_line(e: dict[str, Any]) -> str:
    return e["date"] if e["earliest"] == e["latest"] else (
        f"{e['date']} (between {e['earliest']} and {e['latest']})")


def process_dossier(store: Store, process: docs.Process, notes: list[str]) -> list[str]:
    """One process's section of the report: its documents and what links them, its stage
    with the explanation, one timeline and one list of people and bodies across all its
    documents. Every line is footnoted (appended to `notes`): a fact to the document, page
    and verbatim excerpt it is read from; a link from metadata beside a file to that file.
    An event several documents state is one line with a footnote for each."""

    def cite(document: str, page: int | None, label: str | None, excerpt: str) -> str:
        if page is None:
            notes.append(f"[^{len(notes) + 1}]: {document}: metadata beside the file, not its "
                         f"text: {_quote(excerpt)}")
        else:
            notes.append(f"[^{len(notes) + 1}]: {document}, p. {label} (page {page} of the "
                         f"file): “{_quote(excerpt)}”")
        return f"[^{len(notes)}]"

    with store.engine.connect() as conn:
        read = {d.snapshot_id: d for d in docs.documents(conn)}
        members = [read[sid] for sid in process.documents if sid in read]
        sids = [d.snapshot_id for d in members]
        evs = docs.events(conn, sids)
        ms = docs.mentions(conn, sids)
        links = {sid: docs.links(conn, sid) for sid in sids}
        pages = {sid: len(store.snapshot(sid, conn).page_starts) or 1 for sid in sids}
    names = {d.snapshot_id: d.designation for d in members}
    kinds = {d.snapshot_id: d.document_kind for d in members}
    # the stage again from the stored evidence (a pure function), for its footnote
    result = process_stage([(d.document_kind, d.designation) for d in members],
                           facts_of(evs, names, kinds))
    n = len(members)
    out = [f"## {process.designation}", "",
           f"Process `{process.id}` · {n} document{'s' if n != 1 else ''}", ""]
    stage_note = ""
    if result.fact is not None:
        f = result.fact
        stage_note = " " + cite(f.document, f.page, f.page_label, f.excerpt)
    elif result.document is not None:
        own = next((link for d in members if d.designation == result.document
                    for link in links[d.snapshot_id] if link["relation"] == "self"), None)
        if own is not None:
            stage_note = " " + cite(result.document, own["page"], own["page_label"],
                                    own["excerpt"])
    stage = process.stage or "not yet determined"
    explanation = process.explanation or "The Head Detective has not finished this process."
    out += [f"**Stage: {stage}.** {explanation}{stage_note}", "", "### Documents", ""]
    for d in members:
        said = []
        for link in links[d.snapshot_id]:
            how = {"self": "prints its designation", "cites": "cites",
                   "committee": "names the committee", "metadata": "metadata: came from"}[
                link["relation"]]
            key = "" if link["relation"] == "self" else f" {link['key']}"
            said.append(f"{how}{key} "
                        f"{cite(d.designation, link['page'], link['page_label'], link['excerpt'])}")
        linked = "; ".join(said) if said else "prints no designation (a process by itself)"
        out.append(f"- **{d.designation}** ({d.document_kind or 'document'}, "
                   f"{pages[d.snapshot_id]} pages): {linked}")
    out += ["", "### Timeline", ""]
    if not evs:
        out.append("No dated process events were found.")
    by_event: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for e in in_date_order(evs, names):
        by_event.setdefault((e["event_type"], e["date"]), []).append(e)
    for group in by_event.values():
        e = group[0]
        actors = sorted({a for g in group for a in (g["actors"] or [])})
        where = " ".join(cite(names[str(g["snapshot_id"])], g["page"], g["page_label"],
                              g["excerpt"]) for g in group)
        out.append(f"- {_date_line(e)}: {e['event_type'].replace('_', ' ')} — "
                   f"{e['description']}."
                   + (f" Actors: {', '.join(actors)}." if actors else "") + f" {where}")
    out += ["", "### People and bodies", ""]
    if not ms:
        out.append("No people, agencies, ministries or committees were found in a role.")
    by_entity: dict[str, list[dict[str, Any]]] = {}
    for m in ms:
        by_entity.setdefault(m["entity_id"], []).append(m)
    for group in by_entity.values():
        first = group[0]
        roles = "; ".join(
            f"{m['role']} (“{' '.join(m['role_text'].split())}”"
            + (f", as {m['name']}" if m["name"] != m["entity_name"] else "") + ") "
            + cite(names[str(m["snapshot_id"])], m["page"], m["page_label"], m["excerpt"])
            for m in group)
        out.append(f"- **{first['entity_name']}** ({first['kind']}): {roles}")
    out.append("")
    return out


def report(store: Store, case_dir: Path) -> str:
    with store.engine.connect() as conn:
        procs = docs.processes(conn)
        n_docs = len(docs.documents(conn))
    lines = ["# Documents dossier", "",
             f"{len(procs)} processes from {n_docs} documents. Every fact is footnoted to the "
             "document and page it is printed on (the printed page label, then the page of "
             "the file) and a verbatim excerpt; a link read from metadata beside a file is "
             "footnoted to that file.", ""]
    notes: list[str] = []
    for p in procs:
        lines += process_dossier(store, p, notes)
    if notes:
        lines += ["---", "", *notes]
    return "\n".join(lines) + "\n"


def _inline(text: str) -> str:
    out = html_lib.escape(text, quote=False)
    out = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", out)
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
    return re.sub(r"\[\^(\d+)\]", r'<sup><a href="#fn-\1" id="ref-\1">\1</a></sup>', out)


def markdown_to_html(markdown: str, title: str) -> str:
    """The dossier's Markdown (headings, lists, bold, code, footnotes; nothing else) as a
    self-contained HTML page: every footnote a numbered note its references link to."""
    body: list[str] = []
    notes: list[str] = []
    in_list = False
    for line in markdown.splitlines():
        note = re.match(r"^\[\^(\d+)\]: (.*)$", line)
        if note:
            notes.append(f'<li id="fn-{note[1]}">{_inline(note[2])} '
                         f'<a href="#ref-{note[1]}">↩</a></li>')
            continue
        if in_list and not line.startswith("- "):
            body.append("</ul>")
            in_list = False
        if line.startswith("- "):
            if not in_list:
                body.append("<ul>")
                in_list = True
            body.append(f"<li>{_inline(line[2:])}</li>")
        elif m := re.match(r"^(#{1,3}) (.*)$", line):
            level = len(m[1])
            body.append(f"<h{level}>{_inline(m[2])}</h{level}>")
        elif line.strip() and line.strip() != "---":
            body.append(f"<p>{_inline(line)}</p>")
    if in_list:
        body.append("</ul>")
    if notes:
        body += ["<hr>", '<ol class="notes">', *notes, "</ol>"]
    style = ("body{font-family:sans-serif;max-width:60em;margin:2em auto;line-height:1.4}"
             "sup a{text-decoration:none}.notes{font-size:90%}")
    return ("<!DOCTYPE html>\n<html lang=\"sv\"><head><meta charset=\"utf-8\">"
            f"<title>{html_lib.escape(title)}</title><style>{style}</style></head><body>\n"
            + "\n".join(body) + "\n</body></html>\n")


def html(store: Store, case_dir: Path) -> str:
    """The report as one self-contained HTML page."""
    return markdown_to_html(report(store, case_dir), "Documents dossier")


EXPORTS = {"timeline": timeline, "entities": entities, "report": report, "html": html}
