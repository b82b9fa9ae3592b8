"""Verification: the hallucination firewall, the normalisation rules it tolerates, and claim
verification (`claims`: is a claim supported by its evidence sentences?)."""

from sleuth.verify.claims import (
    VERDICTS,
    ClaimCheck,
    EvidenceSpan,
    Paraphrase,
    Verdict,
    split_sentences,
    verify_claim,
)
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
    "VERDICTS",
    "CitationCheck",
    "ClaimCheck",
    "EvidenceSpan",
    "FirewallReport",
    "Paraphrase",
    "Source",
    "SourceText",
    "Verdict",
    "Violation",
    "check_candidate",
    "check_candidates",
    "check_citation",
    "normalise",
    "screen",
    "split_sentences",
    "verify_claim",
]
