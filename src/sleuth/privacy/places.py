"""What a living person's place keeps: its region, never a postal code or a street.

`last_component` cuts a place to its last comma-separated part less any postal code (a
claim's value, issue 26: "Springfield, IL 62704" kept "IL 62704"); `address_parts` finds
the parts of a place a street address is written in, which `gedcom_text` masks in a
living person's records of a GEDCOM file.
"""

from __future__ import annotations

import re

REDACTED = "[redacted]"
# A postal code (US ZIP and ZIP+4, UK and Canadian postcodes, Continental four to six digit
# codes) and the words that end a street's name: what a place keeps of a living person's
# address is neither (issue 26: "Springfield, IL 62704" kept "IL 62704").
_POSTCODE = re.compile(
    r"\b(?:\d{4,6}(?:-\d{4})?|[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}|[A-Z]\d[A-Z]\s*\d[A-Z]\d)\b",
    re.I)
_STREET_END = re.compile(
    r"\b(?:street|st|road|rd|lane|ln|avenue|ave|drive|boulevard|blvd|terrace|crescent|"
    r"close|court|ct|place|pl|way|highway|hwy|route|parkway|pkwy|square|sq|row|alley|"
    r"box|apartment|apt|suite|flat)\.?$", re.I)


def last_component(place: str) -> str:
    """The region a living person's place is cut to: its last comma-separated part, less
    any postal code; a part that is a street address (a house number, a street's name) is
    never kept, whichever it is."""
    for part in reversed(place.split(",")):
        region = " ".join(_POSTCODE.sub(" ", part).split())
        if not region or any(ch.isdigit() for ch in region) or _STREET_END.search(region):
            continue  # a postal code alone, a house number, a street: look further up
        return region
    return REDACTED



_HOUSE_NUMBER = re.compile(r"^\s*\d")
_DWELLING = re.compile(r"\b(?:flat|apt|apartment|suite|unit|p\.?\s?o\.? box|box)\b\W*\d", re.I)


def address_parts(place: str) -> list[tuple[int, int]]:
    """Spans of `place` that are street-address data: a comma-separated part that is a
    house number or a street (masked whole), and every postal code elsewhere."""
    spans: list[tuple[int, int]] = []
    pos = 0
    for part in place.split(","):
        words = part.strip()
        if words and (_HOUSE_NUMBER.match(part) or _STREET_END.search(words)
                      or _DWELLING.search(words)):
            spans.append((pos, pos + len(part)))
        else:
            spans.extend((pos + m.start(), pos + m.end()) for m in _POSTCODE.finditer(part))
        pos += len(part) + 1
    return spans


def address_literals(place: str) -> list[str]:
    """The street-address parts of `place` as the Censor's secrets: each street part, each
    part holding a postal code ("IL 62704"), and each postal code on its own ("62704")."""
    out: list[str] = []
    for start, end in address_parts(place):
        piece = place[start:end].strip()
        if piece:
            out.append(piece)
    for part in place.split(","):
        if _POSTCODE.search(part):
            out.append(part.strip())
    return out
