"""The GPS proof arguments in report.md: five elements, footnoted, negative evidence, privacy."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from types import ModuleType

from shared_data import shared_path
from sleuth.agents.ingest import ingest_path
from sleuth.export import to_report
from sleuth.gps.coverage import coverage, record_negative
from sleuth.gps.proof import load_inputs
from sleuth.model import CaseGraph
from sleuth.store import Store, case_graph

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "gps"))
import gps_case

FS = ("recorded", "familysearch", "saved_fetch_objects")
FOOTNOTE_DEF = re.compile(r"^\[\^(\d+)\]: (.*)$", re.MULTILINE)


def _section(report: str, heading: str) -> str:
    start = report.index(heading)
    nxt = report.find("\n### ", start + 1)
    end_h2 = report.find("\n## ", start + 1)
    ends = [e for e in (nxt, end_h2) if e != -1]
    return report[start: min(ends) if ends else len(report)]


def _elmer_case(store: Store) -> tuple[CaseGraph, str]:
    ingest_path(store, shared_path(*FS, "us_va_death_1955_elmer_davis.json"))
    g = case_graph(store)
    elmer = next(p.id for p in g.persons if p.canonical_name.startswith("Elmer"))
    gps_case.log_search(
        store, source="wikitree", name="Elmer Lawrence Davis", person_id=elmer,
        response=shared_path("recorded", "wikitree", "api_docs", "json_examples",
                             "searchPerson.json"),
        url="https://api.wikitree.com/api.php?action=searchPerson&LastName=Davis")
    record_negative(store, coverage(store, case_graph(store)))
    return case_graph(store, title="Davis"), elmer


def test_proof_section_has_every_gps_element(store: Store) -> None:
    g, _ = _elmer_case(store)
    report = to_report(g, gps=load_inputs(store, g))
    assert "\n## Proof arguments (Genealogical Proof Standard)\n" in report
    death = _section(report, "### When and where did Elmer Lawrence Davis die?")
    for part in ("**1. Search.**", "**2. Evidence.**", "**3. Correlation and conflicts.**",
                 "**4. Conclusion.**"):
        assert part in death
    assert "Search verdict: reasonably exhaustive." in death
    assert "Searched, nothing found (negative evidence): wikitree searched on" in death
    assert "| death_date | 1955-01-06 | derivative | primary | direct |" in death
    assert "death date: 1955-01-06 [^" in death and "Confidence: proved (" in death
    birth = _section(report, "### When and where was Elmer Lawrence Davis born?")
    assert "| birth_date | 1910-04-12 | derivative | secondary | direct |" in birth
    assert "not yet reasonably exhaustive: no direct evidence with primary information" in birth
    assert "Confidence: probable (" in birth
    parents = _section(report, "### Who were the parents of Elmer Lawrence Davis?")
    assert "parent: Emmett Davis [^" in parents and "parent: Willie Parcell [^" in parents


def test_negative_evidence_footnote_quotes_the_search_response(store: Store) -> None:
    g, _ = _elmer_case(store)
    report = to_report(g, gps=load_inputs(store, g))
    body = report[: report.index("## Citations")]
    defs = dict(FOOTNOTE_DEF.findall(report))
    assert set(re.findall(r"\[\^(\d+)\]", body)) == set(defs)
    neg_line = next(line for line in body.splitlines() if "negative evidence):" in line)
    [n] = re.findall(r"\[\^(\d+)\]", neg_line)
    assert defs[n].startswith('"[ { "status": 0, "matches": [')
    assert "api.wikitree.com" in defs[n] and "chars 0–" in defs[n]


def test_report_without_the_store_still_writes_proofs(store: Store) -> None:
    g, _ = _elmer_case(store)
    report = to_report(g)
    assert "research log was not supplied" in report
    assert "### When and where did Elmer Lawrence Davis die?" in report
    assert "negative evidence):" not in report


def test_living_persons_get_no_proof_and_leak_nothing(store: Store) -> None:
    ingest_path(store, shared_path(*FS, "us_tx_divorce_1976_sarah_pate.json"))
    g = case_graph(store)
    report = to_report(g, gps=load_inputs(store, g))
    proofs = report[report.index("## Proof arguments"): report.index("## Hypotheses")]
    assert "Sarah E Pate" not in proofs and "John T Pate" not in proofs
    for secret in ("1976-06-09", "1976-02-14", "9 Jun 1976", "14 Feb 1976"):
        assert secret not in report


def test_conflicts_and_their_resolution_are_argued(family: CaseGraph, fam: ModuleType) -> None:
    report = to_report(family, today=fam.TODAY)
    birth = _section(report, "### When and where was Thomas Whitfield born?")
    assert "competing values 3 March 1902 (weight 0.640); abt 1900 (weight 0.336)" in birth
    assert "Recommended 3 March 1902 (tentative, needs corroboration)" in birth
    assert "All alternatives are kept." in birth
    assert "Confidence: probable" in birth  # a tentative conflict is never "proved"
    proofs = report[report.index("## Proof arguments"): report.index("## Hypotheses")]
    assert "Emma" not in proofs and "Daniel" not in proofs
    for secret in fam.EMMA_SECRETS:
        assert secret not in proofs
