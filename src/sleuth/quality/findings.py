"""Findings as data, and how the research loop turns one into a hypothesis (never a fact).

A finding names the rule and its source rule set (Gramps, WikiTree, FamilySearch), the
threshold that fired, the people (GEDCOM xrefs for a file, person ids for a case), the
family when the rule is about one, and the dated values involved, already reduced for
living people (see `sleuth.quality.rules`).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from sleuth.model.records import Hypothesis

SEVERITIES = ("error", "warning", "possible", "note")
_PRIORITY = {"error": 0.8, "warning": 0.5, "possible": 0.3, "note": 0.1}


@dataclass(frozen=True)
class Finding:
    """One rule that fired, with everything a reader needs to check it by hand.

    severity: "error" (impossible for every value the dates allow), "warning" (unusual, for
    every value), "possible" (holds for the central estimate of uncertain dates, not for all
    values: a lead, not a defect), "note" (says nothing about the facts: the order a file
    lists its records in).
    """

    rule: str
    severity: str
    people: tuple[str, ...]
    message: str
    source: str = "gramps"
    family: str | None = None
    names: dict[str, str] = field(default_factory=dict)
    evidence: list[dict[str, str]] = field(default_factory=list)  # {person, field, value}
    threshold: dict[str, float] = field(default_factory=dict)
    measured: dict[str, float] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["people"] = list(self.people)
        return d


_QUERY_FIELDS = {
    "birth": "birth or baptism record",
    "baptism": "baptism record",
    "christening": "baptism record",
    "death": "death or burial record",
    "burial": "burial record",
    "marriage": "marriage record",
}


def finding_to_hypothesis(f: Finding) -> Hypothesis:
    """A research lead from a finding: which record to look for, for whom, how urgently."""
    target = f.people[0] if f.people else None
    queries: list[str] = []
    for ev in f.evidence:
        who = f.names.get(ev.get("person", ""), ev.get("person", ""))
        what = _QUERY_FIELDS.get(ev.get("field", ""), ev.get("field", "record"))
        q = f"{what} of {who}".strip()
        if q not in queries:
            queries.append(q)
    if not queries:
        queries = [f"records that confirm the family links of {f.names.get(p, p)}"
                   for p in f.people[:2]]
    limit = ", ".join(f"{k} {v:g}" for k, v in f.threshold.items())
    statement = (
        f"Data-quality check {f.rule} ({f.source}{'; ' + limit if limit else ''}): {f.message}."
        " One of the recorded values or links may be wrong."
    )
    return Hypothesis(
        hypothesis_type=f"data_quality:{f.rule}",
        statement=statement,
        target_person=target,
        suggested_queries=queries,
        priority=_PRIORITY.get(f.severity, 0.3),
    )
