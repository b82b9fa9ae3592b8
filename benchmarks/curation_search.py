"""Search over the F´ folder (issue 25 acceptance: search): recall@5 and MRR of lexical,
embedding and hybrid search against a trivial peer, with query latency.

    PYTHONPATH=src python benchmarks/curation_search.py [--json] [--db URL] [--rounds N]

The queries are `benchmarks/data/curation_search_queries.json` (how they were written is in
the file). A curation case is made in a temporary folder (SQLite, or `--db` a PostgreSQL
URL), every F´ file of ../shared/data/documents/fprime ingested (INDEX.md and the licence
left out: they are the folder's notes) and curated as `sleuth work` does, so the promoted
entities are indexed too (`--no-curate`: the files only), and the index built by the same
batch functions `sleuth search` runs. Each method ranks the same rows:

- grep-count (the peer): rows by how many times the query's words (common English words
  left out) occur in their text, case-insensitively, ties by document and line; in memory;
- lexical: SQLite FTS5 bm25 / PostgreSQL ts_rank over context, text and derived terms;
- embedding: cosine against WordLlama vectors (`sleuth[embed]`; skipped when absent);
- hybrid: reciprocal rank fusion of the two (what `sleuth search` does by default when the
  case has vectors).

A result is relevant when its document is one the query lists and its lines overlap that
place's range, or when it is the promoted entity the query names. recall@5: the share of
queries with a relevant result in the first 5; MRR: the mean of 1 / the first relevant
rank (0 past 10). Latency: each query run `--rounds` times through `search()` (lexical,
embedding and hybrid read the database each time, as the command does; grep-count scans
rows already in memory), median and 95th percentile in milliseconds.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from sleuth.domains.curation import DOMAIN
from sleuth.domains.curation import search as s
from sleuth.domains.curation.embeddings import load_embedder
from sleuth.domains.documents.work import work
from sleuth.sources import load_file
from sleuth.store import Store
from sleuth.store import search_index as ix
from sleuth.store.search_index import StoredChunk

FOLDER = Path(__file__).resolve().parents[2] / "shared" / "data" / "documents" / "fprime"
QUERIES = Path(__file__).resolve().parent / "data" / "curation_search_queries.json"
LEFT_OUT = {"INDEX.md", "LICENSE_fprime.txt"}
DEPTH = 10


Result = tuple[StoredChunk, tuple[str, ...]]  # a row and the entities shown with it


def relevant(hit: Result, q: dict) -> bool:
    c, entities = hit
    if q.get("entity") and q["entity"] in (c.entity_key, *entities):
        return True
    return any(c.doc == r["doc"] and c.start_line <= r["lines"][1]
               and r["lines"][0] <= c.end_line for r in q["relevant"])


def first_relevant(ranking: Sequence[Result], q: dict) -> int | None:
    return next((n for n, h in enumerate(ranking[:DEPTH], start=1) if relevant(h, q)), None)


def grep_count(rows: Sequence[StoredChunk], query: str, depth: int) -> list[Result]:
    """The peer: rows by the count of the query's words in their text (collapsed as
    `sleuth search` collapses its results, so both fill their 10 places alike)."""
    words = [w for w in re.findall(r"[0-9a-z]+", query.lower()) if w not in s.STOPWORDS]
    scored = [(sum(c.text.lower().count(w) for w in words), c) for c in rows]
    order = sorted((x for x in scored if x[0] > 0),
                   key=lambda x: (-x[0], x[1].doc, x[1].start_line))
    return [(c, ents) for c, _, _, ents in
            s.collapsed([(c, float(n), {}) for n, c in order], depth)]


def _pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p * (len(xs) - 1)))]


def main(argv: Sequence[str] | None = None) -> dict:
    ap = argparse.ArgumentParser()
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--db", default=None, help="a PostgreSQL URL (an empty database)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--no-curate", action="store_true",
                    help="store the files only: no promoted entities in the index")
    args = ap.parse_args(argv)
    if not FOLDER.exists():
        print(f"skipped: {FOLDER} not found")
        return {}
    queries = json.loads(QUERIES.read_text(encoding="utf-8"))["queries"]
    case = Path(tempfile.mkdtemp(prefix="sleuth-search-bench-")) / "case"
    store = Store.create_case(case, args.db, domain="curation")
    try:
        files = [p for p in sorted(FOLDER.iterdir()) if p.name not in LEFT_OUT]
        t0 = time.perf_counter()
        if args.no_curate:
            for p in files:
                loaded = load_file(p, source_name="fprime")
                with store.transaction() as tx:
                    store.put_snapshot(tx, loaded.raw, loaded.snapshot)
        else:  # what `sleuth ingest` and `sleuth work` do: the entities are promoted
            for p in files:
                DOMAIN.ingest(store, p, source_name="fprime")
            work(store, agents=DOMAIN.agents)
        curate_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        embedder = load_embedder("auto")
        load_s = time.perf_counter() - t0
        report = s.build_index(store, embedder=embedder, entities=s.case_entities)
        with store.engine.connect() as conn:
            rows = ix.chunks(conn)
        methods = ["grep-count", "lexical"] + (["embedding", "hybrid"] if embedder else [])
        ranks: dict[str, list[int | None]] = {m: [] for m in methods}
        times: dict[str, list[float]] = {m: [] for m in methods}
        for q in queries:
            for m in methods:
                for _ in range(args.rounds):
                    t = time.perf_counter()
                    if m == "grep-count":
                        got = grep_count(rows, q["query"], DEPTH)
                    else:
                        got = [(h.chunk, h.entities) for h in s.search(
                            store, q["query"], limit=DEPTH, mode=m, embedder=embedder)]
                    times[m].append((time.perf_counter() - t) * 1000)
                ranks[m].append(first_relevant(got, q))
        dialect = store.engine.dialect.name
    finally:
        store.close()
    result = {
        "queries": len(queries), "files": len(files), "dialect": dialect,
        "rows": len(rows), "index_seconds": round(report.seconds, 3),
        "model": embedder.name if embedder else None, "model_load_seconds": round(load_s, 3),
        "entities": report.entities, "curate_seconds": round(curate_s, 2),
        "methods": {m: {
            "recall@5": sum(1 for r in ranks[m] if r and r <= 5) / len(queries),
            "recall@1": sum(1 for r in ranks[m] if r == 1) / len(queries),
            "mrr": sum(1 / r for r in ranks[m] if r) / len(queries),
            "median_ms": statistics.median(times[m]), "p95_ms": _pct(times[m], 0.95),
        } for m in methods},
        "first_relevant_rank": {q["id"]: {m: ranks[m][i] for m in methods}
                                for i, q in enumerate(queries)},
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return result
    print(f"{len(queries)} queries over {len(files)} files, {len(rows)} rows "
          f"({dialect}; index built in {report.seconds:.2f} s, "
          f"model {result['model'] or 'none'}, loaded in {load_s:.2f} s; "
          f"{report.entities} promoted entities, curated in {curate_s:.1f} s)\n")
    print("| method | recall@5 | recall@1 | MRR | median ms | p95 ms |")
    print("|---|---:|---:|---:|---:|---:|")
    for m, r in result["methods"].items():
        print(f"| {m} | {r['recall@5']:.3f} | {r['recall@1']:.3f} | {r['mrr']:.3f} | "
              f"{r['median_ms']:.2f} | {r['p95_ms']:.2f} |")
    missed = {m: [q["id"] for i, q in enumerate(queries) if not (ranks[m][i] or 99) <= 5]
              for m in methods}
    print("\nnot in the first 5: " + "; ".join(f"{m}: {', '.join(v) or '-'}"
                                              for m, v in missed.items()))
    return result


if __name__ == "__main__":
    main(sys.argv[1:])
