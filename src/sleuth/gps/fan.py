"""FAN club (friends, associates, neighbours): who keeps turning up beside a person.

Elizabeth Shown Mills' FAN principle: when a person's own records run out, the people named
with them (marriage witnesses, baptism sponsors, informants, the household next door in a
census) often lead back to where they came from. Here an *associate* of X is a person, not
X's parent, child, spouse or sibling, named in the same record as X:

* the same FamilySearch record (one record per snapshot), or
* in a register, the same entry (line); in a census, the same or the next line (a lodger, a
  servant, the household next door);
* in a newspaper or document, a citation within `NEAR` characters of one of X's (the same
  notice).

Family trees, GEDCOM files and encyclopaedia articles are skipped: everybody in a file is not
an associate. Associates who also appear with each other form one *cluster*. Each cluster
becomes a hypothesis (`is_fact=False`): a lead, never a fact.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sleuth.gps.kinds import SourceKind, describe
from sleuth.model import Agent
from sleuth.model.citation import Citation
from sleuth.model.graph import CaseGraph
from sleuth.model.records import AssertionStatus, Hypothesis
from sleuth.privacy.view import CensoredGraph

NEAR = 400
_SKIP = frozenset({SourceKind.GEDCOM_FILE, SourceKind.WIKITREE_PROFILE,
                   SourceKind.WIKIDATA_ENTITY, SourceKind.WIKIPEDIA_ARTICLE})
_LINE_KINDS = frozenset({SourceKind.PARISH_REGISTER, SourceKind.CENSUS})  # one entry a line
ROLE_FIELDS = {"witness": "witness", "sponsor": "sponsor", "godparent": "godparent",
               "godfather": "godparent", "godmother": "godparent", "informant": "informant",
               "neighbour": "neighbour", "neighbor": "neighbour", "lodger": "lodger",
               "servant": "servant", "boarder": "lodger"}


@dataclass
class Associate:
    person_id: str
    name: str
    snapshots: list[str] = field(default_factory=list)  # records naming both
    roles: set[str] = field(default_factory=set)
    citations: list[Citation] = field(default_factory=list)  # the associate's, in them


def _family(graph: CaseGraph, pid: str) -> set[str]:
    persons = {p.id: p for p in graph.persons}
    p = persons[pid]
    siblings = {c for par in p.parents if par in persons for c in persons[par].children}
    return {pid} | p.parents | p.children | p.spouses | siblings


def _spans(graph: CaseGraph) -> dict[str, dict[str, list[tuple[Citation, str]]]]:
    """snapshot -> person -> (citation, field) for every non-rejected claim."""
    out: dict[str, dict[str, list[tuple[Citation, str]]]] = {}
    for pid, claims in graph.assertions.items():
        for a in claims:
            if a.status is AssertionStatus.REJECTED:
                continue
            for c in a.citations:
                out.setdefault(c.snapshot_id, {}).setdefault(pid, []).append((c, a.field_name))
    return out


def _line(text: str, c: Citation) -> int:
    if c.locator.line:
        return c.locator.line
    return text.count("\n", 0, c.locator.start)


def _near(a: Citation, b: Citation) -> bool:
    la, lb = a.locator, b.locator
    return max(la.start, lb.start) - min(la.end, lb.end) <= NEAR


def associates(graph: CaseGraph, person_id: str) -> list[Associate]:
    """Persons named in the same records as `person_id`, most records first."""
    if graph.person(person_id) is None:
        raise KeyError(f"person {person_id} is not in this case")
    family = _family(graph, person_id)
    names = {p.id: p.canonical_name or p.id for p in graph.persons}
    found: dict[str, Associate] = {}
    for sid, by_person in _spans(graph).items():
        mine = by_person.get(person_id)
        snap = graph.snapshots.get(sid)
        if not mine or snap is None:
            continue
        info = describe(snap)
        if info.kind in _SKIP or info.event == "tree":
            continue
        whole = info.kind is SourceKind.FAMILYSEARCH_RECORD
        lines = info.kind in _LINE_KINDS
        reach = 1 if info.kind is SourceKind.CENSUS else 0
        mine_lines = {_line(snap.text, m) for m, _ in mine} if lines else set()
        for other, cites in by_person.items():
            if other in family:
                continue
            close = []
            for c, f in cites:
                if lines:
                    d = min(abs(_line(snap.text, c) - x) for x in mine_lines)
                    role = ROLE_FIELDS.get(f, "named in the same entry" if d == 0
                                           else "census neighbour")
                    if d <= reach:
                        close.append((c, role))
                elif whole or any(_near(c, m) for m, _ in mine):
                    close.append((c, ROLE_FIELDS.get(f, "named in the same record")))
            if not close:
                continue
            a = found.setdefault(other, Associate(other, names.get(other, other)))
            a.snapshots.append(sid)
            a.citations += [c for c, _ in close]
            a.roles |= {r for _, r in close}
    for a in found.values():  # a witness is not also "named in the same entry"
        specific = a.roles - {"named in the same entry", "named in the same record"}
        a.roles = specific or a.roles
    return sorted(found.values(), key=lambda a: (-len(a.snapshots), a.name))


def clusters(graph: CaseGraph, person_id: str) -> list[list[Associate]]:
    """Associates grouped by whether they also appear with each other (largest first)."""
    assoc = associates(graph, person_id)
    ids = {a.person_id for a in assoc}
    parent = {a.person_id: a.person_id for a in assoc}

    def find(x: str) -> str:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a in assoc:
        for b in associates(graph, a.person_id):
            if b.person_id in ids and set(b.snapshots) & set(a.snapshots):
                parent[find(a.person_id)] = find(b.person_id)
    groups: dict[str, list[Associate]] = {}
    for a in assoc:
        groups.setdefault(find(a.person_id), []).append(a)
    return sorted(groups.values(), key=lambda g: (-len(g), g[0].name))


def fan_hypotheses(graph: CensoredGraph, person_id: str) -> list[Hypothesis]:
    """One research lead per cluster; never a fact."""
    target = graph.person(person_id)
    name = (target.canonical_name if target else "") or person_id
    out = []
    for group in clusters(graph, person_id):
        records = sorted({s for a in group for s in a.snapshots})
        who = "; ".join(f"{a.name} ({', '.join(sorted(a.roles))}, {len(a.snapshots)} "
                        "record(s))" for a in group)
        out.append(Hypothesis(
            hypothesis_type="fan_club",
            statement=(f"FAN club of {name}: {who}. Associates named with {name} in "
                       f"{len(records)} record(s) may share an origin; their own records "
                       f"(birthplaces, earlier residences) may lead to {name}'s."),
            target_person=person_id,
            suggested_queries=[f"records of {a.name}" for a in group][:5],
            priority=min(0.9, 0.3 + 0.15 * len(records)),
            generated_by=Agent.ANALYST,
            evidence=[c for a in group for c in a.citations][:10],
        ))
    return out
