"""Statements for any question: the captured sentences that answer it, each attributed.

The inquiry composer (`statements.Composer`) reads Swedish government prose; a question
such as "Who was Douglas Adams?" or "What did the papers report on the election of
1916?" gets nothing from it. This builder reads every captured source instead:

1. the question's terms: its words (stop words and words about the asking itself aside:
   "report", "newspapers"), quoted phrases whole;
2. every sentence of every source, OCR line-break hyphens joined, that is prose (letters,
   whole words: not a column of OCR debris), scored by BM25 over those terms plus a little
   for the checkable atoms it holds (numbers, dates, names);
3. near-duplicates dropped across sources (rapidfuzz), and a bounded set kept that covers
   the question's who / when / where before the rest by score.

A sentence telling a birth the Censor would call a living person's is never taken (the
Censor's masks work on the names the extraction finds; this holds where it finds none).
Each becomes one `Statement` quoting the sentence whole and attributed to its source
("The Barre daily times (Barre, Vt.) reported on 13 November 1916: “…”"): a 1916 paper's
claim is a claim, not a fact. The claim the verifier checks is the sentence itself; the
attribution (paper, date) is the capture record's, from its file name and the corpus's
title list, shown in `sources.md`. A statement another source contradicts is stated in the
next iteration as positions: its own, and the other source's sentence on the same thing.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from rapidfuzz import fuzz

from sleuth.domains.investigations.corpus import ABOUT, modifiers, query_terms, question_names
from sleuth.domains.investigations.model import SourceRecord, Statement, short_id
from sleuth.domains.investigations.naming import name_forms
from sleuth.domains.investigations.prose import (
    join_split_words,
    one_line,
    page_of,
    sentence_spans,
)
from sleuth.extract.given import is_personal_name
from sleuth.model import Snapshot
from sleuth.model.documents import document_date, is_newspaper
from sleuth.privacy.living import MODEL_RULE, living_by_years

KIND, POSITION = "general", "position"
SECTION, DIFFER = "What the sources report", "Where the sources differ"
MAX_STATEMENTS = 12
MIN_CHARS, MAX_CHARS, MIN_WORDS = 40, 420, 7
K1, B = 1.2, 0.75
# Words about the asking, not about the subject.
_META_TEXT = ("report reported reports newspaper newspapers paper papers front page pages "
              "source sources say said tell told know known")
ASKING_WORDS = frozenset(_META_TEXT.split())
_QUOTED = re.compile(r"[\"“]([^\"”]{3,80})[\"”]")
_TOKEN = re.compile(r"[^\W_]+")
# A word as prose has it: letters (an apostrophe or inner hyphen), a number, with the
# punctuation around it. OCR debris ("ii.irv", "rM'nieniiwr", "7-") fails it.
_GOOD = re.compile(r"[\"“‘(\[]*(?:[A-Za-z][a-z]*(?:['’-][A-Za-z]+)*|[A-Z](?:\.[A-Z])*|"
                   r"\d[\d,.:]*)[\"”’)\].,;:!?]*")
_MONTHS = ("January|February|March|April|May|June|July|August|September|October|November|"
           "December|(?:Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\\.")
# A date a "when" asks for: a month with its day or year ("27 April 2016", "May 9", "June,
# 1916"), or a year of its own: not one of a reference number ("No 45/2001", "2016/679"),
# nor a word that begins as a month does ("Market", "Decision", "Member States may").
_DATE = re.compile(rf"\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:{_MONTHS})(?!\w)|"
                   rf"\b(?:{_MONTHS})(?!\w)\s*\d{{1,2}}\b|\b(?:{_MONTHS})(?!\w),?\s+\d{{4}}\b|"
                   r"(?<![/\d.-])\b(?:1[5-9]\d\d|20\d\d)\b(?![/\d-])")
_YEAR = re.compile(r"\b1[5-9]\d\d\b|\b20\d\d\b")
_NUMBER = re.compile(r"\d")
_FIGURE = re.compile(r"\d[\d,.:]*[.,;:]?")  # "178,819," as a word of prose
_COUNT = re.compile(r"\d[\d,.:]*\d")  # a figure or a date of its own: "230", "178,819"
_NAME = re.compile(r"(?<=[a-z,;] )[A-Z][a-z]+(?: [A-Z][a-z]+| [A-Z]\.)*")
_PLACE = re.compile(r"^[A-Z][a-z]+(?: [A-Z][a-z]+)*, (?:[A-Z][a-z]*\. ?)+")  # a dateline
_VERB = re.compile(r"\b(?:is|was|are|were|be|been|has|had|have|will|would|could|shall|"
                   r"should|may|might|says|said|did|does|made|became|wrote|won|took|gave|"
                   r"went|sent|told|met|came|left|held|found|fell|got|began|ran|saw|knew|"
                   r"thought|brought|kept|lost|led|paid|spoke|stood|stands?|shows?|gives?|"
                   r"leads?|wins?|[a-z]{2,}ed|"
                   r"[a-z]{3,}ing)\b")
# "X was an English author": what a who or what question asks for first.
_DEFINES = re.compile(r"\b(?:is|was|are|were)\s+(?:a|an|the)\b")
_BORN = re.compile(r"\bborn\b|\bbirth\b|\bnée\b", re.I)
_WHY = re.compile(r"\bbecause\b|\bsince\b|\bdue to\b|\bin order to\b|\breason", re.I)
# A pronoun in a sentence's first words, before any name: "He ...", "Two of his ...",
# "It was ...", "This is ..." (not "This year ...": a determiner).
_PRONOUN_OPENING = re.compile(r"\W*(?:(?:one|two|three|four|five|some|many|most|all|both|"
                              r"each|none|several|few|any|part|much)\s+of\s+)?"
                              r"(?:he|she|his|her|him|they|their|them|it|its|"
                              r"(?:this|these|those)(?=\s+(?:is|was|are|were|has|had|will)\b))"
                              r"\b(?!['’])", re.I)


@dataclass(frozen=True)
class Candidate:
    source: str
    start: int
    end: int
    text: str  # what the verifier checks: the sentence, split words joined, one line
    score: float
    asks: frozenset[str]
    facets: int = 0  # how many of the question's terms it states apart (`facets`)
    tier: int = 0  # 0: states the event; 1: a name with a figure; 2: a name, on a page about it


def stem(word: str) -> str:
    """A crude stem: enough to meet "election" in "re-election" and "elected"."""
    return word[:max(4, len(word) - 3)] if len(word) > 4 else word


def names_of(question: str) -> set[str]:
    """The names a question asks about (`corpus.question_names`): a name is met whole
    ("Villa", not "Village"), and a sentence naming none of them answers by coincidence."""
    return set(_names(question))


def terms_of(question: str) -> list[str]:
    """The question's search terms, stemmed (a name whole); a quoted phrase is one term."""
    return list(_terms(question))


