"""research-leads/ previews files a search ranks; a file never captured is read nowhere
else, so its preview is judged on its own by the person extraction and the Censor rule the
captured sources get (issue 24): a living private person only it names is masked, in the
case folder and in every commit, while a person its years put beyond the rule is shown."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_investigation_repo_privacy import leaks

from investigation_cases import write_corpus
from sleuth.domains.investigations.loop import start
from sleuth.domains.investigations.protect import MASK
from sleuth.domains.investigations.state import Budget, load_state

QUESTION = "What did the records committee recommend?"
REPORT = ("Report {n} of the Records Committee\n\nThe records committee recommended that the "
          "{what} records be opened to the public.\n")
# As relevant as the reports, ranked after them (ties go by path): the one-iteration budget
# stops the run before it is captured, so only its preview shows what it says.
LETTER = ("Letter to the editor\n\n{name} wrote that the records committee recommended "
          "opening the tax records to the public.\n")


@pytest.mark.parametrize(("name", "shown"), [("Anna Berg", False),
                                             ("Anna Berg (1850–1921)", True)])
def test_a_preview_of_a_file_not_captured_names_no_living_private_person(
        tmp_path: Path, name: str, shown: bool) -> None:
    corpus = write_corpus(tmp_path / "corpus", a__txt=REPORT.format(n=1, what="court"),
                          b__txt=REPORT.format(n=2, what="land"),
                          c__txt=REPORT.format(n=3, what="church"),
                          z__txt=LETTER.format(name=name))
    case = tmp_path / "case"
    start(QUESTION, case, corpus, budget=Budget(max_iterations=1))
    assert not any(s.path.endswith("z.txt") for s in load_state(case).sources)
    leads = (case / "research-leads" / "iteration-01.md").read_text(encoding="utf-8")
    preview = next(ln for ln in leads.splitlines() if "z.txt" in ln)
    assert "wrote that the records committee recommended" in preview
    if shown:  # dead by the years the preview prints: named, as a captured source would be
        assert "Anna Berg (1850–1921) wrote" in preview
    else:
        assert f"{MASK} wrote" in preview and "Berg" not in leads
        assert leaks(case, ("Anna Berg", "Berg")) == []
