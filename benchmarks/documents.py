"""The documents domain's deterministic extractors beside dateparser, on two hand-annotated
sets scored separately: dev (`benchmarks/data/documents_dev.jsonl`, the five documents the
rules were written from; conventions in `documents_dev.md`) and held-out
(`documents_heldout.jsonl`, eight documents annotated from pages the rules were not written
from; method in `documents_heldout.md`).

    PYTHONPATH=src python benchmarks/documents.py [--json] [--misses]

`--misses` lists every gold fact missed and every event found that matches none.
Measured per document and in total, for each set:
* timeline: recall and precision of events, a match being the same event type, the same date
  (ISO at the annotated precision) and a page the event is stated on (the gold page or one of
  its `also_pages`); each gold event matched once;
* dates only (date + page, no type), for sleuth and for the baseline: dateparser's
  `search_dates(page_text, languages=['sv', 'en'])` on every page, each date it finds taken
  with the page it was found on; a month-precision gold date ("1972-06") is matched by any
  day of that month;
* people/agencies: recall of the annotated entities with the right role on the right page
  (names compared by `documents.entity_key`, surnames within OCR distance), and without role;
* pages/second: extraction alone, and loading (PDF/hOCR parsing) plus extraction.

Reads ../shared/data (skips a document that is absent).
"""

from __future__ import annotations

import json
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from dateparser.search import search_dates
from rapidfuzz import fuzz

from sleuth.domains.documents import Pages, entity_key, extract_events, extract_mentions
from sleuth.sources import load_file

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
SETS = {"dev": ROOT / "benchmarks" / "data" / "documents_dev.jsonl",
        "held-out": ROOT / "benchmarks" / "data" / "documents_heldout.jsonl"}


def _gold(path: Path) -> dict[str, list[dict[str, Any]]]:
    by_doc: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            by_doc[row["document"]].append(row)
    return by_doc


def _pages_of(gold: dict[str, Any]) -> set[int]:
    return {gold["page"], *gold.get("also_pages", [])}


def _date_ok(gold_date: str, found: str) -> bool:
    return found == gold_date or (len(gold_date) < len(found) and found.startswith(gold_date))


def _names_match(gold: str, found: str) -> bool:
    g, f = entity_key(gold), entity_key(found)
    if g == f:
        return True
    gs, _, gi = g.partition("|")
    fs, _, fi = f.partition("|")
    if gi and fi and gi != fi:
        return False
    return gs == fs or (min(len(gs), len(fs)) >= 5 and fuzz.ratio(gs, fs) >= 85)


def _match(gold: list[dict[str, Any]], found: list[tuple[str, str, int]], *,
           typed: bool) -> int:
    """Gold events matched by found (type, date, page) triples, each gold at most once."""
    used: set[int] = set()
    hits = 0
    for g in gold:
        for j, (etype, day, page) in enumerate(found):
            if j in used or (typed and etype != g["event_type"]):
                continue
            if _date_ok(g["date"], day) and page in _pages_of(g):
                used.add(j)
                hits += 1
                break
    return hits


def _baseline(snap: Any) -> tuple[list[tuple[str, str, int]], float]:
    pages = Pages.of(snap)
    found: set[tuple[str, str, int]] = set()
    t0 = time.perf_counter()
    for i, (a, b) in enumerate(zip(pages.starts, pages.ends, strict=True)):
        for _, when in search_dates(snap.text[a:b], languages=["sv", "en"]) or []:
            found.add(("", when.date().isoformat(), i + 1))
    return sorted(found), time.perf_counter() - t0


def _ent_pages(g: dict[str, Any]) -> set[int]:
    return {g["page"], *g.get("also_pages", [])}


