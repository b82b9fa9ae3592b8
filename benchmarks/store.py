"""Benchmark: bulk-loading the case store through SQLAlchemy Core vs raw sqlite3, and reads.

For each row count N (default 100k, then 1M if the 100k run predicts the whole run stays
within ~3 minutes; the 1M part alone takes about 2 minutes on a 2-core VM):

  (a) sleuth: a fresh case file from `Store.open_url` (Alembic migration, guard triggers,
      WAL / synchronous=NORMAL / foreign_keys=ON), one snapshot via `store.put_snapshot`, N/20
      persons; then N assertions, each with one citation, inserted with SQLAlchemy Core
      executemany (`conn.execute(insert(schema.assertions), rows)`, then citations) in one
      transaction;
  (b) the peer: the same rows as tuples through `sqlite3.executemany` into another freshly
      migrated file with the same PRAGMAs, in one transaction;
  (c) reads: `sleuth.store.person_page(store, person_id)` on the largest sleuth store, for 50
      random persons (about 20 assertions and citations each): median and p95;
  (d) what users run: `sleuth.pipeline.ingest.ingest_path` (the code behind `sleuth ingest`)
      on real files from ../shared/data (three 1916 newspaper pages, a FreeREG register CSV,
      kennedy.ged and royal92.ged), each into a fresh case: seconds, candidates, candidates
      stored per second, and the SQL statements it sends (an `executemany` counts once; its
      rows are counted apart), so the bulk rates in (a) can be read beside the path `ingest`
      really takes. A warm-up ingest of another page runs first and is not timed.

Row preparation (ids, dicts, tuples) is timed separately and excluded from the insert rates.
The GC is paused during preparation and timing (both sides alike). Only a temp dir is written.

    .venv/bin/python benchmarks/store.py           # 100k, and 1M if the run fits ~3 min
    .venv/bin/python benchmarks/store.py --full    # 100k and 1M, whatever the estimate
    .venv/bin/python benchmarks/store.py --quick   # 50k rows, ~15 s
    .venv/bin/python benchmarks/store.py --quick --no-royal92   # and ingest without royal92
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import platform
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import sqlalchemy
from sqlalchemy import insert

from sleuth.model import GenDate, Snapshot
from sleuth.store import Store, name_key, person_page, schema
from sleuth.store.db import sqlite_url

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
PAGES = DATA / "text" / "chronam_1916_front_pages" / "pages"
# (label, path) of the real files the ingest timing reads; the first page is the warm-up.
INGEST_FILES = (
    ("warm-up page", PAGES / "19160103__sn91066782-ed-1_seq-1.txt"),
    ("newspaper page 1", PAGES / "19160126__sn84038306-ed-1_seq-1.txt"),
    ("newspaper page 2", PAGES / "19160914__sn86081889-ed-1_seq-1.txt"),
    ("newspaper page 3", PAGES / "19161201__sn91066782-ed-1_seq-1.txt"),
    ("FreeREG burials", DATA / "text" / "freeukgen" / "freereg1_csvs__Chd__HRTCALBU.csv"),
    ("kennedy.ged", DATA / "gedcom" / "samples" / "kennedy.ged"),
    ("royal92.ged", DATA / "gedcom" / "samples" / "royal92.ged"),
)
TARGET_RATIO = 3.0
TARGET_PAGE_MS = 50.0
RUN_BUDGET_S = 170.0  # the default run adds 1M rows only if the whole run stays within this
PAGE_SAMPLES = 50
FIELDS = (  # (field name, weight, is a date field)
    ("name", 20, False),
    ("birth_date", 10, True),
    ("death_date", 10, True),
    ("birth_place", 8, False),
    ("death_place", 8, False),
    ("residence", 12, False),
    ("burial_place", 5, False),
    ("marriage_date", 5, True),
    ("occupation", 12, False),
    ("residence_date", 10, True),
)
A_COLS = (
    "id",
    "entity_id",
    "entity_type",
    "field_name",
    "value",
    "date",
    "date_earliest",
    "date_latest",
    "related_id",
    "confidence",
    "status",
    "candidate_id",
    "asserted_at",
)
C_COLS = (
    "id",
    "assertion_id",
    "snapshot_id",
    "excerpt",
    "char_start",
    "char_end",
    "page",
    "line",
    "extraction_method",
    "source_reliability",
    "rationale",
    "match_status",
)


# -- data ------------------------------------------------------------------------------------


def snapshot_text(rng: random.Random, size: int = 1_000_000) -> str:
    files = sorted(PAGES.glob("*.txt")) if PAGES.is_dir() else []
    if files:
        text = "\n\n".join(f.read_text(encoding="utf-8", errors="replace") for f in files)
        while len(text) < size:
            text += "\n\n" + text
        return text[:size]
    words = [
        "died",
        "at",
        "his",
        "home",
        "in",
        "Barre",
        "on",
        "Monday",
        "after",
        "a",
        "long",
        "illness",
        "born",
        "Montpelier",
        "the",
        "son",
        "of",
        "John",
        "and",
        "Mary",
        "Smith",
        "married",
        "Anna",
        "Brown",
        "1880",
        "1916",
    ]
    return " ".join(rng.choice(words) for _ in range(size // 5))[:size]


def new_ids(rng: random.Random, n: int) -> list[str]:
    """uuid4().hex-shaped ids (as `sleuth.model.new_id` makes), generated faster."""
    bits = rng.getrandbits
    return [f"{bits(128):032x}" for _ in range(n)]


def excerpt_pool(text: str, rng: random.Random, n: int = 5000) -> list[tuple[str, int, int]]:
    out = []
    while len(out) < n:
        s = rng.randrange(0, len(text) - 220)
        e = s + rng.randint(40, 200)
        if text[s:e].strip():
            out.append((text[s:e], s, e))
    return out


def prepare_rows(
    n: int,
    person_ids: list[str],
    snapshot_id: str,
    pool: list[tuple[str, int, int]],
    rng: random.Random,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """N assertion dicts and N citation dicts, the way SQLAlchemy Core takes them."""
    names = [f for f, _, _ in FIELDS]
    weights = [w for _, w, _ in FIELDS]
    is_date = {f for f, _, d in FIELDS if d}
    fields = rng.choices(names, weights, k=n)
    a_ids = new_ids(rng, n)
    cand_ids = new_ids(rng, n)
    c_ids = new_ids(rng, n)
    base = datetime(2026, 1, 1, tzinfo=UTC)
    date_cache: dict[tuple[int, int, int], tuple[dict[str, Any], str]] = {}
    a_rows: list[dict[str, Any]] = []
    c_rows: list[dict[str, Any]] = []
    for i in range(n):
        field = fields[i]
        excerpt, start, end = pool[rng.randrange(len(pool))]
        gd = None
        earliest = latest = None
        if field in is_date:
            key = (rng.randint(1800, 1916), rng.randint(1, 12), rng.randint(1, 28))
            if key not in date_cache:
                d = date(*key)
                date_cache[key] = (
                    GenDate(earliest=d, latest=d, original=d.isoformat()).model_dump(mode="json"),
                    d.isoformat(),
                )
            gd, value = date_cache[key]
            earliest = latest = value
        else:
            value = excerpt.split()[0] if excerpt.split() else "x"
        a_rows.append(
            {
                "id": a_ids[i],
                "entity_id": person_ids[rng.randrange(len(person_ids))],
                "entity_type": "person",
                "field_name": field,
                "value": value,
                "date": gd,
                "date_earliest": earliest,
                "date_latest": latest,
                "related_id": None,
                "confidence": round(rng.uniform(0.3, 0.99), 3),
                "status": "verified" if rng.random() < 0.9 else "promoted",
                "candidate_id": cand_ids[i],
                "asserted_at": base + timedelta(microseconds=37 * i),
            }
        )
        c_rows.append(
            {
                "id": c_ids[i],
                "assertion_id": a_ids[i],
                "snapshot_id": snapshot_id,
                "excerpt": excerpt,
                "char_start": start,
                "char_end": end,
                "page": None,
                "line": None,
                "extraction_method": "deterministic",
                "source_reliability": 0.7,
                "rationale": "",
                "match_status": "exact",
            }
        )
    return a_rows, c_rows


def sa_datetime(dt: datetime) -> str:
    """The string SQLAlchemy's SQLite DateTime stores (tz-aware values keep their wall time)."""
    return dt.strftime("%Y-%m-%d %H:%M:%S.%f")


