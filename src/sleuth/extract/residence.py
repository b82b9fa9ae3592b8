"""Where the persons a notice names live: "of PLACE" after a name, "Name, Town, State" in a
list, "both of" a place shared by the two named before it, and the item subject's own
residence (`residence`, `shared_residence`, `subject_residence`)."""


from __future__ import annotations

import re

from sleuth.extract.emit import Doc
from sleuth.extract.given import TITLE_WORDS, is_given
from sleuth.extract.places import is_us_state, read_place
from sleuth.extract.sentence import Sentence, Span
from sleuth.extract.window import (
    emit_place,
)

NOT_GIVEN = frozenset(
    "the and his her their mrs mr miss who was were are all also at in of home city county "  # noqa: SIM905
    "two three four five six seven eight nine ten one".split()
)


# "Adnel Noble, of\nPrairie township": the line may break right after "of".
_OF_PLACE = re.compile(r",?[ \t]*\n?[ \t]*of(?:[ \t]+\n?|\n)[ \t]*(?:near[ \t]+)?")


# "Louvinia, wife of Jerome Stahl, residing in Nebraska", "Willis and Robert, both of
# Brockwayville, Pa.", "George and Adam residing in York, Pa."
_RESIDING = re.compile(r"[ \t\n]*,?[ \t\n]*(?:(?:both|all)[ \t\n]+of|(?:(?:both|all)[ \t\n]+)?"
                       r"(?:residing|living)[ \t\n]+(?:in|at|near))[ \t\n]+")


# Between names of one group that share the place after the last ("Willis and Robert, both
# of ...", "Myrtle Anderson and Nanssa Shaw both residing at Tyrone")
SAME_GROUP = re.compile(r"[ \t\n]*,?[ \t\n]*(?:and|&)[ \t\n]+")


def shared_residence(doc: Doc, sent: Sentence, people: list[tuple[str, Span]]) -> None:
    """'Willis and Robert, both of Brockwayville, Pa.': the place after "both of" (or "all
    of", "both residing at") is each one's of the names it closes."""
    for j in range(len(people) - 1, 0, -1):
        nsp = people[j][1]
        both = BOTH.match(doc.text, nsp[1], sent.e)
        if both is None:
            continue
        sp = read_place(doc.text, both.end(), min(sent.e, both.end() + 80))
        k = j - 1
        while sp and k >= 0 and SAME_GROUP.fullmatch(doc.text, people[k][1][1],
                                                      people[k + 1][1][0]):
            emit_place(doc, people[k][0], "residence", sp, sent, people[k][1], 0.6,
                       "'both of PLACE' after the names")
            k -= 1


BOTH = re.compile(r"[ \t\n]*,?[ \t\n]*(?:both|all)[ \t\n]+(?:of|residing[ \t\n]+(?:in|at|near)"
                   r"|living[ \t\n]+(?:in|at|near))[ \t\n]+")


_COMMA_PLACE = re.compile(r"[ \t]*,[ \t\n]*(?=[A-Z])")


# "of Cherokee Robert, of Moline", "of Omaha Emma\nRoll, of Arthur": a one-word town, then
# the next item of a "Name, of Town" list, its comma lost; the item's own ", of" (or the
# OCR's ". of") after it says the name is a survivor's, not the town's second word
_MEMBER_AFTER_TOWN = re.compile(r"[A-Z][a-z]{2,}[ \t]*\n?[ \t]*(?P<g>[A-Z][a-z]+)"
                                r"(?:[ \t]*\n?[ \t]*[A-Z][a-z]+)?")


_ITEM_OF = re.compile(r"[ \t]*[,.][ \t\n]*of\b")


def next_member(text: str, a: int, b: int) -> int | None:
    """Where the next survivor starts in a town run [a, b) (see above), or None."""
    m = _MEMBER_AFTER_TOWN.fullmatch(text, a, b)
    if m is None or not is_given(m.group("g")) or not _ITEM_OF.match(text, b):
        return None
    return m.start("g")


def residence(doc: Doc, sent: Sentence, key: str, nsp: Span) -> None:
    """'Adnel Noble, of Prairie township' and, in a list, 'Chevilla Ravenstine, Cove
    Forge, Pa.;' (a town with its state right after the name): where the person lives."""
    if sent.lower_mode:
        return
    m = _OF_PLACE.match(doc.text, nsp[1], sent.e) or _RESIDING.match(doc.text, nsp[1], sent.e)
    if m is None:
        c = _COMMA_PLACE.match(doc.text, nsp[1], sent.e)
        sp = read_place(doc.text, c.end(), min(sent.e, c.end() + 60)) if c else None
        parts = doc.text[sp[0]:sp[1]].rsplit(",", 1) if sp else []
        if sp is not None and len(parts) == 2 and is_us_state(parts[1]):  # "Cove Forge, Pa."
            emit_place(doc, key, "residence", sp, sent, nsp, 0.6, "'Name, Place, State' in a list")
        elif c is not None and (town := town_then_name(doc.text, c.end(), sent.e)):
            emit_place(doc, key, "residence", town, sent, nsp, 0.6,
                       "'Name, Place' in a list, the next name right after the place")
        return
    a = m.end()
    sp = read_place(doc.text, a, min(sent.e, a + 80))
    nxt = next_member(doc.text, sp[0], sp[0] + len(
        doc.text[sp[0]:sp[1]].split(",", 1)[0].rstrip("."))) if sp else None
    if sp and nxt is not None:
        sp = (sp[0], sp[0] + len(doc.text[sp[0]:nxt].rstrip()))  # "Cherokee Robert, of"
    if sp:
        emit_place(doc, key, "residence", sp, sent, nsp, 0.65, "'of PLACE' after the name")


