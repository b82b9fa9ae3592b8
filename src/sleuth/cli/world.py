"""`sleuth world generate|serve`: the simulated world used by the demo, tests, benchmarks."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer

from sleuth.cli.common import console

app = typer.Typer(help="The simulated world: generate its truth and documents, or serve it.",
                  no_args_is_help=True)


@app.command("generate")
def generate(
    seed: Annotated[int, typer.Option("--seed", help="World seed (same seed, same world).")] = 1,
    persons: Annotated[int, typer.Option("--persons", help="About how many people.")] = 200,
    out: Annotated[Path, typer.Option("--out", help="Folder for truth.json and documents/.")]
    = Path("world"),
) -> None:
    """Write truth.json, stated.jsonl and every rendered document into OUT."""
    from sleuth.world import World
    from sleuth.world.truth import export

    t = time.perf_counter()
    world = World(seed, persons)
    n = export(world, out)
    console.print(f"world {seed}: {len(world.pop.persons)} persons, {n} documents -> {out} "
                  f"({time.perf_counter() - t:.2f} s)")


@app.command("serve")
def serve_cmd(
    folder: Annotated[Path | None, typer.Argument(help="A folder written by `generate`.")]
    = None,
    seed: Annotated[int | None, typer.Option("--seed")] = None,
    persons: Annotated[int, typer.Option("--persons")] = 200,
    port: Annotated[int, typer.Option("--port", help="0 picks a free port.")] = 0,
) -> None:
    """Serve a world on 127.0.0.1 until Ctrl-C (from a generated folder or a seed)."""
    import json

    from sleuth.model import InputError
    from sleuth.world import World
    from sleuth.world.server import serve

    if folder is not None:
        try:
            meta = json.loads((folder / "truth.json").read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise InputError(f"not a generated world: {exc}", file=str(folder)) from exc
        seed, persons = int(meta["seed"]), int(meta["size"])
    if seed is None:
        raise InputError("give a generated world folder or --seed", field="--seed")
    with serve(World(seed, persons), port) as srv:
        console.print(f"serving world {seed} at {srv.base_url}; sources: {srv.sources_dir} "
                      "(set SLEUTH_SOURCES_DIR to it); Ctrl-C stops")
        try:
            while True:
                time.sleep(1)
        except KeyboardInterrupt:
            console.print(f"{srv.request_count} requests served")
