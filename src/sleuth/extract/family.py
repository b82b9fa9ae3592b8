"""Survivor lists: "his wife, Mary, and three sons, John, James and Will" name many people
in one sentence, so the role word before each group decides the relationship; bare given
names are kept as written, never completed with a surname the text does not give."""

from __future__ import annotations

import re
from itertools import pairwise

from sleuth.extract.emit import Doc
from sleuth.extract.given import is_given
from sleuth.extract.kin import SEX_BY_ROLE
from sleuth.extract.residence import (
    BOTH,
    NOT_GIVEN,
    SAME_GROUP,
    next_member,
    residence,
    shared_residence,
    town_then_name,
)
from sleuth.extract.sentence import Sentence, Span, bw, role_word, subject_before

_SURVIVED = re.compile(
    rf"\b(?:(?:is|are|was)\s+)?{bw('survived')}\s+by|\bleaves\b|\bleft\s+to\s+mourn"
    r"|\bsurvivors\s+are|\b(?P<tail>survive[sd]?)\b",
    re.I)


# ("grand children", "great grand-\nchildren": the OCR's grandchildren are no children)
_ROLE = re.compile(
    rf"(?<!grand[ \t\n-])(?<!grand-\n)\b(?P<r>wife|husband|widow|sons?|{bw('daughter')}s?"
    rf"|{bw('children')}|{bw('brother')}s?|{bw('sister')}s?)\b(?P<of>\s+of\b)?",
    re.I)


_FIELD_BY_ROLE = {"wife": "spouse", "husband": "spouse", "widow": "spouse", "son": "child",
                  "sons": "child", "daughter": "child", "daughters": "child",
                  "children": "child", "brother": "sibling", "brothers": "sibling",
                  "sister": "sibling", "sisters": "sibling"}


_NEW_CLAUSE = re.compile(r"(?<=[,;\n])[ \t\n]*(?:(?:The|This|Funeral|Burial|Interment)\b"
                         r"|(?:He|She|They|It)[ \t\n]+[a-z])")


_BARE_STOP = re.compile(r"\b(?:his|her|their|besides|grand\w*|nephews?|nieces?|cousins?)\b")


# a given name alone, or with its middle initial ("Robert A. and John, of this city")
_BARE = re.compile(r"(?<![\w.])[A-Z][a-z]{2,15}(?:[ \t]+[A-Z]\.(?=[ \t\n]*(?:,|and\b|&)))?"
                   r"(?![\w'])")


_PLACE_BEFORE = re.compile(r"(?:\b(?:of|in|near|at|to|from)|,\s*of)[ \t\n]*$")


# "of Twin Mountains" names a town; "wife of Leslie Lefller" a person
_TOWN_BEFORE = re.compile(r"(?:\b(?:in|near|at|from)|(?<!wife)(?<!husband)(?<!widow)"
                          r"(?<![ \t\n,])[ \t\n,]+of)[ \t\n]*$")


def survivors(doc: Doc, sent: Sentence) -> None:
    """Survivor lists: "is survived by her husband, two sons, John and James, ..." and the
    tail form "Two brothers, Jacob and William, ... also survive." Each role word opens a
    group; "X, wife of Y" inside a group names X's spouse, not another survivor."""
    m = _SURVIVED.search(doc.text, sent.s, sent.e)
    if m is None:
        return
    if m.group("tail"):
        with_ = _SURVIVES_WITH.match(doc.text, m.end(), sent.e)
        key0 = doc.focus_at(sent.s)
        if with_ and key0 is not None:
            roles = list(_ROLE.finditer(doc.text, with_.end(), min(sent.e, with_.end() + 40)))
            if roles:
                listed(doc, sent, (key0, (m.start(), m.start())),
                       roles[:1] + list(_ROLE.finditer(doc.text, roles[0].end(), sent.e)), sent.e)
                return
        roles = list(_ROLE.finditer(doc.text, sent.s, m.start()))
        if roles and _COLON.match(doc.text, m.end()):
            # "..., who with the following children survive: George W., Mrs. Bessie Fields"
            roles = roles[-1:] + list(_ROLE.finditer(doc.text, m.end(), sent.e))
            key0 = doc.focus_at(sent.s)
            subj = (key0, (m.start(), m.start())) if key0 else subject_before(
                doc, sent, roles[0].start())
            if subj is not None:
                listed(doc, sent, subj, roles, sent.e)
            return
        if not roles:
            roles = list(_ROLE.finditer(doc.text, m.end(), sent.e))
            if not roles:
                return
            subj = subject_before(doc, sent, m.start())
            lim = sent.e
        else:
            key0 = doc.focus_at(sent.s)
            subj = (key0, (m.start(), m.start())) if key0 else subject_before(
                doc, sent, roles[0].start())
            lim = m.start()
    else:
        subj = subject_before(doc, sent, m.start())
        if subj is None and m.group().lower().startswith("survivors"):
            # "Among the other survivors are his parents, three sisters, ...": the item's
            # own deceased, whom no name before the verb gives
            key0 = doc.focus_at(sent.s)
            subj = (key0, (m.start(), m.start())) if key0 in doc.died else None
        roles = list(_ROLE.finditer(doc.text, m.end(), sent.e))
        lim = sent.e
        if subj is not None and _roles_after(doc, sent, subj, m.end()):
            return
    if subj is None:
        return
    listed(doc, sent, subj, roles, lim)


