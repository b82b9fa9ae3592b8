"""Comparison features with Splink-style levels (exact / close / far / missing).

Each comparator turns candidate pairs (two index arrays into a `RecordTable`) into one small
integer level per pair: -1 when either side is missing (the feature then weighs nothing),
0 for "disagree", higher for stronger agreement. Work is done once per *distinct value pair*
(columns are factorised, fuzzy scores computed with rapidfuzz's C `cpdist`), so a million
pairs over a few thousand distinct names costs a few thousand string comparisons.

The same comparators serve genealogy (nicknames, initials, married names, uncertain date
ranges, hierarchical places) and the flat benchmark tables (FEBRL, RLdata).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np
from rapidfuzz import process
from rapidfuzz.distance import DamerauLevenshtein, JaroWinkler

from sleuth.extract.person_names import given_name_equivalent
from sleuth.extract.places import parse_place, place_overlap
from sleuth.resolve.comparator import (
    Comparator,
    ExactCmp,
    IntArr,
    StringCmp,
    exact_levels,
    factor,
    graded_levels,
    lowered,
    metaphone_key,
    pair_map,
)
from sleuth.resolve.records import RecordTable


@lru_cache(maxsize=65536)
def _given_equiv(a: str, b: str) -> bool:
    """Nickname, clerk's abbreviation or initial: "wm" ~ "bill" ~ "w." (seed names table)."""
    return given_name_equivalent(a, b)


@dataclass
class SurnameCmp(StringCmp):
    """Surname with maiden/married names: a hit in the other's `alt_col` is its own level."""

    alt_col: str = "alt_surnames"

    def __post_init__(self) -> None:
        super().__post_init__()
        self.labels = (self.labels[0], "maiden/married name agrees", *self.labels[1:])
        self.tf_level = len(self.labels) - 1 if self.tf else None

    def levels(self, t: RecordTable, a: IntArr, b: IntArr) -> IntArr:
        out = super().levels(t, a, b)
        out = np.where(out > 0, out + 1, out).astype(np.int8)
        alts = t.cols[self.alt_col]
        sur = t.cols[self.col]
        for k in np.flatnonzero(out <= 0):
            i, j = int(a[k]), int(b[k])
            si, sj = (sur[i] or "").lower(), (sur[j] or "").lower()
            ai, aj = alts[i], alts[j]
            if (si and si in aj) or (sj and sj in ai) or (ai & aj):
                out[k] = 1
        return out


@dataclass
class YearRangeCmp(Comparator):
    """Uncertain dates as year ranges: same day, ranges overlap, ≤ 2, ≤ 5, ≤ 10 years apart."""

    prefix: str
    name: str = ""
    labels: tuple[str, ...] = (
        "more than 10 years apart", "within 10 years", "within 5 years", "within 2 years",
        "ranges overlap", "same day",
    )
    fixed_bits: dict[int, float] | None = None

    def __post_init__(self) -> None:
        self.name = self.name or f"{self.prefix}_date"
        self.tf_level = None

    def gap(self, t: RecordTable, a: IntArr, b: IntArr) -> np.ndarray:
        lo = np.asarray(t.cols[f"{self.prefix}_lo"], dtype=float)
        hi = np.asarray(t.cols[f"{self.prefix}_hi"], dtype=float)
        la, ha, lb, hb = lo[a], hi[a], lo[b], hi[b]
        la, lb = np.where(np.isnan(la), ha, la), np.where(np.isnan(lb), hb, lb)
        ha, hb = np.where(np.isnan(ha), la, ha), np.where(np.isnan(hb), lb, hb)
        return np.maximum(0.0, np.maximum(lb - ha, la - hb))

    def levels(self, t: RecordTable, a: IntArr, b: IntArr) -> IntArr:
        g = self.gap(t, a, b)
        out = np.zeros(len(a), dtype=np.int8)
        out[g <= 10] = 1
        out[g <= 5] = 2
        out[g <= 2] = 3
        out[g <= 0] = 4
        day = np.asarray(t.cols[f"{self.prefix}_day"], dtype=bool)
        lo = np.asarray(t.cols[f"{self.prefix}_lo"], dtype=float)
        out[day[a] & day[b] & (lo[a] == lo[b])] = 5
        out[np.isnan(g)] = -1
        return out

    def values(self, t: RecordTable, i: int) -> str:
        lo, hi = t.cols[f"{self.prefix}_lo"][i], t.cols[f"{self.prefix}_hi"][i]
        if math.isnan(lo) and math.isnan(hi):
            return ""
        ys = {int(x) for x in (lo, hi - 1e-6) if not math.isnan(x)}
        return "–".join(str(y) for y in sorted(ys))


