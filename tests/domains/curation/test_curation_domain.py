"""The curation domain's declaration, prose extractor and rules (issue 25) on the shared F´
SDDs and FPP files (skips without ../shared): prose candidates at MEDIUM/LOW with evidence at
their lines, required fields per type from the domain, seed 002's decisions."""

from __future__ import annotations

import hashlib
from collections import Counter
from pathlib import Path

import pytest

from shared_data import shared_path
from sleuth.domains import DOMAINS
from sleuth.domains.curation import DOMAIN, REQUIRED, candidates_of, evidence_holds, extract
from sleuth.domains.curation.model import level
from sleuth.model import Snapshot
from sleuth.pipeline.decision import make_decision
from sleuth.pipeline.validator import validate
from sleuth.verify import Source, check_candidates


def _snap(path: Path) -> Snapshot:
    text = path.read_text(encoding="utf-8")
    return Snapshot(sha256=hashlib.sha256(text.encode()).hexdigest(), path=path.name,
                    source_name="fprime", text=text)


@pytest.fixture(scope="module")
def snaps() -> list[Snapshot]:
    folder = Path(shared_path("documents", "fprime"))
    return [_snap(p) for p in sorted(folder.iterdir()) if p.suffix in (".fpp", ".fppi", ".md")]


def test_declaration() -> None:
    assert DOMAINS["curation"] == "sleuth.domains.curation"
    assert {t.name for t in DOMAIN.entity_types} == set(REQUIRED)
    assert (DOMAIN.thresholds.auto_promote, DOMAIN.thresholds.normal_review) == (0.80, 0.50)
    assert set(DOMAIN.exports) == {"entities", "equivalences", "conflicts", "review", "graph",
                                   "graphml", "jsonld"}
    assert set(DOMAIN.export_help) == set(DOMAIN.exports)
    assert set(DOMAIN.agents) == {"curation_extraction", "curation_refinement"}
    assert DOMAIN.entity_of("telemetry") is not None and DOMAIN.entity_of("person") is None


def test_prose_candidates(snaps: list[Snapshot]) -> None:
    sdds = [s for s in snaps if s.path and s.path.endswith("sdd.md")]
    assert len(sdds) == 9
    for s in sdds:
        cands = candidates_of(s)
        assert cands and all(evidence_holds(c, s.text) for c in cands)
        assert all(level(c.confidence_score) in ("MEDIUM", "LOW") for c in cands)
    by_key = {c.candidate_key: c for s in sdds for c in candidates_of(s)}
    run = by_key["fprime:Svc:TlmChan:port:Run"].candidate_payload
    assert (run["type"], run["direction"], run["kind"]) == ("Svc.Sched", "input", "async")
    assert by_key["fprime:Svc:CmdDispatcher"].confidence_score == 0.60  # the SDD's own name
    req = by_key["fprime:Svc:Health:requirement:HTH-004"]
    assert req.candidate_type == "requirement" and req.name == "HTH-004"  # not the component
    assert req.confidence_score < 0.5 and req.evidence_type == "requirement"
    assert "shall have a command" in req.candidate_payload["requirement"]["text"]


def test_extract_firewall_and_decisions(snaps: list[Snapshot]) -> None:
    staged = [c for s in snaps for c in extract(s)]
    report = check_candidates(staged, {s.id: Source.of_snapshot(s) for s in snaps})
    assert not report.rejected
    decided = Counter()
    for c in report.passed:
        v = validate(c, DOMAIN.rules)
        d = make_decision(c.confidence, v.missing_fields, DOMAIN.thresholds)
        decided[(c.method, d.action)] += 1
    # Every FPP definition is promoted but the internal port (no port type) and the SDD's
    # candidates (MEDIUM/LOW) go to review.
    assert decided[("fpp_reader", "queue_for_human")] == 1
    assert decided[("sdd_prose", "promote_to_core")] == 0
    assert sum(decided.values()) == len(staged)


def test_required_fields_rule_names_what_is_missing(snaps: list[Snapshot]) -> None:
    s = next(x for x in snaps if x.path == "Svc__ActiveLogger__ActiveLogger.fpp")
    internal = next(c for c in extract(s) if c.value == "loqQueue")
    v = validate(internal, DOMAIN.rules)
    assert v.missing_fields == ("type",)
    d = make_decision(internal.confidence, v.missing_fields, DOMAIN.thresholds)
    assert d.action == "queue_for_human" and "type" in d.reason
    bare = internal.model_copy(update={"payload": {}})
    assert set(validate(bare, DOMAIN.rules).missing_fields) == set(REQUIRED["port"][1])
    inflated = next(c for c in extract(next(x for x in snaps if x.path and x.path.endswith(
        "TlmChan__docs__sdd.md"))) if c.evidence_kind == "requirement")
    inflated = inflated.model_copy(update={"confidence": 0.9})
    assert validate(inflated, DOMAIN.rules).decision == "needs_more_evidence"
