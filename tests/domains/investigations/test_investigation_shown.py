"""What `sleuth investigate` and `sleuth resume` print is an output too (issue 24; living
people protected in every output path): a progress line names a source just captured by its
title, a report line names a gap, and neither may name a living private person, in full
or by surname."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_investigation_repo_privacy import CASES

from investigation_cases import run, write_corpus
from sleuth.domains.investigations.model import Gap
from sleuth.domains.investigations.state import load_state, save_state

# The protect tests' fixtures, each under a title and in a file that name the person: the
# progress line "captured S001 <title> (<file>)" is printed as soon as the file is read.
TITLES = {"records": "Mr. John Quincy Smith before the Records Committee",
          "life": "The life of John Smith, a Leeds clerk"}
FILES = {"records": "john_quincy_smith__txt", "life": "john_smith__txt"}


@pytest.mark.parametrize("which", sorted(CASES))
def test_no_printed_line_names_a_living_private_person(tmp_path: Path, which: str) -> None:
    question, text, needles = CASES[which]
    corpus = write_corpus(tmp_path / "corpus", **{FILES[which]: f"{TITLES[which]}\n\n{text}"})
    case = tmp_path / "case"
    code, out, err = run("investigate", question, "--out", case, "--corpus", corpus,
                         "--max-iterations", "2")
    # a gap that quotes the source (as an unverified statement's does): the report names it
    state = load_state(case)
    state.gaps.append(Gap.of("unverified", f"“{text.splitlines()[-1]}” is not shown by S001",
                             ref="s1", since=2))
    save_state(case, state)
    again = run("resume", case)
    assert "gap [unverified]" in again[1]
    printed = out + err + again[1] + again[2]
    assert "captured S001" in out and "[living private person]" in out
    assert code == again[0] == 1  # stopped (a budget, or stalled): the report names why
    for line in printed.splitlines():
        for name in needles:
            assert name.lower() not in line.lower(), line
