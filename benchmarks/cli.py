"""Benchmark: how fast the everyday `sleuth` commands answer, and how they grow with a case.

What (issue 19, item 7): every command is run as a user runs it, a fresh
`python -m sleuth ...` process (imports, configuration, database and output included), timed
from start to exit. Per command: wall time, CPU time (user + system: steadier than wall
time on a shared machine), peak memory (the child's peak resident set, `os.wait4`), and for
the scale part time and memory per person (memory above the `--help` process's peak).

  start-up  `--help`, `show CASE person ID`, `review CASE` and `sources list` on the
            kennedy case: best of `--repeat` runs (a warm file cache, as a user has).
  scale     on kennedy.ged (208 persons), royal92.ged (3,010 in the file, 3,006 in the case)
            and a 100,000-person tree generated here, deterministically
            (benchmarks/gedcom.py's `generate`, seed 1850: names, sexes, dated and placed
            births, deaths and marriages, sources with citations, notes): `init` + `ingest`
            into a fresh SQLite case, then `privacy report`, `export --format
            report|gedcom|jsonld` and `check` of that case, once each.

The "before" columns are main at 791c625, recorded on 2026-11-26 with this script
(`--src` at an unchanged copy of that commit's `src/`, `--limit 300`) on the same shared
2-core machine, then under a load average of about 4 from other work, so their wall times
run about twice what an idle machine gives (the issue measured royal92's ingest at 36.5 s
idle, 82.8 s here); "> N s" is a run stopped at the limit. The 100,000-person "before"
ingest is the issue's own extrapolation from a 10,000-person run (100 s, 1.37 GB), not run.
The "before" runs recompiled sleuth in each process (this machine sets
PYTHONDONTWRITEBYTECODE and the script did not yet byte-compile first): about 0.5 s of each
"before" wall time is that, which an installed copy does not spend.

    .venv/bin/python benchmarks/cli.py                              # all three (~1 h, 13 GB)
    .venv/bin/python benchmarks/cli.py --sizes kennedy,royal92      # without 100k (~4 min)
    .venv/bin/python benchmarks/cli.py --src /tmp/base/src --json before.json   # another tree

Targets (issue 19): `--help` < 1 s, `show` and `review` well under a second; `privacy
report` on royal92 < 10 s and on 100k persons < 2 min; `ingest` of royal92 < 5 s and of
100k persons < 3 min in < 2 GB; exports and `check` linear in the case size (compare the
ms/person column across the sizes).
"""

from __future__ import annotations

import argparse
import compileall
import importlib.util
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data" / "gedcom" / "samples"
FILES = {"kennedy": SHARED / "kennedy.ged", "royal92": SHARED / "royal92.ged"}
GENERATED = 100_000
TARGETS = {  # (dataset, command) -> (seconds, MB or None): issue 19's acceptance
    ("startup", "--help"): (1.0, None),
    ("royal92", "privacy report"): (10.0, None),
    ("100k", "privacy report"): (120.0, None),
    ("royal92", "ingest"): (5.0, None),
    ("100k", "ingest"): (180.0, 2048.0),
}

# main at 791c625 (see the docstring): (dataset, command) -> (wall s, peak MB); None: stopped.
BEFORE: dict[tuple[str, str], tuple[float | None, float]] = {
    ("kennedy", "ingest"): (3.88, 123),
    ("startup", "--help"): (2.22, 98),
    ("startup", "show"): (3.11, 112),
    ("startup", "review"): (2.99, 100),
    ("startup", "sources list"): (3.28, 108),
    ("kennedy", "privacy report"): (86.62, 142),
    ("kennedy", "export report"): (15.16, 120),
    ("kennedy", "export gedcom"): (7.43, 112),
    ("kennedy", "export jsonld"): (6.42, 123),
    ("kennedy", "check"): (4.58, 111),
    ("royal92", "ingest"): (82.83, 343),
    ("royal92", "privacy report"): (None, 310),
    ("royal92", "export report"): (None, 251),
    ("royal92", "export gedcom"): (8.32, 231),
    ("royal92", "export jsonld"): (12.27, 356),
    ("royal92", "check"): (6.44, 224),
    ("100k", "ingest"): (1020.0, 13_000),  # the extrapolation, not a run
}
BEFORE_LIMIT = 300.0


