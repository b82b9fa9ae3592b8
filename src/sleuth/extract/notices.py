"""Newspaper notice forms the sentence handlers in `prose`/`family` do not cover.

- an item heading that is only a name ("W. Scott Naugle.") makes that person the subject of
  the item, so "Deceased was a son of ..." below it has someone to attach to;
- "The remains were taken to Everett for burial" names the burial place before the trigger;
- "at the home of his parents, Mr. and Mrs. W. V. Hart" names both parents;
- "Married, at the residence of ..., on the 12th inst., Mr. John Smith and Miss Mary
  Jones, both of this city." is the classic marriage notice;
- "Mrs. John Smith" is, by the married-name convention, the wife of John Smith: that is an
  inference, so it leaves as a hypothesis (`is_fact=False`), never as a fact.
"""

from __future__ import annotations

import re
from itertools import pairwise

from sleuth.extract.emit import Doc
from sleuth.extract.kin import related_people
from sleuth.extract.names import STOP, find_names
from sleuth.extract.person_names import person_key, strip_title, surname
from sleuth.extract.places import read_place
from sleuth.extract.prose import KIN_OPENS
from sleuth.extract.residence import residence
from sleuth.extract.sentence import Sentence, name_after, subject_before
from sleuth.extract.window import date_in, emit_date, emit_place, window_end
from sleuth.verify.normalise import normalise

Span = tuple[int, int]

_HEADING = re.compile(r"\s*(?P<n>.{3,60}?)\.?\s*$", re.S)
_REMAINS = re.compile(
    r"\b(?:remains|body)\s+(?:was|were|will\s+be|are|is)\s+(?:\w+\s+)?(?:taken|sent|brought"
    r"|shipped|conveyed|removed|accompanied|forwarded)\s+to\s+", re.I)
_FOR_BURIAL = re.compile(r"\s*,?\s*(?:for|where)\s+(?:burial|interment|the\s+funeral)", re.I)
_AGE_FOCUS = re.compile(
    r"\b(?:(?:his|her)\s+age\s+was|at\s+the\s+time\s+of\s+(?:his|her)\s+death\s+(?:he|she)?"
    r"[\s\w]{0,12}?aged)\s+(?P<a>\d{1,3})\s+years", re.I)
_PARENTS = re.compile(r"\b(?:his|her|their)\s+parents,?\s+", re.I)
_NOTICE = re.compile(r"\s*(?:MARRIED|Married)\b[.,:;]?")
_BOTH_OF = re.compile(r",?\s*both\s+of\s+", re.I)
_MALE_GIVEN = frozenset(
    "john william james george charles thomas henry joseph edward robert samuel david frank "  # noqa: SIM905
    "harry walter albert fred frederick arthur richard daniel peter andrew jacob isaac "
    "benjamin wm geo chas jas thos jno jos benj saml robt edw alex alexander hugh patrick "
    "michael francis lewis louis ira elmer clarence ernest herbert howard oscar ralph roy "
    "jesse harvey levi nathan philip simon stephen adam abraham amos calvin carl earl ed eli "
    "emil floyd homer leo martin milton ray will willis harold edwin eugene jay lee owen "
    "otto august gus herman warren wesley wilbur wilson".split())


# An office written before the name in a heading or a list of officers.
_OFFICE = re.compile(r"(?:(?:Asst\.?|Assistant|Vice|Deputy|Orchestra|Sunday[ \t]+School)[ \t]+)?"
                     r"(?:Treasurer|Manager|Editor|Pianist|Organist|Chorister|Soloist|Chairman"
                     r"|Superintendent|Supt\.|President|Secretary|Director|Emperor|King|Queen)"
                     r"[ \t]+")


