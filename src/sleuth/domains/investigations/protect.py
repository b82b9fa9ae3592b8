"""Living private persons: who they are, and keeping them out of what the case writes.

A person the sources name in an office (chair, member, expert, secretary, minister of a
public inquiry) is public in that role. Anyone else the sources name is a private person,
judged by the Censor's years rule (`sleuth.privacy.living.living_by_years`, the rule a
model is shown people by: no death known and a birth within 100 years, or no years at all,
is living), unless a dated newspaper page names them so long ago that the Censor's seed
rule finds them dead (an adult named in 1916 was born by 1901: `privacy.documents`), or
the sources give them a death, or a birth the same rule puts over 100 years ago: printed
after the name ("(1901–1980)") or told right after it in the sentence that names them
("John Smith was born on 4 March 1901", "född 1901", "died in 1980").
A living private person's name is masked wherever the case shows it, a quote naming them
is withheld, and no statement naming them reaches the summary (the legal
review checks this). A name is known in all its forms (`privacy.names`: without the
honorific, given name and surname, the surname alone unless a person not protected bears
it). Free text also goes through the Censor's PII scrubber (`redact_text`: national ids,
e-mail addresses, phone numbers).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date
from typing import Any

from sleuth.domains.investigations.extraction import Extraction
from sleuth.model.dates import years_before
from sleuth.model.records import Person
from sleuth.privacy.documents import ADULT_YEARS, Named
from sleuth.privacy.living import MODEL_RULE, classify, living_by_years
from sleuth.privacy.names import MASK as MASK
from sleuth.privacy.names import NameMask, name_forms, surname
from sleuth.privacy.pii import redact_text

WITHHELD = "[quote withheld: it names a living private person]"


def protected(x: Extraction, dated: dict[str, date] | None = None,
              texts: dict[str, str] | None = None) -> dict[str, dict[str, Any]]:
    """name key -> {name, reason} for every living private person the sources name.
    `dated`: source id -> the day of each dated newspaper page among the sources; `texts`:
    source id -> its text, read for a life's years printed after the name. Each entry also
    has `forms`: the name's forms to mask (`privacy.names.name_forms`)."""
    out: dict[str, dict[str, Any]] = {}
    for p in x.people:
        if p["public"] or _dead_by_document(p, dated or {}):
            continue
        birth, death, day = _life(p["name"], [(texts or {}).get(s, "") for s in p["sources"]])
        if living_by_years(birth, death, MODEL_RULE):
            # a living person's birth as the Censor shows it: its decade (`privacy.redaction`)
            why = (f"born in the {birth // 10 * 10}s by the sources, no death stated"
                   if birth is not None else "no birth or death year")
            out[p["key"]] = {"name": p["name"], "reason": "a private person (no public office "
                             f"in the sources) {why}: treated as living",
                             "dates": [day] if day else []}
    shared = {surname(p["name"]) for p in x.people if p["key"] not in out}
    for entry in out.values():
        entry["forms"] = name_forms(entry["name"], shared)
    return out


def name_mask(people: dict[str, dict[str, Any]]) -> NameMask:
    """The Censor's mask for these people's names, in every form `protected` gave them, and
    for the birth dates the sources print for them."""
    return NameMask((f for p in people.values() for f in p.get("forms") or [p["name"]]),
                    dates=[d for p in people.values() for d in p.get("dates", [])])


def whole_name_mask(people: dict[str, dict[str, Any]]) -> NameMask:
    """A mask of these people's whole names alone, the surname on its own left out: what
    names a source as one of them. Masking takes the surname alone too (a reader knows the
    person by it), but a surname may be anyone's: "West" on a 1916 page is no living Adam
    West."""
    return NameMask(f for p in people.values() for f in name_forms(p["name"], [surname(p["name"])]))


def names_protected(text: str, people: dict[str, dict[str, Any]]) -> bool:
    return name_mask(people).mentions(text)


def mask(text: str, people: dict[str, dict[str, Any]]) -> str:
    """`text` with every living private person's name masked and PII scrubbed."""
    return name_mask(people).text(text)


