"""A stated age as GEDCOM's AGE payload, and back: how an age at death travels in a tree.

An age at death is stored as the number a record states ("67"; `pipeline.validator` takes
numbers only). GEDCOM writes it in its own grammar so that programs read it as an age, not
as a note: 5.5.1's AGE_AT_EVENT (`67y`, `<1y`, `67y 6m`, CHILD / INFANT / STILLBORN: no
space after the bound, as the gedcom7code 5.5.1 test files accept) and 7.0's Age (`67y`,
`< 1y`, the keywords gone: their bound, the word kept as PHRASE), the latter made from the
former by the same conversion a tree's own AGE lines go through (`convert.age_to_v7`).
A stated age counts completed years, so "0" (died under a year old) is `<1y`, not `0y`, which
7.0 uses for the stillborn; a fraction of a year is months ("0.5" is `6m`).
Read back, only an AGE in whole years ("67", "67y", and "<1y" for 0) is an age claim again;
any other (`3m`, `>67y`, INFANT) stays the tree's own line, written back as it was
(`export.gedcom_tree`).
"""

from __future__ import annotations

import re

from sleuth.gedcom.convert import age_to_v7

_KEYWORDS = frozenset({"CHILD", "INFANT", "STILLBORN"})
_NUMBER = re.compile(r"(?P<b>[<>])?\s*(?P<y>\d{1,3})(?:\.(?P<f>\d+))?")
_WHOLE = re.compile(r"(?:(?P<under><)\s*1|(?P<y>\d{1,3}))\s*(?:y|yrs?|years?)?", re.IGNORECASE)


def age_551(value: str) -> str | None:
    """A stated age in 5.5.1's AGE_AT_EVENT grammar, or None when it states no age GEDCOM can
    write (then the exporter keeps it as a note)."""
    text = " ".join(value.split())
    if text.upper() in _KEYWORDS:
        return text.upper()
    m = _NUMBER.fullmatch(text)
    if m is None:
        return None
    years, bound = int(m.group("y")), m.group("b") or ""
    months = int(float(f"0.{m.group('f')}") * 12) if m.group("f") else 0  # completed ones
    if not (years or months):
        return f"{bound}0y" if bound else "<1y"
    return bound + " ".join(f"{n}{unit}" for n, unit in ((years, "y"), (months, "m")) if n)


def gedcom_age(value: str, v7: bool) -> tuple[str, str] | None:
    """(AGE payload, PHRASE or "") of a stated age in the version written, or None."""
    payload = age_551(value)
    if payload is None or not v7:
        return (payload, "") if payload is not None else None
    text, phrase = age_to_v7(payload)
    return text, phrase or (value.strip() if payload in _KEYWORDS else "")


def whole_years(payload: str) -> int | None:
    """The completed years an AGE payload states, when it states only those: "67" or
    "67y", and "<1y" (0, as `age_551` writes it). "0y" is 7.0's stillborn: no count."""
    m = _WHOLE.fullmatch(payload.strip())
    if m is None:
        return None
    return 0 if m.group("under") else (int(m.group("y")) or None)
