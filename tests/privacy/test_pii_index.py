"""The Censor's one-pass indexes: `Literals` (many secrets in one trie-shaped pattern) must
find exactly what a loop over the literals finds, and the PII gate must never hide a match
of the generic patterns (it only lets texts that cannot match skip them)."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from sleuth.privacy.pii import PII_PATTERNS, Literals, may_have_pii, redact_text, sub_pii


def covered(text: str, literals: list[str]) -> set[int]:
    """Character positions covered by any occurrence of any literal (case-insensitive)."""
    low = text.lower()
    out: set[int] = set()
    for lit in {x.lower() for x in literals if x}:
        start = low.find(lit)
        while start >= 0:
            out.update(range(start, start + len(lit)))
            start = low.find(lit, start + 1)
    return out


def masked(text: str, lits: Literals) -> set[int]:
    return {i for a, b in lits.spans(text) for i in range(a, b)}


words = st.text(alphabet="ab1@ .-", min_size=1, max_size=6)


@settings(max_examples=400, deadline=None)
@given(st.lists(words, min_size=1, max_size=12), st.text(alphabet="ab1@ .-AB", max_size=60))
def test_literals_cover_exactly_every_occurrence(literals: list[str], text: str) -> None:
    lits = Literals(literals)
    assert masked(text, lits) == covered(text, literals)
    assert lits.search(text) == bool(covered(text, literals))
    out = lits.sub(lambda s: "#" * len(s), text)
    assert len(out) == len(text)
    assert {i for i, ch in enumerate(out) if ch == "#" and text[i] != "#"} <= masked(text, lits)


def test_literals_mask_overlapping_and_long_secrets() -> None:
    lits = Literals(["abc123def", "123defxyz", "42 Maple Avenue", "x" * 3000])
    assert lits.sub(lambda s: "█" * len(s), "AT 42 maple AVENUE; abc123defxyz") == (
        "AT ███████████████; ████████████")
    assert lits.spans("y" + "x" * 3001) == [(1, 3002)]
    assert not Literals([]) and Literals([]).sub(str.upper, "abc") == "abc"


# digit groups with the separators phone numbers and ids use (about 5% match a pattern),
# and free text over the same characters
pii_like = st.one_of(
    st.lists(
        st.tuples(st.sampled_from(["", "", "", "+", "(", "AB ", "x@y."]),
                  st.text("0123456789", min_size=1, max_size=4),
                  st.sampled_from([" ", "-", ".", "/", ") ", "-", " "])),
        min_size=2, max_size=5,
    ).map(lambda xs: "".join(a + b + c for a, b, c in xs).strip() + " "),
    st.text(alphabet="0123456789 -().+/@aZ", max_size=40),
)


@settings(max_examples=3000, deadline=None)
@given(pii_like)
def test_gate_never_hides_a_pii_match(text: str) -> None:
    if any(p.search(text) for p in PII_PATTERNS):
        assert may_have_pii(text)


@settings(max_examples=2000, deadline=None)
@given(st.lists(pii_like, max_size=4).map(" x ".join))
def test_masking_where_a_match_can_be_is_masking_the_whole_text(text: str) -> None:
    """The Censor masks a long stored text's PII searched only in its digit runs and near
    its "@"s (`sub_pii`): the same text as each pattern over all of it."""
    def mask(m: re.Match[str]) -> str:
        return "#" * len(m[0])

    expected = text
    for pattern in PII_PATTERNS:
        assert sub_pii([pattern], mask, text) == pattern.sub(mask, text), pattern.pattern
        expected = pattern.sub(mask, expected)
    assert sub_pii(PII_PATTERNS, mask, text) == expected
    assert sub_pii(PII_PATTERNS, lambda m: "[x]", text) == redact_all(text)


def redact_all(text: str) -> str:
    for pattern in PII_PATTERNS:
        text = pattern.sub("[x]", text)
    return text


def test_gate_lets_plain_history_skip() -> None:
    assert not may_have_pii("born 12 May 1990 in Springfield, Sangamon, Illinois")
    assert may_have_pii("tel 01.23.45.67.89") and "45.67" not in redact_text("tel 01.23.45.67.89")
    assert re.fullmatch(r"\[redacted: email\]", redact_text("a@b.org"))


def test_email_pattern_reads_long_junk_tokens_once() -> None:
    """OCR junk ("xxxx…" with no "@") used to cost O(n²): 20 KB took half a second, 1 MB
    would take many minutes. The pattern now starts only where a run starts."""
    from sleuth.privacy.pii import EMAIL_RE

    junk = "x" * 1_000_000
    assert EMAIL_RE.search(junk) is None
    assert EMAIL_RE.findall(junk + " write to ann.lee@example.org.") == ["ann.lee@example.org"]
    assert EMAIL_RE.findall("a@" * 1000) == []
