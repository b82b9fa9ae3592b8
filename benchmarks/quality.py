"""`sleuth check` against Gramps' own "Verify the Data" tool, rule by rule, on royal92.

What: for every Gramps rule, how many objects (persons or families) Gramps flags, how many
we flag for certain (error/warning) and as "possible", and the overlap; plus the run time.
How: run Gramps 6.0.8 headless (`gramps -y -q -i royal92.ged -a tool -p name=verify`; PyPI
`gramps==6.0.8` in a venv made with `--system-site-packages` against Debian's python3,
plus `apt-get install gir1.2-gtk-3.0 python3-gi`), or pass its saved output with
`--gramps-output FILE`. Gramps ids map to xrefs as I0008 -> I8, F0003 -> F3.

    .venv/bin/python benchmarks/quality.py [--gedcom royal92.ged] [--gramps PATH/gramps]

Why the counts differ (royal92, measured 2026-11): Gramps with its defaults
(estimate_age=0) ignores every date without day and month for age rules, and compares
single days, so "ABT 1850" counts as 1 Jan 1850 while "1850" counts as nothing. We test
every date as a range and report only what holds for all values (or "possible" for the
central estimate). Hence:
* early/late marriage, old age (no death), old/young parents, child gaps: we flag more,
  because year-only dates (most of royal92) prove them too; Gramps compares the marriage's
  sort value even when it is year-only (1 Jan), which creates a few of its early-marriage
  hits that we only call possible or not at all.
* invalid birth/death dates: Gramps cannot parse "1815/1816" (an either-or year) and
  "10 JAN" (no year); our parser reads the first as a dual year, so only the yearless
  ones remain invalid for us.
* too many children: Gramps' rule can never fire (it compares the bound method
  `get_gender` with an int); ours does.
* children/families out of order use certain comparisons on ranges, Gramps single days.
* large gaps between children: Gramps takes the children in file order without sorting,
  so a family listed out of order shows a "gap" that sorted births do not have (its 4
  Gramps-only hits); we sort by the central estimate and test the ranges.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

from sleuth.quality import check_gedcom

ROOT = Path(__file__).resolve().parents[1]
ROYAL = ROOT.parent / "shared" / "data" / "gedcom" / "samples" / "royal92.ged"

# Gramps message -> our rule id(s)
GRAMPS_RULES = {
    "Baptism before birth": "baptism_before_birth",
    "Death before baptism": "death_before_baptism",
    "Burial before birth": "burial_before_birth",
    "Burial before death": "burial_before_death",
    "Death before birth": "death_before_birth",
    "Burial before baptism": "burial_before_baptism",
    "Old age at death": "old_age_at_death",
    "Unknown gender": "unknown_gender",
    "Multiple parents": "multiple_parents",
    "Married often": "married_often",
    "Old and unmarried": "old_unmarried",
    "Too many children": "too_many_children",
    "Same sex marriage": "same_sex_family",
    "Female husband": "female_husband",
    "Male wife": "male_wife",
    "Husband and wife with the same surname": "same_surname_family",
    "Large age difference between spouses": "large_spouse_age_gap",
    "Marriage before birth": "marriage_before_birth",
    "Marriage after death": "marriage_after_death",
    "Early marriage": "early_marriage",
    "Late marriage": "late_marriage",
    "Old father": "old_father",
    "Old mother": "old_mother",
    "Young father": "young_father",
    "Young mother": "young_mother",
    "Unborn father": "unborn_father",
    "Unborn mother": "unborn_mother",
    "Dead father": "dead_father",
    "Dead mother": "dead_mother",
    "Large year span for all children": "large_children_span",
    "Large age differences between children": "large_children_gap",
    "Disconnected individual": "disconnected",
    "Invalid birth date": "invalid_birth_date",
    "Invalid death date": "invalid_death_date",
    "Old age but no death": "old_age_no_death",
    "Birth date equals death date": "birth_equals_death",
    "Birth date equals marriage date": "birth_equals_marriage",
    "Death date equals marriage date": "death_equals_marriage",
    "Baptism too late according to family tradition": "baptism_too_late",
    "Burial too late": "burial_too_late",
    "Children are not in chronological order": "children_out_of_order",
    "Families are not in chronological order": "families_out_of_order",
    "Family events are not in chronological order": "family_events_out_of_order",
    "Person events are not in chronological order": "person_events_out_of_order",
}
_LINE = re.compile(r"^[EWS]: (?P<msg>.+?), (?P<type>Person|Family): (?P<gid>[A-Z]+\d+),")
# Gramps merges one family-level finding from two of our per-parent rules
_FAMILY_LEVEL = {"old_father", "old_mother", "young_father", "young_mother", "unborn_father",
                 "unborn_mother", "dead_father", "dead_mother", "large_spouse_age_gap",
                 "marriage_before_birth", "marriage_after_death", "early_marriage",
                 "late_marriage", "large_children_span", "large_children_gap",
                 "children_out_of_order", "same_surname_family", "family_events_out_of_order",
                 "same_sex_family", "female_husband", "male_wife"}


def gramps_xref(gid: str) -> str:
    m = re.fullmatch(r"([A-Z]+)0*(\d+)", gid)
    return f"{m.group(1)}{m.group(2)}" if m else gid


def run_gramps(gramps: str, gedcom: Path) -> tuple[str, float]:
    env = dict(os.environ, GRAMPSHOME=os.environ.get("GRAMPSHOME", "/tmp/gramps-bench-home"))
    Path(env["GRAMPSHOME"]).mkdir(parents=True, exist_ok=True)
    t = time.perf_counter()
    out = subprocess.run([gramps, "-y", "-q", "-i", str(gedcom), "-a", "tool", "-p",
                          "name=verify"], capture_output=True, text=True, env=env, check=True)
    return out.stdout, time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gedcom", type=Path, default=ROYAL)
    ap.add_argument("--gramps", default=os.environ.get("GRAMPS_BIN", "/tmp/q8/gvenv/bin/gramps"))
    ap.add_argument("--gramps-output", type=Path)
    args = ap.parse_args()

    t = time.perf_counter()
    _, findings = check_gedcom(args.gedcom)
    ours_s = time.perf_counter() - t
    ours: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for f in findings:
        key = f.family if f.rule in _FAMILY_LEVEL and f.family else f.people[0]
        sev = "possible" if f.severity == "possible" else "certain"
        ours[f.rule][sev].add(key)

    gramps_s = None
    if args.gramps_output:
        text = args.gramps_output.read_text()
    elif Path(args.gramps).exists():
        text, gramps_s = run_gramps(args.gramps, args.gedcom)
    else:
        sys.exit(f"no Gramps at {args.gramps}; pass --gramps or --gramps-output")
    theirs: dict[str, set[str]] = defaultdict(set)
    unknown = 0
    for line in text.splitlines():
        m = _LINE.match(line)
        if not m:
            continue
        rule = GRAMPS_RULES.get(m.group("msg"))
        if rule is None:
            unknown += 1
            continue
        theirs[rule].add(gramps_xref(m.group("gid")))

    print(f"{args.gedcom.name}: Gramps {sum(map(len, theirs.values()))} findings"
          + (f" in {gramps_s:.1f} s (import + verify)" if gramps_s else "")
          + f"; sleuth {sum(len(s) for r in ours.values() for s in r.values())} findings "
          f"({len(findings)} total incl. WikiTree/FamilySearch) in {ours_s:.2f} s")
    cols = ("gramps", "ours", "poss", "both", "g-only", "o-only")
    hdr = f"{'rule':32} " + " ".join(f"{c:>6}" for c in cols)
    print(hdr)
    print("-" * len(hdr))
    for rule in sorted(set(GRAMPS_RULES.values()), key=lambda r: -len(theirs.get(r, ()))):
        g = theirs.get(rule, set())
        o = ours.get(rule, {}).get("certain", set())
        p = ours.get(rule, {}).get("possible", set())
        if not (g or o or p):
            continue
        print(f"{rule:32} {len(g):6} {len(o):6} {len(p):6} {len(g & o):6} {len(g - o - p):6} "
              f"{len(o - g):6}")
    extra = sorted(r for r in ours if r not in GRAMPS_RULES.values())
    for rule in extra:
        print(f"{rule + ' *':32} {'-':>6} {len(ours[rule].get('certain', ())):6} "
              f"{len(ours[rule].get('possible', ())):6}")
    print("* WikiTree / FamilySearch rules (no Gramps counterpart)"
          + (f"; {unknown} Gramps lines with unknown messages" if unknown else ""))


if __name__ == "__main__":
    main()
