"""A statement its source does not show is withdrawn from the summary, but never silently:
fact-check.md keeps it, as it read, with the check that withdrew it (issue 24: "every
claim with its verdict and evidence")."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

import sleuth.domains.investigations.statements as statements_mod
from investigation_cases import QUESTION, write_corpus
from shared_data import shared_path
from sleuth.domains.investigations.loop import start
from sleuth.domains.investigations.state import load_state

SOU = "soukb__intermediate__1972__47__index.hocr.html.bz2"


def test_a_withdrawn_statement_stays_in_the_fact_check(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    compose = statements_mod.Composer._appointments

    def misnamed(self: statements_mod.Composer, sids: list[str]) -> list[Any]:
        out = compose(self, sids)
        for s in out:  # a claim naming someone the source does not: NOT_FOUND
            s.claim = s.claim.replace("Karl-Olof Lidin", "Karl-Olof Lidin och Bertil Ohlin")
        return out

    monkeypatch.setattr(statements_mod.Composer, "_appointments", misnamed)
    corpus = write_corpus(tmp_path / "corpus")
    shutil.copy(shared_path("documents", "swedish_gov", SOU), corpus / SOU)
    case = tmp_path / "case"
    start(QUESTION, case, corpus)
    state = load_state(case)
    assert state.status != "COMPLETE"  # Lidin's role is then stated nowhere: a gap
    [gone] = [w for w in state.withdrawals if "Lidin" in w["text"]]
    assert gone["id"] in state.withdrawn and gone["source"] == "S001"
    summary = (case / "summary.md").read_text(encoding="utf-8")
    assert "Karl-Olof Lidin" not in summary.split("[^1]:")[0]
    fact_check = (case / "fact-check.md").read_text(encoding="utf-8")
    withdrawn = fact_check.split("## Withdrawn: statements their source did not show", 1)[1]
    assert "Karl-Olof Lidin was appointed secretary" in withdrawn
    assert "checked as “Förordnades den 27 juni 1969 Karl-Olof Lidin och Bertil" in withdrawn
    assert "not shown: 'Bertil', 'Ohlin'" in withdrawn  # the reason it was withdrawn
