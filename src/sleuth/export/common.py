"""Helpers shared by every output format, so that JSON-LD and the report never disagree.

Everything here reads an already-censored CaseGraph; none of it decides what is private.
"""

from __future__ import annotations

from sleuth.model.citation import Citation
from sleuth.model.dates import GenDate
from sleuth.model.graph import CaseGraph, Conflict
from sleuth.model.records import Assertion, AssertionStatus, Person, Snapshot
from sleuth.privacy.redaction import MENTIONS_LIVING, REDACTED_EXCERPT

# field -> (event type, role in the event); fields not listed are plain person attributes.
EVENT_FIELDS: dict[str, tuple[str, str]] = {
    "birth_date": ("birth", "date"),
    "birth_place": ("birth", "place"),
    "baptism_date": ("baptism", "date"),
    "baptism_place": ("baptism", "place"),
    "christening_date": ("baptism", "date"),
    "death_date": ("death", "date"),
    "death_place": ("death", "place"),
    "burial_date": ("burial", "date"),
    "burial_place": ("burial", "place"),
    "marriage_date": ("marriage", "date"),
    "marriage_place": ("marriage", "place"),
}
EVENT_ORDER = ("birth", "baptism", "marriage", "death", "burial")
REDACTION_MARKERS = frozenset({REDACTED_EXCERPT, MENTIONS_LIVING})


def label(field: str) -> str:
    """birth_date -> "Birth date"."""
    return field.replace("_", " ").capitalize()


def date_text(gd: GenDate | None) -> str:
    """ISO 8601 text at the precision actually known; a range becomes an ISO interval.

    A range spanning several years (an "abt 1850" or a censored decade) is written
    "1848/1852" rather than as one year, so no output ever pretends to a precision the
    evidence lacks. Open ends use ".." (ISO 8601-2).
    """
    if gd is None or (gd.earliest is None and gd.latest is None):
        return ""
    lo, hi = gd.earliest, gd.latest
    if lo and hi and lo.year != hi.year:
        if lo.month == 1 and lo.day == 1 and hi.month == 12 and hi.day == 31:
            return f"{lo.year:04d}/{hi.year:04d}"
        return f"{lo.isoformat()}/{hi.isoformat()}"
    if lo and hi:
        return gd.iso()
    if lo:
        return f"{lo.isoformat()}/.."
    assert hi is not None
    return f"../{hi.isoformat()}"


def human_date(gd: GenDate | None) -> str:
    """Readable form for the report: the censor's "1990s" label, else the ISO text."""
    if gd is None:
        return ""
    if gd.original.endswith(("s", "earlier", "later")) and gd.original[:1].isdigit():
        return gd.original
    return date_text(gd)


def claims(graph: CaseGraph, person_id: str) -> list[Assertion]:
    """A person's claims minus rejected ones: rejected claims are never stated."""
    return [a for a in graph.assertions.get(person_id, []) if a.status != AssertionStatus.REJECTED]


def conflict_by_assertion(graph: CaseGraph) -> dict[str, Conflict]:
    out: dict[str, Conflict] = {}
    for conflict in graph.conflicts:
        for rc in conflict.competing:
            out[rc.assertion_id] = conflict
        out.setdefault(conflict.recommended_assertion_id, conflict)
    return out


def assertion_index(graph: CaseGraph) -> dict[str, Assertion]:
    return {a.id: a for items in graph.assertions.values() for a in items}


def recommended_index(graph: CaseGraph) -> dict[tuple[str, str], list[str]]:
    """(person, field) -> the recommended claim id of each of its conflicts, in order."""
    out: dict[tuple[str, str], list[str]] = {}
    for conflict in graph.conflicts:
        out.setdefault((conflict.person_id, conflict.field), []).append(
            conflict.recommended_assertion_id)
    return out


def preferred(graph: CaseGraph, person_id: str, field: str,
              recommended: dict[tuple[str, str], list[str]] | None = None) -> Assertion | None:
    """The recommended claim of a conflict, else the most confident claim of that field.
    An exporter asking for every person passes `recommended_index(graph)`, built once: a
    loop over every conflict per call was quadratic in the case."""
    candidates = [a for a in claims(graph, person_id) if a.field_name == field]
    if not candidates:
        return None
    if recommended is None:
        recommended = recommended_index(graph)
    for rid in recommended.get((person_id, field), ()):
        for a in candidates:
            if a.id == rid:
                return a
    return max(candidates, key=lambda a: a.confidence)


def display_name(person: Person | None, fallback: str = "") -> str:
    if person is None:
        return fallback or "unknown person"
    name = person.canonical_name or " ".join(x for x in (person.given_name, person.surname) if x)
    return name or f"person {person.id}"


def page_of(citation: Citation, snapshot: Snapshot | None) -> int | None:
    if citation.locator.page is not None:
        return citation.locator.page
    return snapshot.page_of(citation.locator.start) if snapshot is not None else None


def position(citation: Citation, snapshot: Snapshot | None) -> str:
    loc = citation.locator
    text = f"chars {loc.start}-{loc.end}"
    page = page_of(citation, snapshot)
    return f"{text}, p. {page}" if page is not None else text


def where(snapshot: Snapshot | None) -> str:
    if snapshot is None:
        return ""
    return snapshot.url or snapshot.path or ""


def relationship_kinds(person: Person) -> list[tuple[str, set[str]]]:
    return [("parent", person.parents), ("spouse", person.spouses), ("child", person.children)]