# "Howard Crawford, of Davis, a brother; Mrs. James McCay, of Brockwayville, Pa., a sister;
# ... and Willis and Robert, both of Brockwayville, Pa., brothers.": each item ends with
# its role.
_ITEM_ROLE = re.compile(
    rf"(?:,[ \t\n]*|[ \t\n]+)(?:(?:a|an|his|her|the|their)[ \t\n]+)?(?:(?:only|half|step|twin"
    rf"|younger|older|elder)[ \t\n-]*)?(?P<r>{bw('brother')}s?|{bw('sister')}s?|sons?"
    rf"|{bw('daughter')}s?|wife|husband|widow)[ \t\n]*[.;]?[ \t\n]*$", re.I)


_ITEM_SPLIT = re.compile(r";")


def _roles_after(doc: Doc, sent: Sentence, subj: tuple[str, Span], start: int) -> bool:
    """The survivor list written 'Name, of Place, a brother; ...': True when it is (at least
    two items end with their role), after relating each item's people by it."""
    items: list[tuple[int, int, re.Match[str]]] = []
    others: list[tuple[int, int]] = []  # "his widow, who was Miss Heatrico Welch": role first
    pos = start
    for cut in [*(c.start() for c in _ITEM_SPLIT.finditer(doc.text, start, sent.e)), sent.e]:
        role = _ITEM_ROLE.search(doc.text, pos, cut)
        if role is not None:
            items.append((pos, role.start(), role))
        else:
            others.append((pos, cut))
        pos = cut + 1
    if len(items) < 2:
        return False
    for a, b in others:
        listed(doc, sent, subj, list(_ROLE.finditer(doc.text, a, b)), b)
    key, ssp = subj
    for a, b, role in items:
        word = role_word(role.group("r"))
        field = _FIELD_BY_ROLE.get(word) or _FIELD_BY_ROLE.get(word + "s", "sibling")
        people: list[tuple[str, Span]] = []
        for nsp, name, sex in _members(doc, sent, a, b):
            okey = _survivor(doc, sent, key, ssp, name, nsp, word, field, sex)
            if okey is not None:
                people.append((okey, nsp))
        shared_residence(doc, sent, people)  # "Willis and Robert, both of Brockwayville"
    return True


# ("Th-j children are:": the OCR's "The")
_LIST_HEAD = re.compile(
    rf"\s*(?:(?:The|Her|His|Their|Th[^\s\w]?\w?)\s+)?(?:{bw('surviving')}\s+|living\s+)?(?P<r>{bw('children')}|sons"
    rf"|{bw('daughter')}s|{bw('brother')}s|{bw('sister')}s),?\s+(?:are|were|living\s+are)\b"
    r"|.{0,40}?\b(?:to|of)\s+(?:this|the|their|which)\s+union\s+(?:there\s+)?(?:were|was|are)"
    r"\s+born\b|.{0,40}?\b(?:they|Mr\.?\s+and\s+Mr[sa]\.?\s+[A-Z][\w'-]+)\s+(?:had|reared"
    r"|raised)\b", re.I | re.S)


# "Four children were born to them, Chester A., of Yale; Alice, ...", "Five children were
# born to this union, Will, of Onaway; ...": the role word stands before "born".
_BORN_TO = re.compile(rf"\b(?P<r>{bw('children')}|sons|{bw('daughter')}s)\s+(?:were|was)\s+born"
                      r"\b(?:\s+(?:to\s+(?:them|this\s+union|the\s+union|him|her)|of\s+(?:this"
                      r"|the)\s+union|here))?", re.I)


