"""The GPS proof arguments in report.md: five elements, footnoted, negative evidence, privacy."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from types import ModuleType

from shared_data import shared_path
from sleuth.export import to_report
from sleuth.gps.coverage import coverage, record_negative
from sleuth.gps.proof import load_inputs
from sleuth.model import CaseGraph
from sleuth.pipeline.ingest import ingest_path
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
    assert "\n## Appendix B: Proof arguments (Genealogical Proof Standard)\n" in report
    death = _section(report, "### When and where did Elmer Lawrence Davis die?")
    for part in ("**1. Search.**", "**2. Evidence.**", "**3. Correlation and conflicts.**",
                 "**4. Conclusion.**", "**5. GPS checklist.**"):
        assert part in death
    assert "Search verdict: reasonably exhaustive." in death
    assert ("Searched, nothing found (negative evidence): A search of WikiTree for “Elmer "
            "Lawrence Davis” found 10 results, none of them plausibly Elmer Lawrence Davis"
            in death)
    assert ("| death | 6 January 1955 | the FamilySearch record “Virginia, Death "
            "Certificates, 1912-1987” | derivative | primary | direct |") in death
    assert "death: 6 January 1955 [^" in death and "Confidence: proved (" in death
    birth = _section(report, "### When and where was Elmer Lawrence Davis born?")
    assert "| birth | 12 April 1910 |" in birth and "| derivative | secondary | direct |" in birth
    assert "not yet reasonably exhaustive: no direct evidence with primary information" in birth
    assert "Confidence: probable (" in birth
    parents = _section(report, "### Who were the parents of Elmer Lawrence Davis?")
    # the parents are persons, each with the claims that name them
    assert "father: Emmett Davis [^" in parents and "mother: Willie Parcell [^" in parents


def test_negative_evidence_cites_the_search_response(store: Store) -> None:
    g, _ = _elmer_case(store)
    report = to_report(g, gps=load_inputs(store, g))
    body = report[: report.index("## Notes")]
    defs = dict(FOOTNOTE_DEF.findall(report))
    assert set(re.findall(r"\[\^(\d+)\]", body)) == set(defs)
    neg_line = next(line for line in body.splitlines() if "negative evidence):" in line)
    [n] = re.findall(r"\[\^(\d+)\]", neg_line)
    assert defs[n].startswith("wikitree API, search results (https://api.wikitree.com/")
    quotes = report[report.index("## Appendix A"): report.index("## Appendix B")]
    entry = quotes[quotes.index(f"\n{n}. "):]
    assert "   - “[ { \"status\": 0, \"matches\": [" in entry.split("\n", 3)[2]


def test_report_without_the_store_still_writes_proofs(store: Store) -> None:
    g, _ = _elmer_case(store)
    report = to_report(g)
    assert "research log was not supplied" in report
    assert "### When and where did Elmer Lawrence Davis die?" in report
    assert "negative evidence):" not in report
    assert "## Research question" not in report  # no research run: no question to answer


def test_living_persons_get_no_proof_and_leak_nothing(store: Store) -> None:
    ingest_path(store, shared_path(*FS, "us_tx_divorce_1976_sarah_pate.json"))
    g = case_graph(store)
    report = to_report(g, gps=load_inputs(store, g))
    proofs = report[report.index("## Appendix B"): report.index("## Appendix C")]
    assert "Sarah E Pate" not in proofs and "John T Pate" not in proofs
    for secret in ("1976-06-09", "1976-02-14", "9 Jun 1976", "14 Feb 1976", "9 June 1976",
                   "14 February 1976"):
        assert secret not in report


def test_conflicts_and_their_resolution_are_argued(family: CaseGraph, fam: ModuleType) -> None:
    report = to_report(family, today=fam.TODAY)
    birth = _section(report, "### When and where was Thomas Whitfield born?")
    assert "- Conflict over the birth (tentative, needs corroboration):" in birth
    assert "All alternatives are kept." in birth
    assert "| Resolution of conflicting evidence | not yet | conflict on birth date is " \
        "tentative" in birth
    assert "| Soundly reasoned written conclusion | not yet |" in birth
    assert "Confidence: probable" in birth  # a tentative conflict is never "proved"
    proofs = report[report.index("## Appendix B"): report.index("## Appendix C")]
    assert "Emma" not in proofs and "Daniel" not in proofs
    for secret in fam.EMMA_SECRETS:
        assert secret not in proofs


def test_same_evidence_same_report_whatever_the_ids(tmp_path: Path) -> None:
    """Two cases built from the same records get different random ids; the reports (note
    numbers, orders, wording) are the same: everything is sorted by content."""
    reports = []
    for name in ("a", "b"):
        store = Store.create_case(tmp_path / name)
        try:
            for record in ("us_va_death_1955_elmer_davis.json",
                           "england_baptism_1838_george_newberry.json",
                           "us_tx_divorce_1976_sarah_pate.json"):
                ingest_path(store, shared_path(*FS, record))
            g = case_graph(store, title="same")
            reports.append(to_report(g, gps=load_inputs(store, g)))
        finally:
            store.close()
    assert reports[0] == reports[1]