def heading(doc: Doc, sent: Sentence) -> None:
    """A sentence that is one name and nothing else is an item heading: focus on it."""
    if sent.e - sent.s > 70 or len(sent.names) != 1:
        return
    n = sent.names[0]
    m = _HEADING.fullmatch(doc.text, sent.s, sent.e)
    if m is None or doc.text[n.end:m.end("n")].strip(" .,"):
        return
    if m.start("n") != n.start and _OFFICE.fullmatch(doc.text, m.start("n"), n.start) is None:
        return  # "Treasurer John W. Malonoy." heads an item too; any other word before it not
    if len(n.text.split()) < 2:
        return
    key = doc.person(n.text, (n.start, n.end), sent.span, stated=False)  # "Household Goods."
    doc.set_focus(key, sent.s)
    if key in doc.named:
        doc.heading = (key, sent.s)  # "Bertha Decker." over "Mrs. Bertha Dicker, wife of
        # Riley Decker, died": the OCR's misread surname is the heading's person


# An item's heading set in capitals on a line of its own: "BURTON B. GALE.", "DEATH OF
# THOMAS HOUGHTON.", "MRS. F. M. RAGSDALE DEAD", "MRS. GEORGE A. REED'S. DEATH.", or the
# deceased's surname alone ("STRAYER.") under a column heading "OBITUARY.".
_CAPS_LINE = re.compile(r"(?m)^[ \t\"'•*]*(?P<h>[A-Z][A-Z0-9 \t.,'&-]{2,70}?)[ \t.,'\"!:;]*$")
_HEAD_NAME = re.compile(r"(?:DEATH[ \t]+OF[ \t]+(?:THE[ \t]+LATE[ \t]+)?)?(?P<n>[A-Z].*?)"
                        r"(?:'S\.?[ \t]+(?:DEATH|FUNERAL)|[ \t]+(?:IS[ \t]+)?(?:DEAD|BURIED"
                        r"|DIES|DIED|PASSES[ \t]+AWAY))?")
# A capitals line that opens an obituary item without naming anyone ("DEATH OF OLD
# RESIDENT.", "CALLED TO REST", "OBITUARY.") ends the item before it.
_DEATH_WORDS = re.compile(r"\b(?:DEATH|DEAD|DIES|DIED|OBITUARY|FUNERAL|BURIED|REST|REAPER"
                          r"|PASSES|CALLED)\b")
# "FOUR GENERATIONS\nAT CELEBRATION": a headline of words, then its next deck or the text
_HEADLINE = re.compile(r"[A-Z]{2,}(?:[ \t]+[A-Z]{2,})+")
_DECK = re.compile(r"\n[ \t\"'•*]*[A-Z][A-Za-z]")
_SURNAME_HEAD = re.compile(r"(?:Mc|Mac)?[A-Z]{3,20}")


def _title_case(caps: str) -> str:
    """'BURTON B. GALE' -> 'Burton B. Gale', 'MRS. F. M. RAGSDALE' -> 'Mrs. F. M. Ragsdale'."""
    return re.sub(r"[A-Z]{2,}", lambda m: m.group()[0] + m.group()[1:].lower(), caps)


Heading = tuple[int, int, str | None, int, int]  # line start, end, name, name start, end


