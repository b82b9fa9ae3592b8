"""Marriages and family relations in prose: "married Mary Jones on ...", "son of ...",
"wife of ...", the couples and lists that name several relatives at once, and whose
relative each one is (`relation_of`, `marriage`, `related_people`)."""

from __future__ import annotations

import re

from sleuth.extract.dates import MONTH_RE
from sleuth.extract.emit import Doc
from sleuth.extract.given import is_given
from sleuth.extract.person_names import strip_title, surname
from sleuth.extract.sentence import (
    OPENING_PRONOUN,
    PRONOUN_SEX,
    PRONOUN_START,
    Sentence,
    Span,
    bw,
    name_after,
    role_word,
    subject_before,
)
from sleuth.extract.window import (
    date_in,
    emit_date,
    emit_place,
    place_in,
    window_end,
)
from sleuth.model.dates import GenDate
from sleuth.verify.normalise import normalise

_MARRY = re.compile(rf"\b(?:(?:m|rn)arried|united\s+in\s+{bw('marriage')}|wedded|was\s+wed"
                    # "She was unitod in marriage to", "joined in marriage with": the verb
                    # the OCR misread, the phrase that says it still read
                    rf"|(?<=was\s)[a-z]{{4,8}}\s+in\s+{bw('marriage')}(?=\s+(?:to|with)\b)"
                    # "she became the wife of Chas. E. Siddall March 11, 1915"
                    r"|became\s+the\s+(?:wife|bride|husband)\s+of"
                    # "His marriage to Miss Winifred Kezer took place in Barre April 30, 1897"
                    rf"|(?<=his\s)(?-i:m)arriage(?=\s+(?:to|with)\b)"
                    rf"|(?<=her\s)(?-i:m)arriage(?=\s+(?:to|with)\b))"
                    r"(?:\s+(?:to|with))?\b", re.I)


_JUNK = r"(?:['\",;:|-]\s*)?"  # OCR debris at a line start: "widow of\n' the late Jonathan"


_SPOUSE_OF = re.compile(rf"\b(?P<r>wife|husband|widow|widower|relict)\s+of\s+{_JUNK}"
                        r"(?:the\s+late\s+)?", re.I)


_CHILD_OF = re.compile(  # ("a daughter of of Judson Harbert": a word set twice)
    rf"\b(?P<r>sons?|{bw('daughter')}s?|child|{bw('children')}|infant)\s+of\s+(?:of\s+)?{_JUNK}"
    r"(?:the\s+late\s+)?", re.I)


_SIB_OF = re.compile(rf"\b(?P<r>{bw('brother')}|{bw('sister')})\s+of\s+{_JUNK}(?:the\s+late\s+)?",
                     re.I)


_PAIR = re.compile(r"(?P<m>Mr\.?\s+and\s+Mr[sa]\.?\s+)|(?P<g>(?:[A-Z][a-z]+\.?|[A-Z]\.)"
                   r"(?:\s+(?:[A-Z][a-z]+\.?|[A-Z]\.)){0,2})\s+(?:and|&)\s+")


_COUPLE = re.compile(r"(?:,?\s*(?:both\s+)?of\s+[^,;.]{2,40})?,?\s+(?:and|&)\s+")


_MRS = re.compile(r"Mrs\.?")


_COPULA = re.compile(r"\b(?:was|is|were|being|he|she|deceased)\b", re.I)


SEX_BY_ROLE = {"wife": "F", "widow": "F", "relict": "F", "husband": "M", "widower": "M",
                "son": "M", "sons": "M", "daughter": "F", "daughters": "F", "brother": "M",
                "brothers": "M", "sister": "F", "sisters": "F"}


# "On the 22nd day of February, 1870, he was married", "In 1876 Mr. Benson married":
# the sentence opens with the date of what it tells
_DATE_LEADS = re.compile(r"[\s,;'\"]*(?:On|In)\b", re.I)


