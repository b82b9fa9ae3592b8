"""Clauses of one sentence, told from punctuation and connectives alone (no parser, no model),
for the relation checks (`sleuth.verify.relations`).

A clause starts at "; ", ", and"/", but"/", while"..., " and <verb>", ", <verb>ing" (a
participle: "..., being appointed on 29 April 2014"), after a leading participle ("Born in
Leeds, ...") and at ", who"/", which"/", whose"/", where" (a relative clause, which ends at
the next comma and is about the words before it, its owner). A stretch without a verb ("A, B"
in "A, B, and C were appointed") is no clause and joins the next. Verbs are told by their
form: "-ed", an irregular past or participle, "born", an auxiliary, a word after one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from sleuth.verify.lemmas import IRREGULAR


def _words(text: str) -> list[str]:
    return text.split()


@dataclass(frozen=True)
class Word:
    """One word of a sentence as the relation checks see it."""

    start: int
    end: int
    low: str  # case- and accent-folded
    key: str  # what two words compare by (a stem, a number's value)
    name: bool = False  # part of a name: capitalised, not a stop word, not a value
    value: str = ""  # "time" (a date or a year), "number", or "" (neither)
    common: bool = False  # a common word too ("General", "Airport"), unlike "Gavira", "Sanaa"


@dataclass(frozen=True)
class Value:
    """A date, year or number of a sentence: words [first, last), and for a number the key of
    the word after it (its unit: "230 metres")."""

    first: int
    last: int
    kind: str  # "time" or "number"
    unit: str = ""


@dataclass(frozen=True)
class Sentence:
    index: int  # the evidence sentence's index (-1 for the claim)
    text: str
    words: tuple[Word, ...]
    values: tuple[Value, ...] = ()


Kind = Literal["main", "coordinate", "relative", "where", "participle", "leading"]

_BE = frozenset(_words("is are was were be been being am"))
_AUX = _BE | frozenset(_words(
    "has have had having will would shall should can could may might must did does do "
    "became become becomes")
)
# Words that may stand inside a verb phrase ("was later elected", "has not been").
_ADVERBS = frozenset(_words(
    "also then later not never first still already again once soon just recently "
    "subsequently eventually finally formerly originally initially previously currently "
    "jointly together both")
)
# Words ending in "-ed" that are not verbs.
_NOT_VERBS = frozenset(_words(
    "indeed hundred need needs speed seed feed breed creed greed deed bed red shed sacred "
    "naked wicked kindred rugged ragged beloved united limited hatred fed")
)
_NOT_PARTICIPLES = frozenset(_words(
    "during including according following regarding concerning notwithstanding "
    "excluding pending considering something nothing anything everything morning "
    "evening building wedding king ring spring string thing ceiling")
)
PRONOUNS = frozenset(_words("he she they it i we his her their its my our him them"))
_CONNECTIVES = frozenset(_words("and but while whereas although though yet so or"))
_RELATIVES = frozenset(("who", "which", "whose", "where"))


def verb_like(words: tuple[Word, ...], i: int) -> bool:
    """The word reads as a verb by its form: an auxiliary, an irregular past or participle,
    "born", a lower-case "-ed" word, or a word right after an auxiliary."""
    w = words[i]
    if w.name or w.value:
        return False
    low = w.low
    if low in _AUX or low in IRREGULAR or low == "born":
        return True
    if low.endswith("ed") and len(low) > 3 and low.isalpha() and low not in _NOT_VERBS:
        return True
    j = i - 1
    while j >= 0 and words[j].low in _ADVERBS:
        j -= 1
    return j >= 0 and (words[j].low in _MODALS or words[j].low in _SUBJECTS) and (
        low.isalpha() and len(low) > 2 and low not in _STOPLIKE
    )


# After these a word is a verb ("will open", "did say", "he lives"); after "was" or "has" it
# may be a noun ("was mayor", "has members").
_SUBJECTS = frozenset(_words("he she it they we i who"))
_MODALS = frozenset(_words("will would shall should can could may might must did does do"))
_STOPLIKE = frozenset(_words("a an the of in on at to for by with from and or his her their its "
                      "this that these those there here as not"))


def content_verb(words: tuple[Word, ...], i: int) -> bool:
    """A verb that is not an auxiliary ("lost", "planned", "elected")."""
    return verb_like(words, i) and words[i].low not in _AUX


def _participle(w: Word) -> bool:
    return w.low.endswith("ing") and len(w.low) > 4 and w.low.isalpha() and (
        w.low not in _NOT_PARTICIPLES
    ) and not w.name


@dataclass
class Clauses:
    """Each word's clause (`of`), and per clause its kind, the clause whose subject it shares
    (`parent`, -1 when it has its own) and, for a relative clause, its owner's words."""

    sentence: Sentence
    of: list[int]
    kind: list[Kind] = field(default_factory=list)
    parent: list[int] = field(default_factory=list)
    owner: list[tuple[int, ...]] = field(default_factory=list)

    def words_of(self, c: int) -> list[int]:
        return [i for i, k in enumerate(self.of) if k == c]

    def first_verb(self, c: int) -> int | None:
        return next((i for i in self.words_of(c) if verb_like(self.sentence.words, i)), None)

    def chain_root(self, c: int) -> int:
        """The clause whose front (words before its verb) dates or places the clauses that
        share its subject ("In 1925, Smith married Jones and moved to Leeds")."""
        seen = set()
        while self.parent[c] >= 0 and c not in seen and self.kind[c] in ("coordinate",
                                                                          "participle"):
            seen.add(c)
            c = self.parent[c]
        return c