@lru_cache(maxsize=64)
def _names(question: str) -> frozenset[str]:
    return frozenset(question_names(question))  # read once a question: asked per sentence


@lru_cache(maxsize=64)
def _terms(question: str) -> tuple[str, ...]:
    out = [" ".join(q.lower().split()) for q in _QUOTED.findall(question)]
    names = _names(question)
    for t in query_terms(question, glossary=False):
        s = t if t in names else stem(t)
        if t not in ASKING_WORDS and s not in out:
            out.append(s)
    return tuple(out)


def needed(question: str, terms: list[str], names: set[str]) -> int:
    """How many of the question's terms a sentence must state apart (`facets`): two when it
    has three or more, a two-word name counted once and a year not at all (a newspaper
    sentence seldom prints its own year: the page's date does); else one."""
    years = sum(1 for t in terms if _YEAR.fullmatch(t))
    return 2 if len(terms) - years - joined_names(question, names) >= 3 else 1


def joined_names(question: str, names: set[str]) -> int:
    """How many of the question's names only go on the name before them ("Pancho Villa" is
    one subject): a question about one person needs no second term in a sentence."""
    words = [w.lower() for w in _TOKEN.findall(question)]
    return sum(1 for a, b in pairwise(words) if a in names and b in names)


def meets(term: str, token: str, names: set[str]) -> bool:
    """Whether a sentence's token is the term: a name whole, any other word by its stem."""
    return token == term if term in names else token.startswith(term)


