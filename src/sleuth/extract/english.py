"""The English word list (pyspellchecker's frequency list): what OCR joins and name gates
ask when a word is an ordinary English word. Loaded once, on first use."""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=1)
def word_list() -> tuple[dict[str, int], int]:
    """English word -> frequency, and the total count (loaded on first use, ~0.3 s)."""
    from spellchecker import SpellChecker  # heavy-ish: only asked where a word is in doubt

    freq = SpellChecker(language="en", distance=1).word_frequency
    return dict(freq.dictionary), int(freq.total_words)
