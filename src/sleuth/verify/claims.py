"""Claim verification: is one claim supported by the evidence sentences it cites?

A pure function over text (no store, no model): `verify_claim(claim, evidence)` aligns the
claim's checkable atoms to the evidence sentences and returns a `ClaimCheck` whose verdict is
one of `supported`, `partially_supported`, `not_supported`, `contradicted` or `not_found`
(the evidence does not address the claim at all). Precision of `supported` comes first: a
claim is called supported only when every atom is shown in the evidence, with its span.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

Verdict = Literal["supported", "partially_supported", "not_supported", "contradicted", "not_found"]
VERDICTS: tuple[Verdict, ...] = (
    "supported",
    "partially_supported",
    "not_supported",
    "contradicted",
    "not_found",
)


@dataclass(frozen=True)
class EvidenceSpan:
    """`text == sentences[sentence_index][start:end]`: a span inside one evidence sentence."""

    sentence_index: int
    start: int
    end: int
    text: str

    def to_json(self) -> dict[str, object]:
        return {
            "sentence_index": self.sentence_index,
            "start": self.start,
            "end": self.end,
            "text": self.text,
        }


@dataclass(frozen=True)
class ClaimCheck:
    """The verdict on one claim, the evidence spans that ground it, and what is not grounded.

    `unsupported_spans` are `(start, end, text)` character spans of the claim itself."""

    id: str
    claim: str
    verdict: Verdict
    evidence: tuple[EvidenceSpan, ...]
    unsupported_spans: tuple[tuple[int, int, str], ...]
    rationale: str

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "verdict": self.verdict,
            "evidence": [span.to_json() for span in self.evidence],
            "unsupported_spans": [
                {"start": start, "end": end, "text": text}
                for start, end, text in self.unsupported_spans
            ],
            "rationale": self.rationale,
        }


_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])")


def split_sentences(text: str) -> list[str]:
    """Split running text into sentences (blank lines always end one)."""
    out: list[str] = []
    for block in re.split(r"\n\s*\n", text):
        block = " ".join(block.split())
        if not block:
            continue
        out.extend(part.strip() for part in _SENTENCE_END.split(block) if part.strip())
    return out


_WORD = re.compile(r"\w+(?:[.'’-]\w+)*", re.UNICODE)
_STOP_WORDS = (
    "a an the of in on at to for by with and or but is are was were be been being has have "
    "had it its this that these those as from into than then he she they his her their "
    "which who whom also"
)
_STOP = frozenset(_STOP_WORDS.split())


def verify_claim(claim: str, evidence: Sequence[str], *, claim_id: str = "") -> ClaimCheck:
    """Check one claim against evidence sentences (first simple version: content words)."""
    atoms = [m for m in _WORD.finditer(claim) if m.group(0).lower() not in _STOP]
    found: list[EvidenceSpan] = []
    missing: list[tuple[int, int, str]] = []
    lowered = [s.lower() for s in evidence]
    for m in atoms:
        word = m.group(0).lower()
        hit = None
        for i, sent in enumerate(lowered):
            for w in _WORD.finditer(sent):
                if w.group(0) == word:
                    hit = EvidenceSpan(i, w.start(), w.end(), evidence[i][w.start() : w.end()])
                    break
            if hit:
                break
        if hit:
            found.append(hit)
        else:
            missing.append((m.start(), m.end(), m.group(0)))
    if not atoms or not found:
        verdict: Verdict = "not_found"
    elif not missing:
        verdict = "supported"
    else:
        verdict = "partially_supported"
    return ClaimCheck(
        claim_id,
        claim,
        verdict,
        tuple(found),
        tuple(missing),
        f"{len(found)} of {len(atoms)} content words found in the evidence",
    )
