"""A tree's own sources through sleuth: ingest a GEDCOM, export it, count what came back.

For each shared GEDCOM file (the Gramps sample, royal92, kennedy, the torture files and the
GEDCOM 7 test files): ingest it into a fresh case, export it as 5.5.1 and 7.0, parse the
export and compare with the file the set of source titles (TITL of SOUR records, sleuth's
own snapshot sources left out) and of citation PAGE values. Also: the `gedcom7` validator's
error count on the 7.0 export (when installed) and the export time per person (censor
included, CPU time). Target: 100% of titles and pages, 0 validator errors.

    .venv/bin/python benchmarks/gedcom_sources.py             # every file (about 2 minutes)
    .venv/bin/python benchmarks/gedcom_sources.py kennedy TGC  # files whose name matches
"""

from __future__ import annotations

import argparse
import tempfile
import time
from datetime import date
from pathlib import Path

from sleuth.export import to_gedcom
from sleuth.gedcom import Gedcom, decode_gedcom, parse_gedcom
from sleuth.pipeline.ingest import ingest_path
from sleuth.store import Store, case_graph

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "gedcom"
TODAY = date(2026, 11, 22)


def files() -> list[Path]:
    named = [DATA / "gramps" / "sample.ged", DATA / "samples" / "royal92.ged",
             DATA / "samples" / "kennedy.ged"]
    named += sorted((DATA / "torture").glob("*.ged")) + sorted((DATA / "gedcom70").glob("*.ged"))
    return [p for p in named if p.exists()]


def sources(ged: Gedcom, ours: set[str]) -> tuple[set[str], set[str]]:
    titles = {" ".join(t.value.split()) for r in ged.of_tag("SOUR") if r.xref not in ours
              for t in r.all("TITL")}
    pages = {" ".join(n.value.split()) for r in ged.records for n in r.walk()
             if n.tag == "PAGE" and not n.value.startswith("chars ")}
    return titles, pages


def ours(ged: Gedcom) -> set[str]:
    return {r.xref for r in ged.of_tag("SOUR") if r.xref and any(
        n.tag == "NOTE" and n.value.startswith("sleuth snapshot") for n in r.children)}


def validate(text: str) -> str:
    try:
        import gedcom7
    except ImportError:
        return "n/a"
    return str(len(gedcom7.validate(gedcom7.loads(text))))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("match", nargs="*", help="only files whose name contains one of these")
    args = ap.parse_args()
    print(f"{'file':<24} {'persons':>7}  {'version':<6} {'titles':>9} {'pages':>7} "
          f"{'g7 errors':>9} {'ms/person':>9}")
    for path in files():
        if args.match and not any(m in path.name for m in args.match):
            continue
        original = parse_gedcom(decode_gedcom(path.read_bytes()).text)
        titles, pages = sources(original, set())
        with tempfile.TemporaryDirectory() as tmp:
            store = Store.create_case(Path(tmp) / "case")
            try:
                ingest_path(store, path)
                graph = case_graph(store, title=path.name)
            finally:
                store.close()
        for version in ("5.5.1", "7.0"):
            start = time.process_time()
            text = to_gedcom(graph, version=version, today=TODAY)
            spent = time.process_time() - start
            ged = parse_gedcom(text)
            kept_titles, kept_pages = sources(ged, ours(ged))
            per = f"{spent / len(graph.persons) * 1000:.2f}" if graph.persons else "-"
            print(f"{path.name:<24} {len(graph.persons):>7}  {version:<6} "
                  f"{len(titles & kept_titles):>4}/{len(titles):<4} "
                  f"{len(pages & kept_pages):>3}/{len(pages):<3} "
                  f"{validate(text) if version == '7.0' else '':>9} {per:>9}", flush=True)


if __name__ == "__main__":
    main()
