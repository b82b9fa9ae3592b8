"""An inquiry's papers answer only a question about that inquiry (issue 24): a question on
another subject or year is never "answered", verified, with the inquiry's decisions and
members; its gaps stay open."""

from __future__ import annotations

from pathlib import Path

from investigation_cases import QUESTION, REPORT, write_corpus
from sleuth.domains.investigations.extraction import Extraction
from sleuth.domains.investigations.loop import start
from sleuth.domains.investigations.relevance import about_inquiry

OTHER = "Who chaired the 1975 inquiry into nuclear power, and what did it recommend?"


def test_an_inquiry_the_question_is_not_about_answers_none_of_it(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus", report__txt=REPORT)
    asked = start(QUESTION, tmp_path / "own", corpus)
    assert asked.status == "COMPLETE"
    assert "Rune Hermansson" in (tmp_path / "own" / "summary.md").read_text(encoding="utf-8")
    other = start(OTHER, tmp_path / "other", corpus)
    summary = (tmp_path / "other" / "summary.md").read_text(encoding="utf-8")
    assert other.status != "COMPLETE" and not other.verification_passed
    assert "Hermansson" not in summary and "inquiry" not in summary.split("\n", 1)[1]
    assert {g.ref for g in other.gaps if g.kind == "unanswered"} >= {"who", "what"}


def test_the_question_names_the_inquirys_subject_and_years() -> None:
    x = Extraction(committees=[{"source": "S001", "name": "offentlighetskommittén",
                                "abbreviation": "OFK"}],
                   events=[{"source": "S001", "date": "1969-04-11"}],
                   appointments=[{"source": "S001", "date": "1969-05-09"}])
    texts = {"S001": REPORT}
    assert about_inquiry(QUESTION, x, ["S001"], texts)
    assert about_inquiry("What did OFK propose?", x, ["S001"], texts)  # its name
    assert not about_inquiry(QUESTION.replace("1969", "1975"), x, ["S001"], texts)
    assert not about_inquiry(OTHER.replace("1975 ", ""), x, ["S001"], texts)  # subject
    assert not about_inquiry("When was the data law on secrecy signed, and by whom?", x,
                             ["S001"], texts)  # no inquiry asked about
