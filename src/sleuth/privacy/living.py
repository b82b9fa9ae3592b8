"""Deciding who may be living, conservatively and with a reason a reviewer can check.

Every person gets a `Verdict`: living or not, the reason, and the rule that decided. The
order (the first that fires decides):

1. An explicit `Person.is_living` flag (set by a person or an import) wins, whatever else the
   evidence says: a human's judgement outranks inference, and a wrongly-merged death record
   must not unlock a living person's details.
2. Any death, burial or cremation evidence - `Person.death` or `death_place`, or a
   non-rejected claim of death_date/place, burial_date/place, cremation_date/place,
   age_at_death, cause_of_death or probate_date - means deceased, under every rule.
3. Modern-context clues (an e-mail address, a phone number, a social-media URL in any claim,
   or an email/phone claim) mean living, under every rule.
4. The case's rule (`PrivacyPolicy.rule`, default `strictest`):
   * `seed` - seed 000 §8.1 (`classify`): the *latest possible* birth day over all birth,
     baptism and christening evidence (an open-ended one, "after 1900", ends on the date of
     the earliest document naming the person, `documents`); without such evidence, that
     document's bound (an adult named in a newspaper was born 15 years before it; a later
     birth of their own is never overruled: a wrong merge must not unlock a living person's
     details); less than `living_if_born_within` (100) years ago:
     living; `max_age` (110) or more: deceased; in between: living ("when unsure, living");
     no birth but other dated events: born before the latest, so 110+ years ago means
     deceased; nothing dated: not living, unless a parent, child or spouse is living on their
     own evidence (one hop, so one living grandchild does not make an undated ancestry living).
   * `familysearch` - living if born within `max_age` (110) years, or married or had a child
     within `family_event_within` (95) years; no such dates at all: living (when unsure).
   * `gramps` - Gramps 6's probably-alive inference over the family (`gramps_alive.py`).
   * `strictest` - living if any of the three says living (the reason is the first such
     rule's: seed, FamilySearch, Gramps); deceased only when all three agree.

Rejected claims are ignored throughout. Reasons name years only, never a full date, because
they are copied into the redaction log that exports and `sleuth privacy report` show.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date

from sleuth.model.dates import GenDate, years_before
from sleuth.model.graph import CaseGraph
from sleuth.model.records import DATE_FIELDS, Assertion, AssertionStatus, Person
from sleuth.privacy.documents import Named, dated_documents, named_in_documents, named_of
from sleuth.privacy.gramps_alive import DEATH_EVIDENCE, GrampsAlive
from sleuth.privacy.pii import has_modern_clue
from sleuth.privacy.policy import DEFAULT_POLICY, PrivacyPolicy, active_policy

LIVING_IF_BORN_WITHIN_YEARS = DEFAULT_POLICY.living_if_born_within
DECEASED_IF_BORN_BEFORE_YEARS = DEFAULT_POLICY.max_age

DEATH_FIELDS = DEATH_EVIDENCE
BIRTH_FIELDS = frozenset({"birth_date", "baptism_date", "christening_date"})
CONTACT_FIELDS = frozenset({"email", "phone"})

_YEAR_RE = re.compile(r"(?<!\d)(1[0-9]{3}|20[0-9]{2})(?!\d)")


def _today(today: date | None) -> date:
    return today or date.today()


def _live(claims: Iterable[Assertion]) -> list[Assertion]:
    return [c for c in claims if c.status != AssertionStatus.REJECTED]


def _latest(dates: list[GenDate | None], values: list[str]) -> tuple[bool, date | None]:
    """(found, latest possible day); found with None means an open-ended upper bound."""
    found = False
    bound: date | None = None
    for gd in dates:
        if gd is None or (gd.earliest is None and gd.latest is None):
            continue
        if gd.latest is None:
            return True, None
        found = True
        bound = gd.latest if bound is None else max(bound, gd.latest)
    for value in values:
        for year in _YEAR_RE.findall(value):
            found = True
            day = date(int(year), 12, 31)
            bound = day if bound is None else max(bound, day)
    return found, bound


def classify(
    person: Person,
    claims: Iterable[Assertion],
    *,
    today: date | None = None,
    policy: PrivacyPolicy | None = None,
    named: Named | None = None,
) -> tuple[bool, str, str]:
    """The seed rule on one person: (living, reason, basis). `named`: the earliest dated
    document naming them (`documents.named_in_documents`), a bound on their birth.

    basis is flag, death, birth, document, event, modern or nodates.
    """
    now = _today(today)
    pol = policy or DEFAULT_POLICY
    within, max_age = pol.living_if_born_within, pol.max_age
    live = _live(claims)
    if person.is_living is not None:
        word = "living" if person.is_living else "deceased"
        return person.is_living, f"explicitly marked {word}", "flag"
    death_claims = [c for c in live if c.field_name in DEATH_FIELDS]
    if person.death is not None or person.death_place or death_claims:
        what = sorted({c.field_name for c in death_claims}) or ["death record on the person"]
        return False, f"death/burial evidence ({', '.join(what)})", "death"
    cutoff_living = years_before(now, within)
    cutoff_dead = years_before(now, max_age)
    births = [c for c in live if c.field_name in BIRTH_FIELDS]
    found, bound = _latest(
        [person.birth, *(c.date for c in births)],
        [c.value for c in births if c.date is None],
    )
    if found and bound is None and named is not None:
        bound = named.existed_by  # born "after 1900", and by the day a paper named them
    if found:
        if bound is None:
            return True, "birth date is open-ended; presumed living", "birth"
        if bound > cutoff_living:
            return (
                True,
                f"latest possible birth year {bound.year} is less than "
                f"{within} years ago",
                "birth",
            )
        if bound <= cutoff_dead:
            return (
                False,
                f"born no later than {bound.year}, {max_age}+ years ago",
                "birth",
            )
        return (
            True,
            f"born {within}-{max_age} years ago "
            "with no death evidence; presumed living",
            "birth",
        )
    if named is not None:
        latest = named.birth_bound
        if latest <= cutoff_dead:
            return False, f"{named.reason()}, {max_age}+ years ago", "document"
        if latest > cutoff_living:
            return True, f"{named.reason()}, less than {within} years ago", "document"
    events = [c for c in live if c.field_name in DATE_FIELDS and c.date is not None]
    found, bound = _latest([c.date for c in events], [])
    if found and bound is not None:
        if bound <= cutoff_dead:
            return (
                False,
                f"no birth date, but dated life events no later than {bound.year}, "
                f"{max_age}+ years ago",
                "event",
            )
        return True, f"no birth date; life event as late as {bound.year}; presumed living", "event"
    if any(c.field_name in CONTACT_FIELDS or has_modern_clue(c.value) for c in live):
        return True, "modern contact data (e-mail, phone or social media) in claims", "modern"
    return False, "no birth, death or event dates and no modern clues (seed default)", "nodates"




@dataclass(frozen=True)
class Verdict:
    """Who is living and why: `rule` names what decided (flag, death, modern, seed,
    familysearch, gramps), `votes` what each configured rule said (True, False or None for
    "cannot tell"), for `sleuth privacy report`."""

    living: bool
    reason: str
    rule: str
    votes: dict[str, bool | None] = field(default_factory=dict)


def _family_dates(
    graph: CaseGraph, pid: str, claims: list[Assertion], by_id: dict[str, Person],
    named: Named | None = None,
) -> tuple[list[date], list[date]]:
    """(latest possible birth days, latest possible marriage or child-birth days). A dated
    document naming the person bounds their birth where they have no birth evidence."""
    person = by_id[pid]
    births = [d for gd in [person.birth, *(c.date for c in claims if c.field_name in BIRTH_FIELDS)]
              if gd is not None and (d := gd.latest or gd.earliest) is not None]
    if named is not None and not births:  # a later birth of their own is not overruled
        births = [named.birth_bound]
    family = [d for c in claims if c.field_name == "marriage_date" and c.date is not None
              if (d := c.date.latest or c.date.earliest) is not None]
    for kid in person.children:
        child = by_id.get(kid)
        kid_claims = graph.assertions.get(kid, [])
        dates = [child.birth if child else None]
        dates += [c.date for c in kid_claims if c.field_name in BIRTH_FIELDS]
        family += [d for gd in dates if gd is not None
                   if (d := gd.latest or gd.earliest) is not None]
    return births, family


def familysearch_rule(
    births: list[date], family: list[date], now: date, policy: PrivacyPolicy
) -> tuple[bool | None, str]:
    """FamilySearch: living if born within 110 years, or married / had a child within 95."""
    born_cut = years_before(now, policy.max_age)
    fam_cut = years_before(now, policy.family_event_within)
    if births and max(births) > born_cut:
        return True, f"FamilySearch: born {max(births).year}, within {policy.max_age} years"
    if family and max(family) > fam_cut:
        return True, (
            f"FamilySearch: married or had a child in {max(family).year}, "
            f"within {policy.family_event_within} years"
        )
    if births or family:
        return False, (
            f"FamilySearch: born {max(births).year if births else 'unknown'}, more than "
            f"{policy.max_age} years ago, no marriage or child within "
            f"{policy.family_event_within} years"
        )
    return None, "FamilySearch: no birth, marriage or child dates"


def explain_living(
    graph: CaseGraph, *, today: date | None = None, policy: PrivacyPolicy | None = None
) -> dict[str, Verdict]:
    """A `Verdict` for every person in the graph; see the module docstring for the order."""
    return Judge(graph, today=today, policy=policy).verdicts


class Judge:
    """`explain_living` of a graph, kept as the graph changes (the review workbench's
    case across decisions): `update(graph, touched)` judges again only whom the change can
    concern and gives the verdicts `explain_living` of the new graph gives.

    Who that is: the persons whose data changed (`touched`: person, claims, links; added and
    removed persons are found here), the persons who name one of them as a relative (the
    seed rule's "relative of a living person" and FamilySearch's children's births read
    them), and, for Gramps' inference, whose walk through the family read one of them or
    a person whose links changed (`track`: each person's walk is recorded as it runs).
    """

    def __init__(self, graph: CaseGraph, *, today: date | None = None,
                 policy: PrivacyPolicy | None = None, track: bool = False) -> None:
        self.now = _today(today)
        self.pol = active_policy(policy)
        self.track = track
        self.graph = graph
        self.by_id = {p.id: p for p in graph.persons}
        self.claims = {p.id: _live(graph.assertions.get(p.id, [])) for p in graph.persons}
        self.dated = dated_documents(graph)
        self.named = named_in_documents(graph, self.dated)
        self.seed = {p.id: self._classify(p) for p in graph.persons}
        self.gramps = (GrampsAlive(graph, self.now, self.pol, self.named)
                       if self.pol.rule in ("strictest", "gramps") else None)
        self.reads: dict[str, frozenset[str]] = {}  # person -> whom Gramps' walk read
        self.readers: dict[str, set[str]] = {}  # and back
        self.named_by: dict[str, set[str]] = {}  # person -> who names them as a relative
        if track:
            for p in graph.persons:
                self._link(p, add=True)
        self.verdicts = {p.id: self._verdict(p) for p in graph.persons}

    def _classify(self, p: Person) -> tuple[bool, str, str]:
        return classify(p, self.claims[p.id], today=self.now, policy=self.pol,
                        named=self.named.get(p.id))

    def _link(self, p: Person, *, add: bool) -> None:
        for r in p.parents | p.children | p.spouses:
            if add:
                self.named_by.setdefault(r, set()).add(p.id)
            elif r in self.named_by:
                self.named_by[r].discard(p.id)

    def _verdict(self, person: Person) -> Verdict:
        pid = person.id
        living, reason, basis = self.seed[pid]
        if self.track:
            self._forget(pid)
        if basis in ("flag", "death"):
            return Verdict(living, reason, basis)
        if any(c.field_name in CONTACT_FIELDS or has_modern_clue(c.value)
               for c in self.claims[pid]):
            return Verdict(True, "modern contact data (e-mail, phone or social media) in "
                           "claims", "modern")
        pol = self.pol
        if basis == "nodates":
            relatives = sorted(r for r in person.parents | person.children | person.spouses
                               if r in self.seed and self.seed[r][0])
            if relatives:
                living, reason = True, f"relative of a living person ({relatives[0]}), no dates"
        votes: dict[str, tuple[bool | None, str]] = {}
        if pol.rule in ("strictest", "seed"):
            votes["seed"] = (living, reason)
        if pol.rule in ("strictest", "familysearch"):
            births, family = _family_dates(self.graph, pid, self.claims[pid], self.by_id,
                                           self.named.get(pid))
            vote, why = familysearch_rule(births, family, self.now, pol)
            if vote is None and pol.rule == "familysearch":
                vote, why = True, why + "; when unsure, living"
            votes["familysearch"] = (vote, why)
        if self.gramps is not None:
            if self.track:
                with self.gramps.recording() as seen:
                    votes["gramps"] = self.gramps.alive(pid)
                self.reads[pid] = frozenset(seen)
                for q in seen:
                    self.readers.setdefault(q, set()).add(pid)
            else:
                votes["gramps"] = self.gramps.alive(pid)
        tally = {rule: vote for rule, (vote, _) in votes.items()}
        yes = [rule for rule, (vote, _) in votes.items() if vote]
        if yes:
            return Verdict(True, votes[yes[0]][1], yes[0], tally)
        why = "; ".join(r for vote, r in votes.values() if vote is False)
        return Verdict(False, why or reason, next(iter(votes)), tally)

    def _forget(self, pid: str) -> None:
        for q in self.reads.pop(pid, ()):
            if q in self.readers:
                self.readers[q].discard(pid)

    def update(self, graph: CaseGraph, touched: Iterable[str],
               by_id: dict[str, Person] | None = None) -> set[str]:
        """Judge `graph`, `touched` being every person whose record, claims or links differ
        from the graph judged before (added and removed persons need not be named).
        Returns the persons whose verdict changed, appeared or went."""
        if not self.track:
            raise ValueError("a Judge made without track=True cannot update")
        if by_id is None:
            by_id = {p.id: p for p in graph.persons}
        changed = (set(touched) | (self.by_id.keys() ^ by_id.keys()))
        changed = {x for x in changed if x in by_id or x in self.by_id}
        old = self.by_id
        for pid in changed:  # links as they were, then as they are
            if pid in old:
                self._link(old[pid], add=False)
            if pid in by_id:
                self._link(by_id[pid], add=True)
        self.graph, self.by_id = graph, by_id
        fresh = [sid for sid in graph.snapshots if sid not in self.dated]
        if fresh:  # snapshots are never changed, only added
            self.dated.update(dated_documents(graph, fresh))
        for pid in changed:
            if pid in by_id:
                self.claims[pid] = _live(graph.assertions.get(pid, []))
                named = named_of(self.claims[pid], self.dated)
                if named is None:
                    self.named.pop(pid, None)
                else:
                    self.named[pid] = named
            else:
                self.claims.pop(pid, None)
                self.named.pop(pid, None)
        for pid in changed:
            if pid in by_id:
                self.seed[pid] = self._classify(by_id[pid])
            else:
                self.seed.pop(pid, None)
        again = set(changed)
        for pid in changed:
            again |= self.named_by.get(pid, set())
            if pid in old:
                again |= old[pid].parents | old[pid].children | old[pid].spouses
            if pid in by_id:
                again |= by_id[pid].parents | by_id[pid].children | by_id[pid].spouses
        if self.gramps is not None:
            moved = self.gramps.patch(graph, changed, by_id)
            for q in changed | moved:
                again |= self.readers.get(q, set())
        out: set[str] = set()
        for pid in again:
            if pid not in by_id:
                if self.verdicts.pop(pid, None) is not None:
                    out.add(pid)
                self._forget(pid)
                continue
            verdict = self._verdict(by_id[pid])
            if self.verdicts.get(pid) != verdict:
                out.add(pid)
            self.verdicts[pid] = verdict
        return out


def assess_living(
    graph: CaseGraph, *, today: date | None = None, policy: PrivacyPolicy | None = None
) -> dict[str, tuple[bool, str]]:
    """(living, reason) for every person in the graph; `explain_living` adds the rule."""
    verdicts = explain_living(graph, today=today, policy=policy)
    return {pid: (v.living, v.reason) for pid, v in verdicts.items()}


def is_living(
    person: Person,
    claims: Iterable[Assertion],
    *,
    today: date | None = None,
    policy: PrivacyPolicy | None = None,
) -> tuple[bool, str]:
    """Whether to treat one `person` as living, and why, judged on their own claims only.

    Without the family, Gramps' inference sees only the person's own dates; `assess_living`
    is the graph-level decision every output uses.
    """
    alone = person.model_copy(update={"parents": set(), "children": set(), "spouses": set()})
    graph = CaseGraph(persons=[alone], assertions={person.id: list(claims)})
    verdict = explain_living(graph, today=today, policy=policy)[person.id]
    return verdict.living, verdict.reason


# -- from years alone -------------------------------------------------------------------
# The research loop decides whom to search for, and whom a planning model may see, from a
# person's best birth and death years before any full case graph exists. Both questions are
# this module's rule cut down to years (`LIVING_IF_BORN_WITHIN_YEARS`), as named policies:
# searching skips the probably-living (born within the window, no death); what is shown to
# a model is stricter, and treats a person with no years at all as possibly living too.
@dataclass(frozen=True)
class YearsRule:
    """`living_by_years` under one policy: `undated_is_living` says what no years mean."""

    name: str
    undated_is_living: bool


SEARCH_RULE = YearsRule("search", undated_is_living=False)
MODEL_RULE = YearsRule("model", undated_is_living=True)


def living_by_years(birth_year: int | None, death_year: int | None, rule: YearsRule,
                    this_year: int | None = None) -> bool:
    """Possibly living, from years alone: no death year, and a birth year within
    `LIVING_IF_BORN_WITHIN_YEARS` of `this_year` (none: `rule.undated_is_living`)."""
    if death_year is not None:
        return False
    if birth_year is None:
        return rule.undated_is_living
    year = date.today().year if this_year is None else this_year
    return birth_year > year - LIVING_IF_BORN_WITHIN_YEARS
