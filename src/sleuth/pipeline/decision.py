"""The Decision Maker (seed 002 agent 3): promote, or package for a person to review."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

AUTO_PROMOTE = 0.80
NORMAL_REVIEW = 0.50


@dataclass(frozen=True)
class Decision:
    decision: Literal["accept", "defer"]
    action: Literal["promote_to_core", "queue_for_human"]
    reason: str
    priority: Literal["high", "normal"] | None = None


def make_decision(confidence: float, missing_fields: Sequence[str] = ()) -> Decision:
    """Seed 002's rules exactly: ≥0.80 and complete promotes; everything else is reviewed.

    A decision is a frozen value of its arguments, so one is made once per confidence and
    missing fields (a tree's candidates share a handful) and handed out again."""
    if type(missing_fields) is not tuple or type(confidence) is not float or not (
            0.0 < confidence <= 1.0):  # (-0.0 == 0.0, but the reason would read "-0.00")
        return _decide(confidence, missing_fields)
    key = (confidence, missing_fields)
    made = _MADE.get(key)
    if made is None:
        if len(_MADE) >= _MADE_MAX:
            _MADE.clear()
        made = _MADE[key] = _decide(confidence, missing_fields)
    return made


_MADE: dict[tuple[float, tuple[str, ...]], Decision] = {}
_MADE_MAX = 4096


def _decide(confidence: float, missing_fields: Sequence[str]) -> Decision:
    if confidence >= AUTO_PROMOTE and not missing_fields:
        return Decision(
            "accept", "promote_to_core", f"High confidence ({confidence:.2f}) with complete fields"
        )
    if NORMAL_REVIEW <= confidence < AUTO_PROMOTE:
        return Decision(
            "defer",
            "queue_for_human",
            f"Medium confidence ({confidence:.2f}) requires human verification",
            "normal",
        )
    if confidence < NORMAL_REVIEW:
        return Decision(
            "defer",
            "queue_for_human",
            f"Low confidence ({confidence:.2f}) needs expert review",
            "high",
        )
    return Decision(
        "defer", "queue_for_human", f"High confidence but missing: {list(missing_fields)}", "normal"
    )