def clean(text: str) -> str:
    """A sentence as it is checked and shown: line-break hyphens joined, one line."""
    return one_line(join_split_words(text))


# An all-caps headline run ("ADMITS SUSSEX ATTACK", "TEACHERS PRESENT") inside a column of
# prose: the article before it ends there, whatever the OCR's punctuation says.
_HEADLINE = re.compile(r"\b[A-Z][A-Z'’-]{2,}(?:\s+[A-Z][A-Z'’-]{2,})+\b")
_PROSE_BEFORE = re.compile(r"\b[a-z]{2,}\b")
# Words of one or two letters that prose has; any other ("ne", "j", "n-") is OCR debris.
_SHORT_TEXT = ("a an am as at be by do go he if in is it me my no of on or so to up us we ox mr dr "
               "st jr sr co")
_SHORT_WORDS = frozenset(_SHORT_TEXT.split())
_SPACED = re.compile(r"\s+(?=[,.;:!?)\]])")
MAX_DEBRIS = 0.15  # the share of debris (fragments, lone punctuation) a quote may hold


def before_headline(text: str, a: int, b: int) -> int:
    """The end of the sentence text[a:b] cut before a headline run that follows three words
    of lower-case prose in it (at the last full stop before the run, if any); b if none."""
    raw = text[a:b]
    for m in _HEADLINE.finditer(raw):
        head = raw[:m.start()]
        if len(_PROSE_BEFORE.findall(head)) >= 3:
            stop = head.rfind(". ")
            return a + (stop + 1 if stop >= 0 else len(head.rstrip()))
    return b


def debris(text: str) -> float:
    """The share of a sentence's tokens that are OCR debris: lone punctuation ("i . , ,")
    and fragments of one or two letters prose has no word for ("ne", "j", "n-")."""
    toks = _SPACED.sub("", text).split()  # "author , essayist" (HTML's spacing) is prose
    bad = sum(1 for t in toks if (not any(c.isalnum() for c in t) and t not in "–—-")
              or _fragment(t))
    return bad / len(toks) if toks else 1.0


def _fragment(token: str) -> bool:
    core = token.strip(".,;:!?\"“”‘’'()[]*-")
    return core.isalpha() and len(core) <= 2 and core != "I" and \
        core.lower() not in _SHORT_WORDS


def is_prose(text: str) -> bool:
    """Whether OCR left a sentence readable: long enough, mostly letters, whole words, and
    a verb (a sentence, not a heading, a title or a reference)."""
    words = [w for w in text.split() if any(c.isalnum() for c in w)]
    if not (MIN_CHARS <= len(text) <= MAX_CHARS) or len(words) < MIN_WORDS \
            or not _VERB.search(text):
        return False
    chars = [c for c in text if not c.isspace()]
    letters = sum(c.isalpha() for c in chars) + sum(  # a figure reads as well as a word
        len(w) for w in words if _FIGURE.fullmatch(w))
    good = sum(1 for w in words if _GOOD.fullmatch(w))
    short = sum(1 for w in words if len(w.strip(".,;:")) == 1 and w.lower() not in ("a", "i"))
    return letters >= 0.8 * len(chars) and good >= 0.9 * len(words) and short <= 2 \
        and debris(text) <= MAX_DEBRIS


def tells_a_living_birth(text: str) -> bool:
    """A birth the Censor would call a living person's ("born on 22 June 1994"): such a
    sentence is never quoted, whether or not the extraction found the person it names."""
    if not _BORN.search(text):
        return False
    return any(living_by_years(int(y), None, MODEL_RULE) for y in _YEAR.findall(text))


@lru_cache(maxsize=4096)
def names_a_person(text: str) -> bool:
    """Whether a sentence names a person (`naming.name_forms`: a personal name, or an
    office before a surname): what a "who" asks for. A capitalised word is not enough: "the
    Union", "Member States" and a title's words ("General Data Protection Regulation") name
    no one."""
    return any(f.office or is_personal_name(f.text) for f in name_forms(text))


