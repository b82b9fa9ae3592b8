"""`sleuth demo`: the main job on the embedded default, offline, in one command.

It builds a small simulated world (`sleuth.world`: a ground-truth population rendered into
WikiTree, Wikidata, FamilySearch, newspaper, parish-register and memorial documents), serves
it on 127.0.0.1 in this process, researches the world's seed person with the real loop and
the real source plugins (every request through the real fetcher, rate limits and robots.txt
included), then writes the case folder: report.md, tree.ged, graph.jsonld,
research-log.jsonl and review-summary.md. Nothing leaves the machine.
"""

from __future__ import annotations

import json
import re
import shutil
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from sleuth.cli.common import console, open_case
from sleuth.cli.export import write_output

if TYPE_CHECKING:
    from sleuth.store import Store

DEMO_CONTACT = "sleuth-demo@example.invalid"  # the simulated sources still get a contact
# What `sleuth resume` needs to start the demo's world again (issue 26): its seed and size,
# and the host name its URLs carry.
DEMO_FILE = "demo.json"
WORLD_HOST = ".sleuth.test"  # the demo world's host names (reached only in-process)
_WORLD_URL = re.compile(r"https?://world-\d+" + re.escape(WORLD_HOST) + r"\b")


def demo(
    out: Annotated[Path, typer.Option("--out", help="Case folder to write.")] = Path("sleuth-demo"),
    seed: Annotated[int, typer.Option("--seed", help="World seed (same seed, same world).")] = 7,
    persons: Annotated[int, typer.Option("--persons", min=20, help="World size.")] = 100,
    max_requests: Annotated[int, typer.Option("--max-requests", min=1)] = 250,
    max_minutes: Annotated[float, typer.Option(
        "--max-minutes", min=0.1, help="A wall-clock safety net (the request budget is what "
        "normally stops the demo; a run the clock stops is cut where the clock says, so "
        "two such runs can differ).")] = 10.0,
    generations: Annotated[int, typer.Option("--generations", min=1)] = 4,
) -> None:
    """Research a simulated world's seed person offline and write the case folder."""
    from sleuth.loop import Budget, research
    from sleuth.loop.progress import RichProgress
    from sleuth.sources.gates import record_consent
    from sleuth.store.store import CASE_CONFIG, Store  # here: start-up time (issue 19)
    from sleuth.world import World
    from sleuth.world.server import SERVED, serve, write_sources

    if out.exists():
        if not (out / CASE_CONFIG).exists():
            raise FileExistsError(f"{out}: exists and is not a sleuth case; choose another --out")
        shutil.rmtree(out)  # our own earlier demo output
    world = World(seed, persons)
    query = world.seed_query()
    console.print(f"world {seed} ({persons} persons): researching {query['name']}, born "
                  f"{query['birth_year']} in {query['place']}")
    # A stable host name: the same world gives the same URLs, so the same outputs.
    host = f"world-{seed}{WORLD_HOST}"
    settings = {"seed": seed, "persons": persons, "host": host}
    with serve(world, host=host) as srv:
        store = Store.create_case(out)
        try:
            # The case's own source specs point at the world server (kept for the record).
            write_sources(out / "sources", srv.base_url, 1000.0, 50)
            with store.transaction() as conn:  # the user's own (simulated) subscription
                record_consent(store, conn, "familysearch", "store",
                               "demo: a simulated FamilySearch account in a simulated world")
        finally:
            store.close()
        (out / DEMO_FILE).write_text(json.dumps(settings) + "\n", encoding="utf-8")
        budget = Budget(max_requests=max_requests, max_minutes=max_minutes,
                        target_generations=generations)
        with RichProgress() as progress:
            res = research(out, {"name": query["name"], "given": query["given"],
                                 "surname": query["surname"],
                                 "birth_year": int(query["birth_year"]),
                                 "place": query["place"]},
                           sources=list(SERVED), budget=budget, progress=progress,
                           fetcher_options=_fetcher_options(srv))
    _finish(out, query["name"], seed, res)


def _fetcher_options(srv: Any) -> dict[str, Any]:
    from sleuth.world.server import FS_TOKEN_ENV

    return {"contact": DEMO_CONTACT, "env": {FS_TOKEN_ENV: "simulated"},
            "connect_to": srv.connect_to}