def _generate(people: int) -> str:
    """benchmarks/gedcom.py's deterministic tree (loaded by path: `gedcom` is also a peer)."""
    spec = importlib.util.spec_from_file_location("bench_gedcom", ROOT / "benchmarks" / "gedcom.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return str(mod.generate(people))


def run(src: Path, args: list[str], cwd: Path, limit: float) -> dict[str, Any]:
    """One `python -m sleuth ARGS` process: wall and CPU seconds, peak RSS in MB, exit code.
    A run past `limit` is killed: wall `inf`, exit code -9."""
    env = dict(os.environ, PYTHONPATH=str(src), COLUMNS="120")
    with open(cwd / "stdout.txt", "wb") as out, open(cwd / "stderr.txt", "wb") as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "sleuth", *args], cwd=cwd, env=env,
                                stdout=out, stderr=err)
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                wall = time.perf_counter() - t0
                rc = os.waitstatus_to_exitcode(status)
                break
            if time.perf_counter() - t0 > limit:
                proc.kill()
                _, status, usage = os.wait4(proc.pid, 0)
                wall, rc = float("inf"), -9
                break
            time.sleep(0.005)
    proc.returncode = rc
    if rc not in (0, -9):
        lines = (cwd / "stderr.txt").read_text(errors="replace").strip().splitlines()
        print(f"  ! sleuth {' '.join(args)} exited {rc}: {lines[-1] if lines else ''}",
              file=sys.stderr)
    return {"s": wall, "cpu": usage.ru_utime + usage.ru_stime,
            "mb": usage.ru_maxrss / 1024, "rc": rc}


def persons(case: Path) -> tuple[int, str]:
    """Persons in a case, and the first person id (for `show`)."""
    con = sqlite3.connect(case / "case.sqlite")
    try:
        n = con.execute("select count(*) from persons").fetchone()[0]
        first = con.execute("select id from persons order by id limit 1").fetchone()
    finally:
        con.close()
    return int(n), first[0] if first else ""


def bench(src: Path, sizes: list[str], repeat: int, limit: float, work: Path) -> list[dict]:
    # Byte-compiled first, as `pip install` leaves a package: a machine that sets
    # PYTHONDONTWRITEBYTECODE (this one does) would otherwise recompile sleuth in every
    # process, about 0.5 s that no installed copy spends.
    compileall.compile_dir(str(src), quiet=1)
    rows: list[dict] = []
    files = dict(FILES)
    if "100k" in sizes:
        gen = work / "generated-100k.ged"
        gen.write_text(_generate(GENERATED), encoding="utf-8")
        files["100k"] = gen
    for name in sizes:
        case = work / f"case-{name}"
        print(f"{name}: ingest {files[name].name}", file=sys.stderr)
        run(src, ["init", str(case)], work, 60)
        r = run(src, ["ingest", str(case), str(files[name])], work, limit)
        n, first = persons(case) if (case / "case.sqlite").exists() else (0, "")
        rows.append({"dataset": name, "command": "ingest", "persons": n, **r})
        if r["rc"] == -9:
            continue
        if name == sizes[0]:
            startup = [("--help", ["--help"]), ("show", ["show", str(case), "person", first]),
                       ("review", ["review", str(case)]), ("sources list", ["sources", "list"])]
            for label, args in startup:
                best = min((run(src, args, work, 60) for _ in range(repeat)),
                           key=lambda x: x["s"])
                rows.append({"dataset": "startup", "command": label, "persons": n, **best})
        commands = [("privacy report", ["privacy", "report", str(case)]),
                    ("export report", ["export", str(case), "--format", "report",
                                       "--out", str(work / f"{name}.md")]),
                    ("export gedcom", ["export", str(case), "--format", "gedcom",
                                       "--out", str(work / f"{name}.ged")]),
                    ("export jsonld", ["export", str(case), "--format", "jsonld",
                                       "--out", str(work / f"{name}.jsonld")]),
                    ("check", ["check", str(case)])]
        for label, args in commands:
            print(f"{name}: {label}", file=sys.stderr)
            rows.append({"dataset": name, "command": label, "persons": n,
                         **run(src, args, work, limit)})
    return rows


