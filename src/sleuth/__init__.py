"""sleuth: an evidence-first autonomous research engine.

Every fact carries a citation into an immutable stored snapshot, checked by the hallucination
firewall before it can be staged, validated, decided and promoted. This module is the public
front; everything else lives in the sub-packages (model, store, verify, agents, ...).

Every name here is loaded on first use (PEP 562), so `import sleuth` - and with it every
`sleuth ...` command, `--help` included - starts without pydantic, SQLAlchemy or the
extractors (start-up time, issue 19).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sleuth._lazy import loader
from sleuth._version import __version__

if TYPE_CHECKING:
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
    from sleuth.pipeline import ingest_path
    from sleuth.store import Store
    from sleuth.verify import check_candidates

_WHERE: dict[str, tuple[str, ...]] = {
    "sleuth.model": ("Candidate", "CaseGraph", "Citation", "EvidenceType", "GenDate",
                     "Locator", "Person", "Snapshot", "Tier"),
    "sleuth.store": ("Store",),
    "sleuth.verify": ("check_candidates",),
    "sleuth.pipeline": ("ingest_path",),
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


__getattr__ = loader("sleuth", _WHERE)
