"""Gramps' "probably alive" inference, ported to a CaseGraph.

A port of `gramps.gen.utils.alive.ProbablyAlive` (Gramps 6.0, GPL-2.0-or-later; read, not
imported): a person is alive unless their dates, or their family's, put today outside
[earliest possible birth, latest possible death]. Where the person has no birth date it is
estimated, in Gramps' order, from their own death, their parents (born at least
`min_generation_years` after a parent, at latest in the year a parent died), their siblings
(within `max_sibling_age_diff`), a spouse (± `avg_generation_gap`) or a family event, the
nearest generation of descendants with dates (`avg_generation_gap` per generation) and then
ancestors. As in Gramps' spouse test, a spouse's single date (whatever its modifier) gives
its own day ± `avg_generation_gap`, a spouse's range both ends widened by that gap. A death
without a date bounds nothing but means dead. No evidence at all: alive. Not in Gramps: a
dated document naming the person bounds their birth like a parent's death
(`documents.Named.birth_bound`: an adult named in a newspaper was born 15 years before it).

Dates are handled as fractional astronomical years. "About", "estimated" and "calculated"
dates stretch `about_range` years either way (Gramps: its date-about-range, 50, which made
a man born "about 1882" possibly alive at 144), "before X" covers the `fuzzy_range` years up
to X and "after X" those after X, as in Gramps' date matching; the stretch carries through
every offset (an "abt 1900" birth makes an "abt 2010" death, 2000-2020). Known differences
from Gramps itself (the example tree comparison in `benchmarks/privacy.py` shows their effect):
claims conflict where Gramps has one event, so a birth is the hull of all birth claims;
siblings are all children of either parent (Gramps: of the main parents' family only); a
family event is any of the person's marriage-type claims, also when the partner is not a
person in the case (Gramps skips a family without both spouses), and the earliest counts.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date

from sleuth.model.dates import DateQualifier, GenDate
from sleuth.model.graph import CaseGraph
from sleuth.model.records import Assertion, AssertionStatus, Person
from sleuth.privacy.documents import Named
from sleuth.privacy.policy import PrivacyPolicy

BIRTH_FALLBACK = ("baptism_date", "christening_date", "stillbirth_date")
DEATH_FALLBACK = ("burial_date", "cremation_date", "stillbirth_date")
FAMILY_EVENT_DATES = frozenset(
    f"{kind}_date"
    for kind in (
        "marriage", "divorce", "divorce_filed", "engagement", "annulment", "marriage_banns",
        "marriage_contract", "marriage_license", "marriage_settlement",
    )
)
DEATH_EVIDENCE = frozenset(
    {"death_date", "death_place", "burial_date", "burial_place", "cremation_date",
     "cremation_place", "age_at_death", "cause_of_death", "probate_date", "deceased"}
)
_FUZZY = frozenset({DateQualifier.ABOUT, DateQualifier.ESTIMATED, DateQualifier.CALCULATED})
_COMPOUND = frozenset({DateQualifier.BETWEEN, DateQualifier.PERIOD})


def _year(d: date, bce: bool) -> float:
    astro = -(d.year - 1) if bce else d.year
    return astro + (d.timetuple().tm_yday - 1) / 366


def fyear(d: date) -> float:
    """A (CE) calendar day as a fractional year."""
    return _year(d, False)


@dataclass(frozen=True)
class Span:
    """A date as Gramps matches it: [lo, hi] in fractional years, `year` its own start year."""

    lo: float
    hi: float
    year: int
    compound: bool = False  # a Gramps range or span ("between", "from-to", estimated ranges)
    at: float | None = None  # the date's own day, before any fuzz ("about 1900" -> 1900.0)

    def shift(self, years: float) -> Span:
        at = None if self.at is None else self.at + years
        return Span(self.lo + years, self.hi + years, int(self.year + years), self.compound, at)

    @classmethod
    def plain(cls, lo_year: int, hi_year: int | None = None) -> Span:
        """A year (or a year range) with no modifier, as Gramps' `Date().copy_ymd(year)`."""
        hi = lo_year if hi_year is None else hi_year
        lo, hi = min(lo_year, hi), max(lo_year, hi)
        return cls(float(lo), hi + 365 / 366, lo, hi != lo)


