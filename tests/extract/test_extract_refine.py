"""refine(): widening an excerpt on a validator's request, and refusing what it cannot do."""

from __future__ import annotations

from sleuth.extract import extract_text, refine
from sleuth.model.citation import Citation, Locator
from sleuth.model.records import Candidate

TEXT = ("The council met. Mrs. Anna Berg died at her home in Ystad on May 3, 1890, after a "
        "long illness. Her funeral was held Sunday.")


def _short_candidate() -> Candidate:
    start = TEXT.index("died")
    end = start + len("died at her home in Ystad")
    return Candidate(
        subject="p1", subject_name="Mrs. Anna Berg", field="death_place", value="Ystad",
        confidence=0.8,
        citation=Citation(snapshot_id="s", excerpt=TEXT[start:end],
                          locator=Locator(start=start, end=end, page=1)),
    )


def test_widen_to_sentence() -> None:
    c = _short_candidate()
    r = refine(c, "excerpt too short; widen the excerpt to the full sentence", TEXT)
    assert r is not None and r.citation is not None
    loc = r.citation.locator
    assert r.citation.excerpt == TEXT[loc.start : loc.end]
    assert r.citation.excerpt.startswith("Mrs. Anna Berg died")
    assert r.citation.excerpt.endswith("long illness.")
    assert loc.page == 1 and r.value == c.value and r.id != c.id


def test_widen_whole_sentence_takes_neighbours() -> None:
    cands = extract_text(TEXT, "s")
    place = next(c for c in cands if c.field == "death_place")
    r = refine(place, "widen the excerpt", TEXT)
    assert r is not None and r.citation is not None and place.citation is not None
    assert len(r.citation.excerpt) > len(place.citation.excerpt)
    loc = r.citation.locator
    assert r.citation.excerpt == TEXT[loc.start : loc.end]


def test_refuses_what_it_cannot_do() -> None:
    c = _short_candidate()
    assert refine(c, "find a primary source for this", TEXT) is None
    assert refine(c, "widen", "completely different text") is None
    assert refine(c.model_copy(update={"citation": None}), "widen", TEXT) is None
