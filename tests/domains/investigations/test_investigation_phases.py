"""Seed 003's phase diagram as a state machine, and the /questions triggers (issue 24)."""

from __future__ import annotations

from itertools import pairwise

import pytest

from sleuth.domains.investigations import phases as ph
from sleuth.domains.investigations.extraction import Extraction
from sleuth.domains.investigations.frameworks import FRAMEWORKS, ask


def test_the_diagrams_edges_and_no_others() -> None:
    path = [ph.SETUP, ph.RESEARCH, ph.EXTRACTION, ph.QUESTIONS, ph.INVESTIGATION,
            ph.VERIFICATION, ph.SYNTHESIS, ph.FINALE, ph.COMPLETE]
    for a, b in pairwise(path):
        assert ph.check(a, b) == b
    assert ph.check(ph.EXTRACTION, ph.INVESTIGATION) == ph.INVESTIGATION  # QUESTIONS is "?"
    assert ph.check(ph.SYNTHESIS, ph.RESEARCH) == ph.RESEARCH  # a new iteration
    assert ph.check(ph.FINALE, ph.RESEARCH) == ph.RESEARCH  # the finale sends it back
    for a, b in [(ph.SETUP, ph.VERIFICATION), (ph.RESEARCH, ph.SYNTHESIS),
                 (ph.VERIFICATION, ph.COMPLETE), (ph.SYNTHESIS, ph.COMPLETE),
                 (ph.COMPLETE, ph.RESEARCH), (ph.QUESTIONS, ph.VERIFICATION)]:
        with pytest.raises(ph.IllegalTransition):
            ph.check(a, b)


def test_the_finale_loop() -> None:
    steps = [ph.F_QUESTIONS, ph.F_VERIFY, ph.F_INTEGRITY, ph.F_LEGAL, ph.COMPLETE]
    for a, b in pairwise(steps):
        assert ph.check_finale(a, b) == b
    assert ph.check_finale(ph.F_QUESTIONS, ph.RESEARCH)  # critical new questions
    assert ph.check_finale(ph.F_VERIFY, ph.RESEARCH)  # verification fails
    assert ph.check_finale(ph.F_INTEGRITY, ph.F_VERIFY)  # MAJOR issues addressed
    assert ph.check_finale(ph.F_LEGAL, ph.F_VERIFY)  # HIGH risks addressed
    with pytest.raises(ph.IllegalTransition):
        ph.check_finale(ph.F_INTEGRITY, ph.COMPLETE)  # legal review is never skipped
    with pytest.raises(ph.IllegalTransition):
        ph.check_finale(ph.F_QUESTIONS, ph.F_INTEGRITY)  # nor the verification


def test_termination_check_after_synthesis() -> None:
    assert ph.after_synthesis(passed=True, gaps=0) == ph.FINALE
    assert ph.after_synthesis(passed=True, gaps=1) == ph.RESEARCH
    assert ph.after_synthesis(passed=False, gaps=0) == ph.RESEARCH


@pytest.mark.parametrize(("iteration", "stuck", "saturated", "stages"), [
    (1, False, False, (ph.EARLY,)),
    (2, False, False, ()),
    (3, False, False, ()),
    (4, False, False, (ph.MID,)),
    (8, False, False, (ph.MID,)),
    (5, True, False, (ph.STUCK,)),
    (6, False, True, (ph.LATE,)),
    (4, True, True, (ph.MID, ph.STUCK, ph.LATE)),
])
def test_questions_triggers(iteration: int, stuck: bool, saturated: bool,
                            stages: tuple[str, ...]) -> None:
    trig = ph.questions_due(iteration, verification_passed=False, stuck=stuck,
                            saturation_claimed=saturated)
    assert trig.stages == stages
    assert bool(trig) == bool(stages)
    assert ph.after_extraction(trig) == (ph.QUESTIONS if stages else ph.INVESTIGATION)


def test_stuck_does_not_trigger_once_verification_passed() -> None:
    trig = ph.questions_due(3, verification_passed=True, stuck=True, saturation_claimed=False)
    assert not trig


def test_every_framework_of_the_table_exists_and_asks_deterministically() -> None:
    for stage, names in ph.STAGE_FRAMEWORKS.items():
        assert all(n in FRAMEWORKS for n in names), stage
    x = Extraction(
        people=[{"name": "Rune Hermansson", "key": "hermansson|r", "public": True,
                 "roles": ["chair"], "sources": ["S001"], "needs_investigation": True,
                 "mentions": []}],
        entities=[{"name": "Justitiedepartementet", "key": "j", "type": "ministry",
                   "mentions": []}],
        committees=[{"name": "offentlighetskommittén", "abbreviation": "OFK", "key": "o",
                     "source": "S001"}],
        events=[{"date": "1969-04-11", "event_type": "directive_issued", "quote": "x"}],
        statements=[{"summary": "OFK föreslår förslag till datalag."}])
    early = ask(ph.STAGE_FRAMEWORKS[ph.EARLY], ph.EARLY, x, {}, iteration=1, known=set())
    again = ask(ph.STAGE_FRAMEWORKS[ph.EARLY], ph.EARLY, x, {}, iteration=1, known=set())
    assert [q.id for q in early] == [q.id for q in again]  # deterministic
    texts = [q.text for q in early]
    assert any("Who chaired offentlighetskommittén (OFK)" in t for t in texts)
    assert any("Justitiedepartementet" in t for t in texts)  # stakeholders
    assert any("Rune Hermansson" in t for t in texts)  # relationships
    late = ask(ph.STAGE_FRAMEWORKS[ph.LATE], ph.LATE, x, {}, iteration=3,
               known={q.id for q in early})
    assert any(q.framework == "second-order" and q.query == ["datalag"] for q in late)
    assert all(q.critical for q in late)
    assert not ask(ph.STAGE_FRAMEWORKS[ph.LATE], ph.LATE, x, {}, iteration=4,
                   known={q.id for q in early + late})  # a question is asked once


def test_a_question_about_no_inquiry_is_asked_in_its_own_terms() -> None:
    """The 5W1H of a general question name its subject and search for its names and words,
    never an inquiry's chair, directive or report ("ordförande", "betänkande")."""
    topic = ("What did the newspapers report about the presidential election between Wilson "
             "and Hughes in 1916?")
    early = ask(ph.STAGE_FRAMEWORKS[ph.EARLY], ph.EARLY, Extraction(), {"topic": topic},
                iteration=1, known=set())
    core = {q.framework: q for q in early if q.framework in ("who", "what", "when")}
    assert "Wilson and Hughes" in core["who"].text and core["who"].query == ["wilson", "hughes"]
    assert core["what"].query == ["wilson", "hughes", "presidential"]
    assert all("inquiry" not in q.text for q in early)
    words = {w for q in early for w in q.query}
    assert not words & {"ordförande", "förslag", "betänkande", "direktiv", "newspapers"}
    late = ask(ph.STAGE_FRAMEWORKS[ph.LATE], ph.LATE, Extraction(), {"topic": topic},
               iteration=2, known={q.id for q in early})
    assert not any("chair" in q.text for q in late)
