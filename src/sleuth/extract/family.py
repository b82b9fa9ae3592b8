"""Family and after-death patterns: survivor lists, "of PLACE" residences, burial, "Jr.".

Survivor lists name many people in one sentence ("his wife, Mary, and three sons, John, James
and Will"), so the role word before each group decides the relationship; bare given names
are kept as written, never completed with a surname the text does not give.
"""

from __future__ import annotations

import re

from sleuth.extract.emit import Doc
from sleuth.extract.names import person_key
from sleuth.extract.places import read_place
from sleuth.extract.prose import (
    SEX_BY_ROLE,
    Sentence,
    Span,
    date_in,
    emit_date,
    emit_place,
    place_in,
    subject_before,
    window_end,
)

_SURVIVED = re.compile(
    r"\b(?:(?:is|are|was)\s+)?survived\s+by|\bleaves\b|\bleft\s+to\s+mourn|\bsurvivors\s+are",
    re.I)
_ROLE = re.compile(r"\b(?P<r>wife|husband|widow|sons?|daughters?|children|brothers?|sisters?)\b",
                   re.I)
_BURIAL = re.compile(r"\b(?:burial|interment|buried|interred|laid\s+to\s+rest)\b", re.I)
_FIELD_BY_ROLE = {"wife": "spouse", "husband": "spouse", "widow": "spouse", "son": "child",
                  "sons": "child", "daughter": "child", "daughters": "child",
                  "children": "child", "brother": "sibling", "brothers": "sibling",
                  "sister": "sibling", "sisters": "sibling"}
_BARE_STOP = re.compile(r"\b(?:his|her|their|also|besides|grand\w*|nephews?|nieces?)\b|;")
_BARE = re.compile(r"(?<![\w.])[A-Z][a-z]{2,15}(?![\w'])")
def survivors(doc: Doc, sent: Sentence) -> None:
    m = _SURVIVED.search(doc.text, sent.s, sent.e)
    if m is None:
        return
    subj = subject_before(doc, sent, m.start())
    if subj is None:
        return
    key, ssp = subj
    roles = list(_ROLE.finditer(doc.text, m.end(), sent.e))
    for i, r in enumerate(roles):
        role = r.group("r").lower()
        field = _FIELD_BY_ROLE[role]
        seg_end = roles[i + 1].start() if i + 1 < len(roles) else sent.e
        if field == "spouse":
            seg_end = min(seg_end, r.end() + 40)
        found = 0
        pos = r.end()
        for n in sent.names:
            if n.start < pos or n.start >= seg_end:
                continue
            _survivor(doc, sent, key, ssp, n.text, (n.start, n.end), role, field, n.sex)
            pos = n.end
            found += 1
        if found == 0:
            stop = _BARE_STOP.search(doc.text, r.end(), seg_end)
            for b in _BARE.finditer(doc.text, r.end(), stop.start() if stop else seg_end):
                w = b.group()
                if w.lower() in _ROLE_WORDS or w.lower() in _NOT_GIVEN:
                    continue
                _survivor(doc, sent, key, ssp, w, (b.start(), b.end()), role, field, None)
                if field == "spouse":
                    break


_ROLE_WORDS = frozenset(_FIELD_BY_ROLE)
_NOT_GIVEN = frozenset(
    "the and his her their mrs mr miss who was were are all also at in of home city county "  # noqa: SIM905
    "two three four five six seven eight nine ten one".split()
)


def _survivor(doc: Doc, sent: Sentence, key: str, ssp: Span, name: str, nsp: Span, role: str,
              field: str, title_sex: str | None) -> None:
    okey = doc.person(name, nsp, sent.span, 0.85)
    if okey == key:
        return
    doc.emit(key, field, doc.display[okey], sent.span, [ssp, nsp], 0.85,
             f"survivor listed as {role}", related=okey)
    sex = title_sex or ({"F": "F", "M": "M"}.get(SEX_BY_ROLE.get(role, "")) if
                        field != "spouse" else None)
    doc.sex(okey, sex, sent.span, nsp, 0.8, f"listed among {role}")
    residence(doc, sent, okey, nsp)


def residence(doc: Doc, sent: Sentence, key: str, nsp: Span) -> None:
    m = re.match(r",?[ \t]*\n?[ \t]*of[ \t]+\n?[ \t]*(?:near[ \t]+)?", doc.text[nsp[1]:sent.e])
    if m is None or sent.lower_mode:
        return
    a = nsp[1] + m.end()
    sp = read_place(doc.text, a, min(sent.e, a + 80))
    if sp:
        emit_place(doc, key, "residence", sp, sent, nsp, 0.65, "'of PLACE' after the name")


def burial(doc: Doc, sent: Sentence) -> None:
    m = _BURIAL.search(doc.text, sent.s, sent.e)
    if m is None:
        return
    if m.group().lower() in ("burial", "interment"):
        key0 = doc.focus_at(sent.s)
        subj = (key0, (m.start(), m.start())) if key0 else None
    else:
        subj = subject_before(doc, sent, m.start(), near=40)
    if subj is None:
        return
    key, ssp = subj
    conf = 0.85 if ssp[0] != ssp[1] else 0.75
    end = window_end(sent, m.end(), 140)
    place = place_in(doc, sent, m.end(), end)
    if place:
        emit_place(doc, key, "burial_place", place, sent, ssp, conf, "place of burial")
    found = date_in(doc, m.end(), end)
    if found:
        emit_date(doc, key, "burial_date", found, sent, ssp, conf - 0.1, "stated burial date")


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
