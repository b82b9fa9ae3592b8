"""Conflict weights along the Evidence Explained axes, extending seed 001's tables.

Seed 001 weighs a claim as `EVIDENCE_WEIGHT[evidence_type] × TIER_WEIGHT[tier] × confidence`
with primary 1.0, secondary 0.7, authored 0.4. Here the one evidence axis is split in three:

    weight = SOURCE_WEIGHT[source] × INFORMATION_WEIGHT[information]
             × EVIDENCE_CLASS_WEIGHT[evidence] × TIER_WEIGHT[tier] × confidence

| axis | value | weight | why |
|---|---|---|---|
| source | original | 1.0 | the first recording |
| source | derivative | 0.9 | copying adds errors (misread names, skipped lines) |
| source | authored | 0.8 | a compiler's conclusion, only as good as its own sources |
| information | primary | 1.0 | first-hand |
| information | secondary | 0.7 | hearsay or recollection |
| information | undetermined | 0.5 | informant unknown |
| evidence | direct | 1.0 | answers the question by itself |
| evidence | indirect | 0.75 | needs other evidence to answer it |
| evidence | negative | 0.5 | an absence; telling only when the search was exhaustive |

The tables are chosen so that the corners reproduce seed 001 for direct evidence: original
× primary = 1.0 (seed "primary"), original × secondary = 0.7 (seed "secondary"), authored ×
undetermined = 0.4 (seed "authored"). Tier weights are seed 001's, unchanged.
"""

from __future__ import annotations

from sleuth.model.citation import Tier
from sleuth.model.evidence import EvidenceClass, InformationClass, SourceClass
from sleuth.model.weights import TIER_WEIGHT

SOURCE_WEIGHT: dict[SourceClass, float] = {
    SourceClass.ORIGINAL: 1.0,
    SourceClass.DERIVATIVE: 0.9,
    SourceClass.AUTHORED: 0.8,
}
INFORMATION_WEIGHT: dict[InformationClass, float] = {
    InformationClass.PRIMARY: 1.0,
    InformationClass.SECONDARY: 0.7,
    InformationClass.UNDETERMINED: 0.5,
}
EVIDENCE_CLASS_WEIGHT: dict[EvidenceClass, float] = {
    EvidenceClass.DIRECT: 1.0,
    EvidenceClass.INDIRECT: 0.75,
    EvidenceClass.NEGATIVE: 0.5,
}


def gps_weight(
    source: SourceClass,
    information: InformationClass,
    evidence: EvidenceClass | None,
    tier: Tier | int,
    confidence: float,
) -> float:
    """The weight of one claim; `evidence` None (no bearing on the question) counts as direct."""
    ev = EVIDENCE_CLASS_WEIGHT[EvidenceClass(evidence)] if evidence is not None else 1.0
    return (
        SOURCE_WEIGHT[SourceClass(source)]
        * INFORMATION_WEIGHT[InformationClass(information)]
        * ev
        * TIER_WEIGHT[Tier(int(tier))]
        * confidence
    )
