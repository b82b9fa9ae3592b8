"""A catalogue of record sets with their time and place coverage (issue 10, item 3).

A reasonably exhaustive search asks every record set that could hold the answer: a parish
register is relevant to an English baptism in 1790, not to an Ohio birth in 1884; Chronicling
America to an American death in 1900, not to one in 1985. Each `RecordSet` names the sources
that search it, the research questions it answers, and the years and places it covers. A
source declares its record sets in its own spec (`record.record_sets`, in the registry's
declared order; one name declared by two sources is one set searched two ways); the sets no
source reaches yet, so the user must, are listed here (`UNREACHABLE`). `relevant(...)`
picks the sets for one person and question from their known years and places; `coverage`
then shows which were searched, which were not and which the engine cannot reach.

Coverage figures are the record sets' own published scopes, rounded to the decade.
"""

from __future__ import annotations

from dataclasses import dataclass

from sleuth.model import ResearchQuestion as Q
from sleuth.model.source_spec import REGIONS
from sleuth.sources.registry import Registry, current_registry

ANYWHERE: tuple[str, ...] = ()
ENGLAND_WALES = REGIONS["england_wales"]
USA = REGIONS["usa"]


@dataclass(frozen=True)
class RecordSet:
    name: str
    sources: tuple[str, ...]  # source ids that search it; () = none built in
    questions: frozenset[Q]
    start: int
    end: int
    places: tuple[str, ...] = ANYWHERE  # lower-case place words; () = anywhere

    def covers(self, years: list[int], places: list[str]) -> bool:
        if years and not any(self.start <= y <= self.end for y in years):
            return False
        if not self.places or not places:
            return True
        text = " ".join(p.lower() for p in places)
        return any(w in text for w in self.places)


VITAL = frozenset({Q.BIRTH, Q.DEATH, Q.PARENTS, Q.MARRIAGE})
# Record sets no built-in source searches: the user must (a spec that declares one by the
# same name makes it reachable).
UNREACHABLE: tuple[RecordSet, ...] = (
    RecordSet("England and Wales civil registration (GRO indexes)", (), VITAL, 1837, 2020,
              ENGLAND_WALES),
    RecordSet("FreeCEN census transcriptions", (), frozenset({Q.BIRTH, Q.PARENTS}), 1841,
              1911, (*ENGLAND_WALES, "scotland")),
    RecordSet("US state birth and death certificates", (), frozenset({Q.BIRTH, Q.DEATH,
                                                                     Q.PARENTS}),
              1900, 2020, USA),
    RecordSet("US federal census", (), frozenset({Q.BIRTH, Q.PARENTS, Q.MARRIAGE}), 1790,
              1950, USA),
)


def catalogue(registry: Registry | None = None) -> list[RecordSet]:
    """The sources' record sets (declared order, merged by name), then the unreachable."""
    registry = registry if registry is not None else current_registry()
    sets: dict[str, RecordSet] = {}
    for spec in registry.declared() if registry is not None else ():
        for rs in spec.record.record_sets:
            have = sets.get(rs.name)
            sources = (*have.sources, spec.id) if have else (spec.id,)
            sets[rs.name] = RecordSet(rs.name, sources, frozenset(rs.questions), rs.start,
                                      rs.end, rs.places)
    return [*sets.values(), *(rs for rs in UNREACHABLE if rs.name not in sets)]


def relevant(question: Q, years: list[int], places: list[str],
             registry: Registry | None = None) -> list[RecordSet]:
    """The record sets that could answer `question` for a person of these years and places."""
    return [rs for rs in catalogue(registry)
            if question in rs.questions and rs.covers(years, places)]
