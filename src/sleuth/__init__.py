"""sleuth: an evidence-first autonomous research engine.

Every fact carries a citation into an immutable stored snapshot, checked by the hallucination
firewall before it can be staged, validated, decided and promoted. This module is the public
front; everything else lives in the sub-packages (model, store, verify, agents, ...).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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
from sleuth.verify import check_candidates

__version__ = "0.1.0"

if TYPE_CHECKING:
    from sleuth.agents import ingest_path
    from sleuth.store import Store

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
    """Load the database-backed parts lazily so `import sleuth` stays light."""
    if name == "Store":
        from sleuth.store import Store

        return Store
    if name == "ingest_path":
        from sleuth.agents import ingest_path

        return ingest_path
    raise AttributeError(f"module 'sleuth' has no attribute {name!r}")
