"""Month names in the languages sleuth reads (English, Swedish, French), one table for all.

The lowest layer holds it so that every reader of dates (the claim verifier, the extractors,
the documents domain) agrees on what "maj", "juin" or "augusti" means; a month one layer
knows and another does not would read as a disagreement. Names are lower case; French ones
are given with and without their accents (OCR and ASCII sources drop them).
"""

from __future__ import annotations

# Full month names, January first, per language (ISO 639-1 code).
MONTH_NAMES: dict[str, tuple[str, ...]] = {
    "en": ("january", "february", "march", "april", "may", "june", "july", "august",
           "september", "october", "november", "december"),
    "sv": ("januari", "februari", "mars", "april", "maj", "juni", "juli", "augusti",
           "september", "oktober", "november", "december"),
    "fr": ("janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août",
           "septembre", "octobre", "novembre", "décembre"),
}  # fmt: skip

_UNACCENTED = str.maketrans("éû", "eu")


def month_number(name: str) -> int | None:
    """1-12 for a full month name in any language of `MONTH_NAMES` (any case, French with
    or without accents), else None."""
    return _NUMBER.get(name.lower())


_NUMBER: dict[str, int] = {}
for _names in MONTH_NAMES.values():
    for _i, _name in enumerate(_names, start=1):
        _NUMBER[_name] = _i
        _NUMBER[_name.translate(_UNACCENTED)] = _i