def clauses(s: Sentence) -> Clauses:
    words = s.words
    n = len(words)
    out = Clauses(s, [0] * n, ["main"], [-1], [()])
    if not n:
        return out
    cur, outer = 0, -1
    leading = (verb_like(words, 0) or _participle(words[0])) and words[0].low not in _AUX

    def new(kind: Kind, parent: int, owner: tuple[int, ...] = ()) -> int:
        out.kind.append(kind)
        out.parent.append(parent)
        out.owner.append(owner)
        return len(out.kind) - 1

    if leading:
        out.kind[0] = "leading"
    for i in range(1, n):
        gap = s.text[words[i - 1].end : words[i].start]
        low = words[i].low
        comma = "," in gap or ";" in gap or ":" in gap
        if outer >= 0 and (comma or "(" in gap or ")" in gap):
            cur, outer = outer, -1  # a relative clause ends at the next comma
        if ";" in gap:
            cur = new("coordinate", cur)
        elif low in _RELATIVES and ("," in gap or (gap == " " and low in ("who", "which")
                                                   and not words[i - 1].value
                                                   and words[i - 1].low not in _STOPLIKE)):
            owner = _group_before(s, i)
            outer = cur
            cur = new("where" if low == "where" else "relative", -1, owner)
        elif ("," in gap and low in _CONNECTIVES) or (
            gap.strip() == "" and low in ("and", "but") and _verb_ahead(s, i + 1)
        ):
            cur = new("coordinate", cur)
        elif low == "that" and gap == " " and _after_verb(words, i):
            cur = new("coordinate", -1)  # "revealed that Park reprised ...": its own subject
        elif "," in gap and _participle(words[i]):
            cur = new("participle", cur)
        elif leading and cur == 0 and "," in gap:
            cur = new("main", -1)
            out.parent[0] = cur
        out.of[i] = cur
    _join_verbless(out)
    for c, kind in enumerate(out.kind):  # a coordinate clause with its own subject
        if kind == "coordinate" and not _starts_with_verb(out, c):
            out.parent[c] = -1
    return out


def _after_verb(words: tuple[Word, ...], i: int) -> bool:
    j = i - 1
    while j >= 0 and words[j].low in _ADVERBS:
        j -= 1
    return j >= 0 and verb_like(words, j) and words[j].low not in _AUX


def _verb_ahead(s: Sentence, i: int) -> bool:
    """A verb within the next four words, before any comma ("and opened", "and Jones
    died")."""
    for j in range(i, min(i + 4, len(s.words))):
        if j > i and "," in s.text[s.words[j - 1].end : s.words[j].start]:
            return False
        if s.words[j].low == "and":
            return False
        if verb_like(s.words, j):
            return True
    return False


def _starts_with_verb(cl: Clauses, c: int) -> bool:
    ws = cl.words_of(c)
    for i in ws:
        low = cl.sentence.words[i].low
        if low in _CONNECTIVES or low in _ADVERBS:
            continue
        return verb_like(cl.sentence.words, i) or _participle(cl.sentence.words[i])
    return False


def _join_verbless(cl: Clauses) -> None:
    """A stretch without a verb is no clause: the next clause takes it in, and its place in
    the chain ("A, B" + "and C were appointed"); the last one joins the one before it.
    Relative clauses stay as they are."""
    order = [c for c in dict.fromkeys(cl.of) if cl.kind[c] not in ("relative", "where")]
    for pos, c in enumerate(order):
        if cl.first_verb(c) is not None:
            continue
        later = order[pos + 1 :]
        if later:
            target = later[0]
            cl.kind[target], cl.parent[target] = cl.kind[c], cl.parent[c]
        elif pos > 0:
            target = order[pos - 1]
        else:
            continue
        cl.of = [target if k == c else k for k in cl.of]
        cl.parent = [target if p == c else p for p in cl.parent]
        if cl.parent[target] == target:
            cl.parent[target] = -1


