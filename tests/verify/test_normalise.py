"""The documented normalisations, and the offset map back to the stored text."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from sleuth.verify import SourceText, normalise


def test_each_documented_rule() -> None:
    assert normalise("Cafe\u0301") == "Café"  # NFC
    assert normalise("born  May\n 12,\t1890") == "born May 12, 1890"  # whitespace folding
    assert normalise("exam-\nple and soft\u00adhyphen") == "example and softhyphen"
    assert normalise("“quoted” ‘single’") == "\"quoted\" 'single'"
    assert normalise("well-\nknown", join_hyphens=False) == "well-known"


def test_nothing_else_is_forgiven() -> None:
    assert normalise("John") != normalise("john")  # no case folding
    assert normalise("Smith") != normalise("Smyth")  # no spelling tolerance


def test_find_maps_back_to_the_stored_span() -> None:
    text = "Samuel Hollis died at his home in Buck\n   Valley on Thurs-\nday, March 9."
    src = SourceText(text)
    start, end = src.find("Buck Valley on Thursday")
    assert text[start:end] == "Buck\n   Valley on Thurs-\nday"


def test_find_prefers_the_occurrence_nearest_the_hint() -> None:
    text = "John Smith. Later: John Smith."
    src = SourceText(text)
    assert src.find("John Smith", start_hint=19) == (19, 29)
    assert src.find("John Smith") == (0, 10)


_chars = st.sampled_from([*"ab \n\t-’“é", "e\u0301", "\u00ad"])


@given(st.lists(_chars, min_size=1, max_size=60).map("".join), st.data())
def test_any_substring_is_found_and_maps_to_an_equivalent_span(text: str, data) -> None:
    i = data.draw(st.integers(0, len(text) - 1))
    j = data.draw(st.integers(i + 1, len(text)))
    piece = text[i:j]
    if not normalise(piece):
        return
    src = SourceText(text)
    found = src.find(piece)
    if found is None:  # a boundary cut through a hyphen+break or combining sequence
        assert normalise(piece) not in src.normalised
        return
    a, b = found
    assert normalise(text[a:b]) == normalise(piece)


_wide = st.sampled_from([*"aZ0-.' \n\t\r", "\r\n", "\xa0", "\u2028", "\x1c", "\u3000", "é",
                         "e\u0301", "\u0301", "\u0308", "\u0327", "\u1100", "\u1161", "\u11a8",
                         "가", "\u0345", "\u03b1", "-\n", "\u00ad", "’", "“"])


@given(st.lists(_wide, max_size=40).map("".join))
def test_the_text_alone_is_normalised_as_with_its_offset_map(text: str) -> None:
    """A text in NFC is normalised without building its offset map (specials apart, only
    its runs of whitespace change): the same text as the map's, and the same excerpts."""
    from sleuth.verify.normalise import _SPECIAL, _build, _replacement

    for t in (text, unicodedata.normalize("NFC", text)):
        assert SourceText(t).normalised == _build(t)[0]
        slow = _SPECIAL.sub(_replacement, unicodedata.normalize("NFC", t)).strip(" ")
        assert normalise(t) == slow
