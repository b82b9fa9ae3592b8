"""sleuth's Evidence Explained notes beside wikitree-sourcer's citations of the same records.

The peer is a mature tool's output: `recorded/familysearch/expected/citations/*.json` in the
shared data holds wikitree-sourcer's citation of each saved FamilySearch record
(`saved_fetch_objects/*.json`). For every case we format our full reference note
(`sleuth.gps.citations.format_note`, style `ee-full`) from the saved record and check that it
carries the reference's collection title, its record identifier (the ARK) and every value of
its "citing" reference data (class, piece/folio, page, line, district, film, image, record
number...); `sleuth.gps.bench.familysearch_scores` does the scoring. And for every saved
record whose JSON has an ARK (Family Tree profiles too, which have no reference), that the
note links to it: Evidence Explained's online-database model gives the URL and access date.

Targets: collection title >= 95%, record identifier >= 95%, all reference data >= 85% of the
cases that have reference data, record URL >= 98% (issue 20). Misses are listed with the
values our note lacks.

    .venv/bin/python benchmarks/citations.py [--data DIR]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sleuth.gps.bench import familysearch_scores

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "data" / "recorded" / "familysearch"
TARGETS = {"collection title": 0.95, "record identifier": 0.95, "all reference data": 0.85,
           "record URL": 0.98}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--data", type=Path, default=DEFAULT,
                    help="the shared data's recorded/familysearch folder")
    args = ap.parse_args(argv)
    if not (args.data / "expected" / "citations").is_dir():
        print(f"no reference citations under {args.data}", file=sys.stderr)
        return 2
    s = familysearch_scores(args.data)
    print(f"FamilySearch cases: {s.cases} ({s.with_reference} with reference data)\n")
    print(s.table())
    rates = {
        "collection title": (s.title, s.cases),
        "record identifier": (s.record_id, s.cases),
        "all reference data": (s.reference, s.with_reference),
        "record URL": (s.url, s.with_ark),
    }
    print("\n| target | rate | met |\n|---|---|---|")
    ok = True
    for name, (a, b) in rates.items():
        rate = a / b if b else 0.0
        met = rate >= TARGETS[name]
        ok &= met
        print(f"| {name} >= {TARGETS[name]:.0%} | {rate:.1%} | {'yes' if met else 'NO'} |")
    if s.misses:
        print("\nreference values missing from our note:")
        for m in s.misses:
            print(f"  {m}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
