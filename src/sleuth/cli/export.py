"""`sleuth export`: every output goes through the privacy Censor inside the exporters."""

from __future__ import annotations

import gc
import json
from pathlib import Path
from typing import Annotated, Any

import typer

from sleuth.cli.common import console, open_case
from sleuth.model import InputError

FORMATS = ("report", "html", "jsonld", "gedcom", "gedcom7", "gedcomx", "log")


def export(
    case_dir: Annotated[Path, typer.Argument(metavar="CASE")],
    fmt: Annotated[
        str, typer.Option("--format", help="report, html (self-contained report), jsonld, "
                          "gedcom (5.5.1), gedcom7, gedcomx or log (research log JSONL)")
    ] = "report",
    out: Annotated[
        Path | None, typer.Option("--out", help="File to write (default stdout).")
    ] = None,
) -> None:
    """Write the case as a Markdown or HTML report, schema.org JSON-LD, GEDCOM 5.5.1/7.0 or
    GEDCOM X."""
    if fmt not in FORMATS:
        raise InputError(
            f"unknown format {fmt!r}; use one of {', '.join(FORMATS)}", field="--format"
        )
    # Imported here, not at the top: start-up time (issue 19, `sleuth --help`).
    from sleuth.export import to_gedcom, to_gedcomx, to_jsonld, to_report
    from sleuth.store import case_graph

    store = open_case(case_dir)
    try:
        graph = case_graph(store, title=case_dir.name)
        gps = gps_inputs(store, graph) if fmt in ("report", "html") else None
        log = _research_log(store, graph) if fmt == "log" else ""
    finally:
        store.close()
    # The case is read once and only read from here on: freezing it keeps the cyclic
    # collector from rescanning a whole large case at every collection (about a fifth of
    # an export's time on 3,000 persons).
    gc.freeze()
    if fmt == "log":
        text = log.rstrip("\n")
    elif fmt == "report":
        from sleuth.llm.meter import load_usage

        text = to_report(graph, gps=gps, model_usage=load_usage(case_dir))
    elif fmt == "html":
        from sleuth.export.html import to_html

        text = to_html(graph, gps=gps)
    elif fmt == "jsonld":
        text = json.dumps(to_jsonld(graph), indent=2, ensure_ascii=False)
    elif fmt == "gedcomx":
        text = json.dumps(to_gedcomx(graph), indent=2, ensure_ascii=False)
    else:
        text = to_gedcom(graph, version="7.0" if fmt == "gedcom7" else "5.5.1")
    write_output(text, out)


def _research_log(store: Any, graph: Any) -> str:
    """The research log (JSON lines), living persons' names masked by the Censor's verdict."""
    from sleuth.loop.log_jsonl import render
    from sleuth.privacy import assess_living

    living = assess_living(graph)
    return render(store, [p.canonical_name for p in graph.persons
                          if living.get(p.id, (False, ""))[0]])


def gps_inputs(store: Any, graph: Any) -> Any:
    """What the report's proof arguments need beyond the graph: overrides, the searches
    made and the negative evidence recorded (`sleuth.gps.proof`)."""
    from sleuth.gps.proof import load_inputs

    return load_inputs(store, graph)


def write_output(text: str, out: Path | None) -> None:
    """Write atomically (temp file, then rename) so a crash never leaves half a file."""
    if out is None:
        print(text)
        return
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(out)
    console.print(f"wrote {out}")