def run(which: str = "dev", misses: list[str] | None = None) -> dict[str, Any]:
    """Score one annotated set (`SETS`); with `misses`, a line per missed gold fact and per
    event found that matches none is appended to it."""
    rows = []
    totals: dict[str, float] = defaultdict(float)
    for doc, gold in _gold(SETS[which]).items():
        path = SHARED / doc
        if not path.exists():
            print(f"skipped (absent): {path}", file=sys.stderr)
            continue
        t0 = time.perf_counter()
        snap = load_file(path).snapshot
        t1 = time.perf_counter()
        events = extract_events(snap)
        mentions = extract_mentions(snap)
        t2 = time.perf_counter()
        gold_events = [g for g in gold if g["kind"] == "event"]
        gold_ents = [g for g in gold if g["kind"] == "entity"]
        found = [(e.event_type, e.date.iso(), e.page) for e in events]
        typed = _match(gold_events, found, typed=True)
        # precision: a found event is right when it is some gold event on a stated page
        right = sum(1 for f in found if _match(gold_events, [f], typed=True))
        dates_only = _match(gold_events, found, typed=False)
        base, base_s = _baseline(snap)
        base_hits = _match(gold_events, base, typed=False)
        base_right = sum(1 for f in base if _match(gold_events, [f], typed=False))

        def hit(g: dict[str, Any], role: bool, mentions: list[Any] = mentions) -> bool:
            return any((not role or m.role == g["role"]) and m.page in _ent_pages(g)
                       and _names_match(g["name"], m.name) for m in mentions)

        ent_role = sum(1 for g in gold_ents if hit(g, True))
        ent_any = sum(1 for g in gold_ents if hit(g, False))
        if misses is not None:
            name = Path(doc).name[:60]
            misses += [f"{which} {name}: missed event {g['event_type']} {g['date']} p. "
                       f"{g['page']} ({g.get('note', '')})" for g in gold_events
                       if not _match([g], found, typed=True)]
            misses += [f"{which} {name}: false event {f[0]} {f[1]} p. {f[2]}" for f in found
                       if not _match(gold_events, [f], typed=True)]
            misses += [f"{which} {name}: missed {g['entity_kind']} {g['name']} ({g['role']}) "
                       f"p. {g['page']}" + ("" if not hit(g, False) else " [found, other role]")
                       for g in gold_ents if not hit(g, True)]
        n_pages = len(snap.page_starts) or 1
        row = {"document": Path(doc).name[:48], "pages": n_pages, "gold_events": len(gold_events),
               "found_events": len(found), "typed_hits": typed, "typed_right": right,
               "date_page_hits": dates_only, "base_found": len(base), "base_hits": base_hits,
               "base_right": base_right, "gold_entities": len(gold_ents),
               "found_mentions": len(mentions), "entity_role_hits": ent_role,
               "entity_any_hits": ent_any, "load_s": t1 - t0, "extract_s": t2 - t1,
               "baseline_s": base_s}
        rows.append(row)
        for k, v in row.items():
            if isinstance(v, int | float) and not isinstance(v, bool):
                totals[k] += v
    return {"set": which, "rows": rows, "totals": dict(totals)}


def _ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}" if b else "-"


def table(result: dict[str, Any]) -> str:
    t = result["totals"]
    lines = [
        "| document | pages | timeline R | timeline P | date+page R (sleuth) | date+page R "
        "(dateparser) | date+page P (dateparser) | people R (role) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in [*result["rows"], {"document": "**all**", **t}]:
        lines.append(
            f"| {r['document']} | {int(r['pages'])} | "
            f"{_ratio(r['typed_hits'], r['gold_events'])} | "
            f"{_ratio(r['typed_right'], r['found_events'])} | "
            f"{_ratio(r['date_page_hits'], r['gold_events'])} | "
            f"{_ratio(r['base_hits'], r['gold_events'])} | "
            f"{_ratio(r['base_right'], r['base_found'])} | "
            f"{_ratio(r['entity_role_hits'], r['gold_entities'])} |")
    lines += [
        "",
        f"events: gold {int(t['gold_events'])}, sleuth found {int(t['found_events'])}, "
        f"dateparser found {int(t['base_found'])} (date, page) pairs",
        f"people/agencies: gold {int(t['gold_entities'])}, "
        f"right role {int(t['entity_role_hits'])}, "
        f"any role {int(t['entity_any_hits'])}; sleuth mentions {int(t['found_mentions'])}",
        f"pages/second: sleuth extraction {t['pages'] / t['extract_s']:.0f}, load + extraction "
        f"{t['pages'] / (t['load_s'] + t['extract_s']):.0f}; dateparser search_dates "
        f"{t['pages'] / t['baseline_s']:.1f}",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    missed: list[str] | None = [] if "--misses" in sys.argv else None
    results = [run(which, missed) for which in SETS]
    if "--json" in sys.argv:
        print(json.dumps(results, indent=1))
    else:
        print("\n\n".join(f"### {r['set']}\n\n{table(r)}" for r in results))
    if missed:
        print("\n" + "\n".join(missed))
