"""sleuth: an evidence-first autonomous research engine.

Every fact carries a citation into an immutable stored snapshot, checked by the hallucination
firewall before it can be staged, validated, decided and promoted. This module is the public
front; everything else lives in the sub-packages (model, store, verify, agents, ...).

Every name here is loaded on first use (PEP 562), so `import sleuth` - and with it every
`sleuth ...` command, `--help` included - starts without pydantic, SQLAlchemy or the
extractors (start-up time, issue 19).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from sleuth.agents import ingest_path
    from sleuth.model import (
        Candidate,
        CaseGraph,
        Citation,
        EvidenceType,
        GenDate,
        Locator,
        Person,
        Snapshot,
        Tier,
    )
    from sleuth.store import Store
    from sleuth.verify import check_candidates

_MODULE_OF = {
    **dict.fromkeys(
        ("Candidate", "CaseGraph", "Citation", "EvidenceType", "GenDate", "Locator", "Person",
         "Snapshot", "Tier"),
        "sleuth.model",
    ),
    "Store": "sleuth.store",
    "check_candidates": "sleuth.verify",
    "ingest_path": "sleuth.agents",
}

__all__ = [
    "Candidate",
    "CaseGraph",
    "Citation",
    "EvidenceType",
    "GenDate",
    "Locator",
    "Person",
    "Snapshot",
    "Store",
    "Tier",
    "__version__",
    "check_candidates",
    "ingest_path",
]


def __getattr__(name: str) -> Any:
    """Load a public name from its sub-package the first time it is asked for."""
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'sleuth' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
