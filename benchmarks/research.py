"""Benchmark: the research loop against a naive breadth-first baseline on simulated worlds.

What: for worlds of 100, 1,000 and 10,000 persons (fixed seeds; `sleuth.world`, served on
127.0.0.1 by its own server, every built-in source pointed at it), research the world's seed
person twice over the same fetcher, sources and budget:

  sleuth  — the loop as shipped: priority = expected information gain, NoveltyGuard,
            revisits with reasons, plausibility-scored search hits;
  naive   — breadth-first baseline: FIFO frontier, no priorities, no novelty guard
            (`research(..., naive=True)`), otherwise the same code.

Both stop only on the request budget or an exhausted frontier (diminishing returns and
"confidence achieved" are switched off so the two spend comparable effort). The world's
ground-truth scorer (`sleuth.world.truth.score`, 4 generations above the seed) gives fact
precision/recall (recall of the facts the world's documents actually state about the seed's
4 generations), relationship precision/recall, wrong merges and living-person leaks. Recall
is also sampled as the run goes (every few requests), so the table can show how many
requests each needs to reach the same recall.

Targets (issue 5): fact precision ≥ 0.99; recall ≥ 0.90; living leaks = 0; at least 2×
fewer requests than the baseline for the same recall; cost no worse than linear in persons
discovered. Each run has `BUDGET` requests (600) unless `--max-requests` says otherwise.
Issue 19: `cpu/req` is the process's CPU seconds per request (the in-process world server
included, the recall samples not); `digest` hashes the run's GEDCOM export, and `--repeat 2`
runs each size twice to show the same inputs give the same tree.

    .venv/bin/python benchmarks/research.py                  # 100, 1000, 10000 persons
    .venv/bin/python benchmarks/research.py --sizes 100 --max-requests 200
    .venv/bin/python benchmarks/research.py --sizes 1000 --runs sleuth --repeat 2
    .venv/bin/python benchmarks/research.py --sizes 100,1000 --runs sleuth \
        --before /tmp/base/src           # after `git worktree add /tmp/base 791c625`
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

SEEDS = {100: 7, 1000: 11, 10000: 13}
SAMPLE_EVERY = 20  # requests between recall samples
# Requests per run. At 400 the 10,000-person world's recall sits on an edge (0.80 to 0.92
# from run to run: whether its seed's mother's death record, which opens a whole branch,
# is reached in time); 600 leaves margin at every size. The baseline gets the same.
BUDGET = 600


def _world() -> Any:
    try:
        import sleuth.world as world
        from sleuth.world import server, truth
    except ImportError as exc:
        print(f"sleuth.world is not available ({exc}); this benchmark needs the simulated "
              "world package (issue 5, item 6). Nothing was measured.")
        sys.exit(0)
    return world, server, truth


def run_one(size: int, naive: bool, max_requests: int, generations: int) -> dict[str, Any]:
    world_mod, server_mod, truth = _world()
    from sleuth.loop import Budget, research
    from sleuth.sources.gates import record_consent
    from sleuth.store import Store, case_graph

    w = world_mod.World(SEEDS.get(size, size), size)
    # A stable host name (as `sleuth demo`): the same world gives the same URLs, so two runs
    # can be compared byte for byte (`--repeat 2`).
    try:
        srv = server_mod.serve(w, host=f"world-{w.seed}.sleuth.test")
    except TypeError:  # an older sleuth (`--before`): served under its port
        srv = server_mod.serve(w)
    os.environ["SLEUTH_SOURCES_DIR"] = str(srv.sources_dir)
    case = Path(tempfile.mkdtemp(prefix="sleuth-bench-")) / "case"
    store = Store.create_case(case)
    with store.transaction() as conn:  # the user's own (simulated) FamilySearch account
        record_consent(store, conn, "familysearch", "store", "benchmark: simulated world")
    q = w.seed_query()
    curve: list[tuple[int, float]] = []
    next_sample = [SAMPLE_EVERY]
    sampling = [0.0]  # CPU seconds the recall samples take (not the loop's own cost)

    def sample(node: str, update: dict[str, Any]) -> None:
        req = update.get("requests")
        if node == "scout" and req is not None and req >= next_sample[0]:
            c0 = time.process_time()
            next_sample[0] += SAMPLE_EVERY
            s = truth.score(case_graph(store), w, generations=generations)
            curve.append((int(req), s["fact_recall"]))
            sampling[0] += time.process_time() - c0

    budget = Budget(max_requests=max_requests, max_minutes=30, target_generations=generations,
                    stop_on_confidence=False, stop_on_gps=False, diminishing_window=10**9)
    t0, c0 = time.perf_counter(), time.process_time()
    try:
        res = research(case, {"name": q["name"], "given": q["given"], "surname": q["surname"],
                              "birth_year": int(q["birth_year"]), "place": q["place"]},
                       budget=budget, naive=naive, on_step=sample,
                       fetcher_options={"contact": "bench@example.invalid",
                                        "env": {"FAMILYSEARCH_ACCESS_TOKEN": "simulated"},
                                        **({"connect_to": srv.connect_to}
                                           if hasattr(srv, "connect_to") else {})})
        wall = time.perf_counter() - t0
        # the process's CPU (the world server's threads included, the samples not)
        cpu = time.process_time() - c0 - sampling[0]
        graph = case_graph(store)
        scores = truth.score(graph, w, generations=generations)
        digest = _digest(graph)
    finally:
        store.close()
        srv.stop()
    curve.append((res.requests, scores["fact_recall"]))
    return {"size": size, "who": "naive BFS" if naive else "sleuth", "scores": scores,
            "requests": res.requests, "server": srv.request_count, "wall": wall,
            "cpu": cpu, "persons": res.persons, "stop": ",".join(res.stop_reasons),
            "curve": curve, "digest": digest}


def _digest(graph: Any) -> str:
    """What the run concluded, as its GEDCOM export (every person, fact, citation and
    link), hashed: equal digests are byte-identical trees."""
    import hashlib
    from datetime import date

    from sleuth.export import to_gedcom
    from sleuth.privacy import censor

    text = to_gedcom(censor(graph, today=date(2026, 1, 1)), version="5.5.1")
    body = "\n".join(x for x in text.splitlines() if not x.startswith(("1 DATE", "2 TIME")))
    return hashlib.sha256(body.encode()).hexdigest()[:12]


def _before(src: Path, size: int, args: Any) -> list[dict[str, Any]]:
    """The sleuth runs again with the package in `src` (a fresh process): the "before"."""
    import subprocess

    env = {**os.environ, "PYTHONPATH": str(src.resolve())}
    out = subprocess.run([sys.executable, __file__, "--json", "--sizes", str(size),
                          "--runs", "sleuth", "--max-requests", str(args.max_requests),
                          "--generations", str(args.generations)], env=env,
                         capture_output=True, text=True)
    rows = [json.loads(x[5:]) for x in out.stdout.splitlines() if x.startswith("JSON ")]
    if not rows:
        print(f"{size:>7} before ({src}) not measured: {out.stderr.strip()[-300:]}")
    return [{**r, "who": "before", "curve": []} for r in rows]


def requests_for(curve: list[tuple[int, float]], recall: float) -> int | None:
    return next((r for r, rec in curve if rec >= recall - 1e-9), None)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="100,1000,10000")
    ap.add_argument("--max-requests", type=int, default=BUDGET)
    ap.add_argument("--generations", type=int, default=4)
    ap.add_argument("--runs", default="sleuth,naive",
                    help="which runs: sleuth, naive or both (the baseline is slow)")
    ap.add_argument("--repeat", type=int, default=1,
                    help="run each size this many times: the digests must agree (the same "
                         "inputs give the same tree, whatever the timing)")
    ap.add_argument("--before", type=Path, metavar="SRC",
                    help="also run the sleuth runs with the package in SRC (another "
                         "checkout's src/, e.g. `git worktree add /tmp/base 791c625` then "
                         "/tmp/base/src), on this machine in the same session: a before/after "
                         "table")
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.json:  # one size's rows as JSON lines (for `--before`)
        for size in (int(x) for x in args.sizes.split(",")):
            for naive in (False, True):
                if ("naive" if naive else "sleuth") in args.runs:
                    r = run_one(size, naive, args.max_requests, args.generations)
                    print("JSON " + json.dumps({k: v for k, v in r.items() if k != "curve"}))
        return
    _world()
    print(f"python {platform.python_version()} on {platform.machine()}; budget "
          f"{args.max_requests} requests; recall over {args.generations} generations")
    head = (f"{'persons':>7} {'run':<9} {'factP':>6} {'factR':>6} {'relP':>6} {'relR':>6} "
            f"{'merges✗':>7} {'leaks':>5} {'requests':>8} {'persons':>7} {'wall s':>7} "
            f"{'cpu/req':>7} {'digest':<12}  stop")
    print(head)
    print("-" * len(head))
    for size in (int(x) for x in args.sizes.split(",")):
        try:
            wanted = {x.strip() for x in args.runs.split(",")}
            rows = [run_one(size, naive, args.max_requests, args.generations)
                    for naive in (False, True) if ("naive" if naive else "sleuth") in wanted
                    for _ in range(args.repeat)]
        except Exception as exc:  # a world that cannot be rendered or scored at this size
            print(f"{size:>7} not measured: {type(exc).__name__}: {exc}")
            continue
        if args.before is not None:
            rows += _before(args.before, size, args)
        for r in rows:
            s = r["scores"]
            print(f"{size:>7} {r['who']:<9} {s['fact_precision']:>6.3f} {s['fact_recall']:>6.3f} "
                  f"{s['rel_precision']:>6.3f} {s['rel_recall']:>6.3f} "
                  f"{int(s['wrong_merges']):>7} {int(s['living_leaks']):>5} "
                  f"{r['requests']:>8} {r['persons']:>7} {r['wall']:>7.1f} "
                  f"{r['cpu'] / max(1, r['requests']):>7.3f} {r['digest']:<12}  {r['stop']}")
        for who in {r["who"] for r in rows}:
            digests = {r["digest"] for r in rows if r["who"] == who}
            if args.repeat > 1:
                print(f"{'':>7} {who}: {args.repeat} runs, "
                      + ("identical trees" if len(digests) == 1 else
                         f"DIFFERENT trees ({', '.join(sorted(digests))})"))
        rows = [next(r for r in rows if r["who"] == w) for w in ("sleuth", "naive BFS")
                if any(r["who"] == w for r in rows)]
        if len(rows) < 2:
            continue
        smart, naive = rows
        target = min(smart["scores"]["fact_recall"], naive["scores"]["fact_recall"])
        a, b = requests_for(smart["curve"], target), requests_for(naive["curve"], target)
        ratio = f"{b / a:.1f}x" if a and b else "n/a"
        print(f"{'':>7} requests to reach recall {target:.3f}: sleuth {a}, naive {b} "
              f"({ratio} fewer)")
        print(f"{'':>7} recall curve sleuth {smart['curve']}")
        print(f"{'':>7} recall curve naive  {naive['curve']}")


if __name__ == "__main__":
    main()