def caps_headings(text: str) -> list[Heading]:
    """Obituary headings in capitals, in order: each ends the item before it, and one that
    is a name ("BURTON B. GALE.") makes that person the item's subject. A line ending in a
    comma ("C. E. SAGER,") is a signature or a list of officers, not a heading."""
    out: list[Heading] = []
    for m in _CAPS_LINE.finditer(text):
        h = m.group("h").rstrip(" \t.,'")
        tail = text[m.start("h") + len(h):m.end()]
        if sum(ch.isalpha() for ch in h) < 5 or "," in tail or h.count(" ") > 7:
            continue
        hn = _HEAD_NAME.fullmatch(h)
        name = _title_case(hn.group("n")) if hn else ""
        found = find_names(name) if name else []
        # (a title and a surname will do where the heading tells a death: "MRS. ANDERSON
        # DEAD" over "The body of Mrs. Minnie G. Andcr\nBon ... who died")
        words = len(strip_title(found[0].text).split()) if found else 0
        if found and found[0].start == 0 and found[0].end >= len(name.rstrip(".")) and (
                words >= 2 or (words == 1 and found[0].title is not None and hn is not None
                               and hn.end("n") < len(h))) and _told_below(
                text, m.end(), found[0].text):
            a = m.start("h") + (hn.start("n") if hn else 0)
            b = a + len(found[0].text)
            # the name as printed (in capitals), unless the item's first lines print it
            # again as a name is written ("MRS. I. H. MUCKLER." over "Mrs. I. H. Muckler
            # passed away"): then that line names her, and the heading only opens the item
            again = found[0].text in text[m.end():m.end() + _RESTATED]
            out.append((m.start(), m.end(), None if again else text[a:b], a, b))
        elif _DEATH_WORDS.search(h) or (_SURNAME_HEAD.fullmatch(h) and "." in tail) or (
                _HEADLINE.fullmatch(h) and _DECK.match(text, m.end())):
            out.append((m.start(), m.end(), None, 0, 0))
    return out


_ITEM_REACH = 1500  # an obituary's length, about
_RESTATED = 300  # the item's first lines


def _told_below(text: str, pos: int, name: str) -> bool:
    """The heading's surname recurs in the text below it ("Mr. Gale was married ..."): the
    item is about that person ("HAROLD CLAPPER HURT." names no Mr. Hurt)."""
    last = surname(name)
    if len(last) < 2:
        return False
    end = min(len(text), pos + _ITEM_REACH)
    i = text.find(last, pos, end)
    while i >= 0:  # (str.find: a regex per heading would be compiled each time)
        if not text[i - 1:i].isalnum() and not text[i + len(last):i + len(last) + 1].isalnum():
            return True
        i = text.find(last, i + 1, end)
    return False


def caps_heading(doc: Doc, head: Heading) -> None:
    """A capitals heading starts a new item: the previous item's subject is no longer the
    subject (its birth name, survivors and burial are not this item's); a name in it is."""
    a, b, name, ns, ne = head
    key = doc.person(name, (ns, ne), (a, b), stated=False) if name is not None else None
    if key is not None and key not in doc.named:
        return  # "SECOWU-CLABS MATTER": a masthead's words, not a name
    doc.focus = None
    doc.pending_list = None
    if key is not None:
        doc.set_focus(key, a)
        doc.heading = (key, a)


def remains(doc: Doc, sent: Sentence) -> None:
    """'The remains were taken to PLACE for interment': burial place of the item's subject."""
    m = _REMAINS.search(doc.text, sent.s, sent.e)
    if m is None:
        return
    sp = read_place(doc.text, m.end(), window_end(sent, m.end(), 80))
    if sp is None or not _FOR_BURIAL.match(doc.text, sp[1], sent.e):
        return
    subj = subject_before(doc, sent, m.start(), near=40)
    if subj is None:
        key = doc.focus_at(sent.s)
        if key is None:
            return
        subj = (key, (m.start(), m.start()))
    emit_place(doc, subj[0], "burial_place", sp, sent, subj[1], 0.75,
               "remains taken there for burial")


# "Mrs. Mary Carroll died this noon ... She was 82 years of age and was born in Ireland":
# told of someone who died, "was N years of age" is the age at death (not "... when he
# married")
_WAS_AGED = re.compile(r"[\s\"'(]*(?:He|She|Deceased|The[ \t\n]+deceased)[ \t\n]+was[ \t\n]+"
                       r"(?P<a>\d{1,3})[ \t\n]+years[ \t\n]+(?:of[ \t\n]+age|old)\b"
                       r"(?![,]?[ \t\n]+(?:when|at[ \t\n]+the[ \t\n]+time[ \t\n]+of[ \t\n]+"
                       r"(?:his|her)[ \t\n]+marriage))")


