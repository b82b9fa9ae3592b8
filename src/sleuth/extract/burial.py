"""After death: where and when a person was buried ("interment in X cemetery", "buried at"),
and "Jr." naming a father (`burial`, `junior`)."""


from __future__ import annotations

import re

from sleuth.extract.emit import Doc
from sleuth.extract.person_names import person_key
from sleuth.extract.places import read_place
from sleuth.extract.sentence import Sentence, Span, bw, subject_before
from sleuth.extract.window import (
    date_in,
    emit_date,
    emit_place,
    next_weekday,
    past_weekday,
    place_in,
    window_end,
)

_BURIAL = re.compile(rf"\b(?:burial|{bw('interment')}|buried|interred|(?:laid|placed)\s+to"
                     r"\s+rest|laid\s+away|(?<=remains\s)(?:were|was)\s+placed\s+in)\b", re.I)


# "The remains were placed to rest in ...": the item's deceased, whom no name gives
_REMAINS_BEFORE = re.compile(r"\b(?:the|his|her)[ \t\n]+(?:remains|body)\b[^.;]{0,30}$", re.I)


# A burial place is the cemetery as the notice names it: "the cemetery at Clear Ridge",
# "the family burial ground at Maken", "the Slusher burying grounds" (not only its town).
_GROUND = r"(?:cemetery|burial[ \t\n]+ground|burying[ \t\n]+grounds?|graveyard|churchyard)"


_CEMETERY_AT = re.compile(rf"\bthe[ \t\n]+(?:(?:family|old|village|town|city|public)[ \t\n]+)?"
                          rf"{_GROUND}[ \t\n]+(?:at|of|near)[ \t\n]+")


_NAMED_GROUND = re.compile(r"\bthe[ \t\n]+[A-Z][\w'-]+(?:[ \t\n]+[A-Z][\w'-]+)?[ \t\n]+"
                           r"(?:burying|burial)[ \t\n]+grounds?\b")


# a burial still to come ("interment will be made Saturday") has no day yet
_FUTURE = re.compile(r"\b(?:will|to\s+be|shall)\b", re.I)


_CLAUSE_END = re.compile(r"[;]|\b(?:and|funeral|services?|where|which)\b", re.I)


_AFTER_WHICH = re.compile(r"\b(?:after[ \t\n]+which|followed[ \t\n]+by)\b[^.;]*$", re.I)


# (and "interment ... beside Mr. Rice, who died in 1864": a relative clause tells another's
# event, not the burial)
_BORN_AFTER = re.compile(r"\b(?:born|(?:m|rn)arried|who)\b", re.I)


def burial(doc: Doc, sent: Sentence) -> None:
    m = _BURIAL.search(doc.text, sent.s, sent.e)
    if m is None:
        return
    if m.group().lower() in ("burial", "interment") or _REMAINS_BEFORE.search(
            doc.text, max(sent.s, m.start() - 60), m.start()):
        key0 = doc.focus_at(sent.s)
        subj = (key0, (m.start(), m.start())) if key0 else None
    else:
        subj = subject_before(doc, sent, m.start(), near=40)
    if subj is None:
        return
    key, ssp = subj
    conf = 0.85 if ssp[0] != ssp[1] else 0.75
    end = window_end(sent, m.end(), 140)
    place = _cemetery(doc, m.end(), end) or place_in(doc, sent, m.end(), end)
    if place:
        emit_place(doc, key, "burial_place", place, sent, ssp, conf, "place of burial")
    # "interment was made at the cemetery at Tonoloway on Sunday", "buried at Wentzville,
    # Tuesday": a weekday in the burial's own clause, the last before the issue, or the
    # next after it for a burial still to come ("burial will be held there Tuesday"). A
    # funeral's day is not the burial's ("the funeral was held Monday, and interment was
    # made in ...": the body may travel), so the clause ends at "and", ";" or "funeral".
    # ("the funeral services and burial will be held there Tuesday afternoon": its verb after)
    future = _FUTURE.search(doc.text, sent.s, min(end, m.end() + 12)) is not None
    born = _BORN_AFTER.search(doc.text, m.end(), end)
    # ("burial was made in Oakland cemetery, Elizabeth Dutton was born ... December 26th,
    # 1847": the next paragraph, its full stop lost, is no part of the burial's clause)
    end = born.start() if born else end
    stop = _CLAUSE_END.search(doc.text, m.end(), end)
    # (a day with no year of its own is read in the burial's clause only: "sent to Broadtop
    # City for interment, and the funeral took place on Thursday of last week")
    found = date_in(doc, m.end(), end, partial=False) or (None if future else date_in(
        doc, m.end(), stop.start() if stop else end))
    if found is None:
        found = (next_weekday if future else past_weekday)(
            doc, m.end(), stop.start() if stop else end)
    if found is None and _AFTER_WHICH.search(doc.text, max(sent.s, m.start() - 40), m.start()):
        # "Funeral services were held last Saturday at the church, ..., after which
        # interment was made in the Lutheran cemetery": the same day
        found = date_in(doc, sent.s, m.start(), partial=not future) or (
            past_weekday(doc, sent.s, m.start()) if not future else None)
    if found:
        emit_date(doc, key, "burial_date", found, sent, ssp, conf - 0.1, "stated burial date")


# "interment was1 made in", "burial will be at": the verb between the burial word and place
_BURIAL_VERB_GAP = re.compile(r"[ \t\n.]*(?:[\"']?(?:was|were|is|will|be|made|took|place)\S{0,2}"
                              r"[ \t\n]+){0,3}(?:in|at)?[ \t\n]*", re.I)


def _cemetery(doc: Doc, a: int, b: int) -> Span | None:
    """'in the cemetery at the M. E. church at Knobsville', 'in the Slusher burying
    grounds': the burial ground as written, from "the" to the place that ends it."""
    at = _CEMETERY_AT.search(doc.text, a, b)
    named = _NAMED_GROUND.search(doc.text, a, b)
    if named is not None and (at is None or named.start() < at.start()):
        return named.start(), named.end()
    if at is None or not _BURIAL_VERB_GAP.fullmatch(doc.text, a, at.start()):
        return None  # "interment ... after the service in the cemetery at": not its own
    sp = read_place(doc.text, at.end(), min(b, at.end() + 80))
    return (at.start(), sp[1]) if sp else None


def junior(doc: Doc, sent: Sentence) -> None:
    for n in sent.names:
        m = re.search(r",?\s+Jr\.?$", n.text)
        if m is None or doc.resolve(n.text) is None:
            continue
        key = doc.person(n.text, (n.start, n.end), sent.span)
        base = n.text[: m.start()]
        sp = (n.start, n.end)
        pkey = doc.keys.get(person_key(base)) or doc.keys.get(person_key(base + " Sr"))
        if pkey is None:
            pkey = doc.person(base, sp, sent.span, 0.4, inferred=True)
        doc.emit(key, "parent", doc.display[pkey], sent.span, [sp], 0.4,
                 "hypothesis: 'Jr.' usually names a son after his father", related=pkey,
                 is_fact=False)
