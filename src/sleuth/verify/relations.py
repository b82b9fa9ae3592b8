"""Relation checks: a claim is supported only when its evidence shows the relation its words
stand in, not only the words (issue 24). They can only take `supported` away, never give it.

`claims._align` shows each atom of a claim somewhere in the evidence. For each clause of the
claim with a predicate (its first verb, else its first content word after the subject), the
checks look for one evidence sentence P that shows that predicate together with its details
(the clause's names, dates and numbers other than its subject):

- **one sentence**: every detail is in P, or in a sentence without a verb (a title, byline,
  dateline or heading: context for the page up to the next dateline); a person's name is
  shown whole (P's "Perkins" shows "John Perkins" only where the page writes that name and
  P's Perkins has no other given name: "Robert S. Perkins" is another person, not
  supported); the subject may stand in another
  sentence only when P is linked to it (names it, or says "he", "she", "it"...): otherwise
  "shown only across sentences 3 and 7";
- **roles**: the subject (and the object right after the verb) hold the same roles around
  P's predicate as in the claim, a passive ("Jones was defeated by Smith") read as such:
  "roles reversed", or "'born in Leeds' is said of John Smith" when another name holds the
  subject's place (a relative clause's owner, the name right before the verb), or another
  noun stands before P's verb while the claim's noun heads another clause of P;
- **attachment**: each detail stands in the predicate's clause (or in the front of the
  clauses sharing its subject: "In 1925, Smith married Jones and moved to Leeds");
  `contradicted` when that clause holds another value of the same kind ("the date 1932
  belongs to 'planned', 'opened' has 1935");
- **enumeration**: in "on D1 A and B, on D2 C", a date governs the names after it up to the
  next date: C with D1 is `contradicted`;
- **noun for a verb**: a verb matched by a noun of its stem ("elected" by "election") is
  not shown when another verb governs that noun ("lost the election"): the noun names the
  event, its verb says what the subject did in it, and word matching cannot read the verb.
  The simplest rule that keeps "Smith's election as mayor in 1925" and drops "Smith lost the
  election": the first verb before the noun, with only its determiners and modifiers
  between.

Reciprocal predicates ("married", "met") read the same with their two names swapped.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Literal

from sleuth.verify.clauses import (
    PRONOUNS,
    Clauses,
    Sentence,
    Value,
    Word,
    clauses,
    content_verb,
    name_group,
    noun_before,
    subject_of,
    verb_like,
)


def _words(text: str) -> list[str]:
    return text.split()


# Predicates whose two names can swap without changing what is said.
RECIPROCAL = frozenset(_words("marri wed divorc met meet partner collabor merg"))
_BE = frozenset(_words("is are was were be been being"))
_DETERMINERS = frozenset(_words("the a an his her their its this that these those our my"))


@dataclass(frozen=True)
class Piece:
    """One atom of the claim as the checks see it: its kind and its claim words [first,
    last)."""

    kind: str  # "name", "number", "date", "content", "negation"
    first: int
    last: int


# (piece index, evidence sentence index) -> the character spans in that sentence showing it
Grounder = Callable[[int, int], Sequence[tuple[int, int]]]


@dataclass
class Finding:
    """Why the evidence does not show the claim's relation."""

    verdict: Literal["partially_supported", "not_supported", "contradicted"]
    pieces: list[int]  # the claim pieces not shown in their relation
    evidence: list[tuple[int, int, int]]  # (sentence index, start, end) it points at
    reason: str
    sentence: int = -1  # P, the sentence showing the predicate, when the pieces stand elsewhere


@dataclass
class Outcome:
    finding: Finding | None
    sentences: list[int] = field(default_factory=list)  # the P of each checked clause


@dataclass
class _Clause:
    """A clause of the claim: its predicate piece, subject words, subject and detail pieces."""

    pred: int
    subject: tuple[int, ...]
    subject_pieces: list[int]
    details: list[int]
    pieces: list[int]  # all of the clause's pieces


def check(
    claim: Sentence,
    pieces: Sequence[Piece],
    sentences: Mapping[int, Sentence],
    aligned: Mapping[int, int],
    ground: Grounder,
) -> Outcome:
    """The first relation the evidence does not show, or None with the sentence each claim
    clause rests on. `aligned`: the sentence the alignment shows each piece in (a piece it
    does not show, such as a word read as a paraphrase, is absent)."""
    cl = clauses(claim)
    chosen: list[int] = []
    used = list(dict.fromkeys(aligned.values()))
    for part in _claim_clauses(claim, cl, pieces):
        findings: list[Finding] = []
        found = None
        for si, shown in _candidates(part, sentences, aligned, used, ground):
            f = _one_sentence(claim, pieces, part, sentences, si, ground, shown,
                              aligned) or (
                _within(claim, cl, pieces, part, sentences[si], ground) if shown else None)
            if f is None:
                found = si
                break
            findings.append(f)
        if found is None and findings:
            return Outcome(findings[0])
        if found is not None:
            chosen.append(found)
    return Outcome(None, chosen)