# "married Agnes Harbert, who was born ... January 25, 1862": her birth, not the marriage
_MARRIAGE_STOP = re.compile(r"\bwho\b|\b(?:born|died)\b")


# "Mr. Garrett March 25, 1888, married Agnes Harbert": the date right before the verb
_DATE_JUST_BEFORE = re.compile(rf"(?:{MONTH_RE})\.?[ \t\n]*\d{{1,2}}(?:st|nd|rd|th)?,?[ \t\n]*"
                               r"\d{4},?[ \t\n]*(?:(?:he|she|(?-i:h)|was)[ \t\n]+)*$", re.I)


_BY = re.compile(r"[ \t\n]*by\b")


_TO_WHOM = re.compile(r",?[ \t\n]+to[ \t\n]+whom[ \t\n]+(?:he|she)[ \t\n]+(?:was|had[ \t\n]+been)"
                      r"[ \t\n]+$")


_TO_SPOUSE = re.compile(r"[ \t\n]+(?:in|at)[ \t\n]+[A-Z][\w.'-]*(?:[ \t\n]+[A-Z][\w.'-]*){0,2},?"
                        r"[ \t\n]+(?:to|with)[ \t\n]+"
                        # "married March 24, 1888, to Miss Julia C. Wheat", "in 1870 to"
                        rf"|[ \t\n,]+(?:(?:on|in)[ \t\n]+)?(?:(?:{MONTH_RE})\.?[ \t\n]*\d{{1,2}}"
                        r"(?:st|nd|rd|th)?[.,]?[ \t\n]*)?\d{4}[.,]?[ \t\n]+(?:to|with)[ \t\n]+",
                        re.I)


_BRIDE = frozenset({"mrs", "miss"})


# "Mr. and Mrs. Isaac Toney were married in Leon": the couple is the marriage's subject
_COUPLE_WERE = re.compile(r"\bMr\.?[ \t\n]+(?:and|&)[ \t\n]+Mr[sa]\.?[ \t\n]+")


_WERE = re.compile(r"[ \t\n]*,?[ \t\n]*were[ \t\n]+$")


# Between a date opening the sentence and its marriage: another event, whose date it is
_OTHER_EVENT = re.compile(r"\b(?:born|bom|died|death|deceased|came|moved|removed)\b", re.I)


def _couple_married(doc: Doc, sent: Sentence, pos: int) -> tuple[str, Span] | None:
    """'Mr. and Mrs. Isaac Toney were married ...': the husband, named by the couple right
    before 'were' (a lone surname, "Mr. and Mrs. Redman", only as the item's subject)."""
    c = next(reversed(list(_COUPLE_WERE.finditer(doc.text, max(sent.s, pos - 80), pos))), None)
    n = name_after(sent, c.start(), c.end() - c.start() + 2) if c else None
    if c is None or n is None or not _WERE.fullmatch(doc.text, n.end, pos):
        return None
    sp = (c.start(), n.end)
    base = strip_title(normalise(n.text))
    if len(base.split()) >= 2:
        people = related_people(doc, sent, c.start())
        return (people[0][0], sp) if people else None
    key = doc.resolve(f"Mr. {base}")
    return (key, sp) if key is not None else None


# "April 5, 1904, Richard and Marie were married": the item's subject by a given name
_GIVEN_PAIR = re.compile(r"(?P<a>[A-Z][a-z]{2,15})[ \t\n]+and[ \t\n]+(?P<b>[A-Z][a-z]{2,15})"
                         r"[ \t\n]+were[ \t\n]+$")


def _given_pair(doc: Doc, sent: Sentence, pos: int) -> tuple[str, Span] | None:
    """Two given names married: one of them the item's subject's own first given name."""
    g = _GIVEN_PAIR.search(doc.text, max(sent.s, pos - 50), pos)
    focus = doc.focus_at(sent.s)
    if g is None or focus is None:
        return None
    words = strip_title(doc.display[focus]).split()
    if len(words) < 2:
        return None
    for part in ("a", "b"):
        if g.group(part) == words[0]:
            return focus, g.span(part)
    return None