# "The union was blessed with three children, namely: Johnnie, Dorothy and Evelyn"
_BLESSED = re.compile(rf"\b(?:union|marriage)[ \t\n]+was[ \t\n]+blessed[ \t\n]+with[ \t\n]+"
                      rf"(?:\w+[ \t\n]+)?(?P<r>{bw('children')}|sons|{bw('daughter')}s)\b", re.I)


def child_lists(doc: Doc, sent: Sentence) -> None:
    """'The surviving children are ...', 'To this union were born three children: ...',
    'Four children were born to them, ...': a list of the current item subject's children
    (or siblings)."""
    m = _LIST_HEAD.match(doc.text, sent.s, sent.e) or _BORN_TO.search(
        doc.text, sent.s, sent.e) or _BLESSED.search(doc.text, sent.s, sent.e)
    if m is None:
        return
    key = doc.focus_at(sent.s)
    if key is None:
        return
    start = m.start("r") if m.group("r") else m.end()
    roles = list(_ROLE.finditer(doc.text, start, sent.e))
    if not roles:
        return
    listed(doc, sent, (key, (m.start(), m.start())), roles, sent.e)
    if doc.pending_list is None and not any(n.start >= roles[-1].end() for n in sent.names):
        # "Five children were born here and grew to manhood and womanhood. Dr. Benjamin
        # Clyne, of Yale; James, of Jeddo; ...": the next sentence lists them
        role = role_word(roles[-1].group("r"))
        doc.pending_list = (key, (m.start(), m.start()), role, _FIELD_BY_ROLE[role], sent.e)


# "To this union seven children were born, ... Those surviving are Helen Johnson, of
# Denison, ...": the role is the one the sentence before named.
_THOSE_SURVIVING = re.compile(r"\s*(?:Those|The\s+ones)\s+(?:now\s+)?(?:surviving|living)\s+"
                              r"(?:are|were)[ \t\n:]+")


_CHILDREN_BEFORE = re.compile(rf"\b{bw('children')}\s+(?:were|was)\s+born\b|\bunion\b", re.I)


def those_surviving(doc: Doc, sent: Sentence) -> None:
    """'Those surviving are A, of X, B ...' after a sentence about the children born."""
    m = _THOSE_SURVIVING.match(doc.text, sent.s, sent.e)
    key = doc.focus_at(sent.s) if m else None
    if m is None or key is None or not _CHILDREN_BEFORE.search(
            doc.text, max(0, sent.s - 300), sent.s):
        return
    ssp = (m.start(), m.start())
    members = _members(doc, sent, m.end(), sent.e)
    for nsp, name, sex in members:
        _survivor(doc, sent, key, ssp, name, nsp, "children", "child", sex)
    if _list_open(doc, members, m.end(), sent.e):
        # "..., of Arthur Lydia Mengis. of Lowell, Wyo. Arthur E., of Kiron, and Fred A.":
        # a full stop the OCR put inside the list
        doc.pending_list = (key, ssp, "children", "child", sent.e)


# "there are five brothers, Andrew, John, Levi, Joeph and Duff", "Surviving also are three
# sisters, Mrs. E. C. Spencer of Barre", "also the following sisters and brothers: ...": a
# counted or announced group of relatives with no survivor verb of its own.
_ROLE_LIST = re.compile(
    rf"\b(?:(?:also|following|[a-z]+)[ \t\n]+)(?P<r>{bw('brother')}s?|{bw('sister')}s?|sons?"
    rf"|{bw('daughter')}s?|{bw('children')})(?:[ \t\n]+and[ \t\n]+(?:\w+[ \t\n]+)?"
    rf"(?:{bw('brother')}s?|{bw('sister')}s?|sons?|daughters?))?"
    r"(?:[ \t\n]+(?:living|surviving|as[ \t\n]+follows))?(?:[ \t\n]*[,:][ \t\n]*"
    r"(?:namely,?[ \t\n]*)?(?=[A-Z])"
    # "with his three sisters Elizabeth, Margaret and Theresa": no comma before a list
    r"|[ \t\n]+(?=[A-Z][a-z]+(?:,|[ \t\n]+and\b)))")


