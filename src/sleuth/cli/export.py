"""`sleuth export`: every output goes through the privacy Censor inside the exporters."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from sleuth.cli.common import console, domain_of, open_case


def export(
    case_dir: Annotated[Path, typer.Argument(metavar="CASE")],
    fmt: Annotated[
        str, typer.Option("--format", help="What the case's domain writes; genealogy: report, "
                          "html (self-contained report), jsonld, gedcom (5.5.1), gedcom7, "
                          "gedcomx or log (research log JSONL); documents: timeline, "
                          "entities (JSON lines), report (Markdown) or html; curation: entities, "
                          "equivalences, conflicts, review, graph (JSON lines), graphml or jsonld")
    ] = "report",
    out: Annotated[
        Path | None, typer.Option("--out", help="File to write (default stdout).")
    ] = None,
) -> None:
    """Write the case in one of its domain's formats (genealogy: a Markdown or HTML report,
    schema.org JSON-LD, GEDCOM 5.5.1/7.0 or GEDCOM X)."""
    render = domain_of(case_dir).export(fmt)
    store = open_case(case_dir)
    try:
        text = render(store, case_dir)
    finally:
        store.close()
    write_output(text, out)


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