def to_tuples(
    a_rows: list[dict[str, Any]], c_rows: list[dict[str, Any]]
) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """The same rows as sqlite3 parameter tuples, encoded as SQLAlchemy would bind them."""
    dumps = json.dumps
    a_t = []
    for r in a_rows:
        t = [r[c] for c in A_COLS]
        t[5] = dumps(t[5])  # JSON column: None is stored as the JSON text 'null', as SA does
        t[12] = sa_datetime(t[12])
        a_t.append(tuple(t))
    c_t = [tuple(r[c] for c in C_COLS) for r in c_rows]
    return a_t, c_t


# -- stores ----------------------------------------------------------------------------------


@contextmanager
def paused_gc() -> Iterator[None]:
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def new_store(path: Path, raw: bytes, snap: Snapshot, persons: list[dict[str, Any]]) -> Store:
    """A migrated case file holding the snapshot and the persons (setup, not timed)."""
    store = Store.open_url(sqlite_url(path))
    with store.transaction() as conn:
        store.put_snapshot(conn, raw, snap)
        conn.execute(insert(schema.persons), persons)
    return store


def insert_sleuth(
    store: Store, a_rows: list[dict[str, Any]], c_rows: list[dict[str, Any]]
) -> float:
    with paused_gc():
        t0 = time.perf_counter()
        with store.transaction() as conn:
            conn.execute(insert(schema.assertions), a_rows)
            conn.execute(insert(schema.citations), c_rows)
        return time.perf_counter() - t0


