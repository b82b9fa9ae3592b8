"""Issue 10's acceptance run: research on the simulated world yields, for the seed's parents,
a proof argument with all five GPS sections, negative evidence where the world hid a record,
copies of one record counted once, and a checklist that says "not yet" where a required
record set was not searched."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.mark.slow
def test_a_world_research_run_writes_a_gps_proof_for_the_seeds_parents(tmp_path: Path) -> None:
    out = tmp_path / "demo"
    proc = subprocess.run([sys.executable, "-m", "sleuth", "demo", "--out", str(out),
                           "--max-requests", "150"], capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    report = (out / "report.md").read_text()
    proofs = report.split("## Appendix B: Proof arguments (Genealogical Proof Standard)", 1)[1]
    sections = re.split(r"\n### ", proofs)
    parents = [s for s in sections if s.startswith("Who were the parents of")]
    assert parents, "a proof argument about parents"
    first = parents[0]
    for part in ("**1. Search.**", "**2. Evidence.**", "**3. Correlation and conflicts.**",
                 "**4. Conclusion.**", "**5. GPS checklist.**"):
        assert part in first
    assert "Searched, nothing found (negative evidence)" in proofs
    assert re.search(r"\| Reasonably exhaustive search \| not yet \|", proofs)
    assert "Not independent:" in proofs  # the same record read twice counts once
