"""Fellegi–Sunter scoring trained on the data itself, as Splink and recordlinkage do.

For each feature and level: m = P(level | same person), u = P(level | different people).
u comes from random record pairs (nearly all of which are different people); m and the
prior λ (share of all record pairs that match) come from EM over the candidate pairs, with
u held fixed and every pair blocking left out counted as a non-match (see `train`).
A pair's match weight is log2(λ/(1-λ)) + Σ log2(m/u); its probability is
the logistic of that weight in base 2. Each term is the feature's *contribution*, which is
what `explain` turns into a rationale. Exact name agreement is term-frequency adjusted
(u of a common surname is its frequency, not the average), as Splink does.

EM runs over distinct comparison patterns with counts, so a million pairs with a few
hundred distinct patterns trains in milliseconds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from sleuth.resolve.comparator import Comparator
from sleuth.resolve.features import compare
from sleuth.resolve.records import RecordTable

EPS = 1e-6


@dataclass
class FSModel:
    comparators: list[Comparator]
    m: list[np.ndarray]
    u: list[np.ndarray]
    prior: float  # λ: probability that two records drawn at random are the same person
    iterations: int = 0

    def level_weights(self) -> list[np.ndarray]:
        """log2(m/u) per feature and level (bits of evidence)."""
        return [np.log2(np.maximum(m, EPS) / np.maximum(u, EPS)) for m, u in
                zip(self.m, self.u, strict=True)]

    def to_json(self) -> dict[str, object]:
        return {
            "prior": self.prior,
            "features": {
                c.name: {
                    lab: {"m": round(float(m[i]), 6), "u": round(float(u[i]), 6)}
                    for i, lab in enumerate(c.labels)
                }
                for c, m, u in zip(self.comparators, self.m, self.u, strict=True)
            },
        }


def random_pairs(t: RecordTable, n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Up to n distinct random record pairs (across sources when linking)."""
    rng = np.random.default_rng(seed)
    size = len(t)
    if t.source is not None:
        src = np.asarray(t.source)
        left, right = np.flatnonzero(src == 0), np.flatnonzero(src == 1)
        n = min(n, len(left) * len(right))
        a = left[rng.integers(0, len(left), n)]
        b = right[rng.integers(0, len(right), n)]
        return a, b
    n = min(n, size * (size - 1) // 2)
    a = rng.integers(0, size, n)
    b = rng.integers(0, size, n)
    keep = a != b
    return a[keep], b[keep]


def estimate_u(
    cmps: Sequence[Comparator], t: RecordTable, sample: int = 200_000, seed: int = 0
) -> list[np.ndarray]:
    """u per level from random pairs (Laplace-smoothed, so no level has u = 0)."""
    a, b = random_pairs(t, sample, seed)
    g = compare(cmps, t, a, b)
    out = []
    for k, c in enumerate(cmps):
        col = g[:, k]
        counts = np.bincount(col[col >= 0], minlength=len(c.labels)).astype(float)
        out.append((counts + 1.0) / (counts.sum() + len(c.labels)))
    return out


def _initial_m(n_levels: int) -> np.ndarray:
    m = np.array([0.5 ** (n_levels - 1 - i) for i in range(n_levels)], dtype=float)
    m[0] = 0.05
    return m / m.sum()


def train(
    cmps: Sequence[Comparator],
    levels: np.ndarray,
    u: list[np.ndarray],
    total_pairs: int,
    *,
    max_iter: int = 200,
    tol: float = 1e-7,
    m_init: list[np.ndarray] | None = None,
    fix_m: bool = False,
    skip: frozenset[int] = frozenset(),
    max_prior: float = 0.5,
    pseudo: float = 0.0,
) -> FSModel:
    """EM for m and λ with u fixed, over *all* record pairs.

    Pairs left out by blocking are taken as non-matches (posterior 0), so λ is the share of
    all pairs that match, not of the candidates. That is what keeps EM honest: candidates
    agree on their blocking keys far more often than u says, and EM confined to them drifts
    to "every candidate is a match" (λ → 1). Over all pairs a weak candidate stays unlikely,
    m converges to the level distribution of the confident matches, and λ·pairs estimates
    how many true matches there are. Runs over distinct patterns with counts.
    """
    prior_m = [_initial_m(len(c.labels)) for c in cmps]
    m = [x.copy() for x in m_init] if m_init else [x.copy() for x in prior_m]
    total = max(int(total_pairs), len(levels), 1)
    if len(levels) == 0:
        return FSModel(list(cmps), m, u, 1.0 / total)
    levels = levels.copy()
    for k in skip:  # the session's own blocking features: they would only say "agree"
        levels[:, k] = -1
    pats, counts = np.unique(levels, axis=0, return_counts=True)
    counts = counts.astype(float)
    logu = np.zeros(len(pats))
    for k in range(len(cmps)):
        col = pats[:, k]
        ok = col >= 0
        logu[ok] += np.log(np.maximum(u[k][col[ok]], EPS))
    fixed = _fixed_log(cmps)
    for k in range(len(cmps)):  # a fixed level weighs its bits, whatever m and u say
        col = pats[:, k]
        hit = (col >= 0) & ~np.isnan(fixed[k][np.maximum(col, 0)])
        logu[hit] = logu[hit] - fixed[k][col[hit]] - np.log(np.maximum(u[k][col[hit]], EPS))
    lam = min(0.5, len(levels) / total)
    it = 0
    for it in range(1, max_iter + 1):  # noqa: B007 - the count is reported
        z = np.full(len(pats), np.log(lam) - np.log1p(-lam)) - logu
        for k in range(len(cmps)):
            col = pats[:, k]
            ok = (col >= 0) & np.isnan(fixed[k][np.maximum(col, 0)])
            z[ok] += np.log(np.maximum(m[k][col[ok]], EPS))
        post = 1.0 / (1.0 + np.exp(-np.clip(z, -700, 700)))
        w = post * counts
        new_lam = float(np.clip(w.sum() / total, 1e-12, max_prior))
        delta = abs(np.log(new_lam) - np.log(lam))
        lam = new_lam
        for k, c in enumerate(cmps):
            if fix_m or k in skip:
                continue
            col = pats[:, k]
            ok = col >= 0
            acc = np.bincount(col[ok], weights=w[ok], minlength=len(c.labels)) + 1e-3
            acc += pseudo * prior_m[k]  # MAP with a Dirichlet prior: few matches, firm shape
            new_m = acc / acc.sum()
            delta = max(delta, float(np.abs(new_m - m[k]).max()))
            m[k] = new_m
        if delta < tol:
            break
    return FSModel(list(cmps), m, u, lam, it)


Session = dict[str, int]  # feature name -> lowest level a pair needs to enter the session


def train_sessions(
    cmps: Sequence[Comparator],
    levels: np.ndarray,
    u: list[np.ndarray],
    total_pairs: int,
    sessions: Sequence[Session],
    pseudo: float = 20.0,
) -> FSModel:
    """Splink's recipe: EM once per training block, each block's own features left out.

    Inside "born the same year" the names, places and relatives are learnt; inside "same
    given name and surname" the dates are. No single EM over all candidates can do this in
    a family tree: siblings agree on surname, parents, places and near dates far more often
    than duplicates exist, and EM would learn "same family" instead of "same person".
    m of each feature is the mean over the sessions that learnt it; λ is then estimated
    over all pairs with m held fixed. A small tree holds few duplicates, so each session's
    m is a MAP estimate under a Dirichlet prior of `pseudo` pairs shaped "agreement is
    likelier the stronger it is" (`_initial_m`): a hundred matches outweigh it, ten do not.
    """
    names = [c.name for c in cmps]
    learnt: list[list[np.ndarray]] = [[] for _ in cmps]
    for sess in sessions:
        mask = np.ones(len(levels), dtype=bool)
        for nm, lv in sess.items():
            mask &= levels[:, names.index(nm)] >= lv
        if mask.sum() < 10:
            continue
        skip = frozenset(names.index(nm) for nm in sess)
        part = train(cmps, levels[mask], u, int(mask.sum()), skip=skip, max_prior=0.99,
                     pseudo=pseudo)
        for k in range(len(cmps)):
            if k not in skip:
                learnt[k].append(part.m[k])
    m = [np.mean(x, axis=0) if x else _initial_m(len(c.labels))
         for x, c in zip(learnt, cmps, strict=True)]
    return train(cmps, levels, u, total_pairs, m_init=m, fix_m=True)


def _fixed_log(cmps: Sequence[Comparator]) -> list[np.ndarray]:
    """Per feature and level: the fixed weight in natural-log units, NaN where learnt."""
    out = []
    for c in cmps:
        arr = np.full(len(c.labels), np.nan)
        for lv, bits in (c.fixed_bits or {}).items():
            arr[lv] = bits * np.log(2.0)
        out.append(arr)
    return out


def contributions(
    model: FSModel, t: RecordTable, a: np.ndarray, b: np.ndarray, levels: np.ndarray
) -> np.ndarray:
    """Per-pair, per-feature weights in bits (0 where the feature is missing)."""
    lw = model.level_weights()
    w = np.zeros(levels.shape, dtype=float)
    for k, c in enumerate(model.comparators):
        col = levels[:, k]
        ok = col >= 0
        w[ok, k] = lw[k][col[ok]]
        if c.tf_level is not None:
            w[:, k] += _tf_adjustment(c, model.u[k], t, a, b, col)
        for lv, bits in (c.fixed_bits or {}).items():
            w[col == lv, k] = bits
    return w


def _tf_adjustment(
    c: Comparator, u: np.ndarray, t: RecordTable, a: np.ndarray, b: np.ndarray, col: np.ndarray
) -> np.ndarray:
    """Bits added to each pair's weight for how common its values are.

    On the exact level u becomes the chance that a random record holds the value instead of
    the average u (Splink's term-frequency adjustment): a shared "Müller" is weaker evidence
    than the average surname agreement, a shared "Zimmermann" stronger. The chance is
    counted on the records *other than the two compared*: under "not the same person" their
    agreement is the coincidence being judged, and when they are duplicates it says nothing
    about how common the name is (in a 16-person tree, two Patricks are one rare name, not a
    name one person in eight holds). A value no third record holds gets the floor: one
    record's share, or the average u where that is lower.

    With `tf_fuzzy`, a near-miss level (x ~ y) is corrected only *down*: a random record
    lands near x at least as often as it holds y, so u of the level for this pair is at
    least the commoner value's share, and Schmitt ~ Schmidt is a likely coincidence because
    Schmidt is common. A rare x says nothing about how crowded its neighbourhood is, so
    the level's average u stays the floor. Levels that compare other things (transposed
    fields, a maiden name, a nickname) are left alone.
    """
    out = np.zeros(len(col))
    lv = c.tf_level
    assert lv is not None
    others = max(len(t) - 2, 1)
    u_exact = max(float(u[lv]), EPS)
    exact = col == lv
    if exact.any():
        share = np.maximum(c.tf_count(t, a[exact]) - 2.0, 0.0) / others
        u_x = np.maximum(share, min(u_exact, 1.0 / max(len(t), 1)))
        out[exact] = np.log2(u_exact) - np.log2(u_x)
    for near in c.tf_fuzzy_levels:
        hit = col == near
        if hit.any():
            cnt = np.maximum(c.tf_count(t, a[hit]), c.tf_count(t, b[hit]))
            u_near = max(float(u[near]), EPS)
            out[hit] = np.log2(u_near) - np.log2(np.maximum((cnt - 1.0) / others, u_near))
    return out


def probability(model: FSModel, weights: np.ndarray) -> np.ndarray:
    """Match probability from per-feature weights and the prior."""
    lam = min(max(model.prior, 1e-12), 1 - 1e-12)
    total = np.log2(lam / (1 - lam)) + weights.sum(axis=1)
    return 1.0 / (1.0 + np.exp2(-np.clip(total, -1000, 1000)))


def fit(
    cmps: Sequence[Comparator],
    t: RecordTable,
    a: np.ndarray,
    b: np.ndarray,
    *,
    total_pairs: int,
    u_sample: int = 100_000,
    seed: int = 0,
    sessions: Sequence[Session] | None = None,
) -> tuple[FSModel, np.ndarray, np.ndarray, np.ndarray]:
    """Train on the candidate pairs; returns (model, levels, weights, probabilities).

    Without `sessions`, one EM over all pairs; with them, `train_sessions`.
    """
    levels = compare(cmps, t, a, b)
    u = estimate_u(cmps, t, u_sample, seed)
    model = (train_sessions(cmps, levels, u, total_pairs, sessions) if sessions
             else train(cmps, levels, u, total_pairs))
    w = contributions(model, t, a, b, levels)
    return model, levels, w, probability(model, w)
