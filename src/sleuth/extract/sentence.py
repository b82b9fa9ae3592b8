"""A sentence of prose and whom it is about: the nearest un-governed name before a trigger
word, or the paragraph's current subject for "He"/"She"/"Deceased" sentences, with the OCR
forms and appositions that decide between them (`subject_before`, `name_after`)."""

from __future__ import annotations

import re

from sleuth.extract.dates import MONTH_RE
from sleuth.extract.emit import Doc
from sleuth.extract.given import is_given
from sleuth.extract.names import STOP, Name, find_names, uni
from sleuth.extract.person_names import strip_title
from sleuth.verify.normalise import normalise

Span = tuple[int, int]


_BRK = r"(?:-?[ \t]?\n[ \t]?)?"  # OCR often breaks a word across lines, hyphen or not


def bw(word: str) -> str:
    """Pattern for `word` that also matches it broken across a line ("daugh\nter")."""
    return _BRK.join(re.escape(ch) for ch in word)


def role_word(raw: str) -> str:
    """'chil\ndren' -> 'children': a role word as matched by a `bw` pattern, joined."""
    return re.sub(r"[-\s]", "", raw).lower()


_ADJACENT = re.compile(r"[\s,]*(?:(?:is|was)\s+)?(?:(?:the|a|an)\s+)?(?:(?:only|eldest|youngest|"
                       r"oldest|second|third|little|infant|adopted)\s+)?"
                       # "Ralph Leonard, the eight year old son of", "the 20-year-old daughter"
                       r"(?:[\w-]+[\s-]+(?:years?|months?|weeks?|days?)[\s-]+old\s+)?")


_FOCUS_START = re.compile(
    r"(?:the|on|in|at|funeral|burial|interment|services|death|born|(?:m|rn)arried|after|when|while"
    r"|since|remains|later|then|for|there|yesterday"
    # "Was married to John Young May 20, 1856": the obituary's subject left unsaid (the
    # trigger right after it)
    r"|(?-i:Was)(?=[ \t\n]*$))\b", re.I)


_SOLO = re.compile(r"\s*(?P<n>(?:Mc|Mac|O')?[A-Z][a-z]{2,20}),?\s+(?:who\s+)?"
                   r"(?:(?:was|is|had|has|then|later|also|subsequently)\s+)*")


_MODIFIER_GAP = re.compile(r"[ \t]+(?!(?:was|is|who|had|has|and|he|she|also)\b)[a-z]+[ \t]+")


_DESCRIBED = re.compile(r"[^;]{0,80}?\b(?:is|was)\s+(?:an?|the)\s[^;()]{0,100}$")


# (the OCR's "ho" or "h" for "he": "where ho died in a hospital Sunday", "On August 18, 1880
# h married Miss Margaret E. Coon")
# (and "the deceased was born", the OCR's "Tho deceased", where the sentence has run on
# from a list of survivors whose full stop the OCR lost)
_PRONOUN_JUST_BEFORE = re.compile(r"\b(?:he|she|(?-i:ho|h)|(?:th[eo][ \t\n]+)?deceased)[ \t\n]+"
                                  r"(?:(?:later|then|also|finally|eventually|subsequently"
                                  r"|suddenly|was|had)[ \t\n]+)?$", re.I)


# ("James Marcel 1 us Garrett was bom": the OCR parted the name, its surname is the subject's)
_KNOWN_BEFORE = re.compile(uni(
    r"(?<![\w'’.-])(?P<n>(?:Mc|Mac|O')?[A-ZÀ-Þ][a-zà-ÿ'’-]{1,20})(?:'s?)?,?[ \t\n]+(?:(?:later|then"
    r"|also|finally|eventually|subsequently|suddenly|himself|herself|was)[ \t\n]+)?$"))


_PRONOUN_NEAR = re.compile(r"\b(?:he|she|deceased)\b[\w \t\n]{0,20}$", re.I)


