"""`sleuth privacy report CASE`: who is treated as living and why; what was redacted where."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

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
    everyone: Annotated[
        bool, typer.Option("--all", help="list every person, not only those treated as living")
    ] = False,
) -> None:
    """Who is treated as living and why; what was redacted in each output; PII found."""
    if fmt not in ("text", "json"):
        raise InputError(f"unknown format {fmt!r}; use text or json", field="--format")
    # Imported here, not at the top: start-up time (issue 19, `sleuth --help`).
    from sleuth.export.privacy_report import privacy_report
    from sleuth.privacy import load_policy

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
    rules = Table(title="living-person decisions by rule")
    for col in ("rule", "living", "not living"):
        rules.add_column(col)
    for rule, (yes, no) in sorted(_by_rule(rep["persons"]).items()):
        rules.add_row(rule, str(yes), str(no))
    console.print(rules)
    shown = rep["persons"] if everyone else [p for p in rep["persons"] if p["living"]]
    what = "every person" if everyone else "persons treated as living (--all: every person)"
    console.print(f"{what}: {len(shown)}")
    # Plain columns, not a Rich table: one line a person stays readable and greppable for
    # thousands of persons (a table of royal92's 3,006 took 4 s to lay out, issue 19).
    sys.stdout.write("".join(_person_lines(shown, everyone)))
    fields = Table(title="redactions by field")
    for col in ("field", "action", "count"):
        fields.add_column(col)
    for r in rep["redactions"]["by_field"]:
        fields.add_row(r["field"], r["action"], str(r["count"]))
    console.print(fields)
    outs = Table(title="outputs (leaks must be 0)")
    for col in ("output", "chars", "redacted markers", "masked chars", "Living names", "leaks",
                "shared days"):
        outs.add_column(col)
    for name, o in rep["redactions"]["by_output"].items():
        outs.add_row(name, str(o["chars"]), str(o["redacted"]), str(o["masked_chars"]),
                     str(o["living_name"]), str(o["leaks"]), str(o.get("shared_days", 0)))
    console.print(outs)
    done = rep["redactions"]["checked"]
    console.print(f"outputs rendered from {done['rendered_whole']} of {done['persons']} persons "
                  f"(every living person and one of each kind of claim and source, "
                  f"{done['claims_rendered']} of {done['claims']} claims) and "
                  f"{done['rendered_as_relatives']} relatives linked to them; every string "
                  "and date of the censored view checked (its leaks count in each output)")
    if any(o.get("shared_days") for o in rep["redactions"]["by_output"].values()):
        console.print("shared days: a living person's birth day printed as "
                      "a deceased person's date; not a leak, since no living person's claim "
                      "in the censored view has an exact date (checked claim by claim)")
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


def _by_rule(persons: list[dict[str, Any]]) -> dict[str, tuple[int, int]]:
    """rule -> (persons it judged living, persons it judged not living)."""
    out: dict[str, tuple[int, int]] = {}
    for p in persons:
        yes, no = out.get(p["rule"], (0, 0))
        out[p["rule"]] = (yes + 1, no) if p["living"] else (yes, no + 1)
    return out


def _person_lines(persons: list[dict[str, Any]], with_verdict: bool) -> Iterator[str]:
    """`id  name  [living]  rule  reason`, names padded to the longest (at most 32)."""
    if not persons:
        return
    width = min(32, max(len(p["name"]) for p in persons))
    for p in persons:
        verdict = ("living      " if p["living"] else "not living  ") if with_verdict else ""
        yield (f"  {p['id']}  {p['name']:<{width}}  {verdict}{p['rule']:<12} "
               f"{p['reason']}\n")