def age_of_subject(doc: Doc, sent: Sentence) -> None:
    """'His age was 24 years, 4 months': the item subject's age at death."""
    m = _AGE_FOCUS.search(doc.text, sent.s, sent.e)
    if m is None and (w := _WAS_AGED.match(doc.text, sent.s, sent.e)) is not None:
        key = doc.focus_at(sent.s)
        m = w if key in doc.died else None
    key = doc.focus_at(sent.s) if m else None
    if m is None or key is None or not 0 < int(m.group("a")) < 120:
        return
    doc.emit(key, "age_at_death", str(int(m.group("a"))), sent.span, [(m.start(), m.end())],
             0.75, "age at death of the item's subject")


# "Mr. and Mrs. Isaac Toney" (OCR: "Mr. and Mra."): a married couple, named as such
_COUPLE = re.compile(r"\bMr\.?[ \t\n]+(?:and|&)[ \t\n]+Mr[sa]\.?[ \t\n]+")


_GOVERNED = re.compile(r"\b(?:of|to|by|with|for|from|at|parents|guests?)\b[ \t\n,:\"'-]*$", re.I)


# "celebrated their golden wedding anniversary", "the 50th wedding anniversary of Mr. and
# Mrs. Wilbur F. Bradford": an item about a couple's marriage
_ANNIVERSARY = re.compile(r"\b(?:golden|silver|diamond)[ \t\n]+wedding\b|\bwedding[ \t\n]+anni"
                          r"|\banniversary[ \t\n]+of[ \t\n]+(?:their|the)[ \t\n]+marriage", re.I)


def anniversary(doc: Doc, sent: Sentence) -> None:
    """'... the fiftieth wedding anniversary of Mr. and Mrs. Wilbur F. Bradford': the couple
    is the item's subject, and the children it lists are theirs (the husband's, as a
    record of the family is kept)."""
    if not _ANNIVERSARY.search(doc.text, sent.s, sent.e):
        return
    m = _COUPLE.search(doc.text, sent.s, sent.e)
    if m is None or re.search(r"\b(?:son|daughter|child|parents|guests?)\b[^.;]{0,12}$",
                              doc.text[max(sent.s, m.start() - 30):m.start()], re.I):
        return
    people = related_people(doc, sent, m.start())
    if len(people) != 2 or people[0][0] == people[1][0]:
        return
    (husband, hsp, _), (wife, wsp, _) = people
    doc.emit(husband, "spouse", doc.display[wife], sent.span, [hsp, wsp], 0.85,
             "a couple named together: Mr. and Mrs., at their wedding anniversary",
             related=wife)
    doc.set_focus(husband, sent.s)
    doc.celebrated.add(husband)


def couples(doc: Doc, sent: Sentence) -> None:
    """'Mr. and Mrs. Isaac Toney celebrated ...': the text names a married couple as the
    sentence's subject, so each is the other's spouse (unlike a lone "Mrs. John Smith",
    whom only the married-name convention makes his wife: `married_names` leaves that as
    a hypothesis)."""
    for m in _COUPLE.finditer(doc.text, sent.s, sent.e):
        if _GOVERNED.search(doc.text, max(sent.s, m.start() - 30), m.start()):
            continue  # "son of Mr. and Mrs. X", "home of his parents, Mr. and Mrs. X": they
            # are named for someone else's sake (`parents` links them to that person)
        named = name_after(sent, m.end(), 2) or name_after(sent, m.start(), m.end() - m.start())
        if named is None or len(strip_title(normalise(named.text)).split()) < 2:
            continue  # "Mr. and Mrs. Reed": a lone surname makes nobody (issue 19)
        people = related_people(doc, sent, m.start())
        if len(people) != 2:
            continue
        (husband, hsp, _), (wife, wsp, _) = people
        if husband == wife:
            continue
        doc.emit(husband, "spouse", doc.display[wife], sent.span, [hsp, wsp], 0.85,
                 "a couple named together: Mr. and Mrs.", related=wife)
        doc.sex(husband, "M", sent.span, hsp, 0.8, "Mr. of a couple")
        doc.sex(wife, "F", sent.span, wsp, 0.8, "Mrs. of a couple")


