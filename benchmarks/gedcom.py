"""Benchmark: reading GEDCOM (parse, memory, full load) and writing it, beside three peers.

What: issue #8's interoperability target. Three files: royal92 (PAF 5.5, declared ANSEL, 3,010
people), pres2020 (FTM 5.5.1, UTF-8 with a BOM, CONC/CONT notes) and a 100,000-person 5.5.1
UTF-8 tree generated here, deterministically, in a temporary folder (INDI with NAME, SEX,
BIRT/DEAT with DATE and PLAC, FAM with HUSB/WIFE/CHIL/MARR, SOUR records and citations,
CONC/CONT notes). On each file:

  parse   our `decode_gedcom` + `parse_gedcom` (bytes to a span-keeping tree) against each
          peer's parse into its own object tree: python-gedcom (`Parser.parse_file`), ged4py
          (`GedcomReader.records0`, every sub-record materialised) and gedcom7 (`loads`).
          gedcom7 reads only 7.0 and rejects 5.5.1 `CONC`; for a file with CONC lines it is
          given a 7.0 conversion (CONC folded into its line, header VERS 7.0) made outside
          the timing, and the row is marked so.
  memory  peak RSS growth of a fresh subprocess while it parses (and keeps the tree): every
          parser runs in its own process, so imports and earlier trees do not count (VmHWM,
          reset through /proc/self/clear_refs just before the parse).
  load    our full import of the file's facts: `sleuth.extract.records.gedcom.extract` (the
          tree's INDI/FAM facts as candidates, each cited by its own lines) and the
          hallucination firewall over them (`sleuth.verify.check_candidates`).
  ingest  royal92 only: `ingest_path` into a fresh SQLite case (snapshot, extraction,
          firewall, staging, promotion), once.
  export  `sleuth.export.to_gedcom` of that royal92 case, in 5.5.1 and in 7.0.

How: each timing is warmed up, then repeated (default 5x, 15x for a parse under 0.25 s, one
timed run when a parse is longer than half the budget) with the best kept and the garbage
collector paused, as benchmarks/firewall.py does. Parse timings run in the same subprocess as
their memory reading (memory first, from the cold run).

Targets (issue #8): our parse at least 2x faster than the fastest peer on every file, with
peak memory no worse than the leanest peer's; export speed reported.

    .venv/bin/python benchmarks/gedcom.py            # full run, 100k generated people (~5 min)
    .venv/bin/python benchmarks/gedcom.py --quick    # 20k people, fewer repeats (~1.5 min)

Last measured (full run, --no-ingest, python 3.11, a shared 2-core machine; parse / peak RSS):

    file             sleuth           fastest peer                leanest peer
    royal92          21 ms /   5 MB   gedcom7 75 ms (3.6x)        gedcom7   6 MB
    pres2020         40 ms /  11 MB   python-gedcom 131 ms (3.2x) gedcom7  13 MB
    generated 100k  1.16 s / 274 MB   python-gedcom 3.9 s (3.4x)  gedcom7 329 MB

Our memory was 9 / 16 / 445 MB while each node held three offsets and its value string; the
reader now keeps one table of line starts per tree and reads a node's offsets and value from
the text (src/sleuth/gedcom/reader.py).

Peers are a `bench` extra, never imported by `src/`: python-gedcom==1.1.0, ged4py==0.5.5,
gedcom7==1.2.0.
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import date
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

# This file is named like python-gedcom's package: drop its folder from the import path.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent.resolve()]
SAMPLES = Path("/work/shared/data/gedcom/samples")
PEERS = ("python-gedcom", "ged4py", "gedcom7")
PARSERS = ("sleuth", *PEERS)
TARGET = 2.0
TODAY = date(2026, 1, 1)  # fixed, so the Censor's living cut-off does not move between runs


# -- a generated tree ------------------------------------------------------------------------

GIVEN_M = ["John", "William", "James", "George", "Thomas", "Henry", "José", "Jürgen", "Pierre",
           "Charles", "Edward", "Samuel", "Joseph", "Robert", "Walter", "Arthur"]
GIVEN_F = ["Mary", "Elizabeth", "Anna", "Sarah", "Margaret", "Catherine", "Zoë", "Hélène",
           "Martha", "Emma", "Alice", "Ellen", "Jane", "Ruth", "Clara", "Agnes"]
SURNAMES = ["Smith", "Müller", "Brown", "O'Neill", "Dubois", "Taylor", "Johansson", "García",
            "Wilson", "Moore", "Clark", "Lewis", "Walker", "Hall", "Young", "King", "Wright",
            "Nowak", "Kowalski", "van der Berg"]
PLACES = ["Boston, Suffolk, Massachusetts, USA", "Leeds, Yorkshire, England",
          "Lyon, Rhône, France", "Köln, Nordrhein-Westfalen, Germany", "Dublin, Ireland",
          "Springfield, Sangamon, Illinois, USA", "Uppsala, Sweden", "Kraków, Poland",
          "Sevilla, Andalucía, Spain", "Hartford, Connecticut, USA"]
MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]
LOREM = ("was a farmer and later kept the inn by the river; the parish register spells the "
         "name three different ways and the census of that year lists a lodger who may be a "
         "brother. Letters kept by the family mention a journey west that no record confirms.")


def _date(rng: random.Random, year: int) -> str:
    roll = rng.random()
    if roll < 0.6:
        return f"{rng.randint(1, 28)} {rng.choice(MONTHS)} {year}"
    if roll < 0.8:
        return f"ABT {year}"
    if roll < 0.9:
        return f"BET {year} AND {year + 2}"
    return f"{rng.choice(MONTHS)} {year}"


def generate(people: int, seed: int = 1850) -> str:
    """A 5.5.1 UTF-8 tree of `people` persons in families of 1-5 children, with sources."""
    rng = random.Random(seed)
    n_sources = max(10, people // 200)
    sex = ["M" if i % 2 == 0 else "F" for i in range(people)]
    born = [0] * people
    famc: dict[int, int] = {}
    fams: dict[int, list[int]] = {}
    families: list[tuple[int, int, list[int]]] = []
    child = 2  # persons 0..1 found the tree; everyone after is somebody's child
    husband = 0  # an even index (a man); his wife is the next person
    while child < people:
        if husband + 1 >= child:  # never a parent who is not born yet: a founder remarries
            husband = 2 * rng.randrange(child // 2)
        wife = husband + 1
        kids = list(range(child, min(people, child + rng.randint(1, 5))))
        f = len(families)
        families.append((husband, wife, kids))
        fams.setdefault(husband, []).append(f)
        fams.setdefault(wife, []).append(f)
        base = born[husband] or rng.randint(1700, 1750)
        base = 1700 + (base - 1700) % 220  # deep lines wrap round rather than reach 2600
        born[husband] = born[husband] or base
        born[wife] = born[wife] or base + rng.randint(-5, 5)
        for k in kids:
            famc[k] = f
            born[k] = base + rng.randint(20, 40)
        child = kids[-1] + 1
        husband += 2
    out = ["0 HEAD", "1 SOUR SLEUTH_BENCH", "2 VERS 1.0", "1 GEDC", "2 VERS 5.5.1",
           "2 FORM LINEAGE-LINKED", "1 CHAR UTF-8", f"1 NOTE Generated tree of {people} people",
           f"2 CONT for benchmarks/gedcom.py; deterministic (seed {seed})."]
    for s in range(1, n_sources + 1):
        out += [f"0 @S{s}@ SOUR", f"1 TITL Parish register of {rng.choice(PLACES)}, vol. {s}",
                f"1 AUTH {rng.choice(SURNAMES)} Record Society", "1 PUBL Typescript, 1931",
                f"1 NOTE Transcribed from the original; gaps for {1700 + s % 200}-",
                f"2 CONC {1710 + s % 200} where the pages are water-damaged."]
    for i in range(people):
        given = rng.choice(GIVEN_M if sex[i] == "M" else GIVEN_F)
        middle = f" {rng.choice(GIVEN_M + GIVEN_F)}" if rng.random() < 0.3 else ""
        out += [f"0 @I{i + 1}@ INDI", f"1 NAME {given}{middle} /{rng.choice(SURNAMES)}/",
                f"1 SEX {sex[i]}", "1 BIRT", f"2 DATE {_date(rng, born[i] or 1720)}",
                f"2 PLAC {rng.choice(PLACES)}"]
        if rng.random() < 0.4:
            out += [f"2 SOUR @S{rng.randint(1, n_sources)}@", f"3 PAGE p. {rng.randint(1, 400)}"]
        if rng.random() < 0.7:
            out += ["1 DEAT", f"2 DATE {_date(rng, (born[i] or 1720) + rng.randint(1, 90))}",
                    f"2 PLAC {rng.choice(PLACES)}"]
            if rng.random() < 0.3:
                out += [f"2 SOUR @S{rng.randint(1, n_sources)}@",
                        f"3 PAGE entry {rng.randint(1, 900)}", "3 DATA",
                        f"4 TEXT Buried {given} aged {rng.randint(1, 90)}"]
        if rng.random() < 0.1:
            cut = rng.randint(40, 120)
            out += [f"1 NOTE {given} {LOREM[:cut]}", f"2 CONC {LOREM[cut:]}",
                    "2 CONT Family tradition, not verified."]
        if i in famc:
            out.append(f"1 FAMC @F{famc[i] + 1}@")
        out += [f"1 FAMS @F{f + 1}@" for f in fams.get(i, [])]
    for f, (h, w, kids) in enumerate(families):
        out += [f"0 @F{f + 1}@ FAM", f"1 HUSB @I{h + 1}@", f"1 WIFE @I{w + 1}@"]
        out += [f"1 CHIL @I{k + 1}@" for k in kids]
        out += ["1 MARR", f"2 DATE {_date(rng, (born[h] or 1720) + rng.randint(18, 35))}",
                f"2 PLAC {rng.choice(PLACES)}"]
    out.append("0 TRLR")
    return "\n".join(out) + "\n"


def to_gedcom7(text: str) -> str:
    """The nearest 7.0 text for gedcom7, which rejects 5.5.1 CONC: each CONC folded into the
    line it continues, the header's GEDC VERS set to 7.0, CHAR dropped."""
    out: list[str] = []
    head = True
    for line in text.lstrip("\ufeff").splitlines():
        parts = line.split(" ", 2)
        if len(parts) >= 2 and parts[1] == "CONC" and out:
            prev = out[-1].split(" ")
            bare = len(prev) <= (3 if prev[1].startswith("@") else 2)  # no value yet
            out[-1] += (" " if bare else "") + (parts[2] if len(parts) > 2 else "")
            continue
        if head and line.startswith("0 ") and out:
            head = False
        if head and line.startswith("1 CHAR"):
            continue
        out.append(line)
    # 7.0 has no empty payload after a delimiter: `0 @N1@ NOTE ` loses its trailing space
    text = "\n".join(x[:-1] if x.endswith(" ") and len(x.split(" ")) <= 4 else x for x in out)
    text += "\n"
    return text.replace("1 GEDC\n2 VERS 5.5.1", "1 GEDC\n2 VERS 7.0", 1).replace(
        "1 GEDC\n2 VERS 5.5", "1 GEDC\n2 VERS 7.0", 1
    )