@dataclass
class DateStringCmp(Comparator):
    """A YYYYMMDD date string: exact, one typo, day/month swapped, same year, ≤ 5 years."""

    col: str
    name: str = ""
    labels: tuple[str, ...] = (
        "different", "within 5 years", "same year", "day and month swapped", "one typo",
        "exact",
    )

    def __post_init__(self) -> None:
        self.name = self.name or self.col
        self.tf_level = None

    def levels(self, t: RecordTable, a: IntArr, b: IntArr) -> IntArr:
        f = factor(t, self.col, lowered)
        return graded_levels(f, a, b, 5, lambda x, y: self._grade(f.uniques, x, y))

    @staticmethod
    def _grade(u: list[Any], xs: list[int], ys: list[int]) -> np.ndarray:
        sa, sb = [u[x] for x in xs], [u[y] for y in ys]
        d = process.cpdist(sa, sb, scorer=DamerauLevenshtein.distance, workers=1)
        out = np.zeros(len(xs), dtype=np.int8)
        for k, (p, q) in enumerate(zip(sa, sb, strict=True)):
            if d[k] <= 1:
                out[k] = 4
            elif len(p) == 8 and len(q) == 8 and p[:4] == q[:4] and p[4:6] == q[6:8] \
                    and p[6:8] == q[4:6]:
                out[k] = 3
            elif p[:4] == q[:4]:
                out[k] = 2
            elif p[:4].isdigit() and q[:4].isdigit() and abs(int(p[:4]) - int(q[:4])) <= 5:
                out[k] = 1
        return out

    def values(self, t: RecordTable, i: int) -> str:
        return str(t.cols[self.col][i] or "")


@lru_cache(maxsize=65536)
def _place(text: str) -> Any:
    return parse_place(text)


def _place_grade(u: list[Any], xs: list[int], ys: list[int]) -> np.ndarray:
    out = np.zeros(len(xs), dtype=np.int8)
    for k, (x, y) in enumerate(zip(xs, ys, strict=True)):
        p, q = _place(u[x]), _place(u[y])
        ov = place_overlap(p, q)
        if ov >= 0.999:
            out[k] = 3
        elif ov > 0:
            out[k] = 2
        else:
            ta, tb = u[x].split(",")[0], u[y].split(",")[0]
            if JaroWinkler.normalized_similarity(ta, tb) >= 0.9:
                out[k] = 1
    return out


@dataclass
class PlaceCmp(Comparator):
    """Hierarchical places: same, one inside the other, first part alike, different."""

    col: str
    name: str = ""
    labels: tuple[str, ...] = ("different", "first part alike", "one place contains the other",
                               "same place")

    def __post_init__(self) -> None:
        self.name = self.name or self.col
        self.tf_level = None

    def levels(self, t: RecordTable, a: IntArr, b: IntArr) -> IntArr:
        f = factor(t, self.col, lowered)
        return graded_levels(f, a, b, 3, lambda x, y: _place_grade(f.uniques, x, y))

    def values(self, t: RecordTable, i: int) -> str:
        return str(t.cols[self.col][i] or "")


