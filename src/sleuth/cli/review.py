"""`sleuth review CASE`: the human review queue. Lists it; `--accept/--reject/--edit ITEM`
decides one item (a reason is required and everything is audited)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from sleuth.cli.common import console, open_case
from sleuth.model import InputError

if TYPE_CHECKING:
    from sleuth.store import Store


def review(
    case_dir: Annotated[Path, typer.Argument(metavar="CASE")],
    accept: Annotated[int | None, typer.Option(help="Promote item N to a fact.")] = None,
    reject: Annotated[int | None, typer.Option(help="Reject item N.")] = None,
    edit: Annotated[int | None, typer.Option(help="Correct item N's value (see --value).")] = None,
    value: Annotated[str | None, typer.Option(help="Corrected value for --edit.")] = None,
    reason: Annotated[str, typer.Option("--reason", "-r", help="Why (required to decide).")] = "",
    by: Annotated[str, typer.Option(help="Who decides (recorded in the audit log).")] = "Human",
    all_items: Annotated[bool, typer.Option("--all", help="List resolved items too.")] = False,
    fmt: Annotated[str, typer.Option("--format", help="text or json")] = "text",
) -> None:
    """List / accept / reject / edit items in the human review queue."""
    chosen = [x for x in (accept, reject, edit) if x is not None]
    if len(chosen) > 1:
        raise InputError("choose one of --accept, --reject, --edit", field="--accept")
    # Imported here, not at the top: start-up time (issue 19, `sleuth --help`).
    from sleuth.agents import review as ops

    store = open_case(case_dir)
    try:
        if accept is not None:
            aid = ops.accept(store, accept, reason=reason, by=by)
            console.print(f"accepted item {accept}: assertion {aid}")
        elif reject is not None:
            ops.reject(store, reject, reason=reason, by=by)
            console.print(f"rejected item {reject}")
        elif edit is not None:
            if not value:
                raise InputError("--edit needs --value", field="--value")
            aid = ops.edit(store, edit, value=value, reason=reason, by=by)
            console.print(f"edited item {edit}: assertion {aid}")
        else:
            _list(store, all_items, fmt)
    finally:
        store.close()


def _list(store: Store, all_items: bool, fmt: str) -> None:
    from sleuth.agents.review import censored_items

    items = censored_items(store, None if all_items else "open")
    if fmt == "json":
        for it in items:
            print(json.dumps(it, ensure_ascii=False, default=str))
        return
    table = Table(title=f"review queue ({len(items)})")
    for col in (
        "id",
        "priority",
        "status",
        "person",
        "field",
        "value",
        "conf",
        "reason",
        "excerpt",
    ):
        table.add_column(col, overflow="fold")
    for it in items:
        table.add_row(
            str(it["id"]),
            it["priority"],
            it["status"],
            it["subject_name"],
            it["field"],
            it["value"],
            f"{it['confidence']:.2f}",
            it["reason"],
            " ".join((it["excerpt"] or "").split())[:160],
        )
    console.print(table)
