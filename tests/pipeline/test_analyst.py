"""Conflict adjudication with seed 001's weight tables; every claim survives."""

from __future__ import annotations

import pytest

from sleuth.gps.adjudicate import Claim, adjudicate
from sleuth.model import EVIDENCE_WEIGHT, TIER_WEIGHT, EvidenceType, GenDate, Tier


def test_weight_tables_are_the_seeds() -> None:
    assert EVIDENCE_WEIGHT == {
        EvidenceType.PRIMARY: 1.0,
        EvidenceType.SECONDARY: 0.7,
        EvidenceType.AUTHORED: 0.4,
    }
    assert TIER_WEIGHT == {Tier.TIER0: 0.8, Tier.TIER1: 0.9, Tier.TIER2: 1.0}


def _claim(aid: str, year: int, ev: str, tier: int, conf: float) -> Claim:
    return Claim(aid, str(year), GenDate.from_parts(year), EvidenceType(ev), Tier(tier), conf)


def test_primary_record_outweighs_obituary() -> None:
    c = adjudicate(
        "p",
        "Samuel Hollis",
        "birth_date",
        [
            _claim("census", 1890, "primary", 0, 0.8),
            _claim("obit", 1889, "secondary", 0, 0.6),
        ],
    )
    assert c is not None
    assert c.recommended_assertion_id == "census"
    assert [r.assertion_id for r in c.competing] == ["census", "obit"]
    assert c.competing[0].weight == pytest.approx(1.0 * 0.8 * 0.8)
    assert c.competing[1].weight == pytest.approx(0.7 * 0.8 * 0.6)
    assert not c.is_tentative  # 0.336 < 0.8 × 0.64 and the winner is primary
    assert "birth certificate" in c.next_actions[0]


def test_close_call_is_tentative_and_keeps_both() -> None:
    c = adjudicate(
        "p",
        "X",
        "birth_date",
        [
            _claim("a", 1890, "secondary", 1, 0.8),
            _claim("b", 1891, "secondary", 0, 0.85),
        ],
    )
    assert c is not None and c.is_tentative and len(c.competing) == 2


def test_overlapping_ranges_are_not_a_conflict() -> None:
    exact = Claim(
        "a", "1890-05-12", GenDate.from_parts(1890, 5, 12), EvidenceType.PRIMARY, Tier.TIER0, 0.9
    )
    year = _claim("b", 1890, "secondary", 0, 0.7)
    assert adjudicate("p", "X", "birth_date", [exact, year]) is None


def test_places_that_name_each_other_agree() -> None:
    a = Claim("a", "Buck Valley", None, EvidenceType.PRIMARY, Tier.TIER0, 0.9)
    b = Claim("b", "Buck Valley, Fulton County", None, EvidenceType.SECONDARY, Tier.TIER0, 0.9)
    c = Claim("c", "Needmore", None, EvidenceType.SECONDARY, Tier.TIER0, 0.9)
    assert adjudicate("p", "X", "birth_place", [a, b]) is None
    assert adjudicate("p", "X", "birth_place", [a, b, c]) is not None


def _dated_claim(aid: str, y: int, m: int, d: int, ev: EvidenceType) -> Claim:
    return Claim(aid, f"{y}-{m:02d}-{d:02d}", GenDate.from_parts(y, m, d), ev, Tier.TIER0, 0.9)


def test_a_user_tree_birth_out_of_order_with_a_primary_baptism_is_doubted() -> None:
    from sleuth.gps.adjudicate import vital_order

    claim = _dated_claim

    bap = {"bp": claim("bp", 1795, 11, 23, EvidenceType.PRIMARY)}
    births = {"off_by_a_year": claim("b1", 1794, 11, 14, EvidenceType.AUTHORED),
              "after": claim("b2", 1796, 1, 2, EvidenceType.SECONDARY),
              "fine": claim("b3", 1795, 11, 1, EvidenceType.AUTHORED),
              "primary": claim("b4", 1790, 1, 1, EvidenceType.PRIMARY)}
    doubted = dict(vital_order({"birth_date": {c.assertion_id: c for c in births.values()},
                                "baptism_date": bap}))
    assert set(doubted) == {"b1", "b2"}  # a primary birth record is never second-guessed
    assert "after baptism" in doubted["b2"] and "a year" in doubted["b1"]
    # a baptism that is not primary evidence proves nothing against a birth
    weak = {"bp": claim("bp", 1795, 11, 23, EvidenceType.SECONDARY)}
    assert vital_order({"birth_date": {"b1": births["off_by_a_year"]},
                        "baptism_date": weak}) == []


def test_a_user_tree_death_out_of_order_with_a_primary_burial_is_doubted() -> None:
    from sleuth.gps.adjudicate import vital_order

    claim = _dated_claim

    burial = {"bu": claim("bu", 1788, 8, 3, EvidenceType.PRIMARY)}
    deaths = {"two_years_early": claim("d1", 1786, 7, 28, EvidenceType.AUTHORED),
              "after": claim("d2", 1798, 7, 28, EvidenceType.SECONDARY),
              "fine": claim("d3", 1788, 7, 28, EvidenceType.AUTHORED)}
    doubted = dict(vital_order({"death_date": {c.assertion_id: c for c in deaths.values()},
                                "burial_date": burial}))
    assert set(doubted) == {"d1", "d2"}
    assert "after burial" in doubted["d2"] and "a year" in doubted["d1"]