def asks_answered(text: str, people: frozenset[str] = frozenset()) -> frozenset[str]:
    """Which parts of a question a sentence can answer: who (a person, or one the question
    names: `people`, lower-cased), when (a date), where (a dateline), why (a cause given);
    every sentence says what."""
    asks = {"what"}
    if people & set(_tokens(text)) or names_a_person(text):
        asks.add("who")
    if _DATE.search(text):
        asks.add("when")
    if _PLACE.match(text):
        asks.add("where")
    if _WHY.search(text):
        asks.add("why")
    return frozenset(asks)


def _tokens(text: str) -> list[str]:
    return [t.lower() for t in _TOKEN.findall(text)]


def _matches(term: str, tokens: list[str], low: str, names: set[str]) -> int:
    if " " in term:
        return low.count(term)
    return sum(1 for t in tokens if meets(term, t, names))


def facets(terms: list[str], tokens: list[str], names: set[str]) -> int:
    """How many of the question's terms a sentence states apart: terms met side by side
    ("President Wilson") are one mention, and a mention adds a facet only with a term no
    mention before it had. "Hughes ... sent to President Wilson a telegram on his
    re-election" states three; "the inactivity of President Wilson" one."""
    hits = sorted((i, t) for t in terms if " " not in t
                  for i, tok in enumerate(tokens) if meets(t, tok, names))
    groups: list[set[str]] = []
    last = -2
    for i, t in hits:
        if i - last <= 1 and groups:
            groups[-1].add(t)
        else:
            groups.append({t})
        last = i
    seen: set[str] = set()
    count = 0
    for g in groups:
        if g - seen:
            count += 1
            seen |= g
    return count


def opens_with_pronoun(text: str) -> bool:
    """Whether a sentence opens on a pronoun whose referent is outside it ("He found the
    East strong for Wilson", "Two of his appointments"): quoted alone, it loses its who."""
    return bool(_PRONOUN_OPENING.match(text))


def with_referent(text: str, spans: list[tuple[int, int]], i: int) -> tuple[int, str] | None:
    """Sentence `i` of `text` quoted together with the one before it, when that one names
    someone and opens on no pronoun itself: (start, the two sentences as checked), still
    verbatim and contiguous. None when the sentence before names no one."""
    if i == 0:
        return None
    a, _ = spans[i - 1]
    before = clean(text[a:spans[i - 1][1]])
    both = clean(text[a:spans[i][1]])
    if opens_with_pronoun(before) or not any(f.office or is_personal_name(f.text)
                                             for f in name_forms(before)):
        return None
    if not is_prose(both) or tells_a_living_birth(both):
        return None
    return a, both


