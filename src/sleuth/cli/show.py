"""`sleuth show CASE person ID`: one person with every assertion, status and citation."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape
from rich.table import Table

from sleuth.cli.common import console, cut, open_case
from sleuth.cli.process import show_process
from sleuth.model import InputError, NotFound

if TYPE_CHECKING:
    from sleuth.model import CaseGraph
    from sleuth.privacy import CensoredGraph


def show(
    case_dir: Annotated[Path, typer.Argument(metavar="CASE")],
    kind: Annotated[str, typer.Argument(metavar="KIND", help="What to show: person, or a "
                                        "documents case's process.")],
    ident: Annotated[
        str | None,
        typer.Argument(metavar="ID", help="Person id, its first or last characters, or the "
                       "person's name (omit to list)."),
    ] = None,
    fmt: Annotated[str, typer.Option("--format", help="text or json")] = "text",
) -> None:
    """Show one person (through the privacy Censor), or list persons when ID is omitted."""
    if kind == "process":  # a documents case's process (issue 22)
        show_process(case_dir, ident, fmt)
        return
    if kind != "person":
        raise InputError(f"unknown kind {kind!r}; use 'person' or 'process'", field="KIND")
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
    by_id = set() if ident is None else _by_id(raw, merged, ident)
    # an id: the Censor's view of just that person (start-up time on a large case); a
    # name is looked up among every person as the Censor shows them
    graph = censor(raw, only=by_id) if by_id else censor(raw)
    if ident is None:
        _list(graph)
        return
    found = sorted(by_id) if by_id else _by_name(graph, ident)
    if len(found) != 1:
        raise NotFound(_not_one(graph, ident, found))
    person = next(p for p in graph.persons if p.id == found[0])
    if by_id and not person.id.startswith(ident) and not person.id.endswith(ident):
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
    console.print(f"[bold]{escape(person.canonical_name)}[/bold]  ({person.id})")
    for label, ids in (
        ("parents", person.parents),
        ("spouses", person.spouses),
        ("children", person.children),
    ):
        if ids:
            console.print(escape(f"  {label}: " + ", ".join(names.get(i, i) for i in sorted(ids))))
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
                f"{_quote(c.excerpt)} — {src}, chars {c.locator.start}–{c.locator.end}{page}"
            )
        # a tree's link names the relative by xref (`1 CHIL @I3@`): show who that is
        value = f"{names[a.related_id]} ({a.value})" if a.related_id in names else a.value
        # every cell as plain text: rich read the Censor's "[redacted: ...]" as markup
        # and printed an empty quote
        table.add_row(*map(escape, (a.field_name, value, str(a.status), f"{a.confidence:.2f}",
                                    "\n".join(cites))))
    console.print(table)
    for conflict in graph.conflicts:
        if conflict.person_id == person.id:
            flag = " (TENTATIVE)" if conflict.is_tentative else ""
            console.print(escape(
                f"conflict on {conflict.field}: recommended {conflict.recommended_value!r}"
                f"{flag} — {conflict.rationale} Next: {'; '.join(conflict.next_actions)}"
            ))


def _quote(excerpt: str) -> str:
    """An excerpt in quotes, whitespace collapsed; one the Censor withheld says so
    instead of showing its marker in quotes."""
    from sleuth.privacy import MENTIONS_LIVING, REDACTED_EXCERPT  # loaded by `censor`

    if excerpt == REDACTED_EXCERPT:
        return "(withheld: living person)"
    if excerpt == MENTIONS_LIVING:
        return "(withheld: mentions a living person or personal data)"
    return f"“{' '.join(excerpt.split())}”"


def _by_id(raw: CaseGraph, merged: dict[str, str], ident: str) -> set[str]:
    """Persons whose id is, starts with or ends with `ident` (one ingest's ids ascend, so
    those drawn together share their first characters, `model.ids`). A person merged into
    another is the person they are now (review items and older exports name merged
    members)."""
    ids = {*(p.id for p in raw.persons), *merged}
    return {merged.get(x, x) for x in ids if x.startswith(ident) or x.endswith(ident)}


def _by_name(graph: CensoredGraph, ident: str) -> list[str]:
    """Persons called `ident` in the Censor's view (case and spacing ignored): a user reads
    names in the report, not ids. A whole-name match wins over names that contain it."""
    want = " ".join(ident.split()).casefold()
    named = [(p.id, " ".join(p.canonical_name.split()).casefold()) for p in graph.persons]
    exact = sorted(pid for pid, name in named if name == want)
    return exact or sorted(pid for pid, name in named if want in name)


def _not_one(graph: CensoredGraph, ident: str, found: list[str]) -> str:
    """The one-line error: nobody, or who the name could mean (with their years)."""
    if not found:
        return f"person {ident!r} does not exist (no id or name matches)"
    people = {p.id: p for p in graph.persons}

    def who(pid: str) -> str:
        p = people.get(pid)
        if p is None:
            return pid
        years = "–".join(d.iso()[:4] if d else "?" for d in (p.birth, p.death))
        return f"{pid} {p.canonical_name} ({years})"

    shown = ", ".join(who(x) for x in found[:5]) + (" …" if len(found) > 5 else "")
    return f"person {ident!r} is ambiguous: {len(found)} match ({shown}); give an id"


def _list(graph: CensoredGraph) -> None:
    """One line a person, plain text written at once (a rich table measures and wraps every
    cell: seconds for a 3,000-person tree). On a terminal long names are cut to fit its
    width; into a pipe or file every name is written whole."""
    rows = [(p.id, p.canonical_name, p.birth.iso() if p.birth else "",
             p.death.iso() if p.death else "", str(len(graph.assertions.get(p.id, []))))
            for p in graph.persons]
    head = ("id", "name", "born", "died", "facts")
    widths = [max([len(h), *(len(r[i]) for r in rows)]) for i, h in enumerate(head)]
    if console.is_terminal:
        rest = console.width - sum(widths) + widths[1] - 2 * (len(head) - 1)
        widths[1] = max(12, min(widths[1], rest))
    out = [f"persons ({len(rows)})"]
    for r in (head, *rows):
        cells = [cut(v, w).ljust(w) for v, w in zip(r[:-1], widths, strict=False)]
        out.append("  ".join([*cells, r[-1].rjust(widths[-1])]).rstrip())
    console.out("\n".join(out), highlight=False)