@dataclass
class RelativesCmp(Comparator):
    """Relationship consistency: how many relatives' names (of one kind) the two share.

    Parents are compared with parents, spouses with spouses, children with children: a
    person's father is not evidence about anyone's son.
    """

    col: str = "relatives"
    name: str = "relatives"
    kind: str = "relative"
    labels: tuple[str, ...] = field(default=(), init=False)

    def __post_init__(self) -> None:
        self.labels = (f"no {self.kind} in common", f"one {self.kind} in common",
                       f"two or more {self.kind}s in common")
        self.tf_level = None

    def levels(self, t: RecordTable, a: IntArr, b: IntArr) -> IntArr:
        rel = t.cols[self.col]
        out = np.full(len(a), -1, dtype=np.int8)
        for k, (i, j) in enumerate(zip(a.tolist(), b.tolist(), strict=True)):
            ri, rj = rel[i], rel[j]
            if ri and rj:
                out[k] = min(2, len(ri & rj))
        return out

    def values(self, t: RecordTable, i: int) -> str:
        return f"{len(t.cols[self.col][i])} named {self.kind}s"


def _given_agree(x: str, y: str) -> bool:
    """Given names that may denote one person: equal, nickname, alike in sound or spelling."""
    x, y = x.lower(), y.lower()
    if x == y or _given_equiv(x, y):
        return True
    # one slip of the pen, or alike in sound *and* spelling (Clarence is not Lawrence)
    return (min(len(x), len(y)) >= 4 and DamerauLevenshtein.distance(x, y) <= 1) or (
        metaphone_key(x) != "" and metaphone_key(x) == metaphone_key(y)
        and JaroWinkler.normalized_similarity(x, y) >= 0.85)


def _middle_level(x: str, y: str) -> int:
    """Second given names: -1 when either has none, 0 differ, 1 initial agrees, 2 agree."""
    px, py = x.split()[1:2], y.split()[1:2]
    if not px or not py:
        return -1
    a, b = px[0].rstrip(".").lower(), py[0].rstrip(".").lower()
    if len(a) == 1 or len(b) == 1:
        return 1 if a[0] == b[0] else 0
    return 2 if _given_agree(a, b) else 0


def _names_agree(x: str, y: str) -> bool:
    """Full given names that may be one person's: first names agree, middles do not clash."""
    fx, fy = x.split()[:1], y.split()[:1]
    return bool(fx and fy and _given_agree(fx[0], fy[0]) and _middle_level(x, y) != 0)


@dataclass
class MiddleNameCmp(Comparator):
    """Second given names ("Mary M." vs "Mary J." are two girls, perhaps twins)."""

    col: str = "given_all"
    name: str = "middle_name"
    labels: tuple[str, ...] = ("different", "initial agrees", "same or equivalent")

    def __post_init__(self) -> None:
        self.tf_level = None

    def levels(self, t: RecordTable, a: IntArr, b: IntArr) -> IntArr:
        f = factor(t, self.col, lowered)
        ca, cb = f.codes[a], f.codes[b]
        out = np.full(len(a), -1, dtype=np.int8)
        both = (ca >= 0) & (cb >= 0)
        if both.any():
            u = f.uniques
            out[both] = pair_map(ca[both], cb[both], lambda xs, ys: np.array(
                [_middle_level(u[x], u[y]) for x, y in zip(xs, ys, strict=True)],
                dtype=np.int8))
        return out

    def values(self, t: RecordTable, i: int) -> str:
        return " ".join(str(t.cols[self.col][i] or "").split()[1:2])


@dataclass
class SiblingCmp(Comparator):
    """Children of the same parents who cannot be one child.

    Shared parents are evidence of *family*, not identity: siblings share them too. When
    the two share a parent and their given names differ, they are recorded as siblings,
    strong evidence against the merge. When they share the name too but were born years
    apart, a later child was given the name of one who died (common before 1900), unless
    both records die within two years of each other, after the later birth: a name was
    not given again while its bearer lived, and two same-named siblings dying together
    decades on are far rarer than one child with a misread birth year (two living at once,
    one death unknown, stay siblings: parents did sometimes repeat a name). Both levels
    carry fixed weights; any other pair is "missing" here and weighs nothing.
    """

    name: str = "siblings"
    labels: tuple[str, ...] = (
        "same parents, different given names (siblings)",
        "same parents and given name, born years apart (a later child given a dead "
        "sibling's name)",
    )
    apart_years: float = 2.0
    against_bits: float = -30.0

    def __post_init__(self) -> None:
        self.tf_level = None
        self.fixed_bits = {0: self.against_bits, 1: self.against_bits}

    def levels(self, t: RecordTable, a: IntArr, b: IntArr) -> IntArr:
        par, given = t.cols["parent_keys"], t.cols["given_all"]
        gap = YearRangeCmp("birth").gap(t, a, b)
        died = YearRangeCmp("death").gap(t, a, b)
        out = np.full(len(a), -1, dtype=np.int8)
        for k, (i, j) in enumerate(zip(a.tolist(), b.tolist(), strict=True)):
            if not (par[i] and par[j] and par[i] & par[j]):
                continue
            gi, gj = given[i], given[j]
            if not gi or not gj:
                continue
            if not _names_agree(gi, gj):
                out[k] = 0
            elif gap[k] > self.apart_years and not (  # NaN compares False: no evidence
                    died[k] <= self.apart_years and _outlived(t, i, j)):
                out[k] = 1
        return out

    def values(self, t: RecordTable, i: int) -> str:
        return ""


