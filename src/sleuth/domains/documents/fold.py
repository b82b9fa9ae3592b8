"""Accents folded away, as the documents domain compares names ("Hélène" is "Helene").

A module of its own so that `timeline` can use it too: `entities` imports `timeline`
(`document_kind`), so `timeline` cannot import `entities`.
"""

from __future__ import annotations

import unicodedata


def unaccented(s: str) -> str:
    """`s` without its combining marks, compatibility forms split (NFKD: "ﬁ" is "fi")."""
    return "".join(c for c in unicodedata.normalize("NFKD", s) if not unicodedata.combining(c))


def fold(s: str) -> str:
    """Case and accents folded: the form entity keys compare."""
    return unaccented(s.casefold())
