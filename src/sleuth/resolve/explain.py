"""Merge proposals in seed 000 §3.3's schema, with a rationale and a "why not merge".

Every proposal says which features argued for the merge (positive weight, strongest first),
which argued against it, and any hard constraint that forbids it. `recommended_action` is
"merge" only above the merge threshold and with nothing against it that is strong; unsure
pairs are "review", never merged silently (seed 000 §5.3 rule 4).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sleuth.resolve.comparator import Comparator
from sleuth.resolve.records import RecordTable


@dataclass(frozen=True)
class Thresholds:
    merge: float = 0.95  # at or above: merge (if nothing strong speaks against it)
    review: float = 0.5  # at or above: review; below: separate
    strong_against: float = -4.0  # bits: a feature this negative blocks an automatic merge


NAME_FEATURES = frozenset({"given_name", "surname", "middle_name", "sex"})


@dataclass
class Proposal:
    a: str
    b: str
    probability: float
    recommended_action: str
    features: dict[str, dict[str, Any]]
    merge_rationale: str
    why_not_merge: str
    constraints: list[str] = field(default_factory=list)

    @property
    def names_only(self) -> bool:
        """Nothing but the name (and sex) argues for the merge: namesakes look just like
        this (two Edwin DRABLEs, a burial in Yorkshire and a wedding in Bedfordshire)."""
        return all(k in NAME_FEATURES for k, f in self.features.items() if f["weight"] > 0)

    def to_cli(self) -> dict[str, Any]:
        return {
            "a": self.a,
            "b": self.b,
            "probability": round(self.probability, 6),
            "recommended_action": self.recommended_action,
            "features": self.features,
            "merge_rationale": self.merge_rationale,
            "why_not_merge": self.why_not_merge,
        }

    def to_seed(self) -> dict[str, Any]:
        """Seed 000 §3.3's merge proposal schema."""
        return {
            "candidate_pair": [self.a, self.b],
            "similarity_score": round(self.probability, 6),
            "matching_features": {k: v["score"] for k, v in self.features.items()},
            "merge_rationale": self.merge_rationale,
            "why_not_merge": self.why_not_merge,
            "recommended_action": self.recommended_action,
            "reversible": True,
        }


def _show(cmp: Comparator, t: RecordTable, i: int, j: int, private: bool) -> str:
    if private:
        return ""
    x, y = cmp.values(t, i), cmp.values(t, j)
    if not x or not y:
        return ""
    return f" ({x})" if x.lower() == y.lower() else f" ({x} vs {y})"


def explain(
    cmps: list[Comparator],
    m: list[np.ndarray],
    u: list[np.ndarray],
    t: RecordTable,
    i: int,
    j: int,
    levels: np.ndarray,
    weights: np.ndarray,
    probability: float,
    constraints: list[str],
    th: Thresholds,
    *,
    private: bool = False,
) -> Proposal:
    """One pair's proposal; `private` leaves compared values out (living people)."""
    feats: dict[str, dict[str, Any]] = {}
    pro: list[tuple[float, str]] = []
    con: list[tuple[float, str]] = []
    for k, c in enumerate(cmps):
        lv = int(levels[k])
        if lv < 0:
            feats[c.name] = {"level": "missing", "weight": 0.0, "score": None}
            continue
        wk = float(weights[k])
        mk, uk = float(m[k][lv]), float(u[k][lv])
        feats[c.name] = {
            "level": c.labels[lv],
            "weight": round(wk, 3),
            "score": round(mk / (mk + uk), 4) if mk + uk > 0 else None,
        }
        text = f"{c.name.replace('_', ' ')}: {c.labels[lv]}{_show(c, t, i, j, private)}"
        (pro if wk > 0 else con).append((wk, text))
    pro.sort(key=lambda x: -x[0])
    con.sort(key=lambda x: x[0])
    if constraints:
        action = "separate"
    elif probability >= th.merge and not any(w <= th.strong_against for w, _ in con):
        action = "merge"
    elif probability >= th.review:
        action = "review"
    else:
        action = "separate"
    rationale = "; ".join(f"{txt} (+{w:.1f} bits)" for w, txt in pro) or "no feature agrees"
    against = [*constraints, *(f"{txt} ({w:.1f} bits)" for w, txt in con)]
    why_not = "; ".join(against) or "nothing recorded speaks against it"
    return Proposal(
        a=t.ids[i], b=t.ids[j], probability=0.0 if constraints else probability,
        recommended_action=action, features=feats, merge_rationale=rationale,
        why_not_merge=why_not, constraints=constraints,
    )
