"""Sentence-level patterns for vital events in obituaries, notices and biographies.

Each handler anchors on a trigger word ("died", "born", "son of", "survived by"), takes its
subject from the nearest un-governed name before it (or the paragraph's current subject for
"He"/"She"/"Deceased" sentences) and reads dates and places only from a bounded window after
the trigger. Nothing is read outside the sentence, so every excerpt states its own fact.
"""

from __future__ import annotations

import re
from datetime import timedelta

from sleuth.extract.dates import DATE_FIND, MONTH_RE, PARTIAL_FIND, WEEKDAYS, parse_date
from sleuth.extract.emit import Doc
from sleuth.extract.gate import Gate
from sleuth.extract.given import is_given
from sleuth.extract.names import (
    STOP,
    Name,
    find_names,
    person_key,
    strip_title,
    surname,
    uni,
)
from sleuth.extract.places import read_lower_place, read_place
from sleuth.model.dates import DateQualifier, GenDate, years_before
from sleuth.verify.normalise import normalise

Span = tuple[int, int]
_BRK = r"(?:-?[ \t]?\n[ \t]?)?"  # OCR often breaks a word across lines, hyphen or not


def bw(word: str) -> str:
    """Pattern for `word` that also matches it broken across a line ("daugh\nter")."""
    return _BRK.join(re.escape(ch) for ch in word)


def role_word(raw: str) -> str:
    """'chil\ndren' -> 'children': a role word as matched by a `bw` pattern, joined."""
    return re.sub(r"[-\s]", "", raw).lower()


_ROLES = (f"{bw('daughter')}s?|{bw('children')}|{bw('brother')}s?|{bw('sister')}s?"
          f"|{bw('survived')}|{bw('interment')}|{bw('marriage')}")
# (a `Gate`: every sentence is tested, so it runs lower-cased; see `extract.gate`)
TRIGGER = Gate(
    r"(?:(?<=was[ \t\n])|(?<=were[ \t\n])|(?<=been[ \t\n]))(?:bom|bora|boru|horn)\b|"
    r"\b(?:died|di\?d|dies|dead|passed\s+away|departed\s+this\s+life|death|born|b\.|(?:m|rn)arried|expired"
    r"|marriage|wed"
    r"|wedded|wife|husband|widow|widower|sons?|daughters?|child|children|survived|survives|surviving"
    r"|leaves|mourn|buried|burial|interment|interred|laid\s+to\s+rest|aged|Jr|brothers?"
    r"|sisters?|resided|resident|lived|parents|remains|body|union|they\s+had|age\s+was|native"
    r"|Mr\.?\s+and\s+Mr[sa]|mother|father)\b"
    r"|-lrb-|\("
    rf"|\b(?:{_ROLES})\b",
    starts="a-z(-",
)
# ("di?d": the OCR's "?" for a letter it could not read, as the Clarksburg pages print it)
_DEATH = re.compile(r"\b(?:died|di\?d|dies|passed\s+away|departed\s+this\s+life|expired"
                    # "Noah Ginter ... fell dead in front of the store last Monday"
                    r"|(?:fell|dropped|was\s+found|found)\s+dead)\b"
                    r"|\b(?P<of>death\s+of)\s+|\b(?P<his>(?:his|her)\s+death)\b"
                    # "The funeral of X, a native of Barre, whose death occurred at ..."
                    r"|\b(?P<whose>whose)\s+death\s+(?:occurred|took\s+place)\b", re.I)
# "went to Rome, where he died": the place stands before the trigger.
_WHERE_DIED = re.compile(r",?[ \t\n]+where[ \t\n]+(?:he|she)[ \t\n]+(?:later[ \t\n]+|subsequently"
                         r"[ \t\n]+|eventually[ \t\n]+)?$", re.I)
# The death clause ends where another event starts ("...; he was buried in the church").
# (and at a funeral's "will be held Tuesday", "were held Sunday": another day's clause)
_DEATH_STOP = re.compile(r";|\b(?:buried|interred|born|(?:m|rn)arried|will\s+be|(?:was|were)"
                         r"\s+held)\b")
_TO_PLACE = re.compile(r"\b(?:to|in|at)[ \t\n]+(?=[A-Z])")
# "James Garrett was bom January 26, 1863", "Deceased was bom in Sweden", "was horn in
# Corinth": the OCR's "born" after "was/were/been" (not "their horn", "bom\nbardment")
_OCR_BORN = r"(?:(?<=was[ \t\n])|(?<=were[ \t\n])|(?<=been[ \t\n]))(?:bom|bora|boru|horn)\b"
_BORN = re.compile(rf"\bborn\b|{_OCR_BORN}", re.I)
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
# (the OCR capitalises a preposition now and then: "the burial will be In the ...")
_LOC = re.compile(r"\b(?i:in|at|near)\s+(?:(?:his|her|the|their|a)\s+(?:(?:late|nursing|own|summer"
                  r"|family)\s+)?(?:home|residence)(?:\s+of\s+[^;]{1,60}?)??(?:\s*,?\s+(?:in|at|near)\s+"
                  # "at her home, 153 Cooper Ave., Johnstown": the street, then the town
                  r"|,?\s+(?:No\.\s*)?\d{1,5}\s+(?:[\w.'-]+\s+){1,3}?(?:Ave|Avenue|St|Street|Road|Rd"
                  r"|Place|Pl|Boulevard|Blvd|Lane|Drive|Dr|Court|Ct)\.?,\s*)"
                  # "died in a Glasgow hospital": the town names the hospital
                  r"|an?\s+(?=[A-Z][\w'.]*\s+(?:[Hh]ospital|[Cc]linic|nursing\s+home)\b)"
                  # "at St. Francis Hospital in Wilmington": the town, not the institution
                  r"|(?:the\s+)?(?:[A-Z][\w'.]*\s+){1,4}(?:Hospital|Sanitarium|Sanatorium"
                  r"|Infirmary|Asylum|Home|Hotel)(?:\s*,\s*|\s+(?:in|at|near)\s+))?")
