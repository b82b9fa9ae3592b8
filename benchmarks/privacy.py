"""Benchmark: living-person detection against Gramps 6, and the Censor's throughput.

1. Agreement with Gramps' own `probably_alive` on the Gramps example tree
   (/work/shared/data/gedcom/gramps/example.ged, 2157 persons, living and dead mixed). Gramps
   6 (GRAMPS_PYTHON, default /opt/gramps-venv/bin/python) imports the file into a throw-away
   database under a temporary GRAMPSHOME and prints `probably_alive(person, db, today)` for
   everyone; sleuth reads the same file (`sleuth.quality.tree_from_gedcom`) and runs
   `explain_living` under each rule. Table: both living, both dead, only sleuth, only Gramps;
   then the differences grouped by sleuth's deciding rule and Gramps' explanation. Target:
   `rule=gramps` agrees on >= 98% of persons, and `strictest` has no "only Gramps" person
   (sleuth is at least as careful as Gramps). Gramps' output stays in the temporary folder.
2. Redaction throughput: `censor()` on a generated 100,000-person case graph (five-generation
   families, day-precise dates, contact claims for a tenth of the persons, one snapshot per
   family), persons per second, best of N after a warm-up, garbage collector paused. Target:
   >= 10,000 persons/s.

    .venv/bin/python benchmarks/privacy.py             # both parts (about 2 minutes)
    .venv/bin/python benchmarks/privacy.py --quick     # 20,000 persons, 1 run
    .venv/bin/python benchmarks/privacy.py --skip-gramps
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import os
import platform
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from sleuth.model import Assertion, CaseGraph, Citation, GenDate, Locator, Person, Snapshot
from sleuth.privacy import PrivacyPolicy, censor, explain_living
from sleuth.quality import tree_from_gedcom
from sleuth.quality.tree import Tree

EXAMPLE = Path("/work/shared/data/gedcom/gramps/example.ged")
GRAMPS_PYTHON = Path(os.environ.get("GRAMPS_PYTHON", "/opt/gramps-venv/bin/python"))
TODAY = date(2025, 6, 1)
RULES = ("gramps", "strictest", "familysearch", "seed")
AGREEMENT_TARGET = 0.98
THROUGHPUT_TARGET = 10_000

GRAMPS_SCRIPT = r'''
import json, sys
from gramps.gen.db.utils import open_database
from gramps.gen.lib.date import Date
from gramps.gen.utils.alive import probably_alive
db = open_database(sys.argv[1], force_unlock=True)
today = Date()
today.set_yr_mon_day(*map(int, sys.argv[2:5]))
for person in db.iter_people():
    alive, birth, death, why, rel = probably_alive(person, db, today, return_range=True)
    print(json.dumps({"id": person.gramps_id, "alive": bool(alive), "why": why}))
'''


# -- part 1: agreement with Gramps -----------------------------------------------------------


def gramps_verdicts(path: Path, today: date) -> dict[str, tuple[bool, str]]:
    """Gramps 6's probably_alive for each person of a GEDCOM file (gramps_id -> verdict)."""
    with tempfile.TemporaryDirectory(prefix="sleuth-gramps-") as home:
        env = {**os.environ, "GRAMPSHOME": home, "LANG": "C.UTF-8"}
        gramps = GRAMPS_PYTHON.parent / "gramps"
        subprocess.run([str(gramps), "-y", "-C", "bench", "-i", str(path)], env=env,
                       check=True, capture_output=True)
        script = Path(home) / "alive.py"
        script.write_text(GRAMPS_SCRIPT)
        out = subprocess.run(
            [str(GRAMPS_PYTHON), str(script), "bench", str(today.year), str(today.month),
             str(today.day)], env=env, check=True, capture_output=True, text=True,
        ).stdout
    rows = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    return {r["id"]: (r["alive"], r["why"]) for r in rows}