def parents(doc: Doc, sent: Sentence) -> None:
    """'... the home of his parents, Mr. and Mrs. W. V. Hart': both are parents; then the
    single relatives named after 'his/her daughter' and the like (`kin_named`)."""
    kin_named(doc, sent)
    for m in _PARENTS.finditer(doc.text, sent.s, sent.e):
        people = related_people(doc, sent, m.end())
        if not people:
            continue
        subj = subject_before(doc, sent, m.start())
        if subj is None:
            continue
        key, ssp = subj
        for pkey, psp, psex in people:
            if pkey == key:
                continue
            doc.emit(key, "parent", doc.display[pkey], sent.span, [ssp, psp], 0.8,
                     f"named as parents: {doc.display[pkey]}", related=pkey)
            doc.sex(pkey, psex, sent.span, psp, 0.8, "title or pairing")


# "died at the home of her daughter, Mrs. W. E. Gammon", "her daughter, Blanche, at Coon
# Rapids": a possessive kin word right before a name names that relative of the subject.
_KIN = re.compile(r"\b(?:his|her)\s+(?:(?:only|eldest|oldest|youngest|little|infant)\s+)?"
                  r"(?P<r>son|daughter|brother|sister|father|mother)(?![\w-]),?[ \t\n]+")
_KIN_FIELD = {"son": ("child", "M"), "daughter": ("child", "F"), "brother": ("sibling", "M"),
              "sister": ("sibling", "F"), "father": ("parent", "M"), "mother": ("parent", "F")}
_BARE_KIN = re.compile(r"(?P<n>[A-Z][a-z]{2,15}),?(?=[ \t\n]*(?:[,;.]|at\b|of\b|in\b|who\b))")


def kin_named(doc: Doc, sent: Sentence) -> None:
    """'... at the home of her daughter, Mrs. W. E. Gammon': the daughter is the subject's."""
    for m in _KIN.finditer(doc.text, sent.s, sent.e):
        n = name_after(sent, m.end(), 1)
        if n is not None:
            name, nsp, nsex = n.text, (n.start, n.end), n.sex
        else:
            b = _BARE_KIN.match(doc.text, m.end(), sent.e)
            if b is None or b.group("n").lower() in STOP:
                continue
            name, nsp, nsex = b.group("n"), (b.start("n"), b.end("n")), None
        subj = _possessor(doc, sent, m)
        if subj is None:
            continue
        key, ssp = subj
        okey = doc.person(name, nsp, sent.span, 0.85, listed=True)
        if okey == key:
            continue
        field, sex = _KIN_FIELD[m.group("r")]
        doc.emit(key, field, doc.display[okey], sent.span, [ssp, nsp], 0.8,
                 f"named as {m.group('r')}", related=okey)
        residence(doc, sent, okey, nsp)  # "her father, J. W. Armstrong, of Fayette"
        doc.sex(okey, nsex or sex, sent.span, nsp, 0.8, f"named as {m.group('r')}")


_OBJECT = re.compile(r"\b(?:of|and|&|to|by|with|for|from|at|late)[ \t\n,]*$", re.I)
_TOPIC_OF = re.compile(r"\b(?:funeral|death|burial|remains|obsequies)[ \t\n]+of[ \t\n]+$", re.I)


