"""to_report: every fact footnoted, every quotation verbatim, conflicts whole, nothing private."""

from __future__ import annotations

import re
from types import ModuleType

from sleuth.export import to_report
from sleuth.model import CaseGraph
from sleuth.privacy import MENTIONS_LIVING, REDACTED_EXCERPT

FOOTNOTE_DEF = re.compile(r"^\[\^(\d+)\]: (.*)$", re.MULTILINE)
QUOTED = re.compile(r'^"(.*)" — ')


def _section(report: str, title: str) -> str:
    start = report.index(f"## {title}")
    nxt = report.find("\n## ", start + 1)
    return report[start : nxt if nxt != -1 else len(report)]


def test_sections_present(family: CaseGraph, fam: ModuleType) -> None:
    report = to_report(family, today=fam.TODAY)
    assert report.startswith("# Research report: Whitfield family of Springfield")
    for title in (
        "Summary",
        "Persons",
        "Conflicts",
        "Hypotheses (not facts)",
        "Review queue",
        "Sources",
        "Privacy note",
        "Citations",
    ):
        assert f"\n## {title}\n" in report, title
    assert "2 item(s) await human review" in report
    assert "2 of 4 persons are treated as living" in report


def test_every_fact_line_is_footnoted(family: CaseGraph, fam: ModuleType) -> None:
    persons = _section(to_report(family, today=fam.TODAY), "Persons")
    bullets = [line for line in persons.splitlines() if line.startswith("- ")]
    assert len(bullets) >= 12
    for line in bullets:
        assert re.search(r"\[\^\d+\]", line) or "no citation on file" in line, line
    assert "farmer" not in persons  # the uncited claim is not stated


def test_footnotes_quote_the_unredacted_snapshot_verbatim(
    family: CaseGraph, fam: ModuleType
) -> None:
    report = to_report(family, today=fam.TODAY)
    body = report[: report.index("## Citations")]
    defs = dict(FOOTNOTE_DEF.findall(report))
    used = set(re.findall(r"\[\^(\d+)\]", body))
    assert used == set(defs)  # no dangling references, no unused notes
    texts = [s.text for s in family.snapshots.values()]
    quoted = 0
    for text in defs.values():
        m = QUOTED.match(text)
        if m is None:
            assert text.startswith((REDACTED_EXCERPT, MENTIONS_LIVING)), text
            continue
        quoted += 1
        assert any(m.group(1) in t for t in texts), m.group(1)
        assert re.search(r"chars \d+–\d+", text) and "accessed 2024-03-01" in text
        assert re.search(r"sha256 [0-9a-f]{12}$", text)
    assert quoted >= 8
    assert "(p. 2)" in report  # page derived from the snapshot's page_starts


def test_conflict_keeps_every_value(family: CaseGraph, fam: ModuleType) -> None:
    conflicts = _section(to_report(family, today=fam.TODAY), "Conflicts")
    assert "TENTATIVE" in conflicts
    assert "| 1 | 3 March 1902 | 0.640 |" in conflicts
    assert "| 2 | abt 1900 | 0.336 |" in conflicts
    assert "**Recommended:** 3 March 1902" in conflicts
    assert "- Search Illinois delayed birth registrations" in conflicts


def test_deceased_dates_present_living_secrets_absent(family: CaseGraph, fam: ModuleType) -> None:
    report = to_report(family, today=fam.TODAY)
    assert "14 November 1978" in report and "1978-11-14" in report
    assert "22 July 1935" in report
    lowered = report.lower()
    for secret in fam.EMMA_SECRETS:
        assert secret.lower() not in lowered, secret
    assert "Birth date: 1990s" in report and "Birth place: USA" in report


def test_hypotheses_labelled(family: CaseGraph, fam: ModuleType) -> None:
    hyps = _section(to_report(family, today=fam.TODAY), "Hypotheses (not facts)")
    assert "*Hypothesis, not a fact*" in hyps and "Kentucky" in hyps


def test_report_does_not_mutate_input(family: CaseGraph, fam: ModuleType) -> None:
    before = family.model_dump(mode="json")
    to_report(family, today=fam.TODAY)
    assert family.model_dump(mode="json") == before


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
    assert "## Model usage" not in to_report(family, today=fam.TODAY)
    meter = Meter()
    for role, tin, tout, cost in (("verifier", 1200, 150, 0.0045), ("verifier", 800, 90, 0.003),
                                  ("planner", 2000, 300, 0.008)):
        assert meter.allow_model_call(role)
        meter.record(role, tin, tout, cost)
    (tmp_path / METER_FILE).write_text(json.dumps(meter.state()), encoding="utf-8")
    section = _section(to_report(family, today=fam.TODAY, model_usage=load_usage(tmp_path)),
                       "Model usage")
    assert "| verifier | 2 | 0 | 0 | 2,000 | 240 | $0.0075 |" in section
    assert "| planner | 1 | 0 | 0 | 2,000 | 300 | $0.0080 |" in section
    assert "| **all** | 3 | | | 4,000 | 540 | $0.0155 |" in section
