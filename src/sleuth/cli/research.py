"""`sleuth research` and `sleuth resume`: run the research loop on a case folder."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from sleuth.cli.common import console
from sleuth.model import InputError

if TYPE_CHECKING:
    from sleuth.loop import Budget, RunResult

_YEAR = re.compile(r"\b(\d{3,4})\b")


def _year(text: str | None, opt: str) -> int | None:
    if not text:
        return None
    m = _YEAR.search(text)
    if m is None:
        raise InputError(f"no year in {text!r}", field=opt)
    return int(m.group(1))


def _budget(max_requests: int | None, max_minutes: float | None,
            generations: int) -> Budget:
    from sleuth.loop import Budget

    return Budget(max_requests=max_requests, max_minutes=max_minutes,
                  target_generations=generations)


def _summary(res: RunResult) -> None:
    why = ", ".join(res.stop_reasons) or "not finished"
    console.print(f"[bold]stopped[/bold] ({why}): {res.iterations} tasks, {res.requests} "
                  f"requests, {res.persons} persons, {res.facts} cited facts, "
                  f"{res.elapsed:.1f} s → {res.case_dir} (log: {res.log_path.name})")
    if "recursion_limit" in res.stop_reasons:  # seed 002: the step limit escalates to a person
        console.print("[bold]the run reached its step limit[/bold]: look at the case first "
                      f"(sleuth show {res.case_dir}, sleuth review {res.case_dir}), then resume")
    if not res.terminated:
        console.print(f"continue with: sleuth resume {res.case_dir}")


def research(
    name: Annotated[str | None, typer.Option("--name", help="The seed person's name.")] = None,
    born: Annotated[str | None, typer.Option("--born", help="Birth date or year.")] = None,
    died: Annotated[str | None, typer.Option("--died", help="Death date or year.")] = None,
    place: Annotated[str | None, typer.Option("--place", help="A place of their life.")] = None,
    gedcom: Annotated[Path | None, typer.Option("--gedcom", help="A GEDCOM tree to start "
                                                "from (ingested as evidence).")] = None,
    person: Annotated[str | None, typer.Option("--person", help="The seed's XREF in "
                                               "--gedcom, e.g. @I1@.")] = None,
    out: Annotated[Path, typer.Option("--out", help="Case folder (created if new).")] = Path(
        "sleuth-case"),
    source: Annotated[list[str] | None, typer.Option(
        "--source", help="Use only this source id (repeatable; default: all configured).")
    ] = None,
    max_requests: Annotated[int | None, typer.Option("--max-requests", min=0)] = 500,
    max_minutes: Annotated[float | None, typer.Option("--max-minutes", min=0.01)] = 30.0,
    generations: Annotated[int, typer.Option("--generations", min=0,
                                             help="Target generations of ancestors.")] = 4,
) -> None:
    """Research a seed person against the configured sources into a case folder."""
    if gedcom is not None and not person:
        raise InputError("--gedcom needs --person XREF", field="--person")
    if not name and gedcom is None:
        raise InputError("give --name (or --gedcom FILE --person XREF)", field="--name")
    seed_name = name or (person or "")
    seed = {"name": seed_name, "born": born, "died": died, "place": place,
            "birth_year": _year(born, "--born"), "death_year": _year(died, "--died"),
            "gedcom": str(gedcom) if gedcom else None, "xref": person}
    from sleuth.loop import research as run_research
    from sleuth.loop.progress import RichProgress

    with RichProgress() as progress:
        res = run_research(out, seed, sources=source or None,
                           budget=_budget(max_requests, max_minutes, generations),
                           progress=progress)
    _summary(res)


def resume(
    case_dir: Annotated[Path, typer.Argument(metavar="CASE")],
    max_requests: Annotated[int | None, typer.Option(
        "--max-requests", min=0, help="A new request budget (default: the run's own); a "
        "run that stopped carries on under it, from the searches its stop set aside.")] = None,
    max_minutes: Annotated[float | None, typer.Option("--max-minutes", min=0.01)] = None,
    max_iterations: Annotated[int | None, typer.Option(
        "--max-iterations", min=1, help="An investigation's new iteration budget.")] = None,
    max_cost: Annotated[float | None, typer.Option(
        "--max-cost", min=0, help="An investigation's new model-cost budget (USD).")] = None,
) -> None:
    """Continue an interrupted research run (or investigation) from its last checkpoint."""
    from sleuth.domains.investigations.state import is_investigation

    if is_investigation(case_dir):  # an investigation case (seed 003)
        from sleuth.cli.investigate_cmd import resume_investigation

        resume_investigation(case_dir, max_iterations, max_requests, max_cost)
        return
    from sleuth.domains.investigations.opening import unstarted

    if unstarted(case_dir):  # killed before it wrote its question: nothing to continue
        raise InputError("this investigation was stopped before it recorded its question "
                         "(nothing ran); start it again in this folder: sleuth investigate "
                         f"\"QUESTION\" --out {case_dir} --corpus DIR", file=str(case_dir))
    from sleuth.store.store import CASE_CONFIG  # here: start-up time (issue 19)

    if not (case_dir / CASE_CONFIG).is_file():  # no case of either kind: say so
        raise InputError("not a sleuth case: no investigation (_state.json) and no research "
                         "run (case.json) here; start one with `sleuth investigate QUESTION "
                         "--out DIR --corpus CORPUS` or `sleuth research`",
                         file=str(case_dir))
    budget = None
    if max_requests is not None or max_minutes is not None:
        from sleuth.loop.state import RunConfig

        old = RunConfig.load(case_dir).budget
        budget = old.model_copy(update={
            k: v for k, v in (("max_requests", max_requests), ("max_minutes", max_minutes))
            if v is not None})
    from sleuth.cli.demo import is_demo_case, resume_demo

    if is_demo_case(case_dir):  # its world ran inside the demo's process: start it again
        resume_demo(case_dir, budget)
        return
    from sleuth.loop import resume as run_resume
    from sleuth.loop.progress import RichProgress

    with RichProgress() as progress:
        res = run_resume(case_dir, progress=progress, budget=budget)
    _summary(res)
