"""A quote a paper "reported" is one readable sentence (issue 24): column-interleaved OCR
("ocv , i . , , n- j") is not quoted, and an all-caps headline run ends the sentence
before it, so no other article's headline is glued onto a report."""

from __future__ import annotations

from shared_data import shared_path
from sleuth.domains.investigations.general import before_headline, candidates, debris, is_prose
from sleuth.sources import load_file

QUESTION = "What did the newspapers report about the Sussex?"
PAGE = "19160510__sn91066782-ed-1_seq-1.txt"


def test_debris_and_headlines_are_not_quoted_the_report_is() -> None:
    assert not is_prose('An attack on the "uy note., i. ne evening ocv , i . , , n- j eupicd '
                        "with an exhibition of motion pictures")
    assert is_prose("Allan Benson, the Socialist candidate, was within one of the Hughes vote "
                    "and lacked the four necemary to overtake the president.")
    glued = ("An attack was reported in a despatch dated yestenlay. 1,300 TEACHERS PRESENT And "
             "More Were Expected at State Convention in Burlington.")
    assert glued[:before_headline(glued, 0, len(glued))].endswith("dated yestenlay.")
    dateline = "NEW YORK, May 9. The steamer sailed to-day for Liverpool with her cargo."
    assert before_headline(dateline, 0, len(dateline)) == len(dateline)  # no prose before it
    text = load_file(shared_path("text", "chronam_1916_front_pages", "pages", PAGE)
                     ).snapshot.text
    found = [c.text for c in candidates(QUESTION, {"S001": text})]
    assert found and all(debris(t) <= 0.15 for t in found)
    assert not any("ADMITS SUSSEX ATTACK" in t or "TEACHERS PRESENT" in t for t in found)
    assert any(t.startswith("Secretary of State fansing received a message") for t in found)
