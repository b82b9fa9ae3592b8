"""`sleuth show CASE person ID`: one person with every assertion, status and citation."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from sleuth.cli.common import console, open_case
from sleuth.model import InputError, NotFound


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
    # Imported here, not at the top: start-up time (issue 19, `sleuth --help`).
    from sleuth.privacy import censor
    from sleuth.store import case_graph
    from sleuth.store.queries import merged_into

    store = open_case(case_dir)
    try:
        raw = case_graph(store)
        with store.engine.connect() as conn:
            merged = merged_into(conn)
    finally:
        store.close()
    if ident is None:
        graph = censor(raw)
    else:  # the Censor's view of just the person shown (start-up time on a large case)
        ids = {*(p.id for p in raw.persons), *merged}
        graph = censor(raw, only={merged.get(x, x) for x in ids
                                  if x == ident or x.startswith(ident)})
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
    # A person merged into another is shown as the person they are now (review items and
    # older exports name merged members).
    known = {*(p.id for p in graph.persons), *merged}
    found = sorted({merged.get(x, x) for x in known if x == ident or x.startswith(ident)})
    if len(found) != 1:
        raise NotFound(f"person {ident!r} " + ("is ambiguous" if found else "does not exist"))
    person = next(p for p in graph.persons if p.id == found[0])
    if person.id != ident and not person.id.startswith(ident):
        console.print(f"(person {ident} is merged into {person.id})")
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
        # a tree's link names the relative by xref (`1 CHIL @I3@`): show who that is
        value = f"{names[a.related_id]} ({a.value})" if a.related_id in names else a.value
        table.add_row(a.field_name, value, str(a.status), f"{a.confidence:.2f}", "\n".join(cites))
    console.print(table)
    for c in graph.conflicts:
        if c.person_id == person.id:
            flag = " (TENTATIVE)" if c.is_tentative else ""
            console.print(
                f"conflict on {c.field}: recommended {c.recommended_value!r}{flag} — "
                f"{c.rationale} Next: {'; '.join(c.next_actions)}"
            )