def _date_leading(doc: Doc, sent: Sentence, lead: int, verb: int) -> tuple[GenDate, Span] | None:
    """'Oa.the 22nd, day of . February, 1870, he was married', 'April 5, 1904, Richard and
    Marie were married', 'At the parsonage Thanksgiving eve, X and Y were married': the
    date that opens the sentence before its subject, with no other event between it and
    the verb (the OCR lost the "On" that `_DATE_LEADS` reads)."""
    found = date_in(doc, sent.s, lead) if lead > sent.s else None
    if found is None or _OTHER_EVENT.search(doc.text, found[1][1], verb):
        return None
    return found


def marriage(doc: Doc, sent: Sentence) -> None:
    for m in _MARRY.finditer(doc.text, sent.s, sent.e):
        other = name_after(sent, m.end(), 3)
        if other is not None and _BY.match(doc.text, m.end(), other.start):
            other = None  # "were married by Rev. J. B. Reardon": the officiant
        if other is None:
            # "He was married in East Montpelier to Sarah J. Willard Oct. 3, 1857"
            to = _TO_SPOUSE.match(doc.text, m.end(), window_end(sent, m.end(), 50))
            other = name_after(sent, to.end(), 2) if to else None
        before = [n for n in sent.names if n.end <= m.start()]
        whom = _TO_WHOM.search(doc.text, max(sent.s, m.start() - 40), m.start())
        if other is None and whom is not None and before and not doc.text[
                before[-1].end:whom.start()].strip():
            other = before[-1]  # "acquainted with Eber C. Strayer, to whom she was united
            before = before[:-1]  # in marriage": he is her husband, she the subject
        subj = None
        pairs = [(i, j) for i in range(len(before)) for j in (i + 1, i + 2) if j < len(before)]
        for i, j in pairs:
            # "John Smith and Mary Jones were married", "X, of Y, and Z, of W, were married"
            # (the street of "X of 449 Xorth Main street and Z" read as a name between them)
            gap = doc.text[before[i].end : before[j].start]
            if other is None and _COUPLE.fullmatch(gap):
                other, n0 = before[j], before[i]
                if n0.title in _BRIDE and other.title not in _BRIDE:
                    other, n0 = n0, other  # "Mrs. Annie L. Taylor ... and Jesse G. Willey
                    # ... were married": the groom is the marriage's subject, as the
                    # couple is filed
                subj = (doc.person(n0.text, (n0.start, n0.end), sent.span), (n0.start, n0.end))
                break
        if subj is None and other is None:
            subj = _couple_married(doc, sent, m.start()) or _given_pair(doc, sent, m.start())
        if subj is None:
            subj = subject_before(doc, sent, m.start())
        if subj is None:
            continue
        key, ssp = subj
        spans = [ssp]
        if other is not None:
            okey = doc.person(other.text, (other.start, other.end), sent.span)
            if okey != key:
                doc.emit(key, "spouse", doc.display[okey], sent.span,
                         [ssp, (other.start, other.end)], 0.85, "stated marriage",
                         related=okey)
                doc.sex(okey, other.sex, sent.span, (other.start, other.end), 0.85, "title")
                spans.append((other.start, other.end))
        end = window_end(sent, m.end(), 120)
        stop = _MARRIAGE_STOP.search(doc.text, m.end(), end)
        end = stop.start() if stop else end
        just_before = _DATE_JUST_BEFORE.search(doc.text, max(sent.s, m.start() - 40), m.start())
        found = (just_before and date_in(doc, just_before.start(), m.start())) or date_in(
            doc, m.end(), end) or (
            date_in(doc, sent.s, m.start()) if _DATE_LEADS.match(doc.text, sent.s) else None
        ) or _date_leading(doc, sent, min(ssp[0], m.start()), m.start())
        if found:
            emit_date(doc, key, "marriage_date", found, sent, ssp, 0.85, "stated marriage date")
        place = place_in(doc, sent, m.end(), end)
        if place:
            emit_place(doc, key, "marriage_place", place, sent, ssp, 0.8, "place of marriage")


