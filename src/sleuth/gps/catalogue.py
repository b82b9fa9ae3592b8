"""A catalogue of record sets with their time and place coverage (issue 10, item 3).

A reasonably exhaustive search asks every record set that could hold the answer: a parish
register is relevant to an English baptism in 1790, not to an Ohio birth in 1884; Chronicling
America to an American death in 1900, not to one in 1985. Each `RecordSet` names the sources
that search it (an empty tuple: no built-in source reaches it yet, so the user must), the
research questions it answers, and the years and places it covers. `relevant(...)` picks the
sets for one person and question from their known years and places; `coverage` then shows
which were searched, which were not and which the engine cannot reach.

Coverage figures are the record sets' own published scopes, rounded to the decade.
"""

from __future__ import annotations

from dataclasses import dataclass

from sleuth.model import ResearchQuestion as Q

ANYWHERE: tuple[str, ...] = ()
ENGLAND_WALES = ("england", "wales")
USA = ("usa", "united states", "america", "alabama", "arkansas", "california", "colorado",
       "connecticut", "delaware", "florida", "georgia", "illinois", "indiana", "iowa",
       "kansas", "kentucky", "louisiana", "maine", "maryland", "massachusetts", "michigan",
       "minnesota", "mississippi", "missouri", "nebraska", "new hampshire", "new jersey",
       "new york", "north carolina", "ohio", "oregon", "pennsylvania", "rhode island",
       "south carolina", "tennessee", "texas", "vermont", "virginia", "washington",
       "west virginia", "wisconsin")


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
CATALOGUE: tuple[RecordSet, ...] = (
    RecordSet("FreeREG parish registers (baptisms, marriages, burials)", ("freereg",), VITAL,
              1538, 1920, ENGLAND_WALES),
    RecordSet("England and Wales civil registration (GRO indexes)", (), VITAL, 1837, 2020,
              ENGLAND_WALES),
    RecordSet("FreeCEN census transcriptions", (), frozenset({Q.BIRTH, Q.PARENTS}), 1841,
              1911, (*ENGLAND_WALES, "scotland")),
    RecordSet("US state birth and death certificates", (), frozenset({Q.BIRTH, Q.DEATH,
                                                                     Q.PARENTS}),
              1900, 2020, USA),
    RecordSet("US federal census", (), frozenset({Q.BIRTH, Q.PARENTS, Q.MARRIAGE}), 1790,
              1950, USA),
    RecordSet("Chronicling America newspapers (obituaries, notices)",
              ("chronicling_america",), frozenset({Q.DEATH, Q.MARRIAGE, Q.PARENTS}), 1770,
              1963, USA),
    RecordSet("FamilySearch historical records", ("familysearch",), VITAL, 1500, 2020),
    RecordSet("Find a Grave memorials", ("find_a_grave",), frozenset({Q.BIRTH, Q.DEATH,
                                                                     Q.PARENTS}), 1600, 2026),
    RecordSet("WikiTree profiles (user-contributed)", ("wikitree",), VITAL, 1000, 2026),
    RecordSet("Wikidata (notable people)", ("wikidata", "wikidata_sparql"), VITAL, 1000, 2026),
)


def relevant(question: Q, years: list[int], places: list[str]) -> list[RecordSet]:
    """The record sets that could answer `question` for a person of these years and places."""
    return [rs for rs in CATALOGUE if question in rs.questions and rs.covers(years, places)]
