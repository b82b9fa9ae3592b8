"""A reading view of OCR text: words the page broke at a line end are read whole.

Newspaper columns are narrow and their OCR drops most end-of-line hyphens, so "Ma\\nbry",
"she mar\\nried", "de\\nceased" and "West In\\ndies" are everywhere. Patterns that read "dies"
as a death, or "Ma" and "bry" as two words, lose the relatives and dates a reader sees. The
view joins such a break when the two pieces read as one word: the joined word is in an
English word list (pyspellchecker's frequency list) and, when both pieces are words too,
more likely as one word than as two ("re|sided" joins, "at|one" does not); or it is the rest
of a capitalised name ("Ma|bry", "McCon|nellsburg": the tail is no word on its own).

A year or a month OCR misread by a letter or two ("1J16", "18G5", "Jauuary") reads as that
year or month, and so does a weekday where a date is read ("ruesday afternoon", "on Mondav",
a weekday's first letters parted at a line end from a misread rest: "Thurs-\\nlay"), when the
word is one misreading from exactly one name and no English word (`date_word`); and a
couple's "Air. and Mrs." as "Mr. and Mrs.". The firewall grounds such a year by the same rule
(`verify.normalise.ocr_year`), and a weekday by its words as printed.
Debris the OCR read at a line's start (a column rule as "|", "!" or "I") reads as blanks.

The view has the source's length: the break's own characters move in front of the word
("Mrs. Ma\\nbry," reads "Mrs. \\nMabry,"), so every offset outside a joined word is the
source's offset, and a span that cuts into a joined word widens to the whole of it
(`Reading.to_source`). Excerpts are always sliced from the source, never the view; the
firewall grounds a joined word by the same rule (`verify.normalise.line_joins`).

The extractor's view (`columns=True`) first puts columns the OCR read side by side back in
reading order (`extract.columns`); its offsets are then the ordered text's, and
`Reading.to_source` maps a span to the source span holding all of its printed lines.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache

from sleuth.extract.columns import Order, column_order
from sleuth.extract.english import word_list
from sleuth.extract.given import is_given, misprinted_given
from sleuth.verify.normalise import ocr_years

Span = tuple[int, int]

# (and "Robert Mc|Clellan": a "Mc" or "Mac" the line end parted from the rest of the name)
_BREAK = re.compile(r"(?<![A-Za-z'])(?P<a>(?P<mc>Mc|Mac)(?![A-Za-z])|[A-Za-z]+)"
                    r"(?P<brk>-?[ \t]*\r?\n[ \t]*)"
                    r"(?P<b>[a-z][a-z]*|(?(mc)[A-Z][a-z]+|(?!)))(?![A-Za-z])")


_VOWEL = re.compile(r"[aeiouy]")


def joins(a: str, b: str, lexicon: tuple[dict[str, int], int] | None = None) -> bool:
    """Is `a` + line break + `b` one word broken by the line end?"""
    words, total = lexicon or word_list()
    low = a.lower()
    whole = words.get(low + b)
    fa, fb = words.get(low), words.get(b)
    if whole is not None:
        if fa is None or fb is None:
            return True
        return whole * total >= fa * fb  # a unigram model: one word beats two
    if a[0].isupper():
        # "Ma|bry": the rest of a name; not "December|ft." (a whole word, then an abbreviation)
        return (fb is None and len(b) >= 2 and (fa is None or len(a) <= 4)
                and _VOWEL.search(b) is not None)
    return fa is None and fb is None and len(a) + len(b) >= 5  # "ceme|tary": garbled, whole


@lru_cache(maxsize=1 << 16)
def _joins(a: str, b: str) -> bool:
    """`joins` against the word list, remembered: the same breaks recur page after page."""
    return joins(a, b)


@dataclass(frozen=True)
class Reading:
    """`text` as read (same length as the source) and the source spans of the words read
    whole: joined across a line end, or a month or weekday mended (a span cutting into one
    widens to all of it); `order`, where side-by-side columns were put in reading order
    (`extract.columns`), maps the view's offsets to the source's."""

    text: str
    joined: tuple[Span, ...] = ()
    order: Order | None = None

    def _widen(self, s: int, e: int) -> Span:
        if not self.joined:
            return s, e
        i = bisect_right(self.joined, (s, len(self.text) + 1)) - 1
        if i >= 0 and self.joined[i][0] < s < self.joined[i][1]:
            s = self.joined[i][0]
        j = bisect_right(self.joined, (e, len(self.text) + 1)) - 1
        if j >= 0 and self.joined[j][0] < e < self.joined[j][1]:
            e = self.joined[j][1]
        return s, e

    def to_source(self, s: int, e: int) -> Span:
        """A view span as a source span: an end or start inside a joined word widens to it;
        a span read across columns' pieces is the source span holding them all."""
        s, e = self._widen(s, e)
        return self.order.to_source(s, e) if self.order is not None else (s, e)

    def to_view(self, s: int, e: int) -> Span:
        """A source span, such as a candidate's excerpt, as a view span."""
        return self.order.to_view(s, e) if self.order is not None else (s, e)

    def printed(self, s: int, e: int) -> Span:
        """The source span of the view span's first piece: the words as printed where
        they stand together ("Tuesday morn" of "Tuesday morn|ing" read across a gap)."""
        s, e = self._widen(s, e)
        if self.order is None:
            return s, e
        return self.order.to_source(s, self.order.piece_end(s, e))


