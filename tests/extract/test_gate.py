"""The sentence gate: a lower-cased pattern on the lower-cased text finds what the
case-insensitive pattern finds, on real OCR pages and on the cases that could differ."""

from __future__ import annotations

import pytest

from shared_data import shared_path
from sleuth.extract.emit import split_sentences
from sleuth.extract.gate import Gate, lowered
from sleuth.extract.prose import TRIGGER
from sleuth.extract.reading import reading_view

PAGES = ("chronam_1916_front_pages", "pages")


def test_the_gate_lets_through_what_the_pattern_matches_on_real_pages() -> None:
    folder = shared_path("text", *PAGES)
    for page in sorted(folder.glob("*.txt"))[:12]:
        text = reading_view(page.read_text(encoding="utf-8", errors="replace")).text
        low = lowered(text)
        assert low is not None
        for s, e in split_sentences(text):
            assert TRIGGER.search(text, low, s, e) == (
                TRIGGER.pattern.search(text, s, e) is not None), text[s:e]


def test_capitals_line_breaks_and_marks() -> None:
    for text, hit in [("MRS. JONES DIED MONDAY.", True), ("She was Bom in Ohio.", True),
                      ("the daugh-\nter of Mr. Hale", True), ("Mr. and Mrs. Hale", True),
                      ("(1850-1916)", True), ("The town council met.", False),
                      ("Their horn sounded.", False)]:
        assert TRIGGER.search(text, lowered(text), 0, len(text)) is hit, text


def test_text_whose_lower_case_moves_offsets_reads_case_insensitively() -> None:
    text = "İstanbul: Mr. Hale DIED."
    assert lowered(text) is None
    assert TRIGGER.search(text, None, 0, len(text))


def test_a_pattern_that_reads_otherwise_lower_cased_is_refused() -> None:
    with pytest.raises(ValueError):
        Gate(r"\bDied\S", starts="a-z")
    with pytest.raises(ValueError):
        Gate(r"(?-i:Died)", starts="a-z")
