"""Deaths an obituary tells in passing, of people it names only there: children listed with
the years they died ("Two children died. Adeline in 1912. and Ellin in 1908.", "two passing
away in infancy in Sweden, and a son, Frank, in Kiron in 1885"), and the subject's wife told
by her role ("The mother of this family passed away in January, 1875.").

The death handlers (`prose.death`) take a death's subject from a name before the verb; here
the names and their years come after it, or the subject is a role the item has already
named, so these shapes are read apart. Each child is the item's subject's child, as the
sentence says, and each year is read where it is printed beside the child's name.
"""

from __future__ import annotations

import re

from sleuth.extract.dates import MONTH_RE
from sleuth.extract.emit import Doc
from sleuth.extract.sentence import Sentence, Span
from sleuth.extract.window import date_in, emit_date

_COUNT = r"(?:two|three|four|five|six|seven|eight|nine|ten|\d)"
# "Two children died.", "three sons preceded him in death:" (the list may follow the stop)
_DIED_LIST = re.compile(
    rf"\b{_COUNT}[ \t\n]+(?:children|sons|daughters)[ \t\n]+(?:died|are[ \t\n]+dead"
    r"|passed[ \t\n]+away|preceded[ \t\n]+(?:him|her|them)[ \t\n]+in[ \t\n]+death)"
    r"[ \t\n]*[.:,;][ \t\n]*", re.I)
# "Adeline in 1912", "Ellin in 1908": a given name and the year it died in
_ITEM = re.compile(r"(?P<n>[A-Z][a-z]{2,15})[ \t\n]*,?[ \t\n]+in[ \t\n]+(?P<y>1[6-9]\d\d)\b")
_ITEM_GAP = re.compile(r"[ \t\n]*[,.;]?[ \t\n]*(?:and[ \t\n]+)?")
# "two passing away in infancy in Sweden, and a son, Frank, in Kiron in 1885"
_AND_A_CHILD = re.compile(
    r"\b(?:passing[ \t\n]+away|died|dying)\b[^.;]{0,60}?,[ \t\n]*and[ \t\n]+(?:a|one)[ \t\n]+"
    r"(?P<r>son|daughter),[ \t\n]+(?P<n>[A-Z][a-z]{2,15}),[ \t\n]+(?:in|at)[ \t\n]+"
    r"(?:(?P<p>[A-Z][a-z]+)[ \t\n]+in[ \t\n]+)?(?P<y>1[6-9]\d\d)\b")
_REACH = 160  # how far after "died" the listed years may run


def children_died(doc: Doc, sent: Sentence) -> None:
    """Children the sentence (or the sentence it announces) lists with the year each died:
    each is the item subject's child, dead in that year."""
    parent = doc.focus_at(sent.s)
    if parent is None:
        return
    for m in _DIED_LIST.finditer(doc.text, sent.s, sent.e + 3):
        pos, end = m.end(), min(len(doc.text), m.end() + _REACH)
        while (item := _ITEM.match(doc.text, pos, end)) is not None:
            _child_died(doc, parent, (sent.s, item.end()), item, "listed as a child who died")
            gap = _ITEM_GAP.match(doc.text, item.end(), end)
            pos = gap.end() if gap else item.end()
    for m in _AND_A_CHILD.finditer(doc.text, sent.s, sent.e):
        _child_died(doc, parent, sent.span, m, f"a {m.group('r')} who died")


def _child_died(doc: Doc, parent: str, span: Span, m: re.Match[str], why: str) -> None:
    nsp = m.span("n")
    child = doc.person(m.group("n"), nsp, span, 0.8, listed=True)
    if child == parent:
        return
    sp = doc.trim(*span)
    doc.emit(parent, "child", doc.display[child], span, [], 0.8, why, related=child,
             exact_span=sp)
    found = date_in(doc, m.start("y"), m.end("y"))
    if found is not None:
        g, ysp = found
        doc.emit(child, "death_date", g.iso(), span, [nsp, ysp], 0.75, "year of death beside"
                 " the child's name", date=g, exact_span=sp)


# "The mother of this family passed away in January, 1875", "his first wife died in 1880":
# the wife the item has named (its subject's last spouse)
_WIFE_DIED = re.compile(
    r"[ \t\n\"'(]*(?:the[ \t\n]+mother[ \t\n]+of[ \t\n]+(?:this|the)[ \t\n]+family|his[ \t\n]+"
    r"(?:first[ \t\n]+)?wife)[ \t\n]+(?:died|passed[ \t\n]+away)\b", re.I)
_WIFE_YEAR = re.compile(rf"[ \t\n]+(?:in|on)[ \t\n]+(?=(?:{MONTH_RE}|1[6-9]\d\d))", re.I)


def wife_died(doc: Doc, sent: Sentence) -> None:
    """A sentence opening with the subject's wife by her role, and the date she died: the
    death of the wife the item named last (a man's item)."""
    m = _WIFE_DIED.match(doc.text, sent.s, sent.e)
    husband = doc.focus_at(sent.s)
    if m is None or husband is None or doc.sex_of.get(husband) == "F":
        return
    wives = [c.related for c in doc.out if c.subject == husband and c.field == "spouse"
             and c.is_fact and c.related is not None]
    if not wives or _WIFE_YEAR.match(doc.text, m.end()) is None:
        return
    found = date_in(doc, m.end(), min(sent.e, m.end() + 40), partial=False)
    if found is not None:
        emit_date(doc, wives[-1], "death_date", found, sent, (m.start(), m.end()), 0.75,
                  "his wife, named before, died")


# "Death invaded the home of Mr and Mrs. George Bradnick near Knobsville, Monday, August 28,
# 1916, and claimed their little daughter Lena Evelyn", "the death angel visited the home of
# ... and took their infant son, Harold": death named as the one who came, the deceased as
# what it claimed; the day is the one the sentence gives before the verb
_DEATH_CAME = re.compile(
    r"[\s\"'(]*(?:the[ \t\n]+)?(?:death(?:[ \t\n]+angel)?|angel[ \t\n]+of[ \t\n]+death"
    r"|grim[ \t\n]+reaper)[ \t\n]+(?:invaded|visited|entered|came[ \t\n]+to)[ \t\n]+",
    re.I)
_CLAIMED = re.compile(
    r"\band[ \t\n]+(?:claimed|took|called[ \t\n]+away|carried[ \t\n]+away)[ \t\n]+"
    r"(?:(?:their|his|her|the)[ \t\n]+)?(?:(?:little|infant|baby|beloved|only|youngest|eldest"
    r"|oldest)[ \t\n]+)*(?:(?:son|daughter|babe|baby|child|wife|husband|mother|father)"
    r"[ \t\n]*,?[ \t\n]+)?(?P<n>[A-Z][a-z]+(?:[ \t\n]+(?:[A-Z]\.|[A-Z][a-z]+)){0,3})")


def death_came(doc: Doc, sent: Sentence) -> None:
    """A sentence whose subject is death itself, come to a home: the one it claimed died on
    the day the sentence gives before the claim."""
    if _DEATH_CAME.match(doc.text, sent.s, sent.e) is None:
        return
    m = _CLAIMED.search(doc.text, sent.s, sent.e)
    if m is None:
        return
    nsp = m.span("n")
    key = doc.person(m.group("n"), nsp, sent.span)
    found = date_in(doc, sent.s, m.start(), partial=False)
    if found is not None:
        emit_date(doc, key, "death_date", found, sent, nsp, 0.8, "the one death claimed")
