"""A domain's validator rules and decision thresholds are the ones the pipeline applies
(issue 21, item 6): the same real obituary, staged under genealogy's policy and under a
stricter one, is decided by each."""

from __future__ import annotations

import hashlib
from importlib import resources
from pathlib import Path

import pytest

from sleuth.domains import get_domain
from sleuth.model import Candidate, Snapshot
from sleuth.pipeline import process_snapshot
from sleuth.pipeline.decision import SEED_002, Thresholds, make_decision
from sleuth.pipeline.validator import DEFAULT_RULES, Finding, Rule
from sleuth.pipeline.validator import validate as run_rules
from sleuth.store import Store, review_items

OBITUARY = Path(str(resources.files("sleuth") / "data" / "sample")) / (
    "1916-03-14_obituary_hollis.txt")


class NoPlaces:
    """A rule a domain might add: this one's facts name no places."""

    name = "no_places"

    def __call__(self, c: Candidate) -> Finding | None:
        if c.field.endswith("_place"):
            return Finding("reject", f"{c.field} is not a fact of this domain")
        return None


def _stage(tmp_path: Path, name: str, rules: tuple[Rule, ...],
           thresholds: Thresholds) -> tuple[list[Candidate], int, int, int]:
    raw = OBITUARY.read_bytes()
    snap = Snapshot(sha256=hashlib.sha256(raw).hexdigest(), path=str(OBITUARY),
                    source_name="obituary", text=raw.decode())
    cands = get_domain("genealogy").extract(snap, raw)
    store = Store.create_case(tmp_path / name)
    try:
        with store.transaction() as tx:
            store.put_snapshot(tx, raw, snap)
            report = process_snapshot(store, tx, snap, list(cands), rules=rules,
                                      thresholds=thresholds)
        return cands, report.promoted, report.review, report.rejected
    finally:
        store.close()


def test_the_domain_thresholds_and_rules_decide(tmp_path: Path) -> None:
    cands, promoted, review, rejected = _stage(tmp_path, "seed", DEFAULT_RULES, SEED_002)
    assert promoted > 0
    facts = [c for c in cands if c.is_fact]
    sure = [c for c in facts if run_rules(c).acceptable and c.confidence >= 0.8
            and c.confidence < 0.99]
    assert sure, "the obituary should give facts between 0.80 and 0.99"
    strict = Thresholds(auto_promote=0.99, normal_review=0.5)
    _, promoted_strict, review_strict, _ = _stage(tmp_path, "strict", DEFAULT_RULES, strict)
    assert promoted_strict < promoted and review_strict > review
    places = [c for c in facts if c.field.endswith("_place")]
    assert places
    _, promoted_np, _, rejected_np = _stage(tmp_path, "noplace", (NoPlaces(), *DEFAULT_RULES),
                                            SEED_002)
    assert rejected_np >= rejected + len(places) and promoted_np < promoted


def test_make_decision_uses_the_thresholds_it_is_given() -> None:
    strict = Thresholds(auto_promote=0.95, normal_review=0.9)
    assert make_decision(0.85).action == "promote_to_core"
    held = make_decision(0.85, (), strict)
    assert held.action == "queue_for_human" and held.priority == "high"
    assert make_decision(0.92, (), strict).priority == "normal"


def test_review_items_record_the_stricter_reason(tmp_path: Path) -> None:
    _stage(tmp_path, "strict", DEFAULT_RULES, Thresholds(auto_promote=1.0, normal_review=0.5))
    store = Store.open_case(tmp_path / "strict")
    try:
        reasons = {i["reason"] for i in review_items(store)}
    finally:
        store.close()
    assert any("Medium confidence" in r for r in reasons)


@pytest.mark.parametrize(("auto", "normal"), [(0.4, 0.5), (1.2, 0.5), (0.8, 0.0)])
def test_impossible_thresholds_are_refused(auto: float, normal: float) -> None:
    from sleuth.model import InputError

    with pytest.raises(InputError):
        Thresholds(auto_promote=auto, normal_review=normal)
