"""What staging keeps of a candidate between its two passes gives the same candidate back."""

from __future__ import annotations

from sleuth.model import Candidate, Citation, Locator, MatchStatus
from sleuth.pipeline.staging import _keep, _restore
from sleuth.pipeline.subjects import SubjectMap

TEXT = "0 @I1@ INDI\n1 NAME John /Smith/\n0 @I2@ INDI\n1 NAME John /Smith/\n"


def _cand(start: int, end: int, excerpt: str, snapshot: str = "s1") -> Candidate:
    return Candidate(subject="@I1@", subject_name="John Smith", field="name",
                     value="John Smith", confidence=0.9, rationale="NAME line",
                     citation=Citation(snapshot_id=snapshot, excerpt=excerpt,
                                       locator=Locator(start=start, end=end, line=2)))


def test_a_kept_candidate_is_restored_with_every_value() -> None:
    subjects = SubjectMap("s1", text=TEXT)
    exact = _cand(0, 31, TEXT[0:31])
    elsewhere = _cand(0, 31, "John Smith")  # not what the text holds there
    other = _cand(0, 31, TEXT[0:31], snapshot="s2")
    for cand in (exact, elsewhere, other):
        back = _restore(_keep(cand, MatchStatus.EXACT, subjects), subjects)
        want = cand.model_copy(update={"citation": cand.citation.model_copy(  # type: ignore[union-attr]
            update={"match_status": MatchStatus.EXACT})})
        assert back == want
        assert list(back.__dict__) == list(want.__dict__)  # fields in order, dumps alike
    bare = Candidate(subject="s", field="note", value="v", confidence=0.5, is_fact=False,
                     rationale="")
    assert _restore(_keep(bare, None, subjects), subjects) == bare


def test_record_lines_compare_by_their_words() -> None:
    """Two subjects share a record line when their excerpts say the same words, wherever
    each stands: a span of the text and the words themselves are one line."""
    subjects = SubjectMap("s1", text=TEXT)
    first, second = TEXT.index("1 NAME"), TEXT.rindex("1 NAME")
    span = subjects.line_of(_cand(first, first + 17, TEXT[first:first + 17]).citation)  # type: ignore[arg-type]
    words = subjects.line_of(_cand(0, 5, "1 NAME John /Smith/"[:17], snapshot="s2").citation)  # type: ignore[arg-type]
    assert isinstance(span, int) and words == TEXT[second:second + 17]
    subjects.lines = {"a": {span}, "b": {words}}
    assert subjects.line_texts("a") == subjects.line_texts("b") == {TEXT[first:first + 17]}