def mask_strict(text: str, people: dict[str, dict[str, Any]], topic: str) -> str:
    """`mask`, then the surname on its own, in any case, of each one the question (`topic`)
    names: the frameworks ask about the question's names a word at a time ("beside John and
    Smith"), and search for them so ("john + smith")."""
    text = mask(text, people)
    parts: set[str] = set()
    for p in people.values():
        if names_protected(topic, {"p": p}):
            words = [w for w in re.findall(r"[^\W\d_][\w'-]*", p["name"]) if len(w) > 2]
            parts.update(words[1:] or words)
    for w in sorted(parts, key=lambda w: (-len(w), w)):
        text = re.sub(rf"(?<!\w){re.escape(w)}(?!\w)", MASK, text, flags=re.I)
    return text


class ShownLines:
    """The lines a run prints (progress, its report), masked as the committed files are
    (`mask_strict`): the terminal and any log are outputs too. The loop tells it whom the
    sources captured so far protect (`learn`) before each line, so a line naming a source
    just captured is masked already."""

    def __init__(self, emit: Callable[[str], None]) -> None:
        self.emit = emit
        self.people: dict[str, dict[str, Any]] = {}
        self.topic = ""

    def learn(self, people: dict[str, dict[str, Any]], topic: str) -> None:
        self.people, self.topic = people, topic

    def __call__(self, line: str) -> None:
        self.emit(mask_strict(line, self.people, self.topic))


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


_YEAR = r"\b(1\d{3}|20\d{2})\b"
_YEARS = (rf"\(\s*[^()]{{0,30}}?{_YEAR}[^()]{{0,30}}?[–—-][^()]{{0,30}}?"
          rf"{_YEAR}[^()]{{0,10}}\)")
# What may stand between a name and the word that tells its birth or death ("John Smith was
# born", "Rune Hermansson, född", "John Smith (b."): nothing that could name anyone else.
_LINK = r"\s*(?:,|\(|–|-)?\s*(?i:who\s+)?(?i:was\s+|is\s+|has\s+|had\s+)?"
_BORN = r"(?i:born|b\.|f\.|född|föddes)"
_DIED = r"(?i:died|d\.|död|dog|avled|passed\s+away)"
# From that word to the year, within the sentence: "on 4 March 1901", "in Leeds in 1901".
_UPTO = r"(?:(?!\.\s+[A-ZÅÄÖ])[^;()\n]){0,40}?"


# A day of the month printed before the year that ends a match: "4 March 1990", "March 4,
# 1990", "4 mars 1990".
_DAY = re.compile(r"(?:\d{1,2}\.?\s+[^\W\d_]{3,}\.?|[^\W\d_]{3,}\.?\s+\d{1,2},?)\s+"
                  r"(?:1\d{3}|20\d{2})$")


def _lifespan(name: str, texts: list[str]) -> tuple[int | None, int | None]:
    """(birth, death) years the sources give the person, each None where none does: printed
    after the name as an encyclopedia opens an article ("Douglas Noel Adams (11 March 1952 –
    11 May 2001)"), or told in the sentence that names them, right after the name ("John
    Smith was born on 4 March 1901", "b. 1901", "född 1901", "died in 1980", "död 1980")."""
    birth, death, _ = _life(name, texts)
    return birth, death


def _life(name: str, texts: list[str]) -> tuple[int | None, int | None, str]:
    """`_lifespan`, and the day of birth as the source prints it ("4 March 1990"; "" when
    it gives a year alone): what masks a living person's birth date."""
    parts = name.split()
    if len(parts) < 2:
        return None, None, ""
    who = rf"\b{re.escape(parts[0])}(?:\s+[A-Z][\w.]*){{0,2}}\s+{re.escape(parts[-1])}"
    span = re.compile(rf"{who}\s*{_YEARS}")
    born = re.compile(rf"{who}{_LINK}{_BORN}{_UPTO}{_YEAR}")
    died = re.compile(rf"{who}{_LINK}{_DIED}{_UPTO}{_YEAR}")
    birth = death = None
    day = ""
    for text in texts:
        if m := span.search(text):
            return int(m.group(1)), int(m.group(2)), ""
        if birth is None and (m := born.search(text)):
            birth = int(m.group(1))
            day = d.group(0) if (d := _DAY.search(m.group(0))) else ""
        if death is None and (m := died.search(text)):
            death = int(m.group(1))
    return birth, death, day
