"""Sentence-level patterns for vital events in obituaries, notices and biographies.

Each handler anchors on a trigger word ("died", "born", "son of", "survived by"), takes its
subject from the nearest un-governed name before it (or the paragraph's current subject for
"He"/"She"/"Deceased" sentences) and reads dates and places only from a bounded window after
the trigger. Nothing is read outside the sentence, so every excerpt states its own fact.
"""

from __future__ import annotations

import re
from datetime import timedelta

from sleuth.extract.dates import MONTH_RE, WEEKDAYS
from sleuth.extract.emit import Doc
from sleuth.extract.gate import Gate
from sleuth.extract.names import STOP, uni
from sleuth.extract.person_names import person_key, strip_title, surname
from sleuth.extract.places import read_lower_place, read_place
from sleuth.extract.sentence import (
    Sentence,
    Span,
    bw,
    last_titled,
    name_after,
    pronoun_sex,
    subject_before,
)
from sleuth.extract.window import (
    YEARISH,
    date_in,
    emit_date,
    emit_place,
    past_weekday,
    place_in,
    window_end,
)
from sleuth.model.dates import DateQualifier, GenDate, years_before
from sleuth.verify.normalise import normalise

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
    r"|closed\s+(?:his|her)\s+eyes"
    r"|Mr\.?\s+and\s+Mr[sa]|mother|father)\b"
    r"|-lrb-|\("
    rf"|\b(?:{_ROLES})\b",
    starts="a-z(-",
)


