"""Entity resolution: blocking, Fellegi–Sunter scoring trained by EM, explainable proposals,
clustering without transitive errors, and reversible merges on a case store."""

from sleuth.resolve.blocking import BlockingReport, BlockingRule, block, genealogy_rules
from sleuth.resolve.cluster import Cluster, Resolution, hard_constraints, resolve
from sleuth.resolve.explain import Proposal, Thresholds
from sleuth.resolve.features import genealogy_comparators
from sleuth.resolve.merge import merge, merge_blockers, split
from sleuth.resolve.records import (
    PersonRecord,
    RecordTable,
    records_from_gedcom,
    records_from_graph,
    table_from_records,
)

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
