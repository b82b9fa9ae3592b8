"""Benchmark: `sleuth demo` on several worlds, judged against each world's ground truth.

What (issue 19): for each world seed, run the real `sleuth demo --seed N` (a fresh process,
its default budget) and read the case it wrote against the world's truth:

  seed      - the seed person is one case person with exactly her true father and mother
              (`sleuth.world.pedigree.seed_checks`);
  >2 par.   - persons whose records give them more than two parents (merged view);
  loops     - persons who are their own ancestor;
  conflicts - conflicts stored, and how many recommend the true value
              (`sleuth.world.truth.conflict_choices`: right / right + wrong; a conflict
              none of whose values is true cannot be chosen right and is not counted);
              (undecid. counts those; persons or fields the scorer cannot map are apart);
  factP/R   - fact precision and recall (`sleuth.world.truth.score`, 4 generations);
  report    - the demo's report.md (lines, KB) and the seconds `sleuth export --format
              report` takes on the finished case.

Targets: the seed one person with her true parents, no one with more than two parents or
their own ancestor, on every seed; conflict choices right in at least 95% of cases.

    .venv/bin/python benchmarks/demo_seeds.py                 # seeds 1..5 and 7
    .venv/bin/python benchmarks/demo_seeds.py --seeds 7 --show --keep /tmp/cases
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


def judge(case: Path, seed: int, persons: int) -> dict[str, Any]:
    from sleuth.store import Store, case_graph
    from sleuth.world import World
    from sleuth.world.pedigree import seed_checks
    from sleuth.world.truth import conflict_choices, score

    world = World(seed, persons)
    store = Store.open_case(case)
    try:
        graph = case_graph(store)
    finally:
        store.close()
    return {"checks": seed_checks(graph, world), "choices": conflict_choices(graph, world),
            "score": score(graph, world), "persons": len(graph.persons)}


def _export_seconds(case: Path) -> float:
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "sleuth", "export", str(case), "--format", "report",
                    "--out", str(case / "again.md")], capture_output=True, check=True)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", default="1,2,3,4,5,7")
    ap.add_argument("--persons", type=int, default=100)
    ap.add_argument("--show", action="store_true", help="list wrong conflict choices")
    ap.add_argument("--keep", type=Path, help="keep the case folders here")
    args = ap.parse_args()
    head = (f"{'seed':>4} {'seed ok':<8} {'parents (as the case names them)':<40} {'>2 par.':>7} "
            f"{'loops':>5} {'conflicts':>9} {'right':>5} {'wrong':>5} {'undecid.':>8} "
            f"{'factP':>6} {'factR':>6} {'persons':>7} {'demo s':>6} {'report':>12} "
            f"{'export s':>8}")
    print(head)
    print("-" * len(head))
    right = wrong = 0
    failed: list[int] = []
    with tempfile.TemporaryDirectory(prefix="sleuth-demo-seeds-") as tmp:
        root = args.keep or Path(tmp)
        for seed in (int(x) for x in args.seeds.split(",")):
            case = root / f"demo{seed}"
            t0 = time.perf_counter()
            proc = subprocess.run([sys.executable, "-m", "sleuth", "demo", "--seed", str(seed),
                                   "--persons", str(args.persons), "--out", str(case)],
                                  capture_output=True, text=True)
            wall = time.perf_counter() - t0
            if proc.returncode != 0:
                print(f"{seed:>4} demo failed: {proc.stderr.strip().splitlines()[-1:]}")
                failed.append(seed)
                continue
            r = judge(case, seed, args.persons)
            c, ch, s = r["checks"], r["choices"], r["score"]
            right, wrong = right + ch["right"], wrong + ch["wrong"]
            if not c.ok:
                failed.append(seed)
            report = (case / "report.md").read_text(encoding="utf-8")
            size = f"{report.count(chr(10))}/{len(report.encode()) // 1024}K"
            print(f"{seed:>4} {'yes' if c.ok else 'NO':<8} {'; '.join(c.seed_parents)[:40]:<40} "
                  f"{len(c.over_two_parents):>7} {len(c.own_ancestors):>5} "
                  f"{ch['conflicts']:>9} {ch['right']:>5} {ch['wrong']:>5} "
                  f"{ch['undecidable']:>8} {s['fact_precision']:>6.3f} "
                  f"{s['fact_recall']:>6.3f} {r['persons']:>7} {wall:>6.1f} {size:>12} "
                  f"{_export_seconds(case):>8.1f}")
            if args.show:
                for line in ch["wrong_choices"]:
                    print(f"{'':>4}   wrong: {line}")
    checked = right + wrong
    print(f"conflict choices right: {right}/{checked} = "
          f"{right / checked if checked else 1.0:.3f} (target 0.95); "
          f"seeds failing the pedigree checks: {failed or 'none'}")


if __name__ == "__main__":
    main()
