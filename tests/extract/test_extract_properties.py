"""Properties that must hold for any input: grounded slices, no crashes, bounded time."""

from __future__ import annotations

import time
from collections.abc import Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sleuth.extract import extract_text, parse_date
from sleuth.model.dates import GenDate
from sleuth.model.records import Candidate

Contract = Callable[[list[Candidate], str, str], None]

_WORDS = [
    "John", "Smith", "Mrs.", "Mr.", "and", "Mary", "died", "born", "at", "in", "Boston,",
    "Mass.", "May", "12,", "1890", "aged", "78", "years", "son", "daughter", "of", "wife",
    "survived", "by", "his", "her", "three", "sons,", "Jr.", "buried", "cemetery", "married",
    "to", "He", "She", "was", "yesterday", "-lrb-", "-rrb-", "(", ")", "--", ".", ",", "\n",
    "Co.,", "Pa.", "Interment", "McKibbin", "O'Brien", "Feb.", "1731/32", "abt", "1850",
]
_prose = st.lists(st.sampled_from(_WORDS), max_size=80).map(" ".join)
_text = st.one_of(_prose, st.text(max_size=300), st.binary(max_size=200).map(
    lambda b: b.decode("latin-1")))


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=_text, dated=st.booleans())
def test_every_candidate_is_a_grounded_slice(contract: Contract, text: str, dated: bool) -> None:
    ref = GenDate.from_parts(1916, 1, 6) if dated else None
    cands = extract_text(text, "snap", document_date=ref, page_starts=(0, len(text) // 2))
    contract(cands, text, "snap")
    for c in cands:
        assert c.citation is not None and c.citation.locator.page in (1, 2)
        if c.field.endswith("_date") and c.is_fact and ref is None:
            assert c.value[:4] in text  # never invent a year


@given(st.text(max_size=60))
def test_parse_date_never_raises(text: str) -> None:
    g = parse_date(text)
    assert g is None or (g.earliest is None or g.latest is None or g.earliest <= g.latest)


def test_junk_and_pathological_inputs_are_fast() -> None:
    cases = [
        "",
        "\x00\xff" * 5000,
        "A" * 100_000,
        "Mr. " * 20_000,
        ("John Smith " * 5000) + "died",
        "(" * 20_000,
        "-lrb- " * 10_000,
        "born " * 20_000,
        "Buck Valley, " * 10_000,
        "1890 " * 20_000,
        "son of Mr. and Mrs. " * 5000,
        "a" * 200_000,
        "\n" * 100_000,
    ]
    for text in cases:
        t0 = time.perf_counter()
        extract_text(text, "s")
        assert time.perf_counter() - t0 < 30, text[:30]  # hang guard


def test_five_megabytes(contract: Contract) -> None:
    para = (
        "John Henry McKibbin, aged 78 years, died at his home in Buck Valley, Fulton Co., Pa., "
        "on January 6, 1916. The council met last night and voted on the new bridge over the "
        "river, which the engineers say will cost more than the county had hoped.\n"
    )
    text = para * (5_000_000 // len(para))
    t0 = time.perf_counter()
    cands = extract_text(text, "big")
    assert time.perf_counter() - t0 < 120  # hang guard; throughput is benchmarked
    assert cands
    contract(cands[:200], text, "big")