def relation_of(doc: Doc, sent: Sentence) -> None:
    for rx in (_SPOUSE_OF, _CHILD_OF, _SIB_OF):
        for m in rx.finditer(doc.text, sent.s, sent.e):
            role = role_word(m.group("r"))
            bare = _BARE_BEFORE.search(doc.text, max(sent.s, m.start() - 20), m.start()) or (
                _BARE_DESCRIBED.fullmatch(doc.text, sent.s, m.start()))
            if bare is not None and is_given(bare.group("n")):
                # "...; Emily, wife of Caleb B. Hockensmith": the listed given name
                bsp = (bare.start("n"), bare.end("n"))
                subj: tuple[str, Span] | None = (
                    doc.person(bare.group("n"), bsp, sent.span, 0.85, listed=True), bsp)
            elif bare is not None:
                continue  # "...: Louvinia, wife of Jerome Stahl": hers, whoever she is
            else:
                subj = subject_before(doc, sent, m.start(), near=60)
            if subj is not None and subj[1][0] == subj[1][1] and not _COPULA.search(
                    doc.text, sent.s, m.start()):
                subj = None  # "a little daughter of Mr. X died": not the current subject
            if subj is None:
                subj = _given_of_focus(doc, sent, m.start())
            and_was: re.Match[str] | None = _AND_WAS.search(
                doc.text, max(sent.s, m.start() - 24), m.start()) if subj is None else None
            if and_was is not None:
                subj = _who_subject(doc, sent, m.start()) or _sentence_subject(
                    doc, sent, m.start())
                want = PRONOUN_SEX.get((and_was.group("p") or "").lower())
                opens = OPENING_PRONOUN.match(doc.text, sent.s, sent.e)
                if subj is not None and want and (doc.sex_of.get(subj[0], want) != want or (
                        opens and PRONOUN_SEX[opens.group(1).lower()] != want)):
                    subj = None  # "He is survived by his wife, ..., she was the widow of"
            if subj is None:
                continue
            key, ssp = subj
            doc.sex(key, SEX_BY_ROLE.get(role), sent.span, (ssp[0], m.end()), 0.85,
                    f"described as {role}")
            for pkey, psp, psex in related_people(doc, sent, m.end()):
                if pkey == key:
                    continue
                field = ("spouse" if rx is _SPOUSE_OF else "parent" if rx is _CHILD_OF
                         else "sibling")
                doc.emit(key, field, doc.display[pkey], sent.span, [ssp, psp], 0.85,
                         f"{role} of {doc.display[pkey]}", related=pkey)
                doc.sex(pkey, psex, sent.span, psp, 0.8, "title or pairing")


# "Harold, the twenty-months old child of", "Flossie, the 20-year-old daughter of": the
# sentence opens with the child's given name
_BARE_DESCRIBED = re.compile(r"[ \t\n\"'(]*(?P<n>[A-Z][a-z]{2,15}),[ \t\n]+(?:the|an?)[ \t\n]+"
                             r"(?:(?:only|eldest|oldest|youngest|little|infant|adopted|[\w-]+"
                             r"[ \t\n-]+(?:years?|months?|weeks?|days?)[ \t\n-]+old)[ \t\n]+)*")


_BARE_BEFORE = re.compile(r"(?:^|[;:]|\band)[ \t\n]*(?P<n>[A-Z][a-z]{2,15}),[ \t\n]*$")


# "Mr. Crawford was born December 6, 1875, at Brockwayville, Pa., and was a son of ...":
# the same subject as the sentence's first clause, however far back it is named.
_AND_WAS = re.compile(r"(?:,|\band)[ \t\n]+(?:(?P<p>he|she)[ \t\n]+)?(?:was|is)[ \t\n]+"
                      r"(?:(?:a|an|the)[ \t\n]+)?(?:(?:only|eldest|oldest|youngest|second|third"
                      r"|adopted)[ \t\n]+)?$", re.I)