def candidates(question: str, texts: dict[str, str]) -> list[Candidate]:
    """Every readable sentence of the sources that states the question's event, best first;
    ties by source and place. Tier 0: two of the question's terms as separate mentions
    (`facets`; one when it has fewer than three terms, a two-word name counted once) and,
    when the question names someone or something, one of those names. Tier 1: such a name
    with a figure of its own ("trimmed the plurality for Charles E. Hughes to 230"). Tier 2:
    such a name, in a source whose readable sentences name them three times or more (a page
    about them, however broken its columns). The score is BM25 over the terms, raised for
    each further facet, a number, a name, a definition, and halved for each tier below 0."""
    terms = terms_of(question)
    if not terms:
        return []
    names = names_of(question)
    need = needed(question, terms, names)
    qualifiers = {stem(w) for w in modifiers(question)} - names
    sents: list[tuple[str, int, int, str, list[str]]] = []
    for sid in sorted(texts):
        spans = sentence_spans(texts[sid])
        for i, (a, b) in enumerate(spans):
            b = before_headline(texts[sid], a, b)
            text = clean(texts[sid][a:b])
            if not is_prose(text) or tells_a_living_birth(text):
                continue
            if opens_with_pronoun(text):  # quoted with the sentence naming whom, or not
                told = with_referent(texts[sid], spans, i)
                if told is None:
                    continue
                a, text = told
            sents.append((sid, a, b, text, _tokens(text)))
    if not sents:
        return []
    avg = sum(len(s[4]) for s in sents) / len(sents)
    df = {t: sum(1 for s in sents if _matches(t, s[4], s[3].lower(), names)) for t in terms}
    mentions: dict[str, int] = {}
    for sid, _, _, _, toks in sents:
        mentions[sid] = mentions.get(sid, 0) + sum(1 for t in toks if t in names)
    about_names = {sid for sid, n in mentions.items() if n >= ABOUT}
    out = []
    for sid, a, b, text, toks in sents:
        score, found = 0.0, set()
        for t in terms:
            tf = _matches(t, toks, text.lower(), names)
            if not tf:
                continue
            found.add(t)
            idf = math.log(1 + (len(sents) - df[t] + 0.5) / (df[t] + 0.5))
            score += idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * len(toks) / avg))
        named = not names or bool(names & found)
        if found and {t for t in found if not _YEAR.fullmatch(t)} <= qualifiers:
            continue  # "Three German aeroplanes" (in 1916): not the submarines
        n = facets(terms, toks, names) + sum(1 for t in found if " " in t)
        counted = bool(_COUNT.search(text))
        about = sid in about_names and named  # a page about them: its best mention, at least
        if not named or not (n >= need or (names and counted) or about):
            continue
        bonus = 0.1 * (counted + bool(_NAME.search(text))) + 0.3 * bool(
            _DEFINES.search(text)) + 0.25 * max(0, n - 1)
        tier = 0 if n >= need else 1 if names and counted else 2
        out.append(Candidate(sid, a, b, text, round(score * (1 + bonus) / 2 ** tier, 6),
                             asks_answered(text, frozenset(names)), n, tier))
    out.sort(key=lambda c: (-c.score, c.source, c.start))
    return out


def select(found: list[Candidate], asks: list[str], *, limit: int = MAX_STATEMENTS,
           skip: set[str] | None = None) -> list[Candidate]:
    """A bounded set: the best sentence of each source first (sources in the order of their
    best sentence: every source that answers the question is heard), then the best for each
    part of the question, then the rest by score; a sentence too like one already kept (from
    any source) is dropped. A bare mention (tier 2) only ever speaks for its source."""
    skip = skip or set()
    pool = [c for c in found if statement_id(c) not in skip]
    strong = [c for c in pool if c.tier < 2]
    kept: list[Candidate] = []

    def fresh(c: Candidate) -> bool:  # nor a quote that overlaps one kept
        return c not in kept and all(fuzz.token_sort_ratio(c.text, k.text) < 85 and not (
            k.source == c.source and k.start < c.end and c.start < k.end) for k in kept)

    for src in dict.fromkeys(c.source for c in pool):
        best = next((c for c in pool if c.source == src and fresh(c)), None)
        if best is not None and len(kept) < limit:
            kept.append(best)
    for ask in asks:
        best = next((c for c in strong if ask in c.asks and fresh(c)), None)
        if best is not None and len(kept) < limit:
            kept.append(best)
    for c in strong:
        if len(kept) >= limit:
            break
        if fresh(c):
            kept.append(c)
    return kept


def statement_id(c: Candidate) -> str:
    return short_id(KIND, c.source, str(c.start))


def attribution(rec: SourceRecord | None, snap: Snapshot | None) -> tuple[str, str]:
    """("The Barre daily times (Barre, Vt.) reported on 13 November 1916", "1916-11-13") for
    a dated newspaper page; ("Source S001 states", "") for any other (its title, often
    a file's first line, is in the footnote)."""
    day = document_date(snap) if snap is not None and is_newspaper(snap) else None
    if day is None or rec is None:
        return f"Source {rec.id if rec else ''} states".replace("  ", " "), ""
    return f"{rec.title or rec.id} reported on {day.day} {day:%B} {day.year}", day.isoformat()


