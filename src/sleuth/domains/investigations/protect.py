"""Living private persons: who they are, and keeping them out of what the case writes.

A person the sources name in an office (chair, member, expert, secretary, minister of a
public inquiry) is public in that role. Anyone else the sources name is a private person,
judged by the Censor's years rule (`sleuth.privacy.living.living_by_years`, the rule a
model is shown people by: no death known and a birth within 100 years, or no years at all,
is living), unless a dated newspaper page names them so long ago that the Censor's seed
rule finds them dead (an adult named in 1916 was born by 1901: `privacy.documents`), or
a source prints their life's years after their name with a death among them.
A living private person's name is masked wherever the case shows it, a quote naming them
is withheld, and no statement naming them reaches the summary (the legal
review checks this). Free text also goes through the Censor's PII scrubber
(`redact_text`: national ids, e-mail addresses, phone numbers).
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from sleuth.domains.investigations.extraction import Extraction
from sleuth.model.dates import years_before
from sleuth.model.records import Person
from sleuth.privacy.documents import ADULT_YEARS, Named
from sleuth.privacy.living import MODEL_RULE, classify, living_by_years
from sleuth.privacy.pii import redact_text

MASK = "[living private person]"
WITHHELD = "[quote withheld: it names a living private person]"


def protected(x: Extraction, dated: dict[str, date] | None = None,
              texts: dict[str, str] | None = None) -> dict[str, dict[str, Any]]:
    """name key -> {name, reason} for every living private person the sources name.
    `dated`: source id -> the day of each dated newspaper page among the sources; `texts`:
    source id -> its text, read for a life's years printed after the name."""
    out: dict[str, dict[str, Any]] = {}
    for p in x.people:
        if p["public"] or _dead_by_document(p, dated or {}):
            continue
        years = _lifespan(p["name"], [(texts or {}).get(s, "") for s in p["sources"]])
        if years and not living_by_years(*years, MODEL_RULE):
            continue
        if living_by_years(None, None, MODEL_RULE):
            out[p["key"]] = {"name": p["name"], "reason": "a private person (no public office "
                             "in the sources) with no birth or death year: treated as living"}
    return out


def names_protected(text: str, people: dict[str, dict[str, Any]]) -> bool:
    low = text.lower()
    return any(p["name"].lower() in low for p in people.values())


def mask(text: str, people: dict[str, dict[str, Any]]) -> str:
    """`text` with every living private person's name masked and PII scrubbed."""
    for p in sorted(people.values(), key=lambda p: -len(p["name"])):
        text = text.replace(p["name"], MASK)
    return redact_text(text)


def quote(text: str, people: dict[str, dict[str, Any]]) -> str:
    """A quote as shown: withheld whole when it names a living private person (a cut quote
    would no longer be verbatim), PII scrubbed otherwise."""
    return WITHHELD if names_protected(text, people) else redact_text(text)


def _dead_by_document(p: dict[str, Any], dated: dict[str, date]) -> bool:
    """Named as an adult in a newspaper so old that they cannot be living: the Censor's
    seed rule on the earliest dated paper naming them (`privacy.documents`)."""
    days = [dated[s] for s in p["sources"] if s in dated]
    if not days:
        return False
    day = min(days)
    named = Named(day, years_before(day, ADULT_YEARS), f"a newspaper dated {day.isoformat()}")
    living, _, _ = classify(Person(id=p["key"], canonical_name=p["name"]), [], named=named)
    return not living


_YEARS = (r"\(\s*[^()]{0,30}?\b(1\d{3}|20\d{2})\b[^()]{0,30}?[–—-][^()]{0,30}?"
          r"\b(1\d{3}|20\d{2})\b[^()]{0,10}\)")


def _lifespan(name: str, texts: list[str]) -> tuple[int, int] | None:
    """(birth, death) years a source prints after the name, as an encyclopedia opens an
    article ("Douglas Noel Adams (11 March 1952 – 11 May 2001)"); None where none does."""
    parts = name.split()
    if len(parts) < 2:
        return None
    pat = re.compile(rf"\b{re.escape(parts[0])}(?:\s+[A-Z][\w.]*){{0,2}}\s+"
                     rf"{re.escape(parts[-1])}\s*{_YEARS}")
    for text in texts:
        if m := pat.search(text):
            return int(m.group(1)), int(m.group(2))
    return None