# "X, a former citizen of Lexington and a widely known agent of the Mutual Life, died":
# an appositive with no clause end before the verb
_APPOSITIVE = re.compile(r",[ \t\n]+(?:a|an|the|formerly|for[ \t\n]+many|one[ \t\n]+of|aged"
                         r"|late|known)\b(?:[^.;:]|(?<=\bMr)\.|(?<=\bMrs)\.|(?<=\bDr)\.|(?<=\b[A-Z])\.)"
                         r"{0,160}?,?[ \t\n]*$")  # ("... of Mr. and Mrs. Harry Heal, died")


# "Besides her father, J. W. Armstrong, ... she leaves": a relative's name, not the subject
_GIVEN_LEAD = re.compile(r"[ \t\n\"'(]*(?P<n>[A-Z][a-z]{2,15})(?=,)")


_KIN_APPOSITIVE = re.compile(r"\b(?:father|mother|husband|wife|son|daughter|brother|sister"
                             r"|parents)[ \t\n]*,?[ \t\n]*$", re.I)


# A relative as the subject right before the verb: not the item's subject
_KIN_SUBJECT = re.compile(r"\b(?:his|her|their|the)[ \t\n]+(?:(?:only|eldest|oldest|youngest"
                          r"|little|infant|aged|beloved)[ \t\n]+)?(?:mother|father|wife|husband"
                          r"|son|daughter|brother|sister|child|baby|parents)\b(?:[ \t\n]+of"
                          r"[ \t\n]+this[ \t\n]+family)?[ \t\n,]*$", re.I)


PRONOUN_START = re.compile(r"(?:he|she|his|her|deceased|the\s+deceased"
                            # OCR's "He"/"She" at a sentence's start: "lie was", "Mie was"
                            r"|(?-i:lie|Lie|ie|Mie|Slie|Sho|Ho)(?=\s+(?:was|is|had|has|leaves"
                            r"|left|died|came|married)\b))\b", re.I)


_GOVERNING = frozenset(
    {"of", "to", "by", "with", "and", "from", "for", "at", "&", "in", "near", "on", "visited",
     "late", "county", "parish", "township"})  # "Dutchess county, Ncw York": a state


class Sentence:
    """One sentence: its span, its text and the names in it."""

    __slots__ = ("_names", "e", "lower_mode", "s", "text")

    def __init__(self, doc: Doc, s: int, e: int, lower_mode: bool) -> None:
        self.s, self.e = s, e
        self.text = doc.text[s:e]
        self.lower_mode = lower_mode
        self._names: list[Name] | None = [] if lower_mode else None

    @property
    def names(self) -> list[Name]:
        """Names in the sentence, found on first use (most sentences never need them)."""
        if self._names is None:
            self._names = find_names(self.text, self.s)
        return self._names

    @property
    def span(self) -> Span:
        return (self.s, self.e)


def _prev_word(doc: Doc, pos: int) -> str:
    j = pos
    while j > 0 and doc.text[j - 1] in " \t\n,":
        j -= 1
    k = j
    while k > 0 and j - k < 12 and not doc.text[k - 1].isspace():
        k -= 1
    return doc.text[k:j].lower().rstrip(".")


