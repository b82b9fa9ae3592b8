"""`sleuth extract`: extraction only, nothing stored — the same extractor ingestion uses."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.text import Text

from sleuth.cli.common import console, err
from sleuth.model import InputError

if TYPE_CHECKING:
    from sleuth.model import Candidate


def candidate_json(path: str, c: Candidate, verdict: str) -> dict[str, Any]:
    loc = c.citation.locator if c.citation else None
    row: dict[str, Any] = {
        "file": path,
        "subject": c.subject,
        "subject_name": c.subject_name,
        "field": c.field,
        "value": c.value,
        "excerpt": c.citation.excerpt if c.citation else None,
        "start": loc.start if loc else None,
        "end": loc.end if loc else None,
        "page": loc.page if loc else None,
        "confidence": c.confidence,
        "is_fact": c.is_fact,
        "firewall": verdict,
    }
    if c.date is not None and not c.date.is_point:
        row["earliest"] = c.date.earliest.isoformat() if c.date.earliest else None
        row["latest"] = c.date.latest.isoformat() if c.date.latest else None
    if c.related_name:
        row["related_name"] = c.related_name
    return row


def extract(
    files: Annotated[list[Path], typer.Argument(metavar="FILE...")],
    fmt: Annotated[str, typer.Option("--format", help="text or json (JSON lines).")] = "text",
    max_mb: Annotated[
        float | None, typer.Option("--max-mb", help="Read documents of up to this many MB "
                                   "(as `sleuth ingest --max-mb`).")
    ] = None,
    time_limit: Annotated[
        float | None, typer.Option("--time-limit", help="CPU seconds each file may take.")
    ] = None,
) -> None:
    """Print the candidates found in each file with their verbatim excerpts."""
    if fmt not in {"text", "json"}:
        raise InputError(f"unknown format {fmt!r}; use text or json", field="--format")
    # Imported here, not at the top: start-up time (issue 19, `sleuth --help`).
    from sleuth.cli.case import warn_line
    from sleuth.model.limits import document_budget, read_limits
    from sleuth.pipeline.ingest import extract_for
    from sleuth.sources import load_file
    from sleuth.verify import Source, check_candidates

    failed = 0
    for path in files:
        try:
            with read_limits(max_mb=max_mb, seconds=time_limit, on_warning=warn_line), \
                    document_budget(str(path)):
                loaded = load_file(path)
                snap = loaded.snapshot
                cands = extract_for(snap, loaded.raw)
        except InputError as exc:
            err.print(f"sleuth: error: {exc}", markup=False, highlight=False)
            failed += 1
            continue
        report = check_candidates(cands, {snap.id: Source.of_snapshot(snap)})
        verdicts = {c.id: "pass" for c in report.passed}
        for c, vs in report.rejected:
            verdicts[c.id] = "reject: " + "; ".join(str(v) for v in vs)
        for c in cands:
            if fmt == "json":
                print(json.dumps(candidate_json(str(path), c, verdicts[c.id]), ensure_ascii=False))
            else:
                _print_text(str(path), c, verdicts[c.id])
    if failed:
        raise typer.Exit(2)


def _print_text(path: str, c: Candidate, verdict: str) -> None:
    kind = "fact" if c.is_fact else "HYPOTHESIS"
    head = Text(f"{path} {c.subject} ", style="dim")
    head.append(f"{c.subject_name or ''} ", style="bold")
    head.append(f"{c.field} = {c.value} ", style="cyan")
    head.append(f"({kind}, {c.confidence:.2f}, firewall {verdict})", style="dim")
    console.print(head)
    if c.citation:
        excerpt = " ".join(c.citation.excerpt.split())
        t = Text("    “" + excerpt + "”")
        low = excerpt.lower()
        for needle in (c.value, c.date.original if c.date else "", c.related_name or ""):
            if needle and (i := low.find(needle.lower())) >= 0:
                t.stylize("bold yellow", 5 + i, 5 + i + len(needle))
        console.print(t)