def _group_before(s: Sentence, i: int) -> tuple[int, ...]:
    """The name (or list of names) ending right before word `i` ("John Smith, who ..."); none
    when a common noun stands there ("the man who ...": who that is, the words do not say)."""
    return name_group(s, i - 1, forward=False) if i > 0 else ()


_JOINS = frozenset(("and", "&", "och", "of", "de", "von", "van", "la"))


def name_group(s: Sentence, i: int, forward: bool = True) -> tuple[int, ...]:
    """The names joined into one group at word `i` ("Hans-Olof Hansson", "Emilee Lindner of
    MTV", "A, B and C"): names with spaces, hyphens or commas between them, or one joining
    word ("and", "of", "de"...)."""
    words = s.words
    if not (0 <= i < len(words)) or not words[i].name:
        return ()
    group = [i]
    step = 1 if forward else -1
    j = i
    while True:
        k = j + step
        if not 0 <= k < len(words):
            break
        a, b = (j, k) if forward else (k, j)
        gap = s.text[words[a].end : words[b].start]
        # an initial joins the names around it: "Charles E. Hughes"
        initial = gap == ". " and _initial(s, a)
        if (words[k].name or _initial(s, k)) and (gap in (" ", "-", "", ", ", " & ")
                                                  or initial):
            group.append(k)
            j = k
            continue
        m = k + step
        if words[k].low in _JOINS and gap in (" ", ", ") and 0 <= m < len(words) and (
            words[m].name and s.text[words[min(k, m)].end : words[max(k, m)].start] == " "
        ):
            group.append(m)
            j = m
            continue
        break
    return tuple(sorted(group))


def _initial(s: Sentence, i: int) -> bool:
    w = s.words[i]
    return w.end - w.start == 1 and s.text[w.start].isupper() and s.text[w.end:w.end + 1] == "."


def subject_of(cl: Clauses, c: int, *, fallback: bool = False) -> tuple[int, ...]:
    """The words the clause's verb is said of: a relative clause's owner; a shared subject's
    clause's subject; else the name group (or pronoun) right before its first verb, with no
    comma between. With `fallback` (the claim side), the clause's first name group before its
    verb when nothing stands right before it ("Smith, the mayor of York, was elected")."""
    seen: set[int] = set()
    while cl.parent[c] >= 0 and c not in seen:
        seen.add(c)
        if cl.kind[c] in ("relative",):
            break
        c = cl.parent[c]
    if cl.kind[c] == "relative":
        return cl.owner[c]
    verb = cl.first_verb(c)
    s = cl.sentence
    if verb is None:
        first = next((i for i in cl.words_of(c) if s.words[i].name), None)
        return name_group(s, first) if fallback and first is not None else ()
    j = verb - 1
    while j >= 0 and (cl.of[j] != c or s.words[j].low in _AUX or s.words[j].low in _ADVERBS):
        j -= 1
    if j >= 0 and cl.of[j] == c:
        gap = s.text[s.words[j].end : s.words[verb].start]
        between = [k for k in range(j + 1, verb) if cl.of[k] == c]
        direct = "," not in gap or any(cl.of[k] != c for k in range(j + 1, verb))
        if direct and all(s.words[k].low in _AUX or s.words[k].low in _ADVERBS
                          for k in between):  # fmt: skip
            if s.words[j].name:
                return name_group(s, j, forward=False)
            if s.words[j].low in PRONOUNS:
                return (j,)
    if fallback:
        for i in cl.words_of(c):
            if i >= verb:
                break
            if s.words[i].name:
                return name_group(s, i)
    return ()


def noun_before(cl: Clauses, i: int) -> int | None:
    """The common noun right before the verb at word `i` ("the factory employed"), past its
    auxiliaries and adverbs, in the same clause; None when a name, pronoun or anything else
    stands there."""
    s = cl.sentence
    j = i - 1
    while j >= 0 and cl.of[j] == cl.of[i] and (s.words[j].low in _AUX
                                               or s.words[j].low in _ADVERBS):  # fmt: skip
        j -= 1
    if j < 0 or cl.of[j] != cl.of[i] or "," in s.text[s.words[j].end : s.words[j + 1].start]:
        return None
    w = s.words[j]
    if w.name or w.value or not w.low.isalpha() or len(w.low) < 3 or w.low in _STOPLIKE:
        return None
    return None if w.low in PRONOUNS or verb_like(s.words, j) else j
