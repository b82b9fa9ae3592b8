"""Entity resolution: blocking, Fellegi–Sunter scoring trained by EM, explainable proposals,
clustering without transitive errors, and reversible merges on a case store.

Names load on first use (PEP 562): promotion needs `coparents`, not numpy's blocking and
scoring (start-up of `sleuth ingest`, issue 19). `merge` is also a module's name, so the
merge functions are bound at once: a lazy name would be shadowed by the submodule.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sleuth._lazy import loader
from sleuth.resolve.merge import merge, merge_blockers, split

if TYPE_CHECKING:
    from sleuth.resolve.blocking import BlockingReport, BlockingRule, block, genealogy_rules
    from sleuth.resolve.cluster import Cluster, Resolution, hard_constraints, resolve
    from sleuth.resolve.explain import Proposal, Thresholds
    from sleuth.resolve.features import genealogy_comparators
    from sleuth.resolve.records import (
        PersonRecord,
        RecordTable,
        records_from_gedcom,
        records_from_graph,
        table_from_records,
    )

_WHERE: dict[str, tuple[str, ...]] = {
    "sleuth.resolve.blocking": ("BlockingReport", "BlockingRule", "block", "genealogy_rules"),
    "sleuth.resolve.cluster": ("Cluster", "Resolution", "hard_constraints", "resolve"),
    "sleuth.resolve.explain": ("Proposal", "Thresholds"),
    "sleuth.resolve.features": ("genealogy_comparators",),
    "sleuth.resolve.records": ("PersonRecord", "RecordTable", "records_from_gedcom",
                               "records_from_graph", "table_from_records"),
}

__all__ = [
    "BlockingReport",
    "BlockingRule",
    "Cluster",
    "PersonRecord",
    "Proposal",
    "RecordTable",
    "Resolution",
    "Thresholds",
    "block",
    "genealogy_comparators",
    "genealogy_rules",
    "hard_constraints",
    "merge",
    "merge_blockers",
    "records_from_gedcom",
    "records_from_graph",
    "resolve",
    "split",
    "table_from_records",
]


__getattr__ = loader("sleuth.resolve", _WHERE)
