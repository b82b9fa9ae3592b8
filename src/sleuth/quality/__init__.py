"""Data-quality checks: impossible or unusual dates and links, as findings (never facts).

`check_gedcom(path)` reads a GEDCOM file into a light tree (no store, seconds for royal92),
leniently: the problems the strict reader would refuse it for come first, as findings of the
"input" rule set (`sleuth.quality.input`); `check_graph(graph)` checks a case; both
decide who is living with the privacy rules (`sleuth.privacy.assess_living`, or `censor`
for a case) so no exact date of a living person is printed. `finding_to_hypothesis` turns
a finding into a research lead. The rules and their sources are documented in
`sleuth.quality.rules`.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from pathlib import Path

from sleuth.gedcom.validate import read_gedcom_file
from sleuth.model.dates import GenDate
from sleuth.model.graph import CaseGraph
from sleuth.model.records import Assertion, Person
from sleuth.privacy import assess_living, censor
from sleuth.privacy.redaction import paused_gc
from sleuth.quality.check import check_tree
from sleuth.quality.findings import SEVERITIES, Finding, finding_to_hypothesis
from sleuth.quality.input import RULE_IDS as INPUT_RULES
from sleuth.quality.input import SOURCE as INPUT_SOURCE
from sleuth.quality.input import input_findings
from sleuth.quality.rules import RULES, Rule
from sleuth.quality.tree import Span, TFamily, TPerson, Tree, tree_from_gedcom, tree_from_graph

__all__ = [
    "INPUT_RULES",
    "INPUT_SOURCE",
    "RULES",
    "SEVERITIES",
    "Finding",
    "Rule",
    "Span",
    "TFamily",
    "TPerson",
    "Tree",
    "check_gedcom",
    "check_graph",
    "check_tree",
    "finding_to_hypothesis",
    "input_findings",
    "living_in_tree",
    "tree_from_gedcom",
    "tree_from_graph",
]


def living_in_tree(tree: Tree, *, today: date | None = None) -> set[str]:
    """Who the privacy rules treat as living, judged on the tree's own dates and links."""
    persons: list[Person] = []
    claims: dict[str, list[Assertion]] = {}
    for p in tree.persons.values():
        parents = {s for f in p.famc[:1] for s in tree.families[f].spouses if s != p.id}
        spouses = {s for f in p.fams for s in tree.families[f].spouses if s != p.id}
        children = {c for f in p.fams for c in tree.families[f].children if c != p.id}
        death = p.death.gd if p.death else (GenDate() if p.has_death or p.burial else None)
        birth = p.birth.gd if p.birth else (p.baptism.gd if p.baptism else None)
        persons.append(Person(id=p.id, birth=birth, death=death, parents=parents,
                              spouses=spouses, children=children))
        events = [(lbl, s) for lbl, s in p.events if lbl not in ("birth", "death")]
        for f in p.fams:
            m = tree.families[f].marriage
            if m is not None:
                events.append(("marriage", m))
        claims[p.id] = [
            Assertion(entity_id=p.id, field_name=f"{lbl}_date", value=s.gd.original,
                      date=s.gd, confidence=0.5)
            for lbl, s in events
        ]
    graph = CaseGraph(persons=persons, assertions=claims)
    return {pid for pid, (living, _) in assess_living(graph, today=today).items() if living}


def check_gedcom(
    path: Path,
    *,
    today: date | None = None,
    mask_names: bool = False,
    only: Iterable[str] | None = None,
) -> tuple[Tree, list[Finding]]:
    """Findings for a GEDCOM file (ids are its xrefs without @), its input problems first.
    Raises InputError for a file that cannot be read or is not GEDCOM."""
    ged = read_gedcom_file(path, strict=False)
    tree = tree_from_gedcom(path, ged)
    tree.living = living_in_tree(tree, today=today)
    only = list(only) if only is not None else None
    found = input_findings(((str(path), p) for p in ged.issues), only)
    return tree, found + check_tree(tree, today=today, mask_names=mask_names, only=only)


def check_graph(
    graph: CaseGraph,
    *,
    today: date | None = None,
    mask_names: bool = False,
    only: Iterable[str] | None = None,
) -> tuple[Tree, list[Finding]]:
    """Findings for a case, always computed on the censored graph."""
    with paused_gc():  # allocation-heavy, no cycles, beside a large graph
        safe = censor(graph, today=today, mask_names=mask_names)
        tree = tree_from_graph(safe)
        return tree, check_tree(tree, today=today, mask_names=mask_names, only=only)
