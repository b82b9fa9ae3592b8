"""The pipeline's agents: Validator, Decision Maker, Analyst, staging and human review."""

from sleuth.agents.analyst import Claim, adjudicate, analyse_persons
from sleuth.agents.decision import Decision, make_decision
from sleuth.agents.ingest import IngestResult, ingest_path
from sleuth.agents.staging import StageReport, process_snapshot
from sleuth.agents.validator import DEFAULT_RULES, Validation, validate

__all__ = [
    "DEFAULT_RULES",
    "Claim",
    "Decision",
    "IngestResult",
    "StageReport",
    "Validation",
    "adjudicate",
    "analyse_persons",
    "ingest_path",
    "make_decision",
    "process_snapshot",
    "validate",
]
