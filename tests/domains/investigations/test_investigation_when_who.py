"""A question's "when" is answered by a date and its "who" by a person (issue 24): a year in a
reference number ("No 45/2001") or a capitalised word ("the Union", "Member States", a
title's words) answers neither, and the gap stays open."""

from __future__ import annotations

from pathlib import Path

from investigation_cases import write_corpus
from sleuth.domains.investigations.corpus import question_names
from sleuth.domains.investigations.general import asks_answered
from sleuth.domains.investigations.loop import start

QUESTION = "When was the Public Records Act adopted, and who signed it?"
RECITALS = """Public Records Act 1901

The Public Records Act lays down rules on the keeping of the records of the Union and of \
its Member States. Member States may maintain more specific provisions to adapt the \
application of the Public Records Act in the Union.
"""
# A person the Censor shows (dead by his years): a living private one would be withheld.
SIGNED = ("The Public Records Act was adopted at Albany and signed by John Hall (1850-1921), "
          "Governor of the State, on 27 April 1901.\n")


def test_when_needs_a_date_and_who_a_person() -> None:
    assert question_names(QUESTION) == set()  # a title's words are no one's names
    assert question_names("Who won the election between Wilson and Hughes?") == {
        "wilson", "hughes"}
    plain = "Member States may adapt the rules of Regulation (EC) No 45/2001 in the Union."
    assert asks_answered(plain) == {"what"}
    assert asks_answered(SIGNED) >= {"who", "when"}
    assert "who" in asks_answered("Hughes carried the election in Vermont by a wide margin.",
                                  frozenset({"hughes"}))


def test_a_when_and_who_no_statement_answers_stay_gaps(tmp_path: Path) -> None:
    unsigned = start(QUESTION, tmp_path / "a", write_corpus(tmp_path / "c1",
                                                            gdpr__txt=RECITALS))
    assert unsigned.status != "COMPLETE"
    assert {g.ref for g in unsigned.gaps if g.kind == "unanswered"} >= {"when", "who"}
    signed = start(QUESTION, tmp_path / "b", write_corpus(tmp_path / "c2",
                                                          gdpr__txt=RECITALS + SIGNED))
    assert signed.status == "COMPLETE" and not signed.gaps
    assert "John Hall" in (tmp_path / "b" / "summary.md").read_text(encoding="utf-8")
