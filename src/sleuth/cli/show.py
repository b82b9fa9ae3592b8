"""`sleuth show CASE person ID`: one person with every assertion, status and citation."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from sleuth.cli.common import console, open_case
from sleuth.model import InputError, NotFound
from sleuth.privacy import censor
from sleuth.store import case_graph


def show(
    case_dir: Annotated[Path, typer.Argument(metavar="CASE")],
    kind: Annotated[str, typer.Argument(metavar="KIND", help="What to show: person.")],
    ident: Annotated[
        str | None, typer.Argument(metavar="ID", help="Person id (omit to list).")
    ] = None,
    fmt: Annotated[str, typer.Option("--format", help="text or json")] = "text",
) -> None:
    """Show one person (through the privacy Censor), or list persons when ID is omitted."""
    if kind != "person":
        raise InputError(f"unknown kind {kind!r}; use 'person'", field="KIND")
    store = open_case(case_dir)
    try:
        graph = censor(case_graph(store))
    finally:
        store.close()
    if ident is None:
        table = Table(title=f"persons ({len(graph.persons)})")
        for col in ("id", "name", "born", "died", "facts"):
            table.add_column(col)
        for p in graph.persons:
            table.add_row(
                p.id,
                p.canonical_name,
                p.birth.iso() if p.birth else "",
                p.death.iso() if p.death else "",
                str(len(graph.assertions.get(p.id, []))),
            )
        console.print(table)
        return
    matches = [p for p in graph.persons if p.id == ident or p.id.startswith(ident)]
    if len(matches) != 1:
        raise NotFound(f"person {ident!r} " + ("is ambiguous" if matches else "does not exist"))
    person = matches[0]
    claims = graph.assertions.get(person.id, [])
    if fmt == "json":
        print(
            json.dumps(
                {
                    "person": person.model_dump(mode="json"),
                    "assertions": [a.model_dump(mode="json") for a in claims],
                    "conflicts": [
                        c.model_dump(mode="json")
                        for c in graph.conflicts
                        if c.person_id == person.id
                    ],
                },
                ensure_ascii=False,
            )
        )
        return
    names = {p.id: p.canonical_name for p in graph.persons}
    console.print(f"[bold]{person.canonical_name}[/bold]  ({person.id})")
    for label, ids in (
        ("parents", person.parents),
        ("spouses", person.spouses),
        ("children", person.children),
    ):
        if ids:
            console.print(f"  {label}: " + ", ".join(names.get(i, i) for i in sorted(ids)))
    table = Table(show_lines=True)
    for col in ("field", "value", "status", "conf", "citation"):
        table.add_column(col, overflow="fold")
    for a in claims:
        cites = []
        for c in a.citations:
            snap = graph.snapshots.get(c.snapshot_id)
            src = snap.source_name if snap else c.snapshot_id
            page = f" p.{c.locator.page}" if c.locator.page else ""
            cites.append(
                f"“{' '.join(c.excerpt.split())}” — {src}, chars "
                f"{c.locator.start}–{c.locator.end}{page}"
            )
        table.add_row(a.field_name, a.value, str(a.status), f"{a.confidence:.2f}", "\n".join(cites))
    console.print(table)
    for c in graph.conflicts:
        if c.person_id == person.id:
            flag = " (TENTATIVE)" if c.is_tentative else ""
            console.print(
                f"conflict on {c.field}: recommended {c.recommended_value!r}{flag} — "
                f"{c.rationale} Next: {'; '.join(c.next_actions)}"
            )
