"""Bad input never crashes or hangs the prose extractor: junk, odd encodings, huge texts.

Time limits here are generous ceilings against hangs and quadratic blow-ups on a shared
machine, not performance targets (throughput is measured by the benchmark).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import pytest

from sleuth.extract import extract_text
from sleuth.model.dates import GenDate
from sleuth.model.records import Candidate

Contract = Callable[[list[Candidate], str, str], None]
REF = GenDate.from_parts(1916, 1, 6)
OBIT = (
    "Mrs. Rebecca Winters, widow of the late Jacob Winters, died at her home in Thompson "
    "township, on Monday, January 3, 1916, aged 85 years. The deceased was a daughter of "
    "Robert and Amy Bailey McClellan. She is survived by one sister, Mrs. Annie Winters, and "
    "by one half-sister, Mrs. Nettie Steele, of Everett, Pa.\n"
)


def timed(text: str, limit: float = 30.0) -> list[Candidate]:
    """Extract under a hang guard (generous: speed targets live in benchmarks/)."""
    t0 = time.perf_counter()
    out = extract_text(text, "s", document_date=REF)
    assert time.perf_counter() - t0 < limit, repr(text[:40])
    return out


def test_binary_junk_decoded_every_way(contract: Contract) -> None:
    rng = random.Random(1916)
    blob = bytes(rng.randrange(256) for _ in range(200_000))
    for enc in ("latin-1", "cp1252", "utf-8", "utf-16-le"):
        text = blob.decode(enc, errors="replace")
        cands = timed(text)
        contract(cands, text, "s")
    assert timed("\x00" * 100_000) == []


def test_mixed_encodings_still_extract(contract: Contract) -> None:
    # The same notice as UTF-8 read as Latin-1 (mojibake), with smart quotes, a BOM,
    # NULs and a UTF-16 fragment around it: the clean sentence must still be read.
    moj = "Jos\u00e9 M\u00fcller's caf\u00e9 \u201cburned\u201d".encode().decode("latin-1")
    utf16 = "John Smith".encode("utf-16-le").decode("latin-1")
    text = f"\ufeff{moj}\x00\x00 {utf16}\r\n{OBIT}\x85\u2028{moj}"
    cands = timed(text)
    contract(cands, text, "s")
    got = {(c.subject_name, c.field, c.value) for c in cands if c.is_fact}
    assert ("Mrs. Rebecca Winters", "death_date", "1916-01-03") in got
    assert ("Mrs. Rebecca Winters", "spouse", "Jacob Winters") in got


@pytest.mark.parametrize(
    "text",
    [
        "." * 500_000,
        ", " * 250_000,
        "-" * 500_000,
        "(" * 100_000 + ")" * 100_000,
        "?!" * 200_000,
        "Mrs.. " * 50_000,
        "died, " * 50_000,
        "survived by his wife, " * 20_000,
        "a son of " * 30_000,
        "Married, " * 30_000,
        "daugh\nter " * 30_000,
        "W. " * 100_000,
        "x" * 1_000_000,
        "Smith" * 100_000,
        ("John Smith, " * 2000 + "died. ") * 10,
    ],
    ids=lambda t: repr(t[:12]),
)
def test_repeated_punctuation_and_words_are_fast(contract: Contract, text: str) -> None:
    cands = timed(text)
    contract(cands[:100], text, "s")


def test_time_grows_linearly(contract: Contract) -> None:
    """Ten times the text must not take much more than ten times as long (CPU time of this
    process: other work on the machine must not decide it)."""
    small = OBIT * 100  # ~40 KB
    big = OBIT * 1000  # ~400 KB
    timed(small)  # warm-up
    t0 = time.process_time()
    timed(small)
    t_small = time.process_time() - t0
    t0 = time.process_time()
    cands = timed(big, 300.0)
    t_big = time.process_time() - t0
    assert t_big < 25 * max(t_small, 0.005), (t_small, t_big)
    contract(cands, big, "s")


@pytest.mark.slow
def test_fifty_megabytes_in_bounded_time() -> None:
    filler = ("The council met last night and voted on the new bridge over the river, which "
              "the engineers say will cost more than the county had hoped.\n")
    unit = OBIT + filler * 20
    text = unit * (50_000_000 // len(unit))
    t0 = time.perf_counter()
    cands = extract_text(text, "big", document_date=REF)
    elapsed = time.perf_counter() - t0
    assert cands and elapsed < 300, elapsed
