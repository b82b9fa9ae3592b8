"""`sleuth dedupe CASE|FILE.ged`, `sleuth merge CASE A B`, `sleuth split CASE CLUSTER`.

Dedupe only proposes (JSON lines with `--format json`); merges happen by `sleuth merge`,
are reversible with `sleuth split`, and are audited. Cases are read through the Censor, so
living people are compared on what the Censor lets through and their values are never
quoted in an explanation.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from sleuth.cli.common import console, open_case
from sleuth.model import InputError


def dedupe(
    target: Annotated[Path, typer.Argument(metavar="CASE|FILE.ged")],
    fmt: Annotated[str, typer.Option("--format", help="text or json (one proposal a line)")] = (
        "text"
    ),
    merge_at: Annotated[float, typer.Option("--merge-at", help="merge threshold")] = 0.95,
    review_at: Annotated[float, typer.Option("--review-at", help="review threshold")] = 0.5,
    queue: Annotated[bool, typer.Option(
        "--queue", help="put uncertain pairs (review) on the case's review queue")] = False,
) -> None:
    """Propose merges of duplicate persons, each with its rationale and why-not."""
    if fmt not in ("text", "json"):
        raise InputError(f"unknown format {fmt!r}; use text or json", field="--format")
    if not 0 <= review_at <= merge_at <= 1:
        raise InputError("thresholds must satisfy 0 ≤ review ≤ merge ≤ 1", field="--merge-at")
    # Imported here, not at the top: start-up time (issue 19, `sleuth --help`).
    from sleuth.privacy import censor
    from sleuth.resolve import Thresholds, records_from_gedcom, records_from_graph, resolve
    from sleuth.resolve.review import enqueue_proposals
    from sleuth.store import case_graph

    th = Thresholds(merge=merge_at, review=review_at)
    if target.is_dir():
        store = open_case(target)
        try:
            records = records_from_graph(censor(case_graph(store, title=target.name)))
            res = resolve(records, thresholds=th)
            proposals = res.proposals()
            if queue:
                queued = enqueue_proposals(store, proposals)
                console.print(f"{len(queued)} uncertain pairs put on the review queue")
        finally:
            store.close()
    elif target.exists():
        if queue:
            raise InputError("--queue needs a case folder, not a file", field="--queue")
        res = resolve(records_from_gedcom(target), thresholds=th)
        proposals = res.proposals()
    else:
        raise InputError("no such file or case folder", file=str(target))
    if fmt == "json":
        for p in proposals:
            print(json.dumps(p.to_cli(), ensure_ascii=False))
        return
    table = Table(title=f"{target.name}: {len(proposals)} proposals "
                  f"({res.report.pairs} pairs compared of {res.report.total_pairs})")
    for col in ("a", "b", "probability", "action", "why not"):
        table.add_column(col)
    for p in proposals:
        table.add_row(p.a, p.b, f"{p.probability:.3f}", p.recommended_action, p.why_not_merge)
    console.print(table)


def merge(
    case: Annotated[Path, typer.Argument()],
    a: Annotated[str, typer.Argument(help="canonical person id")],
    b: Annotated[str, typer.Argument(help="person id merged into A")],
    reason: Annotated[str, typer.Option("--reason", help="merge rationale")] = (
        "merged on request"
    ),
) -> None:
    """Merge person B into person A (reversible with `sleuth split`)."""
    from sleuth.resolve import merge as do_merge  # here: start-up time (issue 19)

    store = open_case(case)
    try:
        mc = do_merge(store, [a, b], reason, by="Human", judged=True)
    finally:
        store.close()
    print(mc.id)


def split(
    case: Annotated[Path, typer.Argument()],
    cluster: Annotated[str, typer.Argument(help="merge cluster id")],
    reason: Annotated[str, typer.Option("--reason")] = "split on request",
) -> None:
    """Dissolve a merge cluster, restoring the separate persons exactly."""
    from sleuth.resolve import split as do_split  # here: start-up time (issue 19)

    store = open_case(case)
    try:
        ids = do_split(store, cluster, reason=reason, by="Human")
    finally:
        store.close()
    print(" ".join(ids))
