"""The Censor's dates read only around the years it looks for (`written_dates.date_windows`)
must be exactly those of reading the whole text with the date pattern: the same secrets
found, the same text after masking, whatever the text around them."""

from __future__ import annotations

import re
from datetime import date
from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from sleuth.privacy.written_dates import _ANY_DATE, DateSecrets, date_windows

# whole dates in each spelling (some secret, some not), their pieces, and what is around
# them in excerpts and GEDCOM files: joined at random they abut, overlap and nest
DATES = ("12 May 1990", "May 12, 1990", "1990-05-12", "12/05/90", "5.12.1990", "12th of May 1990",
         "Sept 5, 2001", "5 SEP 2001", "May 1991", "1991-05", "12 May 1991", "2001-9-5")
PIECES = ("12", "5", "05", "1990", "1991", "90", "2001", "-", "/", ".", " ", ", ", "\n",
          "May", "MAY", "Sept", "of", "th", "st", "DATE", "born", "Mayfield", "the", "@",
          "(", '"', "_", "é", "ſeptember", "²", "  ", "x", "3rd")
TOKENS = DATES + PIECES
texts = st.lists(st.sampled_from(TOKENS), max_size=24).map("".join)


def _reference(secrets: DateSecrets, text: str) -> tuple[bool, str]:
    """The whole text read with the date pattern, as the Censor did before."""
    found = any(secrets._secret(m) for m in _ANY_DATE.finditer(text))
    masked = _ANY_DATE.sub(lambda m: "#" * len(m[0]) if secrets._secret(m) else m[0], text)
    return found, masked


SECRETS = (
    DateSecrets({date(1990, 5, 12), date(2001, 9, 5)}, {(1991, 5)}),
    DateSecrets({date(1990, 12, 5)}, set()),
    DateSecrets(set(), {(1990, 5), (2001, 9)}),
)


@settings(max_examples=3000, deadline=None)
@given(texts, st.sampled_from(SECRETS))
def test_secrets_found_and_masked_as_in_the_whole_text(text: str, secrets: DateSecrets) -> None:
    found, masked = _reference(secrets, text)
    assert secrets.search(text) is found
    assert secrets.sub(lambda m: "#" * len(m[0]), text) == masked


@settings(max_examples=1000, deadline=None)
@given(texts)
def test_a_window_holds_every_date_that_overlaps_its_hits(text: str) -> None:
    hits = [m.span() for m in re.finditer(r"(?<!\d)\d{4}(?!\d)", text)]
    windows = date_windows(text, hits)
    for (_, b), (c, _) in pairwise(windows):
        assert b <= c
    inside = [m.span() for a, b in windows for m in _ANY_DATE.finditer(text, a, b)]
    for m in _ANY_DATE.finditer(text):
        if any(m.start() < hb and ha < m.end() for ha, hb in hits):
            assert m.span() in inside, (text, m)
    assert set(inside) <= {m.span() for m in _ANY_DATE.finditer(text)}


def test_a_gedcom_record_is_read_around_its_dates_only() -> None:
    text = "0 @I1@ INDI\n1 NAME Ann /May/\n1 BIRT\n2 DATE 12 MAY 1990\n2 PLAC Leeds, England\n"
    secrets = DateSecrets({date(1990, 5, 12)}, set())
    (window,) = date_windows(text, [(text.index("1990"), text.index("1990") + 4)])
    assert text[window[0]:window[1]] == " 12 MAY 1990\n2 "
    assert "12 MAY 1990" not in secrets.sub(lambda m: "█" * len(m[0]), text)


def test_a_date_word_cut_by_where_the_reading_starts_is_read_whole() -> None:
    """`of` may be followed by any run of spaces, so a date can start far before its year;
    the stretch read back from the year first starts inside "of" ("f" is no date word,
    "of" is)."""
    secrets = DateSecrets({date(1990, 5, 12)}, set())
    for gap in (1, 26, 27, 28, 29, 30, 100, 120, 130):
        text = "born the 12th of" + " " * gap + "May 1990."
        assert secrets.search(text) is _reference(secrets, text)[0] is True, gap


def test_a_month_the_pattern_reads_in_any_case_is_known() -> None:
    """Unicode case: an OCR'd long s and a Turkish i match the month names' letters."""
    secrets = DateSecrets({date(1790, 9, 5), date(1790, 4, 5)}, set())
    for text in ("5 ſeptember 1790", "Aprİl 5, 1790", "5 aprıl 1790", "5 SEPT. 1790"):
        assert secrets.search(text), text
        assert "1790" not in secrets.sub(lambda m: "#" * len(m[0]), text), text
