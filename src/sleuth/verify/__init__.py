"""Verification: the hallucination firewall and the normalisation rules it tolerates."""

from sleuth.verify.firewall import (
    CHECKS,
    FirewallReport,
    Source,
    Violation,
    check_candidate,
    check_candidates,
)
from sleuth.verify.normalise import SourceText, normalise

__all__ = [
    "CHECKS",
    "FirewallReport",
    "Source",
    "SourceText",
    "Violation",
    "check_candidate",
    "check_candidates",
    "normalise",
]