def span_of(gd: GenDate | None, fuzz: int, *, before: bool = False,
            about: int | None = None) -> Span | None:
    """`gd` as Gramps would compare it; `before` marks a burial-type death fallback,
    `about` the years an "about" date stretches (default: `fuzz`, as Gramps)."""
    if gd is None or (gd.earliest is None and gd.latest is None):
        return None
    lo = _year(gd.earliest, gd.earliest_bce) if gd.earliest else None
    hi = _year(gd.latest, gd.latest_bce) if gd.latest else None
    if lo is None:  # before X
        assert hi is not None
        return Span(hi - fuzz, hi, int(hi), at=hi)
    if hi is None:  # after X
        return Span(lo, lo + fuzz, int(lo), at=lo)
    if gd.qualifier in _FUZZY:
        near = fuzz if about is None else about
        return Span(lo - near, hi + near, int(lo), at=lo)
    if before and gd.qualifier == DateQualifier.EXACT:
        return Span(lo - fuzz, hi, int(lo), at=lo)
    return Span(lo, hi, int(lo), gd.qualifier in _COMPOUND, at=lo)


def hull(spans: list[Span]) -> Span | None:
    if not spans:
        return None
    return Span(min(s.lo for s in spans), max(s.hi for s in spans), min(s.year for s in spans))


@dataclass
class Vitals:
    """What one person's own claims say: Gramps' `get_person_bd`."""

    birth: Span | None = None
    death: Span | None = None
    dead: bool = False
    family_events: list[Span] = field(default_factory=list)


def _dated(claims: list[Assertion], fields: tuple[str, ...] | frozenset[str], fuzz: int,
           about: int, before: bool = False) -> Span | None:
    spans = [span_of(c.date, fuzz, before=before, about=about) for c in claims
             if c.field_name in fields]
    return hull([s for s in spans if s is not None])