def _secs(s: float | None, limit: float) -> str:
    if s is None or s == float("inf"):
        return f"> {limit:.0f} s"
    return f"{s:.2f} s" if s < 100 else f"{s:.0f} s"


def table(rows: list[dict], limit: float) -> str:
    head = (f"{'dataset':<8} {'command':<15}{'persons':>8} {'before':>9}{'MB':>7} |"
            f"{'wall':>9}{'cpu':>9}{'MB':>7}{'ms/pers':>9}{'KB/pers':>8}  target")
    lines = [head, "-" * len(head)]
    base = next((r["mb"] for r in rows if r["command"] == "--help"), 0.0)
    for r in rows:
        b_s, b_mb = BEFORE.get((r["dataset"], r["command"]), (-1.0, 0.0))
        before = ("-", "-") if b_s == -1.0 else (_secs(b_s, BEFORE_LIMIT), f"{b_mb:.0f}")
        n, scale = r["persons"], r["dataset"] != "startup"
        per = f"{r['cpu'] * 1e3 / n:.2f}" if n and scale and r["rc"] == 0 else ""
        kb = f"{max(0.0, r['mb'] - base) * 1024 / n:.0f}" if n and scale else ""
        goal = ""
        if tgt := TARGETS.get((r["dataset"], r["command"])):
            ok = r["s"] < tgt[0] and (tgt[1] is None or r["mb"] < tgt[1])
            goal = (f"< {tgt[0]:.0f} s" + (f", < {tgt[1]:.0f} MB" if tgt[1] else "")
                    + (" met" if ok else " MISSED"))
        fail = "" if r["rc"] in (0, -9) else f" (exit {r['rc']})"
        lines.append(f"{r['dataset']:<8} {r['command']:<15}{n:>8} {before[0]:>9}{before[1]:>7} |"
                     f"{_secs(r['s'], limit):>9}{r['cpu']:>8.1f}s{r['mb']:>7.0f}{per:>9}"
                     f"{kb:>8}  {goal}{fail}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--src", type=Path, default=ROOT / "src", help="the sleuth tree to time")
    ap.add_argument("--sizes", default="kennedy,royal92,100k",
                    help="comma-separated: kennedy, royal92, 100k (the first also times start-up)")
    ap.add_argument("--repeat", type=int, default=3, help="start-up runs (best kept)")
    ap.add_argument("--limit", type=float, default=900.0, help="seconds before a run is stopped")
    ap.add_argument("--json", type=Path, help="also write the rows here")
    a = ap.parse_args(argv)
    sizes = [s.strip() for s in a.sizes.split(",") if s.strip()]
    for s in sizes:
        if s not in (*FILES, "100k"):
            ap.error(f"unknown size {s!r}")
        if s in FILES and not FILES[s].exists():
            ap.error(f"{FILES[s]} is missing (../shared/data)")
    with tempfile.TemporaryDirectory(prefix="sleuth-cli-bench-") as tmp:
        rows = bench(a.src.resolve(), sizes, a.repeat, a.limit, Path(tmp))
    if a.json:
        a.json.write_text(json.dumps(rows, indent=1, default=str), encoding="utf-8")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"sleuth CLI: {a.src}, python {sys.version.split()[0]}, {os.cpu_count()} CPUs, "
          f"load average {load:.1f} at the end")
    print(table(rows, a.limit))
    return 0


if __name__ == "__main__":
    sys.exit(main())