def insert_raw(path: Path, a_t: list[tuple[Any, ...]], c_t: list[tuple[Any, ...]]) -> float:
    con = sqlite3.connect(path, isolation_level=None, timeout=30)
    try:
        con.execute("PRAGMA journal_mode=WAL")
        con.execute("PRAGMA synchronous=NORMAL")
        con.execute("PRAGMA foreign_keys=ON")
        a_sql = f"INSERT INTO assertions ({', '.join(A_COLS)}) VALUES ({', '.join('?' * 13)})"
        c_sql = f"INSERT INTO citations ({', '.join(C_COLS)}) VALUES ({', '.join('?' * 12)})"
        with paused_gc():
            t0 = time.perf_counter()
            con.execute("BEGIN")
            con.executemany(a_sql, a_t)
            con.executemany(c_sql, c_t)
            con.execute("COMMIT")
            return time.perf_counter() - t0
    finally:
        con.close()


def same_rows(p1: Path, p2: Path, ids: list[str]) -> bool:
    """Both files hold byte-identical rows (so the peer stored exactly what sleuth did)."""
    out = []
    for p in (p1, p2):
        con = sqlite3.connect(p)
        try:
            rows = []
            for i in ids:
                rows.append(con.execute("SELECT * FROM assertions WHERE id = ?", (i,)).fetchone())
                rows.append(
                    con.execute("SELECT * FROM citations WHERE assertion_id = ?", (i,)).fetchone()
                )
            counts = [
                con.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
                for t in ("assertions", "citations")
            ]
            out.append((rows, counts))
        finally:
            con.close()
    return out[0] == out[1] and None not in out[0][0]


# -- one size --------------------------------------------------------------------------------