# "Mrs. Otto Gunderson, Ridgeway Mrs. Theo. Gunderson, Cresco Theo. Aberg, ..., Davis
# Corners Louis, Anna and Marcus": a list of "Name, Town" items whose separators the OCR
# lost; each town runs up to the next name (a title, or a given name).
_TOWN_WORD = re.compile(r"[A-Z][a-z]{2,}(?=[ \t\n,;.]|$)")


_PLACE_TAIL = frozenset({"corners", "center", "centre", "city", "falls", "springs", "mills",
                         "junction", "station", "ferry", "point", "creek", "grove", "hill",
                         "valley", "ridge", "township", "county"})


_NEXT_TITLE = re.compile(r"(?:Mrs|Mr|Miss|Dr|Rev)\.?[ \t\n]+[A-Z]")


def town_then_name(text: str, a: int, end: int) -> Span | None:
    """The town in 'Name, Town NextName' (see above); None unless the next name follows it
    with nothing between. A town's first word is no given name ("sons, John, Mary Smith"
    lists people), unless a place word follows it ("Davis Corners")."""
    words: list[re.Match[str]] = []
    pos = a
    while len(words) < 3:
        w = _TOWN_WORD.match(text, pos, end)
        if w is None:
            return None
        given = is_given(w.group())
        if words and (given or _NEXT_TITLE.match(text, w.start(), end)):
            break  # the next name starts here
        if not words and (w.group().lower() in NOT_GIVEN or w.group().lower() in TITLE_WORDS
                          or _NEXT_TITLE.match(
                text, w.start(), end)):
            return None
        words.append(w)
        pos = w.end()
        while pos < end and text[pos] in " \t\n":
            pos += 1
    else:
        return None
    first = words[0].group()
    if is_given(first) and (len(words) < 2 or words[1].group().lower() not in _PLACE_TAIL):
        return None
    if "\n\n" in text[words[-1].end():pos] or "," in text[words[0].start():words[-1].end()]:
        return None
    return words[0].start(), words[-1].end()


# "... and moved to Deloit, where he has since resided", "came to Clarksburg where he had
# since resided": the place the item's subject has lived in since
_SINCE_RESIDED = re.compile(r"\b(?:came|moved|removed|went|located)[ \t\n]+(?:back[ \t\n]+)?to"
                            r"[ \t\n]+")


_WHERE_SINCE = re.compile(r"[ \t\n]*,?[ \t\n]*where[ \t\n]+(?P<p>he|she|they)[ \t\n]+(?:has"
                          r"|have|had)[ \t\n]+since[ \t\n]+(?:resided|lived)\b", re.I)


def subject_residence(doc: Doc, sent: Sentence) -> None:
    """Where the item's deceased lived: 'W. Scott Naugle, of Earlston, Bedford County, was
    struck ...', 'Noah Ginter, aged 72, residing in Center township, fell dead' (the place
    after the name that opens the sentence), and '... moved to Deloit, where he has since
    resided'."""
    key = doc.focus_at(sent.s)
    if key is None:
        return
    last = doc.display[key].split()[-1].lower()  # (a capitals heading's "BALL" too)
    first = sent.names[0] if last in doc.text[sent.s:sent.s + 60].lower() and (
        sent.names) else None  # (the names are read only where the surname opens it)
    if first is not None and not doc.text[sent.s:first.start].strip(" \t\n\"'(") and (
            doc.resolve(first.text) == key):
        residence(doc, sent, key, (first.start, first.end))
    if key not in doc.died and key not in doc.celebrated:
        return
    for m in _SINCE_RESIDED.finditer(doc.text, sent.s, sent.e):
        sp = read_place(doc.text, m.end(), min(sent.e, m.end() + 60))
        where = _WHERE_SINCE.match(doc.text, sp[1], sent.e) if sp else None
        if sp and where and (where.group("p").lower() == "they" or doc.sex_of.get(
                key, "?") in ("?", {"he": "M", "she": "F"}[where.group("p").lower()])):
            emit_place(doc, key, "residence", sp, sent, (m.start(), m.start()), 0.6,
                       "'moved to PLACE, where he has since resided'")
