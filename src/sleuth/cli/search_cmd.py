"""`sleuth search CASE "query"`: ranked chunks of the case's stored files and its promoted
entities, each with its citation (document, lines, the verbatim excerpt).

Before searching, the index is brought up to date with the case (the batch functions of
`sleuth.domains.curation.search`: new snapshots chunked, entities indexed, missing vectors
computed); that is a write, so it takes the case's writer lock. While another command
holds the lock (`sleuth work` curating), the search runs on the index as it stands and
says so on stderr.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from sleuth.cli.common import console, err, open_case
from sleuth.model import InputError

EXCERPT_LINES = 6  # of each hit, in the text format (json gives the whole excerpt)


def search(
    case_dir: Annotated[Path, typer.Argument(metavar="CASE")],
    query: Annotated[str, typer.Argument(metavar="QUERY", help="What to look for, in words.")],
    limit: Annotated[int, typer.Option("--limit", "-n", help="How many results.")] = 10,
    fmt: Annotated[str, typer.Option("--format", help="text or json")] = "text",
    mode: Annotated[str, typer.Option(
        "--mode", help="auto (hybrid when the case has embeddings, else lexical), lexical, "
        "embedding or hybrid")] = "auto",
) -> None:
    """Search a curation case's sources and entities; every result cites its lines."""
    if fmt not in ("text", "json"):
        raise InputError(f"unknown format {fmt!r}; use text or json", field="--format")
    # Imported here, not at the top: start-up time (issue 19).
    from sleuth.domains.curation import search as s
    from sleuth.domains.curation.embeddings import load_embedder
    from sleuth.model.errors import CaseBusy
    from sleuth.store import Store
    from sleuth.store.lock import case_lock

    domain = Store.case_domain(case_dir)
    if domain != "curation" and (case_dir / "case.json").exists():
        raise InputError(f"search is built for curation cases; {case_dir} is a "
                         f"{domain or 'genealogy'} case", field="CASE")
    embedder = load_embedder()
    store = open_case(case_dir)
    try:
        stale = False
        try:
            with case_lock(case_dir, "search", store.engine):
                s.build_index(store, embedder=embedder, entities=s.case_entities)
        except CaseBusy as exc:
            stale = True
            err.print(f"sleuth: the index was not refreshed ({exc}); searching it as it is")
        hits = s.search(store, query, limit=limit, mode=mode, embedder=embedder)
        method = hits[0].method if hits else s.resolve_mode(store, mode, embedder)
    finally:
        store.close()
    if fmt == "json":
        print(json.dumps({"query": query, "method": method,
                          "model": embedder.name if embedder and method != "lexical" else None,
                          "index_refreshed": not stale,
                          "results": [h.as_json() for h in hits]}, ensure_ascii=False))
        return
    if not hits:
        console.print(f"no results for {query!r} ({method})", markup=False)
        return
    console.print(f"{len(hits)} results for {query!r} ({method})", markup=False)
    for h in hits:
        c = h.chunk
        what = f"{c.kind} {c.entity_key}" if c.entity_key else c.kind
        console.print(f"\n{h.rank}. {c.doc}:{c.start_line}-{c.end_line}  {what}  "
                      f"score {h.score:.4g}", markup=False, highlight=False)
        if c.context:
            console.print(f"   {c.context}", markup=False, highlight=False)
        if h.entities:
            console.print(f"   entities: {', '.join(h.entities)}", markup=False,
                          highlight=False)
        shown = c.text.split("\n")
        for line in shown[:EXCERPT_LINES]:
            console.print(f"   | {line}", markup=False, highlight=False)
        if len(shown) > EXCERPT_LINES:
            console.print(f"   | ({len(shown) - EXCERPT_LINES} more lines)", markup=False,
                          highlight=False)
