"""The GPS weights extend seed 001's tables and order evidence the way EE says they should."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sleuth.gps.weights import gps_weight
from sleuth.model import EvidenceType, Tier, claim_weight
from sleuth.model.evidence import EvidenceClass, InformationClass, SourceClass

SRC = [SourceClass.ORIGINAL, SourceClass.DERIVATIVE, SourceClass.AUTHORED]
INF = [InformationClass.PRIMARY, InformationClass.SECONDARY, InformationClass.UNDETERMINED]
EVI = [EvidenceClass.DIRECT, EvidenceClass.INDIRECT, EvidenceClass.NEGATIVE]


def test_corners_reproduce_seed_001() -> None:
    for tier in Tier:
        for conf in (0.3, 0.9):
            assert gps_weight(SourceClass.ORIGINAL, InformationClass.PRIMARY,
                              EvidenceClass.DIRECT, tier, conf) == claim_weight(
                EvidenceType.PRIMARY, tier, conf)
            assert abs(gps_weight(SourceClass.ORIGINAL, InformationClass.SECONDARY,
                                  EvidenceClass.DIRECT, tier, conf)
                       - claim_weight(EvidenceType.SECONDARY, tier, conf)) < 1e-12
            assert abs(gps_weight(SourceClass.AUTHORED, InformationClass.UNDETERMINED,
                                  EvidenceClass.DIRECT, tier, conf)
                       - claim_weight(EvidenceType.AUTHORED, tier, conf)) < 1e-12


@given(st.integers(0, 2), st.integers(0, 2), st.integers(0, 2), st.sampled_from(list(Tier)),
       st.floats(0.0, 1.0))
def test_weight_is_bounded_and_monotone_on_every_axis(s: int, i: int, e: int, tier: Tier,
                                                      conf: float) -> None:
    w = gps_weight(SRC[s], INF[i], EVI[e], tier, conf)
    assert 0.0 <= w <= 1.0
    if s < 2:
        assert gps_weight(SRC[s + 1], INF[i], EVI[e], tier, conf) <= w
    if i < 2:
        assert gps_weight(SRC[s], INF[i + 1], EVI[e], tier, conf) <= w
    if e < 2:
        assert gps_weight(SRC[s], INF[i], EVI[e + 1], tier, conf) <= w
    assert gps_weight(SRC[s], INF[i], None, tier, conf) == gps_weight(
        SRC[s], INF[i], EvidenceClass.DIRECT, tier, conf)
