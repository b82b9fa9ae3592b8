"""`sleuth work` and `sleuth tasks`: the agent tasks of a case's blackboard (`agent_tasks`,
seed 004), done by the agents of the case's domain (documents, curation)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

import typer

from sleuth.cli.common import console, cut, domain_of, open_case
from sleuth.model.errors import InputError


def _agents_of(case_dir: Path, command: str) -> Mapping[str, Any]:
    """The case's domain's agents, or one line saying its domain has none."""
    domain = domain_of(case_dir)
    if not domain.agents:
        raise InputError(f"a {domain.name} case has no agent tasks; `sleuth {command}` works a "
                         "documents or curation case (sleuth init CASE --domain documents)",
                         field="CASE")
    return domain.agents


def _after_work(case_dir: Path, store: Any, after: Any) -> str | None:
    """The domain's after-work step (curation: the search index) under the case's writer
    lock; skipped with a word when another writer holds it (a second worker sharing the
    case does it, or `sleuth search` refreshes the index itself)."""
    if after is None:
        return None
    from sleuth.model.errors import CaseBusy
    from sleuth.store.lock import case_lock

    try:
        with case_lock(case_dir, "work", store.engine):
            result: str | None = after(store)
            return result
    except CaseBusy:
        return "after work: skipped, another writer holds the case"


def work(
    case_dir: Annotated[Path, typer.Argument(metavar="CASE")],
    once: Annotated[bool, typer.Option("--once", help="One pass: run each task pending now "
                                       "once, then stop (as a cron job would).")] = False,
    lease: Annotated[float, typer.Option(
        "--lease", min=1.0, help="Seconds a claim holds a task without a renewal (the worker "
        "renews it while it works); a task whose worker died and cannot be seen to have "
        "died is taken again after this.")] = 120.0,
) -> None:
    """Run pending agent tasks until none is left, one line per task. Several workers may
    work one case at once (on one machine, or on many with a PostgreSQL case): each claims
    one task at a time and no task runs twice. Resumable: a task a killed worker had claimed
    is taken again, and what a task writes commits with it."""
    agents = _agents_of(case_dir, "work")
    after = domain_of(case_dir).after_work
    # Imported here, not at the top: start-up time (issue 19, `sleuth --help`).
    from sleuth.domains.documents.work import Step
    from sleuth.domains.documents.work import work as run_work

    def show(step: Step) -> None:
        t = step.task
        console.print(f"[{step.remaining} left] {t.task_type} {t.id[:12]}: "
                      f"{step.outcome.status} — {step.outcome.line}", markup=False,
                      highlight=False)

    store = open_case(case_dir)
    try:  # no case lock: workers share the case, claiming tasks (`store.agent_tasks`)
        report = run_work(store, once=once, on_step=show, lease_s=lease, agents=agents)
        closing = _after_work(case_dir, store, after)
    finally:
        store.close()
    released = (f", {report.released} released from a worker that is gone"
                if report.released else "")
    waits = (f", {report.requeued} put back to wait for the tasks they queued"
             if report.requeued else "")
    console.print(f"work: {report.ran} task runs ({report.completed} completed"
                  f"{waits}, {report.failed} failed){released}")
    if closing:
        console.print(closing, markup=False, highlight=False)
    if report.failed:
        raise typer.Exit(1)


def tasks(
    case_dir: Annotated[Path, typer.Argument(metavar="CASE")],
    fmt: Annotated[str, typer.Option("--format", help="text or json (one object per task, "
                                     "with its output_data)")] = "text",
) -> None:
    """Agent tasks with their status, timestamps and output data."""
    if fmt not in ("text", "json"):
        raise InputError(f"unknown format {fmt!r}; use text or json", field="--format")
    # Imported here, not at the top: start-up time (issue 19, `sleuth --help`).
    from sleuth.store.agent_tasks import list_tasks

    store = open_case(case_dir)
    try:
        with store.engine.connect() as conn:
            rows = list_tasks(conn)
    finally:
        store.close()
    if fmt == "json":
        print(json.dumps([r.as_dict() for r in rows], ensure_ascii=False, indent=1))
        return
    for r in rows:
        console.print(_line(r.as_dict()), markup=False, highlight=False)
    counts: dict[str, int] = {}
    for r in rows:
        counts[r.status] = counts.get(r.status, 0) + 1
    console.print(f"{len(rows)} tasks" + "".join(f", {n} {s}" for s, n in counts.items()))


def _line(r: dict[str, Any]) -> str:
    out = r.get("output_data") or {}
    what = out.get("analysis_summary") or r.get("error") or (
        f"{out.get('events_created')} events" if "events_created" in out else
        f"{out.get('relations_created')} mentions, {out.get('entities_created')} new entities"
        if "relations_created" in out else out.get("phase", ""))
    done = (r.get("completed_at") or r.get("started_at") or r.get("created_at") or "")[:19]
    return (f"{r['id'][:12]}  {r['status']:<9} {r['task_type']:<24} {done:<19}  "
            f"{cut(str(what), 90)}")
