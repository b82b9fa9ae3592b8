"""Grounded candidates from structured records (JSON, CSV, HTML profiles).

Structured sources already say which value is which field; what they still owe the firewall
is a verbatim excerpt. `RecordDoc.emit` takes a character span of the snapshot text and
slices the excerpt from it, so `excerpt == text[start:end]` holds by construction, exactly
as for prose (`sleuth.extract.emit.Doc`).
"""

from __future__ import annotations

from bisect import bisect_right

from sleuth.model.citation import Citation, EvidenceType, Locator
from sleuth.model.dates import GenDate
from sleuth.model.records import Candidate


class RecordDoc:
    """One structured record's output list plus the text its spans point into."""

    def __init__(
        self,
        text: str,
        snapshot_id: str,
        *,
        method: str = "deterministic",
        evidence_type: EvidenceType | None = None,
        source_reliability: float = 0.5,
        page_starts: tuple[int, ...] = (),
        per_statement: bool = False,
    ) -> None:
        """`per_statement=True` keeps one candidate per span that states a value: a tree
        giving two marriages at the same church states that place twice, for two events."""
        self.text = text
        self.per_statement = per_statement
        self.snapshot_id = snapshot_id
        self.method = method
        self.evidence_type = evidence_type
        self.reliability = min(1.0, max(0.0, source_reliability))
        self.page_starts = page_starts
        self.names: dict[str, str] = {}
        self.out: list[Candidate] = []
        self._seen: set[tuple[object, ...]] = set()

    def find(self, needle: str, start: int = 0, end: int | None = None) -> tuple[int, int] | None:
        """Span of the first verbatim occurrence of `needle` in [start, end), or None."""
        if not needle:
            return None
        i = self.text.find(needle, start, len(self.text) if end is None else end)
        return None if i < 0 else (i, i + len(needle))

    def page(self, offset: int) -> int | None:
        if not self.page_starts:
            return None
        return max(1, bisect_right(self.page_starts, offset))

    def emit(
        self,
        subject: str,
        field: str,
        value: str,
        span: tuple[int, int],
        confidence: float,
        rationale: str,
        *,
        subject_name: str | None = None,
        date: GenDate | None = None,
        related: str | None = None,
        related_name: str | None = None,
        is_fact: bool = True,
        line: int | None = None,
        name_related: bool = True,
        evidence_type: EvidenceType | None = None,
    ) -> Candidate | None:
        """Append one candidate citing `text[span]`; duplicates and empty spans are dropped.

        `name_related=False` leaves `related_name` empty: for records that link people by
        identifier (GEDCOM's `1 CHIL @I3@`), where the relative's name is not in the excerpt.
        """
        s, e = span
        if not value or not (0 <= s < e <= len(self.text)):
            return None
        if subject_name:
            self.names.setdefault(subject, subject_name)
        if related and related_name:
            self.names.setdefault(related, related_name)
        key: tuple[object, ...] = (subject, field, value, related)
        if self.per_statement:
            key = (*key, s, e)
        if key in self._seen:
            return None
        self._seen.add(key)
        method = self.method if is_fact else "inference"
        cand = Candidate(
            subject=subject,
            subject_name=self.names.get(subject),
            field=field,
            value=value,
            date=date,
            related=related,
            related_name=self.names.get(related) if related and name_related else None,
            confidence=round(min(confidence, 0.6) if not is_fact else confidence, 3),
            citation=Citation(
                snapshot_id=self.snapshot_id,
                excerpt=self.text[s:e],
                locator=Locator(start=s, end=e, page=self.page(s), line=line),
                extraction_method=method,
                source_reliability=self.reliability,
                rationale=rationale,
            ),
            is_fact=is_fact,
            method=method,
            evidence_type=evidence_type or self.evidence_type,
            rationale=rationale,
        )
        self.out.append(cand)
        return cand
