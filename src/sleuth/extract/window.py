"""Dates and places read in a bounded window after a trigger word (`date_in`, `place_in`):
full and partial dates, weekdays and relative days against the document's date, garbled
OCR years and days, and the candidates they become (`emit_date`, `emit_place`)."""

from __future__ import annotations

import re
from datetime import timedelta

from sleuth.extract.dates import DATE_FIND, MONTH_RE, PARTIAL_FIND, WEEKDAYS, parse_date
from sleuth.extract.emit import Doc
from sleuth.extract.places import read_lower_place, read_place
from sleuth.extract.sentence import Sentence, Span
from sleuth.model.dates import GenDate
from sleuth.verify.normalise import normalise

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


YEARISH = re.compile(r"\d{3}")


_MONTHISH = re.compile(r"[A-Za-z]{3,}\.?\s{0,2}\d")


_MONTH_AFTER = re.compile(rf"[\s,]*(?:{MONTH_RE})\b\.?\s*\d", re.I)


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
        s, e = doc.reading.printed(*span)
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
    rel = YEARISH.search(g.original) is None
    a, b = doc.reading.printed(*sp)
    if rel and doc.text[sp[0]:sp[1]] != doc.source[a:b]:
        # "ruesday afternoon", "Thurs-\nlay": a weekday the reading view mended is grounded
        # by its words as printed (a relative date has no year to ground it); so is one
        # read across the gap of columns set side by side, by its first piece
        g = g.model_copy(update={"original": normalise(doc.source[a:b])})
    doc.emit(key, field, g.iso(), sent.span, [subj_span, sp], conf - (0.15 if rel else 0.0),
             why if not rel else why + " (relative to the document date)", date=g)


def emit_place(doc: Doc, key: str, field: str, sp: Span, sent: Sentence, subj_span: Span,
               conf: float, why: str) -> None:
    doc.emit(key, field, normalise(doc.text[sp[0]:sp[1]]), sent.span, [subj_span, sp], conf, why)


def window_end(sent: Sentence, a: int, size: int = 160) -> int:
    return min(sent.e, a + size)
