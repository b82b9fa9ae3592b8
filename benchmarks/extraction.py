"""Benchmark: the deterministic extractor against the labels that ship with real datasets.

Each dataset has a scorer in `benchmarks/extraction_sets/` that runs sleuth's extractor on the
real files under ../shared/data, compares with the dataset's own reference output and counts
true positives, false positives and false negatives per field (the scorer's docstring says
exactly what counts as a match). Every emitted candidate is also put through the hallucination
firewall, and hypotheses emitted as facts are counted (both must be perfect).

Datasets (dev splits only; unlabelled test splits are never read):
  familysearch  recorded GEDCOM X records vs wikitree-sourcer's generalized_data
  wikitree      saved WikiTree profile pages vs wikitree-sourcer's extracted_data
  freereg       FreeREG parish-register CSV rows vs an independent column reading
  google_re     Google-RE dev snippets (birth date, birth place, death place)
  wikibio       WikiBio first sentences vs their infoboxes
  chronam       1916 newspaper OCR vs our own small hand-labelled set (benchmarks/data/)
  gedcom_dates  gedcom7code's date conformance files (valid parse, invalid reported)

Then `benchmarks/dates.py`'s table: our date parser beside `dateparser` on the same strings
(qualifier-correct accuracy and time per string).

    .venv/bin/pip install -e ".[bench]"                 # dateparser, the peer
    .venv/bin/python benchmarks/extraction.py           # everything
    .venv/bin/python benchmarks/extraction.py --only familysearch,wikitree
"""

from __future__ import annotations

import argparse
import importlib
import platform
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from extraction_sets import FieldScore  # noqa: E402

DATA = HERE.parent.parent / "shared" / "data"
DATASETS = ("familysearch", "wikitree", "freereg", "google_re", "wikibio", "chronam",
            "gedcom_dates")


def run(names: list[str], root: Path) -> list[FieldScore]:
    rows: list[FieldScore] = []
    for name in names:
        module = importlib.import_module(f"extraction_sets.{name}")
        t0 = time.perf_counter()
        got = module.score(root)
        print(f"  scored {name} in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
        rows.extend(got)
    return rows


def table(rows: list[FieldScore]) -> str:
    head = (f"{'dataset':<13} {'field':<26} {'P':>6} {'R':>6} {'F1':>6} {'tp':>6} {'fp':>5} "
            f"{'fn':>5} {'docs':>6} {'docs/s':>8} {'firewall':>11} {'hyp-as-fact':>11}")
    lines = [head, "-" * len(head)]
    for r in rows:
        fw = f"{r.firewall_pass}/{r.firewall_total}" if r.firewall_total else "-"
        dps = f"{r.docs_per_second:,.0f}" if r.seconds else "-"
        lines.append(
            f"{r.dataset:<13} {r.field:<26} {r.precision:>6.3f} {r.recall:>6.3f} {r.f1:>6.3f} "
            f"{r.tp:>6} {r.fp:>5} {r.fn:>5} {r.docs:>6} {dps:>8} {fw:>11} "
            f"{r.hypotheses_as_facts:>11}" + (f"  {r.note}" if r.note else "")
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", help="comma-separated datasets (default: all)")
    ap.add_argument("--data", type=Path, default=DATA, help="the shared data folder")
    ap.add_argument("--no-dates", action="store_true", help="skip the dateparser comparison")
    args = ap.parse_args(argv)
    if not args.data.exists():
        print(f"shared data not found at {args.data}; clone with ../shared beside the repo",
              file=sys.stderr)
        return 2
    names = args.only.split(",") if args.only else list(DATASETS)
    unknown = sorted(set(names) - set(DATASETS))
    if unknown:
        ap.error(f"unknown dataset(s): {', '.join(unknown)}")
    print(f"# sleuth extraction benchmark — Python {platform.python_version()}, "
          f"{platform.machine()}, one core\n")
    print(table(run(names, args.data)))
    if not args.no_dates and not args.only:
        import dates

        print("\n# date parser: sleuth vs dateparser (languages=['en']) on the same strings\n")
        sys.argv = [sys.argv[0], str(args.data)]  # dates.py takes the data folder as argv[1]
        dates.main()
    return 0


if __name__ == "__main__":
    sys.exit(main())
