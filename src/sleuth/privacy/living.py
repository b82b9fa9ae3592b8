"""Deciding who may be living, conservatively and with a reason a reviewer can check.

Rules, applied in this order (the first that fires decides):

1. An explicit `Person.is_living` flag (set by a person or an import) wins, whatever else the
   evidence says: a human's judgement outranks inference, and a wrongly-merged death record
   must not unlock a living person's details.
2. Any death or burial evidence - `Person.death` or `death_place`, or a non-rejected claim of
   death_date, death_place, burial_date, burial_place, age_at_death, cause_of_death or
   probate_date - means deceased.
3. Birth evidence (`Person.birth`, birth_date / baptism_date / christening_date claims, or a
   4-digit year in such a claim's value) is reduced to the *latest possible* birth day over
   all of it (the youngest the person could be). Latest birth less than 100 years before
   today: living. 110 or more years before today: deceased. In between: living ("when
   unsure, living"). An open-ended birth ("after 1950") cannot be bounded: living.
4. No birth evidence but other dated life events (marriage, residence...): the person was
   born before the latest of them, so an event 110+ years ago means deceased; otherwise
   living (they could be alive).
5. Modern-context clues in any claim value (an e-mail address, a phone number, a
   social-media URL) or an email/phone claim: living.
6. Nothing dated at all: the seed's default, not living - unless (applied by
   `assess_living`, which sees the whole graph) a parent, child or spouse is living by rules
   1-5, in which case living ("relative of a living person, no dates"). Propagation is one
   hop from persons living on their own evidence, so one living grandchild does not make a
   whole undated ancestry living.

Rejected claims are ignored throughout. Reasons name years only, never a full date, because
they are copied into the redaction log that exports may show.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date

from sleuth.model.dates import GenDate
from sleuth.model.graph import CaseGraph
from sleuth.model.records import DATE_FIELDS, Assertion, AssertionStatus, Person
from sleuth.privacy.pii import has_modern_clue

LIVING_IF_BORN_WITHIN_YEARS = 100
DECEASED_IF_BORN_BEFORE_YEARS = 110

DEATH_FIELDS = frozenset(
    {
        "death_date",
        "death_place",
        "burial_date",
        "burial_place",
        "age_at_death",
        "cause_of_death",
        "probate_date",
    }
)
BIRTH_FIELDS = frozenset({"birth_date", "baptism_date", "christening_date"})
CONTACT_FIELDS = frozenset({"email", "phone"})

_YEAR_RE = re.compile(r"(?<!\d)(1[0-9]{3}|20[0-9]{2})(?!\d)")


def _today(today: date | None) -> date:
    return today or date.today()


def years_before(today: date, years: int) -> date:
    """The same calendar day `years` earlier (29 February falls back to the 28th)."""
    try:
        return today.replace(year=today.year - years)
    except ValueError:
        return today.replace(year=today.year - years, day=28)


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
    person: Person, claims: Iterable[Assertion], *, today: date | None = None
) -> tuple[bool, str, str]:
    """`is_living` plus the rule that decided it (flag, death, birth, event, modern, nodates)."""
    now = _today(today)
    live = _live(claims)
    if person.is_living is not None:
        word = "living" if person.is_living else "deceased"
        return person.is_living, f"explicitly marked {word}", "flag"
    death_claims = [c for c in live if c.field_name in DEATH_FIELDS]
    if person.death is not None or person.death_place or death_claims:
        what = sorted({c.field_name for c in death_claims}) or ["death record on the person"]
        return False, f"death/burial evidence ({', '.join(what)})", "death"
    cutoff_living = years_before(now, LIVING_IF_BORN_WITHIN_YEARS)
    cutoff_dead = years_before(now, DECEASED_IF_BORN_BEFORE_YEARS)
    births = [c for c in live if c.field_name in BIRTH_FIELDS]
    found, bound = _latest(
        [person.birth, *(c.date for c in births)],
        [c.value for c in births if c.date is None],
    )
    if found:
        if bound is None:
            return True, "birth date is open-ended; presumed living", "birth"
        if bound > cutoff_living:
            return (
                True,
                f"latest possible birth year {bound.year} is less than "
                f"{LIVING_IF_BORN_WITHIN_YEARS} years ago",
                "birth",
            )
        if bound <= cutoff_dead:
            return (
                False,
                f"born no later than {bound.year}, {DECEASED_IF_BORN_BEFORE_YEARS}+ years ago",
                "birth",
            )
        return (
            True,
            f"born {LIVING_IF_BORN_WITHIN_YEARS}-{DECEASED_IF_BORN_BEFORE_YEARS} years ago "
            "with no death evidence; presumed living",
            "birth",
        )
    events = [c for c in live if c.field_name in DATE_FIELDS and c.date is not None]
    found, bound = _latest([c.date for c in events], [])
    if found and bound is not None:
        if bound <= cutoff_dead:
            return (
                False,
                f"no birth date, but dated life events no later than {bound.year}, "
                f"{DECEASED_IF_BORN_BEFORE_YEARS}+ years ago",
                "event",
            )
        return True, f"no birth date; life event as late as {bound.year}; presumed living", "event"
    if any(c.field_name in CONTACT_FIELDS or has_modern_clue(c.value) for c in live):
        return True, "modern contact data (e-mail, phone or social media) in claims", "modern"
    return False, "no birth, death or event dates and no modern clues (seed default)", "nodates"


def is_living(
    person: Person, claims: Iterable[Assertion], *, today: date | None = None
) -> tuple[bool, str]:
    """Whether to treat `person` as living, and why. See the module docstring for the rules.

    This sees one person only; `assess_living` adds the relative-of-a-living-person rule.
    """
    living, reason, _ = classify(person, claims, today=today)
    return living, reason


def assess_living(graph: CaseGraph, *, today: date | None = None) -> dict[str, tuple[bool, str]]:
    """`is_living` for every person in the graph, plus the one-hop relative rule."""
    first = {p.id: classify(p, graph.assertions.get(p.id, []), today=today) for p in graph.persons}
    own_living = {pid for pid, (living, _, _) in first.items() if living}
    by_id = {p.id: p for p in graph.persons}
    result: dict[str, tuple[bool, str]] = {}
    for pid, (living, reason, basis) in first.items():
        if basis == "nodates":
            person = by_id[pid]
            relatives = sorted((person.parents | person.children | person.spouses) & own_living)
            if relatives:
                result[pid] = (True, f"relative of a living person ({relatives[0]}), no dates")
                continue
        result[pid] = (living, reason)
    return result