# -- one parser in a subprocess ----------------------------------------------------------------


def _status_mb(field: str) -> float:
    """VmRSS / VmHWM of this process in MB (Linux)."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    raise RuntimeError(f"no {field} in /proc/self/status")


def _reset_peak() -> None:
    """Start VmHWM again from the current RSS (ru_maxrss would carry the parent's peak)."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass  # an older kernel: the peak then includes the imports, for every parser alike


def _parser(name: str, path: Path) -> tuple[Callable[[], object], Callable[[object], int]]:
    """A call that parses the file into the parser's own tree, and a node count of that tree
    (outside the timing)."""
    if name == "sleuth":
        from sleuth.gedcom import decode_gedcom, parse_gedcom

        raw = path.read_bytes()
        return (lambda: parse_gedcom(decode_gedcom(raw).text),
                lambda g: sum(1 for r in g.records for _ in r.walk()))  # type: ignore[attr-defined]
    if name == "python-gedcom":
        from gedcom.parser import Parser

        def pg() -> object:
            p = Parser()
            p.parse_file(str(path), strict=False)
            return p

        return pg, lambda p: len(p.get_element_list())  # type: ignore[attr-defined]
    if name == "ged4py":
        from ged4py.parser import GedcomReader

        def g4() -> object:
            with GedcomReader(str(path)) as reader:  # records0 builds each record's whole tree
                return list(reader.records0())

        def walk(rec: object) -> int:
            return 1 + sum(walk(s) for s in rec.sub_records)  # type: ignore[attr-defined]

        return g4, lambda recs: sum(walk(r) for r in recs)  # type: ignore[attr-defined]
    if name == "gedcom7":
        import gedcom7

        raw = path.read_bytes()

        def walk7(s: object) -> int:
            return 1 + sum(walk7(c) for c in s.children)  # type: ignore[attr-defined]

        return (lambda: gedcom7.loads(raw.decode("utf-8")),
                lambda recs: sum(walk7(r) for r in recs))  # type: ignore[attr-defined]
    raise ValueError(name)


def child(name: str, path: Path, repeat: int, budget: float) -> dict[str, object]:
    """Memory from the cold first parse (tree kept), then best-of timings, GC paused."""
    try:
        fn, count = _parser(name, path)
        gc.collect()
        before = _status_mb("VmRSS")
        _reset_peak()
        t0 = time.perf_counter()
        tree = fn()
        first = time.perf_counter() - t0
        peak = _status_mb("VmHWM") - before
        nodes = count(tree)
        del tree
    except Exception as exc:  # a peer that cannot read the file is a result, not a crash
        return {"ok": False, "error": f"{type(exc).__name__}: {str(exc)[:90]}"}
    times: list[float] = []
    # Short parses are cheap to repeat and most exposed to a busy machine: at least 15 runs.
    wanted = repeat if first > 0.25 else max(repeat, 15)
    gc.collect()
    gc.disable()
    try:
        while True:  # the cold run was the warm-up; a long parse gets one timed run
            t0 = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t0)
            if len(times) >= wanted or first + sum(times) >= budget:
                break
    finally:
        gc.enable()
    return {"ok": True, "nodes": nodes, "best_s": min(times), "runs": len(times),
            "rss_mb": peak}


