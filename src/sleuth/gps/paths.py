"""The relationship path between two persons: the shortest chain of cited family links.

Breadth-first over the case graph's parent, child and spouse links (each step costs one;
ties go to blood links first, so a path through a parent is preferred to one through an
in-law). Each step carries the claims that cite the link, from either side, so a report can
footnote it; a link without a cited claim is marked as such, never stated as fact.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from sleuth.model.citation import Citation
from sleuth.model.graph import CaseGraph
from sleuth.model.records import AssertionStatus, Person
from sleuth.privacy.view import CensoredGraph

_INVERSE = {"parent": "child", "child": "parent", "spouse": "spouse"}
_ORDER = ("parent", "child", "spouse")


@dataclass
class Step:
    from_id: str
    to_id: str
    kind: str  # what `to_id` is to `from_id`: parent, child or spouse
    citations: list[Citation] = field(default_factory=list)


def _links(p: Person) -> list[tuple[str, str]]:
    sets = {"parent": p.parents, "child": p.children, "spouse": p.spouses}
    return [(kind, other) for kind in _ORDER for other in sorted(sets[kind])]


def _cites(graph: CaseGraph, persons: dict[str, Person], a: str, b: str,
           kind: str) -> list[Citation]:
    """Claims that `b` is `a`'s `kind`: a's own claim naming b, or b's inverse claim naming a."""
    out: list[Citation] = []
    for owner, target, want in ((a, b, kind), (b, a, _INVERSE[kind])):
        p = persons.get(target)
        names = {target.casefold()} | ({p.canonical_name.casefold()} if p else set())
        for claim in graph.assertions.get(owner, []):
            if (claim.field_name == want and claim.status is not AssertionStatus.REJECTED
                    and (claim.related_id == target
                         or claim.value.strip().casefold() in names)):
                out += claim.citations
    return out


def relationship_path(graph: CensoredGraph, a: str, b: str) -> list[Step] | None:
    """Steps from `a` to `b` (empty when a == b); None when they are not connected."""
    persons = {p.id: p for p in graph.persons}
    if a not in persons or b not in persons:
        raise KeyError(f"person {a if a not in persons else b} is not in this case")
    prev: dict[str, tuple[str, str] | None] = {a: None}
    queue = deque([a])
    while queue and b not in prev:
        cur = queue.popleft()
        for kind, other in _links(persons[cur]):
            if other in persons and other not in prev:
                prev[other] = (cur, kind)
                queue.append(other)
    if b not in prev:
        return None
    steps: list[Step] = []
    node = b
    while (back := prev[node]) is not None:
        cur, kind = back
        steps.append(Step(cur, node, kind, _cites(graph, persons, cur, node, kind)))
        node = cur
    return steps[::-1]


def describe_path(graph: CensoredGraph, steps: list[Step] | None) -> str:
    """"A → (father) B → (spouse) C" with the sex-specific word where the sex is known."""
    if steps is None:
        return "not connected in this case"
    names = {p.id: p.canonical_name or p.id for p in graph.persons}
    sexes = {p.id: p.sex for p in graph.persons}
    words = {"parent": ("father", "mother"), "child": ("son", "daughter"),
             "spouse": ("husband", "wife")}
    if not steps:
        return "the same person"
    out = names[steps[0].from_id]
    for s in steps:
        m, f = words[s.kind]
        word = m if sexes.get(s.to_id) == "M" else f if sexes.get(s.to_id) == "F" else s.kind
        cited = "" if s.citations else ", no citation on file"
        out += f" → ({word}{cited}) {names[s.to_id]}"
    return out
