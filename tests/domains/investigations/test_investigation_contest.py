"""A contested claim is contested both ways (issue 24, item 2: "all positions of a contested
claim are checked"): SOU 1972:47 and a note that dates the chair's appointment a month later.
The verifier finds the note's claim contradicted by the report, but the report's claim only
partly shown by the note (it names a role the note does not); the report must not win by
default."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from investigation_cases import QUESTION, assert_deliverable, write_corpus
from shared_data import shared_path
from sleuth.domains.investigations.loop import start
from sleuth.domains.investigations.model import Statement
from sleuth.domains.investigations.verification import unstated_positions

SOU = "soukb__intermediate__1972__47__index.hocr.html.bz2"
NOTE = """Anteckning om offentlighets- och sekretesslagstiftningskommittén (OSK)

Den 9 juni 1969 tillkallades Rune Hermansson som ordförande i offentlighets- och \
sekretesslagstiftningskommittén (OSK).
"""


def test_both_sides_of_a_contested_date_are_stated_attributed_and_verified(
        tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus", note__txt=NOTE)
    shutil.copy(shared_path("documents", "swedish_gov", SOU), corpus / SOU)
    case = tmp_path / "case"
    state = start(QUESTION, case, corpus)
    assert state.status == "COMPLETE" and state.verification_passed and not state.gaps
    summary = (case / "summary.md").read_text(encoding="utf-8")
    # never a bare fact: neither date is stated as what happened
    assert not re.search(r"^On 9 (May|June) 1969, Rune Hermansson was appointed", summary,
                         re.M)
    mine = re.search(r"^SOU 1972:47 dates the appointment of Rune Hermansson as chair .* to "
                     r"9 May 1969; the sources differ on it\.\[\^(\d+)\]$", summary, re.M)
    note = re.search(r"^Anteckning .* dates the appointment of Rune Hermansson as chair .* "
                     r"to 9 June 1969; the sources differ on it\.\[\^(\d+)\]$", summary, re.M)
    assert mine and note
    assert f"[^{mine.group(1)}]: S001, SOU 1972:47" in summary
    assert f"[^{note.group(1)}]: S002, Anteckning" in summary
    # one contested claim, with a position from each source, each VERIFIED on its own source
    positions = [s for s in state.verification["statements"] if s["kind"] == "position"]
    assert sorted(s["source_id"] for s in positions) == ["S001", "S002"]
    assert len({s["contested"] for s in positions}) == 1
    checks = state.verification["checks"]
    assert {checks[s["id"]]["verdict"] for s in positions} == {"VERIFIED"}
    theories = (case / "theories.md").read_text(encoding="utf-8")
    assert re.search(r"position S001: 9 May 1969: VERIFIED against its own source "
                     r"\(SOU 1972:47\)", theories)
    assert re.search(r"position S002: 9 June 1969: VERIFIED against its own source "
                     r"\(Anteckning", theories)
    # the contradiction held completion back until both positions were stated
    found = next(e for e in state.log if e["verification passed"] is False)
    assert found["iteration"] < state.current_iteration
    assert_deliverable(case)


def _position(sid: str, key: str) -> Statement:
    return Statement(id=f"p-{sid}", kind="position", ask="who", text="", claim="",
                     source_id=sid, snapshot_id="", start=0, end=1, quote="x", contested=key)


def test_a_contested_claim_stated_from_one_side_only_is_a_gap() -> None:
    contested = {"k1": ["S001", "S002"], "k2": ["S001", "S003"]}
    gaps = unstated_positions([_position("S002", "k1")], contested, 3)
    assert [(g.kind, g.ref) for g in gaps] == [("contradicted", "k1")]
    assert "not of S001" in gaps[0].text
    assert not unstated_positions([_position("S002", "k1"), _position("S001", "k1")],
                                  contested, 3)