def measure(name: str, path: Path, repeat: int, budget: float) -> dict[str, object]:
    cmd = [sys.executable, __file__, "--child", name, str(path), "--repeat", str(repeat),
           "--budget", str(budget)]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode:
        return {"ok": False, "error": (done.stderr.strip().splitlines() or ["crashed"])[-1]}
    return json.loads(done.stdout.strip().splitlines()[-1])


# -- our load, ingest and export ---------------------------------------------------------------


def best_time(fn: Callable[[], object], repeat: int) -> float:
    fn()  # warm-up
    best = float("inf")
    gc.disable()
    try:
        for _ in range(repeat):
            t0 = time.perf_counter()
            fn()
            best = min(best, time.perf_counter() - t0)
    finally:
        gc.enable()
    return best


def once(fn: Callable[[], object]) -> tuple[float, object]:
    gc.disable()
    try:
        t0 = time.perf_counter()
        out = fn()
        return time.perf_counter() - t0, out
    finally:
        gc.enable()


def load_times(path: Path) -> dict[str, float | int]:
    """Extract (parse included) and firewall, once each: on a big tree one run is minutes."""
    from sleuth.extract.records.gedcom import extract
    from sleuth.sources import load_file
    from sleuth.verify import Source, check_candidates

    snap = load_file(path).snapshot
    t_ex, cands = once(lambda: extract(snap))
    sources = {snap.id: Source.of(snap.text)}
    batches = [cands[i : i + 50_000] for i in range(0, len(cands), 50_000)]  # type: ignore[index]
    rejected = 0
    t_fw = 0.0
    for batch in batches:  # a report per batch, dropped: a million checked copies is gigabytes
        t, report = once(lambda b=batch: check_candidates(b, sources))
        t_fw += t
        rejected += len(report.rejected)  # type: ignore[attr-defined]
    return {"extract_s": t_ex, "firewall_s": t_fw, "candidates": len(cands),  # type: ignore[arg-type]
            "rejected": rejected}