def graph_from_tree(tree: Tree) -> CaseGraph:
    """The tree's persons, links and dated events as a CaseGraph (as `living_in_tree` does)."""
    persons: list[Person] = []
    claims: dict[str, list[Assertion]] = {}
    for p in tree.persons.values():
        parents = {s for f in p.famc[:1] for s in tree.families[f].spouses if s != p.id}
        spouses = {s for f in p.fams for s in tree.families[f].spouses if s != p.id}
        children = {c for f in p.fams for c in tree.families[f].children if c != p.id}
        death = p.death.gd if p.death else (GenDate() if p.has_death else None)
        persons.append(Person(id=p.id, sex=p.sex, birth=p.birth.gd if p.birth else None,
                              death=death, parents=parents, spouses=spouses, children=children))
        events = [(lbl, s) for lbl, s in p.events if lbl not in ("birth", "death")]
        for f in p.fams:
            if (m := tree.families[f].marriage) is not None:
                events.append(("marriage", m))
        claims[p.id] = [
            Assertion(entity_id=p.id, field_name=f"{lbl}_date", value=s.gd.original,
                      date=s.gd, confidence=0.5)
            for lbl, s in events
        ]
    return CaseGraph(persons=persons, assertions=claims)


def _why_kind(text: str) -> str:
    """A short label for an explanation, for grouping."""
    for key in ("no evidence", "Direct evidence", "descendant", "ancestor", "spouse",
                "inferred from parents", "relative of a living", "latest possible birth",
                "born no later", "FamilySearch", "modern", "death/burial", "explicitly"):
        if key.lower() in text.lower():
            return key
    return text[:40]


def agreement(skip: bool) -> None:
    if skip or not EXAMPLE.exists() or not GRAMPS_PYTHON.exists():
        print("agreement with Gramps: skipped (needs", EXAMPLE, "and", GRAMPS_PYTHON, ")\n")
        return
    t0 = time.perf_counter()
    theirs = gramps_verdicts(EXAMPLE, TODAY)
    t_gramps = time.perf_counter() - t0
    graph = graph_from_tree(tree_from_gedcom(EXAMPLE))
    print(f"Gramps example tree: {len(graph.persons)} persons, today {TODAY}; Gramps 6 "
          f"import + probably_alive {t_gramps:.1f} s")
    head = f"{'rule':<13}{'both living':>12}{'both dead':>11}{'only sleuth':>13}" \
           f"{'only Gramps':>13}{'agree':>8}{'sleuth s':>10}"
    print(head)
    print("-" * len(head))
    diffs: dict[str, Counter[tuple[str, str, str]]] = {}
    for rule in RULES:
        t0 = time.perf_counter()
        ours = explain_living(graph, today=TODAY, policy=PrivacyPolicy(rule=rule))  # type: ignore[arg-type]
        took = time.perf_counter() - t0
        cells: Counter[str] = Counter()
        diffs[rule] = Counter()
        for pid, v in ours.items():
            g_alive, g_why = theirs.get(pid, (True, "missing in Gramps"))
            key = {(True, True): "both living", (False, False): "both dead",
                   (True, False): "only sleuth", (False, True): "only Gramps"}[(v.living, g_alive)]
            cells[key] += 1
            if v.living != g_alive:
                diffs[rule][(key, f"{v.rule}: {_why_kind(v.reason)}", _why_kind(g_why))] += 1
        n = len(ours)
        agree = (cells["both living"] + cells["both dead"]) / n
        print(f"{rule:<13}{cells['both living']:>12}{cells['both dead']:>11}"
              f"{cells['only sleuth']:>13}{cells['only Gramps']:>13}{agree:>8.1%}{took:>10.2f}")
    for rule in ("gramps", "strictest"):
        print(f"\ndifferences under rule={rule} (count, side, sleuth's rule: reason, Gramps' why):")
        for (side, ours_why, their_why), count in diffs[rule].most_common():
            print(f"  {count:>5}  {side:<12} {ours_why:<40} Gramps: {their_why}")
    print()


# -- part 2: throughput -----------------------------------------------------------------------