# "in a Glasgow hospital": a town names the hospital; "at the Methodist hospital", "in St
# Mary's hospital" name an institution, no town
_TOWN_NAMES_IT = re.compile(r"\ban?\s+$")
_INSTITUTION_AFTER = re.compile(r"\s+(?:hospital|sanitarium|sanatorium|infirmary|clinic)\b",
                                re.I)
_INSTITUTION_TAIL = re.compile(r"[ \t\n]+(?:hospital|clinic|nursing[ \t\n]+home)$")
_AGE = re.compile(
    r"\b(?:aged|age\s+of|age)\s+(?:about\s+|nearly\s+|almost\s+|over\s+)?\n?"
    r"(?P<a>\d{1,3}|[a-z]+(?:[- ][a-z]+)?)\b(?:\s+years)?"
    r"|\b(?P<b>\d{1,3})\s+years\s+(?:of\s+age|old)\b", re.I)
_PAIR = re.compile(r"(?P<m>Mr\.?\s+and\s+Mr[sa]\.?\s+)|(?P<g>(?:[A-Z][a-z]+\.?|[A-Z]\.)"
                   r"(?:\s+(?:[A-Z][a-z]+\.?|[A-Z]\.)){0,2})\s+(?:and|&)\s+")
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
_CHILD_BORN = re.compile(r"\b(?:sons?|daughters?|child|children|(?:this|the|their|which)\s+union"
                         r"|baby|babe|infant|twins)\b",
                         re.I)
_COUPLE = re.compile(r"(?:,?\s*(?:both\s+)?of\s+[^,;.]{2,40})?,?\s+(?:and|&)\s+")
_SOLO = re.compile(r"\s*(?P<n>(?:Mc|Mac|O')?[A-Z][a-z]{2,20}),?\s+(?:who\s+)?"
                   r"(?:(?:was|is|had|has|then|later|also|subsequently)\s+)*")
_MODIFIER_GAP = re.compile(r"[ \t]+(?!(?:was|is|who|had|has|and|he|she|also)\b)[a-z]+[ \t]+")
_DESCRIBED = re.compile(r"[^;]{0,80}?\b(?:is|was)\s+(?:an?|the)\s[^;()]{0,100}$")
# (the OCR's "ho" for "he": "where ho died in a hospital Sunday")
# (and "the deceased was born", the OCR's "Tho deceased", where the sentence has run on
# from a list of survivors whose full stop the OCR lost)
_PRONOUN_JUST_BEFORE = re.compile(r"\b(?:he|she|(?-i:ho)|(?:th[eo][ \t\n]+)?deceased)[ \t\n]+"
                                  r"(?:(?:later|then|also|finally|eventually|subsequently"
                                  r"|suddenly|was|had)[ \t\n]+)?$", re.I)
_KNOWN_BEFORE = re.compile(uni(
    r"(?<![\w'’.-])(?P<n>(?:Mc|Mac|O')?[A-ZÀ-Þ][a-zà-ÿ'’-]{1,20})(?:'s?)?,?[ \t\n]+(?:(?:later|then"
    r"|also|finally|eventually|subsequently|suddenly|himself|herself)[ \t\n]+)?$"))
_PRONOUN_NEAR = re.compile(r"\b(?:he|she|deceased)\b[\w \t\n]{0,20}$", re.I)
_MRS = re.compile(r"Mrs\.?")
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
_WHO = re.compile(r",?\s*\bwho\s+(?:\w+\s+){0,2}$")
_COPULA = re.compile(r"\b(?:was|is|were|being|he|she|deceased)\b", re.I)
PRONOUN_START = re.compile(r"(?:he|she|his|her|deceased|the\s+deceased"
                            # OCR's "He"/"She" at a sentence's start: "lie was", "Mie was"
                            r"|(?-i:lie|Lie|ie|Mie|Slie|Sho|Ho)(?=\s+(?:was|is|had|has|leaves"
                            r"|left|died|came|married)\b))\b", re.I)
_GOVERNING = frozenset(
    {"of", "to", "by", "with", "and", "from", "for", "at", "&", "in", "near", "on", "visited",
     "late", "county", "parish", "township"})  # "Dutchess county, Ncw York": a state
SEX_BY_ROLE = {"wife": "F", "widow": "F", "relict": "F", "husband": "M", "widower": "M",
                "son": "M", "sons": "M", "daughter": "F", "daughters": "F", "brother": "M",
                "brothers": "M", "sister": "F", "sisters": "F"}
_YEARISH = re.compile(r"\d{3}")
_MONTHISH = re.compile(r"[A-Za-z]{3,}\.?\s{0,2}\d")
_MONTH_AFTER = re.compile(rf"[\s,]*(?:{MONTH_RE})\b\.?\s*\d", re.I)
_NUM = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "  # noqa: SIM905
    "fifteen sixteen seventeen eighteen nineteen".split())}