# "Mrs. Jones and her daughters", "Mr. Smith's sons", "Mr. and Mrs. Day and children"
_OWNER_GAP = re.compile(r"(?:'s)?[ \t\n,]*(?:(?:and|with)[ \t\n]+)?(?:(?:his|her|their)[ \t\n]+)?")


def role_lists(doc: Doc, sent: Sentence) -> None:
    """A group of relatives named after their role with no survivor verb: in an item about
    someone who died, they are that person's (the item's subject)."""
    if _SURVIVED.search(doc.text, sent.s, sent.e) or _BORN_TO.search(doc.text, sent.s, sent.e):
        return  # `survivors` and `child_lists` read those
    key = doc.focus_at(sent.s)
    if key is None or (key not in doc.died and key not in doc.celebrated):
        return
    for m in _ROLE_LIST.finditer(doc.text, sent.s, sent.e):
        near = [n for n in sent.names if n.end <= m.start() and m.start() - n.end <= 30]
        if (near and _OWNER_GAP.fullmatch(doc.text, near[-1].end, m.start())) or re.search(
                r"\b(?:their|of)[ \t\n]+\S*[ \t\n]*$", doc.text[max(sent.s, m.start() - 30):
                                                              m.start("r")]):
            continue  # "Mrs. Jones and her daughters, ...": someone else's relatives
        roles = list(_ROLE.finditer(doc.text, m.start("r"), sent.e))
        listed(doc, sent, (key, (m.start(), m.start())), roles, sent.e)
        return


# "She was the mother of Charles Robinson and William Carroll of this town and of Mrs.
# Lizzie Mulqueen": the subject's children, listed after the role.
_PARENT_OF = re.compile(r"\b(?:was|is)\s+(?:the\s+)?(?P<r>mother|father)\s+of\s+", re.I)


def parent_of(doc: Doc, sent: Sentence) -> None:
    """'She was the mother of A and B of this town and of C': A, B and C are her children
    (each with the "of PLACE" after them as residence)."""
    m = _PARENT_OF.search(doc.text, sent.s, sent.e)
    if m is None:
        return
    subj = subject_before(doc, sent, m.start())
    if subj is None:
        return
    key, ssp = subj
    role = m.group("r").lower()
    doc.sex(key, "F" if role == "mother" else "M", sent.span, (ssp[0], m.end()), 0.85,
            f"described as {role}")
    for nsp, name, sex in _members(doc, sent, m.end(), sent.e):
        _survivor(doc, sent, key, ssp, name, nsp, "children", "child", sex)


# "... she leaves the following children. Forest, William, Lois Virginia and Mary Lucile.":
# the role ends its sentence (OCR read the colon as a period), the names are the next one.
_ANNOUNCED = re.compile(r"[ \t\n]*(?:,?[ \t\n]*(?:as[ \t\n]+follows|namely|viz))?[ \t\n]*[.:]"
                        r"[ \t\n]*$")


_LIST_SENTENCE = re.compile(r"[ \t\n:;,]*(?:(?:Dr|Mr|Mrs|Miss|Rev)\.[ \t\n]+[A-Za-z]|[A-Z])"
                            r"[\w.'-]*[ \t\n]*(?:[A-Z][\w.'-]*[ \t\n]*)*"
                            # "Mrs. George Dodge of Berlin and ...": a town after the name
                            r"(?:,?[ \t\n]*of[ \t\n]+[A-Z][\w.'-]*(?:[ \t\n]+[A-Z][\w.'-]*)*)?"
                            r"[ \t\n]*(?:,|;|[ \t\n]and\b|(?P<one>\.?[ \t\n]*$))")


# A list goes on without a verb of its own
_VERB = re.compile(r"\b(?:was|were|is|are|has|had|have|died|will|would)\b")


# "...; and a brother. Charles B. Gale of Montpelier.": one name, after its role
_ROLE_ENDED = re.compile(r"\b(?:wife|husband|widow|sons?|daughters?|brothers?|sisters?"
                         r"|children)[ \t\n]*[.:][ \t\n]*$", re.I)


