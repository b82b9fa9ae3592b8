"""`sleuth cite CASE` and `sleuth coverage CASE`: the Genealogical Proof Standard on screen.

Both read the case, then the Censor's copy of it (living persons: decades, withheld
excerpts, `--mask-names` for names), and print only from that copy. `coverage` also records
each new negative search in the case (`--no-record` to only look).
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from sleuth.cli.common import open_case
from sleuth.model import InputError, NotFound

if TYPE_CHECKING:  # the rest is imported where used: start-up time (issue 19)
    from sleuth.gps.coverage import PersonCoverage
    from sleuth.model import CaseGraph
    from sleuth.privacy import CensoredGraph

_STYLES = ("ee-full", "ee-short", "source-list")


def _persons(g: CaseGraph, person: str | None) -> list[str]:
    if person is None:
        return [p.id for p in g.persons]
    if g.person(person) is None:
        raise NotFound(f"person {person} is not in this case (merged persons: use the kept id)")
    return [person]


def cite_data(g: CensoredGraph, ids: list[str], overrides: Any,
              raw: CaseGraph | None = None) -> dict[str, Any]:
    """Every citation of the persons' claims in the three Evidence Explained forms, printed
    from the censored `g` (`raw`, the uncensored case, only classifies)."""
    from sleuth.gps.citations import format_note
    from sleuth.gps.evidence import SourceBook, all_items

    book = SourceBook(g, raw)
    persons: list[dict[str, Any]] = []
    sources: dict[str, dict[str, str]] = {}
    for pid in ids:
        p = book.persons.get(pid)
        name = p.canonical_name if p is not None else pid
        rows = []
        for e in all_items(g, pid, overrides, book):
            note = format_note(e.info, e.snapshot, e.citation, name)
            sid = e.citation.snapshot_id
            sources.setdefault(sid, {"snapshot_id": sid, "kind": str(e.info.kind),
                                     "entry": note.source_list})
            rows.append({
                "field": e.assertion.field_name, "value": e.assertion.value,
                "snapshot_id": sid, "excerpt": e.citation.excerpt,
                "ee_full": note.full, "ee_short": note.short,
                "source_class": str(e.classes.source),
                "information_class": str(e.classes.information),
                "evidence_class": str(e.classes.evidence) if e.classes.evidence else None,
                "question": str(e.question) if e.question else None,
                "overridden": e.classes.overridden, "weight": e.weight,
            })
        persons.append({"id": pid, "name": name, "living": bool(p and p.is_living),
                        "citations": rows})
    entries = sorted(sources.values(), key=lambda s: s["entry"].casefold())
    return {"persons": persons, "sources": entries}


def _render(data: dict[str, Any], fmt: str, style: str) -> str:
    """Text or Markdown. `source-list` is the bibliography alone: each source once (many
    stored copies of one source share one entry), no per-person headings; the note styles
    list each person's citations, and a heading only ever precedes lines."""
    key = {"ee-full": "ee_full", "ee-short": "ee_short"}.get(style)
    out: list[str] = []
    md = fmt == "markdown"
    for p in data["persons"] if key is not None else []:
        if not p["citations"]:
            continue
        living = " (living: details redacted)" if p["living"] else ""
        out += [f"## {p['name']}{living}" if md else f"{p['name']}{living} [{p['id']}]", ""]
        for i, c in enumerate(p["citations"], start=1):
            classes = (f"{c['source_class']} / {c['information_class']} / "
                       f"{c['evidence_class'] or '-'}")
            head = f"{c['field']}: {' '.join(c['value'].split())} ({classes})"
            out.append(f"{i}. {head}" if md else f"  {head}")
            out.append(f"   {c[key]}" if md else f"    {c[key]}")
        out.append("")
    entries = list(dict.fromkeys(s["entry"] for s in data["sources"]))
    if entries:
        if key is not None or md:
            out += ["## Sources" if md else "Sources", ""]
        indent = "" if key is None and not md else "  "
        out += [f"- {e}" if md else f"{indent}{e}" for e in entries]
    return "\n".join(out).rstrip() + "\n" if out else ""


