"""Benchmark: page loads of the review workbench (`sleuth serve`, issue 23) on a large case.

A deterministic tree of N persons (benchmarks/gedcom.py's `generate`, seed 1850; 10,000 by
default) is ingested into a fresh case with obituaries whose claims wait for review. The app
is driven in-process through Starlette's TestClient (the HTTP round trip of a real browser on
loopback adds well under a millisecond). Start-up reads and censors the case once, as
`sleuth serve` does before it prints its address. Then every page type, each timed per
request: the review queue, the queue as JSON, the persons list, person pages, charts and
source-viewer pages (a sample of persons and of their citations); then `--decisions`
decisions from the queue's form (accept and reject in turn), each followed by the first load
of every page type a reviewer opens next (the case kept and updated, not read again).
Then `--report-decisions` more decisions, each followed by the report's first load (`/report`
and a page in its middle, `/report?page=N`, taking turns to be first): the page asked for,
rendered alone from the case and the Censor's copy the app keeps up to date, in the stable
pages of `sleuth.export.paged` (the whole report's counts summed from per-person parts kept
across decisions). Its peer, timed once at the end: the report made whole again as `/report`
made it after every decision before session 13 (`sleuth export --format html`: read the
case, censor it, render; then cut into pages). Then `--merges` (3) merges of two persons
from the queue's form, each followed by the report's first load, then its split from the
person's page, followed by the same. Target (issue 23): every page type's median and p95
under 200 ms, first loads after a decision included.

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
from sleuth.domains.genealogy.exports import html as full_html
from sleuth.pipeline.ingest import ingest_path
from sleuth.resolve.explain import Proposal
from sleuth.resolve.review import enqueue_proposals
from sleuth.store import Store
from sleuth.store.workbench import clusters_of
from sleuth.web.app import create_app, viewer_links
from sleuth.web.reportpages import paginate

ROOT = Path(__file__).resolve().parent.parent
TARGET_MS = 200.0
OBITUARY = ("Obituary. {name} died on {d} March 1950 in Springfield, Ohio. {pr} was born on "
            "{d} June 1884 in Clark County, Ohio. The funeral was held at Oak Hill Cemetery.\n")

# whose obituaries wait for review: two items each (32 in all, for the decisions timed)
OBITUARIES = ("Sarah Giles", "Albert Giles", "Mary Stroud", "John Golden", "Ann Tolley",
              "Peter Haines", "Ruth Marsh", "Hugh Dunn", "Edith Lane", "Walter Price",
              "Clara Boyd", "Frank Moss", "Alice Reed", "George Hale", "Nora Pike",
              "Henry Cole")
WOMEN = ("Sarah", "Mary", "Ann", "Ruth", "Edith", "Clara", "Alice", "Nora")


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
        for i, name in enumerate(OBITUARIES):
            doc = work / f"obituary-{i}.txt"
            pr = "She" if name.split()[0] in WOMEN else "He"
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


def decide(client: TestClient, n: int) -> tuple[float, str] | None:
    """The `n`th decision, on the queue's first item from its form (accept and reject in
    turn): the POST's time and the item's part of the queue page; None when none is left."""
    page = client.get("/review").text
    item = re.search(r'data-item-id="(\d+)"', page)
    csrf = re.search(r'name="csrf" value="([^"]+)"', page)
    if not item or not csrf:
        return None
    action = "accept" if n % 2 == 0 else "reject"
    t = time.perf_counter()
    answer = client.post(f"/review/{item.group(1)}/{action}", follow_redirects=False,
                         data={"csrf": csrf.group(1), "reason": "benchmark"})
    ms = (time.perf_counter() - t) * 1000
    assert answer.status_code == 303, answer.text[:300]
    return ms, page[item.start():page.find("</li>", item.start())]


def decisions(client: TestClient, people: list[str], count: int,
              rng: random.Random) -> dict[str, list[float]]:
    """`count` decisions from the queue's form, each followed by the first load of each page
    type a reviewer opens next (the decided item's source, a person, the persons list...)."""
    out: dict[str, list[float]] = {}
    for n in range(count):
        done = decide(client, n)
        if done is None:
            break
        out.setdefault("after a decision: POST itself", []).append(done[0])
        source = re.search(r'href="(/snapshot/[^"]+)"', done[1])
        person = rng.choice(people)
        # the first page after a decision brings the kept case up to date: each page type
        # takes that turn in order
        urls = ["/review", "/persons", person, f"{person}/chart?kind=descendants",
                "/api/review", *([html.unescape(source.group(1))] if source else [])]
        turn = n % len(urls)
        for i, url in enumerate(urls[turn:] + urls[:turn]):
            label = f"after a decision: {_kind(url)}" + (" (first)" if i == 0 else "")
            ms, _ = timed(client, url)
            out.setdefault(label, []).append(ms)
    return out


def report_decisions(client: TestClient, count: int, page: int) -> dict[str, list[float]]:
    """`count` more decisions, each followed first by the report (`/report`, or a page of it
    in the middle, `/report?page=N`, in turn) and then the other: the first load after a
    decision renders the report of the case as it now stands."""
    out: dict[str, list[float]] = {}
    for n in range(count):
        if decide(client, n) is None:
            break
        urls = ["/report", f"/report?page={page}"]
        for i, url in enumerate(urls[n % 2:] + urls[:n % 2]):
            label = ("/report" if url == "/report" else "/report?page=N") + (
                " (first)" if i == 0 else " (kept)")
            ms, _ = timed(client, url)
            out.setdefault(f"after a decision: {label}", []).append(ms)
    return out


def merges(client: TestClient, store: Store, count: int, page: int,
           rng: random.Random) -> dict[str, list[float]]:
    """`count` merges of two persons (a proposal put in the queue, accepted from its form; a
    pair the merge refuses, e.g. of different sexes, is rejected and another tried), each
    followed by the report's first load (`/report?page=N`, then `/report`), then the merge's
    split from the person's page, followed by the same two loads."""
    out: dict[str, list[float]] = {}
    bench = client.app.app.state.bench  # type: ignore[attr-defined]
    for _ in range(count):
        while True:
            people = sorted(p.id for p in bench.view.raw().persons if not p.is_living)
            a, b = rng.sample(people, 2)
            enqueue_proposals(store, [Proposal(
                a=a, b=b, probability=0.9, recommended_action="review", features={},
                merge_rationale="benchmark", why_not_merge="benchmark")])
            page_text = client.get("/review", params={"kind": "merge"}).text
            item = re.search(r'data-item-id="(\d+)"', page_text)
            csrf = re.search(r'name="csrf" value="([^"]+)"', page_text)
            if not item or not csrf:
                continue  # a pair already judged "not a match"
            answer = client.post(f"/review/{item.group(1)}/accept", follow_redirects=False,
                                 data={"csrf": csrf.group(1), "reason": "benchmark merge"})
            if answer.status_code == 303:
                break
            client.post(f"/review/{item.group(1)}/reject", follow_redirects=False,
                        data={"csrf": csrf.group(1), "reason": "cannot merge"})
        for label, url in (("/report?page=N (first)", f"/report?page={page}"),
                           ("/report (second)", "/report")):
            ms, _ = timed(client, url)
            out.setdefault(f"after a merge: {label}", []).append(ms)
        pid = bench.view.canonical(a)
        person_page = client.get(f"/person/{pid}").text
        csrf = re.search(r'name="csrf" value="([^"]+)"', person_page)
        (cluster,) = clusters_of(store, pid)
        assert csrf is not None
        answer = client.post(f"/person/{pid}/split", follow_redirects=False, data={
            "csrf": csrf.group(1), "reason": "benchmark split", "cluster": cluster["id"]})
        assert answer.status_code == 303, answer.text[:300]
        for label, url in (("/report?page=N (first)", f"/report?page={page}"),
                           ("/report (second)", "/report")):
            ms, _ = timed(client, url)
            out.setdefault(f"after a split: {label}", []).append(ms)
    return out


def _kind(url: str) -> str:
    if url.startswith("/snapshot/"):
        return "/snapshot/{id}"
    if url.startswith("/person/"):
        return "/person/{id}/chart" if "/chart" in url else "/person/{id}"
    return url.split("?")[0]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--persons", type=int, default=10_000)
    ap.add_argument("--sample", type=int, default=100, help="person and source pages timed")
    ap.add_argument("--repeat", type=int, default=5, help="loads of each list page")
    ap.add_argument("--decisions", type=int, default=16, help="decisions, each then timed")
    ap.add_argument("--report-decisions", type=int, default=6,
                    help="more decisions, each then timed with the report's first load")
    ap.add_argument("--merges", type=int, default=3,
                    help="merges and their splits, each then timed with the report's first "
                         "load")
    args = ap.parse_args(argv)
    rng = random.Random(1850)
    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        case = build(Path(tmp), args.persons)
        built = time.perf_counter() - t
        store = open_case(case)
        try:
            t = time.perf_counter()
            app = create_app(store, case_dir=case, warm=True)  # as `sleuth serve` starts
            start = time.perf_counter() - t
            with TestClient(app, base_url="http://127.0.0.1") as client:
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
                for url in rng.sample(people, min(args.sample // 4, len(people))):
                    for kind in ("ancestors", "descendants"):
                        ms, _ = timed(client, f"{url}/chart?kind={kind}")
                        times.setdefault("/person/{id}/chart", []).append(ms)
                sources += [html.unescape(u) for u in
                            re.findall(r'href="(/snapshot/[^"]+)"', pages["/review"])]
                for url in rng.sample(sources, min(args.sample, len(sources))):
                    ms, _ = timed(client, url)
                    times.setdefault("/snapshot/{id}", []).append(ms)
                log_ms, _ = timed(client, "/log")
                # the report: its first load after start-up (which made its counts and
                # first page, as `sleuth serve` does), then loads kept for this version
                for i in range(1 + args.repeat):
                    ms, body = timed(client, "/report")
                    times.setdefault("/report (first load after start-up)" if i == 0 else
                                     "/report (kept, same case version)", []).append(ms)
                pages = re.search(r"Page 1 of (\d+)", body)
                total = int(pages.group(1)) if pages else 1
                middle = total // 2 + 1
                after = decisions(client, people, args.decisions, rng)
                after |= report_decisions(client, args.report_decisions, middle)
                after |= merges(client, store, args.merges, middle, rng)
                view = app.app.state.bench.view  # type: ignore[attr-defined]
                reloads = view.reloads
                # the peer: the report made whole again, as `/report` made it after every
                # decision before (`sleuth export --format html`: read, censor, render;
                # the viewer's links; cut into pages, every page's links pointed)
                t = time.perf_counter()
                cut = paginate(viewer_links(full_html(store, case)))
                for k in range(1, len(cut.pages) + 1):
                    cut.body(k)
                times["peer: /report made whole again (as before)"] = [
                    (time.perf_counter() - t) * 1000]
        finally:
            store.close()
    print(f"workbench page loads: {args.persons:,} persons (case built in {built:.1f} s), "
          f"Python {platform.python_version()}, {platform.machine()}")
    print(f"start-up (`sleuth serve` reads and censors the case and makes the report's "
          f"counts and first page before it prints its "
          f"address): {start:.1f} s; whole-case reads in all: {reloads}")
    print(f"{'page':<44}{'loads':>6}{'median ms':>11}{'p95 ms':>9}{'max ms':>9}  target")
    worst = 0.0
    for page, ms in [*times.items(), *sorted(after.items())]:
        ms.sort()
        p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
        first_render = page.startswith("peer")
        worst = worst if first_render else max(worst, p95)
        ok = "n/a" if first_render else "ok" if p95 < TARGET_MS else "SLOW"
        print(f"{page:<44}{len(ms):>6}{statistics.median(ms):>11.1f}{p95:>9.1f}{ms[-1]:>9.1f}"
              f"  {ok}")
    print(f"the research log (`/log`, made by the case's domain through the Censor): "
          f"{log_ms:.0f} ms; the report: {total} pages, /report?page=N is page {middle}")
    return 0 if worst < TARGET_MS else 1


if __name__ == "__main__":
    sys.exit(main())