def announced_list(doc: Doc, sent: Sentence) -> bool:
    """The names after an announced list ("the following children."), when this sentence is
    that list: each is the pending subject's relative by the announced role."""
    pend, doc.pending_list = doc.pending_list, None
    head = _LIST_SENTENCE.match(doc.text, sent.s, sent.e) if pend is not None else None
    one = head is not None and head.group("one") is not None
    if pend is None or sent.s - pend[4] > 3 or head is None or (one and not _ROLE_ENDED.search(
            doc.text, max(0, pend[4] - 20), pend[4])) or _VERB.search(doc.text, sent.s, sent.e):
        return False  # "W. Scott Naugle, of Earlston, was struck by ...": a new item
    key, ssp, role, field = pend[:4]
    # "... Mrs. George Dodge of Berlin and Mrs. M. L. Sherburne of Montpelier; and a brother,
    # Charles B. Gale": the list goes on to another role
    roles = [r for r in _ROLE.finditer(doc.text, sent.s, sent.e) if not r.group("of")]
    end = roles[0].start() if roles else sent.e
    found = False
    members = _members(doc, sent, sent.s, end)
    married = _married_names(doc, members)
    for nsp, name, sex in members:
        if nsp in married.values():
            continue  # "Mary, Mrs. Wm. Holland": her married name, for her husband below
        okey = _survivor(doc, sent, key, ssp, name, nsp, role, field, sex)
        found = okey is not None or found
        if okey is not None and nsp in married:
            _husband(doc, sent, okey, nsp, married[nsp])
    if found and roles:
        listed(doc, sent, (key, ssp), list(_ROLE.finditer(doc.text, end, sent.e)), sent.e)
    elif found and _list_open(doc, members, sent.s, sent.e):
        # "four sisters. Mrs. Charles Palmer, Mrs. Antonio Datoni. Mrs. Lowney Guyette and
        # Mrs. Leo Marchi.": the OCR's full stops cut the list more than once
        doc.pending_list = (key, ssp, role, field, sent.e)
    return found


def listed(doc: Doc, sent: Sentence, subj: tuple[str, Span], roles: list[re.Match[str]],
           lim: int) -> None:
    """People listed after each role word up to `lim`, related to `subj` by the role."""
    key, ssp = subj
    groups = [r for r in roles if not r.group("of")]
    if groups and _ANNOUNCED.match(doc.text, groups[-1].end(), sent.e):
        role = role_word(groups[-1].group("r"))
        doc.pending_list = (key, ssp, role, _FIELD_BY_ROLE[role], sent.e)
    for i, r in enumerate(groups):
        role = role_word(r.group("r"))
        field = _FIELD_BY_ROLE[role]
        seg_end = groups[i + 1].start() if i + 1 < len(groups) else lim
        if field == "spouse":
            # "survived by his wife": a wife's husband is a man (and a husband's wife a woman)
            doc.sex(key, "F" if role == "husband" else "M", sent.span, (ssp[0], r.end()),
                    0.8, f"survived by a {role}")
            seg_end = min(seg_end, r.end() + 40)
            semi = doc.text.find(";", r.end(), seg_end)
            if semi >= 0:  # "survived by his wife; his father, Allen E. Cutts": she is
                seg_end = semi  # unnamed, the next item another relative
        stop = _BARE_STOP.search(doc.text, r.end(), seg_end)
        if stop and field != "spouse":
            seg_end = stop.start()
        clause = _NEW_CLAUSE.search(doc.text, r.end(), seg_end)
        if clause:  # "..., Ky,\nThe Ledger joins in extending ...": the list has ended
            seg_end = clause.start()
        descr = [d for d in roles if d.group("of") and r.end() <= d.start() < seg_end]
        # "sisters and brothers: Louvinia, ..., George and Adam": the role gives no sex
        mixed = _MIXED.search(doc.text, max(sent.s, r.start() - 24), r.start()) is not None
        last: tuple[str, Span] | None = None
        husband_end = -1
        members = _members(doc, sent, r.end(), seg_end)
        if i == len(groups) - 1 and seg_end == sent.e and doc.pending_list is None and (
                _list_open(doc, members, r.end(), sent.e)):
            # "daughters, namely, Chevilla Ravenstine, Cove Forge, Pa.;Samantha Wagner,
            # Laidig. Pa. : Grant Anderson, ...": a full stop the OCR put inside the list
            doc.pending_list = (key, ssp, role, field, sent.e)
        married = _married_names(doc, members)
        people: list[tuple[str, Span]] = []
        for nsp, name, sex in members:
            if nsp in married.values():
                continue  # her married name, related below to the given name before it
            if " " not in name and _TOWN_AFTER_SPOUSE.fullmatch(doc.text, husband_end, nsp[0]):
                continue  # "Rebecca, wife of George Gress, Dane;": their town, not a sister
            d = next((d for d in descr if d.end() <= nsp[0] <= d.end() + 3), None)
            if d is not None:
                husband_end = nsp[1]
                if last is not None and role_word(d.group("r")) in ("wife", "husband", "widow"):
                    spouse = doc.person(name, nsp, sent.span, 0.85, listed=True)
                    if spouse != last[0]:
                        doc.emit(last[0], "spouse", doc.display[spouse], sent.span,
                                 [last[1], nsp], 0.8, f"{role_word(d.group('r'))} of",
                                 related=spouse)
                        # "Lena, wife of Martin Finhorn, Chrome, N. J.": the listed
                        # relative's town, told after her husband's name
                        residence(doc, sent, last[0], nsp)
                continue
            # "Joseph and Stephen Houghton of Graniteville": whose town is it? (no one's;
            # "both of" says: `shared_residence`)
            grouped = bool(people) and SAME_GROUP.fullmatch(
                doc.text, people[-1][1][1], nsp[0]) is not None
            okey = _survivor(doc, sent, key, ssp, name, nsp, role, field,
                             sex if not mixed else sex or "?", town=not grouped)
            if okey is not None:
                people.append((okey, nsp))
            if okey is not None and nsp in married:
                _husband(doc, sent, okey, nsp, married[nsp])
            last = (okey, nsp) if okey else None
            if field == "spouse":
                break
        shared_residence(doc, sent, people)


