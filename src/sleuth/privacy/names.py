"""Masking a living private person's name in free text and in JSON-like working state.

A name is found in the forms a reader would recognise it by, not only as the extraction
wrote it: the full name ("Mr. John Quincy Smith"), without its honorific, given name and
surname ("John Smith"), and the surname alone ("Smith", "john + smith" in a search) unless
another person the sources name, who is not protected, bears it too (masking it would hide
them). Matching is case-insensitive, on word boundaries, across any run of white space (a
line break inside a name in an OCR page); an underscore counts as a space, so a file named
after the person ("john_smith.txt", shown in a path) is masked too. A day of birth the
sources print for one of them ("4 March 1990") is masked too, as the Censor keeps a living
person's exact dates secret. What is masked is also scrubbed of generic PII
(`redact_text`). Same names, same output: the forms are sorted, the longest tried first.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from sleuth.privacy.pii import redact_text

MASK = "[living private person]"
DATE_MASK = "[date withheld]"
HONORIFICS = frozenset({
    "mr", "mrs", "ms", "miss", "mx", "dr", "prof", "sir", "dame", "lady", "lord", "rev",
    "herr", "fru", "fröken", "frk", "hr", "mme", "mlle", "m", "sr", "sra", "srta", "dott"})


def _tokens(name: str) -> list[str]:
    return [t for t in re.split(r"\s+", name.strip()) if t]


def _bare(tokens: list[str]) -> list[str]:
    """The name less the honorifics in front of it ("Mr." "Dr")."""
    i = 0
    while i < len(tokens) - 1 and tokens[i].rstrip(".").lower() in HONORIFICS:
        i += 1
    return tokens[i:]


def surname(name: str) -> str:
    """The last word of the name, less trailing punctuation; "" for a one-word name."""
    parts = _bare(_tokens(name))
    return parts[-1].strip(".,;:") if len(parts) >= 2 else ""


def name_forms(name: str, shared_surnames: Iterable[str] = ()) -> list[str]:
    """Every form `name` is masked in (see the module docstring), longest first."""
    tokens = _tokens(name)
    if not tokens:
        return []
    bare = _bare(tokens)
    forms = {" ".join(tokens), " ".join(bare)}
    if len(bare) >= 2:
        forms.add(f"{bare[0]} {bare[-1]}")
        last = surname(name)
        if len(last) > 1 and last.lower() not in {s.lower() for s in shared_surnames}:
            forms.add(last)
    return sorted((f for f in forms if f), key=lambda f: (-len(f), f))


@lru_cache(maxsize=64)
def _pattern(forms: tuple[str, ...]) -> re.Pattern[str] | None:
    words = sorted({f for f in forms if f.strip()}, key=lambda f: (-len(f), f))
    if not words:
        return None
    body = "|".join(r"[\s_]+".join(re.escape(t) for t in _tokens(w)) for w in words)
    return re.compile(rf"(?<![^\W_])(?:{body})(?![^\W_])", re.IGNORECASE)


class NameMask:
    """The names of living private persons, each in all its forms (`name_forms`)."""

    def __init__(self, forms: Iterable[str], dates: Iterable[str] = ()) -> None:
        self.forms = tuple(sorted(set(forms)))
        self.dates = tuple(sorted(set(dates)))
        self._re = _pattern(self.forms)
        self._dates = _pattern(self.dates)

    def __bool__(self) -> bool:
        return self._re is not None

    def mentions(self, text: str) -> bool:
        """Whether `text` names any of them, in any form."""
        return self._re is not None and self._re.search(text) is not None

    def text(self, text: str) -> str:
        """`text` with every form and day of birth masked, and PII scrubbed."""
        if self._re is not None:
            text = self._re.sub(MASK, text)
        if self._dates is not None:
            text = self._dates.sub(DATE_MASK, text)
        return redact_text(text)

    def json(self, obj: Any) -> Any:
        """Every string of a JSON-like value masked (`text`), keys included."""
        if isinstance(obj, str):
            return self.text(obj)
        if isinstance(obj, Mapping):
            return {self.json(k): self.json(v) for k, v in obj.items()}
        if isinstance(obj, list | tuple):
            return [self.json(v) for v in obj]
        return obj
