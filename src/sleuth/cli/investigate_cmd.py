"""`sleuth investigate`: seed 003's investigation of a question over a local corpus, until
every statement of summary.md is verified and no gap remains, or a budget stops it
(`sleuth resume CASE` continues it)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from sleuth.cli.common import console

if TYPE_CHECKING:
    from sleuth.domains.investigations.state import CaseState


def _line(text: str) -> None:
    console.print(text, markup=False, highlight=False)


def report(state: CaseState, case_dir: Path, line: Callable[[str], None]) -> None:
    """The run's last lines: how it ended, and why (the final state names it); `line`
    prints them as the run printed its own (masked: `protect.ShownLines`)."""
    term = state.termination or {}
    reason = term.get("reason", "not finished")
    line(f"{state.status}: {reason} — {term.get('detail', '')} (iteration "
          f"{state.current_iteration}, {len(state.captured())} sources, {len(state.gaps)} "
          f"gaps) → {case_dir}/summary.md")
    for gap in state.gaps:
        line(f"  gap [{gap.kind}]: {gap.text} — {gap.path}")
    if reason == "stalled":
        where = f"the corpus folder {state.corpus}" if state.corpus else "the sources"
        line(f"stalled: more iterations would repeat the last one; add to {where} a source "
              f"that closes a gap (each gap says what closes it), then: sleuth resume "
              f"{case_dir}")
    elif state.status != "COMPLETE":
        line(f"continue with: sleuth resume {case_dir} --max-iterations N")


def investigate(
    question: Annotated[str, typer.Argument(metavar="QUESTION", help="The question to "
                                            "investigate, in quotes.")],
    out: Annotated[Path, typer.Option("--out", help="The case folder (new; it becomes a git "
                                      "repository and a sleuth case).")],
    corpus: Annotated[Path | None, typer.Option("--corpus", help="A folder of local sources "
                                                "(text, HTML, PDF, hOCR, ALTO...).")] = None,
    max_iterations: Annotated[int, typer.Option("--max-iterations", min=1)] = 10,
    max_requests: Annotated[int, typer.Option("--max-requests", min=0, help="Captures "
                                              "and searches allowed (each file read, each "
                                              "online search and page fetched).")] = 200,
    sources: Annotated[str | None, typer.Option(
        "--sources", help="Comma-separated: wikipedia, wikidata, chronicling_america (online, "
        "through the polite fetcher) and corpus (the --corpus folder). Default: the corpus "
        "alone, offline.")] = None,
    max_cost: Annotated[float | None, typer.Option(
        "--max-cost", min=0, help="Model-cost budget (USD, as the LLM meter counts it) for "
        "the research engines; default: no cap beyond SLEUTH_LLM_MAX_COST.")] = None,
) -> None:
    """Investigate a question until verification passes with no gaps (or a budget stops
    it): every summary sentence footnoted to a captured source and verified."""
    # Imported here, not at the top: start-up time (issue 19, `sleuth --help`).
    from sleuth.domains.investigations.loop import shown, start
    from sleuth.domains.investigations.state import Budget

    lines = shown(_line)  # the terminal is an output: no living private person's name
    state = start(question, out, corpus, progress=lines, sources=sources,
                  budget=Budget(max_iterations=max_iterations, max_requests=max_requests,
                                max_model_cost=max_cost))
    report(state, out, lines)
    if state.status != "COMPLETE":
        raise typer.Exit(1)


def resume_investigation(case_dir: Path, max_iterations: int | None,
                         max_requests: int | None, max_cost: float | None = None) -> None:
    """`sleuth resume` on an investigation case (a folder with _state.json)."""
    from sleuth.domains.investigations.loop import resume, shown

    lines = shown(_line)
    state = resume(case_dir, max_iterations=max_iterations, max_requests=max_requests,
                   max_cost=max_cost, progress=lines)
    report(state, case_dir, lines)
    if state.status != "COMPLETE":
        raise typer.Exit(1)