class GrampsAlive:
    """One inference run over a graph; `alive(pid)` gives (alive, explanation)."""

    def __init__(self, graph: CaseGraph, today: date, policy: PrivacyPolicy,
                 named: dict[str, Named] | None = None) -> None:
        self.p = policy
        self.named = named or {}  # person -> the earliest dated document naming them
        self.now = fyear(today)
        self.persons = {p.id: p for p in graph.persons}
        self.vitals = {p.id: self._vitals(p, graph) for p in graph.persons}
        self.parents, self.children = self._links()
        self._seen: set[str] | None = None  # whom `alive` read, while `recording`

    def _vitals(self, person: Person, graph: CaseGraph) -> Vitals:
        fuzz, about = self.p.fuzzy_range, self.p.about_range
        claims = [
            c for c in graph.assertions.get(person.id, [])
            if c.status != AssertionStatus.REJECTED
        ]
        birth = (span_of(person.birth, fuzz, about=about)
                 or _dated(claims, ("birth_date",), fuzz, about))
        birth = birth or _dated(claims, BIRTH_FALLBACK, fuzz, about)
        death = (span_of(person.death, fuzz, about=about)
                 or _dated(claims, ("death_date",), fuzz, about))
        death = death or _dated(claims, DEATH_FALLBACK, fuzz, about, before=True)
        dead = (
            person.death is not None
            or bool(person.death_place)
            or any(c.field_name in DEATH_EVIDENCE for c in claims)
        )
        events = [s for c in claims if c.field_name in FAMILY_EVENT_DATES
                  if (s := span_of(c.date, fuzz, about=about)) is not None]
        return Vitals(birth, death, dead, events)

    def _links(self) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
        """Parents and children of everyone, from either side: a parent's `children` or
        a child's `parents` may be missing. (`_said` keeps who gives each link, for
        `patch`.)"""
        self._said: dict[tuple[str, str], set[str]] = {}  # (parent, child) -> who says so
        self._ends: dict[str, set[tuple[str, str]]] = {}  # person -> the pairs naming them
        for person in self.persons.values():
            self._say(person, add=True)
        parents: dict[str, set[str]] = {}
        children: dict[str, set[str]] = {}
        for q, c in self._said:
            if q in self.persons and c in self.persons:
                parents.setdefault(c, set()).add(q)
                children.setdefault(q, set()).add(c)
        return ({k: sorted(v) for k, v in parents.items()},
                {k: sorted(v) for k, v in children.items()})

    def _say(self, person: Person, *, add: bool) -> set[str]:
        """Add (or take back) the links `person` gives; returns the persons they name."""
        pairs = [(q, person.id) for q in person.parents]
        pairs += [(person.id, c) for c in person.children]
        for pair in pairs:
            if add:
                self._said.setdefault(pair, set()).add(person.id)
                for x in pair:
                    self._ends.setdefault(x, set()).add(pair)
            elif pair in self._said:
                self._said[pair].discard(person.id)
                if not self._said[pair]:
                    del self._said[pair]
                    for x in pair:
                        self._ends[x].discard(pair)
        return {x for pair in pairs for x in pair}

    def patch(self, graph: CaseGraph, changed: set[str],
              persons: dict[str, Person] | None = None) -> set[str]:
        """Take `graph`, which differs from the one read before only in the persons
        `changed` (their record, claims or links; added or removed). Returns the persons
        whose parents or children as the inference sees them changed (whoever read them
        must be judged again)."""
        if persons is None:
            persons = {p.id: p for p in graph.persons}
        near = set(changed)
        for pid in changed:
            if pid in self.persons:
                near |= self._say(self.persons[pid], add=False)
        for pid in changed:
            if pid in persons:
                near |= self._say(persons[pid], add=True)
                self.vitals[pid] = self._vitals(persons[pid], graph)
            else:
                self.vitals.pop(pid, None)
        # a person who came or went turns the links others give them on or off
        for pid in changed:
            for pair in self._ends.get(pid, ()):
                near.update(pair)
        self.persons = persons
        moved: set[str] = set()
        for k in near:
            ps = sorted(q for (q, c) in self._pairs_of(k) if c == k
                        and q in persons and k in persons)
            cs = sorted(c for (q, c) in self._pairs_of(k) if q == k
                        and c in persons and k in persons)
            for table, now in ((self.parents, ps), (self.children, cs)):
                if table.get(k, []) != now:
                    moved.add(k)
                    if now:
                        table[k] = now
                    else:
                        table.pop(k, None)
        return moved

    def _pairs_of(self, k: str) -> set[tuple[str, str]]:
        return self._ends.get(k, set())

    @contextmanager
    def recording(self) -> Iterator[set[str]]:
        """Inside: every person whose vitals, links or record `alive` reads is added to
        the set given (what a change must invalidate)."""
        seen: set[str] = set()
        self._seen = seen
        try:
            yield seen
        finally:
            self._seen = None

    # -- helpers ------------------------------------------------------------------------
    def _v(self, pid: str | None) -> Vitals:
        if self._seen is not None and pid:
            self._seen.add(pid)
        return self.vitals.get(pid or "", Vitals())

    def _parents(self, pid: str) -> list[str]:
        if self._seen is not None:
            self._seen.add(pid)
        return self.parents.get(pid, [])

    def _children(self, pid: str) -> list[str]:
        if self._seen is not None:
            self._seen.add(pid)
        return self.children.get(pid, [])

    def _siblings(self, pid: str) -> list[str]:
        return sorted({c for q in self._parents(pid) for c in self._children(q)} - {pid})

    # -- the decision -------------------------------------------------------------------
    def alive(self, pid: str) -> tuple[bool, str]:
        birth, death, why = self.estimate(pid)
        if birth is None or death is None:
            return True, "Gramps: no evidence either way, so probably alive"
        alive = self.now >= birth.lo and self.now < death.hi
        verdict = "probably alive" if alive else "not alive"
        return alive, (
            f"Gramps: {verdict} (possible birth {int(birth.lo)}-{int(birth.hi)}, "
            f"death by {int(death.hi)}; {why})"
        )

    def _lifespan(self, birth: Span, dead: bool) -> Span:
        if dead:
            return Span(birth.lo, min(birth.hi + self.p.max_age, self.now - 1 / 366), birth.year)
        return birth.shift(self.p.max_age)

    def estimate(
        self, pid: str, *, is_spouse: bool = False, immediate_only: bool = False
    ) -> tuple[Span | None, Span | None, str]:
        v = self._v(pid)
        p = self.p
        birth, death = v.birth, v.death
        if birth is not None and death is not None:
            return birth, death, "own birth and death dates"
        why = "own birth date"
        if birth is None:
            lo: int | None = None
            hi: int | None = None
            lo_why = hi_why = ""
            if death is not None:
                hi, lo = death.year, death.year - p.max_age
                hi_why = lo_why = "own death"
            if (named := self.named.get(pid)) is not None and (
                    hi is None or named.birth_bound.year < hi):
                hi, hi_why = named.birth_bound.year, f"{named.document} naming them"
            for q in self._parents(pid):
                pv = self._v(q)
                if pv.birth is not None:
                    floor = pv.birth.year + p.min_generation_years
                    if lo is None or floor > lo:
                        lo, lo_why = floor, "a parent's age"
                if pv.death is not None:  # a father may die before the birth, a mother not
                    ceiling = pv.death.year + (1 if self.persons[q].sex == "M" else 0)
                    if hi is None or ceiling < hi:
                        hi, hi_why = ceiling, "a parent's death"
            sib_years = [b.year for s in self._siblings(pid) if (b := self._v(s).birth)]
            if sib_years:
                if lo is None or max(sib_years) - p.max_sibling_age_diff > lo:
                    lo, lo_why = max(sib_years) - p.max_sibling_age_diff, "siblings' births"
                if hi is None or min(sib_years) + p.max_sibling_age_diff < hi:
                    hi, hi_why = min(sib_years) + p.max_sibling_age_diff, "siblings' births"
            if lo is not None and hi is not None:
                birth = Span.plain(lo, hi)
            elif lo is not None:
                birth = Span(float(lo), lo + p.fuzzy_range, lo)
            elif hi is not None:
                birth = Span(hi + 1 - p.fuzzy_range, hi + 365 / 366, hi)
            why = "birth from " + " and ".join(dict.fromkeys(w for w in (lo_why, hi_why) if w))
        if birth is not None and death is None:
            death = self._lifespan(birth, v.dead)
        if birth is not None and death is not None:
            return birth, death, why
        if not is_spouse:
            found = self._spouse_test(pid, immediate_only=True)
            if found[0] is not None:
                return found
        elif immediate_only:
            return None, None, ""
        found = self._descendants(pid)
        if found[0] is not None:
            return found
        if self._parents(pid):
            found = self._ancestors(pid, p.avg_generation_gap, 1, set())[:3]
            if found[0] is not None:
                return found
        if not is_spouse:
            found = self._spouse_test(pid, immediate_only=False)
            if found[0] is not None:
                return found
        return None, None, ""

    def _spouse_test(
        self, pid: str, *, immediate_only: bool
    ) -> tuple[Span | None, Span | None, str]:
        p = self.p
        person = self.persons[pid]
        events = sorted(self._v(pid).family_events, key=lambda s: s.lo)
        if self._seen is not None:  # the record, and whether each spouse is in the case
            self._seen.add(pid)
            self._seen.update(person.spouses)
        spouses: list[str | None] = [*sorted(s for s in person.spouses if s in self.persons)]
        for sid in spouses or [None]:
            if sid is None:  # a marriage claim whose partner is not a person in the case
                break
            b, d, _ = self.estimate(sid, is_spouse=True, immediate_only=immediate_only)
            if b is not None:
                gap = p.avg_generation_gap
                if b.compound:  # Gramps widens both ends of a range by a generation
                    birth = Span(b.lo - gap, b.hi + gap, b.year, True)
                else:  # and a single date, whatever its modifier, to its own day +- gap
                    at = b.year if b.at is None else b.at
                    birth = Span(at - gap, at + gap, int(at - gap), True, at - gap)
                return birth, birth.shift(p.max_age), "a spouse's dates"
            if d is not None:
                y = d.year + p.avg_generation_gap
                return Span.plain(y - p.max_age), Span.plain(y), "a spouse's death"
            if events:
                break
        if events:
            y = events[0].year - p.avg_generation_gap
            return Span.plain(y), Span.plain(y + p.max_age), "an event with a spouse"
        return None, None, ""

    def _descendants(self, pid: str) -> tuple[Span | None, Span | None, str]:
        p = self.p
        seen: set[str] = set()
        frontier = [pid]
        for gen in range(1, 1000):
            kids = sorted({c for q in frontier for c in self._children(q)} - seen)
            if not kids:
                return None, None, ""
            seen.update(kids)
            births = [b.year for c in kids if (b := self._v(c).birth)]
            deaths = [d.year for c in kids if (d := self._v(c).death)]
            if births:
                year = int((min(births) + max(births)) / 2 - gen * p.avg_generation_gap)
                birth = Span(year - p.fuzzy_range, year + 365 / 366 + p.fuzzy_range, year)
                return birth, birth.shift(p.max_age), f"descendants' births, {gen} generation(s)"
            if deaths:
                upper = min(deaths) - gen * p.min_generation_years
                lower = max(deaths) - (gen * p.avg_generation_gap + p.max_age)
                birth = Span.plain(lower, upper)
                return birth, birth.shift(p.max_age), f"descendants' deaths, {gen} generation(s)"
            frontier = kids
        return None, None, ""

    def _ancestors(
        self, pid: str, gap: int, gen: int, seen: set[str]
    ) -> tuple[Span | None, Span | None, str, int | None]:
        p = self.p
        if pid in seen:
            return None, None, "", None
        seen.add(pid)
        parents = self._parents(pid)
        if not parents:
            return None, None, "", None
        births = [b for q in parents if (b := self._v(q).birth)]
        if births:
            youngest = max(births, key=lambda s: s.lo)
            birth = youngest.shift(gap)
            return birth, birth.shift(p.max_age), f"an ancestor's birth, {gen} generation(s)", gen
        deaths = [d for q in parents if (d := self._v(q).death)]
        if deaths:
            last = max(deaths, key=lambda s: s.lo)
            first = min(deaths, key=lambda s: s.lo)
            birth = Span(last.lo + gap - p.max_age, first.year + gap + 1, int(last.lo) + gap)
            return birth, birth.shift(p.max_age), f"an ancestor's death, {gen} generation(s)", gen
        best: tuple[Span | None, Span | None, str, int | None] = (None, None, "", None)
        for q in parents:
            found = self._ancestors(q, gap + p.avg_generation_gap, gen + 1, seen)
            if found[3] is not None and (best[3] is None or found[3] < best[3]):
                best = found
        return best
