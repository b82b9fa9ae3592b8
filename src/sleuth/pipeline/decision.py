"""The Decision Maker (seed 002 agent 3): promote, or package for a person to review."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from sleuth.model import InputError

AUTO_PROMOTE = 0.80
NORMAL_REVIEW = 0.50


@dataclass(frozen=True)
class Thresholds:
    """The decision maker's cut-offs, which a domain may set (`sleuth.domains`): at or above
    `auto_promote` with every required field a candidate is promoted; below `normal_review`
    it is reviewed at high priority; between, at normal priority."""

    auto_promote: float = AUTO_PROMOTE
    normal_review: float = NORMAL_REVIEW

    def __post_init__(self) -> None:
        if not 0.0 < self.normal_review <= self.auto_promote <= 1.0:
            raise InputError(f"thresholds must satisfy 0 < normal_review <= auto_promote <= 1,"
                             f" not {self.normal_review} and {self.auto_promote}")


SEED_002 = Thresholds()  # seed 002's own figures, genealogy's


@dataclass(frozen=True)
class Decision:
    decision: Literal["accept", "defer"]
    action: Literal["promote_to_core", "queue_for_human"]
    reason: str
    priority: Literal["high", "normal"] | None = None


def make_decision(confidence: float, missing_fields: Sequence[str] = (),
                  thresholds: Thresholds = SEED_002) -> Decision:
    """Seed 002's rules exactly: ≥0.80 and complete promotes; everything else is reviewed
    (the cut-offs are the domain's `thresholds`, seed 002's by default).

    A decision is a frozen value of its arguments, so one is made once per confidence and
    missing fields (a tree's candidates share a handful) and handed out again."""
    if type(missing_fields) is not tuple or type(confidence) is not float or not (
            0.0 < confidence <= 1.0):  # (-0.0 == 0.0, but the reason would read "-0.00")
        return _decide(confidence, missing_fields, thresholds)
    key = (confidence, missing_fields, thresholds)
    made = _MADE.get(key)
    if made is None:
        if len(_MADE) >= _MADE_MAX:
            _MADE.clear()
        made = _MADE[key] = _decide(confidence, missing_fields, thresholds)
    return made


_MADE: dict[tuple[float, tuple[str, ...], Thresholds], Decision] = {}
_MADE_MAX = 4096


def _decide(confidence: float, missing_fields: Sequence[str], t: Thresholds) -> Decision:
    if confidence >= t.auto_promote and not missing_fields:
        return Decision(
            "accept", "promote_to_core", f"High confidence ({confidence:.2f}) with complete fields"
        )
    if t.normal_review <= confidence < t.auto_promote:
        return Decision(
            "defer",
            "queue_for_human",
            f"Medium confidence ({confidence:.2f}) requires human verification",
            "normal",
        )
    if confidence < t.normal_review:
        return Decision(
            "defer",
            "queue_for_human",
            f"Low confidence ({confidence:.2f}) needs expert review",
            "high",
        )
    return Decision(
        "defer", "queue_for_human", f"High confidence but missing: {list(missing_fields)}", "normal"
    )