def _possessor(doc: Doc, sent: Sentence, m: re.Match[str]) -> tuple[str, Span] | None:
    """Whose 'his sister' is it? In an item about someone who died, that person's when the
    pronoun fits them ("His father ... lives in Rouses Point, where his sister, Mrs. Ida
    Blair, also resides"); otherwise the nearest subject before it."""
    want = "M" if m.group(0)[:3].lower() == "his" else "F"
    for n in reversed(sent.names):
        # "The funeral of Mrs. Julia Bruce, ..., at the home of her daughter": the nearest
        # person before it whom the pronoun fits
        k = doc.resolve(n.text) if n.end <= m.start() else None
        if k is None or k not in doc.named or doc.sex_of.get(k) != want:
            continue
        if _OBJECT.search(doc.text, max(sent.s, n.start - 30), n.start) and not (
                _TOPIC_OF.search(doc.text, max(sent.s, n.start - 30), n.start)):
            continue  # "daughter of Joshua and Ethalinda Bellamy": named for another's sake
        return k, (n.start, n.end)
    key = doc.focus_at(sent.s)
    if key is None or doc.sex_of.get(key, want) != want:
        return subject_before(doc, sent, m.start())
    if key in doc.died:
        return key, (m.start(), m.start())
    subj = subject_before(doc, sent, m.start())
    if subj is None or subj[1][0] >= m.start():
        return key, (m.start(), m.start())  # "Besides her father, ...": no one named before
    return subj


def marriage_notice(doc: Doc, sent: Sentence) -> None:
    """'Married, ... Mr. John Smith and Miss Mary Jones, both of Salem.' (notice form)."""
    if _NOTICE.match(doc.text, sent.s) is None:
        return
    names = sent.names
    for a, b in pairwise(names):
        gap = doc.text[a.end:b.start]
        if not re.fullmatch(r",?\s*(?:of\s+[^,;]{2,40},\s*)?(?:and|&|to)\s+", gap):
            continue
        ka = doc.person(a.text, (a.start, a.end), sent.span)
        kb = doc.person(b.text, (b.start, b.end), sent.span)
        if ka == kb:
            return
        sa, sb = (a.start, a.end), (b.start, b.end)
        doc.emit(ka, "spouse", doc.display[kb], sent.span, [sa, sb], 0.85, "marriage notice",
                 related=kb)
        for k, n in ((ka, a), (kb, b)):
            doc.sex(k, n.sex, sent.span, (n.start, n.end), 0.85, "title")
        found = date_in(doc, sent.s, a.start)
        if found:
            emit_date(doc, ka, "marriage_date", found, sent, sa, 0.8, "marriage notice date")
        both = _BOTH_OF.match(doc.text, b.end, sent.e)
        if both:
            sp = read_place(doc.text, both.end(), window_end(sent, both.end(), 80))
            if sp:
                for k, nsp in ((ka, sa), (kb, sb)):
                    emit_place(doc, k, "residence", sp, sent, nsp, 0.7, "'both of PLACE'")
        return


_MRS = re.compile(r"Mrs\.?\s+(?P<g>(?:[A-Z]\.\s*)+|[A-Z][a-z]+\.?(?:\s+[A-Z]\.)*)\s+"
                  r"(?P<s>(?:Mc|Mac|O')?[A-Z][a-z]+)$")


def married_names(doc: Doc) -> None:
    """'Mrs. John Smith' -> hypothesis: spouse John Smith (only for male or initial givens)."""
    for c in list(doc.out):
        if c.field != "name" or not c.is_fact or c.citation is None:
            continue
        m = _MRS.match(c.value)
        if m is None:
            continue
        given = m.group("g").strip()
        first = given.split()[0].rstrip(".").lower()
        if not (len(first) == 1 or first in _MALE_GIVEN):
            continue
        husband = f"{given} {m.group('s')}"
        loc = c.citation.locator
        span = doc.reading.to_view(loc.start, loc.end)
        hkey = doc.keys.get(person_key(husband))
        if hkey is None:
            hkey = doc.person(husband, span, span, 0.4, inferred=True)
        if hkey == c.subject:
            continue
        doc.emit(c.subject, "spouse", doc.display[hkey], span, [], 0.45,
                 "hypothesis: 'Mrs. <his name>' is the married-name form of his wife",
                 related=hkey, is_fact=False, exact_span=span)




