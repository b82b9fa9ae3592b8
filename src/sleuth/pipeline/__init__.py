"""The pipeline's agents: Validator, Decision Maker, staging and human review (the Analyst
that adjudicates conflicts after promotion is `sleuth.gps.adjudicate`).

Names load on first use (PEP 562): `sleuth review` needs the review helpers, not the
extractors and resolvers that promotion pulls in (start-up time, issue 19).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sleuth._lazy import loader

if TYPE_CHECKING:
    from sleuth.pipeline.decision import Decision, make_decision
    from sleuth.pipeline.ingest import IngestResult, ingest_path
    from sleuth.pipeline.staging import StageReport, process_snapshot
    from sleuth.pipeline.validator import DEFAULT_RULES, Validation, validate

_WHERE: dict[str, tuple[str, ...]] = {
    "sleuth.pipeline.decision": ("Decision", "make_decision"),
    "sleuth.pipeline.ingest": ("IngestResult", "ingest_path"),
    "sleuth.pipeline.staging": ("StageReport", "process_snapshot"),
    "sleuth.pipeline.validator": ("DEFAULT_RULES", "Validation", "validate"),
}

__all__ = [
    "DEFAULT_RULES",
    "Decision",
    "IngestResult",
    "StageReport",
    "Validation",
    "ingest_path",
    "make_decision",
    "process_snapshot",
    "validate",
]


__getattr__ = loader("sleuth.pipeline", _WHERE)
