"""A document's own date as evidence of when the persons it names lived (issue 20).

Someone named in a newspaper of October 1916 existed by then, whatever else is known of
them; and a newspaper names adults - officials, mourners, the married - unless it gives an
age, so a person it names was born at least `ADULT_YEARS` earlier. The living rules
(`living`, `gramps_alive`) read these bounds as a latest possible birth where the person
has no birth evidence of their own: an age or a birth date says more than the assumption,
and a birth later than the document (two namesakes wrongly merged) is no reason to unlock
a living person's details.

A document's date is the snapshot's (`model.documents`). A person's bound is the earliest
over every newspaper that cites them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from sleuth.model.dates import years_before
from sleuth.model.documents import document_date, is_newspaper
from sleuth.model.graph import CaseGraph
from sleuth.model.records import Assertion, AssertionStatus

ADULT_YEARS = 15  # a person a newspaper names was born at least this long before its date


@dataclass(frozen=True)
class Named:
    """The earliest dated newspaper naming a person, and the births it bounds."""

    existed_by: date  # the paper's date: the person was born by then
    birth_bound: date  # as an adult there, born `ADULT_YEARS` before it
    document: str  # the paper as a reason names it: "a newspaper dated 1916-10-19"

    def reason(self) -> str:
        return (f"named in {self.document} as an adult (born by {self.birth_bound.year}, "
                f"{ADULT_YEARS}+ years before it)")


def dated_documents(graph: CaseGraph, ids: Iterable[str] | None = None) -> dict[str, date]:
    """Snapshot id -> the day of each dated newspaper among the graph's snapshots (`ids`:
    only these)."""
    dated: dict[str, date] = {}
    for sid in graph.snapshots if ids is None else ids:
        snap = graph.snapshots[sid]
        if is_newspaper(snap) and (day := document_date(snap)) is not None:
            dated[sid] = day
    return dated


def named_of(claims: Iterable[Assertion], dated: dict[str, date]) -> Named | None:
    """The earliest of the `dated` newspapers that cites one of a person's claims."""
    days = [dated[cite.snapshot_id] for claim in claims
            if claim.status != AssertionStatus.REJECTED
            for cite in claim.citations if cite.snapshot_id in dated]
    if not days:
        return None
    day = min(days)
    return Named(day, years_before(day, ADULT_YEARS), f"a newspaper dated {day.isoformat()}")


def named_in_documents(graph: CaseGraph, dated: dict[str, date] | None = None) -> dict[str, Named]:
    """person id -> the earliest dated newspaper that cites a claim about them (`dated`:
    the graph's `dated_documents`, when already at hand).

    Only newspapers, whose dates come from their issue records, their Chronicling America
    file names or a weekday-checked masthead: a date in any other file's name
    ("notes_19160101.txt") may be anything but the day the document was written, and
    reading it as one would unlock the data of the living it names."""
    if dated is None:
        dated = dated_documents(graph)
    out: dict[str, Named] = {}
    if not dated:
        return out
    for pid, claims in graph.assertions.items():
        named = named_of(claims, dated)
        if named is not None:
            out[pid] = named
    return out