# "J. A. White, known to his friends generally as Albert White, a son of the late N. R.
# White": one man under two names; what the sentence goes on to say of either is his
_KNOWN_AS = re.compile(r",[ \t\n]+(?:(?:better|generally|commonly|familiarly)[ \t\n]+)?known"
                       r"(?:[ \t\n]+to[ \t\n]+(?:his|her|their)[ \t\n]+\w+)?(?:[ \t\n]+(?:better"
                       r"|generally|commonly|familiarly))?[ \t\n]+as[ \t\n]+$")


def known_as(doc: Doc, sent: Sentence) -> None:
    """A name, then "known (to his friends) as" another name: the second is an alias of the
    first, so both resolve to one person."""
    if "known" not in sent.text:
        return
    names = sent.names
    for a, b in pairwise(names):
        if _KNOWN_AS.fullmatch(doc.text, a.end, b.start) is None:
            continue
        key = doc.person(a.text, (a.start, a.end), sent.span)
        if person_key(b.text) not in doc.keys and surname(a.text) == surname(b.text):
            doc.keys[person_key(b.text)] = key


# "Death invaded the home of Mr and Mrs. George Bradnick near Knobsville, ..., and claimed
# their little daughter Lena Evelyn": the child the sentence names is the couple's
_COUPLE_TITLE = re.compile(r"\bMr\.?[ \t\n]+and[ \t\n]+Mr[sa]\.?[ \t\n]+")
_THEIR_CHILD = re.compile(r"\btheir[ \t\n]+(?:(?:little|infant|baby|only|youngest|eldest"
                          r"|oldest|[\w-]+[ \t\n-]+(?:years?|months?|weeks?|days?)[ \t\n-]+old)"
                          r"[ \t\n]+)*(?P<r>son|daughter|child|babe|baby)\b,?[ \t\n]+")


def their_child(doc: Doc, sent: Sentence) -> None:
    """'Mr. and Mrs. X ... their little daughter Lena Evelyn': a child of both (the couple
    named last before "their", a line or two before it at most)."""
    if "their" not in sent.text or _COUPLE_TITLE.search(doc.text, sent.s, sent.e) is None:
        return
    for m in _THEIR_CHILD.finditer(doc.text, sent.s, sent.e):
        couples = list(_COUPLE_TITLE.finditer(doc.text, max(sent.s, m.start() - 150), m.start()))
        n = name_after(sent, m.end(), 1)
        b = _BARE_KIN.match(doc.text, m.end(), sent.e) if n is None else None
        if not couples:
            continue
        if n is not None:
            name, nsp = n.text, (n.start, n.end)
        elif b is not None and b.group("n").lower() not in STOP:
            name, nsp = b.group("n"), (b.start("n"), b.end("n"))
        else:
            continue
        child = doc.person(name, nsp, sent.span, 0.85, listed=True)
        for pkey, psp, _ in related_people(doc, sent, couples[-1].start()):
            if pkey != child:
                doc.emit(child, "parent", doc.display[pkey], sent.span, [nsp, psp], 0.8,
                         f"named as their {m.group('r')}", related=pkey)


def kin_opening(doc: Doc, sent: Sentence) -> None:
    """'A daughter, Nellie Bradford, died at the age of 13': the item's subject's child (or
    sibling), named at the sentence's start."""
    m = KIN_OPENS.match(doc.text, sent.s, sent.e)
    key = doc.focus_at(sent.s) if m is not None else None
    n = name_after(sent, m.end(), 1) if m is not None and key is not None else None
    if m is None or key is None or n is None:
        return
    okey = doc.person(n.text, (n.start, n.end), sent.span, 0.85, listed=True)
    role = m.group("r").lower()
    if okey != key:
        field, sex = _KIN_FIELD[role]
        doc.emit(key, field, doc.display[okey], sent.span, [(m.start("r"), n.end)], 0.8,
                 f"'a {role}, NAME' in the item about them", related=okey)
        doc.sex(okey, n.sex or sex, sent.span, (n.start, n.end), 0.8, f"named as a {role}")
