"""The investigation demonstration (issue 24, seed 003): an offline investigation of the 1969
inquiry into public access and secrecy (OSK, SOU 1972:47) over a corpus built from the
Swedish documents in ../shared/data, run by `sleuth investigate` until it stops by itself.

    PYTHONPATH=src python benchmarks/investigation_demo.py [--out CASE] [--keep]
    PYTHONPATH=src python benchmarks/investigation_demo.py --corpus 1916 [--out CASE]
    PYTHONPATH=src python benchmarks/investigation_demo.py --corpus villa [--out CASE]

`--corpus 1916`: a general question over six 1916 front pages of Chronicling America
(../shared/data/text/chronam_1916_front_pages, with its title list): what the papers
reported on the Wilson-Hughes presidential election, answered by the general composer,
every sentence attributed to its paper and day, under a heading for each day, in date order.
`--corpus villa`: the same machinery on another question over six other pages of the same
folder (five about Pancho Villa, one whose "Village" is no Villa).

The corpus is copied into a temporary folder (nothing of ../shared/data goes into the repo);
the case goes to --out (default: a temporary folder, removed unless --keep). Prints the
termination, the git history (one commit per iteration), the verdicts of fact-check.md, the
summary, and the time taken; exits non-zero unless the run completed with verification
passed, every summary sentence footnoted and VERIFIED.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

from sleuth.domains.investigations.finale import body_lines
from sleuth.domains.investigations.loop import start
from sleuth.domains.investigations.repo import iteration_commits
from sleuth.domains.investigations.state import load_state

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "documents" / \
    "swedish_gov"
FILES = (
    "soukb__intermediate__1972__47__index.hocr.html.bz2",  # SOU 1972:47, scanned, hOCR
    "dirregeringen__downloaded__2016__15__dir.-201615-dataskyddsforordningen.pdf",
    "souregeringen__parsed__2017__66.xhtml",
    "propriksdagen__intermediate__1987-88__155__index.hocr.html.bz2",
)
QUESTION = "What did the 1969 inquiry into public access and secrecy decide, and who sat on it?"
CHRONAM = SHARED.parents[1] / "text" / "chronam_1916_front_pages"
PAGES_1916 = (*(f"pages/{d}-ed-1_seq-1.txt" for d in (
    "19161113__sn91066782", "19161124__sn88077067", "19161103__sn91066782",  # the election
    "19161019__sn89067274", "19161018__sn86092557",  # the campaign
    "19160712__sn90059228",  # the Deutschland's crossing: not about it
)), "titles_meta.json")
QUESTION_1916 = ("What did the newspapers report about the presidential election between "
                 "Wilson and Hughes in 1916?")
PAGES_VILLA = (*(f"pages/{d}-ed-1_seq-1.txt" for d in (
    "19160114__sn88084272", "19160121__sn86092557", "19160424__sn91066782",  # Villa's bands
    "19160706__sn91066782", "19161013__sn91066782",
    "19161006__sn88077067",  # Ohio's tax tables: "Village", never Villa
)), "titles_meta.json")
QUESTION_VILLA = "What did the newspapers report about Pancho Villa in 1916?"
DEMOS = {"sou": (SHARED, FILES, QUESTION), "1916": (CHRONAM, PAGES_1916, QUESTION_1916),
         "villa": (CHRONAM, PAGES_VILLA, QUESTION_VILLA)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, help="the case folder (new)")
    ap.add_argument("--keep", action="store_true", help="keep the temporary case folder")
    ap.add_argument("--corpus", choices=sorted(DEMOS), default="sou",
                    help="sou: the Swedish inquiry (default); 1916, villa: American front "
                    "pages")
    args = ap.parse_args()
    root, files, question = DEMOS[args.corpus]
    missing = [f for f in files if not (root / f).exists()]
    if missing:
        print(f"shared data not found: {root} ({', '.join(missing)})", file=sys.stderr)
        return 2
    tmp = Path(tempfile.mkdtemp(prefix="sleuth-investigation-"))
    corpus = tmp / "corpus"
    corpus.mkdir()
    for f in files:
        shutil.copy(root / f, corpus / Path(f).name)
    case = args.out or tmp / "case"
    began = time.perf_counter()
    state = start(question, case, corpus, progress=print)
    took = time.perf_counter() - began
    state = load_state(case)
    summary = (case / "summary.md").read_text(encoding="utf-8")
    verdicts = re.findall(r"^## (VERIFIED|NOT_FOUND|CONTRADICTED|NO_EVIDENCE):",
                          (case / "fact-check.md").read_text(encoding="utf-8"), re.M)
    lines = body_lines(summary)
    footnoted = sum(1 for ln in lines if re.search(r"\[\^\d+\]$", ln))
    print(f"\nstatus {state.status}; termination: {state.termination}")
    print(f"{state.current_iteration} iterations, {len(state.captured())} sources captured, "
          f"{len(state.gaps)} gaps, {took:.1f} s")
    print("git history (one commit per iteration):")
    for _, sha, msg in iteration_commits(case):
        print(f"  {sha[:8]} {msg.splitlines()[0]}")
    print(f"fact-check verdicts: { {v: verdicts.count(v) for v in sorted(set(verdicts))} }")
    print(f"summary: {len(lines)} sentences, {footnoted} footnoted\n")
    print(summary)
    ok = (state.status == "COMPLETE" and state.verification_passed and not state.gaps
          and lines and footnoted == len(lines) and set(verdicts) == {"VERIFIED"}
          and [c[0] for c in iteration_commits(case)] == list(
              range(1, state.current_iteration + 1)))
    if not args.out and not args.keep:
        shutil.rmtree(tmp)
    elif not args.out:
        print(f"case kept in {case}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
