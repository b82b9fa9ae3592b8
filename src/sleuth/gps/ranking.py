"""Ranking competing values of one fact by the Evidence Explained classes and independence.

The Analyst's question is "which value does the evidence support?", not "which claim has
the highest number". So, for one person and one single-valued field:

1. **Values, not claims.** Claims with the same value (the same date range, the same place
   once country words are set aside, the same folded text) are one value with several
   citations: it is ranked once. Values that overlap (a year and a day inside it, "Zennor,
   Cornwall" and "Zennor, Cornwall, England") agree; only values that cannot both be true
   are in conflict.
2. **Witnesses, not copies.** Each citation is a witness weighed by `gps.weights`
   (original 1.0 / derivative 0.9 / authored 0.8 × primary 1.0 / secondary 0.7 /
   undetermined 0.5 × tier × confidence). Witnesses sharing an origin
   (`gps.independence.origin_keys`: the same snapshot, ARK, certificate number, WikiTree
   profile, memorial, or any compiled work: user trees copy one another) are one witness,
   weighed as its best copy. A value's support is `1 - Π(1 - w)` over its independent
   witnesses and those of less precise values that contain it ("1846" supports
   "22 January 1846"). One original record therefore outweighs any number of tree copies.
3. **Corroboration across events.** A birth shortly before a recorded baptism (within a
   year), a death shortly before a burial (within 60 days), or a birth that fits an age at
   death is supported by that record as indirect evidence (× 0.75). A birth after a
   baptism, or a death after a burial, stated by a record (not a tree), is impossible:
   that value keeps a fifth of its support; a value with no rival that a record rules out
   is a conflict too (tentative: the date, or the link between the two records, is wrong).
   A birth that no death date on file fits with a stated age at death (born 10 Nov 1745,
   died 5 Dec 1812, "aged 68": he was 67) is said to disagree, and a lone birth value that
   does is a tentative conflict: informants misstate ages, so the age does not lower the
   birth's support, but the disagreement is shown. Both dates' ranges are used, so a year
   or an "about" leaves the age its tolerance; two exact days leave none.
4. **Decision.** The best-supported value wins; ties go to the value backed by a record,
   then the more precise one, then the text. The result is tentative when the strongest
   disagreeing value has at least `TENTATIVE_MARGIN` of the winner's support, or when the
   winner rests only on compiled works. The rationale says all this in words.

Claims built without citation details (`Claim.witnesses` empty: older callers and tests)
are weighed with seed 001's single axis (`model.claim_weight`), each its own witness.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta

from sleuth.extract.places import PLACE_NOISE
from sleuth.gps.words import date_words
from sleuth.model import EvidenceType, GenDate, Tier, claim_weight
from sleuth.model.ages import birth_window, stated_years
from sleuth.model.evidence import InformationClass, SourceClass
from sleuth.verify.normalise import fold

TENTATIVE_MARGIN = 0.8  # a rival with 80% of the winner's support leaves it tentative
INDIRECT = 0.75  # a corroborating event weighs as indirect evidence
IMPOSSIBLE = 0.2  # what is left of a value a record shows to be impossible
BAPTISM_WINDOW = timedelta(days=366)
BURIAL_WINDOW = timedelta(days=60)

_LEGACY = {
    EvidenceType.PRIMARY: (SourceClass.ORIGINAL, InformationClass.PRIMARY),
    EvidenceType.SECONDARY: (SourceClass.DERIVATIVE, InformationClass.SECONDARY),
    EvidenceType.AUTHORED: (SourceClass.AUTHORED, InformationClass.UNDETERMINED),
}


@dataclass(frozen=True)
class Witness:
    """One citation of a claim, classified: what a conflict is decided on."""

    weight: float
    source: SourceClass
    information: InformationClass
    origins: frozenset[str]  # `gps.independence.origin_keys`: shared key = one original
    name: str = ""  # "the WikiTree profile Garside-24"

    @property
    def record(self) -> bool:
        return self.source is not SourceClass.AUTHORED


@dataclass(frozen=True)
class Claim:
    """One assertion bearing on a single-valued field, with its classified citations."""

    assertion_id: str
    value: str
    date: GenDate | None
    evidence_type: EvidenceType
    tier: Tier
    confidence: float
    witnesses: tuple[Witness, ...] = ()

    def weighed(self) -> tuple[Witness, ...]:
        if self.witnesses:
            return self.witnesses
        src, inf = _LEGACY[EvidenceType(self.evidence_type)]
        return (Witness(claim_weight(self.evidence_type, self.tier, self.confidence), src, inf,
                        frozenset({f"claim:{self.assertion_id}"}),
                        f"a {EvidenceType(self.evidence_type)} source"),)


@dataclass
class Value:
    """Claims that state the same value, and what supports it."""

    key: str
    claims: list[Claim]
    gd: GenDate | None
    tokens: frozenset[str]
    text: str
    support: float = 0.0
    own: list[list[Witness]] = field(default_factory=list)  # independent groups, own claims
    borrowed: list[str] = field(default_factory=list)  # less precise values that agree
    corroboration: list[tuple[str, Witness]] = field(default_factory=list)
    impossible: list[str] = field(default_factory=list)
    disagree: list[str] = field(default_factory=list)  # events that do not fit it (an age)

    @property
    def witnesses(self) -> list[Witness]:
        return [w for c in self.claims for w in c.weighed()]

    @property
    def has_record(self) -> bool:
        return any(w.record for w in self.witnesses)

    @property
    def span(self) -> int:
        if self.gd is None or self.gd.earliest is None or self.gd.latest is None:
            return 10**9 - len(self.tokens)
        return (self.gd.latest - self.gd.earliest).days

    @property
    def best(self) -> Claim:
        return min(self.claims, key=lambda c: (-max(w.weight for w in c.weighed()),
                                               -c.confidence, c.assertion_id))

    @property
    def words(self) -> str:
        return date_words(self.gd, self.text) if self.gd is not None else self.text


def _place(field: str) -> bool:
    return field.endswith("_place") or field in ("residence", "place")


def _dated(gd: GenDate | None) -> bool:
    return gd is not None and gd.earliest is not None and gd.latest is not None


def value_key(field: str, value: str, gd: GenDate | None) -> tuple[str, frozenset[str]]:
    """What makes two stated values the same value: the date range, a place's words less
    country words, else the folded text (with the words, for places and text)."""
    if _dated(gd):
        assert gd is not None
        return f"d:{gd.earliest}:{gd.latest}", frozenset()
    words = fold(value).split()
    if _place(field):
        tokens = frozenset(w for w in words if w not in PLACE_NOISE) or frozenset(words)
        return "p:" + " ".join(sorted(tokens)), tokens
    return "t:" + " ".join(words), frozenset(words)


def values_of(field: str, claims: Sequence[Claim]) -> list[Value]:
    """The distinct values among the claims (identical values merged), in key order."""
    by: dict[str, Value] = {}
    for c in sorted(claims, key=lambda c: c.assertion_id):
        key, tokens = value_key(field, c.value, c.date)
        v = by.get(key)
        if v is None:
            by[key] = Value(key, [c], c.date if _dated(c.date) else None, tokens, c.value)
        else:
            v.claims.append(c)
    for v in by.values():
        v.text = v.best.value
    return [by[k] for k in sorted(by)]


def _contains(a: Value, b: Value) -> bool:
    """`a` is no more precise than `b` and agrees with it (b implies a)."""
    if a.gd is not None and b.gd is not None:
        assert a.gd.earliest and a.gd.latest and b.gd.earliest and b.gd.latest
        return a.gd.earliest <= b.gd.earliest and b.gd.latest <= a.gd.latest
    if a.tokens and b.tokens:
        return a.tokens <= b.tokens
    x, y = " ".join(fold(a.text).split()), " ".join(fold(b.text).split())
    return x == y or (bool(x) and f" {x} " in f" {y} ")


def compatible(a: Value, b: Value) -> bool:
    """Two values can both be true (overlapping dates, a place that names the other)."""
    if a.gd is not None and b.gd is not None:
        return a.gd.overlaps(b.gd)
    return _contains(a, b) or _contains(b, a)


def independent(witnesses: Sequence[Witness]) -> list[list[Witness]]:
    """Witnesses grouped by shared origin (union-find over origin keys), in a stable order."""
    parent = list(range(len(witnesses)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    seen: dict[str, int] = {}
    for i, w in enumerate(witnesses):
        for k in sorted(w.origins):
            j = seen.setdefault(k, i)
            a, b = find(i), find(j)
            if a != b:
                parent[max(a, b)] = min(a, b)
    groups: dict[int, list[Witness]] = {}
    for i, w in enumerate(witnesses):
        groups.setdefault(find(i), []).append(w)
    return [groups[k] for k in sorted(groups)]


def combined(weights: Sequence[float]) -> float:
    miss = 1.0
    for w in weights:
        miss *= 1.0 - max(0.0, min(1.0, w))
    return 1.0 - miss


# -- corroboration across events -----------------------------------------------------------
def _best_record(claims: Sequence[Claim]) -> list[tuple[Claim, Witness]]:
    out = []
    for c in claims:
        ws = [w for w in c.weighed() if w.record]
        if ws and _dated(c.date):
            out.append((c, max(ws, key=lambda w: (w.weight, w.name))))
    return out


def _birth_window(age: Claim, death: Claim) -> tuple[date, date] | None:
    """The births the stated age allows at this death (`model.ages`), if both say one."""
    years = stated_years(fold(age.value))
    if years is None or not _dated(death.date):
        return None
    assert death.date is not None and death.date.earliest and death.date.latest
    return birth_window(years, (death.date.earliest, death.date.latest))


def corroborate(field: str, v: Value, related: Mapping[str, Sequence[Claim]]) -> None:
    """Attach the other events' evidence for or against this value (see module)."""
    if v.gd is None or v.gd.earliest is None or v.gd.latest is None:
        return
    lo, hi = v.gd.earliest, v.gd.latest
    rules = {"birth_date": ("baptism_date", "baptism", BAPTISM_WINDOW),
             "death_date": ("burial_date", "burial", BURIAL_WINDOW)}
    if field in rules:
        other, noun, window = rules[field]
        for c, w in _best_record(related.get(other, ())):
            assert c.date is not None and c.date.earliest and c.date.latest
            when = date_words(c.date, c.value)
            if lo > c.date.latest:
                v.impossible.append(f"it falls after the {noun} of {when} recorded in "
                                    f"{w.name}, which is impossible")
            elif c.date.earliest - hi <= window and hi <= c.date.latest:
                v.corroboration.append((f"the {noun} of {when} recorded in {w.name}",
                                        Witness(w.weight * INDIRECT, w.source, w.information,
                                                w.origins, w.name)))
    if field == "birth_date":
        for age in related.get("age_at_death", ()):
            w = max(age.weighed(), key=lambda x: (x.weight, x.name))
            aged = " ".join(fold(age.value).split())
            spans = [(span, death) for death in related.get("death_date", ())
                     if (span := _birth_window(age, death)) is not None]
            if any(s[0] <= hi and lo <= s[1] for s, _ in spans):
                v.corroboration.append((f"the age at death, {aged}, in {w.name}",
                                        Witness(w.weight * INDIRECT, w.source, w.information,
                                                w.origins, w.name)))
            elif spans:  # each death date on file puts the birth elsewhere
                (first, last), death = min(spans, key=lambda sd: (sd[1].assertion_id, sd[0]))
                assert death.date is not None
                v.disagree.append(
                    f"the age at death, {aged}, in {w.name}, with the death on "
                    f"{date_words(death.date, death.value)}, puts the birth between "
                    f"{_words(first)} and {_words(last)}")