_TENS = {w: 10 * i for i, w in enumerate(
    "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()) if w != "_"}  # noqa: SIM905


def word_number(s: str) -> int | None:
    """'78', 'seventy-eight', 'ninety one' -> int; None otherwise."""
    if s.isdigit():
        return int(s)
    total = 0
    for w in re.split(r"[- ]", s.lower()):
        if w in _TENS:
            total += _TENS[w]
        elif w in _NUM:
            total += _NUM[w]
        else:
            return None
    return total or None


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
        want = _PRONOUN_SEX.get(pron.group().split()[0].lower())
        if key and want and doc.sex_of.get(key, want) != want and not doc.text[
                sent.s:pron.start()].strip(" \t\n\"'("):
            # "He married Miss Anna M. Ferguson, ... She died, November 25, 1875": a pronoun
            # opening the sentence, of the other sex than the item's subject, is the last
            # person of its sex the sentence before named by title; with none, still the
            # subject's (whose sex a stray "her" may have misread: "In the death of George
            # Carleton, Duxbury loses another of her older citizens")
            other = _last_titled(doc, sent.s, want)
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
        want = _PRONOUN_SEX.get(spoken.group().split()[0].lower()) if spoken else None
        opens = _OPENING_PRONOUN.match(doc.text, sent.s, pos)
        if key and want and (doc.sex_of.get(key, want) != want or (
                opens and _PRONOUN_SEX[opens.group(1).lower()] != want)):
            return None  # "He is survived by his wife, ..., she was the widow of": not him
        if key:
            return key, (pos, pos)
    return None


_PRONOUN_SEX = {"he": "M", "she": "F"}
_LAST_REACH = 200  # the sentence before, about


def _last_titled(doc: Doc, pos: int, sex: str) -> tuple[str, Span] | None:
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
_OPENING_PRONOUN = re.compile(r"[\s\"'(]*(he|she)\b", re.I)


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


def _parse_found(doc: Doc, raw: str, span: Span | None = None) -> GenDate | None:
    """Parse a found date as written; failing that, as the firewall reads it ("Sep-\ntember"
    is "September"), so the date's `original` is still found in the normalised excerpt.

    A phrase the line end broke ("died last Mon\nday morning", "last-\nSaturday") is read
    in the reading view, but its `original` is the source's words as the firewall
    normalises them ("last Mon day morning", "lastSaturday"): a phrase with no year is
    grounded by its words in the excerpt, and the view's joined word is not in it."""
    g = parse_date(raw, reference=doc.document_date)
    if g is None and "\n" in raw:
        g = parse_date(normalise(raw), reference=doc.document_date)
    if g is not None and span is not None:
        s, e = doc.reading.to_source(*span)
        said = doc.source[s:e]
        if "\n" in said and (said := normalise(said)) != " ".join(raw.split()):
            g = g.model_copy(update={"original": said})
    return g


_OLDEST = 150  # years before its own date that a newspaper's vital event may lie
_BAD_YEAR = re.compile(rf"(?P<md>\b(?:{MONTH_RE})\.?\s{{0,2}}\d{{1,2}}(?:st|nd|rd|th)?),?"
                       r"\s{0,2}(?P<y>\d{4})\b", re.I)


# "The death of X occurred, as we noted last week, ...": the day of the report, not the event
# "September 11, lSGO.": a year the OCR garbled past reading, after a month and day
_GARBLED_YEAR = re.compile(r"[ \t]?[,.][ \t\n]{0,2}[0-9lI][0-9A-Za-z!|']{3,5}\b")
_REPORTED = re.compile(r"\b(?:noted|mentioned|reported|announced|stated|told|published)"
                       r"[ \t\n]*$", re.I)


# "born December\nft. 1875", "July l'., 1831": a month, a day the OCR could not print (no
# digit, a speck or stop in it), then the year
_JUNK_DAY = re.compile(rf"(?P<md>(?=[A-Z])(?i:{MONTH_RE})\.?[ \t\n]{{1,2}}"
                       r"(?=[^\s\d]{0,3}[.,'`])[^\s\d]{1,4}[ \t\n]{1,2})$")


class _Found:
    """A date found by a rule other than `DATE_FIND`: its text and span, as a match gives."""

    __slots__ = ("_span", "_text")

    def __init__(self, text: str, span: Span) -> None:
        self._text, self._span = text, span

    def group(self) -> str:
        return self._text

    def span(self) -> Span:
        return self._span

    def start(self) -> int:
        return self._span[0]

    def end(self) -> int:
        return self._span[1]


def _garbled_day(doc: Doc, a: int, m: re.Match[str]) -> re.Match[str] | _Found:
    """A bare year whose month stands before an unreadable day: the month and year, read
    as a month (the day is not guessed); the year alone otherwise."""
    j = _JUNK_DAY.search(doc.text, max(a, m.start() - 20), m.start())
    if j is None or sum(ch.isalpha() for ch in j.group()[len(j.group().split()[0]):]) > 2:
        return m
    month = j.group().split()[0]
    return _Found(f"{month} {m.group()}", (j.start(), m.end()))


def date_in(doc: Doc, a: int, b: int, *, partial: bool = True) -> tuple[GenDate, Span] | None:
    """First date in [a, b); year-less phrases only when allowed and a document date exists."""
    found_at = DATE_FIND.search(doc.text, a, b)
    m: re.Match[str] | _Found | None = found_at
    if found_at and found_at.group().isdigit():
        m = _garbled_day(doc, a, found_at)
    if m:
        g = _parse_found(doc, m.group(), m.span())
        ref = doc.document_date.latest if doc.document_date else None
        if g is not None and g.earliest and ref and g.earliest > ref:
            g = None  # a vital event cannot postdate the document reporting it
        if g is not None and g.latest and ref and g.latest.year < ref.year - _OLDEST:
            g = None  # "died in 1604" in a 1916 paper's obituary: a misread year
        if g is not None:
            return g, (m.start(), m.end())
    if partial and doc.document_date is not None:
        bad = _BAD_YEAR.search(doc.text, a, b)
        if bad is not None and int(bad.group("y")) < 1500:
            # "Sunday, January 23, 1316" in a 1916 paper: a misread year; the month and
            # day are read against the paper's date
            g = _parse_found(doc, bad.group("md"), bad.span("md"))
            ref = doc.document_date.latest
            if g is not None and g.earliest and ref and g.earliest <= ref:
                return g, (bad.start("md"), bad.end("md"))
        found = [f for f in PARTIAL_FIND.finditer(doc.text, a, b)
                 if not _REPORTED.search(doc.text, max(a, f.start() - 30), f.start())]
        # "on Wednesday, August 30, 1J16": the month and day say more than the weekday.
        m = next((f for f in found if _MONTHISH.match(f.group())), found[0] if found else None)
        if m and (_MONTH_AFTER.match(doc.text, m.end()) or (
                _MONTHISH.match(m.group()) and _GARBLED_YEAR.match(doc.text, m.end()))):
            m = None  # "on Wednesday, August 30, 1J16", "September 11, lSGO": a full date
            # whose year is unreadable
        if m:
            g = _parse_found(doc, m.group(), m.span())
            ref = doc.document_date.latest
            if g is not None and g.earliest and ref and g.earliest > ref + timedelta(days=14):
                g = None
            if g is not None:
                return g, (m.start(), m.end())
    return None


# "died Saturday night", "occurred Sunday noon": a bare weekday after a death
_BARE_WEEKDAY = re.compile(
    rf"(?<![\w-])(?:on[ \t\n]+)?(?:{'|'.join(WEEKDAYS)})(?:[ \t\n]+(?:morning|afternoon|evening"
    r"|night|noon|forenoon))?(?![\w-])", re.I)


_LAST_WEEK = re.compile(r"\blast[ \t\n]+week\b", re.I)


def past_weekday(doc: Doc, a: int, b: int, s: int | None = None
                 ) -> tuple[GenDate, Span] | None:
    """A bare weekday in [a, b) after a verb in the past ("died Saturday night"): in a dated
    paper, the last such day up to the issue (`dates.parse_date` with the issue date), never
    a later one. Only where the event is past: "will be buried Saturday" is another day."""
    if doc.document_date is None:
        return None
    m = _BARE_WEEKDAY.search(doc.text, a, b)
    if m is None or _MONTH_AFTER.match(doc.text, m.end()):
        return None  # "on Wednesday, August 30, 1J16": a full date, its year unreadable
    day = next(w for w in m.group().lower().split() if w in WEEKDAYS)
    g = parse_date(day, reference=doc.document_date)
    issue = doc.document_date.latest
    if g is not None and issue is not None and g.earliest == issue - timedelta(days=7) and (
            s is not None and _LAST_WEEK.search(doc.text, s, m.start())):
        # "As stated last week Mrs. Blair passed away Wednesday" in a Wednesday paper:
        # the sentence itself says it was a week ago
        return g, (m.start(), m.end())
    if g is None or g.earliest is None or issue is None or not (
            issue - timedelta(days=7) < g.earliest <= issue):
        return None  # "died Monday" in a Monday paper: this morning, or a week ago?
    return g, (m.start(), m.end())


def next_weekday(doc: Doc, a: int, b: int) -> tuple[GenDate, Span] | None:
    """A bare weekday in [a, b) of an event still to come ("will be buried Tuesday" in a
    Monday paper): the first such day after the issue; none on the issue's own weekday
    (today, or a week on?)."""
    issue = doc.document_date.latest if doc.document_date is not None else None
    m = _BARE_WEEKDAY.search(doc.text, a, b) if issue is not None else None
    if m is None or issue is None or _MONTH_AFTER.match(doc.text, m.end()):
        return None
    word = next(w for w in m.group().lower().split() if w in WEEKDAYS)
    ahead = (WEEKDAYS[word] - issue.weekday()) % 7
    if not ahead:
        return None
    day = issue + timedelta(days=ahead)
    g = GenDate.from_parts(day.year, day.month, day.day)
    return g.model_copy(update={"original": word}), (m.start(), m.end())


def place_in(doc: Doc, sent: Sentence, a: int, b: int) -> Span | None:
    for m in _LOC.finditer(doc.text, a, b):
        reader = read_lower_place if sent.lower_mode else read_place
        sp = reader(doc.text, m.end(), b)
        if sp:
            inst = _INSTITUTION_TAIL.search(doc.text, sp[0], sp[1])
            if (inst or _INSTITUTION_AFTER.match(doc.text, sp[1], b)) and not (
                    _TOWN_NAMES_IT.search(doc.text, m.start(), m.end())):
                continue  # "at the Mary Fletcher hospital in Burlington": its town, if any
            return (sp[0], inst.start()) if inst and inst.start() > sp[0] else sp
    return None


def emit_date(doc: Doc, key: str, field: str, found: tuple[GenDate, Span], sent: Sentence,
              subj_span: Span, conf: float, why: str) -> None:
    g, sp = found
    rel = _YEARISH.search(g.original) is None
    if rel and doc.text[sp[0]:sp[1]] != doc.source[sp[0]:sp[1]]:
        # "ruesday afternoon", "Thurs-\nlay": a weekday the reading view mended is grounded
        # by its words as printed (a relative date has no year to ground it)
        a, b = doc.reading.to_source(*sp)
        g = g.model_copy(update={"original": normalise(doc.source[a:b])})
    doc.emit(key, field, g.iso(), sent.span, [subj_span, sp], conf - (0.15 if rel else 0.0),
             why if not rel else why + " (relative to the document date)", date=g)


def emit_place(doc: Doc, key: str, field: str, sp: Span, sent: Sentence, subj_span: Span,
               conf: float, why: str) -> None:
    doc.emit(key, field, normalise(doc.text[sp[0]:sp[1]]), sent.span, [subj_span, sp], conf, why)


def window_end(sent: Sentence, a: int, size: int = 160) -> int:
    return min(sent.e, a + size)


# -- handlers -------------------------------------------------------------------------
def death(doc: Doc, sent: Sentence, skip: Span) -> None:
    for m in _DEATH.finditer(doc.text, sent.s, sent.e):
        if skip[0] <= m.start() < skip[1]:
            continue
        who = funeral = None
        if m.group("his"):
            key = doc.focus_at(sent.s)
            if key is None:
                continue  # "his death": the paragraph's subject, when there is one
            subj: tuple[str, Span] | None = (key, (m.start(), m.start()))
            conf = 0.8
        elif m.group("of"):
            n = name_after(sent, m.end(), 20)
            if n is None:
                continue
            subj = (doc.person(n.text, (n.start, n.end), sent.span), (n.start, n.end))
            conf = 0.85
        else:
            who = m if m.group("whose") else _WHO.search(
                doc.text, max(sent.s, m.start() - 30), m.start())
            funeral = _funeral_of(doc, sent, who.start()) if who else None
            subj = funeral or subject_before(doc, sent, who.start() if who else m.start())
            if who and funeral is None and subj is not None and (
                    subj[1][0] == subj[1][1] or doc.text[
                    subj[1][1]:who.start()].strip(" ,\n")):
                continue  # "..., and Edith, who died in infancy": not the listed name before
            conf = 0.9
        if subj is None:
            continue
        key, ssp = subj
        if ssp[0] == ssp[1]:
            conf -= 0.15
        end = window_end(sent, m.end(), 120)
        stop = _DEATH_STOP.search(doc.text, m.end(), end)
        end = stop.start() if stop else end
        found = date_in(doc, m.end(), end)
        if found is None and _DATE_OPENS.match(sent.text):
            # "On Monday ...", "At seven o'clock Friday evening, May 4th, Mrs. John T.
            # Mabry, died at ...": the sentence opens with the time of death
            found = date_in(doc, sent.s, m.start())
        weekday = past_weekday(doc, m.end(), end, sent.s)
        if weekday is not None and _FOLLOWING.search(
                doc.text, max(sent.s, weekday[1][0] - 16), weekday[1][0]):
            weekday = _day_following(doc, sent.s, weekday)
        if weekday is not None and (found is None or (
                _YEARISH.search(found[0].original) is None
                and found[1][0] - weekday[1][1] > 12)):  # (not "Tuesday, .Jan. 4": one date)
            # "died Friday morning at 2 a. m., after a short illness which developed last
            # Saturday": the first day named after the verb is the death's
            found = weekday
        current = doc.focus_at(sent.s)
        if who and key == current and key in doc.died and _long_ago(doc, found):
            continue  # "... where lies buried Mr. Rice, who died in 1864" in the item of
            # Isaac Rice, whose death it told this week: another of the name
        if KIN_OPENS.match(doc.text, sent.s, ssp[0]) and current not in (None, key):
            pass  # "A daughter, Nellie Bradford, died at 13": the item is still her father's
        elif not (m.group("of") is None and who and funeral is None) and not (
                current not in (None, key) and _long_ago(doc, found)):
            # (not "Mr. Noble passed away in 1879" in his widow's obituary: her item)
            doc.set_focus(key, sent.s)
            doc.died.add(key)
        if found:
            emit_date(doc, key, "death_date", found, sent, ssp, conf, "stated death date")
            doc.death[key] = (found[0], *found[1])
        before = _place_before(doc, sent, m.start())
        if before:  # "went to Rome, where he died"
            emit_place(doc, key, "death_place", before, sent, ssp, conf - 0.05, "place of death")
        place = place_in(doc, sent, m.end(), end)
        if place:
            emit_place(doc, key, "death_place", place, sent, ssp, conf - (0.1 if before else 0.05),
                       "place of death")
        elif before is None:
            _dateline_place(doc, sent, key, ssp, m, end, conf)
        age(doc, sent, key, ssp, conf)
        pronoun_sex(doc, sent, key, ssp, m.end())


# "A daughter, Nellie Bradford, died at the age of 13": a relative of the item's subject
# named at a sentence's start (`notices.kin_opening`)
KIN_OPENS = re.compile(r"[\s\"'(]*(?:an?|one|another)[ \t\n]+(?:(?:infant|little|young)[ \t\n]+)?"
                       r"(?P<r>son|daughter|brother|sister),[ \t\n]+", re.I)


# "struck by an automobile on the first day of September, ... where he died the following
# Tuesday": a weekday counted from the date the sentence named, not from the paper's date
_FOLLOWING = re.compile(r"\b(?:following|next|succeeding)[ \t\n]+$", re.I)


def _day_following(doc: Doc, s: int, weekday: tuple[GenDate, Span]
                   ) -> tuple[GenDate, Span] | None:
    """The first such weekday after the day a date before it in the sentence names; None
    where no day is named before it (then the issue date says nothing of it)."""
    before = date_in(doc, s, weekday[1][0])
    day = before[0].earliest if before and before[0].precision == "day" else None
    if day is None or weekday[0].earliest is None:
        return None
    ahead = (weekday[0].earliest.weekday() - day.weekday()) % 7 or 7
    d = day + timedelta(days=ahead)
    g = GenDate.from_parts(d.year, d.month, d.day).model_copy(
        update={"original": weekday[0].original})
    return g, weekday[1]


# "Rutland, Jan. 3. Elam Clark Lewis, ..., died yesterday afternoon at his home on Cottage
# street", "Manchester, Jan. 3. Verner Davis, aged 24, was found dead": a death at home (or
# "here") with no town of its own is in the dateline's town
DATELINE = re.compile(r"[ \t\n\"'(]*(?P<t>[A-Z][a-z]{2,}(?:[ \t]+[A-Z][a-z]{2,})?),[ \t\n]+"
                      rf"(?i:{MONTH_RE})\.?[ \t\n]*\d{{1,2}}\.?[ \t\n]*$")
_AT_HOME = re.compile(r"\b(?:at|in)[ \t\n]+(?:his|her|the)[ \t\n]+(?:late[ \t\n]+|family"
                      r"[ \t\n]+)?(?:home|residence)\b(?![ \t\n]+of\b)|\bhere\b")
_DATELINE_REACH = 400


def dateline(doc: Doc, sent: Sentence) -> None:
    """A sentence that is only a dateline ("Rutland, Jan. 3."): remember its town."""
    m = DATELINE.fullmatch(doc.text, sent.s, sent.e)
    if m is not None:
        doc.dateline = (sent.s, m.start("t"), m.end("t"))


def _dateline_place(doc: Doc, sent: Sentence, key: str, ssp: Span, m: re.Match[str], end: int,
                    conf: float) -> None:
    d = doc.dateline
    if d is None or not 0 <= sent.s - d[0] <= _DATELINE_REACH or doc.text[d[0]:sent.s].count(
            ".") > 3 or (_AT_HOME.search(doc.text, m.end(), end) is None and not m.group(
            ).lower().endswith("dead")):
        return  # (a dateline the item's first sentences follow, not one of an item before)
    span = doc.trim(d[0], min(sent.e, end))
    doc.emit(key, "death_place", normalise(doc.text[d[1]:d[2]]), sent.span, [], conf - 0.15,
             "died at home (or here), in the dateline's town", exact_span=span)


def _long_ago(doc: Doc, found: tuple[GenDate, Span] | None) -> bool:
    """A death dated years before the paper: told in passing (a first husband's), not the
    news the item is about."""
    ref = doc.document_date.earliest if doc.document_date else None
    g = found[0] if found else None
    return ref is not None and g is not None and g.latest is not None and (
        g.latest.year < ref.year - 1)


# ("Yesterday morning he arose ... and expired almost instantly", "Last Tuesday she ...":
# a relative day opening the sentence is the time of what it tells)
_DATE_OPENS = re.compile(r"[\s\"'(]*(?:on|at|early|late|about|shortly|sometime|yesterday"
                         rf"|last[ \t\n]+(?:{'|'.join(WEEKDAYS)})|this[ \t\n]+morning)\b", re.I)
# "Funeral services over the body of Catherine Volte, aged two months, daughter of Mr. and
# Mrs. Bruno Volte, of the Tin Plate addition, who died ...", "The funeral of X, ..., who
# died": the funeral's person is the one who died
_FUNERAL_OF = re.compile(r"\b(?:funeral|obsequies)\b[^.;]{0,30}?\b(?:of|for|over[ \t\n]+the"
                         r"[ \t\n]+(?:body|remains)[ \t\n]+of)[ \t\n]+", re.I)


def _funeral_of(doc: Doc, sent: Sentence, pos: int) -> tuple[str, Span] | None:
    """The person whose funeral the sentence opens with, for a "who died" after it."""
    f = _FUNERAL_OF.search(doc.text, sent.s, min(pos, sent.s + 80))
    n = name_after(sent, f.end(), 2) if f else None
    if n is None or n.end > pos:
        return None
    return doc.person(n.text, (n.start, n.end), sent.span), (n.start, n.end)


def _place_before(doc: Doc, sent: Sentence, pos: int) -> Span | None:
    """'..., and in 1860 went to Rome, where he died': the place just before ', where he'."""
    w = _WHERE_DIED.search(doc.text, max(sent.s, pos - 30), pos)
    if w is None:
        return None
    for t in reversed(list(_TO_PLACE.finditer(doc.text, max(sent.s, w.start() - 80),
                                              w.start()))):
        sp = read_place(doc.text, t.end(), w.start())
        if sp and not doc.text[sp[1]:w.start()].strip(" ,\t\n"):
            return sp
    return None


# "Flossie Willey, the 20-year-old daughter of ...", "Clara Sievers, twelve year old
# daughter of ..., died": the age written before the subject's role, right after the name
_YEAR_OLD = re.compile(r"[ \t\n]*,[ \t\n]*(?:the[ \t\n]+)?(?P<a>\d{1,3}|[a-z]+(?:-[a-z]+)?)"
                       r"[ \t\n-]+years?[ \t\n-]+old\b")


def age(doc: Doc, sent: Sentence, key: str, ssp: Span, conf: float) -> None:
    m = _AGE.search(doc.text, sent.s, sent.e)
    if m is None and ssp[0] != ssp[1]:
        m = _YEAR_OLD.match(doc.text, ssp[1], sent.e)
    if m is None:
        return
    n = word_number(m.group("a") or m.group("b"))
    if n is None or not 0 < n < 120:
        return
    asp = (m.start(), m.end())
    doc.emit(key, "age_at_death", str(n), sent.span, [ssp, asp], conf - 0.05, "stated age")
    dd = doc.death.get(key)
    if dd is None or dd[0].earliest is None or dd[0].latest is None:
        return
    g, ds, de = dd
    lo_d, hi_d = g.earliest, g.latest
    assert lo_d is not None and hi_d is not None
    try:
        lo = years_before(lo_d, n + 1) + timedelta(days=1)
        hi = years_before(hi_d, n)
    except ValueError:
        return
    born = GenDate(earliest=lo, latest=hi, qualifier=DateQualifier.CALCULATED,
                   precision="year", original=m.group())
    s, e = min(ds, asp[0], ssp[0]), max(de, asp[1], ssp[1])
    if e - s > 600:
        return
    span = doc.trim(*doc.excerpt(sent.span, (s, e)))
    span = (min(span[0], s), max(span[1], e))
    doc.emit(key, "birth_date", born.iso(), sent.span, [], 0.55,
             f"calculated: died {g.iso()} aged {n}, so born {lo.year}-{hi.year}",
             date=born, is_fact=False, exact_span=span)


def pronoun_sex(doc: Doc, sent: Sentence, key: str, ssp: Span, pos: int) -> None:
    if ssp[0] == ssp[1]:
        return
    m = re.search(r"\b(?P<m>he|his|him)\b|\b(?P<f>she|her)\b", doc.text[pos:sent.e])
    if m:
        doc.sex(key, "M" if m.group("m") else "F", sent.span, ssp, 0.6, "pronoun after the name")


def born(doc: Doc, sent: Sentence, skip: Span) -> None:
    for m in _BORN.finditer(doc.text, sent.s, sent.e):
        if skip[0] <= m.start() < skip[1]:
            continue
        if re.match(r"\s+(?:to|unto)\b", doc.text[m.end():m.end() + 6]):
            continue  # "born to Mr. and Mrs. X" names parents, not a place
        aside = _participle_subject(doc, sent, m.start())
        if aside is None and _CHILD_BORN.search(doc.text, max(sent.s, m.start() - 40),
                                                m.start()):
            continue  # "to this union three children were born"
        fronted = None if aside else fronted_subject(doc, sent, m)
        subj = fronted[0] if fronted else aside or (
            birth_name(doc, sent, m.start()) or subject_before(doc, sent, m.start()))
        if subj is None:
            continue
        key, ssp = subj
        if m.group().lower() != "born" and key != doc.focus_at(sent.s):
            continue  # the OCR's "bom" tells the item's subject's birth, never a new item's
        conf = 0.9 if ssp[0] != ssp[1] else 0.75
        stop = _BORN_STOP.search(doc.text, m.end(), window_end(sent, m.end()))
        end = stop.start() if stop else window_end(sent, m.end())
        if fronted:
            end = min(end, fronted[1])
        found = date_in(doc, m.end(), end, partial=False)
        if found and re.match(r"\s*years\s+ago", doc.text[found[1][1]:found[1][1] + 12]):
            found = None
        if found:
            emit_date(doc, key, "birth_date", found, sent, ssp, conf, "stated birth date")
        place = place_in(doc, sent, m.end(), end)
        if place:
            emit_place(doc, key, "birth_place", place, sent, ssp, conf - 0.05, "place of birth")
        if (found or place or _opens(doc, sent, ssp)) and aside is None and not (
                _RELATIVE_BORN.fullmatch(doc.text, ssp[1], m.start())):
            # "Marv Ann Shannon was born Jan. 1st is in ...": her story starts, however
            # garbled its date and place
            doc.set_focus(key, sent.s)


# "a daughter of Judson Harbert, now dead, born in Harrison county": a participle after a
# name (and its aside) describes that name, whatever governs it
_PARTICIPLE_GAP = re.compile(r"[ \t\n]*,[ \t\n]*(?:(?:now|long|since)[ \t\n]+(?:dead|deceased)"
                             r"[ \t\n]*,[ \t\n]*)?")


def _participle_subject(doc: Doc, sent: Sentence, pos: int) -> tuple[str, Span] | None:
    """The name a bare 'born' (no 'was') follows as an aside: 'Judson Harbert, now dead,
    born in Harrison county' is his birth, not the sentence subject's."""
    n = next((n for n in reversed(sent.names) if n.end <= pos), None)
    if n is None or n is sent.names[0] or not _PARTICIPLE_GAP.fullmatch(doc.text, n.end, pos):
        return None
    return doc.person(n.text, (n.start, n.end), sent.span), (n.start, n.end)


# The birth clause ends at the next event, or at ", he ..." after a fronted "Born in X".
_BORN_STOP = re.compile(r"\b(?:died|and\s+(?:was|came|moved|removed)|(?:m|rn)arried|where)\b"
                        r"|,\s+(?:he|she)\s", re.I)
_FRONT = re.compile(r"[\s\"'(]*(?:Having\s+been\s+|He\s+was\s+|She\s+was\s+)?Born\b")
# ", Downes played": a capitalised run after a comma, then a lower-case word that is not a
# preposition (", Wisconsin, " and ", Ireland in 1850" are still part of the place clause).
_FRONT_SUBJ = re.compile(uni(
    r",[ \t\n]+(?P<n>(?:(?:Mc|Mac|O')?[A-ZÀ-Þ][\w'’.-]*[ \t]+){0,3}(?:Mc|Mac|O')?[A-ZÀ-Þ][\w'’-]+)"
    r"(?:,?[ \t]+(?:Jr|Sr)\.?)?[ \t]+(?!(?:in|on|at|of|and|to|near|county|where|when|the|a"
    r"|or|about|around|circa|c|ca|before|after|during|since|from|by|with|into)\b)[a-z]"))


# "Elizabeth Dutton was born": a name opening the sentence, right before the verb
_WAS_BORN_GAP = re.compile(r"[ \t\n]*,?[ \t\n]*(?:was|is)[ \t\n]+$")


# "... married Agnes Harbert, who was born in Marshall county": the wife's birth, told in
# passing in her husband's obituary; he stays its subject
_RELATIVE_BORN = re.compile(r"[ \t\n]*,[ \t\n]*who[ \t\n]+was[ \t\n]+")


def _opens(doc: Doc, sent: Sentence, ssp: Span) -> bool:
    """The sentence (or a line: OCR loses the full stop before a paragraph) opens with this
    full name (two words or more)."""
    return ssp[0] != ssp[1] and (not doc.text[sent.s:ssp[0]].strip(" \t\n\"'(") or doc.text[
        ssp[0] - 1] == "\n") and len(doc.text[ssp[0]:ssp[1]].split()) >= 2


_BIRTH_FIELDS = frozenset({"birth_date", "birth_place"})


def birth_name(doc: Doc, sent: Sentence, pos: int) -> tuple[str, Span] | None:
    """An obituary tells a married woman's life from her birth name: under "MRS. I. H.
    MUCKLER." and "Mrs. I. H. Muckler passed away ...", the paragraph "Elizabeth Dutton was
    born in Sarahville, Ohio, ..." is about her. A new full name opening a "was born"
    sentence (or a line: OCR loses the full stop before a new paragraph), with another
    surname than the item's subject, a married woman ("Mrs."), is read as that woman's
    birth name (a name fact of hers, so the reader sees why)."""
    first = next((n for n in reversed(sent.names) if n.end <= pos), None)
    focus = doc.focus_at(sent.s)
    if (first is None or focus is None or first.title
            or (first.start - sent.s > 3 and doc.text[first.start - 1] != "\n")
            or len(first.words) < 2 or doc.resolve(first.text) is not None
            or not _WAS_BORN_GAP.fullmatch(doc.text, first.end, pos)):
        return None
    shown = doc.display[focus]
    if not shown.lower().startswith("mrs") or doc.sex_of.get(focus, "F") != "F":
        return None
    if surname(shown).lower() == surname(first.text).lower():
        return None  # her married name again, or a relative of that name
    if any(c.subject == focus and c.field in _BIRTH_FIELDS for c in doc.out):
        return None  # her birth is told already: "Marv Ann Shannon was born" is another's
    sp = (first.start, first.end)
    value = normalise(first.text)
    if doc.emit(focus, "name", value, sent.span, [sp], 0.75,
                f"birth name: the item about {shown} tells her life from her birth") is None:
        return None
    doc.keys[person_key(first.text)] = focus
    return focus, sp


def fronted_subject(doc: Doc, sent: Sentence, m: re.Match[str]
                    ) -> tuple[tuple[str, Span], int] | None:
    """'Born in Devon, Downes played ...': the subject follows the participle clause.

    Returns the subject and where the clause ends (the comma before the name)."""
    if _FRONT.match(doc.text, sent.s, m.end()) is None or m.end() - sent.s > 30:
        return None
    for f in _FRONT_SUBJ.finditer(doc.text, m.end(), window_end(sent, m.end(), 200)):
        name = f.group("n")
        first = name.split()[0].rstrip(".").lower()
        if first in STOP or first in _NOT_SUBJECT:
            continue
        sp = (f.start("n"), f.end("n"))
        return (doc.person(name, sp, sent.span, 0.85), sp), f.start()
    return None


_NATIVE = re.compile(r"\b(?P<a>an?\s+)?native\s+of\s+", re.I)


def native(doc: Doc, sent: Sentence) -> None:
    """'Fred Hall, ... a native of Rutland', 'A native of Copenhagen, Rasch emigrated ...':
    where someone is a native of is where they were born (a weaker wording than 'born')."""
    reader = read_lower_place if sent.lower_mode else read_place
    for m in _NATIVE.finditer(doc.text, sent.s, sent.e):
        end = window_end(sent, m.end(), 80)
        subj: tuple[str, Span] | None = None
        if not doc.text[sent.s:m.start()].strip(" \t\n\"'("):
            # fronted: the subject follows the clause, which ends at the comma before it
            for f in _FRONT_SUBJ.finditer(doc.text, m.end(), window_end(sent, m.end(), 160)):
                first = f.group("n").split()[0].rstrip(".").lower()
                if first not in STOP and first not in _NOT_SUBJECT:
                    nsp = (f.start("n"), f.end("n"))
                    subj = (doc.person(f.group("n"), nsp, sent.span, 0.85), nsp)
                    end = f.start()
                break
        else:
            # "Catherine O'Connor was a native of Ireland" under "The death of Mrs. William
            # Clyne": her birth name, as with "was born"
            subj = birth_name(doc, sent, m.start()) or subject_before(doc, sent, m.start())
        sp = reader(doc.text, m.end(), end) if subj is not None else None
        if subj is None or sp is None:
            continue
        conf = 0.75 if subj[1][0] != subj[1][1] else 0.65
        emit_place(doc, subj[0], "birth_place", sp, sent, subj[1], conf, "a native of the place")


_NOT_SUBJECT = frozenset({"he", "she", "they", "it", "after", "following", "although", "though",
                          "while", "like", "despite", "as"})


# "On the 22nd day of February, 1870, he was married", "In 1876 Mr. Benson married":
# the sentence opens with the date of what it tells
_DATE_LEADS = re.compile(r"[\s,;'\"]*(?:On|In)\b", re.I)


# "married Agnes Harbert, who was born ... January 25, 1862": her birth, not the marriage
_MARRIAGE_STOP = re.compile(r"\bwho\b|\b(?:born|died)\b")
# "Mr. Garrett March 25, 1888, married Agnes Harbert": the date right before the verb
_DATE_JUST_BEFORE = re.compile(rf"(?:{MONTH_RE})\.?[ \t\n]*\d{{1,2}}(?:st|nd|rd|th)?,?[ \t\n]*"
                               r"\d{4},?[ \t\n]*(?:he[ \t\n]+|she[ \t\n]+|was[ \t\n]+)*$", re.I)


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
        for i in range(len(before) - 1):
            # "John Smith and Mary Jones were married", "X, of Y, and Z, of W, were married"
            gap = doc.text[before[i].end : before[i + 1].start]
            if other is None and _COUPLE.fullmatch(gap):
                other, n0 = before[i + 1], before[i]
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
                want = _PRONOUN_SEX.get((and_was.group("p") or "").lower())
                opens = _OPENING_PRONOUN.match(doc.text, sent.s, sent.e)
                if subj is not None and want and (doc.sex_of.get(subj[0], want) != want or (
                        opens and _PRONOUN_SEX[opens.group(1).lower()] != want)):
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