def related_spans(claim: str, text: str, *, limit: int = 3) -> list[tuple[int, int]]:
    """The sentences of another source about the same thing as `claim`: readable, sharing
    half its content words (three at least) and a name or a number with it; the closest
    first."""
    words = {stem(w) for w in _tokens(claim) if len(w) > 3}
    keys = {w for w in re.findall(r"\b[A-Z][a-z]{2,}\b|\d[\d,]*", claim)}
    scored = []
    for a, b in sentence_spans(text):
        sent = clean(text[a:b])
        if not is_prose(sent) or sent == claim:
            continue
        shared = words & {stem(w) for w in _tokens(sent) if len(w) > 3}
        if len(shared) >= max(3, len(words) // 2) and any(k in sent for k in keys):
            scored.append((-len(shared), a, b))
    return [(a, b) for _, a, b in sorted(scored)[:limit]]


@dataclass
class GeneralComposer:
    """The statements of one synthesis for a question no domain composer answers."""

    question: str
    asks: list[str]
    sources: dict[str, SourceRecord]
    snaps: dict[str, Snapshot]
    contested: dict[str, list[str]]
    withdrawn: set[str]

    def _make(self, c: Candidate, kind: str, section: str) -> Statement:
        rec, snap = self.sources.get(c.source), self.snaps.get(c.source)
        who, iso = attribution(rec, snap)
        quote = one_line(snap.text[c.start:c.end]) if snap else c.text
        page = label = None
        if snap is not None and snap.page_starts:
            page, label = page_of(snap, c.start)
        ask = next((a for a in self.asks if a in c.asks), "what")
        return Statement(
            id=statement_id(c), kind=kind, ask=ask, text=f"{who}: “{c.text}”", claim=c.text,
            source_id=c.source, snapshot_id=rec.snapshot_id if rec else "", start=c.start,
            end=c.end, quote=quote, page=page, page_label=label or "",
            numbers=sorted(set(re.findall(r"\b\d{1,4}\b", c.text))),
            sort=f"{iso or '9999'}|{c.source}|{c.start:09d}", section=section)

    def compose(self) -> list[Statement]:
        texts = {sid: s.text for sid, s in self.snaps.items() if sid in self.sources}
        found = candidates(self.question, texts)
        out: list[Statement] = []
        for c in select(found, self.asks, skip=self.withdrawn):
            sid = statement_id(c)
            if sid not in self.contested:
                out.append(self._make(c, KIND, SECTION))
                continue
            out += self._positions(c, sid)
        seen: set[tuple[str, int]] = set()  # a sentence stated once, as the first position
        return [s for s in out if (s.source_id, s.start) not in seen
                and not seen.add((s.source_id, s.start))]  # type: ignore[func-returns-value]

    def _positions(self, c: Candidate, key: str) -> list[Statement]:
        """A contested statement as its positions: its own source's sentence, and each
        contradicting source's sentence on the same thing, every one attributed."""
        out = []
        own = self._make(c, POSITION, DIFFER)
        own.id, own.contested = short_id(POSITION, key, c.source), key
        own.position = f"{c.source}: “{c.text}”"
        out.append(own)
        for other in self.contested[key]:
            snap = self.snaps.get(other)
            if other == c.source or snap is None:
                continue
            for a, b in related_spans(c.text, snap.text, limit=1):
                alt = Candidate(other, a, b, clean(snap.text[a:b]), 0.0,
                                asks_answered(clean(snap.text[a:b])))
                st = self._make(alt, POSITION, DIFFER)
                st.id, st.contested = short_id(POSITION, key, other), key
                st.position = f"{other}: “{alt.text}”"
                out.append(st)
        return out


def bearing(question: str, text: str) -> int:
    """How much a sentence bears on the question: its facets (`facets`) when it names one
    of the question's names (or the question names none and it meets enough of its terms,
    as `candidates` asks), else 0. What `statements.md` lists first."""
    terms = terms_of(question)
    if not terms:
        return 0
    names = names_of(question)
    toks = _tokens(clean(text))
    if names and not names & set(toks):
        return 0
    n = facets(terms, toks, names)
    if (found := {t for t in terms if any(meets(t, tok, names) for tok in toks)}) and {
            t for t in found if not _YEAR.fullmatch(t)} <= {stem(w) for w in modifiers(question)}:
        return 0  # the qualifier only: about something else
    need = 1 if names else needed(question, terms, names)
    return n if n >= need else 0
