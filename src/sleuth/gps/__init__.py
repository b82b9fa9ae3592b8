"""The Genealogical Proof Standard: classify, cite, search coverage and written proof.

`kinds` says what a snapshot is; `classify` derives its Evidence Explained classes by
documented rules (overridable, `overrides`); `weights` weighs claims along those axes;
`citations` formats Evidence Explained notes; `coverage` lists what was searched and what
was not found; `proof` writes the per-question argument the report embeds.
"""

from sleuth.gps.classify import Classes, classify, evidence_class, questions_for
from sleuth.gps.evidence import EvidenceItem, SourceBook, evidence_for
from sleuth.gps.kinds import SourceInfo, SourceKind, describe, source_kind
from sleuth.gps.overrides import load_overrides, set_override
from sleuth.gps.weights import (
    EVIDENCE_CLASS_WEIGHT,
    INFORMATION_WEIGHT,
    SOURCE_WEIGHT,
    gps_weight,
)

__all__ = [
    "EVIDENCE_CLASS_WEIGHT",
    "INFORMATION_WEIGHT",
    "SOURCE_WEIGHT",
    "Classes",
    "EvidenceItem",
    "SourceBook",
    "SourceInfo",
    "SourceKind",
    "classify",
    "describe",
    "evidence_class",
    "evidence_for",
    "gps_weight",
    "load_overrides",
    "questions_for",
    "set_override",
    "source_kind",
]
