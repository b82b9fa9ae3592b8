"""`sleuth review CASE`: the human review queue. Lists it; `--accept/--reject/--edit ITEM`
decides one item (a reason is required and everything is audited)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from sleuth.cli.common import console, cut, open_case
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
    from sleuth.pipeline import review as ops

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
    from sleuth.pipeline.review import censored_items

    items = censored_items(store, None if all_items else "open")
    if fmt == "json":
        for it in items:
            print(json.dumps(it, ensure_ascii=False, default=str))
        return
    # One line an item whatever the terminal's width: the short columns keep their width,
    # the person, value and reason are cut at a readable width and the quoted words take
    # what is left, each cut ending in "…" (every item in full: `--format json`).
    # with --all, a decided item's reason is the reviewer's and "by" says whose
    cols = ["id", "prio", *(["status", "by"] if all_items else []), "person", "field",
            "value", "conf", "reason", "excerpt"]
    rows = []
    for it in items:
        cells = {"id": str(it["id"]), "prio": "" if it["priority"] == "normal" else it["priority"],
                 "status": it["status"], "by": it.get("decided_by") or "",
                 "person": it["subject_name"] or "", "field": it["field"],
                 "value": it["value"] or "", "conf": f"{it['confidence']:.2f}",
                 "reason": _short_reason(it["reason"] or ""),
                 "excerpt": " ".join((it["excerpt"] or "").split())}
        rows.append([cells[c] for c in cols])
    widths = [max([len(c), *(len(r[i]) for r in rows)]) for i, c in enumerate(cols)]
    # the short columns as they are; the rest of the line shared out (each column takes 3
    # characters of border and padding, the table one more), the quoted words last
    share = {"person": (0.3, 24), "value": (0.2, 22), "reason": (0.2, 30)}
    flexible = [*share, "excerpt"]
    rest = console.width - 3 * len(cols) - 1 - sum(
        w for c, w in zip(cols, widths, strict=True) if c not in flexible)
    for c, (part, cap) in share.items():
        i = cols.index(c)
        widths[i] = max(6, min(widths[i], cap, int(rest * part)))
    widths[-1] = max(8, rest - sum(widths[cols.index(c)] for c in share))
    table = Table(title=f"review queue ({len(items)})", title_justify="left")
    for c, w in zip(cols, widths, strict=True):
        table.add_column(c, width=w, no_wrap=True, justify="right" if c in ("id", "conf")
                         else "left")
    for r in rows:
        table.add_row(*(cut(v, w) for v, w in zip(r, widths, strict=True)))
    console.print(table)
    if items and not all_items:
        console.print("decide one: sleuth review CASE --accept|--reject ID --reason \"why\" "
                      "(or --edit ID --value V); every item in full: --format json")


def _short_reason(reason: str) -> str:
    """The reason without its stock tail ("Medium confidence (0.60) requires human
    verification" reads "Medium confidence (0.60)"): the table has one line an item."""
    for tail in (" requires human verification", " requires human review"):  # stock tails
        if reason.endswith(tail):
            return reason[: -len(tail)]
    return reason