_AND = re.compile(r"\b(?:and|&)\b|\bboth\b|\ball\b")


_LIST_END = re.compile(r"[ \t\n]*$")


_MRS_AFTER = re.compile(r"[ \t\n]*,[ \t\n]*")


_MRS_TITLE = re.compile(r"Mrs\.?[ \t\n]+")


def _married_names(doc: Doc, members: list[tuple[Span, str, str | None]]) -> dict[Span, Span]:
    """'Mary, Mrs. Martin Kilhourn', 'Agnes, Mrs. E. E. Ferguson, of Bay City': a daughter
    listed by her given name, then by her married name. {given name's span: married name's}"""
    out: dict[Span, Span] = {}
    for (sp, name, _), (sp2, name2, _) in pairwise(members):
        if " " not in name and _MRS_TITLE.match(name2) and _MRS_AFTER.fullmatch(
                doc.text, sp[1], sp2[0]) and len(name2.split()) > 2:
            out[sp] = sp2
    return out


def _husband(doc: Doc, sent: Sentence, wife: str, wsp: Span, msp: Span) -> None:
    """'Mary, Mrs. Martin Kilhourn': Mary's husband is Martin Kilhourn, as printed."""
    t = _MRS_TITLE.match(doc.text, msp[0], msp[1])
    if t is None:
        return
    hsp = (t.end(), msp[1])
    hkey = doc.person(doc.text[hsp[0]:hsp[1]], hsp, sent.span, 0.8)
    if hkey != wife:
        doc.emit(wife, "spouse", doc.display[hkey], sent.span, [wsp, msp], 0.8,
                 "listed by her given name, then as 'Mrs.' with his name", related=hkey)
        doc.sex(hkey, "M", sent.span, hsp, 0.8, "husband of a 'Mrs.'")
    residence(doc, sent, wife, msp)


def _list_open(doc: Doc, members: list[tuple[Span, str, str | None]], a: int, e: int) -> bool:
    """A list cut off by the sentence's full stop: its last member is not yet the one after
    "and" ("sons, John, James and Will." is whole; "sons, John, James, Will." is not), and
    only that member's town follows it."""
    if not members or not doc.text[a:e].rstrip().endswith((".", ":")):
        return False
    last = members[-1][0]
    before = members[-2][0][1] if len(members) > 1 else a
    tail = doc.text[last[1]:e]
    return (_AND.search(doc.text, before, last[0]) is None and _AND.search(tail) is None
            and len(tail) < 40 and ";" not in tail)


_NEXT_LINE_NAME = re.compile(r"\n[ \t]*(?P<n>(?P<g>[A-Z][a-z]+)(?:[ \t]+(?:[A-Z]\.|[A-Z][a-z]+))*"
                             r"[ \t]+[A-Z][a-z]+)$")


