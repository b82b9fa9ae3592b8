"""Scorers for `benchmarks/extraction.py`: one module per dataset, each with `score(root)`.

A scorer reads `../shared/data` (passed as `root`), runs sleuth's extractor, compares with the
dataset's own labels and returns `FieldScore` rows. Counting is explicit (true/false
positives, false negatives) so the table shows precision, recall and F1 side by side.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class FieldScore:
    dataset: str
    field: str
    tp: int = 0
    fp: int = 0
    fn: int = 0
    docs: int = 0
    seconds: float = 0.0
    firewall_pass: int = 0  # emitted excerpts the firewall found in the stored text
    firewall_total: int = 0
    hypotheses_as_facts: int = 0
    note: str = ""

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    @property
    def docs_per_second(self) -> float:
        return self.docs / self.seconds if self.seconds else 0.0
