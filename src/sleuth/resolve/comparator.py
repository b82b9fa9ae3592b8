"""The comparison machinery under the resolver's features, as Splink shapes it: a column
factorised once (`factor`), levels computed per distinct pair of values (`pair_map`), and
`Comparator`, whose subclasses give each record pair a comparison level; `StringCmp` and
`ExactCmp` are the generic ones."""


from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np
from rapidfuzz import process
from rapidfuzz.distance import DamerauLevenshtein, JaroWinkler

from sleuth.extract.phonetic import double_metaphone
from sleuth.resolve.records import RecordTable

IntArr = np.ndarray


@dataclass
class Factor:
    """A column factorised: `codes[i]` indexes `uniques` (-1 missing); `freq` per unique."""

    codes: IntArr
    uniques: list[Any]
    freq: IntArr


_FACTOR_CACHE: dict[tuple[int, str], Factor] = {}


def factor(t: RecordTable, col: str, norm: Callable[[Any], Any] | None = None) -> Factor:
    key = (id(t), col if norm is None else f"{col}:{id(norm)}")
    hit = _FACTOR_CACHE.get(key)
    if hit is not None and len(hit.codes) == len(t):
        return hit
    index: dict[Any, int] = {}
    codes = np.empty(len(t), dtype=np.int64)
    for i, v in enumerate(t.cols[col]):
        if norm is not None:
            v = norm(v)
        if v is None or v == "" or (isinstance(v, float) and math.isnan(v)):
            codes[i] = -1
            continue
        codes[i] = index.setdefault(v, len(index))
    uniques = list(index)
    freq = np.bincount(codes[codes >= 0], minlength=len(uniques))
    f = Factor(codes, uniques, freq)
    if len(_FACTOR_CACHE) > 256:
        _FACTOR_CACHE.clear()
    _FACTOR_CACHE[key] = f
    return f