def _candidates(part: _Clause, sentences: Mapping[int, Sentence], aligned: Mapping[int, int],
                used: Sequence[int], ground: Grounder) -> list[tuple[int, bool]]:  # fmt: skip
    """The sentences to read the clause's relation in, and whether each shows its predicate:
    the aligned ones showing the predicate, then any other showing it with every detail;
    when the alignment does not show the predicate (read as a paraphrase), the aligned
    sentence showing most of the clause."""
    if part.pred in aligned:
        first = [si for si in used if ground(part.pred, si)]
        rest = [si for si in sentences if si not in first and ground(part.pred, si)
                and all(ground(k, si) for k in part.details)]  # fmt: skip
        return [(si, True) for si in first + rest]
    best = sorted(used, key=lambda si: -sum(1 for k in part.pieces if ground(k, si)))
    return [(si, False) for si in best[:1]]


def _claim_clauses(claim: Sentence, cl: Clauses, pieces: Sequence[Piece]) -> list[_Clause]:
    out = []
    for c in dict.fromkeys(cl.of):
        mine = [k for k, p in enumerate(pieces) if cl.of[p.first] == c and p.kind != "negation"]
        subject = subject_of(cl, c, fallback=True)
        verb = cl.first_verb(c)
        head = noun_before(cl, verb) if verb is not None and not subject else None
        if head == 0 and claim.text[:1].isupper() and cl.kind[c] != "relative":
            subject = (head,)  # "Villa was killed": a name the lexicon reads as a word
        subj = [k for k in mine if pieces[k].first in subject]
        if cl.kind[c] == "relative":
            subj = [k for k, p in enumerate(pieces) if p.first in subject]
        contents = [k for k in mine if pieces[k].kind == "content"]
        verbs = [k for k in contents if verb_like(claim.words, pieces[k].first)]
        after = [k for k in contents if not subject or pieces[k].first > max(subject)]
        # "X's cabinet appointments have been national calamities": with no content verb,
        # what follows the copula is the predicate, not a word of the subject's phrase
        complement = [k for k in after if verb is not None and pieces[k].first > verb]
        if not contents:
            continue
        pred = (verbs or complement or after or contents)[0]
        details = [k for k in mine if pieces[k].kind in ("name", "number", "date")
                   and k not in subj]  # fmt: skip
        out.append(_Clause(pred, subject, subj, details, mine))
    return out


LINK_REACH = 3  # sentences before P in which a pronoun of P finds its name
SUBJECT_PRONOUNS = frozenset(_words("he she they it we i"))
CONTEXT_WORDS = 12  # a title, byline or heading is short


def _context(s: Sentence) -> bool:
    """A short sentence without a verb (a title, byline, dateline, heading, list entry); a
    label ("Updated: 23 Apr 2019", "Posted:") is no verb. Long is prose whose verbs the word
    forms do not show ("Till sekreterare förordnades den 27 juni 1969 ...")."""
    return len(s.words) <= CONTEXT_WORDS and not any(
        verb_like(s.words, i) and not s.text[s.words[i].end:].startswith(":")
        for i in range(len(s.words)))  # fmt: skip


DATELINE_WORDS = 6  # words beside its date: "Stockholm den 9 maj 1969" has 2


def _dateline(s: Sentence) -> bool:
    """A short context sentence with a date: where and when the page was written
    ("Stockholm den 9 maj 1969"), which the whole page shares. A masthead that runs on into
    headlines ("Volume 21 ... Celina, Ohio, November 24, 1916 ... Scene of Fatal Accident")
    places the paper, not what it reports."""
    times = [v for v in s.values if v.kind == "time"]
    return bool(times) and len(s.words) - sum(v.last - v.first for v in times) <= DATELINE_WORDS


def _governs(sentences: Mapping[int, Sentence], o: int, si: int) -> bool:
    """Whether context sentence `o` dates or places P (`si`): a page's dateline governs the
    text up to the next dateline ("Berlin, May 10.-The Germans have made further progress"
    is not dated by a "May 12." further down the page, past other dispatches' datelines)."""
    lo, hi = sorted((o, si))
    return not any(lo < j < hi and _context(s) and _dateline(s)
                   for j, s in sentences.items())  # fmt: skip