# "Harry was a son of Benjamin and Mary Stevens Horton" in the item about Harry H. Horton
_GIVEN_WAS = re.compile(r"[ \t\n\"'(]*(?P<n>[A-Z][a-z]{2,15})[ \t\n]+(?:was|is)[ \t\n]+(?:(?:a"
                        r"|an|the)[ \t\n]+)?(?:(?:only|eldest|oldest|youngest|second|third"
                        r"|adopted)[ \t\n]+)?")


def _given_of_focus(doc: Doc, sent: Sentence, pos: int) -> tuple[str, Span] | None:
    """The item's subject, named at the sentence's opening by their given name alone."""
    key = doc.focus_at(sent.s)
    m = _GIVEN_WAS.fullmatch(doc.text, sent.s, pos) if key is not None else None
    if m is None or key is None:
        return None
    words = strip_title(doc.display[key]).split()
    if len(words) < 2 or words[0].lower() != m.group("n").lower():
        return None
    return key, (m.start("n"), m.end("n"))


_WHO_AFTER = re.compile(r"[ \t\n]*,[ \t\n]*who\b")


def _who_subject(doc: Doc, sent: Sentence, pos: int) -> tuple[str, Span] | None:
    """'... married Agnes Harbert, who was born in 1862, and was a daughter of ...': the
    relative clause's own subject, not the sentence's."""
    for n in reversed(sent.names):
        if n.end <= pos and _WHO_AFTER.match(doc.text, n.end, pos):
            return doc.person(n.text, (n.start, n.end), sent.span), (n.start, n.end)
    return None


def _sentence_subject(doc: Doc, sent: Sentence, pos: int) -> tuple[str, Span] | None:
    """The person the sentence opens with (its subject), or the item's subject when the
    sentence opens with a pronoun."""
    first = sent.names[0] if sent.names else None
    if first is not None and first.end <= pos and not doc.text[sent.s:first.start].strip(
            " \t\n\"'(-"):
        return doc.person(first.text, (first.start, first.end), sent.span), (
            first.start, first.end)
    key = doc.focus_at(sent.s)
    if key is not None and PRONOUN_START.match(doc.text[sent.s:pos].lstrip()):
        return key, (pos, pos)
    return None


def related_people(doc: Doc, sent: Sentence, pos: int) -> list[tuple[str, Span, str | None]]:
    """People named right after 'son of' and similar: one, or a 'Mr. and Mrs.'/'X and Y' pair."""
    m = _PAIR.match(doc.text, pos, sent.e)
    if m:
        second = name_after(sent, m.end(), 2) or name_after(sent, m.start(), m.end() - m.start())
        if second is None:
            return []
        sp2 = (second.start, second.end)
        if m.group("m"):
            base = strip_title(normalise(second.text))
            # "Mr. and Mrs. Hart": the title stands before the pair, so "Hart" is a person's
            father = doc.person(base, (pos, second.end), sent.span, trusted=True)
            mrs = _MRS.search(m.group("m"))
            mother = doc.person(f"{mrs.group() if mrs else 'Mrs.'} {base}", (pos, second.end),
                                sent.span)
            return [(father, (pos, second.end), "M"), (mother, (pos, second.end), "F")]
        given = m.group("g")
        first_span = (m.start("g"), m.end("g"))
        words = given.split()
        if len(words) >= 2 and len(words[-1].rstrip(".")) > 1:
            first_name = given  # a full name of its own ("John Smith and Mary Jones")
        else:
            first_name = f"{given} {surname(second.text)}"
        k1 = doc.person(first_name, (first_span[0], second.end), sent.span)
        k2 = doc.person(second.text, sp2, sent.span)
        return [(k1, (first_span[0], second.end), "M"), (k2, sp2, "F")]
    n = name_after(sent, pos, 2)
    if n is None:
        return []
    return [(doc.person(n.text, (n.start, n.end), sent.span), (n.start, n.end), n.sex)]