@contextmanager
def _case_or_file(path: Path) -> Iterator[Path]:
    """A case folder as it is; a document or GEDCOM file read into a throw-away case (the
    same ingest, firewall and Censor as a real one: living persons are judged from it)."""
    if path.is_dir() or not path.exists():
        yield path
        return
    from sleuth.pipeline import ingest_path
    from sleuth.store import Store

    with tempfile.TemporaryDirectory(prefix="sleuth-cite-") as tmp:
        case = Path(tmp) / path.stem
        store = Store.create_case(case)
        try:
            ingest_path(store, path)
        finally:
            store.close()
        yield case


def cite(
    case_dir: Annotated[Path, typer.Argument(metavar="CASE|FILE")],
    person: Annotated[str | None, typer.Option("--person", help="one person's id")] = None,
    fmt: Annotated[str, typer.Option(
        "--format", help="text, markdown, json (one line per source) or json-full (per person "
        "and claim, with the evidence classes)")] = "text",
    style: Annotated[
        str, typer.Option("--style", help="ee-full (default), ee-short or source-list")
    ] = "ee-full",
    mask_names: Annotated[
        bool, typer.Option("--mask-names", help="show living people as [Living]")
    ] = False,
) -> None:
    """Evidence Explained citations of every claim (full note, short note, source list), for
    a case or a single file (read into a temporary case, nothing kept)."""
    if fmt not in ("text", "markdown", "json", "json-full"):
        raise InputError(f"unknown format {fmt!r}; use text, markdown, json or json-full",
                         field="--format")
    if style not in _STYLES:
        raise InputError(f"unknown style {style!r}; use {', '.join(_STYLES)}", field="--style")
    from sleuth.gps.overrides import load_overrides
    from sleuth.privacy import censor
    from sleuth.store import case_graph

    with _case_or_file(case_dir) as case:
        store = open_case(case)
        try:
            graph = case_graph(store, title=case.name)
            overrides = load_overrides(store)
        finally:
            store.close()
    g = censor(graph, mask_names=mask_names)
    data = cite_data(g, _persons(g, person), overrides, graph)
    if fmt == "json":  # CLI.md: one object per source, {"source", "style", "citation"}
        for row in _per_source(data, style):
            print(json.dumps(row, ensure_ascii=False))
    elif fmt == "json-full":
        print(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        print(_render(data, fmt, style), end="")


def _per_source(data: dict[str, Any], style: str) -> list[dict[str, Any]]:
    """Each source once, in the order first cited, with its citation in the chosen style."""
    notes: dict[str, str] = {}
    key = "ee_full" if style == "ee-full" else "ee_short"
    for p in data["persons"]:
        for c in p["citations"]:
            notes.setdefault(c["snapshot_id"], c[key])
    out = []
    seen: set[str] = set()
    for s in data["sources"]:
        sid = s["snapshot_id"]
        text = s["entry"] if style == "source-list" else notes.get(sid, s["entry"])
        if style == "source-list" and text in seen:
            continue  # one bibliography entry per source, however many copies were stored
        seen.add(text)
        out.append({"source": sid, "kind": s.get("kind"), "style": style, "citation": text})
    return out


def _text(table: list[PersonCoverage]) -> None:
    """Plain lines (no markup: names and sources may contain brackets)."""
    for pc in table:
        living = " (living)" if pc.living else ""
        print(f"{pc.name}{living} [{pc.person_id}]")
        for qc in pc.questions:
            verdict = "reasonably exhaustive" if qc.exhaustive else "not yet exhaustive"
            print(f"  {qc.question.value}: {verdict}")
            print(f"    sources with evidence: {'; '.join(qc.with_evidence) or 'none'}")
            neg = "; ".join(f"{s.source} ({s.hits or 0} hits, 0 matching)" for s in qc.negative)
            print(f"    searched: {len(qc.searched)}; no result (negative evidence): "
                  f"{neg or 'none'}")
            if qc.missing:
                print(f"    missing: {'; '.join(qc.missing)}")
            if qc.next_sets:
                print(f"    search next: {', '.join(qc.next_sets)}")
            if qc.sets_searched or qc.sets_not_searched or qc.sets_unreachable:
                print(f"    record sets searched: {'; '.join(qc.sets_searched) or 'none'}")
                if qc.sets_not_searched:
                    print(f"    record sets not yet searched: "
                          f"{'; '.join(qc.sets_not_searched)}")
                if qc.sets_unreachable:
                    print(f"    record sets to search by hand (no built-in source): "
                          f"{'; '.join(qc.sets_unreachable)}")


def coverage_cmd(
    case_dir: Annotated[Path, typer.Argument(metavar="CASE")],
    person: Annotated[str | None, typer.Option("--person", help="one person's id")] = None,
    fmt: Annotated[str, typer.Option("--format", help="text or json")] = "text",
    record: Annotated[
        bool, typer.Option("--record/--no-record",
                           help="store new negative evidence in the case (default on)")
    ] = True,
    mask_names: Annotated[
        bool, typer.Option("--mask-names", help="show living people as [Living]")
    ] = False,
) -> None:
    """Per person and question: sources searched, found, not found; reasonably exhaustive?"""
    if fmt not in ("text", "json"):
        raise InputError(f"unknown format {fmt!r}; use text or json", field="--format")
    from sleuth.gps.coverage import as_json, coverage, record_negative, searches
    from sleuth.gps.overrides import load_overrides
    from sleuth.privacy import censor
    from sleuth.store import case_graph

    store = open_case(case_dir)
    try:
        graph = case_graph(store, title=case_dir.name)
        ids = _persons(graph, person)
        log = searches(store, graph)
        overrides = load_overrides(store)
        recorded = 0
        if record:
            raw = coverage(store, graph, person_ids=ids, overrides=overrides, log=log)
            recorded = record_negative(store, raw)
    finally:
        store.close()
    g = censor(graph, mask_names=mask_names)
    table = coverage(None, g, person_ids=ids, overrides=overrides, log=log, raw=graph)
    if fmt == "json":
        print(json.dumps({"persons": as_json(table), "negative_recorded": recorded},
                         ensure_ascii=False, indent=2))
        return
    _text(table)
    print(f"{recorded} new negative-evidence statement(s) recorded.")


def timeline_cmd(
    case_dir: Annotated[Path, typer.Argument(metavar="CASE")],
    person: Annotated[str, typer.Option("--person", help="the person's id")],
    to: Annotated[
        str | None, typer.Option("--to", help="also show the relationship path to this id")
    ] = None,
    fmt: Annotated[str, typer.Option("--format", help="text or json")] = "text",
    mask_names: Annotated[
        bool, typer.Option("--mask-names", help="show living people as [Living]")
    ] = False,
) -> None:
    """A person's timeline with impossible or suspicious gaps flagged, their FAN club (leads,
    not facts) and, with --to, the relationship path to another person."""
    from dataclasses import asdict

    from sleuth.gps.fan import fan_hypotheses
    from sleuth.gps.paths import describe_path, relationship_path
    from sleuth.gps.timeline import render, timeline
    from sleuth.privacy import censor
    from sleuth.store import case_graph

    if fmt not in ("text", "json"):
        raise InputError(f"unknown format {fmt!r}; use text or json", field="--format")
    store = open_case(case_dir)
    try:
        graph = case_graph(store, title=case_dir.name)
    finally:
        store.close()
    _persons(graph, person)
    if to is not None:
        _persons(graph, to)
    g = censor(graph, mask_names=mask_names)
    t = timeline(g, person)
    fan = fan_hypotheses(g, person)
    path = describe_path(g, relationship_path(g, person, to)) if to is not None else None
    if fmt == "json":
        print(json.dumps({
            "person_id": person, "name": t.name,
            "events": [{"when": e.when, "label": e.label, "value": e.value,
                        "citations": len(e.citations)} for e in t.events],
            "flags": [asdict(f) for f in t.flags],
            "fan_hypotheses": [h.model_dump(mode="json", exclude={"evidence"}) for h in fan],
            "path": path,
        }, ensure_ascii=False, indent=2))
        return
    print(render(t))
    print("\nFAN club (hypotheses, not facts):" if fan else "\nFAN club: nobody named with "
          "this person outside the family")
    for h in fan:
        print(f"  - {h.statement}")
    if path is not None:
        print(f"\nRelationship path: {path}")