# Column rules and specks the OCR read as a character at a line's start: "a\nI brother;",
# "! wayville. Pa.", "i and Willis". Read as blanks (same length).
DEBRIS = re.compile(r"(?m)^[ \t]*(?:[|!;,'\"\]\[{}?]+|[Iij](?=[ \t]+[a-z]))[ \t]+")


def _blank(m: re.Match[str]) -> str:
    return " " * len(m.group())


_MONTHS = ("January", "February", "March", "April", "August", "September", "October",
           "November", "December")
_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
# A word (and at most one speck inside it: "Sep'eember") before a day number or a year
_MONTH_LIKE = re.compile(r"(?<![A-Za-z])(?<![A-Za-z]['`])[A-Za-z][a-z]{2,8}"
                         r"(?:['`][a-z]{1,7})?(?=\.?,?[ \t\n]{0,3}[0-9])")
# A word where a weekday is read: before a part of the day, or after "on"/"last"
_WEEKDAY_LIKE = re.compile(
    r"(?<![A-Za-z])(?<![A-Za-z]['`])[A-Za-z][a-z]{4,8}"
    r"(?=,?[ \t\n]{1,3}(?:morning|afternoon|evening|night|noon)(?![a-z]))"
    r"|(?<![A-Za-z])(?:[Oo]n|[Ll]ast)[ \t\n]{1,3}(?P<w>[A-Za-z][a-z]{4,8})"
    r"(?![A-Za-z'`])")
# Letter groups OCR prints for one letter ("il" or "cl" for "d": "Sun-\nilay")
_LETTER_GROUPS = (("il", "d"), ("cl", "d"), ("rn", "m"), ("li", "h"), ("vv", "w"))


def _one_edit(word: str, name: str) -> bool:
    """One letter changed, added or dropped, or one OCR letter group read as its letter."""
    if abs(len(word) - len(name)) <= 1:
        if len(word) == len(name):
            if sum(a != b for a, b in zip(word, name, strict=True)) == 1:
                return True
        else:
            short, long_ = sorted((word, name), key=len)
            pairs = enumerate(zip(short, long_, strict=False))
            i = next((k for k, (a, b) in pairs if a != b), len(short))
            if short[i:] == long_[i + 1:]:
                return True
    for seen, meant in _LETTER_GROUPS:
        pos = word.find(seen)
        while pos >= 0:
            if word[:pos] + meant + word[pos + len(seen):] == name:
                return True
            pos = word.find(seen, pos + 1)
    return False


@lru_cache(maxsize=1 << 12)
def date_word(word: str, weekday: bool = False) -> str | None:
    """'Jauuary' -> 'January', 'Sep'eember' -> 'September', 'ruesday' -> 'Tuesday' (with
    `weekday`): a word of five letters or more, one OCR misreading (`_one_edit`, a speck
    inside dropped) from exactly one month's (or weekday's) name, and no English word."""
    w = word.replace("'", "").replace("`", "").lower()
    if len(w) < 5:
        return None
    hits = [n for n in (_WEEKDAYS if weekday else _MONTHS)
            if n.lower() != w and _one_edit(w, n.lower())]
    if len(hits) != 1 or w in word_list()[0]:  # (the word list only for a near name)
        return None
    return hits[0]


