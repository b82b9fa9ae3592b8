"""to_report: every fact footnoted, every quotation verbatim, conflicts whole, nothing private."""

from __future__ import annotations

import re
from types import ModuleType

from sleuth.export import to_report
from sleuth.model import CaseGraph
from sleuth.privacy import MENTIONS_LIVING, REDACTED_EXCERPT

NOTE_DEF = re.compile(r"^\[\^(\d+)\]: (.*)$", re.MULTILINE)
QUOTE = re.compile(r"^   - “(.*)” \(copy", re.MULTILINE)


def _section(report: str, title: str) -> str:
    start = report.index(f"## {title}")
    nxt = report.find("\n## ", start + 1)
    return report[start : nxt if nxt != -1 else len(report)]


def _rows(report: str, person: str) -> list[list[str]]:
    start = report.index(f"### {person}\n")
    end = report.find("\n### ", start + 1)
    block = report[start:end]
    return [[c.strip() for c in line.strip("|").split(" | ")]
            for line in block.splitlines() if line.startswith("| ") and "---" not in line
            and not line.startswith("| Fact |")]


def test_sections_present_in_reading_order(family: CaseGraph, fam: ModuleType) -> None:
    report = to_report(family, today=fam.TODAY)
    assert report.startswith("# Research report: Whitfield family of Springfield")
    titles = re.findall(r"^## (.+)$", report, re.MULTILINE)
    assert titles == ["Summary", "Persons", "Conflicts", "What to search next", "Privacy note",
                      "Appendix A: Quoted evidence",
                      "Appendix B: Proof arguments (Genealogical Proof Standard)",
                      "Appendix C: Sources", "Appendix D: Research log", "Notes"]
    assert "2 item(s) await human review" in report
    assert "2 of 4 persons are treated as living" in report


def test_every_fact_row_is_footnoted_and_uncited_claims_are_not_stated(
        family: CaseGraph, fam: ModuleType) -> None:
    persons = _section(to_report(family, today=fam.TODAY), "Persons")
    rows = [line for line in persons.splitlines()
            if line.startswith("| ") and not line.startswith(("| Fact", "|---"))]
    assert len(rows) >= 12
    for line in rows:
        assert re.search(r"\[\^\d+\]", line) or "no citation on file" in line, line
    assert "farmer" not in persons  # the uncited claim is not stated
    assert "1 claim(s) without a citation are not stated" in persons


def test_notes_and_quotations_are_complete_and_verbatim(family: CaseGraph,
                                                        fam: ModuleType) -> None:
    report = to_report(family, today=fam.TODAY)
    body = report[: report.index("## Notes")]
    defs = dict(NOTE_DEF.findall(report))
    assert set(re.findall(r"\[\^(\d+)\]", body)) == set(defs)  # none dangling, none unused
    assert all("accessed 1 March 2024" in d for d in defs.values())
    quotes = _section(report, "Appendix A: Quoted evidence")
    texts = [s.text for s in family.snapshots.values()]
    found = QUOTE.findall(quotes)
    assert len(found) >= 6
    for q in found:
        assert any(q in t for t in texts), q
    assert "p. 2" in quotes  # the page, derived from the snapshot's page_starts
    assert re.search(r"sha256 [0-9a-f]{12}", quotes)
    # a redaction is shown as the marker, never passed off as a quotation
    assert REDACTED_EXCERPT in quotes and f"“{REDACTED_EXCERPT}”" not in quotes
    assert MENTIONS_LIVING in quotes
    # one note per source: the death certificate's three claims share one number
    death = [n for n, d in defs.items() if "Illinois death certificate" in d]
    assert len(death) == 1


def test_conflict_keeps_every_value_and_says_which_is_preferred(
        family: CaseGraph, fam: ModuleType) -> None:
    report = to_report(family, today=fam.TODAY)
    conflicts = _section(report, "Conflicts")
    assert "### Conflict 1: birth of Thomas Whitfield (tentative)" in conflicts
    assert "| 3 March 1902 (preferred) |" in conflicts and "| 1899–1900 |" in conflicts
    assert "Tentative: needs another record. All competing values are kept." in conflicts
    assert "- Conflict 1: Search Illinois delayed birth registrations" in report
    summary = _section(report, "Summary")
    listed = len(re.findall(r"^### Conflict \d+:", conflicts, re.MULTILINE))
    assert f"| Conflicts | {listed} (" in summary
    rows = {(r[0], r[1]): r[2] for r in _rows(report, "Thomas Whitfield")}
    assert "preferred (tentatively), see Conflict 1" in rows[("Birth", "3 March 1902")]
    assert "not preferred, see Conflict 1" in rows[("Birth", "1899–1900")]
    # the heading and the pedigree's dates say so too, not only the row
    assert "*3 March 1902 (tentative) – 14 November 1978*" in report


