"""`sleuth privacy report CASE`: who is treated as living and why; what was redacted where."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from sleuth.cli.common import console, open_case
from sleuth.model import InputError

app = typer.Typer(help="Privacy: living-person decisions, redactions, PII, consent and ToS.",
                  no_args_is_help=True)


@app.command("report")
def report(
    case_dir: Annotated[Path, typer.Argument(metavar="CASE")],
    fmt: Annotated[str, typer.Option("--format", help="text or json")] = "text",
    record: Annotated[
        bool, typer.Option("--record/--no-record",
                           help="log new PII findings as Censor decisions (default on)")
    ] = True,
) -> None:
    """Who is treated as living and why; what was redacted in each output; PII found."""
    if fmt not in ("text", "json"):
        raise InputError(f"unknown format {fmt!r}; use text or json", field="--format")
    # Imported here, not at the top: start-up time (issue 19, `sleuth --help`).
    from sleuth.privacy import load_policy
    from sleuth.privacy.report import privacy_report

    policy = load_policy(case_dir)
    store = open_case(case_dir)
    try:
        rep = privacy_report(store, title=case_dir.name, policy=policy, record=record)
    finally:
        store.close()
    if fmt == "json":
        print(json.dumps(rep, ensure_ascii=False, indent=2))
        return
    living = rep["living"]
    console.print(
        f"[bold]{case_dir.name}[/bold]: {living['count']} of {living['persons']} persons "
        f"treated as living (rule: {rep['policy']['rule']}, as of {rep['today']})"
    )
    people = Table(title="living-person decisions")
    for col in ("id", "name", "living", "rule", "reason"):
        people.add_column(col, overflow="fold")
    for p in rep["persons"]:
        people.add_row(p["id"], p["name"], "yes" if p["living"] else "no", p["rule"], p["reason"])
    console.print(people)
    fields = Table(title="redactions by field")
    for col in ("field", "action", "count"):
        fields.add_column(col)
    for r in rep["redactions"]["by_field"]:
        fields.add_row(r["field"], r["action"], str(r["count"]))
    console.print(fields)
    outs = Table(title="outputs (leaks must be 0)")
    for col in ("output", "chars", "redacted markers", "masked chars", "Living names", "leaks"):
        outs.add_column(col)
    for name, o in rep["redactions"]["by_output"].items():
        outs.add_row(name, str(o["chars"]), str(o["redacted"]), str(o["masked_chars"]),
                     str(o["living_name"]), str(o["leaks"]))
    console.print(outs)
    pii = Table(title=f"PII in stored snapshots ({rep['pii']['findings']} findings, "
                f"{rep['pii']['logged']} newly logged)")
    pii.add_column("snapshot")
    pii.add_column("found")
    for where, kinds in rep["pii"]["snapshots"].items():
        pii.add_row(where, ", ".join(f"{n} {k}" for k, n in kinds.items()))
    console.print(pii)
    comp = rep["compliance"]
    console.print(
        "tier permissions: "
        + (", ".join(f"tier {p['tier']} {'allowed' if p['allowed'] else 'denied'}"
                     for p in comp["tier_permissions"]) or "none recorded")
    )
    if not comp["decisions"]:
        console.print("consent / ToS decisions: none logged")
        return
    dec = Table(title="consent / ToS decisions (research log, agent Censor)")
    for col in ("seq", "action", "source", "allowed", "reason"):
        dec.add_column(col, overflow="fold")
    for d in comp["decisions"]:
        ctx = d["context"]
        allowed = ctx.get("allowed")
        dec.add_row(str(d["seq"]), str(ctx.get("action") or d["action_type"]),
                    str(ctx.get("source") or ctx.get("source_name") or ""),
                    "" if allowed is None else ("yes" if allowed else "no"), d["rationale"])
    console.print(dec)