# ("di?d": the OCR's "?" for a letter it could not read, as the Clarksburg pages print it)
_DEATH = re.compile(r"\b(?:died|di\?d|dies|passed\s+away|departed\s+this\s+life|expired"
                    # "Noah Ginter ... fell dead in front of the store last Monday"
                    r"|(?:fell|dropped|was\s+found|found)\s+dead"
                    # "B. N. Benson, closed his eyes to the scenes of this world"
                    r"|closed\s+(?:his|her)\s+eyes\s+(?:in\s+death|to\s+the\s+scenes|forever"
                    r"|for\s+the\s+last\s+time))\b"
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
_OCR_BORN = (r"(?:(?<=was[ \t\n])|(?<=were[ \t\n])|(?<=been[ \t\n]))(?:bom|bora|boru|horn)\b"
             # ("a native of Ireland, boru July l'., 1831": a participle before its date)
             rf"|(?<=,[ \t\n])(?:bom|bora|boru)(?=[ \t\n]+(?:{MONTH_RE})\b)")


_BORN = re.compile(rf"\bborn\b|{_OCR_BORN}", re.I)


_AGE = re.compile(
    r"\b(?:aged|age\s+of|age)\s+(?:about\s+|nearly\s+|almost\s+|over\s+)?\n?"
    r"(?P<a>\d{1,3}|[a-z]+(?:[- ][a-z]+)?)\b(?:\s+years)?"
    r"|\b(?P<b>\d{1,3})\s+years\s+(?:of\s+age|old)\b", re.I)


_CHILD_BORN = re.compile(r"\b(?:sons?|daughters?|child|children|(?:this|the|their|which)\s+union"
                         r"|baby|babe|infant|twins)\b",
                         re.I)


_WHO = re.compile(r",?\s*\bwho\s+(?:\w+\s+){0,2}$")


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


def death(doc: Doc, sent: Sentence, skip: Span) -> None:
    for m in _DEATH.finditer(doc.text, sent.s, sent.e):
        if skip[0] <= m.start() < skip[1]:
            continue
        who = funeral = None
        if m.group("his"):
            key = doc.focus_at(sent.s)
            if key is None:
                continue  # "his death": the paragraph's subject, when there is one
            want = "M" if m.group().lower().startswith("his") else "F"
            if doc.sex_of.get(key, want) != want:
                # "Mr. Lake was a granite cutter ... His death occurred Oct. 1, 1871" in his
                # widow's item: the man the sentence before named by title
                other = last_titled(doc, sent.s, want)
                if other is None:
                    continue
                key = other[0]
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
            if who is None and (subj is None or subj[0] in doc.not_named):
                subj = _deck_subject(doc, sent, m.start()) or subj
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
        if found is None and ssp[0] != ssp[1]:
            found = _on_date_before(doc, sent, ssp[0])
        weekday = past_weekday(doc, m.end(), end, sent.s)
        if weekday is not None and _FOLLOWING.search(
                doc.text, max(sent.s, weekday[1][0] - 16), weekday[1][0]):
            weekday = _day_following(doc, sent.s, weekday)
        if weekday is not None and (found is None or (
                YEARISH.search(found[0].original) is None
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


# "..., on Friday, October 6th, at 2 o'clock, our townsman and pioneer, B. N. Benson, closed
# his eyes": the day of the death, told before its subject
_ON_DATE = re.compile(rf"\b[Oo]n[ \t\n]+(?=(?:{'|'.join(WEEKDAYS)}|{MONTH_RE})\b)", re.I)
_BEFORE_REACH = 80


def _on_date_before(doc: Doc, sent: Sentence, name: int) -> tuple[GenDate, Span] | None:
    """The date after the last "on" in the stretch before the death's subject's name."""
    ons = list(_ON_DATE.finditer(doc.text, max(sent.s, name - _BEFORE_REACH), name))
    return date_in(doc, ons[-1].end(), name) if ons else None


def _deck_subject(doc: Doc, sent: Sentence, pos: int) -> tuple[str, Span] | None:
    """'DEATH OF THOMAS HOUGHTON.' / 'Aged Man Died in Upper Graniteville Thursday
    Morning.': a heading's deck, right below the capitals heading that names its person,
    tells that person's death under a description ("Aged Man") that names no one."""
    head = doc.heading
    if head is None or head[0] != doc.focus_at(sent.s) or not 0 < sent.s - head[1] <= 120:
        return None
    line_end = doc.text.find("\n", head[1], sent.s)
    if line_end < 0 or doc.text[line_end:sent.s].strip(" \t\n'\".") or any(
            n.end <= pos and n.text.split()[0].lower() not in _DESCRIBED_WORDS
            for n in sent.names):
        return None
    return head[0], (pos, pos)


_DESCRIBED_WORDS = frozenset({"aged", "old", "former", "prominent", "well", "pioneer", "noted",
                              "retired", "veteran", "young", "local", "barre", "man", "woman"})


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
# ("Thp body of Mrs. Minnie G. Anderson, aged 42 years, wife of ..., who died": the body's)
_FUNERAL_OF = re.compile(r"\b(?:funeral|obsequies)\b[^.;]{0,30}?\b(?:of|for|over[ \t\n]+the"
                         r"[ \t\n]+(?:body|remains)[ \t\n]+of)[ \t\n]+"
                         r"|\b(?:body|remains)[ \t\n]+of[ \t\n]+", re.I)


# "Irs.": "Mrs." whose "M" the OCR lost at a column's cut edge (no part of the name)
_LOST_TITLE = re.compile(r"Irs\.[ \t\n]+")


def _funeral_of(doc: Doc, sent: Sentence, pos: int) -> tuple[str, Span] | None:
    """The person whose funeral the sentence opens with, for a "who died" after it."""
    f = _FUNERAL_OF.search(doc.text, sent.s, min(pos, sent.s + 80))
    lost = _LOST_TITLE.match(doc.text, f.end()) if f else None  # "body of\nIrs. Marv ..."
    n = name_after(sent, lost.end() if lost else f.end(), 2) if f else None
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
    # ("Attie M. Acers was born" in the item of Attie Noble Sager: her given name, with the
    # surname she was born with)
    same_given = strip_title(shown).split()[:1] == strip_title(first.text).split()[:1]
    if not (shown.lower().startswith("mrs") or (same_given and doc.sex_of.get(focus) == "F")
            ) or doc.sex_of.get(focus, "F") != "F":
        return None
    if surname(shown).lower() == surname(first.text).lower():
        return None  # her married name again, or a relative of that name
    if any(c.subject == focus and c.field in _BIRTH_FIELDS for c in doc.out):
        return None  # her birth is told already: "Marv Ann Shannon was born" is another's
    sp = (first.start, first.end)
    value = doc.as_printed(first.text, sp)
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
