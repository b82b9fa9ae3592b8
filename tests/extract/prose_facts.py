"""The prose tests' view of an extraction: firewall-checked facts by field."""

from __future__ import annotations

from sleuth.extract import extract_text
from sleuth.model.dates import GenDate
from sleuth.verify import Source, check_candidates


def prose_facts(text: str, ref: GenDate | None = None, *, related: bool = False,
                hint: str | None = None) -> dict[str, set[tuple[str, str]]]:
    """{field: {(subject, value)}} for the facts extracted from `text`; every candidate must
    pass the firewall. `related`: a relative's name instead of the value where there is one;
    `hint`: the subject the document is about."""
    cands = extract_text(text, "s", document_date=ref, subject_hint=hint)
    dated = ref.earliest if ref is not None and ref.precision == "day" else None
    report = check_candidates(cands, {"s": Source.of(text, dated=dated)})  # as the extractor
    assert len(report.passed) == len(cands), report.violations
    out: dict[str, set[tuple[str, str]]] = {}
    for c in cands:
        if c.is_fact:
            value = (c.related_name or c.value) if related else c.value
            out.setdefault(c.field, set()).add((c.subject_name or "", value))
    return out