def _positions(s: Sentence, spans: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """Character spans as word ranges [first, last)."""
    out = []
    for a, b in spans:
        idx = [i for i, w in enumerate(s.words) if w.start < b and a < w.end]
        if idx:
            out.append((idx[0], idx[-1] + 1))
    return out


def _text(s: Sentence, first: int, last: int) -> str:
    return s.text[s.words[first].start : s.words[last - 1].end]


def _one_sentence(claim: Sentence, pieces: Sequence[Piece], part: _Clause,
                  sentences: Mapping[int, Sentence], si: int, ground: Grounder,
                  shown: bool = True,
                  aligned: Mapping[int, int] | None = None) -> Finding | None:  # fmt: skip
    """Details from P or a context sentence; a subject elsewhere only when P is linked."""
    p_sent = sentences[si]
    away: list[int] = []
    where: set[int] = set()
    # with its predicate read as a paraphrase, nothing anchors the clause but P: its content
    # words come from P (or the page's context) too
    loose = [k for k in part.pieces if pieces[k].kind == "content" and not shown
             and k != part.pred and k in (aligned or {})
             and k not in part.subject_pieces]  # fmt: skip
    # with it shown, the clause's other content words stand in P, the sentences beside it
    # or a heading before it: "closely contested" from a report of another election
    near = [k for k in part.pieces if pieces[k].kind == "content" and shown
            and k != part.pred and k not in part.subject_pieces]  # fmt: skip
    mine = {w.key for w in claim.words if w.name}
    for k in near:
        o = (aligned or {}).get(k, si)
        if ground(k, si) or abs(o - si) <= 1 or o not in sentences:
            continue
        if not (_context(sentences[o]) or not _foreign(sentences[o], ground(k, o), mine)):
            away.append(k)
            where.add(o)
    for k in [*part.details, *loose]:
        if ground(k, si):
            continue
        others = [o for o in sentences if o != si and ground(k, o)]
        if k in loose and aligned is not None:
            others = [aligned[k]]
        dated = _value_kind(claim, pieces[k])[0] == "time"
        if not any(_context(sentences[o]) and (dated or _dateline(sentences[o]))
                   and _governs(sentences, o, si) for o in others):  # fmt: skip
            away.append(k)
            where.update(others[:1])
    # the subject's words the evidence shows (one read as a paraphrase stands nowhere)
    subject = [k for k in part.subject_pieces if any(ground(k, o) for o in sentences)]
    # a name is shown by a word of it that is no common word ("Gavira" of "General Gavira",
    # "Sanaa" of "Sanaa International Airport"): "General" in P alone is another's title
    whole = subject
    subject = [k for k in subject if not claim.words[pieces[k].first].common] or subject
    if subject and not any(ground(k, si) for k in subject):
        names = {claim.words[pieces[k].first].key for k in subject}
        # a pronoun of P's first words stands for a name of the sentences just before P
        # ("He died in York" after "Smith was born in Leeds"), not for one further on
        near = [o for o in sentences if si - LINK_REACH <= o < si]
        linked = any(w.key in names for w in p_sent.words) or (
            any(w.low in SUBJECT_PRONOUNS for w in p_sent.words[:8])
            and all(any(ground(k, o) for o in near) for k in subject))
        if not linked:  # the page-wide scan only when P names the subject no shorter way
            partners = _name_partners(sentences, subject, pieces, ground) - {
                claim.words[pieces[k].first].key for k in whole}  # "General" of "General Gavira"
            linked = any(w.name and w.key in partners for w in p_sent.words)
        # a title or heading names the subject of the text after it, not before it (a
        # front page's later headline is another story's)
        ctx = all(any(_context(sentences[o]) for o in sentences if o < si and ground(k, o))
                  for k in subject)  # fmt: skip
        if not linked and not ctx:
            away.extend(whole)
            where.update(next(o for o in sentences if o != si and ground(k, o))
                         for k in subject[:1])  # fmt: skip
    person = _person_shown(claim, pieces, part, sentences, si, ground)
    if isinstance(person, Finding):
        return person
    if person:
        away.extend(k for k in person if k not in away)
        where.update(o for o in sentences if o != si and ground(person[0], o))
    if not away:
        return None
    across = sorted({si, *where})
    words = ", ".join(repr(_text(claim, a, b)) for a, b in _phrases(claim, pieces, away))
    pred = _claim_text(claim, pieces[part.pred])
    listing = " and ".join((", ".join(map(str, across[:-1])), str(across[-1])))
    which = f"which shows {pred!r}" if shown else "which shows most of the claim"
    return Finding("partially_supported", away, [],
                   f"shown only across sentences {listing}: {words} not in sentence {si}, "
                   f"{which}", si)  # fmt: skip


# Words that stand before a surname as a title or office, not as a given name ("President
# Wilson" is Woodrow Wilson): the class of honorifics and offices, English and Swedish.
OFFICES = frozenset(_words(
    "mr mrs miss ms messrs dr rev prof sir lady lord dame mme mlle madame herr fru froken "
    "president general gen captain capt colonel col admiral major maj lieutenant lieut lt "
    "sergeant sgt commander governor gov senator sen representative rep judge justice king "
    "queen prince princess emperor duke count pope bishop archbishop cardinal father sister "
    "brother mayor chairman minister secretary chief professor doctor saint st hon "
    "statsradet direktoren ordforanden"))


def _person_shown(claim: Sentence, pieces: Sequence[Piece], part: _Clause,
                  sentences: Mapping[int, Sentence], si: int,
                  ground: Grounder) -> Finding | list[int]:  # fmt: skip
    """A person's name is one atom: "John Perkins" is shown by P's "Perkins" only where P's
    Perkins is no other person ("Robert S. Perkins": not supported) and the page calls
    someone John Perkins (or J. Perkins) in one name; not by a "John" of another sentence.
    Returns the finding, or the name's pieces P leaves unshown, or []."""
    named = _person(claim, pieces, part.subject_pieces)
    in_p = [k for k in named if ground(k, si)]
    missing = [k for k in named if k not in in_p]
    if not in_p or not missing:
        return []
    s = sentences[si]
    words = [claim.words[pieces[k].first] for k in missing]
    places = [_given_names(s, a) for a, _ in _positions(s, ground(in_p[-1], si))]
    if places and all(g and not _same_person(s, g, words) for g in places):
        a, b = places[0][0], places[0][-1] + 1
        b = next((i + 1 for i, _ in _positions(s, ground(in_p[-1], si)) if i >= b - 1), b)
        theirs = _text(s, a, b)
        ours = " ".join(_claim_text(claim, pieces[k]) for k in named)
        return Finding("not_supported", list(named),
                       [(si, s.words[a].start, s.words[b - 1].end)],
                       f"another person: sentence {si} names {theirs!r}, not {ours!r}", si)
    for o, other in sentences.items():
        for a, _ in _positions(other, ground(in_p[-1], o)):
            if _same_person(other, _given_names(other, a), words) and _given_names(other, a):
                return []  # the whole name stands on the page: P calls them by a part of it
    return missing


def _person(claim: Sentence, pieces: Sequence[Piece], subject: Sequence[int]) -> list[int]:
    """The subject's first name written as one person's name: its name pieces side by side
    ("John Perkins", "R. S. Perkins"), offices left out ("Captain"), up to the first other
    word ("Emilee Lindner" of "Emilee Lindner of MTV")."""
    out: list[int] = []
    for k in sorted(subject, key=lambda k: pieces[k].first):
        p = pieces[k]
        if p.kind != "name" or claim.words[p.first].low in OFFICES:
            if out:
                break
            continue
        if out and claim.text[claim.words[pieces[out[-1]].last - 1].end:
                              claim.words[p.first].start] not in (" ", ". ", "-"):
            break
        out.append(k)
    return out


def _given_names(s: Sentence, i: int) -> list[int]:
    """The words before name word `i` that name the same person: given names and initials
    ("Robert S." of "Robert S. Perkins")."""
    out: list[int] = []
    j = i - 1
    while j >= 0:
        w = s.words[j]
        gap = s.text[w.end : s.words[j + 1].start]
        initial = w.end - w.start == 1 and s.text[w.start].isupper() and gap.startswith(".")
        if w.low in OFFICES or not ((w.name and gap in (" ", "-"))
                                    or (initial and gap == ". ")):  # fmt: skip
            break
        out.insert(0, j)
        j -= 1
    return out


def _same_person(s: Sentence, given: Sequence[int], claimed: Sequence[Word]) -> bool:
    """Whether each given name of the claim is one of `given` or its initial."""
    theirs = [s.words[i].low for i in given]
    return all(any(t == c.low or (len(t) == 1 and c.low.startswith(t))
                   or (len(c.low) == 1 and t.startswith(c.low)) for t in theirs)
               for c in claimed)  # fmt: skip


def _foreign(s: Sentence, spans: Sequence[tuple[int, int]], mine: set[str]) -> bool:
    """Whether each place the word stands in `s` is said of a named subject the claim does not
    name ("... Crewdson ... was re-elected; the election was closely contested")."""
    cl = clauses(s)
    for a, _ in _positions(s, spans):
        c = cl.of[a]
        subject = subject_of(cl, c) or _front(cl, a)
        if not subject or any(s.words[i].low in PRONOUNS for i in subject) or {
                s.words[i].key for i in subject} & mine:
            return False
    return True


def _name_partners(sentences: Mapping[int, Sentence], subject: Sequence[int],
                   pieces: Sequence[Piece], ground: Grounder) -> set[str]:
    """The other words of the names the subject's name stands in ("Frank" of "Frank Gehry"):
    a sentence calling the subject by one of them still names it."""
    out: set[str] = set()
    for k in subject:
        for o, s in sentences.items():
            for a, _ in _positions(s, ground(k, o)):
                group = {*name_group(s, a), *name_group(s, a, forward=False)}
                out.update(s.words[i].key for i in group if i != a)
    return out


def _phrases(claim: Sentence, pieces: Sequence[Piece], ks: Sequence[int]) -> list[tuple[int, int]]:
    """The pieces as phrases: "Mary Jones" rather than 'Mary', 'Jones'."""
    out: list[list[int]] = []
    for k in sorted(ks, key=lambda k: pieces[k].first):
        p = pieces[k]
        if out and out[-1][1] == p.first and claim.text[
            claim.words[p.first - 1].end : claim.words[p.first].start
        ] in (" ", "-"):
            out[-1][1] = p.last
        else:
            out.append([p.first, p.last])
    return [(a, b) for a, b in out]


def _claim_text(claim: Sentence, piece: Piece) -> str:
    return _text(claim, piece.first, piece.last)


def _within(claim: Sentence, ccl: Clauses, pieces: Sequence[Piece], part: _Clause,
            p_sent: Sentence, ground: Grounder) -> Finding | None:  # fmt: skip
    """The checks inside P, for each place P shows the predicate; the first finding of the
    first place when no place passes them all."""
    cl = clauses(p_sent)
    first: Finding | None = None
    for occ, _ in _positions(p_sent, ground(part.pred, p_sent.index)):
        f = (_noun_for_verb(claim, pieces, part, cl, occ)
             or _title_of(claim, pieces, part, cl, occ)
             or _roles(claim, ccl, pieces, part, cl, occ)
             or _attachment(claim, pieces, part, cl, occ, ground)
             or _enumeration(claim, pieces, part, cl, occ, ground))  # fmt: skip
        if f is None:
            return _other_roles(claim, pieces, part, cl, ground)
        if first is None or (f.verdict == "contradicted" != first.verdict):
            first = f  # the place that states another value says most
    return first


def _other_roles(claim: Sentence, pieces: Sequence[Piece], part: _Clause, cl: Clauses,
                 ground: Grounder) -> Finding | None:
    """A second title the claim adds with "also" ("som sakkunnig, tillika ordförande"): it
    is the subject's only where P does not give it to another person at each place."""
    s = cl.sentence
    for k in part.pieces:
        q = pieces[k].first
        if k == part.pred or pieces[k].kind != "content" or q == 0 or (
                claim.words[q - 1].low not in _ALSO_WORDS):
            continue
        found = [_title_of(claim, pieces, part, cl, occ, k)
                 for occ, _ in _positions(s, ground(k, s.index))]
        if found and all(found):
            return found[0]
    return None


def _noun_for_verb(claim: Sentence, pieces: Sequence[Piece], part: _Clause, cl: Clauses,
                   occ: int) -> Finding | None:  # fmt: skip
    s = cl.sentence
    if not verb_like(claim.words, pieces[part.pred].first) or verb_like(s.words, occ):
        return None
    j = occ - 1
    while j >= 0 and cl.of[j] == cl.of[occ] and occ - j <= 4:
        w = s.words[j]
        if content_verb(s.words, j):
            word = _text(s, occ, occ + 1)
            return Finding("partially_supported", [part.pred], [(s.index, w.start, w.end)],
                           f"{_claim_text(claim, pieces[part.pred])!r} is matched only by "
                           f"the noun {word!r} in sentence {s.index}, whose verb is "
                           f"{_text(s, j, j + 1)!r}")  # fmt: skip
        if w.name or w.value or w.low in ("of", "for", "in", "on", "at", "to", "by", "with"):
            return None
        j -= 1
    return None


_COPULA = _BE | frozenset(_words("var är vara varit blev became become becomes"))
_ALSO_WORDS = frozenset(_words("tillika även likaså also"))
_AS_WORDS = frozenset(_words("as som såsom till to"))
_OF_WORDS = frozenset(_words("of for in on at to by with from and or och av för i på till med"))


def _title_of(claim: Sentence, pieces: Sequence[Piece], part: _Clause, cl: Clauses,
              occ: int, role: int | None = None) -> Finding | None:  # fmt: skip
    """A noun said of the subject ("Eriksson was a member of parliament", "tillkallades
    Hugosson som ordförande") that P puts right before another person's name: a title
    belongs to the name it leads ("riksdagsledamoten Kurt Hugosson", "the architect Frank
    Gehry"). `role`: the claim's noun (the predicate unless given)."""
    role = part.pred if role is None else role
    q = pieces[role].first
    names = {claim.words[i].key for i in part.subject if claim.words[i].name}
    if not names or verb_like(claim.words, q) or q < max(part.subject):
        return None
    # and the names between the subject and the noun: in a clause that opens with its verb
    # ("Tillkallades den 9 maj 1969 Rune Hermansson som sakkunniga, tillika ordförande") the
    # subject follows the verb
    names |= {claim.words[i].key for i in range(max(part.subject) + 1, q) if claim.words[i].name}
    if not any(claim.words[i].low in _COPULA | _AS_WORDS for i in range(max(part.subject) + 1, q)):
        return None  # only a noun the claim says the subject is ("Eriksson var riksdagsledamot",
        # "... som ordförande")
    s = cl.sentence
    if s.text[s.words[occ].start].isupper():
        return None  # a title in Title Case ("Style Video Brings Out ...") leads no name
    if occ > 0 and s.words[occ - 1].low in _AS_WORDS:
        return None  # "som sakkunniga verkställande direktören Rune Hermansson, ...": a role
        # after "as" is the whole list's
    if occ > 1 and s.words[occ - 1].low in _ALSO_WORDS and s.words[occ - 2].name and "," in \
            s.text[s.words[occ - 2].end:s.words[occ - 1].start]:
        # "Rune Hermansson, tillika ordförande, riksdagsledamoten Erik Adamsson": a role
        # added with "also" is the name's before it
        a, b = name_span(s, occ - 2)
        return _held_by(claim, pieces, part, s, names, range(a, b), role)
    j = occ + 1
    # one space, or a line-end hyphen ("riksdagsleda- mötema Åke Polstam")
    while j < len(s.words) and j - occ <= 3 and s.text[
            s.words[j - 1].end:s.words[j].start].lstrip("-").isspace():
        w = s.words[j]
        if w.name:
            return _held_by(claim, pieces, part, s, names, name_group(s, j), role)
        if w.value or w.low in _OF_WORDS or w.low in _DETERMINERS or not w.low.isalpha():
            return None
        j += 1
    return None


def _held_by(claim: Sentence, pieces: Sequence[Piece], part: _Clause, s: Sentence,
             names: set[str], holder: Sequence[int], role: int) -> Finding | None:  # fmt: skip
    """None when the title's holder is the claim's subject, else who P says holds it."""
    if names & {s.words[i].key for i in holder}:
        return None
    first, last = min(holder), max(holder)
    return Finding("partially_supported", list(part.subject_pieces),
                   [(s.index, s.words[first].start, s.words[last].end)],
                   f"{_claim_text(claim, pieces[role])!r} is said of "
                   f"{_text(s, first, last + 1)!r} in sentence {s.index}")  # fmt: skip


def _voice(s: Sentence, cl: Clauses, occ: int) -> tuple[bool, tuple[int, ...]]:
    """Passive or not, and the agent after "by" when there is one."""
    j = occ - 1
    while j >= 0 and s.words[j].low in ("also", "later", "then", "not", "never", "first"):
        j -= 1
    passive = j >= 0 and s.words[j].low in _BE and not s.words[occ].low.endswith("ing")
    for k in range(occ + 1, len(s.words) - 1):
        if cl.of[k] != cl.of[occ]:
            break
        if s.words[k].low == "by" and s.words[k + 1].name:
            return True, name_group(s, k + 1)
    return passive, ()


def _object(s: Sentence, cl: Clauses, occ: int) -> tuple[int, ...]:
    """The name right after the verb, or after its "to" ("sent to President Wilson" holds the
    place of "sent Wilson")."""
    k = occ + 1
    if k < len(s.words) and s.words[k].low == "to":
        k += 1
    if k < len(s.words) and s.words[k].low in _DETERMINERS:
        k += 1
    if k < len(s.words) and cl.of[k] == cl.of[occ] and s.words[k].name:
        return name_group(s, k)
    return ()


def _roles(claim: Sentence, ccl: Clauses, pieces: Sequence[Piece], part: _Clause,
           cl: Clauses, occ: int) -> Finding | None:  # fmt: skip
    s = cl.sentence
    q = pieces[part.pred].first
    # "Villa was killed": a name the lexicon reads as a word still holds the subject's place
    c_subject = tuple(i for i in part.subject if claim.words[i].name) or tuple(
        i for i in part.subject[:1] if i == 0 and claim.text[:1].isupper()
        and len(part.subject) == 1 and claim.words[i].low not in PRONOUNS)
    c_passive, c_agent = _voice(claim, ccl, q)
    c_roles = ((c_agent, c_subject) if c_passive else (c_subject, _object(claim, ccl, q)))
    e_subject = subject_of(cl, cl.of[occ])
    pronoun = any(s.words[i].low in PRONOUNS for i in e_subject)
    e_subject = () if pronoun else e_subject
    e_passive, e_agent = _voice(s, cl, occ)
    e_roles = ((e_agent, e_subject) if e_passive else (e_subject, _object(s, cl, occ)))
    if not c_subject:
        other = _other_noun(claim, ccl, pieces, q, cl, occ)
        if other is not None:
            return other
    keys = [{claim.words[i].key for i in r} for r in c_roles]
    front = () if e_subject or pronoun else _front(cl, occ)
    objects = _objects_before(cl, occ) if front else set()
    if front and not {claim.words[i].key for i in c_subject} & {
            s.words[i].key for i in cl.words_of(cl.of[occ]) if i < occ and i not in objects}:
        e_subject = front
        e_roles = (e_agent, front) if e_passive else (front, e_roles[1])
    e_keys = [_group_keys(s, r) for r in e_roles]
    pred = _claim_text(claim, pieces[part.pred])
    if claim.words[q].key in RECIPROCAL:
        c_all, e_all = keys[0] | keys[1], e_keys[0] | e_keys[1]
        if c_all and e_all and not c_all & e_all:
            return _said_of(claim, pieces, part, s, e_roles[0] + e_roles[1], pred, "")
        return None
    for role in (0, 1):
        if not keys[role] or not e_keys[role] or keys[role] & e_keys[role]:
            continue
        if keys[role] & e_keys[1 - role]:
            a, b = min(e_roles[0] + e_roles[1]), max(e_roles[0] + e_roles[1])
            lo, hi = min(a, occ), max(b, occ)
            said = _text(s, lo, hi + 1)
            return Finding("partially_supported",
                           [k for k in range(len(pieces)) if pieces[k].first in
                            c_roles[0] + c_roles[1]],
                           [(s.index, s.words[lo].start, s.words[hi].end)],
                           f"roles reversed: sentence {s.index} says {said!r}")  # fmt: skip
        own = c_roles[role] == c_subject
        return _said_of(claim, pieces, part, s, e_roles[role], pred,
                        "" if own else ("agent", "object")[role])
    return None


def _group_keys(s: Sentence, group: Sequence[int]) -> set[str]:
    """The keys of a name group's words, and of a name OCR cut in two at its end ("by Car
    ranza forces": "carranza")."""
    keys = {s.words[i].key for i in group}
    if group and max(group) + 1 < len(s.words):
        a, b = s.words[max(group)], s.words[max(group) + 1]
        if s.text[a.end:b.start] in (" ", "-", "- ") and s.text[b.start].islower():
            keys.add(a.low + b.low)
    return keys


def _objects_before(cl: Clauses, occ: int) -> set[int]:
    """The names that are the object of a verb before `occ` in its clause: "sent to President
    Wilson a telegram congratulating him" names Wilson before "congratulating" as the one
    sent to, not as who congratulates."""
    s = cl.sentence
    return {i for k in cl.words_of(cl.of[occ]) if k < occ and verb_like(s.words, k)
            for i in _object(s, cl, k)}


def _front(cl: Clauses, occ: int) -> tuple[int, ...]:
    """The name group that opens the verb's clause when it is set off from the verb by an
    apposition ("Charles E. Hughes, the Republican candidate, sent ...") or by an OCR
    fragment ("General Ignacio Ra mos was killed"); else none."""
    s = cl.sentence
    words = cl.words_of(cl.of[occ])
    group = name_group(s, words[0]) if words else ()
    for a, b in pairwise(group):  # "Hughes, Republican candidate": an
        if "," in s.text[s.words[a].end : s.words[b].start]:  # apposition, not a list
            group = group[: group.index(b)]
            break
    if not group or max(group) >= occ:
        return ()
    nxt = max(group) + 1
    gap = s.text[s.words[nxt - 1].end : s.words[nxt].start]
    w = s.words[nxt]
    fragment = (gap == " " and len(w.low) <= 3 and w.low.isalpha()
                and s.text[w.start].islower() and nxt + 1 < len(s.words)
                and verb_like(s.words, nxt + 1))  # fmt: skip
    return group if "," in gap or fragment else ()


def _other_noun(claim: Sentence, ccl: Clauses, pieces: Sequence[Piece], q: int, cl: Clauses,
                occ: int) -> Finding | None:  # fmt: skip
    """A subject that is a common noun ("The factory employed ..."): P's predicate has another
    noun right before it, while the claim's noun stands before another verb of P ("The mill
    employed 1,285 workers, and the factory employed 600")."""
    s = cl.sentence
    mine, theirs = noun_before(ccl, q), noun_before(cl, occ)
    if mine is None or theirs is None or s.words[theirs].key == claim.words[mine].key:
        return None
    for c in set(cl.of) - {cl.of[occ]}:
        verb = cl.first_verb(c)
        head = noun_before(cl, verb) if verb is not None else None
        if head is not None and s.words[head].key == claim.words[mine].key:
            who = _text(s, theirs, theirs + 1)
            named = [k for k, p in enumerate(pieces) if p.first == mine]
            return Finding("partially_supported", named, [(s.index, s.words[theirs].start,
                                                        s.words[theirs].end)],
                           f"{_text(claim, q, q + 1)!r} is said of {who!r} in sentence "
                           f"{s.index}, not of {_text(claim, mine, mine + 1)!r}")  # fmt: skip
    return None


def _said_of(claim: Sentence, pieces: Sequence[Piece], part: _Clause, s: Sentence,
             holder: tuple[int, ...], pred: str, role: str) -> Finding:  # fmt: skip
    who = _text(s, min(holder), max(holder) + 1)
    phrase = _phrase(claim, pieces, part)
    claimed = [k for k in range(len(pieces)) if pieces[k].first in part.subject] or [part.pred]
    what = f"has {who!r} as its {role}" if role else f"is said of {who!r}"
    return Finding("partially_supported", claimed,
                   [(s.index, s.words[min(holder)].start, s.words[max(holder)].end)],
                   f"{phrase!r} {what} in sentence {s.index}")  # fmt: skip


def _phrase(claim: Sentence, pieces: Sequence[Piece], part: _Clause) -> str:
    """The claim's predicate with its details after it ("born in Leeds")."""
    q = pieces[part.pred].first
    last = max([pieces[k].last for k in part.details if pieces[k].first > q] or
               [pieces[part.pred].last])  # fmt: skip
    return _text(claim, q, last)


def _values(s: Sentence, kind: str, words: list[int], unit: str = "") -> list[Value]:
    return [v for v in s.values if v.kind == kind and v.first in words
            and (kind != "number" or not unit or v.unit == unit)]  # fmt: skip


def _value_kind(claim: Sentence, piece: Piece) -> tuple[str, str]:
    if piece.kind == "date" or claim.words[piece.first].value == "time":
        return "time", ""
    if piece.kind == "number":
        v = next((v for v in claim.values if v.first == piece.first), None)
        return "number", v.unit if v else ""
    return "", ""


def _attachment(claim: Sentence, pieces: Sequence[Piece], part: _Clause, cl: Clauses,
                occ: int, ground: Grounder) -> Finding | None:  # fmt: skip
    s = cl.sentence
    c = cl.of[occ]
    root = cl.chain_root(c)
    verb = cl.first_verb(root)
    front = [i for i in cl.words_of(root) if verb is not None and i < verb]
    own = set(cl.words_of(c))
    if cl.kind[c] == "where":
        own.update(cl.owner[c])
    nxt = c + 1
    if (occ + 1 < len(s.words) and cl.of[occ + 1] == nxt < len(cl.kind)
            and cl.parent[nxt] == c):  # "born and raised in Leeds": the details are shared
        own.update(cl.words_of(nxt))
    shown = {k: _positions(s, ground(k, s.index)) for k in range(len(pieces))}
    claimed_words = {i for spans in shown.values() for a, b in spans for i in range(a, b)}
    for k in part.details:
        spans = shown[k]
        if not spans or any(a in own for a, _ in spans):
            continue
        kind, unit = _value_kind(claim, pieces[k])
        others = [v for v in _values(s, kind, sorted(own), unit) if v.first not in
                  claimed_words] if kind else []  # fmt: skip
        if not others and any(a in front for a, _ in spans):
            continue
        a, b = spans[0]
        verb_there = _verb_of(cl, cl.of[a])
        what = {"time": "the date", "number": "the number"}.get(kind, "")
        value = _text(s, a, b)
        pred = _text(s, occ, occ + 1)
        owner = (f"belongs to {verb_there!r}" if verb_there and verb_there != pred
                 else "stands in another clause")
        if others:
            other = others[0]
            has = _text(s, other.first, other.last)
            return Finding("contradicted", [k],
                           [(s.index, s.words[other.first].start, s.words[other.last - 1].end)],
                           f"{what} {value} {owner}, {pred!r} has {has} "
                           f"(sentence {s.index})")  # fmt: skip
        label = f"{what} {value}" if what else repr(value)
        return Finding("partially_supported", [k],
                       [(s.index, s.words[a].start, s.words[b - 1].end)],
                       f"{label} {owner}, not to {pred!r} (sentence {s.index})")
    return None


def _verb_of(cl: Clauses, c: int) -> str:
    s = cl.sentence
    verbs = [i for i in cl.words_of(c) if content_verb(s.words, i)]
    verbs = verbs or [i for i in cl.words_of(c) if verb_like(s.words, i)]
    return _text(s, verbs[0], verbs[0] + 1) if verbs else ""


def _enumeration(claim: Sentence, pieces: Sequence[Piece], part: _Clause, cl: Clauses,
                 occ: int, ground: Grounder) -> Finding | None:  # fmt: skip
    """"On D1 A and B, on D2 C": a date governs the names after it up to the next date that
    follows names of its own (not "on D1, with effect from D2, C": D2 is D1's)."""
    s = cl.sentence
    c = cl.of[occ]
    shown = {k: _positions(s, ground(k, s.index)) for k in range(len(pieces))}
    claimed_words = {i for spans in shown.values() for a, b in spans for i in range(a, b)}
    times = [v for v in s.values if v.kind == "time" and cl.of[v.first] == c
             and v.first not in claimed_words]  # fmt: skip
    named = [i for i, w in enumerate(s.words) if w.name]
    names = [k for k in part.subject_pieces + part.details if pieces[k].kind == "name"]
    for k in part.details:
        if _value_kind(claim, pieces[k])[0] != "time":
            continue
        for d_first, d_last in shown[k]:
            for n in names:
                spots = [a for a, _ in shown[n] if cl.of[a] == c]
                before = _governed_before(s, times, named, spots, d_first, d_last)
                if before is not None:
                    gov, a = before
                    return Finding("contradicted", [k],
                                   [(s.index, s.words[gov.first].start,
                                     s.words[gov.last - 1].end)],
                                   f"{_text(s, gov.first, gov.last)!r} governs "
                                   f"{_text(s, *name_span(s, a))!r}; "
                                   f"{_text(s, d_first, d_last)!r} governs the names after "
                                   f"it (sentence {s.index})")  # fmt: skip
                nxt = [v for v in times if any(d_last <= i < v.first for i in named)]
                if not spots or any(a < d_first or not _between(nxt, d_last, a)
                                    for a in spots):  # fmt: skip
                    continue
                gov = max((v for v in nxt if d_last <= v.first and v.last <= spots[0]),
                          key=lambda v: v.first)
                name = _text(s, *name_span(s, spots[0]))
                return Finding("contradicted", [k],
                               [(s.index, s.words[gov.first].start,
                                 s.words[gov.last - 1].end)],
                               f"{_text(s, d_first, d_last)!r} governs the names after it "
                               f"up to {_text(s, gov.first, gov.last)!r}, which governs "
                               f"{name!r} (sentence {s.index})")  # fmt: skip
    return None


def _governed_before(s: Sentence, times: list[Value], named: list[int], spots: list[int],
                     d_first: int, d_last: int) -> tuple[Value, int] | None:  # fmt: skip
    """"On D0 A and B, on D C" with A claimed on D: the full date just before A (no other date
    between), when D is a full date with names of its own after it, governs A."""
    if d_last - d_first < 3 or not any(d_last <= i for i in named) or any(
            a >= d_last for a in spots):
        return None  # D no full date, or with no names of its own, or the name is after it
    for a in spots:
        if a >= d_first:
            continue
        prior = [v for v in times if v.last <= a]
        if not prior:
            continue
        gov = max(prior, key=lambda v: v.first)
        if gov.last - gov.first >= 3:
            return gov, a
    return None


def _between(times: list[Value], after: int, before: int) -> bool:
    return any(after <= v.first and v.last <= before for v in times)


def name_span(s: Sentence, i: int) -> tuple[int, int]:
    """The words of the one name at word `i` ("Hans-Olof Hansson")."""
    a = b = i
    while a > 0 and s.words[a - 1].name and s.text[s.words[a - 1].end : s.words[a].start] in (
        " ", "-"
    ):
        a -= 1
    while b + 1 < len(s.words) and s.words[b + 1].name and s.text[
        s.words[b].end : s.words[b + 1].start
    ] in (" ", "-"):
        b += 1
    return a, b + 1
