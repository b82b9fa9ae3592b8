"""Seed 002's Validator rules and Decision Maker thresholds."""

from __future__ import annotations

import pytest

from sleuth.model import Candidate, Citation, GenDate, Locator
from sleuth.pipeline import make_decision, validate


@pytest.mark.parametrize(
    ("conf", "missing", "action", "priority"),
    [
        (0.95, (), "promote_to_core", None),
        (0.80, (), "promote_to_core", None),
        (0.79, (), "queue_for_human", "normal"),
        (0.50, (), "queue_for_human", "normal"),
        (0.49, (), "queue_for_human", "high"),
        (0.0, (), "queue_for_human", "high"),
        (0.90, ("date",), "queue_for_human", "normal"),
    ],
)
def test_decision_thresholds(
    conf: float, missing: tuple[str, ...], action: str, priority: str | None
) -> None:
    d = make_decision(conf, missing)
    assert (d.action, d.priority) == (action, priority)
    assert str(conf)[:3] in d.reason or "missing" in d.reason


def _cand(**kw) -> Candidate:
    base = dict(
        subject="p1",
        subject_name="Samuel Hollis",
        field="birth_place",
        value="Buck Valley",
        confidence=0.9,
        citation=Citation(
            snapshot_id="s",
            excerpt="born in Buck Valley, Fulton County",
            locator=Locator(start=0, end=34),
        ),
    )
    base.update(kw)
    return Candidate(**base)


def test_acceptable_candidate() -> None:
    v = validate(_cand())
    assert v.acceptable and v.missing_fields == ()


def test_missing_evidence_asks_for_the_quote() -> None:
    v = validate(_cand(citation=None))
    assert v.decision == "needs_more_evidence"
    assert v.request == "Extract the exact source quote supporting this candidate"


def test_bare_excerpt_asks_to_widen() -> None:
    c = _cand(
        citation=Citation(snapshot_id="s", excerpt="Buck Valley", locator=Locator(start=0, end=11))
    )
    v = validate(c)
    assert v.decision == "needs_more_evidence" and "widen" in (v.request or "")


def test_missing_required_fields_are_named() -> None:
    v = validate(_cand(field="parent", value="Jacob Hollis"))
    assert v.missing_fields == ("related_name",)
    assert "related_name" in (v.request or "")
    v = validate(_cand(field="birth_date", value="", date=None))
    assert "date" in v.missing_fields


def test_inferred_evidence_cannot_carry_high_confidence() -> None:
    v = validate(_cand(method="inference", confidence=0.9))
    assert v.decision == "needs_more_evidence" and "inferred" in v.reason


def test_future_dates_are_rejected() -> None:
    v = validate(_cand(field="birth_date", value="2999", date=GenDate.from_parts(2999)))
    assert v.decision == "reject"