def _words(d: date) -> str:
    return date_words(GenDate.from_parts(d.year, d.month, d.day))


def _score(v: Value, values: Sequence[Value]) -> None:
    lend = [u for u in values if u is not v and _contains(u, v)]
    mine = v.witnesses
    pool = [*mine, *(w for u in lend for w in u.witnesses), *(w for _, w in v.corroboration)]
    v.own = independent(mine)
    v.borrowed = [u.words for u in lend]
    v.support = combined([max(w.weight for w in g) for g in independent(pool)])
    if v.impossible:
        v.support *= IMPOSSIBLE


@dataclass
class Ranking:
    """The outcome for one field: every value ranked, the winner, and why."""

    values: list[Value]
    winner: Value
    rivals: list[Value]  # values that cannot be true with the winner
    tentative: bool
    rationale: str


def rank(field: str, claims: Sequence[Claim],
         related: Mapping[str, Sequence[Claim]] | None = None) -> Ranking | None:
    """Rank the values of one field; None when all of them can be true together."""
    values = values_of(field, claims)
    if len(values) == 1:  # no rival value, but another event's record may rule it out
        corroborate(field, values[0], related or {})
        v = values[0]
        if not (v.impossible or v.disagree):
            return None
        _score(v, values)
        v.own = independent(v.witnesses)
        either = ("this date is wrong or the other record is of someone else" if v.impossible
                  else "this date, the age or the date of death is wrong")
        return Ranking(values, v, [], True, (
            f"{v.words} is the only value on file, stated by {evidence_words(v)}; but "
            f"{'; '.join(v.impossible + v.disagree)}. Either {either}: it stays in doubt "
            "until another record settles it."))
    if len(values) < 2 or all(compatible(a, b) for i, a in enumerate(values)
                              for b in values[i + 1:]):
        return None
    for v in values:
        corroborate(field, v, related or {})
    for v in values:
        _score(v, values)
    values.sort(key=lambda v: (-round(v.support, 6), not v.has_record, v.span, v.key))
    winner = values[0]
    rivals = [v for v in values[1:] if not compatible(winner, v)]
    best_rival = max((v.support for v in rivals), default=0.0)
    trees_only = not winner.has_record and not any(w.record for _, w in winner.corroboration)
    tentative = best_rival >= TENTATIVE_MARGIN * winner.support or trees_only
    return Ranking(values, winner, rivals, tentative, rationale(winner, rivals, tentative))


