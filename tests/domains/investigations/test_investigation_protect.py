"""A person whose birth or death the sources state is judged by those years (issue 24: living
private persons protected by the Censor's rule, and only they): born in 1901 or dead is
named; born in 1990 is masked, as is a person the sources give no year."""

from __future__ import annotations

from pathlib import Path

import pytest

from investigation_cases import write_corpus
from sleuth.domains.investigations.loop import start
from sleuth.domains.investigations.protect import MASK, _lifespan
from sleuth.domains.investigations.state import Budget

LIFE = ("The life of a Leeds clerk\n\n{sentence} He worked as a clerk in the city before "
        "the war, and kept the accounts of the wool exchange for thirty years.\n")


@pytest.mark.parametrize(("sentence", "question"), [
    ("John Smith was born on 4 March 1901 in Leeds, the son of a wool merchant.",
     "When was John Smith born?"),
    ("John Smith died in 1980 in Leeds, where his father had been a wool merchant.",
     "When did John Smith die?"),
])
def test_a_person_whose_stated_years_make_him_dead_is_named(
        tmp_path: Path, sentence: str, question: str) -> None:
    corpus = write_corpus(tmp_path / "corpus", life__txt=LIFE.format(sentence=sentence))
    case = tmp_path / "case"
    state = start(question, case, corpus, budget=Budget(max_iterations=2))
    assert state.status == "COMPLETE"
    summary = (case / "summary.md").read_text(encoding="utf-8")
    assert summary.startswith(f"# {question}\n")
    assert f"“{sentence}”" in summary
    people = (case / "people.md").read_text(encoding="utf-8")
    assert "## John Smith" in people and "treated as living" not in people
    assert MASK not in people + summary


def test_a_person_born_in_1990_stays_protected(tmp_path: Path) -> None:
    sentence = "John Smith was born on 4 March 1990 in Leeds, the son of a wool merchant."
    corpus = write_corpus(tmp_path / "corpus", life__txt=LIFE.format(sentence=sentence))
    case = tmp_path / "case"
    start("When was John Smith born?", case, corpus, budget=Budget(max_iterations=2))
    summary = (case / "summary.md").read_text(encoding="utf-8")
    assert summary.startswith(f"# When was {MASK} born?")
    people = (case / "people.md").read_text(encoding="utf-8")
    assert "born in the 1990s by the sources" in people and "treated as living" in people
    for name in ("summary.md", "people.md", "fact-check.md", "statements.md"):
        assert "Smith" not in (case / name).read_text(encoding="utf-8"), name


def test_only_a_year_told_right_after_the_name_is_the_persons() -> None:
    assert _lifespan("John Smith", ["John Smith (b. 1901) kept the accounts."]) == (1901, None)
    assert _lifespan("Rune Hermansson", ["Rune Hermansson, född 1915 i Malmö."]) == (1915, None)
    assert _lifespan("John Smith", ["John Smith, who was born in Leeds on 4 March 1901, "
                                    "died there."]) == (1901, None)
    # another person's birth, a year in the next sentence: not his
    assert _lifespan("John Smith", ["John Smith met Anna Berg, who was born in 1901."]) == (
        None, None)
    assert _lifespan("John Smith", ["John Smith was born in Leeds. In 1901 he left."]) == (
        None, None)