def pair_map(
    ca: IntArr, cb: IntArr, fn: Callable[[list[int], list[int]], np.ndarray]
) -> np.ndarray:
    """Apply `fn` to each distinct (code a, code b) pair once; map results back to pairs."""
    lo, hi = np.minimum(ca, cb), np.maximum(ca, cb)  # symmetric scores: order-free key
    key = lo * (int(hi.max(initial=0)) + 1) + hi
    uk, inv = np.unique(key, return_inverse=True)
    width = int(hi.max(initial=0)) + 1
    ua, ub = (uk // width).tolist(), (uk % width).tolist()
    return np.asarray(fn(ua, ub))[inv]


def _counts(f: Factor, codes: IntArr) -> np.ndarray:
    """How many records hold each record's value (0 where missing)."""
    return np.where(codes >= 0, f.freq[np.maximum(codes, 0)], 0).astype(float)


def lowered(v: Any) -> Any:
    """A text value as compared: stripped, lower case (anything else as it is)."""
    return v.strip().lower() if isinstance(v, str) else v


def exact_levels(f: Factor, a: IntArr, b: IntArr) -> IntArr:
    """1 where both records hold the same value, 0 where they differ, -1 where one is missing."""
    ca, cb = f.codes[a], f.codes[b]
    out = (ca == cb).astype(np.int8)
    out[(ca < 0) | (cb < 0)] = -1
    return out


def graded_levels(f: Factor, a: IntArr, b: IntArr, exact_level: int,
                   grade: Callable[[list[int], list[int]], np.ndarray]) -> IntArr:
    """`exact_level` for equal values, `grade` for distinct pairs of differing values, -1
    where one is missing: grading each distinct value pair once keeps big tables cheap."""
    ca, cb = f.codes[a], f.codes[b]
    out = np.full(len(a), -1, dtype=np.int8)
    both = (ca >= 0) & (cb >= 0)
    out[both] = 0
    exact = both & (ca == cb)
    out[exact] = exact_level
    fz = both & ~exact
    if fz.any():
        out[fz] = pair_map(ca[fz], cb[fz], grade)
    return out


class Comparator(ABC):
    """Base: `name`, level `labels` (index = level, 0 = disagree) and `levels()`."""

    name: str = ""
    labels: tuple[str, ...] = ()
    tf_level: int | None = None  # the exact level, when term-frequency adjustment applies
    tf_fuzzy: bool = False  # adjust the near-miss levels too (by the commoner value)

    @property
    def tf_fuzzy_levels(self) -> tuple[int, ...]:
        """Near-miss levels that compare the two values themselves (spelling or sound):
        with `tf_fuzzy` their weight is corrected for how common the values are."""
        return ()
    # Levels whose weight (bits) is set by what they mean, not learnt: EM cannot tell a
    # sibling from a duplicate by co-occurrence alone (both share parents and a surname).
    fixed_bits: dict[int, float] | None = None

    @abstractmethod
    def levels(self, t: RecordTable, a: IntArr, b: IntArr) -> IntArr:
        """Comparison level of each pair (a[i], b[i]); -1 where either value is missing."""

    def tf_count(self, t: RecordTable, a: IntArr) -> np.ndarray:
        """How many records hold record a's value (for term-frequency adjustment)."""
        raise TypeError(f"{self.name}: no term-frequency adjustment (tf_level is None)")

    def values(self, t: RecordTable, i: int) -> str:
        """What record i holds for this feature, for explanations."""
        return ""


@dataclass
class StringCmp(Comparator):
    """Exact, then fuzzy levels: Damerau–Levenshtein ≤ `dl`, Jaro–Winkler ≥ each of `jw`.

    `equiv` adds a level for names known to be the same (nickname table) and `swap_col`
    a level for a value found in the other record's `swap_col` (given/surname transposed).
    `phonetic` adds a Double Metaphone level. Labels run from weakest to strongest.
    """

    col: str
    name: str = ""
    jw: tuple[float, ...] = (0.92, 0.85)
    dl: int | None = None
    equiv: Callable[[str, str], bool] | None = None
    phonetic: bool = False
    swap_col: str | None = None
    tf: bool = False
    tf_fuzzy: bool = False
    labels: tuple[str, ...] = field(default=(), init=False)

    def __post_init__(self) -> None:
        self.name = self.name or self.col
        labels = ["different"]
        if self.swap_col:
            labels.append("transposed")
        if self.phonetic:
            labels.append("sounds alike")
        labels += [f"similar (JW ≥ {x})" for x in sorted(self.jw)]
        if self.equiv:
            labels.append("equivalent (nickname/abbreviation/initial)")
        if self.dl is not None:
            labels.append(f"one typo (edit distance ≤ {self.dl})")
        labels.append("exact")
        self.labels = tuple(labels)
        self._top = len(labels) - 1
        self.tf_level = self._top if self.tf else None

    @property
    def tf_fuzzy_levels(self) -> tuple[int, ...]:
        if not (self.tf and self.tf_fuzzy):
            return ()
        near = ("sounds alike", "similar", "one typo")
        return tuple(i for i, lab in enumerate(self.labels) if lab.startswith(near))

    def _f(self, t: RecordTable) -> Factor:
        return factor(t, self.col, lowered)

    def levels(self, t: RecordTable, a: IntArr, b: IntArr) -> IntArr:
        f = self._f(t)
        ca, cb = f.codes[a], f.codes[b]
        out = np.full(len(a), -1, dtype=np.int8)
        both = (ca >= 0) & (cb >= 0)
        out[both] = 0
        exact = both & (ca == cb)
        out[exact] = self._top
        fuzzy = both & ~exact
        if fuzzy.any():
            u = f.uniques
            out[fuzzy] = pair_map(ca[fuzzy], cb[fuzzy], lambda x, y: self._grade(u, x, y))
        if self.swap_col:
            idx = np.flatnonzero(out == 0)
            if idx.size:
                out[idx[_transposed(f, factor(t, self.swap_col, lowered), ca[idx], cb[idx],
                                    a[idx], b[idx])]] = 1
        return out

    def _grade(self, u: list[Any], xs: list[int], ys: list[int]) -> np.ndarray:
        sa, sb = [u[x] for x in xs], [u[y] for y in ys]
        jw = process.cpdist(sa, sb, scorer=JaroWinkler.normalized_similarity, workers=1)
        lv = np.zeros(len(xs), dtype=np.int8)
        base = 1 + int(bool(self.swap_col))
        if self.phonetic:
            ph = np.array([metaphone_key(p) == metaphone_key(q) and metaphone_key(p) != ""
                           for p, q in zip(sa, sb, strict=True)])
            lv[ph] = base
            base += 1
        for k, thr in enumerate(sorted(self.jw)):
            lv[jw >= thr] = base + k
        base += len(self.jw)
        if self.equiv:
            eq = np.array([self.equiv(p, q) for p, q in zip(sa, sb, strict=True)])
            lv[eq] = base
            base += 1
        if self.dl is not None:
            d = process.cpdist(sa, sb, scorer=DamerauLevenshtein.distance, workers=1)
            lv[d <= self.dl] = base
        return lv

    def tf_count(self, t: RecordTable, a: IntArr) -> np.ndarray:
        f = self._f(t)
        c = f.codes[a]
        return _counts(f, c)

    def values(self, t: RecordTable, i: int) -> str:
        v = t.cols[self.col][i]
        return str(v) if v else ""


def _transposed(f: Factor, g: Factor, ca: IntArr, cb: IntArr, a: IntArr, b: IntArr) -> IntArr:
    """Both crosses hold (a's value is b's other field *and* b's value is a's other field),
    one of them allowing a single typo.

    One cross alone is a coincidence, not a transposition: "Alexander Frank" and "Frank
    Krause" share "Frank" in crossed fields, and counting it would credit the given-name and
    the surname feature for the same single agreement.
    """
    oa, ob = g.codes[a], g.codes[b]
    out = np.zeros(len(a), dtype=bool)
    fu = np.array([*f.uniques, None], dtype=object)  # code -1 reads None
    gu = np.array([*g.uniques, None], dtype=object)
    x1, y1, x2, y2 = fu[ca], gu[ob], fu[cb], gu[oa]
    one = ((x1 == y1) | (x2 == y2)) & (oa >= 0) & (ob >= 0)  # vectorised: most pairs fail
    for k in np.flatnonzero(one).tolist():
        if (x1[k] == y1[k] and DamerauLevenshtein.distance(x2[k], y2[k]) <= 1) or (
                x2[k] == y2[k] and DamerauLevenshtein.distance(x1[k], y1[k]) <= 1):
            out[k] = True
    return out


@lru_cache(maxsize=65536)
def metaphone_key(s: str) -> str:
    """The primary Double Metaphone code of `s`."""
    return double_metaphone(s)[0]


@dataclass
class ExactCmp(Comparator):
    """Exact agreement (sex, state, postcode); optional term-frequency adjustment."""

    col: str
    name: str = ""
    tf: bool = False
    labels: tuple[str, ...] = ("different", "exact")
    fixed_bits: dict[int, float] | None = None

    def __post_init__(self) -> None:
        self.name = self.name or self.col
        self.tf_level = 1 if self.tf else None

    def levels(self, t: RecordTable, a: IntArr, b: IntArr) -> IntArr:
        return exact_levels(factor(t, self.col, lowered), a, b)

    def tf_count(self, t: RecordTable, a: IntArr) -> np.ndarray:
        f = factor(t, self.col, lowered)
        c = f.codes[a]
        return _counts(f, c)

    def values(self, t: RecordTable, i: int) -> str:
        return str(t.cols[self.col][i] or "")