def _outlived(t: RecordTable, i: int, j: int) -> bool:
    """Whether the earlier-born of two records died (at the earliest) after the other's
    latest possible birth: the name was not free to give again."""
    lo, hi, dlo = t.cols["birth_lo"], t.cols["birth_hi"], t.cols["death_lo"]
    first, later = (i, j) if lo[i] <= lo[j] else (j, i)
    died, born = dlo[first], hi[later]
    return not (math.isnan(died) or math.isnan(born)) and died > born


@dataclass
class NumeralCmp(Comparator):
    """Regnal numbers and generational suffixes: Henry III is not Henry IV, Jr. not Sr."""

    col: str = "numeral"
    name: str = "numeral"
    labels: tuple[str, ...] = ("different numeral or suffix", "same numeral or suffix")
    against_bits: float = -30.0

    def __post_init__(self) -> None:
        self.tf_level = None
        self.fixed_bits = {0: self.against_bits}

    def levels(self, t: RecordTable, a: IntArr, b: IntArr) -> IntArr:
        return exact_levels(factor(t, self.col, lowered), a, b)

    def values(self, t: RecordTable, i: int) -> str:
        return str(t.cols[self.col][i] or "")


def genealogy_comparators() -> list[Comparator]:
    """The feature set for persons from trees and cases.

    Names are term-frequency adjusted on exact agreement only (no `tf_fuzzy`): in a tree
    the commonest surname is the family's own, and a spelling variant of it (Brunty for
    Brontë) is the typical duplicate, not a coincidence with a crowded neighbourhood.
    """
    return [
        StringCmp("given", name="given_name", jw=(0.94, 0.88), equiv=_given_equiv,
                  phonetic=True, swap_col="surname", tf=True),
        SurnameCmp("surname", name="surname", jw=(0.94, 0.88), phonetic=True,
                   swap_col="given", tf=True),
        MiddleNameCmp(),
        ExactCmp("sex", fixed_bits={0: -60.0}),  # stated and different: never one person
        # a date a decade or more off is another person far more often than a clerk's slip
        YearRangeCmp("birth", fixed_bits={0: -10.0}),
        YearRangeCmp("death", fixed_bits={0: -10.0}),
        PlaceCmp("birth_place"),
        PlaceCmp("death_place"),
        NumeralCmp(),
        RelativesCmp("parent_keys", name="parents", kind="parent"),
        RelativesCmp("spouse_keys", name="spouses", kind="spouse"),
        RelativesCmp("child_keys", name="children", kind="child"),
        SiblingCmp(),
    ]


def genealogy_sessions() -> list[dict[str, int]]:
    """EM training blocks for `genealogy_comparators` (see `fellegi_sunter.train_sessions`)."""
    return [{"birth_date": 5}, {"death_date": 5}]


def compare(cmps: Sequence[Comparator], t: RecordTable, a: IntArr, b: IntArr) -> IntArr:
    """Level matrix (pairs × features), int8, -1 = missing."""
    if len(a) == 0:
        return np.zeros((0, len(cmps)), dtype=np.int8)
    return np.stack([c.levels(t, a, b) for c in cmps], axis=1)