def test_a_date_another_record_rules_out_reads_in_doubt_in_the_pedigree(
        family: CaseGraph, fam: ModuleType) -> None:
    """The only birth date on file, contradicted by a record (a baptism before it): the
    person's heading and the pedigree mark it, as its row does."""
    only = family.conflicts[0].model_copy(update={"competing": family.conflicts[0].competing[:1]})
    report = to_report(family.model_copy(update={"conflicts": [only]}), today=fam.TODAY)
    assert "*3 March 1902 (in doubt) – 14 November 1978*" in report
    rows = {(r[0], r[1]): r[2] for r in _rows(report, "Thomas Whitfield")}
    assert "in doubt, see Conflict 1" in rows[("Birth", "3 March 1902")]
    plain = to_report(family.model_copy(update={"conflicts": []}), today=fam.TODAY)
    assert "*3 March 1902 – 14 November 1978*" in plain


def test_a_register_surname_in_capitals_is_named_as_a_reader_writes_it(
        family: CaseGraph, fam: ModuleType) -> None:
    persons = [p.model_copy(update={"canonical_name": "Thomas WHITFIELD"})
               if p.canonical_name == "Thomas Whitfield" else p for p in family.persons]
    report = to_report(family.model_copy(update={"persons": persons}), today=fam.TODAY)
    assert "### Thomas Whitfield\n" in report and "WHITFIELD" not in report


def test_research_log_names_sources_and_why_the_run_stopped(
        family: CaseGraph, fam: ModuleType) -> None:
    from sleuth.export.report import STOP_WORDS
    from sleuth.gps.coverage import Search
    from sleuth.gps.proof import ProofInputs
    from sleuth.loop.stop import ALL

    assert set(ALL) <= set(STOP_WORDS)  # every way a run stops, in words
    search = Search(seq=1, source="find_a_grave", query="Thomas Whitfield", action="search",
                    person_id=None, snapshot_id=None, success=True, failure=None, hits=0)
    gps = ProofInputs(searches=[search], run={"reasons": ["diminishing_returns"]})
    log = _section(to_report(family, today=fam.TODAY, gps=gps), "Appendix D")
    assert "| Find a Grave | 1 | 1 |" in log
    assert "The research stopped because the last searches had stopped finding new facts " \
           "(diminishing returns)." in log


def test_dates_in_words_living_secrets_absent(family: CaseGraph, fam: ModuleType) -> None:
    report = to_report(family, today=fam.TODAY)
    body = report[: report.index("## Appendix A")]
    assert "| Death | 14 November 1978 |" in body and "| Birth | 22 July 1935 |" in body
    assert not re.search(r"\b\d{4}-\d{2}-\d{2}\b", body)  # no ISO dates before the appendix
    lowered = report.lower()
    for secret in fam.EMMA_SECRETS:
        assert secret.lower() not in lowered, secret
    emma = {r[0]: r[1] for r in _rows(report, "Emma Whitfield")}
    assert emma["Birth"] == "1990s" and emma["Birthplace"] == "USA"
    assert report.count("living — details redacted") == 2


def test_leads_are_labelled_not_facts(family: CaseGraph, fam: ModuleType) -> None:
    nxt = _section(to_report(family, today=fam.TODAY), "What to search next")
    assert "Open leads (hypotheses to test, not facts):" in nxt and "Kentucky" in nxt


def test_report_does_not_mutate_input_and_is_deterministic(family: CaseGraph,
                                                            fam: ModuleType) -> None:
    before = family.model_dump(mode="json")
    first = to_report(family, today=fam.TODAY)
    assert family.model_dump(mode="json") == before
    shuffled = family.model_copy(update={"persons": list(reversed(family.persons))})
    assert to_report(shuffled, today=fam.TODAY) == first  # order by content, not by input


def test_mask_names_hides_living_names_in_both_exports(family: CaseGraph, fam: ModuleType) -> None:
    import json

    from sleuth.export import to_jsonld

    report = to_report(family, today=fam.TODAY, mask_names=True)
    doc = json.dumps(to_jsonld(family, today=fam.TODAY, mask_names=True))
    for out in (report, doc):
        assert "Emma" not in out and "Daniel Reyes" not in out
        assert "[Living]" in out and "Thomas Whitfield" in out


def test_model_usage_is_in_the_report_per_role(family: CaseGraph, fam: ModuleType,
                                               tmp_path) -> None:
    import json

    from sleuth.llm import Meter
    from sleuth.llm.meter import METER_FILE, load_usage

    assert load_usage(tmp_path) is None  # no model used: no section
    assert "### Model usage" not in to_report(family, today=fam.TODAY)
    meter = Meter()
    for role, tin, tout, cost in (("verifier", 1200, 150, 0.0045), ("verifier", 800, 90, 0.003),
                                  ("planner", 2000, 300, 0.008)):
        assert meter.allow_model_call(role)
        meter.record(role, tin, tout, cost)
    (tmp_path / METER_FILE).write_text(json.dumps(meter.state()), encoding="utf-8")
    section = _section(to_report(family, today=fam.TODAY, model_usage=load_usage(tmp_path)),
                       "Appendix D: Research log")
    assert "| verifier | 2 | 0 | 0 | 2,000 | 240 | $0.0075 |" in section
    assert "| planner | 1 | 0 | 0 | 2,000 | 300 | $0.0080 |" in section
    assert "| **all** | 3 | | | 4,000 | 540 | $0.0155 |" in section
