"""Import -> export -> import, and what "preserves" means, shared by the round-trip tests."""

from __future__ import annotations

from collections import Counter
from datetime import date
from pathlib import Path

from sleuth.export import to_gedcom
from sleuth.export.common import REDACTION_MARKERS
from sleuth.export.names import split_honorific
from sleuth.extract.records.gedcom import FAMILY_EVENTS
from sleuth.gedcom import Gedcom, parse_gedcom
from sleuth.model import CaseGraph
from sleuth.pipeline.ingest import ingest_path
from sleuth.privacy.redaction import censor
from sleuth.store import Store, case_graph

TODAY = date(2026, 11, 22)
RELATIONS = ("parent", "spouse")
FAMILY_KINDS = {kind.split("_")[0] for kind in FAMILY_EVENTS.values()}


def load(path: Path, where: Path) -> CaseGraph:
    store = Store.create_case(where)
    try:
        ingest_path(store, path)
        return case_graph(store, title=path.name)
    finally:
        store.close()


def _lines(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def our_sources(ged: Gedcom) -> set[str]:
    """The export's SOUR records for stored snapshots (the others are the tree's own)."""
    return {r.xref for r in ged.of_tag("SOUR") if r.xref and any(
        n.tag == "NOTE" and n.value.startswith("sleuth snapshot") for n in r.children)}


def our_texts(ged: Gedcom) -> list[str]:
    """DATA/TEXT of every citation of a stored snapshot: the excerpts the export quotes."""
    ours = our_sources(ged)
    return [t.value for r in ged.records for n in r.walk()
            if n.tag == "SOUR" and n.value in ours
            for d in n.all("DATA") for t in d.all("TEXT")]


def facts(graph: CaseGraph, skip: set[str]) -> Counter[tuple[str, str, str]]:
    """(person name, field, value) of every non-relationship claim; dates by their range.

    People in `skip` (the living) are left out, and so are the family events of their
    partners: the Censor coarsens those by design, so they cannot survive unchanged.
    """
    out: Counter[tuple[str, str, str]] = Counter()
    names = {p.id: p.canonical_name for p in graph.persons}
    for p in graph.persons:
        if p.id in skip:
            continue
        with_living = any(s in skip for s in p.spouses)
        for a in graph.assertions.get(p.id, []):
            if a.field_name in RELATIONS or a.field_name == "sibling":
                continue
            if with_living and a.field_name.split("_")[0] in FAMILY_KINDS:
                continue
            value = a.value
            if a.field_name == "name":  # the export writes "Dr." in NPFX, not in NAME
                value = split_honorific(value)[1]
            if a.date is not None and (a.date.earliest or a.date.latest):
                value = f"{a.date.earliest}..{a.date.latest}"
            out[(names[p.id], a.field_name, value)] = 1  # claims that agree: one fact
    return out


def relations(graph: CaseGraph, skip: set[str]) -> Counter[tuple[str, str, str]]:
    names = {p.id: p.canonical_name for p in graph.persons}
    return Counter(
        (names[p.id], kind, names.get(other, "?"))
        for p in graph.persons if p.id not in skip
        for kind, others in (("parent", p.parents), ("spouse", p.spouses))
        for other in others if other not in skip
    )


def round_trip(path: Path, tmp: Path, version: str = "5.5.1") -> dict[str, object]:
    """Everything the round-trip tests compare, for one file and one GEDCOM version."""
    first = load(path, tmp / "first")
    safe = censor(first, today=TODAY)  # what the exporter writes from
    censored = {p.id for p in safe.persons if p.is_living}
    living_names = Counter(p.canonical_name for p in first.persons if p.id in censored)
    # people are matched across the two imports by name, so a living person's namesakes
    # are left out on both sides
    living = {p.id for p in first.persons if living_names[p.canonical_name]}
    text = to_gedcom(first, version=version, today=TODAY)
    out = tmp / f"export-{version}.ged"
    out.write_text(text, encoding="utf-8")
    second = load(out, tmp / "second")
    skip2 = {p.id for p in second.persons if living_names[p.canonical_name]}
    ged = parse_gedcom(text)
    texts = our_texts(ged)
    excerpts = {_lines(c.excerpt) for items in first.assertions.values() for a in items
                for c in a.citations}
    cited = [(a, c) for items in safe.assertions.values() for a in items for c in a.citations]
    redacted = {(c.snapshot_id, c.locator.start) for _, c in cited
                if c.excerpt in REDACTION_MARKERS}
    kept = {_lines(c.excerpt) for a, c in cited if a.field_name not in (*RELATIONS, "sex")
            and (c.snapshot_id, c.locator.start) not in redacted}
    return {
        "first": first, "second": second, "ged": ged,
        "persons": (len(first.persons), len(second.persons)),
        "facts": (facts(first, living), facts(second, skip2)),
        "relations": (relations(first, living), relations(second, skip2)),
        "families": len(ged.of_tag("FAM")),
        "foreign_texts": [t for t in texts if _lines(t) not in excerpts | REDACTION_MARKERS],
        "lost_excerpts": kept - {_lines(t) for t in texts},
    }
