"""Claim verification: is one claim supported by the evidence sentences it cites?

A pure function over text (no store, no model): `verify_claim(claim, evidence)` finds the
claim's checkable atoms, aligns each to the evidence sentences with its span, and returns a
`ClaimCheck` whose verdict is one of

- `supported`: every atom is shown in at most a few evidence sentences (names, numbers,
  dates, places exactly, a rounded number by the figure it rounds, numbers in words or
  digits alike; the predicate's content words by stem, an irregular verb's other forms or a
  one-letter spelling variant) and no negation differs, and the evidence shows them in the
  claim's relation (`sleuth.verify.relations`: the predicate and its details in one
  sentence, its names in their roles, each date or number in the predicate's clause);
- `partially_supported`: the evidence grounds part of the predicate; `unsupported_spans`
  says which parts of the claim it does not show;
- `not_supported`: the evidence is about the claim's subject but not what it says of it;
- `contradicted`: the evidence, aligned to the claim, states a date, number or name in the
  claim's place differently, or says the opposite (a negation the other side lacks);
- `not_found`: the evidence does not address the claim at all.

Precision of `supported` comes first (the firewall's principle): a claim is called
supported only when each of its atoms is shown, so a paraphrase the rules cannot see reads
`partially_supported`, never the other way round. A claim of several sentences is checked
sentence by sentence, and its verdict is the weakest of theirs.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import pairwise
from typing import Any, Literal

import snowballstemmer
from rapidfuzz.distance import Levenshtein

from sleuth.model.months import MONTH_NAMES, month_number
from sleuth.verify.clauses import PRONOUNS, Sentence, Value, Word
from sleuth.verify.lemmas import base_form
from sleuth.verify.relations import OFFICES, Finding, Piece, check

Verdict = Literal["supported", "partially_supported", "not_supported", "contradicted", "not_found"]
VERDICTS: tuple[Verdict, ...] = (
    "supported",
    "partially_supported",
    "not_supported",
    "contradicted",
    "not_found",
)


@dataclass(frozen=True)
class EvidenceSpan:
    """`text == sentences[sentence_index][start:end]`: a span inside one evidence sentence."""

    sentence_index: int
    start: int
    end: int
    text: str

    def to_json(self) -> dict[str, object]:
        return {
            "sentence_index": self.sentence_index,
            "start": self.start,
            "end": self.end,
            "text": self.text,
        }


@dataclass(frozen=True)
class ClaimCheck:
    """The verdict on one claim, the evidence spans that ground it, and what is not grounded.

    `unsupported_spans` are `(start, end, text)` character spans of the claim itself;
    `contradictions` pairs a claim span with the evidence span that states it differently."""

    id: str
    claim: str
    verdict: Verdict
    evidence: tuple[EvidenceSpan, ...]
    unsupported_spans: tuple[tuple[int, int, str], ...]
    rationale: str
    contradictions: tuple[tuple[tuple[int, int, str], EvidenceSpan], ...] = field(default=())
    coverage: float = 0.0  # the grounded share of the claim's atoms, by weight

    @property
    def sentence_indexes(self) -> tuple[int, ...]:
        """The evidence sentences the check relied on, in order."""
        return tuple(sorted({span.sentence_index for span in self.evidence}))

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "verdict": self.verdict,
            "evidence": [span.to_json() for span in self.evidence],
            "unsupported_spans": [
                {"start": start, "end": end, "text": text}
                for start, end, text in self.unsupported_spans
            ],
            "rationale": self.rationale,
        }


def _words(text: str) -> list[str]:
    return text.split()


# -- sentences ---------------------------------------------------------------------------------

# Words after which a full stop does not end a sentence (titles, initials, months, "No. 5").
_ABBREVIATIONS = frozenset(
    _words(
        "mr mrs ms dr prof st jr sr rev gen col lt capt sgt hon gov pres sen rep fr mt ft vs "
        "etc inc ltd co corp no nos vol vols pp p ed eds al e.g i.e approx dept univ est fig "
        "jan feb mar apr jun jul aug sep sept oct nov dec "
    )
)
_WORD_WINDOW = 80  # longer than any abbreviation or run of initials
# OCR leaves a stray mark after a full stop ("national calamities. : The men In Mr. Hughes'
# cabinet"): the mark ends the sentence with it.
_BOUNDARY = re.compile(r"[.!?]+[\"'”’)\]]*(?:\s+[:;|])?(?=\s+[\"'“‘(\[]?[A-Z0-9À-Ý])")


def split_sentences(text: str) -> list[str]:
    """Split running text into sentences: a blank line, or `.`/`!`/`?` before a capital or a
    digit, ends one, except after an abbreviation or an initial ("Thomas K. Arnold",
    "Dr. Smith", "U.S. Army"). Whitespace inside a sentence is folded to single spaces."""
    out: list[str] = []
    for block in re.split(r"\n\s*\n|\f", text):
        block = " ".join(block.split())
        if not block:
            continue
        start = 0
        for m in _BOUNDARY.finditer(block):
            if m.group(0).startswith(".") and _abbreviation_before(block, m.start()):
                continue
            piece = block[start : m.end()].strip()
            if piece:
                out.append(piece)
            start = m.end()
        rest = block[start:].strip()
        if rest:
            out.append(rest)
    return out


def _abbreviation_before(block: str, dot: int) -> bool:
    # the word before the dot, looked for in the few characters before it: searched in the
    # whole block, each dot of a long OCR page cost a scan of all the text before it
    word = re.search(r"([\w.]+)$", block[max(0, dot - _WORD_WINDOW):dot])
    if word is None:
        return False
    w = word.group(1)
    return (len(w) == 1 and w.isalpha() and w.isupper()) or w.lower() in _ABBREVIATIONS or (
        "." in w and all(len(part) <= 1 for part in w.split("."))
    )


# -- tokens and atoms ----------------------------------------------------------------------------

_TENS = "twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety"
_UNITS = ("one|two|three|four|five|six|seven|eight|nine|first|second|third|fourth|fifth|sixth"
          "|seventh|eighth|ninth")
_TOKEN = re.compile(
    r"(?<![^\W_])[A-Z]{1,3}\d{1,4}(?![^\W_])|"  # a code ("R1", "F16") is one word, not "R", "1"
    r"\d+(?:st|nd|rd|th)(?![^\W\d_])|\d+(?:,\d{3})+(?:\.\d+)?(?!\d)|\d+(?:\.\d+)?"
    rf"|(?i:(?:{_TENS})-(?:{_UNITS}))(?![^\W\d_])"  # "twenty-five", "Forty-second": one token
    r"|[^\W\d_]+(?:['’][^\W\d_]+)*",
    re.UNICODE,
)

_STOP = frozenset(
    _words(
        "a an the of in on at to for by with from into onto upon over under about above below "
        "between among through during before after since until till within without against "
        "toward towards via per across along around behind beyond near off out up down and or "
        "but nor so yet if then than that this these those there here where when while whom "
        "whose which who what why how as such same other another each every either any all "
        "both some most more much many few several own is are was were be been being am has "
        "have had having do does did doing done will would shall should can could may might "
        "must ought it its it's he him his she her hers they them their theirs we us our ours "
        "you your yours i me my mine one's itself himself herself themselves also too very "
        "just only even still already again ever once currently now then later s t d ll m re "
        "ve "
    )
)
# Swedish function words (the SOU inquiries' language): "var" (was) is no content word the
# evidence must show. Left out: words that are English words or name parts too ("men", "sin",
# "man", "de", "hans", "vi").
_STOP |= frozenset(
    _words(
        "och att som den det en ett var är vara varit blev blir bli har hade på av för med "
        "om så när där här efter från genom mot utan vid hos mellan över samt även också "
        "redan nu då detta denna dessa vilken vilket vilka sig sitt sina han hon hennes dess "
        "deras eller "
    )
)
# Kept out of the stop list on purpose: "not", "no", "never" (negations) and "only" ... are
# atoms; but hedges that do not change what a claim asserts are not.
_LIGHT = frozenset(
    _words(
        "approximately roughly nearly almost around about some various several well known "
        "located called named titled entitled respectively including include includes "
        "included notable notably famous famously major key main largely mainly mostly "
        "primarily particularly especially often usually generally currently presently "
        "formerly originally initially later subsequently eventually finally recently "
        "previously first-ever new according however nonetheless nevertheless moreover "
        "furthermore meanwhile thus therefore hence consequently additionally "
    )
)
_NEGATIONS = frozenset(
    _words(
        "not no never none nobody nothing neither nor cannot without n't isn't wasn't aren't "
        "weren't doesn't didn't don't hasn't haven't hadn't won't wouldn't can't couldn't "
        "shouldn't failed refused denied lacks lacked fails failing refuse refuses "
        "refusing deny denies denying lacking false untrue incorrect "
        "inte ej icke aldrig "  # Swedish: the sources of SOU inquiries
    )
)
_MONTHS = {
    name: i
    for i, names in enumerate(
        (
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ),
        start=1,
    )
    for name in names
}
# Month names only English has ("may", "march"...): never a month in lower case. The
# Swedish and French names come from the shared table (`sleuth.model.months`).
_ENGLISH_ONLY = frozenset(MONTH_NAMES["en"]) - {
    n for lang, names in MONTH_NAMES.items() if lang != "en" for n in names
}
_NUMBER_WORDS = {
    w: i
    for i, w in enumerate(
        _words(
            "zero one two three four five six seven eight nine ten eleven twelve thirteen "
            "fourteen fifteen sixteen seventeen eighteen nineteen twenty "
        )
    )
}
_NUMBER_WORDS.update(
    {"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
     "ninety": 90, "hundred": 100, "dozen": 12, "single": 1, "twice": 2, "double": 2,
     "triple": 3}
)  # fmt: skip
# Swedish number words of the SOU inquiries ("högst sju sakkunniga"); "en"/"ett" (also the
# article), "sex" (an English word) and "elva" (a place name too) are left out.
_NUMBER_WORDS.update(
    {"två": 2, "tre": 3, "fyra": 4, "fem": 5, "sju": 7, "åtta": 8, "nio": 9, "tio": 10,
     "tolv": 12, "tjugo": 20, "trettio": 30, "fyrtio": 40, "femtio": 50,
     "hundra": 100}
)  # fmt: skip
_ORDINALS = {
    w: i
    for i, w in enumerate(
        _words(
            "zeroth first second third fourth fifth sixth seventh eighth ninth tenth eleventh "
            "twelfth thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth "
            "nineteenth twentieth "
        )
    )
}
_SCALES = {"hundred": 1e2, "thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12,
           "m": 1e6, "bn": 1e9, "k": 1e3}  # fmt: skip
_ORDINAL_SUFFIX = re.compile(r"^(\d+)(?:st|nd|rd|th)$")

AtomKind = Literal["name", "number", "date", "content", "negation"]
# How much each kind of atom counts towards coverage.
_WEIGHT: dict[str, float] = {
    "name": 2.0,
    "number": 2.0,
    "date": 2.0,
    "content": 1.0,
    "negation": 2.0,
}
HARD_KINDS = frozenset({"name", "number", "date"})  # atoms that must all be shown


@dataclass(frozen=True)
class _Token:
    start: int
    end: int
    text: str
    low: str  # case- and accent-folded
    key: str  # what two tokens compare by: a stem, a number's value, a name's folded form


@dataclass
class _Atom:
    kind: AtomKind
    tokens: list[_Token]  # consecutive claim tokens (a name may be several)
    value: float | None = None  # a number's value
    date: _Date | None = None  # a date's parts
    pair: tuple[float, float] | None = None  # a score or range's two numbers
    unit: float | None = None  # a rounded number's precision: "1.18 million" is to 10,000

    @property
    def start(self) -> int:
        return self.tokens[0].start

    @property
    def end(self) -> int:
        return self.tokens[-1].end

    @property
    def weight(self) -> float:
        return _WEIGHT[self.kind]


@lru_cache(maxsize=1)
def _stemmer() -> Any:
    return snowballstemmer.stemmer("english")


def _fold(word: str) -> str:
    word = word.replace("’", "'").lower()
    if word.isascii():
        return word
    return "".join(
        c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c)
    )


_SPELLING = (
    (re.compile(r"our"), "or"),
    (re.compile(r"is(e|ed|es|ing|ation)$"), r"iz\1"),
    (re.compile(r"([^aeiou])re(s?)$"), r"\1er\2"),
    (re.compile(r"ll(ed|ing)$"), r"l\1"),
)


@lru_cache(maxsize=65536)
def _stem(low: str) -> str:
    low = base_form(low)  # "won" stems as "win", "held" as "hold"
    for pattern, repl in _SPELLING:  # British and American spellings read alike
        low = pattern.sub(repl, low)
    return str(_stemmer().stemWord(low))


def _number_value(low: str) -> float | None:
    if low[0].isdigit():
        m = _ORDINAL_SUFFIX.match(low)
        if m:
            return float(m.group(1))
        digits = low.replace(",", "")
        try:
            return float(digits)
        except ValueError:
            return None
    if low in _NUMBER_WORDS:
        return float(_NUMBER_WORDS[low])
    if low in _ORDINALS:
        return float(_ORDINALS[low])
    tens, _, unit = low.partition("-")  # "twenty-five", "forty-second"
    if unit and tens in _NUMBER_WORDS and (unit in _NUMBER_WORDS or unit in _ORDINALS):
        return float(_NUMBER_WORDS[tens] + _NUMBER_WORDS.get(unit, _ORDINALS.get(unit, 0)))
    return None


@lru_cache(maxsize=4096)
def _tokens(text: str) -> tuple[_Token, ...]:
    out: list[_Token] = []
    for m in _TOKEN.finditer(text):
        raw = m.group(0)
        start, end = m.start(), m.end()
        low = _fold(raw)
        value = _number_value(low)
        if value is not None:
            key = f"#{value:.15g}"  # every digit: 1,285,349 is not 1.28535e+06
        elif low in _MONTHS and raw[:1].isupper():
            key = f"@{_MONTHS[low]}"
        else:
            key = _stem(low)
        out.append(_Token(start, end, raw, low, key))
    for k, tok in enumerate(out):
        month = _written_month(text, out, k)
        if month is not None:
            out[k] = replace(tok, key=f"@{month}")
    return tuple(out)


def _written_month(text: str, toks: Sequence[_Token], k: int) -> int | None:
    """The month a Swedish or French name at `toks[k]` names ("den 9 maj 1969", "le 16 mai
    1770", "i juni 1972"), in either case: only beside a day before it or a year after it,
    since such words may mean something else alone ("mars", "mai"). English names keep the
    rule above (capitalised), so the verb "may" is never a month."""
    tok = toks[k]
    if tok.key.startswith("@") or tok.low in _ENGLISH_ONLY:
        return None
    month = month_number(tok.low)
    if month is None:
        return None
    day_before = k > 0 and _near(text, toks[k - 1], tok) and _int_token(toks[k - 1], 1, 31)
    year_after = (k + 1 < len(toks) and _near(text, tok, toks[k + 1])
                  and _int_token(toks[k + 1], 1000, 2999))
    return month if day_before or year_after else None


def _is_capitalised(tok: _Token) -> bool:
    return (tok.text[:1].isupper() and not tok.text.isupper()) or (
        tok.text.isupper() and len(tok.text) > 1
    )


@dataclass(frozen=True)
class _Date:
    """A written date: its month always, its day and year when written."""

    first: int  # token positions [first, last)
    last: int
    year: int | None
    month: int
    day: int | None

    def shown_by(self, other: _Date, years: set[int]) -> bool:
        """`other` states this date (a year missing from it may stand in its sentence)."""
        if other.month != self.month or (self.day is not None and other.day != self.day):
            return False
        return self.year is None or other.year == self.year or (
            other.year is None and self.year in years
        )

    def differs(self, other: _Date) -> bool:
        """`other` states a part of this date differently."""
        return (
            other.month != self.month
            or (None not in (self.day, other.day) and self.day != other.day)
            or (None not in (self.year, other.year) and self.year != other.year)
        )


_ISO_DATE = re.compile(r"(\d{4})-(\d\d)-(\d\d)")


def _int_token(tok: _Token, low: int, high: int) -> int | None:
    if not tok.text.isdigit():
        m = _ORDINAL_SUFFIX.match(tok.low)
        if not m:
            return None
        value = int(m.group(1))
    else:
        value = int(tok.text)
    return value if low <= value <= high else None


@lru_cache(maxsize=4096)
def _dates(text: str) -> tuple[_Date, ...]:
    """The dates written in `text`: "24 January 1957", "January 24, 1957", "Sept. 13",
    "June 2018", "2018-09-10", and in Swedish or French beside a day or year ("den 9 maj
    1969", "le 16 août 1770"), so an English claim is checked against a Swedish page."""
    toks = _tokens(text)
    out: list[_Date] = []
    for k, tok in enumerate(toks):
        if tok.key.startswith("@"):
            first, last, day, year = k, k + 1, None, None
            if k > 0 and _near(text, toks[k - 1], tok):
                day = _int_token(toks[k - 1], 1, 31)
                if day is not None:
                    first = k - 1
            if k + 1 < len(toks) and _near(text, tok, toks[k + 1]):
                nxt = _int_token(toks[k + 1], 1, 31)
                if day is None and nxt is not None:
                    day, last = nxt, k + 2
            if last < len(toks) and _near(text, toks[last - 1], toks[last]):
                year = _int_token(toks[last], 1000, 2999)
                if year is not None:
                    last += 1
            if day is None and year is None and tok.low in ("may", "march", "mar"):
                continue  # the verb or the name, not a month
            out.append(_Date(first, last, year, int(tok.key[1:]), day))
    for m in _ISO_DATE.finditer(text):
        y, mo, d = (int(g) for g in m.groups())
        if 1 <= mo <= 12 and 1 <= d <= 31:
            idx = [i for i, t in enumerate(toks) if m.start() <= t.start < m.end()]
            if idx:
                out.append(_Date(idx[0], idx[-1] + 1, y, mo, d))
    return tuple(out)


def _near(text: str, a: _Token, b: _Token) -> bool:
    return text[a.end : b.start] in (" ", ", ", ". ", "., ", " of ", "-", " the ")


def _atoms(claim: str) -> list[_Atom]:
    """The claim's checkable atoms, in order: names (runs of capitalised words that are not
    the sentence's first stop word), numbers (digits, number words, ordinals, with a scale
    word folded in), months, negations, and the remaining content words."""
    toks = _tokens(claim)
    dates = {d.first: d for d in _dates(claim)}
    atoms: list[_Atom] = []
    i = 0
    while i < len(toks):
        tok = toks[i]
        low = tok.low
        if i in dates:
            d = dates[i]
            atoms.append(_Atom("date", list(toks[d.first : d.last]), date=d))
            i = d.last
            continue
        if low in _NEGATIONS or low.endswith("n't"):
            atoms.append(_Atom("negation", [tok]))
            i += 1
            continue
        value = _number_value(low)
        if value is not None and not (low == "one" and _pronoun_one(toks, i)):
            pair = _pair_at(claim, toks, i)
            if pair is not None:  # a score or a range, "6–5", "1491–1510": one atom
                atoms.append(_Atom("number", list(toks[i : i + 2]), value, pair=pair))
                i += 2
                continue
            group = [tok]
            nxt = toks[i + 1] if i + 1 < len(toks) else None
            if nxt is not None and nxt.low in _SCALES and _adjacent(claim, tok, nxt):
                value *= _SCALES[nxt.low]
                group.append(nxt)
            hedged = i > 0 and toks[i - 1].low in _HEDGES
            atoms.append(_Atom("number", group, value, unit=_rounding(group, hedged)))
            i += len(group)
            continue
        at_start = i == 0 or _sentence_start(claim, tok)
        if _is_capitalised(tok) and not (at_start and (
            low in _STOP or low in _LIGHT or (
                _common(low) and not (i + 1 < len(toks) and _is_capitalised(toks[i + 1])))
        )):  # fmt: skip
            group = [tok]
            j = i + 1
            while j < len(toks) and _is_capitalised(toks[j]) and _adjacent(claim, toks[j - 1],
                                                                            toks[j]):
                group.append(toks[j])
                j += 1
            for member in group:  # each word of a name is checked, so "Lady Marina" differs
                if member.low not in _STOP:  # from "Lady Amelia" in the word that differs
                    atoms.append(_Atom("name", [member]))
            i = j
            continue
        if low not in _STOP and low not in _LIGHT and len(low) > 1:
            atoms.append(_Atom("content", [tok]))
        i += 1
    return atoms


def claim_atoms(claim: str) -> list[tuple[AtomKind, int, int]]:
    """The claim's checkable atoms as `(kind, start, end)` character spans, in order (what
    the verifier aligns; `benchmarks/verify.py --misses` sorts its misses by their kinds)."""
    return [(a.kind, a.start, a.end) for a in _atoms(claim)]


# Words before a number that say it is rounded ("approximately 400,000"); not "over" or
# "more than", which bound it on one side only.
_HEDGES = frozenset(_words("approximately roughly nearly almost around about some "
                           "estimated circa ca c"))


def _rounding(group: Sequence[_Token], hedged: bool) -> float | None:
    """The precision a claim's number is written to, when it reads as rounded: with a scale
    word ("1.18 million": to 10,000; "618k": to 1,000), or after a hedge ("about 400,000":
    to 100,000). None for a number given exactly (a year, a count, "1,285,349")."""
    digits = group[0].text.replace(",", "")
    if not digits[:1].isdigit() or _ORDINAL_SUFFIX.match(group[0].low):
        return None
    decimals = len(digits.split(".")[1]) if "." in digits else 0
    if len(group) > 1 and _SCALES[group[1].low] >= 1e3:  # not "two hundred"
        return float(10.0**-decimals * _SCALES[group[1].low])
    if hedged and decimals == 0 and digits.rstrip("0") != digits:
        return float(10 ** (len(digits) - len(digits.rstrip("0"))))
    return None


COMMON_WORD = 5000  # a word at least this frequent in pyspellchecker's English list


@lru_cache(maxsize=1)
def _frequencies() -> object:
    from spellchecker import SpellChecker

    return SpellChecker(language="en").word_frequency


@lru_cache(maxsize=8192)
def _common(low: str) -> bool:
    """A common English word ("According", "Born", "Tobacco" at a sentence's start) rather
    than a name ("Paterson", "Smith")."""
    freq = _frequencies()
    return bool(freq[low] >= COMMON_WORD)  # type: ignore[index]


def _pronoun_one(toks: Sequence[_Token], i: int) -> bool:
    """ "one of the", "the only one", "no one": not the number 1 being claimed."""
    nxt = toks[i + 1].low if i + 1 < len(toks) else ""
    prev = toks[i - 1].low if i > 0 else ""
    return nxt in ("of", "who", "that", "which", "another") or prev in ("only", "no", "any",
                                                                        "every", "each")


def _adjacent(text: str, a: _Token, b: _Token) -> bool:
    gap = text[a.end : b.start]
    return gap in (" ", "-", "") or gap in (" & ", " of ", " de ", " von ", " van ", " la ")


def _sentence_start(text: str, tok: _Token) -> bool:
    before = text[: tok.start].rstrip(" \"'“‘(")
    return not before or before[-1] in ".!?:;"


# -- alignment -----------------------------------------------------------------------------------


@dataclass
class _Sentence:
    index: int
    text: str
    tokens: tuple[_Token, ...]
    keys: dict[str, list[int]]  # key -> token positions
    negations: list[int]
    dates: tuple[_Date, ...]
    years: set[int]


def _sentence(index: int, text: str) -> _Sentence:
    toks = _tokens(text)
    keys: dict[str, list[int]] = {}
    negations: list[int] = []
    years: set[int] = set()
    for pos, tok in enumerate(toks):
        keys.setdefault(tok.key, []).append(pos)
        if tok.low in _NEGATIONS or tok.low.endswith("n't"):
            negations.append(pos)
        if len(tok.text) == 4 and tok.text.isdigit():
            years.add(int(tok.text))
        for word in _abbreviation_at(text, toks, pos):  # "U.S." states "United States"
            keys.setdefault(_stem(word), []).append(pos)
    return _Sentence(index, text, toks, keys, negations, _dates(text), years)


_COUNTRY_ABBREVIATIONS = {
    "US": ("united", "states"), "USA": ("united", "states", "america"),
    "UK": ("united", "kingdom"), "UAE": ("united", "arab", "emirates"),
    "USSR": ("soviet", "union"), "UN": ("united", "nations"),
}  # fmt: skip


def _abbreviation_at(text: str, toks: Sequence[_Token], pos: int) -> tuple[str, ...]:
    """The words a country's capitalised abbreviation stands for: "US", "U.S.", "USA",
    "U.K." (never the pronoun "us": capitals only)."""
    tok = toks[pos]
    if tok.text in _COUNTRY_ABBREVIATIONS:
        return _COUNTRY_ABBREVIATIONS[tok.text]
    if tok.text in ("U",) and pos + 1 < len(toks):
        nxt = toks[pos + 1]
        dotted = text[tok.end : nxt.start] == "." and nxt.text in ("S", "K", "N")
        if dotted:
            return _COUNTRY_ABBREVIATIONS["U" + nxt.text]
    return ()


def _demonym_of(low: str, tok: _Token) -> bool:
    """`low` is the people's or adjective's form of the place `tok` names ("Indian" for
    India, "Libyan" for Libya, "Canadian" for Canada, "Brazilian" for Brazil, "German" for
    Germany)."""
    place = tok.low
    if len(place) < 4 or not tok.text[:1].isupper() or not low.endswith("n"):
        return False
    forms = {place + "n", place + "an", place + "ian", place[:-1] + "ian", place[:-1] + "n"}
    if place.endswith("y"):
        forms.add(place[:-1])
    return low in forms


# A claim's word -> evidence words that state it (one direction only: "sister" shows
# "sibling", not the other way round). Common predicates and family relations that
# biographies and their sources word differently; every entry is a general equivalence,
# none is fitted to a dev item.
_ENTAILS: tuple[tuple[str, str], ...] = (
    ("born", "birth"), ("birth", "born"), ("died", "death"), ("death", "died"),
    ("died", "dead"), ("dead", "died"), ("married", "marriage"), ("marriage", "married"),
    ("married", "wife"), ("married", "husband"), ("married", "wed"), ("married", "wedding"),
    ("spouse", "wife"), ("spouse", "husband"), ("spouse", "married"),
    ("sibling", "sister"), ("sibling", "brother"), ("siblings", "sisters"),
    ("siblings", "brothers"), ("child", "son"), ("child", "daughter"),
    ("children", "sons"), ("children", "daughters"), ("parent", "father"),
    ("parent", "mother"), ("parents", "father"), ("parents", "mother"),
    ("founded", "established"), ("established", "founded"), ("founded", "founder"),
    ("founder", "founded"), ("began", "started"), ("started", "began"),
    ("began", "start"), ("started", "start"), ("began", "beginning"),
    ("ended", "end"), ("finished", "end"), ("released", "release"),
    ("elected", "election"), ("appointed", "appointment"), ("awarded", "received"),
    ("won", "winner"), ("won", "winning"), ("won", "victory"), ("won", "win"),
    ("joined", "join"), ("attended", "studied"), ("studied", "attended"),
    ("moved", "relocated"), ("relocated", "moved"), ("purchased", "bought"),
    ("bought", "purchased"), ("acquired", "bought"), ("acquired", "purchased"),
    ("built", "constructed"), ("constructed", "built"), ("wrote", "written"),
    ("wrote", "author"), ("authored", "wrote"), ("directed", "director"),
    ("produced", "producer"), ("played", "player"), ("served", "service"),
    ("retired", "retirement"), ("resigned", "resignation"), ("died", "passed"),
)
_ENTAILED_BY: dict[str, tuple[str, ...]] = {}
for _claim_word, _evidence_word in _ENTAILS:
    _ENTAILED_BY[_stem(_claim_word)] = (*_ENTAILED_BY.get(_stem(_claim_word), ()),
                                        _stem(_evidence_word))  # fmt: skip


def _ground(atom: _Atom, sent: _Sentence, fuzzy: bool = True) -> tuple[int, int] | None:
    """Character span in `sent` that shows `atom`, or None."""
    return next(_groundings(atom, sent, fuzzy), None)


def _ground_all(atom: _Atom, sent: _Sentence) -> list[tuple[int, int]]:
    """Every character span in `sent` that shows `atom` (the relation checks look for the
    one that stands in the claim's relation), best reading first."""
    return list(dict.fromkeys(_groundings(atom, sent, True)))


def _groundings(atom: _Atom, sent: _Sentence, fuzzy: bool) -> Iterator[tuple[int, int]]:
    if atom.kind == "negation":
        return  # negations are compared separately, sentence by sentence
    if atom.kind == "number":
        yield from _ground_number(atom, sent)
        return
    if atom.kind == "date":
        assert atom.date is not None
        for d in sent.dates:
            if atom.date.shown_by(d, sent.years):
                yield sent.tokens[d.first].start, sent.tokens[d.last - 1].end
        return
    key = atom.tokens[0].key
    cut = _line_breaks(sent.text)
    positions = [p for p in sent.keys.get(key, ()) if p not in cut]
    if positions:
        for pos in positions:
            yield sent.tokens[pos].start, sent.tokens[pos].end
        if atom.kind == "content":
            return
    if atom.kind == "content":
        # a word hyphenated at a line end is one word ("chefre- daktören")
        for pos in cut:
            a, b = sent.tokens[pos], sent.tokens[pos + 1]
            if _tokens(a.text + b.text)[0].key == key:
                yield a.start, b.end
                return
    if atom.kind == "content":
        entailed = [p for other in _ENTAILED_BY.get(key, ()) for p in sent.keys.get(other, ())]
        if entailed:
            for pos in entailed:
                yield sent.tokens[pos].start, sent.tokens[pos].end
            return
    low = atom.tokens[0].low
    if atom.kind == "name":
        # a name matches by its folded form exactly, or by a one-letter OCR/spelling slip in
        # a long name; possessives and plurals read through the stem above
        for tok in sent.tokens:
            if tok.low == low or (len(low) >= 7 and Levenshtein.distance(tok.low, low) <= 1
                                  and tok.low[0] == low[0]):  # fmt: skip
                yield tok.start, tok.end
        for tok in sent.tokens:
            if _demonym_of(low, tok):
                yield tok.start, tok.end
        # a name cut in two by OCR or a line-end hyphen ("Ra mos", "Car ranza", "Adams- son"):
        # two words that spell it, the first capitalised
        toks = sent.tokens
        for a, b in pairwise(toks):
            if (len(low) >= 5 and a.low + b.low == low and a.text[:1].isupper()
                    and sent.text[a.end:b.start] in (" ", "-", "- ", "-\n")):  # fmt: skip
                yield a.start, b.end
        return
    if fuzzy and len(key) >= 5:
        for pos, tok in enumerate(sent.tokens):
            if pos in cut:
                continue  # the start of a word cut at a line end is no word
            other = tok.key
            if len(other) < 5 or other[:4] != key[:4] or other[0] in "#@":
                continue
            # one letter apart ("metres"/"meters" left over), or one stem the other's start
            # ("discov"/"discoveri", "appear"/"appearanc")
            if (
                len(key) >= 6 and len(other) >= 6
                and Levenshtein.distance(other, key, score_cutoff=1) <= 1
            ) or (
                PREFIX_STEMS and (other.startswith(key) or key.startswith(other))
            ):  # fmt: skip
                yield tok.start, tok.end


@lru_cache(maxsize=4096)
def _line_breaks(text: str) -> frozenset[int]:
    """Positions of the words a line-end hyphen cuts ("chefre-" of "chefre- daktören"): a
    hyphen, then a space, then a lower-case letter; not a compound's first part before a
    conjunction ("offentlighets- och sekretesslagstiftningskommittén", "pre- and post-war")."""
    toks = _tokens(text)
    return frozenset(i for i, (a, b) in enumerate(pairwise(toks))
                     if text[a.end : b.start] in ("- ", "-\n") and b.text[:1].islower()
                     and b.text.lower() not in _ELLIPSIS_CONJUNCTIONS)


# The conjunctions after a compound's hyphenated first part ("offentlighets- och sekretess-").
_ELLIPSIS_CONJUNCTIONS = frozenset(("och", "eller", "samt", "respektive", "and", "or", "nor"))


_DASHES = frozenset(("-", "–", "—", "−", " - ", " – ", " — ", "–", " to ", ":"))


def _pair_at(text: str, toks: Sequence[_Token], i: int) -> tuple[float, float] | None:
    """Two numbers joined by a dash ("6–5", "1491–1510", "10-7") read as one value."""
    if i + 1 >= len(toks) or not toks[i].text[:1].isdigit():
        return None
    a, b = toks[i], toks[i + 1]
    if not b.text[:1].isdigit() or text[a.end : b.start] not in _DASHES:
        return None
    if text[a.end : b.start] in (" to ", ":"):
        return None  # "from 5 to 7" is read as two numbers; a time is not a pair
    return float(a.key[1:]), float(b.key[1:])


def _ground_number(atom: _Atom, sent: _Sentence) -> Iterator[tuple[int, int]]:
    value = atom.value
    assert value is not None
    toks = sent.tokens
    if atom.pair is not None:
        for pos in range(len(toks) - 1):
            if _pair_at(sent.text, toks, pos) == atom.pair:
                yield toks[pos].start, toks[pos + 1].end
        return
    # a day of a date is no count ("högst nio sakkunniga" is not shown by "den 9 maj 1969",
    # "aged 10" not by "May 10")
    days = {i for d in sent.dates if d.day is not None for i in range(d.first, d.last)
            if len(toks[i].text) <= 4 and _int_token(toks[i], 1, 31) == d.day}  # fmt: skip
    for pos, tok in enumerate(toks):
        if not tok.key.startswith("#") or pos in days:
            continue
        v = float(tok.key[1:])
        if pos + 1 < len(toks) and toks[pos + 1].low in _SCALES:
            scaled = v * _SCALES[toks[pos + 1].low]
            if _same_number(scaled, value, atom.unit):
                yield tok.start, toks[pos + 1].end
                continue
        if _same_number(v, value, atom.unit):
            yield tok.start, tok.end


def _same_number(a: float, b: float, unit: float | None = None) -> bool:
    """`a` (the evidence's) states `b` (the claim's): equal, or equal once rounded to the
    claim's precision `unit` (1,183,505 states "1.18 million")."""
    if a == b or (a != 0 and abs(a - b) / abs(a) < 1e-9):
        return True
    return unit is not None and abs(a - b) <= unit / 2 * (1 + 1e-9)


@dataclass
class _Alignment:
    sentences: list[int]  # chosen evidence sentence indexes (positions in `evidence`)
    grounded: dict[int, tuple[int, int, int]]  # atom index -> (sentence index, start, end)


def _align(atoms: Sequence[_Atom], sents: Sequence[_Sentence], limit: int,
           first: Sequence[int] = ()) -> _Alignment:  # fmt: skip
    """Greedy cover: the sentence grounding the most atom weight first, then the one adding
    most to it, up to `limit` sentences; a sentence must add a name or number or two atoms.
    `first`: positions in `sents` taken before the greedy choice (the sentences the relation
    checks found the claim's relation in)."""
    hits: list[dict[int, tuple[int, int]]] = []
    for sent in sents:
        found: dict[int, tuple[int, int]] = {}
        for ai, atom in enumerate(atoms):
            span = _ground(atom, sent)
            if span is not None:
                found[ai] = span
        hits.append(found)
    chosen: list[int] = []
    grounded: dict[int, tuple[int, int, int]] = {}
    for si in first:
        chosen.append(si)
        for ai, (start, end) in hits[si].items():
            grounded.setdefault(ai, (sents[si].index, start, end))
    while len(chosen) < limit:
        best, best_gain = -1, 0.0
        for si, found in enumerate(hits):
            if si in chosen:
                continue
            new = [ai for ai in found if ai not in grounded]
            gain = sum(atoms[ai].weight for ai in new)
            strong = any(atoms[ai].kind != "content" for ai in new) or len(new) >= 2
            if not chosen:
                strong = bool(new)
            if strong and gain > best_gain + 1e-9:
                best, best_gain = si, gain
        if best < 0:
            break
        chosen.append(best)
        for ai, (start, end) in hits[best].items():
            grounded.setdefault(ai, (sents[best].index, start, end))
    return _Alignment(chosen, grounded)


# -- contradictions ------------------------------------------------------------------------------

_YEAR = re.compile(r"^(1[0-9]|20)\d\d$")


def _conflict(
    atom: _Atom, claim_toks: Sequence[_Token], sent: _Sentence
) -> tuple[int, int] | None:
    """Where `sent` puts a different value in the atom's place: the claim's word before
    (or after) the atom stands next to a value of the same kind that differs."""
    if atom.kind not in ("number", "name", "date"):
        return None
    idx = [i for i, t in enumerate(claim_toks) if t.start == atom.start]
    if not idx:
        return None
    i = idx[0]
    j = i + len(atom.tokens)
    before = [t.key for t in claim_toks[max(0, i - 2) : i]]
    after = [t.key for t in claim_toks[j : j + 2]]
    toks = sent.tokens
    if atom.kind == "date":
        assert atom.date is not None
        for d in sent.dates:
            if not atom.date.differs(d):
                continue
            left = [t.key for t in toks[max(0, d.first - len(before)) : d.first]]
            right = [t.key for t in toks[d.last : d.last + len(after)]]
            if (before and left == before and _informative(before)) or (
                after and right == after and _informative(after)
            ):
                return toks[d.first].start, toks[d.last - 1].end
        return None
    if atom.pair is not None:
        for pos in range(len(toks) - 1):
            pair = _pair_at(sent.text, toks, pos)
            if pair is None or pair == atom.pair:
                continue
            left = [t.key for t in toks[max(0, pos - len(before)) : pos]]
            right = [t.key for t in toks[pos + 2 : pos + 2 + len(after)]]
            if (before and left == before and _informative(before)) or (
                after and right == after and _informative(after)
            ):
                return toks[pos].start, toks[pos + 1].end
        return None
    kind_ok = _kind_test(atom)
    for pos, tok in enumerate(toks):
        if not kind_ok(tok) or tok.key == atom.tokens[0].key:
            continue
        left = [t.key for t in toks[max(0, pos - len(before)) : pos]]
        right = [t.key for t in toks[pos + 1 : pos + 1 + len(after)]]
        left_ok = bool(before) and left == before and _informative(before)
        right_ok = bool(after) and right == after and _informative(after)
        if left_ok or right_ok:
            return tok.start, tok.end
    return None


def _informative(keys: Sequence[str]) -> bool:
    """A context is worth aligning on when it holds a word other than a stop word."""
    return any(k not in _STOP_STEMS for k in keys)


_STOP_STEMS = frozenset(_stem(w) for w in _STOP)


def _kind_test(atom: _Atom) -> Callable[[_Token], bool]:
    first = atom.tokens[0]
    if atom.kind == "number":
        year = bool(_YEAR.match(first.low))
        # a rank is no count: "the 37th American Music Awards" states no number of awards
        rank = bool(_ORDINAL_SUFFIX.match(first.low))

        def is_number(tok: _Token) -> bool:
            return (tok.key.startswith("#") and bool(_YEAR.match(tok.low)) == year
                    and bool(_ORDINAL_SUFFIX.match(tok.low)) == rank)  # fmt: skip

        return is_number
    if first.key.startswith("@"):

        def is_month(tok: _Token) -> bool:
            return tok.key.startswith("@")

        return is_month

    def is_name(tok: _Token) -> bool:
        return (
            _is_capitalised(tok)
            and tok.low not in _STOP
            and not tok.key.startswith(("#", "@"))
        )

    return is_name


# -- the verdict ---------------------------------------------------------------------------------

SUPPORT_LIMIT = 4  # at most this many evidence sentences show one claim sentence
PARTIAL_COVERAGE = 0.5  # grounded share of the predicate's atoms that makes a claim partial
# `verify_claim(..., unshown_words=N)`: a claim whose every name, number and date is shown
# is still supported with up to N of its content words unshown (a paraphrase: "in his
# time", "at the age of") when they are at most this share of its content words. The
# default is 0: on the dev sets one unshown word gains recall at the cost of the 0.90
# precision of `supported` (benchmarks/README.md).
UNSHOWN_SHARE = 0.2
PREFIX_STEMS = True


@dataclass(frozen=True)
class Paraphrase:
    """A second reading for a claim whose every name, number and date is shown but a few of
    whose content words are not: the claim is `supported` when those words are at most
    `max_unshown` and at most `share` of its content words, and `similarity(claim part,
    aligned sentences)` (a paraphrase score in [-1, 1], e.g. `sleuth.verify.soft`'s
    WordLlama cosine) reaches `threshold`. Off by default (None). The defaults are
    `benchmarks/verify.py --fit-paraphrase`'s choice on half A of both dev sets: the best
    binary accuracy whose precision of `supported` there is >= 0.95 (a margin over the
    0.90 target: half A has few supported calls); half B is reported beside it."""

    similarity: Callable[[str, Sequence[str]], float]
    threshold: float = 0.68
    max_unshown: int = 3
    share: float = 0.5


@dataclass
class _Part:
    verdict: Verdict
    evidence: list[EvidenceSpan]
    unsupported: list[tuple[int, int]]
    contradictions: list[tuple[tuple[int, int], EvidenceSpan]]
    rationale: str
    coverage: float
    weight: float


def _check_sentence(
    claim: str,
    offset: int,
    sents: Sequence[_Sentence],
    unshown_words: int = 0,
    paraphrase: Paraphrase | None = None,
) -> _Part:
    """One claim sentence's verdict: its atoms aligned, then, when that would call it
    supported, the relation checks (`sleuth.verify.relations`)."""
    atoms = _atoms(claim)
    if not any(a.kind != "negation" for a in atoms):
        return _Part("not_found", [], [], [], "the claim has no checkable words", 0.0, 0.0)
    align = _align(atoms, sents, SUPPORT_LIMIT)
    part = _judge_sentence(claim, offset, sents, atoms, align, unshown_words, paraphrase)
    if part.verdict == "supported":
        part = _relate(claim, offset, sents, atoms, align, part)
    return part


def _judge_sentence(
    claim: str,
    offset: int,
    sents: Sequence[_Sentence],
    atoms: list[_Atom],
    align: _Alignment,
    unshown_words: int,
    paraphrase: Paraphrase | None,
) -> _Part:
    checkable = [a for a in atoms if a.kind != "negation"]
    total = sum(a.weight for a in checkable)
    by_index = {s.index: s for s in sents}
    evidence = [
        EvidenceSpan(si, start, end, by_index[si].text[start:end])
        for si, start, end in (align.grounded[ai] for ai in sorted(align.grounded))
    ]
    grounded_w = sum(atoms[ai].weight for ai in align.grounded)
    coverage = grounded_w / total
    missing = [a for ai, a in enumerate(atoms) if ai not in align.grounded and a.kind != "negation"]
    unsupported = [(a.start + offset, a.end + offset) for a in missing]
    claim_toks = _tokens(claim)

    # A number, date or name in the claim's place, stated differently by a sentence that
    # otherwise shows the claim's neighbourhood.
    contradictions: list[tuple[tuple[int, int], EvidenceSpan]] = []
    for atom in missing:
        if atom.kind not in HARD_KINDS:
            continue
        for sent in sents:
            span = _conflict(atom, claim_toks, sent)
            if span is not None and _about_same(atoms, sent):
                contradictions.append(
                    (
                        (atom.start + offset, atom.end + offset),
                        EvidenceSpan(sent.index, span[0], span[1], sent.text[span[0] : span[1]]),
                    )
                )
                break
    # The one date or number the aligned sentences do not show, where a sentence that
    # shows the rest of the claim states one other value of that kind ("died in 1958"
    # against "died ... on 24 January 1957").
    if not contradictions and len(missing) == 1 and missing[0].kind in ("number", "date"):
        atom = missing[0]
        used = [by_index[sents[si].index] for si in align.sentences]
        found = _only_other_value(atom, atoms, align, used, claim_toks)
        if found is not None:
            sent, (start, end) = found
            contradictions.append(
                (
                    (atom.start + offset, atom.end + offset),
                    EvidenceSpan(sent.index, start, end, sent.text[start:end]),
                )
            )
    # A negation on one side only, in a sentence that shows everything else of the claim.
    claim_negated = any(a.kind == "negation" for a in atoms)
    negation_conflict = None
    if align.sentences and not missing:
        main = [by_index[sents[si].index] for si in align.sentences]
        negated = {s.index: _near_shown(s, align, s.negations) for s in main}
        odd = [s for s in main if bool(negated[s.index]) != claim_negated]
        if odd:
            negation_conflict = replace(odd[0], negations=negated[odd[0].index])
    if contradictions:
        what = ", ".join(
            f"the claim's {claim[a - offset : b - offset]!r} where sentence {span.sentence_index}"
            f" says {span.text!r}"
            for (a, b), span in contradictions
        )
        return _Part("contradicted", evidence + [s for _, s in contradictions], unsupported,
                     contradictions, f"contradicted: {what}", coverage, total)  # fmt: skip
    if negation_conflict is not None:
        if claim_negated:
            why = f"the claim is negated; sentence {negation_conflict.index} is not"
        else:
            why = f"sentence {negation_conflict.index} negates what the claim asserts"
        neg_spans = [
            EvidenceSpan(
                negation_conflict.index,
                negation_conflict.tokens[p].start,
                negation_conflict.tokens[p].end,
                negation_conflict.tokens[p].text,
            )
            for p in negation_conflict.negations
        ]
        # the claim's negation is what is not shown; a plain claim the evidence negates is
        # not shown as a whole
        negs = [(a.start + offset, a.end + offset) for a in atoms if a.kind == "negation"] or [
            (offset, offset + len(claim.rstrip(" .")))]
        return _Part("contradicted", evidence + neg_spans, negs, [],
                     f"contradicted: {why}", coverage, total)  # fmt: skip
    n_sent = len(align.sentences)
    shown = f"{len(align.grounded)} of {len(checkable)} atoms shown in {n_sent} sentence(s)"
    unshown = [a for a in missing if a.kind == "content"]
    n_content = sum(1 for a in checkable if a.kind == "content")
    may_support = not missing or (len(unshown) == len(missing) and len(unshown) <= max(
        unshown_words, paraphrase.max_unshown if paraphrase else 0))
    hedged = _hedged(claim, align, [by_index[sents[si].index] for si in align.sentences])
    if hedged is not None and may_support:
        sent, p = hedged
        tok = sent.tokens[p]
        return _Part("partially_supported",
                     [*evidence, EvidenceSpan(sent.index, tok.start, tok.end, tok.text)],
                     [(offset, offset + len(claim.rstrip(" .")))], [],
                     f"partially supported: sentence {sent.index} reports it only as "
                     f"{tok.text!r}", coverage, total)  # fmt: skip
    if not missing:
        return _Part("supported", evidence, [], [],
                     f"supported: all {len(checkable)} atoms shown in {n_sent} sentence(s)",
                     1.0, total)  # fmt: skip
    if (
        len(unshown) == len(missing)
        and len(unshown) <= unshown_words
        and len(unshown) <= UNSHOWN_SHARE * n_content
    ):
        words = ", ".join(repr(claim[a.start : a.end]) for a in unshown)
        return _Part("supported", evidence, [], [],
                     f"supported: every name, number and date and {n_content - len(unshown)} "
                     f"of {n_content} content words shown in {n_sent} sentence(s) ({words} "
                     f"not shown)", coverage, total)  # fmt: skip
    if (
        paraphrase is not None
        and len(unshown) == len(missing)
        and len(unshown) <= paraphrase.max_unshown
        and len(unshown) <= paraphrase.share * n_content
    ):
        used = [by_index[sents[si].index] for si in align.sentences]
        sim = paraphrase.similarity(claim, [s.text for s in used])
        if sim >= paraphrase.threshold:
            words = ", ".join(repr(claim[a.start : a.end]) for a in unshown)
            where = ", ".join(str(s.index) for s in used)
            return _Part("supported", evidence, [], [],
                         f"supported: every name, number and date and {n_content - len(unshown)}"
                         f" of {n_content} content words shown in sentence(s) {where}; {words} "
                         f"read as a paraphrase (similarity {sim:.2f} >= "
                         f"{paraphrase.threshold:.2f})", coverage, total)  # fmt: skip
    subject = _subject_atoms(atoms)
    predicate = [a for a in checkable if a not in subject]
    pred_w = sum(a.weight for a in predicate) or 1.0
    pred_cov = sum(a.weight for ai, a in enumerate(atoms) if ai in align.grounded
                   and a in predicate) / pred_w  # fmt: skip
    subject_shown = any(atoms.index(a) in align.grounded for a in subject) if subject else (
        coverage > 0
    )
    missing_text = ", ".join(repr(claim[a.start : a.end]) for a in missing[:6])
    named = [a for a in subject if a.tokens[0].low not in OFFICES]
    # the claim opens with it (initials and abbreviated titles before it: "J. Juncker")
    opens = bool(subject) and _INITIALS.fullmatch(claim[: subject[0].start]) is not None
    if pred_cov >= PARTIAL_COVERAGE and named and opens and not any(
            atoms.index(a) in align.grounded for a in named):  # fmt: skip
        # what a claim says of someone the evidence never names is not partly shown
        who = claim[named[0].start : named[-1].end]
        return _Part("not_supported", evidence, unsupported, [],
                     f"not supported: the evidence does not name the claim's subject {who!r}"
                     f" ({shown})", coverage, total)  # fmt: skip
    if pred_cov >= PARTIAL_COVERAGE:
        return _Part("partially_supported", evidence, unsupported, [],
                     f"partially supported: {shown}; not shown: {missing_text}",
                     coverage, total)  # fmt: skip
    if subject_shown or coverage >= 0.25:
        return _Part("not_supported", evidence, unsupported, [],
                     f"not supported: the evidence is about the claim's subject but shows "
                     f"only {shown}; not shown: {missing_text}", coverage, total)  # fmt: skip
    return _Part("not_found", evidence, unsupported, [],
                 f"not found: the evidence does not address the claim ({shown})",
                 coverage, total)  # fmt: skip


def _relate(
    claim: str,
    offset: int,
    sents: Sequence[_Sentence],
    atoms: list[_Atom],
    align: _Alignment,
    part: _Part,
) -> _Part:
    """A claim sentence the atoms would call supported, kept so only when its evidence shows
    the relation too; else partially supported (or contradicted) with the reason."""
    toks = _tokens(claim)
    at = {tok.start: k for k, tok in enumerate(toks)}
    pieces = [Piece(a.kind, at[a.start], at[a.tokens[-1].start] + 1) for a in atoms]
    by_index = {s.index: s for s in sents}
    memo: dict[tuple[int, int], list[tuple[int, int]]] = {}

    def ground(k: int, si: int) -> list[tuple[int, int]]:
        if (k, si) not in memo:
            memo[k, si] = _ground_all(atoms[k], by_index[si])
        return memo[k, si]

    first = [sents[i].index for i in align.sentences]
    rel = {s.index: _relation_sentence(s.index, s.text) for s in sents}
    aligned = {ai: si for ai, (si, _, _) in align.grounded.items()}
    outcome = check(_relation_sentence(-1, claim), pieces, rel, aligned, ground)
    finding = outcome.finding
    if finding is None:
        if set(outcome.sentences) <= set(first):
            return part
        forced = [i for i, s in enumerate(sents) if s.index in outcome.sentences]
        again = _align(atoms, sents, SUPPORT_LIMIT, first=forced)
        if len(again.grounded) < len(align.grounded):
            return part
        evidence = [EvidenceSpan(si, a, b, by_index[si].text[a:b])
                    for si, a, b in (again.grounded[ai] for ai in sorted(again.grounded))]
        return replace(part, evidence=evidence)
    spans = [(atoms[k].start + offset, atoms[k].end + offset) for k in finding.pieces]
    pointed = [EvidenceSpan(si, a, b, by_index[si].text[a:b]) for si, a, b in finding.evidence]
    # the finding's pieces, shown only where the claim's relation is not, are no evidence
    kept = [EvidenceSpan(si, a, b, by_index[si].text[a:b])
            for ai, (si, a, b) in sorted(align.grounded.items())
            if ai not in finding.pieces or si == finding.sentence]  # fmt: skip
    stated = (_stated_otherwise(atoms, finding, by_index, toks)
              if finding.verdict == "partially_supported" else None)
    if stated is not None:
        k, span = stated
        where = (atoms[k].start + offset, atoms[k].end + offset)
        return _Part("contradicted", [*kept, span], [where], [(where, span)],
                     f"contradicted: the claim's {claim[atoms[k].start:atoms[k].end]!r} where "
                     f"sentence {span.sentence_index}, which tells the claim's event, says "
                     f"{span.text!r}", part.coverage, part.weight)  # fmt: skip
    if finding.verdict == "contradicted":
        return _Part("contradicted", part.evidence + pointed, spans,
                     [(spans[0], pointed[0])] if spans and pointed else [],
                     f"contradicted: {finding.reason}", part.coverage, part.weight)  # fmt: skip
    if finding.verdict == "not_supported":
        return _Part("not_supported", kept + pointed, spans, [],
                     f"not supported: {finding.reason}", part.coverage, part.weight)
    return _Part("partially_supported", part.evidence + pointed, spans, [],
                 f"partially supported: {finding.reason}", part.coverage, part.weight)


def _stated_otherwise(atoms: Sequence[_Atom], finding: Finding, by_index: dict[int, _Sentence],
                      claim_toks: Sequence[_Token]) -> tuple[int, EvidenceSpan] | None:
    """A date or number of the claim found only away from P, the sentence that tells the
    claim's predicate, stated differently in the claim's place ("högst sju sakkunniga" for
    "högst nio sakkunniga"), or a date where P states one other date: "died on May 12"
    against "Perkins ... died ... May 10" is contradicted, whatever "May 12" another
    sentence holds."""
    for k in finding.pieces:  # a value shown only away from P is as good as unshown
        for other in by_index.values():
            span = _conflict(atoms[k], claim_toks, other)
            if span is not None and atoms[k].kind in ("date", "number") and _about_same(
                    atoms, other):
                return k, EvidenceSpan(other.index, span[0], span[1],
                                       other.text[span[0] : span[1]])  # fmt: skip
    if finding.sentence not in by_index or any(
            atoms[k].kind != "date" for k in finding.pieces):
        return None  # P tells the claim's event only when all else of it stands in P
    sent = by_index[finding.sentence]
    for k in finding.pieces:
        shown = [span for a in atoms if a.kind != "negation" for span in _ground_all(a, sent)]
        values = [(a, b) for a, b in _values_like(atoms[k], sent, claim_toks)
                  if not any(x < b and a < y for x, y in shown)]  # fmt: skip
        if len(values) == 1:
            a, b = values[0]
            return k, EvidenceSpan(sent.index, a, b, sent.text[a:b])
    return None


@lru_cache(maxsize=8192)
def _relation_sentence(index: int, text: str) -> Sentence:
    """A sentence as the relation checks read it: each word's key, whether it is part of a
    name, and its dates, years and numbers (a number with the word after it, its unit)."""
    toks = _tokens(text)
    dates = _dates(text)
    in_date = {i for d in dates for i in range(d.first, d.last)}
    words = []
    values = [Value(d.first, d.last, "time") for d in dates]
    for i, tok in enumerate(toks):
        year = tok.text.isdigit() and bool(_YEAR.match(tok.low))
        number = tok.key.startswith("#")
        kind = "time" if i in in_date or year else "number" if number else ""
        start = i == 0 or _sentence_start(text, tok)
        name = not kind and _is_capitalised(tok) and tok.low not in _STOP and not (
            start and (tok.low in _LIGHT or tok.low in PRONOUNS or (
                _common(tok.low) and not (i + 1 < len(toks) and _is_capitalised(toks[i + 1])))))
        words.append(Word(tok.start, tok.end, tok.low, tok.key, name, kind,
                          name and _common(tok.low)))
        if kind and i not in in_date:
            unit = toks[i + 1].key if i + 1 < len(toks) else ""
            values.append(Value(i, i + 1, kind, "" if unit in _STOP_STEMS else unit))
    return Sentence(index, text, tuple(words), tuple(sorted(values, key=lambda v: v.first)))


_INITIALS = re.compile(r"\s*(?:[A-Z][a-z]?\.\s*)*")


def _subject_atoms(atoms: Sequence[_Atom]) -> list[_Atom]:
    """The atoms naming what the claim is about: its leading names (before the first content
    word), else its first content word."""
    out: list[_Atom] = []
    for a in atoms:
        if a.kind == "name":
            out.append(a)
        elif out or a.kind == "content":
            break
    if not out:
        names = [a for a in atoms if a.kind == "name"]
        out = names[:1]
    return out


NEGATION_REACH = 5  # words between a negation and a word of the claim it can bear on


def _near_shown(sent: _Sentence, align: _Alignment, positions: Sequence[int]) -> list[int]:
    """The token positions within NEGATION_REACH words of a word `sent` shows of the claim: a
    negation or hedge there bears on it ("There is no better farm land ... Judge Harris"
    does not negate that Harris was defeated)."""
    shown = [p for si, a, b in align.grounded.values() if si == sent.index
             for p, tok in enumerate(sent.tokens) if a <= tok.start < b]  # fmt: skip
    return [n for n in positions if any(
        n < p <= _object_end(sent, n) if sent.tokens[n].low in _OWN_OBJECT
        else abs(n - p) <= NEGATION_REACH for p in shown)]  # fmt: skip


# Negations that bear on their own object only: "shall notify ... by 25 May 2018 and,
# without delay, any subsequent amendment" does not negate the notifying or the date.
_OWN_OBJECT = frozenset(_words("without"))


def _object_end(sent: _Sentence, n: int) -> int:
    """The last position of the phrase after word `n`: up to a punctuation mark or the
    reach of a negation."""
    toks = sent.tokens
    end = n
    while end + 1 < len(toks) and end + 1 - n <= NEGATION_REACH and not any(
            c in ",;:.()" for c in sent.text[toks[end].end : toks[end + 1].start]):
        end += 1
    return end


# Words by which a sentence reports a thing without asserting it ("was rumored to have been
# elected"); a claim that does not say so itself is not shown by it.
_HEDGES_OF_REPORT = frozenset(_words("rumored rumoured rumor rumour allegedly alleged "
                                     "supposedly purportedly unconfirmed"))


def _hedged(claim: str, align: _Alignment, main: Sequence[_Sentence]
            ) -> tuple[_Sentence, int] | None:  # fmt: skip
    """A sentence showing the claim that hedges it near the claim's words, when the claim
    itself does not hedge."""
    if any(t.low in _HEDGES_OF_REPORT for t in _tokens(claim)):
        return None
    for sent in main:
        hedges = [p for p, t in enumerate(sent.tokens) if t.low in _HEDGES_OF_REPORT]
        near = _near_shown(sent, align, hedges)
        if near:
            return sent, near[0]
    return None


def _only_other_value(
    atom: _Atom,
    atoms: Sequence[_Atom],
    align: _Alignment,
    used: Sequence[_Sentence],
    claim_toks: Sequence[_Token],
) -> tuple[_Sentence, tuple[int, int]] | None:
    """A sentence of the alignment holding the atom's nearest shown neighbour and exactly
    one value of the atom's kind (a year for a year, a date for a date, a number followed by
    the same word for a number) that shows none of the claim's atoms."""
    shown_spans = {(si, a, b) for si, a, b in align.grounded.values()}
    neighbour = _nearest_shown(atom, atoms, align)
    if neighbour is None:
        return None
    for sent in used:
        if align.grounded[neighbour][0] != sent.index:
            continue
        values = [
            v for v in _values_like(atom, sent, claim_toks)
            if not any(si == sent.index and a < v[1] and v[0] < b for si, a, b in shown_spans)
        ]  # fmt: skip
        if len(values) == 1:
            return sent, values[0]
    return None


def _nearest_shown(atom: _Atom, atoms: Sequence[_Atom], align: _Alignment) -> int | None:
    """The shown atom nearest the given one in the claim (a word beside a date or number:
    the verb or the unit)."""
    best: tuple[int, int] | None = None
    for ai, other in enumerate(atoms):
        if ai in align.grounded and other.kind != "negation":
            gap = min(abs(other.end - atom.start), abs(atom.end - other.start))
            if best is None or gap < best[0]:
                best = (gap, ai)
    return None if best is None else best[1]


def _values_like(
    atom: _Atom, sent: _Sentence, claim_toks: Sequence[_Token]
) -> list[tuple[int, int]]:
    toks = sent.tokens
    if atom.kind == "date":
        assert atom.date is not None
        return [
            (toks[d.first].start, toks[d.last - 1].end)
            for d in sent.dates
            if (d.day is None) == (atom.date.day is None) and atom.date.differs(d)
        ]
    first = atom.tokens[0]
    if atom.pair is not None:
        out = []
        for pos in range(len(toks) - 1):
            pair = _pair_at(sent.text, toks, pos)
            if pair is not None and pair != atom.pair:
                out.append((toks[pos].start, toks[pos + 1].end))
        return out
    if _YEAR.match(first.low):
        return [(t.start, t.end) for t in toks if _YEAR.match(t.low) and t.low != first.low]
    # a plain number: followed by the same word as in the claim ("230 metres", "400 students")
    idx = next((i for i, t in enumerate(claim_toks) if t.start == atom.start), None)
    if idx is None:
        return []
    after = idx + len(atom.tokens)
    unit = claim_toks[after].key if after < len(claim_toks) else ""
    if unit and unit not in _STOP_STEMS:
        return [
            (t.start, t.end)
            for i, t in enumerate(toks[:-1])
            if t.key.startswith("#") and toks[i + 1].key == unit and t.key != first.key
            and not _YEAR.match(t.low)
        ]  # fmt: skip
    if after < len(claim_toks) or idx == 0:
        return []
    # a number that ends the claim: preceded by the same word ("trimmed ... to 320" against
    # "trimmed ... to 230")
    lead = claim_toks[idx - 1].key
    return [
        (t.start, t.end)
        for i, t in enumerate(toks)
        if i > 0 and t.key.startswith("#") and toks[i - 1].key == lead and t.key != first.key
        and not _YEAR.match(t.low)
    ]  # fmt: skip


_SUBJECT_PRONOUNS = frozenset(_words("he she it they"))


def _about_same(atoms: Sequence[_Atom], sent: _Sentence) -> bool:
    """Whether `sent` shows enough of the claim to be talking about the same thing: half of
    its other atoms by weight, and at least two of them. A sentence that opens with "it",
    "he", "she" or "they" speaks of the claim's subject ("It shall apply from 25 May 2018"
    of "This Regulation shall apply from 25 May 2019")."""
    total = 0.0
    shown = 0.0
    count = 0
    opens = sent.tokens[0].low in _SUBJECT_PRONOUNS if sent.tokens else False
    subject = _subject_atoms(atoms) if opens else []
    for atom in atoms:
        if atom.kind == "negation":
            continue
        total += atom.weight
        if atom in subject or _ground(atom, sent, fuzzy=False) is not None:
            shown += atom.weight
            count += 1
    return count >= 2 and shown >= 0.5 * total


_ORDER: dict[str, int] = {
    "contradicted": 0,
    "not_found": 1,
    "not_supported": 2,
    "partially_supported": 3,
    "supported": 4,
}


def verify_claim(
    claim: str,
    evidence: Sequence[str],
    *,
    claim_id: str = "",
    unshown_words: int = 0,
    paraphrase: Paraphrase | None = None,
) -> ClaimCheck:
    """Check one claim against evidence sentences (see the module for the verdicts).

    `unshown_words` (default 0) lets a claim whose names, numbers and dates are all shown be
    supported with that many content words unshown (at most a fifth of them); `paraphrase`
    (default None) lets a few unshown content words be read as a paraphrase of the aligned
    sentences (see `Paraphrase`). A fragment without a predicate (a claim that starts in
    mid-sentence and only names: "to Jessica Gund, and George Gund II.") is never more than
    partially supported."""
    sents = [_sentence(i, s) for i, s in enumerate(evidence) if s and s.strip()]
    parts: list[_Part] = []
    for start, end in _claim_sentences(claim):
        parts.append(_check_sentence(claim[start:end], start, sents, unshown_words,
                                     paraphrase))  # fmt: skip
    if not parts:
        return ClaimCheck(claim_id, claim, "not_found", (), (), "the claim is empty")
    if parts[0].verdict == "supported" and _fragment(claim):  # a fragment with no predicate
        first = parts[0]
        parts[0] = _Part("partially_supported", first.evidence, first.unsupported,
                         first.contradictions, "partially supported: the claim is a fragment "
                         "without a predicate (it starts in mid-sentence and names only), so "
                         "what is said of them is not shown; "
                         + first.rationale, first.coverage, first.weight)  # fmt: skip
    verdict = _combine([p.verdict for p in parts])
    evidence_spans = _dedupe(s for p in parts for s in p.evidence)
    unsupported = _merge_spans(claim, [u for p in parts for u in p.unsupported])
    total = sum(p.weight for p in parts) or 1.0
    coverage = sum(p.coverage * p.weight for p in parts) / total
    if len(parts) == 1:
        rationale = parts[0].rationale
    else:
        rationale = "; ".join(f"sentence {i + 1}: {p.rationale}" for i, p in enumerate(parts))
    contradictions = tuple(
        ((a, b, claim[a:b]), span) for p in parts for (a, b), span in p.contradictions
    )
    return ClaimCheck(
        claim_id,
        claim,
        verdict,
        evidence_spans,
        unsupported,
        rationale,
        contradictions,
        coverage,
    )


def _fragment(claim: str) -> bool:
    """The claim starts with a lower-case word (a piece cut from a sentence: "to Jessica
    Gund, and George Gund II.") and has no content word, only names, numbers and dates: no
    predicate, so nothing it asserts can be shown. ("but victims were rarely killed." is a
    piece too, but says something.)"""
    m = re.search(r"[^\W\d_]", claim)
    start = len(claim) - len(claim.lstrip(" \t\n\"'“‘(["))
    if m is None or not m.group(0).islower() or m.start() != start:
        return False
    return not any(a.kind == "content" for a in _atoms(claim))


def _combine(verdicts: Sequence[Verdict]) -> Verdict:
    if "contradicted" in verdicts:
        return "contradicted"
    if all(v == "supported" for v in verdicts):
        return "supported"
    if all(v == "not_found" for v in verdicts):
        return "not_found"
    if any(v in ("supported", "partially_supported") for v in verdicts):
        return "partially_supported"
    return "not_supported"


def _claim_sentences(claim: str) -> list[tuple[int, int]]:
    """Character ranges of the claim's sentences (a claim is usually one)."""
    out: list[tuple[int, int]] = []
    pos = 0
    for piece in split_sentences(claim):
        words = piece.split(" ")
        # find the piece in the claim again: whitespace was folded
        pattern = r"\s+".join(re.escape(w) for w in words if w)
        m = re.compile(pattern).search(claim, pos)
        if m is None:
            return [(0, len(claim))] if claim.strip() else []
        out.append((m.start(), m.end()))
        pos = m.end()
    return out


def _dedupe(spans: Iterable[EvidenceSpan]) -> tuple[EvidenceSpan, ...]:
    seen: dict[tuple[int, int, int], EvidenceSpan] = {}
    for span in spans:
        seen.setdefault((span.sentence_index, span.start, span.end), span)
    return tuple(seen[k] for k in sorted(seen))


def _merge_spans(claim: str, spans: Sequence[tuple[int, int]]) -> tuple[tuple[int, int, str], ...]:
    """Unsupported atoms joined into phrases: two spans are one when only stop words, spaces
    and punctuation stand between them."""
    merged: list[list[int]] = []
    for start, end in sorted(spans):
        if merged:
            gap = claim[merged[-1][1] : start]
            words = [_fold(w) for w in re.findall(r"\w+", gap)]
            if start <= merged[-1][1] or (
                all(w in _STOP for w in words) and not re.search(r"[.;:!?]", gap)
            ):
                merged[-1][1] = max(merged[-1][1], end)
                continue
        merged.append([start, end])
    return tuple((a, b, claim[a:b]) for a, b in merged)