def _members(doc: Doc, sent: Sentence, a: int, b: int) -> list[tuple[Span, str, str | None]]:
    """Full names and bare given names ("Goldie") listed in [a, b), in order of position."""
    out: list[tuple[Span, str, str | None]] = []
    for n in sent.names:
        if not a <= n.start < b:
            continue
        if _RESIDENCE_BEFORE.search(doc.text, max(a, n.start - 8), n.start):
            # "Mrs. T. E. West, of Coon\nRapids": the town, not another survivor; but
            # "Helen Johnson, of Denison\nAnna Kulberg, of Cherokee": OCR lost the comma at
            # the line's end, and the next line names the next survivor
            tail = _NEXT_LINE_NAME.search(n.text)
            if tail and _ITEM_AFTER.match(doc.text, n.end) and is_given(tail.group("g")):
                out.append(((n.start + tail.start("n"), n.end), tail.group("n"), n.sex))
            elif (nxt := next_member(doc.text, n.start, n.end)) is not None:
                # "Anna Kulberg, of Cherokee Robert, of Moline": the town, then the next
                # survivor, whose comma the OCR lost
                out.append(((nxt, n.end), doc.text[nxt:n.end], n.sex))
            continue
        if n.title is None and (_STATE_AFTER.match(doc.text, n.end) or _TOWN_BEFORE.search(
                doc.text, max(a, n.start - 12), n.start)):
            continue  # "Chevilla Ravenstine, Cove Forge, Pa.": her town, not a survivor
        if _FIRM_BEFORE.search(doc.text, max(a, n.start - 5), n.start):
            continue  # "who is employed by the F. D. Ladd Co.": a firm, no relative
        if _OWNS.match(doc.text, n.end):
            continue  # "Investigate Stanley's labor record": the owner of a thing, no item
        town = town_then_name(doc.text, n.start, n.end) if n.title is None and doc.text[
            max(a, n.start - 3):n.start].strip(" \t\n").endswith(",") else None
        if town is not None and is_given(doc.text[town[1]:n.end].split()[0]):
            # "Henry Aberg,\nDavis Corners Louis, Anna and Marcus": his town, then the next
            rest = len(doc.text[town[1]:n.end]) - len(doc.text[town[1]:n.end].lstrip())
            out.append(((town[1] + rest, n.end), doc.text[town[1] + rest:n.end], n.sex))
            continue
        lead = _STATE_LEAD.match(n.text)
        if lead is None and n.title is None and not is_given(n.text.split()[0]):
            lead = _TOWN_LEAD.match(n.text)
            if lead and not is_given(n.text[lead.end():].split()[0].rstrip(".")):
                lead = None
        if lead and (len(n.text.split()) > 2 or (
                is_given(n.text[lead.end():]) and not is_given(lead.group().strip(" .\t\n")))):
            # "North Dakota\nEarl and Floyd": a given name alone after the state
            # OCR dropped a comma: "of New Hartford, Iowa C. E. Muckler"
            out.append(((n.start + lead.end(), n.end), n.text[lead.end():], n.sex))
        else:
            out.append(((n.start, n.end), n.text, n.sex))
    for bm in _BARE.finditer(doc.text, a, b):
        w = bm.group()
        if (w.lower() in _ROLE_WORDS or w.lower() in NOT_GIVEN
                or _STATE_LEAD.fullmatch(w + " ")
                or any(sp[0] <= bm.start() < sp[1] for sp, _, _ in out)
                or _PLACE_BEFORE.search(doc.text, max(a, bm.start() - 8), bm.start())
                or _DATE_AFTER.match(doc.text, bm.end())
                or _STATE_AFTER.match(doc.text, bm.end())
                or (doc.text[a:bm.start()].strip(" \t\n") and not _ITEM_BEFORE.search(
                    doc.text, max(sent.s, bm.start() - 12), bm.start()))
                or not _ITEM_AFTER.match(doc.text, bm.end(), min(b + 1, len(doc.text)))):
            continue
        out.append(((bm.start(), bm.end()), w, None))
    return sorted(out)


_FIRM_BEFORE = re.compile(r"\bthe[ \t\n]+$")
_OWNS = re.compile(r"['’]s\b")