def _fit(name: str, width: int) -> str | None:
    """`name` in `width` characters (blanks in front: a date read after it keeps its comma),
    or None where it is longer."""
    return name.rjust(width) if len(name) <= width else None


# A speck after a month's name: "September' 3, 1873"
_MONTH_SPECK = re.compile(r"(?<=[a-z])['`\"]+(?=[ \t]{0,2}\d)")


# A speck after a month's abbreviation: "Aug£\n17, 1863" (read as a blank)
_SPECK = re.compile(r"[£$^*«»~](?=[ \t]*\n?[ \t]*\d)")
_ABBR_BEFORE = re.compile(r"(?<![A-Za-z])(?:Jan|Feb|Mar|Apr|Aug|Sept?|Oct|Nov|Dec)$")


def _abbr_speck(m: re.Match[str]) -> str:
    before = m.string[max(0, m.start() - 5):m.start()]
    return " " if _ABBR_BEFORE.search(before) else m.group()


# "were\nmart-ied in Burrell township": "married" with one OCR slip (a letter changed,
# added or dropped, or a hyphen or speck inside), after "was", "were" or "been" and before
# "in", "at", "to", "on", "by" or a comma; never an English word ("were parried by")
_MARRIED_LIKE = re.compile(r"\b(?:was|were|been)[ \t]*\n?[ \t]*(?P<w>[a-z][a-z'`-]{4,8}[a-z])"
                           r"(?=,|[ \t\n]+(?:in|at|to|on|by)\b)")


def _married(m: re.Match[str]) -> str:
    w = m.group("w")
    bare = w.replace("-", "").replace("'", "").replace("`", "")
    fit = _fit("married", len(w))
    if w == "married" or fit is None or not (bare == "married" or _one_edit(bare, "married")):
        return m.group()
    if bare != "married" and bare in word_list()[0]:
        return m.group()  # "were parried by"
    return m.group()[:m.start("w") - m.start()] + fit


# "whose death occurred at the home of his daughter.\nMrs. C. C. Leonard, in Springfield
# Thursday": the OCR's stop for the comma before a relative named in apposition (a title,
# a name and ", in PLACE" open no sentence)
_KIN_STOP = re.compile(
    r"(?:daughter|son|sister|brother|niece|nephew|aunt|uncle|cousin)(?P<p>\.)(?=[ \t\n]+"
    r"(?:Mrs|Mr|Miss|Dr)\.[ \t\n]+(?:[A-Z]\.[ \t\n]*){0,3}[A-Z][a-z]+(?:[ \t\n]+[A-Z][a-z]+)?,"
    r"[ \t\n]+(?:in|at)[ \t\n]+[A-Z])")
_KIN_BEFORE = re.compile(r"\b(?:of|with)[ \t\n]+(?:his|her|their)[ \t\n]+(?:grand)?$")


def _kin_stop(m: re.Match[str]) -> str:
    before = m.string[max(0, m.start() - 24):m.start()]
    return m.group()[:-1] + "," if _KIN_BEFORE.search(before) else m.group()


# "Air. and Mrs. Jesso Redman": the OCR's "Ai" for an "M" in the couple's title (no other
# reading of "Air. and Mrs." exists); read " Mr." (same length: the blank goes in front)
_AIR_COUPLE = re.compile(r"(?<![\w.])Air\.(?=[ \t\n]+and[ \t\n]+Mrs\.)")


# The OCR's comma for a name's full stop: "Mr,\nMeNultv was born", "Attie M, Acers was
# born" (a title, or a middle initial after a given name, then a capitalised word)
# (the initial's name whole on its line and going on: "George C, Mel\nlott East" is left)
_NAME_COMMA = re.compile(r"(?<![\w.])(?:(?:Mr|Mrs|Dr)(?P<c>,)(?=[ \t\n]+[A-Z][a-z])"
                         r"|(?P<g>[A-Z][a-z]{2,15})[ \t]+[A-Z],(?=[ \t]+[A-Z][a-z]+[ \t]+[a-z]))")


# "most of his life was spent in Quincy. Ins\ndeath occurred", "a note to Ins wite": the
# OCR's "Ins" for "his" (no word of its own before a lower-case word)
_INS = re.compile(r"(?<![\w.'])Ins(?=[ \t\n]+[a-z])")


