"""A person's corrections of the rule-derived classes, kept beside the immutable citations.

Citations are append-only, so a class a researcher disagrees with cannot be edited in
place; it is overridden by a row in `evidence_overrides` (append-only too, latest row wins
axis by axis, audited). Readers key overrides by the citation's natural key (assertion,
snapshot, span) because the read model's `Citation` carries no row id.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sleuth.model import InputError
from sleuth.model.evidence import EvidenceClass, InformationClass, ResearchQuestion, SourceClass
from sleuth.store import Store
from sleuth.store.overrides import add_override, citation_row_ids, override_rows

CitationKey = tuple[str, str, int, int]  # assertion id, snapshot id, start, end


@dataclass
class Override:
    source: SourceClass | None = None
    information: InformationClass | None = None
    evidence: dict[ResearchQuestion | None, EvidenceClass] = field(default_factory=dict)
    original_snapshot_id: str | None = None
    reasons: list[str] = field(default_factory=list)


def set_override(
    store: Store,
    citation_id: str,
    *,
    reason: str,
    set_by: str = "Human",
    source: SourceClass | str | None = None,
    information: InformationClass | str | None = None,
    evidence: EvidenceClass | str | None = None,
    question: ResearchQuestion | str | None = None,
    original_snapshot_id: str | None = None,
) -> int:
    """Record a correction of one citation's classes; returns the new row's id."""
    if not reason.strip():
        raise InputError("an override needs a reason", field="reason")
    try:
        values = dict(
            source_class=SourceClass(source).value if source else None,
            information_class=InformationClass(information).value if information else None,
            evidence_class=EvidenceClass(evidence).value if evidence else None,
            question=ResearchQuestion(question).value if question else None,
        )
    except ValueError as exc:
        raise InputError(str(exc), field="class") from None
    if not any(values.values()) and original_snapshot_id is None:
        raise InputError("an override must set at least one class", field="class")
    return add_override(store, citation_id, values, set_by=set_by, reason=reason,
                        original_snapshot_id=original_snapshot_id)


def load_overrides(store: Store) -> dict[CitationKey, Override]:
    """Every citation's folded override, by (assertion, snapshot, start, end)."""
    out: dict[CitationKey, Override] = {}
    for m in override_rows(store):
        key = (m["assertion_id"], m["snapshot_id"], m["char_start"], m["char_end"])
        ov = out.setdefault(key, Override())
        if m["source_class"]:
            ov.source = SourceClass(m["source_class"])
        if m["information_class"]:
            ov.information = InformationClass(m["information_class"])
        if m["evidence_class"]:
            q_ = ResearchQuestion(m["question"]) if m["question"] else None
            ov.evidence[q_] = EvidenceClass(m["evidence_class"])
        if m["original_snapshot_id"]:
            ov.original_snapshot_id = m["original_snapshot_id"]
        ov.reasons.append(f"{m['set_by']}: {m['reason']}")
    return out


def citation_ids(store: Store, assertion_id: str) -> list[str]:
    """The row ids of an assertion's citations (for `set_override`)."""
    return citation_row_ids(store, assertion_id)