_STATE_LEAD = re.compile(
    r"(?:Iowa|Ohio|Indiana|Illinois|Kansas|Missouri|Nebraska|Dakota|Minnesota|Wisconsin"
    r"|Michigan|Kentucky|Tennessee|Virginia|Maryland|Vermont|Maine|Texas|Colorado|California"
    r"|Oregon|Washington|Montana|Idaho|Oklahoma|Pennsylvania|York|Jersey|Mass|Conn|Pa|Ill"
    r"|Ind|Mo|Kan|Neb|Minn|Wis|Mich|Ky|Tenn|Va|Md|Vt|Me|Tex|Colo|Cal|Okla)\.?\s+")


# "..., who with the following children survive: George W.", "Four children survive, as
# follows: Pliny X. Gale"
# "Ridgeway Mrs. Theo. Gunderson, Cresco Theo. Aberg, Cresco Mrs. John Hammer, Bonair
# Henry Aberg": OCR lost the comma after the town that ends the item before
_TOWN_LEAD = re.compile(r"[A-Z][a-z]{2,}[ \t\n]+(?=[A-Z])")


_COLON = re.compile(r"[ \t\n]*,?[ \t\n]*(?:as[ \t\n]+follows[ \t\n]*)?:")


# "Miss Josephine Alexander, ... who survives together with the following children, namely,
# Alexander, Thomas Franklin, ...": the widow survives, and so do the deceased's children
_SURVIVES_WITH = re.compile(r"[ \t\n]*,?[ \t\n]*(?:together|along)[ \t\n]+with[ \t\n]+", re.I)


_RESIDENCE_BEFORE = re.compile(r",[ \t\n]*of[ \t\n]+$")


# "Mrs. Net\ntie Steele, Everett, Pa.": a capitalised word followed by a state is a town.
_STATE_AFTER = re.compile(r",?[ \t\n]*(?:Pa|Ill|Ind|Mo|Kan|Neb|Minn|Wis|Mich|Ky|Tenn|Va|Md|Vt|Me"
                          r"|Tex|Colo|Cal|Okla|Ia|Ia|Mass|Conn|N\.[ \t]?[YJH]|O|Ohio|Iowa)\.?"
                          r"(?:[ \t\n]*[,;.)]|[ \t\n]*$)")


_DATE_AFTER = re.compile(r"\.?\s*\d")


# A bare given name is a whole list item: "sons, John, James and Will" (not "Julia Ann Mel").
# ("an only son,- Lynn V.": the OCR's dash after the separator)
_ITEM_BEFORE = re.compile(r"(?:^|[,;:]-?|\band|&|\b(?:sons?|daughters?|brothers?|sisters?"
                          r"|children|wife|husband|widow|Misses|Messrs\.?))[ \t\n]*$", re.I)


_ITEM_AFTER = re.compile(r"[ \t]*(?:$|[,;:.)!]|-|\n?\s*(?:and|&|of|who|at|in|all|both|are|is"
                         r"|was|wife|husband|residing|living)\b)")


_ROLE_WORDS = frozenset(_FIELD_BY_ROLE)


def _survivor(doc: Doc, sent: Sentence, key: str, ssp: Span, name: str, nsp: Span, role: str,
              field: str, title_sex: str | None, *, town: bool = True) -> str | None:
    # A whole name in the list (`_members` has left out towns) needs no known given name
    # ("daughters, namely, Chevilla Ravenstine, Cove Forge, Pa."); a lone word does.
    whole = len(name.split()) > 1
    okey = doc.person(name, nsp, sent.span, 0.85, listed=not whole)
    if okey == key:
        return None
    doc.emit(key, field, doc.display[okey], sent.span, [ssp, nsp], 0.85,
             f"survivor listed as {role}", related=okey)
    sex = title_sex or ({"F": "F", "M": "M"}.get(SEX_BY_ROLE.get(role, "")) if
                        field != "spouse" else None)
    if title_sex == "?":  # a mixed group ("sisters and brothers"): no sex from the role
        sex = None
    doc.sex(okey, sex, sent.span, nsp, 0.8, f"listed among {role}")
    if town or BOTH.match(doc.text, nsp[1], sent.e):
        residence(doc, sent, okey, nsp)
    return okey


_MIXED = re.compile(r"\b(?:brothers?|sisters?|sons?|daughters?)[ \t\n]+and[ \t\n]+"
                    r"(?:\w+[ \t\n]+)?$", re.I)


_TOWN_AFTER_SPOUSE = re.compile(r"[^,;]{0,6},[ \t\n]*")
