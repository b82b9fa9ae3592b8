"""Conclusions on the merged view: parents as persons, and the family-link problems that no
sound conclusion can stand on (more than two parents, two mothers, a person among their own
relatives or ancestors) fail the GPS checklist and are listed as conflicts."""

from __future__ import annotations

import re

from sleuth.export import to_report
from sleuth.gps.conclusions import Family
from sleuth.gps.proof import load_inputs
from sleuth.model import CaseGraph, Person
from sleuth.store import Store, case_graph


def _checklist(report: str, heading: str) -> dict[str, tuple[str, str]]:
    start = report.index(heading)
    section = report[start: report.find("\n### ", start + 1)]
    rows = {}
    for line in section[section.index("**5. GPS checklist.**"):].splitlines():
        cells = [c.strip() for c in line.strip("|").split(" | ")]
        if len(cells) == 3 and cells[1] in ("pass", "not yet"):
            rows[cells[0]] = (cells[1], cells[2])
    return rows


def _with_parents(g: CaseGraph, child: str, *extra: Person) -> CaseGraph:
    """The read model of a case whose merged records gave `child` more parents
    (`CaseGraph.extra_parents`, as `store.case_graph` reports them)."""
    persons = [p.model_copy(update={"children": {child}}) for p in extra]
    return g.model_copy(update={"persons": [*g.persons, *persons],
                                "extra_parents": {child: [p.id for p in extra]}})


def test_parents_are_concluded_per_person_never_from_the_childs_own_name(
        elmer_case: Store) -> None:
    g = case_graph(elmer_case, title="Davis")
    elmer = next(p.id for p in g.persons if p.canonical_name.startswith("Elmer"))
    report = to_report(g, gps=load_inputs(elmer_case, g))
    start = report.index("### Who were the parents of Elmer Lawrence Davis?")
    conclusion = report[report.index("**4. Conclusion.**", start):]
    conclusion = conclusion[: conclusion.index("Confidence:")]
    assert re.search(r"father: Emmett Davis (\[\^\d+\])+; mother: Willie Parcell "
                     r"(\[\^\d+\])+\.", conclusion)
    assert "Elmer" not in conclusion
    assert Family(g).problems() == []
    checks = _checklist(report, "### Who were the parents of Elmer")
    assert checks["Soundly reasoned written conclusion"] == ("pass", "-")
    assert elmer


def test_more_than_two_parents_fails_the_checklist_and_is_a_listed_conflict(
        elmer_case: Store) -> None:
    g = case_graph(elmer_case, title="Davis")
    elmer = next(p.id for p in g.persons if p.canonical_name.startswith("Elmer"))
    g = _with_parents(g, elmer, Person(canonical_name="John Davis", sex="M", is_living=False),
                      Person(canonical_name="Mary Smith", sex="F", is_living=False))
    problems = Family(g).problems()
    kinds = sorted(p.kind for p in problems if p.person_id == elmer)
    assert kinds == ["fathers", "mothers", "parents"]
    report = to_report(g, gps=load_inputs(elmer_case, g))
    checks = _checklist(report, "### Who were the parents of Elmer")
    assert checks["Resolution of conflicting evidence"][0] == "not yet"
    assert "is linked to four parents" in checks["Resolution of conflicting evidence"][1]
    status, missing = checks["Soundly reasoned written conclusion"]
    assert status == "not yet" and "unresolved conflicting evidence" in missing
    conflicts = report[report.index("## Conflicts"): report.index("## What to search next")]
    listed = re.findall(r"^### Conflict (\d+): (.+)$", conflicts, re.MULTILINE)
    assert [t for _, t in listed].count("family links of Elmer Lawrence Davis") == 3
    summary = report[report.index("## Summary"): report.index("## Persons")]
    assert f"| Conflicts | {len(listed)} (0 between sources' values, 0 of them tentative; " \
           f"{len(listed)} in the family links) |" in summary
    # the person table points at the conflict; the extra parents are shown, not hidden
    table = report[report.index("### Elmer Lawrence Davis\n"):]
    table = table[: table.index("\n### ")]
    assert "| Father | John Davis (see Conflict" in table
    assert "| Mother | Mary Smith (see Conflict" in table


def test_a_person_among_their_own_ancestors_is_a_conflict(elmer_case: Store) -> None:
    g = case_graph(elmer_case, title="Davis")
    by = {p.canonical_name: p for p in g.persons}
    elmer, emmett = by["Elmer Lawrence Davis"], by["Emmett Davis"]
    # a wrong link: Elmer recorded as his own father's parent
    persons = [p.model_copy(update={"parents": p.parents | {elmer.id}}) if p.id == emmett.id
               else p.model_copy(update={"children": p.children | {emmett.id}})
               if p.id == elmer.id else p for p in g.persons]
    g = g.model_copy(update={"persons": persons})
    problems = [p for p in Family(g).problems() if p.kind in ("ancestry", "roles")]
    texts = " ".join(p.text for p in problems)
    assert "is recorded as their own ancestor" in texts
    assert "Emmett Davis is recorded as both parent and child of Elmer Lawrence Davis" in texts
    report = to_report(g, gps=load_inputs(elmer_case, g))
    checks = _checklist(report, "### Who were the parents of Elmer")
    assert checks["Soundly reasoned written conclusion"][0] == "not yet"