def ingest_and_export(path: Path, repeat: int, where: Path) -> dict[str, float | int]:
    from sleuth.export import to_gedcom
    from sleuth.pipeline.ingest import ingest_path
    from sleuth.store import Store, case_graph

    store = Store.create_case(where)
    try:
        t_in, _ = once(lambda: ingest_path(store, path))
        graph = case_graph(store, title=path.name)
    finally:
        store.close()
    out: dict[str, float | int] = {"ingest_s": t_in, "persons": len(graph.persons)}
    for v in ("5.5.1", "7.0"):
        text = to_gedcom(graph, version=v, today=TODAY)
        out[f"export_{v}_s"] = best_time(lambda v=v: to_gedcom(graph, version=v, today=TODAY),
                                         repeat)
        out[f"export_{v}_lines"] = text.count("\n")
    return out


# -- report ----------------------------------------------------------------------------------


def _ms(s: float) -> str:
    return f"{s * 1e3:,.0f} ms" if s < 10 else f"{s:,.1f} s"


def _pin(pkg: str) -> str:
    try:
        return f"{pkg} {version(pkg)}"
    except PackageNotFoundError:
        return f"{pkg} (not installed)"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="20k generated people, fewer repeats")
    ap.add_argument("--people", type=int, default=None, help="generated people (default 100k)")
    ap.add_argument("--repeat", type=int, default=None, help="timed repetitions, best kept")
    ap.add_argument("--budget", type=float, default=None,
                    help="seconds of repeats per parse measurement (default 20, quick 5)")
    ap.add_argument("--no-ingest", action="store_true", help="skip royal92 ingest and export")
    ap.add_argument("--child", nargs=2, metavar=("PARSER", "FILE"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    repeat = args.repeat or (3 if args.quick else 5)
    budget = args.budget or (5.0 if args.quick else 20.0)
    if args.child:
        print(json.dumps(child(args.child[0], Path(args.child[1]), repeat, budget)))
        return 0
    people = args.people or (20_000 if args.quick else 100_000)
    t_start = time.perf_counter()
    print("sleuth GEDCOM benchmark")
    print(f"python {platform.python_version()} on {platform.machine()}; best of {repeat} (of 15 "
          f"for a parse under 0.25 s, of 1 for one over {budget / 2:g} s) after a warm-up, GC "
          f"paused; "
          f"{', '.join(_pin(p) for p in PEERS)}")
    with tempfile.TemporaryDirectory(prefix="sleuth-bench-") as tmp:
        where = Path(tmp)
        gen = where / f"generated-{people // 1000}k.ged"
        gen.write_text(generate(people), encoding="utf-8")
        files = [("royal92", SAMPLES / "royal92.ged"), ("pres2020", SAMPLES / "pres2020.ged"),
                 (f"generated {people // 1000}k", gen)]
        print("files: " + "; ".join(f"{label} {p.stat().st_size / 1e6:.1f} MB" for label, p
                                    in files))
        print()
        head = (f"{'file':>14} | {'parser':>13} | {'parse':>9} | {'runs':>4} | {'vs sleuth':>9} | "
                f"{'peak RSS':>9} | {'nodes':>9} | note")
        print(head)
        print("-" * len(head))
        verdicts: list[str] = []
        for label, path in files:
            rows: dict[str, dict[str, object]] = {}
            for name in PARSERS:
                target, note = path, ""
                if name == "gedcom7" and " CONC " in path.read_text("utf-8", "replace"):
                    target = where / f"{path.stem}-as-7.0.ged"
                    target.write_text(to_gedcom7(path.read_bytes().decode("utf-8")), "utf-8")
                    note = "on a 7.0 conversion (gedcom7 rejects 5.5.1 CONC)"
                r = measure(name, target, repeat, budget)
                r["note"] = note
                rows[name] = r
            ours = rows["sleuth"]
            for name, r in rows.items():
                if not r["ok"]:
                    print(f"{label:>14} | {name:>13} | {'n/a':>9} | {'':>4} | {'':>9} | {'':>9} | "
                          f"{'':>9} | cannot read it: {r['error']}")
                    continue
                ratio = float(r["best_s"]) / float(ours["best_s"])  # type: ignore[arg-type]
                print(f"{label:>14} | {name:>13} | {_ms(float(r['best_s'])):>9} | "  # type: ignore[arg-type]
                      f"{r['runs']:>4} | "
                      f"{ratio:>8.1f}x | {float(r['rss_mb']):>6.0f} MB | "  # type: ignore[arg-type]
                      f"{int(r['nodes']):>9,} | {r['note']}")  # type: ignore[call-overload]
            peers = [(n, r) for n, r in rows.items() if n != "sleuth" and r["ok"]]
            if peers and ours["ok"]:
                fast, fr = min(peers, key=lambda p: float(p[1]["best_s"]))  # type: ignore[arg-type]
                speed = float(fr["best_s"]) / float(ours["best_s"])  # type: ignore[arg-type]
                lean = min(float(r["rss_mb"]) for _, r in peers)  # type: ignore[arg-type]
                verdicts.append(
                    f"{label}: {speed:.1f}x the fastest peer ({fast}) "
                    f"{'ok' if speed >= TARGET else 'MISS'}; memory {float(ours['rss_mb']):.0f} "  # type: ignore[arg-type]
                    f"MB vs leanest peer {lean:.0f} MB "
                    f"{'ok' if float(ours['rss_mb']) <= lean else 'MISS'}"  # type: ignore[arg-type]
                )
        print()
        print("parse: our decode_gedcom + parse_gedcom from bytes vs each peer's parse of the "
              "file into its tree;")
        print("'vs sleuth' = peer time / our time; peak RSS = growth of a fresh process while "
              "parsing and keeping the tree.")
        print("our tree also holds the decoded text and a table of where each line starts "
              "(4 B a line), from")
        print("which every node's line, character span and value are read: every citation "
              "needs them, no peer keeps them.")
        print(f"target: >= {TARGET:g}x the fastest peer, memory no worse than the leanest peer")
        for v in verdicts:
            print(f"  {v}")
        print()
        head2 = (f"{'file':>14} | {'extract':>9} | {'firewall':>9} | {'candidates':>10} | "
                 f"{'rejected':>8} | {'cand/s':>8}")
        print("our full load: extract (parse included) = INDI/FAM facts as cited candidates; "
              "firewall = the ten checks on all of them (one run each)")
        print(head2)
        print("-" * len(head2))
        for label, path in files:
            r2 = load_times(path)
            total = float(r2["extract_s"]) + float(r2["firewall_s"])
            print(f"{label:>14} | {_ms(float(r2['extract_s'])):>9} | "
                  f"{_ms(float(r2['firewall_s'])):>9} | {int(r2['candidates']):>10,} | "
                  f"{int(r2['rejected']):>8} | {int(r2['candidates']) / total:>8,.0f}")
        if not args.no_ingest:
            print()
            r3 = ingest_and_export(SAMPLES / "royal92.ged", repeat, where / "case")
            print(f"royal92 ingest_path into a fresh SQLite case: {_ms(float(r3['ingest_s']))} "
                  f"(once; {int(r3['persons']):,} persons)")
            for v in ("5.5.1", "7.0"):
                print(f"royal92 case to_gedcom {v:>5}: {_ms(float(r3[f'export_{v}_s'])):>8} "
                      f"({int(r3[f'export_{v}_lines']):,} lines; best of {repeat})")
    print(f"total run time {time.perf_counter() - t_start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
