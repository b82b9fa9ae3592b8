"""Verification: the hallucination firewall and the normalisation rules it tolerates."""

from sleuth.verify.firewall import (
    CHECKS,
    CitationCheck,
    FirewallReport,
    Source,
    Violation,
    check_candidate,
    check_candidates,
    check_citation,
    screen,
)
from sleuth.verify.normalise import SourceText, normalise

__all__ = [
    "CHECKS",
    "CitationCheck",
    "FirewallReport",
    "Source",
    "SourceText",
    "Violation",
    "check_candidate",
    "check_candidates",
    "check_citation",
    "normalise",
    "screen",
]