# -- words ---------------------------------------------------------------------------------
def _class(w: Witness) -> str:
    from sleuth.gps.words import class_words

    text = class_words(w.source, w.information)
    if not w.record and "tree" not in text and w.name.startswith(("the WikiTree", "the GEDCOM",
                                                                  "the FamilySearch Family")):
        text = text.replace("an authored work", "a user-contributed tree")
    return text


def evidence_words(v: Value) -> str:
    """Who states the value, one phrase per independent witness."""
    parts = []
    for group in v.own:
        best = max(group, key=lambda w: (w.weight, w.name))
        names = sorted({w.name for w in group if w.name})
        copies = len(group)
        who = " and ".join(names) if len(names) <= 3 else f"{names[0]} and {len(names) - 1} more"
        if not best.record and len(names) > 1:
            who = f"{who} (user-contributed trees that copy one another, counted once)"
        elif copies > 1:
            who = f"{who} ({copies} copies, counted once)"
        parts.append(f"{who}, {_class(best)}")
    return "; ".join(parts)


def rationale(winner: Value, rivals: Sequence[Value], tentative: bool) -> str:
    """The decision in words (see the module docstring)."""
    out = [f"{winner.words} is preferred{' for now' if tentative else ''}: it is stated by "
           f"{evidence_words(winner)}"]
    if winner.borrowed:
        out[-1] += f", and agrees with {', '.join(winner.borrowed)}"
    if winner.corroboration:
        out[-1] += "; it fits " + "; ".join(
            t for t, _ in winner.corroboration)
    if winner.disagree:
        out[-1] += "; but " + "; ".join(winner.disagree)
    out[-1] += "."
    for r in rivals:
        line = f"{r.words} is stated by {evidence_words(r)}"
        if not r.has_record:
            line = f"{r.words} comes only from {evidence_words(r)}"
        if r.impossible:
            line += "; " + "; ".join(r.impossible)
        out.append(line + ".")
    if tentative:
        if not winner.has_record:
            out.append("No record supports either value yet, only compiled works, so the "
                       "choice is tentative.")
        else:
            out.append("The evidence on the other side is nearly as strong, so the choice is "
                       "tentative until another record is found.")
    return " ".join(out)