def _his(m: re.Match[str]) -> str:
    """"His" where a sentence starts, else "his"."""
    before = m.string[max(0, m.start() - 2):m.start()]
    return "His" if len(before) == 2 and before[0] in ".!?" and before[1].isspace() else "his"


def _name_stop(m: re.Match[str]) -> str:
    g = m.group("g")
    return m.group()[:-1] + "." if g is None or is_given(g) or misprinted_given(g) else m.group()


def _date_words(text: str) -> list[tuple[int, int, str]]:
    """(start, end, name) for the months and weekdays OCR misprinted where a date is read:
    a month before a day number or a year, a weekday before "morning" (or the like) or
    after "on" or "last"."""
    out = []
    for m in _MONTH_LIKE.finditer(text):
        if (name := date_word(m.group())) and (fit := _fit(name, len(m.group()))):
            out.append((m.start(), m.end(), fit))
    for m in _WEEKDAY_LIKE.finditer(text):
        s, e = m.span("w") if m.group("w") else m.span()
        if (name := date_word(text[s:e], weekday=True)) and (fit := _fit(name, e - s)):
            out.append((s, e, fit))
    return out


def _mend(text: str) -> tuple[str, list[Span]]:
    """Years, months and weekdays as OCR misprinted them, read as printed ("1J16",
    "Jauuary", "ruesday afternoon"), and the mended words' spans."""
    if "'" in text or "`" in text or '"' in text:
        text = _MONTH_SPECK.sub(_blank, text)
    if "Air." in text:
        text = _AIR_COUPLE.sub("Mr. ", text)
    if "," in text:
        text = _NAME_COMMA.sub(_name_stop, text)
    if "Ins" in text:
        text = _INS.sub(_his, text)
    text = _SPECK.sub(_abbr_speck, text)
    text = _MARRIED_LIKE.sub(_married, text)
    text = _KIN_STOP.sub(_kin_stop, text)
    found = ocr_years(text)
    words = _date_words(text)
    if not found and not words:
        return text, []
    chars = list(text)
    for pos, year in found:
        chars[pos:pos + len(year)] = year
    for s, e, fit in words:
        chars[s:e] = fit
    return "".join(chars), [(s, e) for s, e, _ in words]


def _broken_date_word(a: str, b: str, width: int) -> str | None:
    """"Thurs-\nlay", "Sun-\nilay": a weekday's or month's first letters (three or more) at a
    line end and the rest misprinted on the next line, read as the name in `width`."""
    if len(a) < 3 or not a[0].isupper():
        return None
    low = a.lower()
    for weekday in (True, False):
        if any(n.lower().startswith(low) for n in (_WEEKDAYS if weekday else _MONTHS)):
            name = date_word(a + b, weekday=weekday)
            return _fit(name, width) if name and name.lower().startswith(low) else None
    return None


def reading_view(text: str, *, columns: bool = False) -> Reading:
    """The text with line-broken words joined, line-start debris blanked and misread years,
    months and weekdays mended (see the module docstring); with `columns`, side-by-side
    columns first put in reading order (`extract.columns`)."""
    order = column_order(text, word_list) if columns else None
    if order is not None:
        text, order = order.text, (order if order.segments else None)
    text, mended = _mend(text)
    if "\n" not in text:
        return Reading(text, tuple(mended), order)
    text = DEBRIS.sub(_blank, text)
    pieces: list[str] = []
    joined: list[Span] = []
    pos = 0
    for m in _BREAK.finditer(text):
        a, b = m.group("a", "b")
        brk = m.group("brk").replace("-", " ")
        word = _broken_date_word(a, b, len(a) + len(b))  # (before "Sun|ilay" as a name)
        if word is None and (m.group("mc") or _joins(a, b)):
            word = a + b
        if word is None:
            continue
        pieces.append(text[pos:m.start()])
        pieces.append(brk + word)
        joined.append((m.start(), m.end()))
        pos = m.end()
    if not joined:
        return Reading(text, tuple(mended), order)  # (debris, if any, blanked)
    pieces.append(text[pos:])
    spans = sorted({*joined, *(sp for sp in mended
                               if not any(s < sp[1] and sp[0] < e for s, e in joined))})
    return Reading("".join(pieces), tuple(spans), order)
