"""`sleuth check CASE|FILE.ged`: data-quality findings (impossible dates, parent ages, ...).

Findings are leads, not failures: the command exits 0 whenever it ran. Living people's
dates appear as years only (GEDCOM files) or as the Censor's decades (cases).

Input problems (issue 26) come first: a GEDCOM file is read leniently and every problem the
strict reader finds is listed (rule set "input"); a case lists the problems its files were
stored with (`sleuth ingest --lenient`, or the warnings a strict ingest accepted).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from sleuth.cli.common import console, open_case
from sleuth.model import InputError
from sleuth.model.errors import InputProblem

_SEVERITIES = ("error", "warning", "possible", "note")


def check(
    target: Annotated[Path, typer.Argument(metavar="CASE|FILE.ged")],
    fmt: Annotated[str, typer.Option("--format", help="text or json (one finding a line)")] = (
        "text"
    ),
    rules: Annotated[
        str | None,
        typer.Option("--rules", help="comma-separated rule ids or sets: gramps, wikitree, "
                     "familysearch, input (default: all)"),
    ] = None,
    min_severity: Annotated[
        str, typer.Option("--min-severity", help="error, warning, possible (default) or note "
                          "(also the order a file lists its records in)")
    ] = "possible",
    mask_names: Annotated[
        bool, typer.Option("--mask-names", help="show living people as [Living]")
    ] = False,
) -> None:
    """Check a GEDCOM file or a case against Gramps', WikiTree's and FamilySearch's rules."""
    if fmt not in ("text", "json"):
        raise InputError(f"unknown format {fmt!r}; use text or json", field="--format")
    if min_severity not in _SEVERITIES:
        raise InputError(f"unknown severity {min_severity!r}; use {', '.join(_SEVERITIES)}",
                         field="--min-severity")
    # Imported here, not at the top: start-up time (issue 19, `sleuth --help`).
    from sleuth.quality import (
        INPUT_RULES,
        INPUT_SOURCE,
        RULES,
        check_gedcom,
        check_graph,
        input_findings,
    )
    from sleuth.sources.strict import PROBLEMS_KEY
    from sleuth.store import case_graph
    from sleuth.store.snapshots import snapshot_meta

    only = [r.strip() for r in rules.split(",") if r.strip()] if rules else None
    known = set(RULES) | {r.source for r in RULES.values()} | {*INPUT_RULES, INPUT_SOURCE}
    for r in only or []:
        if r not in known:
            raise InputError(f"unknown rule or rule set {r!r}", field="--rules")
    if target.is_dir():
        store = open_case(target)
        try:
            graph = case_graph(store, title=target.name)
            with store.engine.connect() as conn:
                stored = [(origin, InputProblem.from_json(d))
                          for _, origin, meta in snapshot_meta(conn)
                          for d in meta.get(PROBLEMS_KEY) or () if isinstance(d, dict)]
        finally:
            store.close()
        _, findings = check_graph(graph, mask_names=mask_names, only=only)
        findings = input_findings(stored, only) + findings
    elif target.exists():
        _, findings = check_gedcom(target, mask_names=mask_names, only=only)
    else:
        raise InputError("no such file or case folder", file=str(target))
    keep = _SEVERITIES[: _SEVERITIES.index(min_severity) + 1]
    findings = [f for f in findings if f.severity in keep]
    if fmt == "json":
        for f in findings:
            print(json.dumps(f.to_json(), ensure_ascii=False))
        return
    table = Table(title=f"{target.name}: {len(findings)} findings")
    for col in ("severity", "rule", "people", "message"):
        table.add_column(col)
    for f in findings:
        table.add_row(f.severity, f.rule, " ".join(f.people), f.message)
    console.print(table)
    counts = Counter(f.severity for f in findings)
    console.print(", ".join(f"{counts[s]} {s}" for s in _SEVERITIES))
