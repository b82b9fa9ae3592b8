"""The curation domain's candidates (issue 25, first increment) against an independent
census of the F´ FPP definitions in ../shared/data/documents/fprime.

    PYTHONPATH=src python benchmarks/curation.py [--json]

Truth: `sleuth.domains.curation.census`, a regex per definition keyword on each line
(owner: the last `component` line above, or above the `include` of an `.fppi`); it shares
no code with the FPP reader. A candidate is right when its type, owning component (last
name segment) and name equal a census entry; each entry matched once. Measured per type for
the FPP candidates (recall, precision); the SDD prose candidates separately: port rows
whose (component, name) the FPP defines ("confirmed") and those it does not ("prose only",
e.g. `cmdSend` for FPP `compCmdSend`), and the share of candidates seed 002's Decision
Maker would promote vs review under the domain's rules and thresholds. Also: evidence
verbatim at its lines, and the firewall's pass rate.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from collections import Counter
from pathlib import Path

from sleuth.domains.curation import DOMAIN, census, extract, folder_candidates, sdd_candidates
from sleuth.domains.curation.model import CurationCandidate, evidence_holds
from sleuth.model import Snapshot
from sleuth.pipeline.decision import make_decision
from sleuth.pipeline.validator import validate
from sleuth.verify import Source, check_candidates

FOLDER = Path(__file__).resolve().parents[2] / "shared" / "data" / "documents" / "fprime"
TYPES = ("component", "port", "command", "event", "telemetry", "parameter", "port_type",
         "instance", "connection")


def _entry(c: CurationCandidate) -> census.Entry:
    owner = c.owner.rsplit(".", 1)[-1] if c.owner else None
    return (c.candidate_type, owner, c.name)


def main() -> dict[str, object]:
    if not FOLDER.exists():
        print(f"skipped: {FOLDER} not found")
        return {}
    files = {p.name: p.read_text(encoding="utf-8") for p in sorted(FOLDER.iterdir())}
    fpp_files = {n: t for n, t in files.items() if n.endswith((".fpp", ".fppi"))}
    t0 = time.perf_counter()
    cands = folder_candidates(fpp_files)
    secs = time.perf_counter() - t0
    truth = Counter(e for v in census.census(fpp_files).values() for e, _ in v)
    got = Counter(_entry(c) for c in cands)
    rows = {}
    for kind in TYPES:
        t = Counter({e: n for e, n in truth.items() if e[0] == kind})
        g = Counter({e: n for e, n in got.items() if e[0] == kind})
        hit = sum((t & g).values())
        rows[kind] = {"truth": sum(t.values()), "candidates": sum(g.values()), "right": hit,
                      "recall": hit / max(1, sum(t.values())),
                      "precision": hit / max(1, sum(g.values()))}
    prose = [c for n, t in files.items() if n.endswith("sdd.md") for c in sdd_candidates(t, n)]
    fpp_ports = {(e[1], e[2].lower()) for e in truth if e[0] == "port"}
    alias = {"CmdDispatcher": "CommandDispatcher", "RecvBuffApp": "RecvBuff"}  # INDEX.md
    prose_ports = [c for c in prose if c.candidate_type == "port"]
    confirmed = sum(1 for c in prose_ports if (alias.get(c.owner.rsplit(".", 1)[-1], c.owner.rsplit(
        ".", 1)[-1]) if c.owner else None, c.name.lower()) in fpp_ports)
    snaps = [Snapshot(sha256=hashlib.sha256(t.encode()).hexdigest(), path=n,
                      source_name="fprime", text=t) for n, t in files.items()]
    staged = [c for s in snaps for c in extract(s)]
    report = check_candidates(staged, {s.id: Source.of_snapshot(s) for s in snaps})
    actions = Counter()
    for c in report.passed:
        d = make_decision(c.confidence, validate(c, DOMAIN.rules).missing_fields, DOMAIN.thresholds)
        actions[(c.method, d.action)] += 1
    verbatim = sum(evidence_holds(c, files[c.evidence.source.doc]) for c in cands + prose)
    return {"fpp": rows, "fpp_total": {"truth": sum(truth.values()), "candidates": len(cands),
                                       "right": sum((truth & got).values())},
            "seconds": secs, "prose": {"candidates": len(prose), "port_rows": len(prose_ports),
                                       "confirmed_by_fpp": confirmed,
                                       "prose_only": len(prose_ports) - confirmed,
                                       "by_type": Counter(c.candidate_type for c in prose)},
            "evidence_verbatim": f"{verbatim}/{len(cands) + len(prose)}",
            "firewall": f"{len(report.passed)}/{len(staged)}",
            "decisions": {f"{m} {a}": n for (m, a), n in sorted(actions.items())}}


def table(r: dict[str, object]) -> str:
    rows = r["fpp"]
    assert isinstance(rows, dict)
    out = ["| type | FPP-defined (census) | candidates | right | recall | precision |",
           "|---|---:|---:|---:|---:|---:|"]
    for kind, v in rows.items():
        out.append(f"| {kind} | {v['truth']} | {v['candidates']} | {v['right']} | "
                   f"{v['recall']:.3f} | {v['precision']:.3f} |")
    return "\n".join(out)


if __name__ == "__main__":
    result = main()
    if "--json" in sys.argv:
        print(json.dumps(result, indent=2, default=str))
    elif result:
        print(table(result))
        for k in ("fpp_total", "seconds", "prose", "evidence_verbatim", "firewall", "decisions"):
            print(f"{k}: {result[k]}")
