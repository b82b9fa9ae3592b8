"""A GEDCOM file's text as the Censor shows it: no contact or street data of the living.

The extractor reads no claim from a `2 ADDR` (with its `ADR1`-`ADR3`, `CITY`, `STAE`,
`POST`, `CTRY`, `CONT`, `CONC` lines), `PHON`, `EMAIL`, `FAX` or `WWW`, so no claim's value
makes them a secret the Censor looks for: only the structure says whose they are. In every
level-0 record not known to be about the dead only, their values are masked, character for
character (`█`, as the Censor masks a secret: every locator into the text stays valid), and
so are the house numbers, streets and postal codes of its `PLAC` values
(`places.address_parts`).

"Known to be about the dead only": cited by at least one person's claim, and by no claim of
a person the Censor treats as living. A record no claim cites (the header, a submitter, a
repository) is masked too: its contact data is some living person's, or an institution's,
and neither is evidence about anyone in the case.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterable
from functools import lru_cache

from sleuth.privacy.places import address_parts

MASK = "█"
CONTACT_TAGS = ("ADDR", "ADR1", "ADR2", "ADR3", "CITY", "STAE", "POST", "CTRY", "PHON",
                "EMAIL", "FAX", "WWW")
_LINE_START = r"(?<![^\n\r])"  # at the text's start or after a line end (LF, CRLF or CR)
_RECORD = re.compile(_LINE_START + r"[ \t]*0[ \t]")
_HINT = re.compile(r"[ \t](?:" + "|".join(CONTACT_TAGS) + r"|PLAC)\b")
_CONTACT = re.compile(
    _LINE_START + r"[ \t]*(\d{1,2})[ \t]+(?:@[^@\n\r]*@[ \t]+)?(" + "|".join(CONTACT_TAGS)
    + r")(?:[ \t]([^\n\r]*))?")
_PLACE = re.compile(_LINE_START + r"[ \t]*\d{1,2}[ \t]+(?:@[^@\n\r]*@[ \t]+)?PLAC[ \t]([^\n\r]*)")
_LINE = re.compile(r"[ \t]*(\d{1,2})[ \t]+(?:@[^@\n\r]*@[ \t]+)?[A-Za-z0-9_]+(?:[ \t]([^\n\r]*))?")
_NEXT_LINE = re.compile(r"\r\n|\n|\r")


def record_starts(text: str) -> list[int]:
    """Where each level-0 record of a GEDCOM text starts (the text's start first)."""
    starts = [m.start() for m in _RECORD.finditer(text)]
    if not starts or starts[0] != 0:
        starts.insert(0, 0)
    return starts


def mask_contacts(text: str, cited: Callable[[], Iterable[tuple[int, bool]]]) -> str:
    """`text` with the contact and street data of every record not known to be about the
    dead only masked (see the module). `cited` gives (offset, by a living person) for every
    citation into the text; it is asked only when the text has such data at all."""
    if _HINT.search(text) is None:
        return text
    spans = _spans(text)
    if not spans:
        return text
    starts = record_starts(text)
    dead_only: dict[int, bool] = {}
    for offset, living in cited():
        rec = bisect_right(starts, offset) - 1
        dead_only[rec] = dead_only.get(rec, True) and not living
    parts: list[str] = []
    pos = 0
    for start, end in spans:
        if start < pos or dead_only.get(bisect_right(starts, start) - 1, False):
            continue
        parts += (text[pos:start], MASK * (end - start))
        pos = end
    parts.append(text[pos:])
    return "".join(parts)


@lru_cache(maxsize=8)
def _spans(text: str) -> tuple[tuple[int, int], ...]:
    """Value spans of every contact structure (its subordinate lines included) and of the
    street-address parts of every PLAC value, in order. Kept for the last few texts: the
    workbench censors a large GEDCOM file again whenever who cites it changes (a merge, a
    split), its text the same each time, and finding them is most of that."""
    spans: list[tuple[int, int]] = []
    for m in _CONTACT.finditer(text):
        if m.group(3):
            spans.append(m.span(3))
        level = int(m.group(1))
        pos = m.end()
        while (nl := _NEXT_LINE.match(text, pos)) is not None:
            sub = _LINE.match(text, nl.end())
            if sub is None or int(sub.group(1)) <= level:
                break
            if sub.group(2):
                spans.append(sub.span(2))
            pos = sub.end()
    for m in _PLACE.finditer(text):
        base = m.start(1)
        spans.extend((base + a, base + b) for a, b in address_parts(m.group(1)))
    return tuple(sorted(spans))
