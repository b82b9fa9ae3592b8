"""`sleuth demo`: the main job on the embedded default, offline, in one command.

For now it ingests the bundled sample documents into a fresh case and writes the report and
the JSON-LD graph; the research loop over a simulated world will replace the sample.
"""

from __future__ import annotations

import json
import shutil
from importlib import resources
from pathlib import Path
from typing import Annotated

import typer

from sleuth.agents import ingest_path
from sleuth.cli.common import console
from sleuth.cli.export import write_output
from sleuth.export import to_jsonld, to_report
from sleuth.model import EvidenceType
from sleuth.store import Store, case_graph, counts
from sleuth.store.store import CASE_CONFIG


def demo(
    out: Annotated[Path, typer.Option("--out", help="Case folder to write.")] = Path("sleuth-demo"),
) -> None:
    """Ingest the bundled sample into a fresh case and write report.md and graph.jsonld."""
    if out.exists():
        if not (out / CASE_CONFIG).exists():
            raise FileExistsError(f"{out}: exists and is not a sleuth case; choose another --out")
        shutil.rmtree(out)  # our own earlier demo output
    store = Store.create_case(out)
    sample = resources.files("sleuth") / "data" / "sample"
    manifest = json.loads((sample / "manifest.json").read_text())
    try:
        for name, meta in manifest.items():
            with resources.as_file(sample / name) as path:
                res = ingest_path(
                    store,
                    Path(path),
                    source_name=meta["source_name"],
                    evidence_type=EvidenceType(meta["evidence_type"]),
                )
            r = res.report
            if r is not None:
                console.print(
                    f"ingested {name}: {r.promoted} facts promoted, {r.review} to "
                    f"review, {r.hypotheses} hypotheses, {r.conflicts} conflicts"
                )
        graph = case_graph(store, title="sleuth demo: the Hollis family of Buck Valley")
        c = counts(store)
    finally:
        store.close()
    write_output(to_report(graph), out / "report.md")
    write_output(json.dumps(to_jsonld(graph), indent=2, ensure_ascii=False), out / "graph.jsonld")
    console.print(
        f"[bold]done[/bold]: {c['persons']} persons, {c['assertions']} cited facts, "
        f"{c['review_open']} items awaiting review → {out}/report.md"
    )