def _finish(out: Path, name: str, seed: int, res: Any) -> None:
    _write_outputs(out, f"sleuth demo: {name} (simulated world {seed})")
    c = _counts(out)
    console.print(f"[bold]stopped[/bold] ({', '.join(res.stop_reasons) or 'not finished'}): "
                  f"{res.iterations} tasks, {res.requests} requests, {res.persons} persons, "
                  f"{res.facts} cited facts in {res.elapsed:.1f} s; {c['review_open']} items "
                  f"awaiting review → {out}/report.md")


def is_demo_case(case_dir: Path) -> bool:
    """A case `sleuth demo` researched: its sources are the demo's in-process world."""
    if (case_dir / DEMO_FILE).exists():
        return True
    folder = case_dir / "sources"
    return folder.is_dir() and any(_WORLD_URL.search(p.read_text(errors="replace"))
                                   for p in folder.glob("*.yaml"))


def resume_demo(case_dir: Path, budget: Any = None) -> None:
    """`sleuth resume` on a demo case: the world the demo served inside its process is
    gone with it, so start the same world again (same seed and size, same host name: the
    same URLs) and carry on, then write the demo's outputs; or say in one line that it
    cannot (a demo case from before its settings were kept)."""
    from sleuth.loop import resume as run_resume
    from sleuth.loop.progress import RichProgress
    from sleuth.model import InputError
    from sleuth.world import World
    from sleuth.world.server import serve

    path = case_dir / DEMO_FILE
    try:
        settings = json.loads(path.read_text(encoding="utf-8"))
        seed, persons = int(settings["seed"]), int(settings["persons"])
        host = str(settings["host"])
    except FileNotFoundError:
        raise InputError("this case was researched against `sleuth demo`'s simulated world, "
                         "which ran inside that demo's process and is gone, and the case "
                         "does not say which world it was; run `sleuth demo --out "
                         f"{case_dir}` again", file=str(case_dir)) from None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise InputError(f"not a readable demo settings file ({type(exc).__name__}); run "
                         f"`sleuth demo --out {case_dir}` again", file=str(path)) from None
    world = World(seed, persons)
    console.print(f"world {seed} ({persons} persons) started again for the demo case")
    with serve(world, host=host) as srv, RichProgress() as progress:
        res = run_resume(case_dir, progress=progress, budget=budget,
                         fetcher_options=_fetcher_options(srv))
    _finish(case_dir, world.seed_query()["name"], seed, res)


def _counts(case: Path) -> dict[str, int]:
    from sleuth.store import Store, counts  # here: start-up time (issue 19)

    store = Store.open_case(case)
    try:
        return counts(store)
    finally:
        store.close()


def _write_outputs(case: Path, title: str) -> None:
    """Every output through the case's privacy policy (living persons redacted)."""
    from sleuth.export import to_gedcom, to_jsonld, to_report
    from sleuth.gps.proof import load_inputs
    from sleuth.llm.meter import load_usage
    from sleuth.store import case_graph  # here: start-up time (issue 19)

    store = open_case(case)
    try:
        graph = case_graph(store, title=title)
        gps = load_inputs(store, graph)
        review = _review_summary(store)
    finally:
        store.close()
    write_output(to_report(graph, gps=gps, model_usage=load_usage(case)), case / "report.md")
    write_output(to_gedcom(graph, version="5.5.1"), case / "tree.ged")
    write_output(json.dumps(to_jsonld(graph), indent=2, ensure_ascii=False),
                 case / "graph.jsonld")
    write_output(review, case / "review-summary.md")


def _review_summary(store: Store) -> str:
    """What waits for a human: open review items by priority and by kind of reason (the
    reasons' values stay in the case; `sleuth review CASE` shows them one by one)."""
    from sleuth.store.queries import open_review_reasons  # here: start-up time (issue 19)

    with store.engine.connect() as conn:
        rows = open_review_reasons(conn)
    by_kind = Counter(str(reason).split(":", 1)[0].split("(", 1)[0].strip()[:80]
                      for _, reason in rows)
    by_priority = Counter(str(p) for p, _ in rows)
    lines = ["# Review queue", "",
             f"{len(rows)} open items ({by_priority.get('high', 0)} high priority, "
             f"{by_priority.get('normal', 0)} normal). Work through them with "
             "`sleuth review CASE`.", ""]
    if rows:
        lines += ["| reason | items |", "|---|---|"]
        lines += [f"| {kind or 'unspecified'} | {n} |" for kind, n in by_kind.most_common()]
    return "\n".join(lines) + "\n"
