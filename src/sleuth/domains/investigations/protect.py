"""Living private persons: who they are, and keeping them out of what the case writes.

A person the sources name in an office (chair, member, expert, secretary, minister of a
public inquiry) is public in that role. Anyone else the sources name is a private person,
judged by the Censor's years rule (`sleuth.privacy.living.living_by_years`, the rule a
model is shown people by: no death known and a birth within 100 years, or no years at all,
is living). A living private person's name is masked wherever the case shows it, a quote
naming them is withheld, and no statement naming them reaches the summary (the legal
review checks this). Free text also goes through the Censor's PII scrubber
(`redact_text`: national ids, e-mail addresses, phone numbers).
"""

from __future__ import annotations

from typing import Any

from sleuth.domains.investigations.extraction import Extraction
from sleuth.privacy.living import MODEL_RULE, living_by_years
from sleuth.privacy.pii import redact_text

MASK = "[living private person]"
WITHHELD = "[quote withheld: it names a living private person]"


def protected(x: Extraction) -> dict[str, dict[str, Any]]:
    """name key -> {name, reason} for every living private person the sources name."""
    out: dict[str, dict[str, Any]] = {}
    for p in x.people:
        if p["public"]:
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
