"""Benchmark: page loads of the review workbench (`sleuth serve`, issue 23) on a large case.

A deterministic tree of N persons (benchmarks/gedcom.py's `generate`, seed 1850; 10,000 by
default) is ingested into a fresh case with a few obituaries whose claims wait for review.
The app is driven in-process through Starlette's TestClient (the HTTP round trip of a real
browser on loopback adds well under a millisecond). First the cold load (the first page after
start: the case read and censored once), then every page type warm: the review queue, the
queue as JSON, the persons list, person pages and source-viewer pages (a sample of persons
and of their citations), each timed per request; then one decision and the pages a reviewer
opens next. Target: every page type's median and p95 under 200 ms warm.

    .venv/bin/python benchmarks/workbench.py                 # 10,000 persons (ingest ~1 min)
    .venv/bin/python benchmarks/workbench.py --persons 2000 --sample 50
"""

from __future__ import annotations

import argparse
import html
import importlib.util
import platform
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

from starlette.testclient import TestClient

from sleuth.cli.common import open_case
from sleuth.pipeline.ingest import ingest_path
from sleuth.store import Store
from sleuth.web.app import create_app

ROOT = Path(__file__).resolve().parent.parent
TARGET_MS = 200.0
OBITUARY = ("Obituary. {name} died on {d} March 1950 in Springfield, Ohio. {pr} was born on "
            "{d} June 1884 in Clark County, Ohio. The funeral was held at Oak Hill Cemetery.\n")


def _generate(people: int) -> str:
    spec = importlib.util.spec_from_file_location("bench_gedcom", ROOT / "benchmarks" / "gedcom.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return str(mod.generate(people))


def build(work: Path, persons: int) -> Path:
    case = work / "case"
    Store.create_case(case).close()
    tree = work / "tree.ged"
    tree.write_text(_generate(persons), encoding="utf-8")
    store = open_case(case)
    try:
        ingest_path(store, tree)
        for i, name in enumerate(("Sarah Giles", "Albert Giles", "Mary Stroud", "John Golden")):
            doc = work / f"obituary-{i}.txt"
            pr = "She" if name.split()[0] in ("Sarah", "Mary") else "He"
            doc.write_text(OBITUARY.format(name=name, d=i + 3, pr=pr), encoding="utf-8")
            ingest_path(store, doc)
    finally:
        store.close()
    return case


def timed(client: TestClient, url: str) -> tuple[float, str]:
    t = time.perf_counter()
    answer = client.get(url)
    ms = (time.perf_counter() - t) * 1000
    assert answer.status_code == 200, (url, answer.status_code)
    return ms, answer.text


def after_a_decision(client: TestClient, person: str) -> dict[str, float]:
    """One decision from the queue's form, then the pages a reviewer opens next (each
    decision changes the case, so what was kept of it is read again)."""
    page = client.get("/review").text
    item = re.search(r'data-item-id="(\d+)"', page)
    csrf = re.search(r'name="csrf" value="([^"]+)"', page)
    assert item and csrf
    t = time.perf_counter()
    answer = client.post(f"/review/{item.group(1)}/accept", follow_redirects=False,
                         data={"csrf": csrf.group(1), "reason": "benchmark"})
    out = {"POST accept": (time.perf_counter() - t) * 1000}
    assert answer.status_code == 303, answer.text[:300]
    out["then /review"], page = timed(client, "/review")
    source = re.search(r'href="(/snapshot/[^"]+)"', page)
    if source:
        out["then its next source"], _ = timed(client, html.unescape(source.group(1)))
    out["then a person"], _ = timed(client, person)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--persons", type=int, default=10_000)
    ap.add_argument("--sample", type=int, default=100, help="person and source pages timed")
    ap.add_argument("--repeat", type=int, default=5, help="loads of each list page")
    args = ap.parse_args(argv)
    rng = random.Random(1850)
    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        case = build(Path(tmp), args.persons)
        built = time.perf_counter() - t
        store = open_case(case)
        try:
            with TestClient(create_app(store), base_url="http://127.0.0.1") as client:
                cold_queue, _ = timed(client, "/review")  # the queue needs no case graph
                cold, _ = timed(client, "/persons")  # reads and censors the whole case
                times: dict[str, list[float]] = {}
                pages: dict[str, str] = {}
                for url in ("/review", "/api/review", "/persons"):
                    for _ in range(args.repeat):
                        ms, pages[url] = timed(client, url)
                        times.setdefault(url, []).append(ms)
                people = re.findall(r'href="(/person/[^"]+)"', pages["/persons"])
                sources: list[str] = []
                for url in rng.sample(people, min(args.sample, len(people))):
                    ms, body = timed(client, url)
                    times.setdefault("/person/{id}", []).append(ms)
                    sources += [html.unescape(u) for u in
                                re.findall(r'href="(/snapshot/[^"]+)"', body)]
                sources += [html.unescape(u) for u in
                            re.findall(r'href="(/snapshot/[^"]+)"', pages["/review"])]
                for url in rng.sample(sources, min(args.sample, len(sources))):
                    ms, _ = timed(client, url)
                    times.setdefault("/snapshot/{id}", []).append(ms)
                after = after_a_decision(client, people[0])
        finally:
            store.close()
    print(f"workbench page loads: {args.persons:,} persons (case built in {built:.1f} s), "
          f"Python {platform.python_version()}, {platform.machine()}")
    print(f"cold: first /review {cold_queue:.0f} ms; first /persons (read and censor the "
          f"whole case, again after each decision) {cold:.0f} ms")
    print(f"{'page':<18}{'loads':>6}{'median ms':>11}{'p95 ms':>9}{'max ms':>9}  target")
    worst = 0.0
    for page, ms in times.items():
        ms.sort()
        p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
        worst = max(worst, p95)
        ok = "ok" if p95 < TARGET_MS else "SLOW"
        print(f"{page:<18}{len(ms):>6}{statistics.median(ms):>11.1f}{p95:>9.1f}{ms[-1]:>9.1f}"
              f"  {ok}")
    print("after one decision (the case changed: what was kept of it is read again):")
    for what, ms in after.items():
        print(f"  {what:<22}{ms:>9.1f} ms")
    return 0 if worst < TARGET_MS else 1


if __name__ == "__main__":
    sys.exit(main())