def generated_graph(n: int, seed: int = 7) -> CaseGraph:
    """n persons in families of five generations from 1850, with claims and snapshots."""
    rng = random.Random(seed)
    persons: list[Person] = []
    claims: dict[str, list[Assertion]] = {}
    snaps: dict[str, Snapshot] = {}
    accessed = datetime(2024, 3, 1, tzinfo=UTC)
    i = 0
    while i < n:
        fam = f"f{i}"
        size = min(n - i, 15)
        ids = [f"p{i + k}" for k in range(size)]
        lines: list[str] = []
        spans: list[tuple[str, str, str, GenDate | None, int, int]] = []
        for k, pid in enumerate(ids):
            gen = min(k // 3, 4)
            born = date(1850 + 30 * gen, 1, 1) + timedelta(days=rng.randrange(365 * 20))
            died = born + timedelta(days=rng.randrange(365 * 40, 365 * 95))
            facts = [("birth_date", born.strftime("%d %B %Y"), GenDate.from_parts(
                born.year, born.month, born.day))]
            if died < TODAY and rng.random() < 0.8:
                facts.append(("death_date", died.strftime("%d %B %Y"), GenDate.from_parts(
                    died.year, died.month, died.day)))
            facts.append(("birth_place", "Springfield, Sangamon, Illinois, USA", None))
            if rng.random() < 0.1:
                facts += [("address", f"{rng.randrange(1, 999)} Maple Avenue", None),
                          ("phone", f"(217) 555-{rng.randrange(10000):04d}", None),
                          ("email", f"{pid}@example.org", None)]
            for field, value, gd in facts:
                line = f"{pid} {field.replace('_', ' ')}: {value}."
                start = sum(len(x) + 1 for x in lines)
                lines.append(line)
                spans.append((pid, field, value, gd, start, start + len(line)))
        text = "\n".join(lines)
        sid = f"s{fam}"
        snaps[sid] = Snapshot(id=sid, sha256=hashlib.sha256(text.encode()).hexdigest(),
                              source_name=f"Family register {fam}", text=text,
                              accessed_at=accessed)
        for pid, field, value, gd, a, b in spans:
            claims.setdefault(pid, []).append(Assertion(
                entity_id=pid, field_name=field, value=value, date=gd, confidence=0.9,
                citations=[Citation(snapshot_id=sid, excerpt=text[a:b],
                                    locator=Locator(start=a, end=b))]))
        for k, pid in enumerate(ids):
            gen = min(k // 3, 4)
            parents = {ids[3 * (gen - 1)], ids[3 * (gen - 1) + 1]} if gen else set()
            children = {ids[j] for j in range(size) if j // 3 == gen + 1 and gen < 4
                        and k % 3 < 2} if k % 3 < 2 else set()
            spouses = {ids[k + 1 if k % 3 == 0 else k - 1]} if k % 3 < 2 and k + 1 < size else set()
            first = claims[pid][0]
            persons.append(Person(id=pid, canonical_name=f"Person {pid}", birth=first.date,
                                  parents=parents - {pid}, children=children - {pid},
                                  spouses=spouses - {pid}))
        i += size
    return CaseGraph(title="generated", persons=persons, assertions=claims, snapshots=snaps)


def throughput(n: int, runs: int) -> None:
    t0 = time.perf_counter()
    graph = generated_graph(n)
    built = time.perf_counter() - t0
    censor(generated_graph(2000), today=TODAY)  # warm-up
    best = float("inf")
    living = 0
    for _ in range(runs):
        gc.disable()
        t0 = time.perf_counter()
        out = censor(graph, today=TODAY)
        best = min(best, time.perf_counter() - t0)
        gc.enable()
        living = sum(1 for p in out.persons if p.is_living)
    rate = n / best
    head = (f"{'persons':>9}{'living':>9}{'snapshots':>11}{'censor s':>10}{'persons/s':>11}"
            f"{'target':>9}")
    print(f"Censor throughput (generated graph built in {built:.1f} s, best of {runs})")
    print(head)
    print("-" * len(head))
    ok = "ok" if rate >= THROUGHPUT_TARGET else "MISS"
    print(f"{n:>9}{living:>9}{len(graph.snapshots):>11}{best:>10.2f}{rate:>11,.0f}"
          f"{ok:>9}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--skip-gramps", action="store_true")
    ap.add_argument("--persons", type=int, default=100_000)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}, {sys.platform}\n")
    agreement(args.skip_gramps)
    n, runs = (20_000, 1) if args.quick else (args.persons, args.runs)
    throughput(n, runs)


if __name__ == "__main__":
    main()