def subject_before(doc: Doc, sent: Sentence, pos: int, *, near: int = 0) -> tuple[str, Span] | None:
    """Nearest un-governed name before `pos`, else the current focus for pronoun sentences."""
    pron = _PRONOUN_JUST_BEFORE.search(doc.text, max(sent.s, pos - 30), pos) if not near else None
    if pron is not None:
        # "..., where he died": the pronoun's referent is the sentence's opening name, else
        # the paragraph's subject (not "the Ursperg Monastery" named in between).
        first = sent.names[0] if sent.names else None
        if first is not None and first.start - sent.s < 25 and (_prev_word(
                doc, first.start) not in _GOVERNING or _TOPIC_OPENS.fullmatch(
                doc.text, sent.s, first.start)) and first.end <= pos and not (
                _KIN_APPOSITIVE.search(doc.text, sent.s, first.start)):
            return doc.person(first.text, (first.start, first.end), sent.span), (
                first.start, first.end)
        key = doc.focus_at(sent.s)
        want = PRONOUN_SEX.get(pron.group().split()[0].lower())
        if key and want and doc.sex_of.get(key, want) != want and not doc.text[
                sent.s:pron.start()].strip(" \t\n\"'("):
            # "He married Miss Anna M. Ferguson, ... She died, November 25, 1875": a pronoun
            # opening the sentence, of the other sex than the item's subject, is the last
            # person of its sex the sentence before named by title; with none, still the
            # subject's (whose sex a stray "her" may have misread: "In the death of George
            # Carleton, Duxbury loses another of her older citizens")
            other = last_titled(doc, sent.s, want)
            if other is not None:
                return other
        if key:
            return key, (pos, pos)
    if not near:
        known = _KNOWN_BEFORE.search(doc.text, max(sent.s, pos - 45), pos)
        if known and not any(n.start <= known.start("n") < n.end for n in sent.names):
            # "In 1809, Ueda died": a lone word naming someone already known (the lead's
            # surname) right before the verb is that person.
            key = doc.resolve(known.group("n"))
            if key is not None:
                return key, (known.start("n"), known.end("n"))
    lead = sent.names[0] if sent.names and not near else None
    if lead is not None and lead.end < pos and not doc.text[sent.s:lead.start].strip(
            " \t\n\"'(") and _APPOSITIVE.match(doc.text, lead.end, pos) and (
            _prev_word(doc, pos) not in ("who", "which")):
        # "George Holliday Stier, a former citizen ... of the Mutual Life, died Sunday": the
        # sentence's own subject, described before its verb
        key = doc.person(lead.text, (lead.start, lead.end), sent.span)
        if key not in doc.not_named:
            return key, (lead.start, lead.end)
    bare = _GIVEN_LEAD.match(doc.text, sent.s, pos) if not near else None
    if bare is not None and is_given(bare.group("n")) and _APPOSITIVE.match(
            doc.text, bare.end("n"), pos) and _prev_word(doc, pos) not in ("who", "which"):
        # "Harold, the twenty-months old child of Mr. and Mrs. Harry Heal, died": a child
        # named by the given name alone, described before the verb
        bsp = (bare.start("n"), bare.end("n"))
        return doc.person(bare.group("n"), bsp, sent.span, 0.85, listed=True), bsp
    for n in reversed(sent.names):
        if n.end > pos:
            continue
        if near and pos - n.end > near:
            break
        if not near and _MODIFIER_GAP.fullmatch(doc.text, n.end, pos):
            continue  # "a Czech Fashion designer born in": the name qualifies a noun
        adjacent = near and _ADJACENT.fullmatch(doc.text, n.end, pos)
        if not adjacent and _prev_word(doc, n.start) in _GOVERNING:
            continue
        if adjacent and _CHILD_OF.search(doc.text, max(sent.s, n.start - 40), n.start):
            continue  # "The little son of Mr. and Mrs. Sidenstricker was buried": the son's
        key = doc.person(n.text, (n.start, n.end), sent.span)
        if key in doc.not_named and doc.resolve(n.text) == key and n is not sent.names[0]:
            continue  # "Patrick E. McNulty, Granite Manufacturer, Died": not a person's name
        return key, (n.start, n.end)
    solo = _SOLO.fullmatch(doc.text, sent.s, pos)
    if solo and solo.group("n").lower() not in STOP and not (
            # "Mie was the mother of ...": OCR's "She", not a name
            PRONOUN_START.match(doc.text, solo.start("n"), sent.e)
            and doc.resolve(solo.group("n")) is None):
        sp = (solo.start("n"), solo.end("n"))
        focus = doc.focus_at(sent.s)
        words = strip_title(doc.display[focus]).split() if focus is not None else []
        if focus is not None and len(words) > 1 and words[0].lower() == solo.group("n").lower():
            return focus, sp  # "Harry was born ..." in the item about Harry H. Horton
        return doc.person(solo.group("n"), sp, sent.span, 0.75, stated=False), sp
    if not near and doc.focus is not None and doc.focus[2] == sent.s and _DESCRIBED.match(
            doc.text, sent.s, pos):
        # "W.T. Pfefferle is an author and poet born in ...": this sentence's own lead
        return doc.focus[0], (pos, pos)
    before = [n for n in sent.names if n.end <= pos]
    pre = doc.text[sent.s : pos].lstrip()
    fkey = doc.focus_at(sent.s) if not before and not near else None
    if fkey is not None and len(pre) < 80 and _opens_with_name(doc.display[fkey], pre):
        # "Mrs. Maggie E. Deshong Rib\nblet, died" under the heading "Mrs. Maggie E.
        # Ribblet.": OCR broke the surname, but the sentence opens with the heading's name.
        return fkey, (pos, pos)
    if _KIN_SUBJECT.search(pre):
        return None  # "Her mother died when ...", "The mother of this family passed away"
    bare_pre = pre.lstrip("'\"-.,;:( \t\n")  # "'\nShe' leaves": OCR specks before it
    spoken = _PRONOUN_NEAR.search(pre.replace("'", " "))
    if PRONOUN_START.match(doc.text, pos - len(bare_pre), sent.e) or spoken or (
        not before and (not pre or (_FOCUS_START.match(pre) and _DATE_WORDS.sub(
            "", pre)[1:].islower()))
    ):
        key = doc.focus_at(sent.s)
        want = PRONOUN_SEX.get(spoken.group().split()[0].lower()) if spoken else None
        opens = OPENING_PRONOUN.match(doc.text, sent.s, pos)
        if key and want and (doc.sex_of.get(key, want) != want or (
                opens and PRONOUN_SEX[opens.group(1).lower()] != want)):
            return None  # "He is survived by his wife, ..., she was the widow of": not him
        if key:
            return key, (pos, pos)
    return None