def run_size(
    n: int, repeat: int, tmp: Path, text: str, rng: random.Random, keep: bool
) -> dict[str, Any]:
    raw = text.encode("utf-8")
    snap = Snapshot(
        sha256=hashlib.sha256(raw).hexdigest(),
        source_name="Chronicling America",
        url="https://chroniclingamerica.loc.gov/bench",
        text=text,
    )
    n_persons = max(1, n // 20)
    now = datetime.now(UTC)
    person_ids = new_ids(rng, n_persons)
    persons = []
    for i, pid in enumerate(person_ids):
        name = f"Person {i:07d} Bench"
        persons.append(
            {
                "id": pid,
                "canonical_name": name,
                "name_key": name_key(name),
                "given_name": "Person",
                "surname": "Bench",
                "sex": "U",
                "is_living": False,
                "created_at": now,
            }
        )
    pool = excerpt_pool(text, rng)

    with paused_gc():
        t0 = time.perf_counter()
        a_rows, c_rows = prepare_rows(n, person_ids, snap.id, pool, rng)
        t_dicts = time.perf_counter() - t0
        t0 = time.perf_counter()
        a_t, c_t = to_tuples(a_rows, c_rows)
        t_tuples = time.perf_counter() - t0

    sleuth_times, raw_times = [], []
    kept: Store | None = None
    for rep in range(repeat):
        s_path = tmp / f"sleuth_{n}_{rep}.sqlite"
        r_path = tmp / f"raw_{n}_{rep}.sqlite"
        store = new_store(s_path, raw, snap, persons)
        peer = new_store(r_path, raw, snap, persons)
        peer.close()  # only its migrated file is used, through sqlite3
        # Alternate who goes first so neither side always meets a colder disk cache.
        if rep % 2 == 0:
            sleuth_times.append(insert_sleuth(store, a_rows, c_rows))
            raw_times.append(insert_raw(r_path, a_t, c_t))
        else:
            raw_times.append(insert_raw(r_path, a_t, c_t))
            sleuth_times.append(insert_sleuth(store, a_rows, c_rows))
        if rep == 0:
            identical = same_rows(s_path, r_path, [a_rows[j]["id"] for j in (0, n // 2, n - 1)])
        if keep and rep == repeat - 1:
            kept = store
        else:
            store.close()
            s_path.unlink()
            for suffix in ("-wal", "-shm"):
                Path(f"{s_path}{suffix}").unlink(missing_ok=True)
        r_path.unlink()
        for suffix in ("-wal", "-shm"):
            Path(f"{r_path}{suffix}").unlink(missing_ok=True)
    del a_rows, c_rows, a_t, c_t
    gc.collect()
    return {
        "n": n,
        "sleuth_s": min(sleuth_times),
        "raw_s": min(raw_times),
        "prep_dicts_s": t_dicts,
        "prep_tuples_s": t_tuples,
        "repeat": repeat,
        "identical": identical,
        "store": kept,
        "person_ids": person_ids,
    }


def page_times(
    store: Store, person_ids: list[str], rng: random.Random
) -> tuple[list[float], float]:
    picks = rng.sample(person_ids, min(PAGE_SAMPLES, len(person_ids)))
    for pid in picks[:5]:  # warm-up: pool connection, compiled-statement cache, page cache
        person_page(store, pid)
    times, claims = [], 0
    for pid in picks:
        t0 = time.perf_counter()
        _, assertions, _ = person_page(store, pid)
        times.append(time.perf_counter() - t0)
        claims += len(assertions)
        assert all(a.citations for a in assertions)
    return times, claims / len(picks)


# -- main ------------------------------------------------------------------------------------


def ingest_times(tmp: Path, *, royal92: bool = True) -> list[dict[str, Any]]:
    """`ingest_path` on each real file in INGEST_FILES, each into a fresh case (see (d))."""
    from sqlalchemy import event

    from sleuth.pipeline.ingest import ingest_path

    out: list[dict[str, Any]] = []
    for i, (label, path) in enumerate(INGEST_FILES):
        if not path.exists() or (label == "royal92.ged" and not royal92):
            continue
        store = Store.create_case(tmp / f"ingest-{i}")
        calls = {"statements": 0, "rows": 0}

        def count(conn: Any, cursor: Any, stmt: str, params: Any, context: Any,
                  executemany: bool, calls: dict[str, int] = calls) -> None:
            calls["statements"] += 1
            calls["rows"] += len(params) if executemany else 1

        event.listen(store.engine, "before_cursor_execute", count)
        try:
            with paused_gc():
                t0 = time.perf_counter()
                res = ingest_path(store, path)
                seconds = time.perf_counter() - t0
        finally:
            event.remove(store.engine, "before_cursor_execute", count)
            store.close()
        if i == 0:
            continue  # the warm-up: imports, lexicons and caches, not timed
        cands = res.report.candidates if res.report else 0
        out.append({"label": label, "file": path.name, "bytes": path.stat().st_size,
                    "candidates": cands, "seconds": seconds, **calls})
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--quick", action="store_true", help="50k rows only (~15 s)")
    mode.add_argument("--full", action="store_true", help="100k and 1M rows, unconditionally")
    mode.add_argument("--rows", type=int, nargs="+", help="explicit row counts")
    ap.add_argument("--seed", type=int, default=1916)
    ap.add_argument("--no-ingest", action="store_true", help="skip the real ingest path (d)")
    ap.add_argument("--no-royal92", action="store_true", help="(d) without royal92.ged")
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    t_start = time.perf_counter()

    if args.quick:
        plan, auto = [50_000], False
    elif args.full:
        plan, auto = [100_000, 1_000_000], False
    elif args.rows:
        plan, auto = sorted(args.rows), False
    else:
        plan, auto = [100_000], True

    print("sleuth store benchmark: bulk insert (assertion + one citation per row) and reads")
    print(
        f"python {platform.python_version()}, SQLAlchemy {sqlalchemy.__version__}, "
        f"SQLite {sqlite3.sqlite_version}; WAL, synchronous=NORMAL, foreign_keys=ON; "
        "one transaction per load"
    )
    text = snapshot_text(rng)
    results: list[dict[str, Any]] = []
    notes: list[str] = []
    with tempfile.TemporaryDirectory(prefix="sleuth-bench-") as tmpdir:
        tmp = Path(tmpdir)
        i = 0
        while i < len(plan):
            n = plan[i]
            repeat = 3 if n <= 100_000 else 1
            print(
                f"  running {n:,} rows ({repeat} run{'s' if repeat > 1 else ''}, best kept)...",
                flush=True,
            )
            if results and results[-1]["store"] is not None:
                results[-1]["store"].close()
                results[-1]["store"] = None
            results.append(run_size(n, repeat, tmp, text, rng, keep=True))
            i += 1
            if auto and i == len(plan):
                r = results[-1]
                per_row = (r["sleuth_s"] + r["raw_s"] + r["prep_dicts_s"] + r["prep_tuples_s"]) / n
                # Inserts into random-key B-trees get slower as they grow; allow 1.6x per row
                # (measured: x1.57 from 100k to 1M on a 2-core VM).
                estimate = per_row * 1_000_000 * 1.6 + 5.0
                total = time.perf_counter() - t_start + estimate
                verdict = "within" if total <= RUN_BUDGET_S else "over"
                notes.append(
                    f"1M rows: estimated {estimate:.0f} s from the 100k run, "
                    f"{total:.0f} s for the whole run, {verdict} the "
                    f"{RUN_BUDGET_S:.0f} s budget: "
                    + ("run" if total <= RUN_BUDGET_S else "skipped (use --full)")
                )
                if total <= RUN_BUDGET_S:
                    plan.append(1_000_000)
                auto = False

        largest = results[-1]
        store = largest["store"]
        times, per_page = page_times(store, largest["person_ids"], rng)
        store.close()
        ingests = [] if args.no_ingest else ingest_times(tmp, royal92=not args.no_royal92)

    print()
    head = (
        f"{'rows':>9} | {'sleuth rows/s':>13} | {'raw sqlite3 rows/s':>18} | "
        f"{'ratio (<=3x)':>12} | {'sleuth s':>8} | {'raw s':>6} | {'prep s (dicts+tuples)':>21}"
        f" | {'runs':>4}"
    )
    print(head)
    print("-" * len(head))
    for r in results:
        n = r["n"]
        ratio = r["sleuth_s"] / r["raw_s"]
        mark = "ok" if ratio <= TARGET_RATIO else "MISS"
        prep = f"{r['prep_dicts_s']:.1f} + {r['prep_tuples_s']:.1f}"
        print(
            f"{n:>9,} | {n / r['sleuth_s']:>13,.0f} | {n / r['raw_s']:>18,.0f} | "
            f"{f'{ratio:.2f}x {mark}':>12} | {r['sleuth_s']:>8.2f} | {r['raw_s']:>6.2f} | "
            f"{prep:>21} | {r['repeat']:>4}"
        )
    print()
    print(
        "rows = assertions, each with one citation (2 table rows per row); the insert times "
        "include the commit; prep (ids, dicts; then tuples for sqlite3) is excluded."
    )
    med = statistics.median(times) * 1e3
    p95 = sorted(times)[max(0, round(0.95 * len(times)) - 1)] * 1e3
    mark = "ok" if p95 < TARGET_PAGE_MS else "MISS"
    print(
        f"person page ({largest['n']:,}-row store, {len(times)} random persons, "
        f"{per_page:.1f} assertions+citations each): median {med:.1f} ms, p95 {p95:.1f} ms, "
        f"max {max(times) * 1e3:.1f} ms (target < {TARGET_PAGE_MS:.0f} ms: {mark})"
    )
    if ingests:
        print()
        print("the real ingest path (`ingest_path`, as `sleuth ingest` runs it; one fresh case "
              "per file, one transaction per file):")
        ihead = (f"{'file':<18} | {'bytes':>9} | {'candidates':>10} | {'seconds':>7} | "
                 f"{'cand/s':>7} | {'SQL statements':>14} | {'rows sent':>9} | "
                 f"{'stmts/cand':>10}")
        print(ihead)
        print("-" * len(ihead))
        for r in ingests:
            per_c = r["statements"] / r["candidates"] if r["candidates"] else 0.0
            print(f"{r['label']:<18} | {r['bytes']:>9,} | {r['candidates']:>10,} | "
                  f"{r['seconds']:>7.2f} | {r['candidates'] / r['seconds']:>7,.0f} | "
                  f"{r['statements']:>14,} | {r['rows']:>9,} | {per_c:>10.1f}")
        print("cand/s: candidates extracted, checked and stored per second, end to end "
              "(extraction, firewall, validation, decision, writes, audit); compare with the "
              "bulk rows/s above, which time the writes alone.")
    for note in notes:
        print(note)
    print(
        "ran: "
        + ", ".join(f"{r['n']:,} rows" for r in results)
        + "; rows identical in both files: "
        + ("yes" if all(r["identical"] for r in results) else "NO")
    )
    print(f"total run time {time.perf_counter() - t_start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
