"""Benchmark: are the persons the extractor finds on real newspaper pages really persons?

A fixed random sample of the 1916 Chronicling America front pages
(`../shared/data/text/chronam_1916_front_pages/pages`, seed 1916, 8 of 60 pages) goes
through the real ingest path (`sources.load_file`, then `pipeline.ingest.extract_for`); every
person the extractor yields (a subject with a `name` candidate, fact or hypothesis) is looked
up in hand-made judgements, `benchmarks/data/person_precision_1916.jsonl`: one row per
(page, name as extracted) with

  label       person        the name of someone on the page (OCR errors, a name cut short
                            or an office word before it are tolerated)
              not_person    a word, heading, place, firm, or two people run together
              surname_only  someone on the page, but by a lone surname, which issue 19
                            says is not enough to make a person
  at_791c625  whether the extractor at commit 791c625 (before the given-name gate) yielded it
  same_as     (optional) another judged name of the same person on that page

The rows were judged by reading the page text around each name. Printed: persons yielded,
precision (strict: surname_only counts as wrong; lenient: as right), and the judged persons
of the earlier extractor that the current one no longer yields ("lost"). Names the
judgements do not know are listed as "unjudged": judge them and add rows, so the figure can
be re-measured whenever the extractor changes.

    .venv/bin/python benchmarks/person_precision.py
    .venv/bin/python benchmarks/person_precision.py --show lost,unjudged,wrong
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
PAGES = HERE.parent.parent / "shared" / "data" / "text" / "chronam_1916_front_pages" / "pages"
JUDGED = HERE / "data" / "person_precision_1916.jsonl"
SEED, SAMPLE = 1916, 8


def sample_pages(folder: Path) -> list[Path]:
    """The sample: SAMPLE pages drawn with SEED from the sorted page names."""
    names = sorted(p.name for p in folder.glob("*.txt"))
    return [folder / n for n in sorted(random.Random(SEED).sample(names, SAMPLE))]


def persons(page: Path) -> list[str]:
    """Names of the persons the ingest path's extractor yields for one page, in order."""
    from sleuth.pipeline.ingest import extract_for
    from sleuth.sources import load_file

    loaded = load_file(page, source_name="local file")
    seen: dict[str, str] = {}
    for c in extract_for(loaded.snapshot, loaded.raw):
        if c.field == "name":
            seen.setdefault(c.subject, c.value)
    return list(dict.fromkeys(seen.values()))


def score(found: dict[str, list[str]], judged: dict[tuple[str, str], dict[str, object]]
          ) -> dict[str, object]:
    rows = [(p, n, judged.get((p, n))) for p, names in found.items() for n in names]
    labels = [j["label"] for _, _, j in rows if j is not None]
    n = len(labels)
    person = labels.count("person")
    surname = labels.count("surname_only")
    yielded = {(p, nm) for p, nm, _ in rows}
    # "same_as": another judged name for the same person ("Francis Joseph" for "Emperor
    # Francis Joseph"); a person found under either name is not lost.
    for (p, nm), j in judged.items():
        if (p, nm) in yielded and j.get("same_as"):
            yielded.add((p, str(j["same_as"])))
    lost = sorted(k for k, j in judged.items() if j["label"] == "person" and j["at_791c625"]
                  and k[0] in found and k not in yielded
                  and not (j.get("same_as") and (k[0], str(j["same_as"])) in yielded))
    return {
        "yielded": len(rows), "judged": n, "person": person, "surname_only": surname,
        "not_person": labels.count("not_person"),
        "strict": person / n if n else 0.0, "lenient": (person + surname) / n if n else 0.0,
        "unjudged": sorted((p, nm) for p, nm, j in rows if j is None),
        "wrong": sorted((p, nm, str(j["label"])) for p, nm, j in rows
                        if j is not None and j["label"] != "person"),
        "lost": lost,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pages", type=Path, default=PAGES)
    ap.add_argument("--show", default="", help="comma-separated: lost, unjudged, wrong")
    args = ap.parse_args(argv)
    if not args.pages.exists():
        print(f"pages not found at {args.pages}", file=sys.stderr)
        return 2
    judged = {}
    for line in JUDGED.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        judged[(row["page"], row["name"])] = row
    pages = sample_pages(args.pages)
    before = {p.name: [n for (pg, n), j in judged.items() if pg == p.name and j["at_791c625"]]
              for p in pages}
    now = {p.name: persons(p) for p in pages}
    print(f"# person precision on {len(pages)} of 60 1916 front pages (seed {SEED})")
    head = (f"{'extractor':<22} {'persons':>7} {'judged':>6} {'person':>6} {'surname':>7} "
            f"{'not':>4} {'P strict':>8} {'P lenient':>9} {'lost':>4}")
    print(head)
    print("-" * len(head))
    for label, found in (("791c625 (recorded)", before), ("current", now)):
        s = score(found, judged)
        print(f"{label:<22} {s['yielded']:>7} {s['judged']:>6} {s['person']:>6} "
              f"{s['surname_only']:>7} {s['not_person']:>4} {s['strict']:>8.3f} "
              f"{s['lenient']:>9.3f} {len(s['lost']):>4}")  # type: ignore[arg-type]
    s = score(now, judged)
    print("\nstrict: a lone surname counts as wrong; lost: judged persons of 791c625 that the"
          " current extractor no longer yields")
    for what in [w for w in args.show.split(",") if w]:
        print(f"\n{what}:")
        for row in s[what]:  # type: ignore[attr-defined]
            print("  " + " | ".join(row))
    if s["unjudged"]:
        print(f"\n{len(s['unjudged'])} name(s) not yet judged: run with --show unjudged and add "  # type: ignore[arg-type]
              f"rows to {JUDGED.relative_to(HERE.parent)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