# a name after "the son of (Mr. and)": the child's parent, not the sentence's subject
_CHILD_OF = re.compile(r"\b(?:son|daughter|child|baby|babe|infant)[ \t\n]+of[ \t\n]+(?:Mr\.?"
                       r"[ \t\n]+and[ \t\n]+)?$", re.I)


PRONOUN_SEX = {"he": "M", "she": "F"}


_LAST_REACH = 200  # the sentence before, about


def last_titled(doc: Doc, pos: int, sex: str) -> tuple[str, Span] | None:
    """The last name before `pos` (within the sentence before) whose title says `sex`
    ("Miss Anna M. Ferguson"), as a known person; None when there is none."""
    a = max(0, pos - _LAST_REACH)
    for n in reversed(find_names(doc.text[a:pos], a)):
        if n.sex == sex:
            key = doc.resolve(n.text)
            return (key, (pos, pos)) if key is not None else None
    return None


# "The body of Daniel Smith, ..., arrived at Salem from Baltimore, where he died": the
# sentence is about the one whose body or funeral it opens with
_TOPIC_OPENS = re.compile(r"[\s\"'(]*(?:the[ \t\n]+)?(?:body|remains|funeral)[ \t\n]+of[ \t\n]+",
                          re.I)


OPENING_PRONOUN = re.compile(r"[\s\"'(]*(he|she)\b", re.I)


# "On February 16, 1877, ie was united in marriage": a date's month is no one's name
_DATE_WORDS = re.compile(rf"\b(?:{MONTH_RE})\b", re.I)


def _opens_with_name(name: str, pre: str) -> bool:
    """`pre` starts with the first two words of `name` (a title and a given name at least)."""
    words = name.split()
    if len(words) < 3:
        return False
    head = " ".join(words[:2])
    return normalise(pre[: len(head) + 8]).startswith(head + " ")


def name_after(sent: Sentence, pos: int, limit: int = 12) -> Name | None:
    for n in sent.names:
        if pos <= n.start <= pos + limit:
            return n
    return None


def pronoun_sex(doc: Doc, sent: Sentence, key: str, ssp: Span, pos: int) -> None:
    if ssp[0] == ssp[1]:
        return
    m = re.search(r"\b(?P<m>he|his|him)\b|\b(?P<f>she|her)\b", doc.text[pos:sent.e])
    if m:
        doc.sex(key, "M" if m.group("m") else "F", sent.span, ssp, 0.6, "pronoun after the name")
