"""The pipeline's agents: Validator, Decision Maker, Analyst, staging and human review.

Names load on first use (PEP 562): `sleuth review` needs the review helpers, not the
extractors and resolvers that promotion pulls in (start-up time, issue 19).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sleuth.agents.analyst import Claim, adjudicate, analyse_persons
    from sleuth.agents.decision import Decision, make_decision
    from sleuth.agents.ingest import IngestResult, ingest_path
    from sleuth.agents.staging import StageReport, process_snapshot
    from sleuth.agents.validator import DEFAULT_RULES, Validation, validate

_WHERE: dict[str, tuple[str, ...]] = {
    "sleuth.agents.analyst": ("Claim", "adjudicate", "analyse_persons"),
    "sleuth.agents.decision": ("Decision", "make_decision"),
    "sleuth.agents.ingest": ("IngestResult", "ingest_path"),
    "sleuth.agents.staging": ("StageReport", "process_snapshot"),
    "sleuth.agents.validator": ("DEFAULT_RULES", "Validation", "validate"),
}
_MODULE_OF = {name: module for module, names in _WHERE.items() for name in names}

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


def __getattr__(name: str) -> Any:
    """Load the submodule that defines `name` the first time it is asked for."""
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'sleuth.agents' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
