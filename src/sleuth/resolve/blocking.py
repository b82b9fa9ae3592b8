"""Blocking: only records sharing a key under some rule are compared (rules are unioned).

Each rule maps a record to zero or more keys; records sharing a key form a block, and the
candidate pairs are the union over rules of the pairs inside each block (across the two
sources when linking). Blocks larger than `max_block` are skipped (a key that common
separates nothing), which keeps the pair count near-linear in the number of records.
`BlockingReport` says how many pairs were compared and the reduction ratio against all pairs.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from sleuth.extract.phonetic import double_metaphone, soundex
from sleuth.resolve.records import RecordTable

KeyFn = Callable[[RecordTable, int], Iterable[str]]


@dataclass(frozen=True)
class BlockingRule:
    name: str
    keys: KeyFn


@dataclass
class BlockingReport:
    records: int
    pairs: int
    total_pairs: int
    by_rule: dict[str, int] = field(default_factory=dict)
    skipped_blocks: int = 0

    @property
    def reduction_ratio(self) -> float:
        return 1.0 - self.pairs / self.total_pairs if self.total_pairs else 0.0


def _block_pairs(members: np.ndarray, src: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    if src is None:
        i, j = np.triu_indices(len(members), k=1)
        return members[i], members[j]
    left, right = members[src[members] == 0], members[src[members] == 1]
    a = np.repeat(left, len(right))
    b = np.tile(right, len(left))
    return a, b


def block(
    t: RecordTable, rules: Sequence[BlockingRule], *, max_block: int = 400
) -> tuple[np.ndarray, np.ndarray, BlockingReport]:
    """Candidate pairs (a < b for dedupe; a from source 0 for linking) and a report."""
    n = len(t)
    src = np.asarray(t.source) if t.source is not None else None
    chunks: list[np.ndarray] = []
    by_rule: dict[str, int] = {}
    skipped = 0
    for rule in rules:
        groups: dict[str, list[int]] = {}
        for i in range(n):
            for k in set(rule.keys(t, i)):
                if k:
                    groups.setdefault(k, []).append(i)
        rule_chunks = []
        for members in groups.values():
            if len(members) < 2:
                continue
            if len(members) > max_block:
                skipped += 1
                continue
            a, b = _block_pairs(np.asarray(members, dtype=np.int64), src)
            if len(a):
                lo, hi = (np.minimum(a, b), np.maximum(a, b)) if src is None else (a, b)
                rule_chunks.append(lo * n + hi)
        if rule_chunks:
            keys = np.unique(np.concatenate(rule_chunks))
            by_rule[rule.name] = len(keys)
            chunks.append(keys)
        else:
            by_rule[rule.name] = 0
    allk = np.unique(np.concatenate(chunks)) if chunks else np.zeros(0, dtype=np.int64)
    a, b = allk // n, allk % n
    total = int((src == 0).sum()) * int((src == 1).sum()) if src is not None else n * (n - 1) // 2
    return a, b, BlockingReport(n, len(allk), total, by_rule, skipped)


# -- key helpers -------------------------------------------------------------------------------
def _s(t: RecordTable, col: str, i: int) -> str:
    v = t.cols[col][i]
    return v.strip().lower() if isinstance(v, str) else ""


def dm(s: str) -> str:
    return double_metaphone(s)[0] if s else ""


def _mid_year(t: RecordTable, prefix: str, i: int) -> float | None:
    lo, hi = t.cols[f"{prefix}_lo"][i], t.cols[f"{prefix}_hi"][i]
    vals = [x for x in (lo, hi) if not math.isnan(x)]
    return sum(vals) / len(vals) if vals else None


def genealogy_rules() -> list[BlockingRule]:
    """Unioned rules for persons: phonetic surname × birth decade, initials, swaps, places."""

    def surname_decade(t: RecordTable, i: int) -> Iterable[str]:
        y = _mid_year(t, "birth", i)
        if y is None:
            return ()
        sur = dm(_s(t, "surname", i))
        keys = [f"{sur}|{int(y // 10)}", f"{sur}|+{int((y + 5) // 10)}"]
        keys += [f"{dm(x)}|{int(y // 10)}" for x in t.cols["alt_surnames"][i]]
        return keys if sur else keys[2:]

    def initial_prefix(t: RecordTable, i: int) -> Iterable[str]:
        g, s = _s(t, "given", i), _s(t, "surname", i)
        return (f"{g[:1]}|{s[:3]}",) if g and s else ()

    def phonetic_names(t: RecordTable, i: int) -> Iterable[str]:
        g, s = dm(_s(t, "given", i)), dm(_s(t, "surname", i))
        # sorted: a transposed given/surname lands in the same block
        return ("|".join(sorted((g, s))),) if g and s else ()

    def given_decade(t: RecordTable, i: int) -> Iterable[str]:
        y = _mid_year(t, "birth", i)
        g = soundex(_s(t, "given", i))
        return (f"{g}|{int(y // 10)}",) if g and y is not None else ()

    def place_given(t: RecordTable, i: int) -> Iterable[str]:
        p = _s(t, "birth_place", i).split(",")[0].strip()
        g = _s(t, "given", i)
        return (f"{p}|{g[:2]}",) if p and g else ()

    return [
        BlockingRule("surname sound × birth decade", surname_decade),
        BlockingRule("given initial × surname prefix", initial_prefix),
        BlockingRule("phonetic given + surname (either order)", phonetic_names),
        BlockingRule("given sound × birth decade", given_decade),
        BlockingRule("birth place × given prefix", place_given),
    ]
