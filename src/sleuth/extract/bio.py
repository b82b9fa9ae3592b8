"""Encyclopedia-style lead sentences: "Name (born DATE in PLACE) is a ..." and "(DATE – DATE)".

Wikipedia and WikiBio leads put the vital dates in the first parenthesis after the name;
WikiBio text is lower-cased and tokenised ("-lrb-", " , "), so the name there is simply the
text before the parenthesis rather than a capitalised run.
"""

from __future__ import annotations

import re

from sleuth.extract.dates import DATE_FIND, parse_date
from sleuth.extract.emit import Doc
from sleuth.extract.places import read_lower_place, read_place
from sleuth.extract.prose import Sentence, emit_date, emit_place

Span = tuple[int, int]

_PAREN = re.compile(r"(?:\(|-lrb-)(?P<inner>[^()]{0,250}?)(?:\)|-rrb-)")
_SPLIT = re.compile(r"\s+(?:--|–|—|-)\s+|\s*;\s*(?=d\.|died)|(?<=\d)\s*[–—]\s*(?=\w)")
_KIND = re.compile(r"\s*[;,:]?\s*(?P<k>born|b\.|died|d\.|n[ée]e)?\s*(?:on\s+)?", re.I)
_IN = re.compile(r"\b(?:in|at)\s+")
_AFTER_COMMA = re.compile(r"\s*,\s*(?=[^\d\s])")
_LOWER_NAME = re.compile(r"\s*(?P<n>[^\s(),;:\d][^(),;:\d]{1,80}?)\s*(?:,\s*)?(?=\(|-lrb-)")
_OCCUPATION = re.compile(
    r"\s*,?\s*(?:[^.]{0,80}?)\b(?:is|was)\s+(?:an?|the)\s+(?P<o>[^,.;()]{3,80}?)"
    r"(?=\s+(?:who|from|with|for|in|at|of|and|best|known|whose|during|between|since)\b|\s*[,.;(]|"
    r"\s*-lrb-|$)")
_FULL_DATE = re.compile(r"\d{1,2}\s*,?\s*\d{4}|\d{1,2}\s+[A-Za-z]+\.?\s+\d{4}")
_NOT_OCCUPATION = frozenset({"member", "number", "former", "other", "order"})
_AGENT = re.compile(r"(?:er|or|ist|ian|man|woman|ant|ent|ess|smith|wright|maker|player|"
                    r"actor|actress|footballer|cricketer|politician|writer|priest|monk|"
                    r"officer|soldier|judge|bishop|king|queen|prince|princess)$")


def bio_lead(doc: Doc, sent: Sentence) -> Span:
    """Handle a lead sentence; returns the parenthesis span consumed (or an empty span)."""
    t = doc.text
    head = t[sent.s : min(sent.e, sent.s + 300)]
    if "(" not in head and "-lrb-" not in head:
        return (0, 0)
    if sent.lower_mode:
        m = _LOWER_NAME.match(t, sent.s, min(sent.e, sent.s + 120))
        if m is None or len(m.group("n").split()) > 9:
            return (0, 0)
        nsp = (m.start("n"), m.end("n"))
    else:
        first = sent.names[0] if sent.names else None
        if first is None or t[sent.s : first.start].strip():
            return (0, 0)
        gap = t[first.end : first.end + 160]
        if not re.match(r"\s*(?:,\s*)?(?:\(|-lrb-)", gap) and not re.match(
            r"[^().]{0,80}?(?:\(|-lrb-)", gap
        ):
            return (0, 0)
        nsp = (first.start, first.end)
    groups = [g for g in _PAREN.finditer(t, nsp[1], min(sent.e, sent.s + 400))]
    chosen = next((g for g in groups[:3] if re.search(r"\d{3,4}", g.group("inner"))), None)
    if chosen is None:
        return (0, 0)
    key = doc.person(t[nsp[0] : nsp[1]], nsp, sent.span)
    doc.set_focus(key, sent.s)
    a, b = chosen.start("inner"), chosen.end("inner")
    parts: list[Span] = []
    pos = a
    for sm in _SPLIT.finditer(t, a, b):
        parts.append((pos, sm.start()))
        pos = sm.end()
    parts.append((pos, b))
    for i, (ps, pe) in enumerate(parts[:2]):
        km = _KIND.match(t, ps, pe)
        kind = (km.group("k") or "").lower() if km else ""
        if kind in ("born", "b."):
            field = "birth"
        elif kind in ("died", "d."):
            field = "death"
        elif kind.startswith("n"):
            continue
        elif len(parts) >= 2:
            field = "birth" if i == 0 else "death"
        elif _FULL_DATE.search(t, ps, pe):
            field = "birth"  # "Name (June 6, 1945) is ...": a lone full date is a birth date
        else:
            continue
        _part(doc, sent, key, nsp, field, km.end() if km else ps, pe)
    _occupation(doc, sent, key, nsp, chosen.end())
    return (chosen.start(), chosen.end())


def _part(doc: Doc, sent: Sentence, key: str, nsp: Span, field: str, ps: int, pe: int) -> None:
    t = doc.text
    dm = DATE_FIND.search(t, ps, pe)
    if dm:
        g = parse_date(dm.group())
        if g is not None:
            emit_date(doc, key, f"{field}_date", (g, (dm.start(), dm.end())), sent, nsp, 0.9,
                      f"{field} date in the lead parenthesis")
    reader = read_lower_place if sent.lower_mode else read_place
    place = None
    im = _IN.search(t, ps, pe)
    if im:
        place = reader(t, im.end(), pe)
    elif dm:
        cm = _AFTER_COMMA.match(t, dm.end(), pe)
        place = reader(t, cm.end() if cm else dm.end(), pe)
    if place:
        emit_place(doc, key, f"{field}_place", place, sent, nsp, 0.85,
                   f"{field} place in the lead parenthesis")


def _occupation(doc: Doc, sent: Sentence, key: str, nsp: Span, pos: int) -> None:
    m = _OCCUPATION.match(doc.text, pos, sent.e)
    if m is None:
        return
    occ = m.group("o").strip()
    words = occ.split()
    if (not words or len(words) > 7 or not _AGENT.search(words[-1].lower())
            or words[-1].lower() in _NOT_OCCUPATION):
        return
    doc.emit(key, "occupation", " ".join(words), sent.span, [nsp, (m.start("o"), m.end("o"))],
             0.7, "'is/was a ...' in the lead sentence")
