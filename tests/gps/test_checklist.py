"""The five-element GPS checklist: pass / not yet, and what is missing."""

from __future__ import annotations

import gps_case

from sleuth.export import to_report
from sleuth.gps.checklist import ELEMENTS
from sleuth.gps.proof import load_inputs
from sleuth.store import Store, case_graph


def _section(report: str, heading: str) -> str:
    start = report.index(heading)
    end = report.find("\n### ", start + 1)
    return report[start: end if end != -1 else len(report)]


def _rows(section: str) -> dict[str, tuple[str, str]]:
    table = section[section.index("**5. GPS checklist.**"):]
    out = {}
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip("|").split(" | ")]
        if len(cells) == 3 and cells[0] in ELEMENTS:
            out[cells[0]] = (cells[1], cells[2])
    return out


def _report(store: Store) -> str:
    g = case_graph(store, title="Davis")
    return to_report(g, gps=load_inputs(store, g))


def test_checklist_has_five_elements_and_says_what_is_missing(elmer_case: Store) -> None:
    death = _rows(_section(_report(elmer_case), "### When and where did Elmer"))
    assert list(death) == list(ELEMENTS)
    assert death["Complete and accurate citations"] == ("pass", "-")
    assert death["Resolution of conflicting evidence"] == ("pass", "-")
    # one death certificate: direct and primary, but not yet correlated with a second original
    assert death["Analysis and correlation"][0] == "not yet"
    assert "1 independent original(s)" in death["Analysis and correlation"][1]


def test_checklist_turns_not_yet_until_the_required_record_set_is_searched(
        elmer_case: Store) -> None:
    g = case_graph(elmer_case)
    elmer = next(p.id for p in g.persons if p.canonical_name.startswith("Elmer"))
    # the death certificate names the parents, but no birth or baptism record was searched
    parents = _rows(_section(_report(elmer_case), "### Who were the parents of Elmer"))
    status, missing = parents["Reasonably exhaustive search"]
    assert status == "not yet"
    assert "required record set not searched: birth or baptism record naming the parents" \
        in missing
    # a blocked search is not a search
    gps_case.log_search(elmer_case, source="freereg", name="Elmer Lawrence Davis",
                        person_id=elmer, response=None, url="https://freereg.example/x",
                        success=False)
    parents = _rows(_section(_report(elmer_case), "### Who were the parents of Elmer"))
    assert "required record set not searched" in parents["Reasonably exhaustive search"][1]
    # a search that reads those records (here FamilySearch) settles that part, found or not
    gps_case.log_search(elmer_case, source="familysearch", name="Elmer Lawrence Davis",
                        person_id=elmer, response=None,
                        url="https://www.familysearch.org/search/record/results?q=Davis")
    parents = _rows(_section(_report(elmer_case), "### Who were the parents of Elmer"))
    assert "required record set not searched" not in parents["Reasonably exhaustive search"][1]
