"""Does a capitalised run read as a personal name? The gate a name passes to become a person.

The name spotter (`names.find_names`) over-generates on purpose; headings ("Household
Goods", "Uncertain Very"), sentence-initial words ("Neither", "Wheat is quoted ..."),
places ("Mexico") and OCR debris ("Shc") must still not become people. A name reads as a
personal name when it has

* a title and a name word ("Mrs. Wilson", "Rev. Frank Hummel"),
* an initial first ("J. E. McNulty") or in the middle ("Quincy O. Calef"),
* a given name first, from `given_names.txt` (1990 US census first names, a supplement
  of older given names, and `nicknames`), read through one misprinted letter when the
  word is not itself an English word ("Ceorge Willey"), or
* a given name second in a run of three or more, behind a misread title or a stray word
  ("Brdther Isaac Strong", "Mis Alma Duhaniel").

Alone, a word is a person only as a given name that is neither mainly a surname nor an
English word ("Clarence", not "Riley" or "Will"), except in a list of relatives, where
"sons, Will and Harry" names two people; a word for a person ("Man has a nature") never.

Never a person's name, wherever it stands: a possessive ("Joseph's Church", "Stanley's":
the owner of what follows; the name spotter ends a name before its "'s"), and a place's
first word and a saint's given name alone after it ("Santa Tomas", "San Antonio": the
place named for the saint; "Santa Rossi died" is a woman named Santa). Where the sentence
does not itself make the name a person's (a heading, a headline, a lead): a saint's place
("SANTA FE", "San Diego"; "Maria Santa Fe" is a name), a given name read only through a
misprint before a common English word ("Claaa Reunion"), a surname followed by an English
word's -s form, a headline's subject and verb ("Luigi Lungo Telegraphs to Send", "WILSON
FEELS"), and three initials or more before a common word, a body's initials and the noun
they head ("W. C. T. U. CONVENTION").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib.resources import files

from sleuth.extract import nicknames as _nick
from sleuth.extract.english import word_list

_PARTICLES = frozenset({"van", "von", "de", "del", "della", "di", "da", "du", "der", "den",
                        "la", "le", "ten", "ter", "st", "ste", "mc", "mac", "o"})
# Titles before a name, as written (the spotter's and the parser's, and OCR-stable plurals).
TITLE_WORDS = frozenset({
    "mr", "mrs", "miss", "ms", "misses", "messrs", "mme", "mlle", "madame", "dr", "rev",
    "revd", "reverend", "prof", "capt", "captain", "col", "colonel", "gen", "maj", "lieut",
    "lt", "sgt", "corp", "cpl", "pvt", "hon", "honorable", "elder", "deacon", "dea", "gov",
    "sen", "bishop", "sir", "dame", "lady", "lord", "squire", "father", "sister", "brother",
    "mother", "aunt", "uncle", "widow", "master", "grandma", "grandpa", "mister", "judge",
    "rabbi", "herr", "frau", "senor", "senora", "signor", "signora", "monsieur", "senator",
    "congressman", "representative", "alderman", "commissioner", "attorney", "constable",
    "coroner", "postmaster", "admiral", "sergeant", "corporal"})
_SUFFIXES = frozenset({"jr", "sr", "jun", "sen", "ii", "iii", "iv", "esq", "md", "dd", "phd"})
_INITIAL = re.compile(r"[A-Z]\.")
_MIN_FUZZY = 5  # shorter words have too many one-letter neighbours


@dataclass(frozen=True, slots=True)
class _Lexicon:
    given: frozenset[str]
    surnames: frozenset[str]  # more common as a surname ("*")
    words: frozenset[str]  # also an English word ("~")
    curated: frozenset[str]  # the genealogical name lists of `nicknames`
    lookalikes: frozenset[str]  # English words one letter from a given name
    deletions: dict[str, frozenset[int]]  # given name with one letter dropped -> positions


@lru_cache(maxsize=1)
def _lexicon() -> _Lexicon:
    given: set[str] = set()
    surnames: set[str] = set()
    words: set[str] = set()
    look: set[str] = set()
    text = files("sleuth.extract").joinpath("given_names.txt").read_text(encoding="utf-8")
    for line in text.splitlines():
        if not line or line[0] == "#":
            continue
        if line[0] == "!":
            look.add(line[1:])
            continue
        name = line.rstrip("*~")
        given.add(name)
        if "*" in line[len(name):]:
            surnames.add(name)
        if "~" in line[len(name):]:
            words.add(name)
    curated = set(_nick.GROUPS) | set(_nick.SEX)
    given |= curated | {k.rstrip(".'") for k in _nick.ABBREVIATIONS}
    given -= _PARTICLES
    look -= given  # "Barth." is a clerk's Bartholomew before it is a word
    dels: dict[str, set[int]] = {}
    for name in given:
        if len(name) >= _MIN_FUZZY and name.isalpha():
            for i in range(len(name)):
                dels.setdefault(name[:i] + name[i + 1:], set()).add(i)
    return _Lexicon(frozenset(given), frozenset(surnames), frozenset(words),
                    frozenset(curated - _PARTICLES), frozenset(look),
                    {k: frozenset(v) for k, v in dels.items()})


def possessive_owner(word: str) -> str | None:
    """The owner a possessive names ("Joseph's" -> "Joseph", "Stanley’s" -> "Stanley"), or
    None when `word` is no possessive. One reading for the spotter, which ends a name there,
    and the gate, which refuses one: both must agree on either apostrophe."""
    return word[:-2] if word.endswith(("'s", "’s")) else None


def _bare(word: str) -> str:
    w = word.strip(".,;:'’\"()")
    owner = possessive_owner(w)
    return (w if owner is None else owner).lower()


def is_given(word: str) -> bool:
    """True when `word` is a given name (or a clerk's abbreviation of one: "Wm.", "Chas.")."""
    return _bare(word) in _lexicon().given


def misprinted_given(word: str) -> bool:
    """True when `word` is one letter away from a given name of five letters or more and is
    not itself an English word: "Ceorge", "Wililam", "SylveBter", but not "Dairy"."""
    w = _bare(word)
    lex = _lexicon()
    if len(w) < _MIN_FUZZY or not w.isalpha() or w in lex.given or w in lex.lookalikes:
        return False
    if w in lex.deletions:  # a letter dropped: "Wiliam"
        return True
    for i in range(len(w)):
        cut = w[:i] + w[i + 1:]
        if cut in lex.given and len(cut) >= _MIN_FUZZY:  # a letter added: "Earlo"
            return True
        if i in lex.deletions.get(cut, ()):  # a letter changed: "Ceorge"
            return True
        if i + 1 < len(w) and w[:i] + w[i + 1] + w[i] + w[i + 2:] in lex.given:
            return True  # two letters swapped: "Wililam"
    return False


def given_alone(word: str, *, listed: bool = False) -> bool:
    """True when one word by itself names a person: a given name that is not mainly a
    surname ("Riley", "Grant"), nor an English word unless a genealogist's name list has it
    ("Harry" is kept, "Hope" is not); in a list of relatives (`listed`), any given name."""
    w = _bare(word)
    lex = _lexicon()
    if w not in lex.given:
        return False
    return listed or (w not in lex.surnames and (w not in lex.words or w in lex.curated))


def _initial(tok: str) -> bool:
    return _INITIAL.fullmatch(tok) is not None


# Words that open a capitalised run without being a name ("Some Hard Knocks", "Uncertain
# Very"): determiners, quantifiers and adverbs a headline or sentence starts with.
_FUNCTION = frozenset(
    "some any every all many few several each other another such more most much both either "  # noqa: SIM905
    "neither none only very just even still yet once twice here there now then today "
    "tonight tomorrow yesterday ago why how what when where which who whose whom if unless "
    "though although because while since until after before during about above below "
    "under over between among against across through without within upon into onto "
    "toward towards near far no not nor our your my his her its their this that these "
    "those we you they it he she hundred thousand million dozen score "
    # people described, not named ("Former Barre Woman", "War Veteran")
    "former prominent noted aged retired veteran resident citizen native pioneer woman "
    "women man men girl boy child baby youth".split())
_NUMBER = re.compile(r"(?:\d|(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|one|two|"
                     r"three|four|five|six|seven|eight|nine|ten|eleven|twelve)(?:-|$))", re.I)
_SHAPE = re.compile(r"[^\W\d_][^\W\d_'’-]*(?:['’-][^\W\d_]+)*\.?")


# The last word of a street's name: without a known given name before it ("Lois Lane"),
# a name ending in one is the street's, however a sentence states it.
_STREET_ENDS = frozenset({"lane", "street", "avenue", "road", "drive", "boulevard", "terrace",
                          "crescent", "parkway", "highway", "alley", "st", "ave", "rd", "blvd",
                          "ln"})


# The first word of a saint's place ("Santa Fe", "San Diego", "São Paulo"): a given name
# elsewhere, but with no title or given name before it the run is the place's name.
SAINT_GIVEN = frozenset({"san", "santa", "santo", "sao", "são"})
# Every first word of a place's name after a saint or a landmark ("St. Louis", "Fort
# Wayne", "Mount Vernon", "Port Arthur"). The English ones are never given names: the
# spotter ends a name before them (`names.STOP` takes them from here).
PLACE_PREFIXES = SAINT_GIVEN | {"saint", "st", "fort", "ft", "port", "mount", "mt"}
_ACRONYM = 3  # initials in a row that spell a body, not a person ("W. C. T. U.", "G. A. R.")
COMMON_WORD = 5000  # a word at least this frequent in pyspellchecker's English list


def _english() -> dict[str, int]:
    return word_list()[0]


@lru_cache(maxsize=8192)
def _common(low: str) -> bool:
    """A common English word ("Reunion", "Church"): too weak a surname for a given name
    read only through a misprint ("Claaa Reunion" is a class reunion)."""
    return _english().get(low, 0) >= COMMON_WORD


def _inflected(word: str) -> bool:
    """An English word's -s form whose stem is a word too ("Telegraphs", "Hotels"): after a
    given name and a surname, a headline's verb or noun ("Luigi Lungo Telegraphs to Send").
    Not a given name and -s: that is a patronymic surname ("Roberts", "Williams", "Adams")."""
    w = _bare(word)
    words = _english()
    return (len(w) > 3 and w.endswith("s") and w in words and w[:-1] in words
            and w[:-1] not in _lexicon().given)


def _headline_shape(toks: list[str]) -> bool:
    """Words a heading prints like a name that are no person's name:

    * `_ACRONYM` initials or more and one common English word: a body's initials and the
      noun they head ("W. C. T. U. CONVENTION", "R. A. M. Meeting"); a person has two
      initials, rarely three, before a surname, which two initials may share with a common
      word ("J. C. Brown");
    * a surname and an English word's -s form: a headline's subject and its verb. After a
      given name and a surname ("Luigi Lungo Telegraphs to Send"); or, in capitals, where
      the case tells no name from a word, after a word more common as a surname than as a
      given name ("WILSON FEELS"; "JOHN ADAMS" is a man, and in small letters "Walker
      Burns, Assistant Cashier" is one too)."""
    last = toks[-1]
    if len(toks) > _ACRONYM and all(map(_initial, toks[:-1])):
        return not is_given(last) and _common(_bare(last))
    if len(toks) < 2 or any(map(_initial, toks)):
        return False
    if len(toks) == 2:
        return (toks[0].isupper() and last.isupper() and _bare(toks[0]) in _lexicon().surnames
                and _inflected(last))
    return not is_given(toks[1]) and _inflected(last)


def _name_shaped(word: str) -> bool:
    """A word that can be part of a name whatever its language: capitalised letters (an
    apostrophe or hyphen inside), not a function word or a number."""
    w = _bare(word)
    return (_SHAPE.fullmatch(word) is not None and word[:1].isupper() and len(w) > 1
            and w not in _FUNCTION and _NUMBER.match(w) is None)


def is_personal_name(name: str, *, listed: bool = False, stated: bool = False) -> bool:
    """True when `name`, as written, reads as a personal name (see the module docstring).

    `stated`: the sentence itself makes the name a person's (the subject of "was born" or
    "died", a spouse or parent named in a notice). Then a name of two words or more needs no
    known given name ("Zuzana Kralova", "Lucyndia Dunken"), only words shaped like names;
    headings and "X is ..." leads are not such sentences. A lone word is judged the same
    everywhere. Text without capitals (WikiBio's lower-cased sentences) cannot be judged
    by shape and passes; what found it there was already a biography's lead.
    """
    if not any(ch.isupper() for ch in name):
        return True
    toks = [t for t in re.split(r"[\s,]+", name) if t]
    titled = False
    while len(toks) > 1 and _bare(toks[0]) in TITLE_WORDS:
        toks.pop(0)
        titled = True
    while len(toks) > 1 and _bare(toks[-1]) in _SUFFIXES:
        toks.pop()
    if not toks or not any(ch.isalpha() for ch in toks[0]) or any(
            possessive_owner(t.rstrip(".,;:")) is not None for t in toks):
        return False  # (a possessive names the owner of a thing: "Joseph's Church")
    words = [t for t in toks if not _initial(t) and t[:1].isupper() and len(_bare(t)) > 1]
    if titled:
        return bool(words)
    first = toks[0]
    if len(toks) == 1:  # ("Man has a nature": a word for a person, not a name)
        return _bare(first) not in _FUNCTION and (
            given_alone(first, listed=listed) or (listed and misprinted_given(first)))
    if not words:
        return False
    if len(toks) == 2 and _bare(first) in PLACE_PREFIXES and is_given(toks[1]):
        return False  # a saint's name after "Santa": the place named for the saint
    if not stated and not listed and _headline_shape(toks):
        return False
    if _initial(first) or (is_given(first) and _bare(first) not in SAINT_GIVEN):
        return True
    if misprinted_given(first) and not _common(_bare(toks[-1])):
        return True
    if any(_initial(t) for t in toks[1:-1]):
        return True  # "Quincy O. Calef": a middle initial
    if len(toks) >= 3 and is_given(toks[1]):
        return True
    if _bare(toks[-1]) in _STREET_ENDS:
        return False  # "Mrs. Reyes, Quarry Lane, was born": a street (issue 26)
    # a list of relatives vouches for a lone given name, not for "Twin Mountains" after "of"
    return stated and not listed and all(
        _name_shaped(t) or _initial(t) or (t in _PARTICLES and i > 0) for i, t in enumerate(toks))
