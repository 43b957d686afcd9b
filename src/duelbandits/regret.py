"""Expected per-step regrets of docs/paper.md as pure functions of (X, I, J).

Given the selections, the expectation of ``X_t`` is ``X``: each function returns the expected regret
of each step, at most 1 (the Maximin and Exp3.P regrets can be negative: :data:`RANGES`). Also the
statistics the studies share (:func:`sample_std`, :func:`z_value`, :func:`stratified_mean`) and the checks
that a study's file holds regrets.
"""

from __future__ import annotations

import math

import numpy as np

from . import winners
from .errors import InputError


def maximin(matrix, I, J):
    """Theorem 4.1: ``(X[i*, I] + X[i*, J] - 1) / 2``, ``i*`` the Maximin winner."""
    X = np.asarray(matrix)
    star = winners.maximin_winners(X)[0]
    return (X[star, I] + X[star, J] - 1.0) / 2.0


def borda(matrix, I, J):
    """Theorems 4.2 and 4.4: ``(2 s[i*] - s[I] - s[J]) / 2``, ``s`` the row means."""
    s = winners.borda_scores(matrix)
    return (2.0 * s.max() - s[I] - s[J]) / 2.0


def exp3p(matrix, I, J):
    """Theorem 4.3 (as in its proof): ``(X[i*, J] - X[I, J] + X[i*, I] - X[J, I]) / 2``."""
    X = np.asarray(matrix)
    star = winners.maximin_winners(X)[0]
    return (X[star, J] - X[I, J] + X[star, I] - X[J, I]) / 2.0


def copeland(matrix, I, J):
    """Extra: ``(2 c[i*] - c[I] - c[J]) / 2`` with ``c`` the Copeland score over ``A - 1``."""
    X = np.asarray(matrix)
    # mutmut equivalent: X.shape[1] for X.shape[0]: a preference matrix is square
    c = winners.copeland_scores(X) / (X.shape[0] - 1)  # pragma: no mutate
    return (2.0 * c.max() - c[I] - c[J]) / 2.0


REGRETS = {"maximin": maximin, "borda": borda, "exp3p": exp3p, "copeland": copeland}
"""Regret kinds by name."""

REGRET_NAMES = {"maximin": "Maximin", "borda": "Borda", "exp3p": "Exp3.P", "copeland": "Copeland"}
"""How tables and figures name each regret kind."""

RANGES = {"maximin": (-0.5, 0.5), "borda": (0.0, 1.0), "exp3p": (-0.5, 0.5), "copeland": (0.0, 1.0)}
"""The range of each kind's per-step regret: Maximin and Exp3.P ``(X[i*, I] + X[i*, J] - 1) / 2`` with
entries in [0, 1]; Borda and Copeland half a difference of two scores in [0, 1], the best one first."""


def per_step(kind: str, matrix, I, J) -> np.ndarray:
    """Per-step expected regret of the named kind: the kind's function evaluated once per pair of
    actions (the same arithmetic, so the same bits), then looked up for each step: a chunk's 4 x 10^6
    steps cost one gather instead of the formula's several passes."""
    X = np.asarray(matrix)
    actions = np.arange(X.shape[0])  # pragma: no mutate -- X.shape[1] for X.shape[0]: a preference matrix is square
    table = np.asarray(REGRETS[kind](X, actions[:, None], actions[None, :]), dtype=float)
    return np.asarray(table[I, J])


def cumulative(kind: str, matrix, I, J) -> np.ndarray:
    """Cumulative regret ``R_t = sum_{s <= t} r_s`` of the named kind."""
    return np.cumsum(per_step(kind, matrix, I, J))


def sample_std(values):
    """Sample standard deviation over runs (axis 0, ``ddof = 1``); 0 for a single run."""
    values = np.asarray(values, dtype=float)
    if values.shape[0] < 2:
        return np.zeros(values.shape[1:]) if values.ndim > 1 else 0.0
    return values.std(axis=0, ddof=1)


def z_value(confidence: float) -> float:
    """The two-sided normal quantile of ``confidence``: an interval's half-width in standard errors."""
    from statistics import NormalDist

    return NormalDist().inv_cdf((1 + confidence) / 2)


def stratified_mean(strata) -> tuple[float, float]:
    """``(estimate, standard error)`` of a population mean from a two-phase stratified sample ``strata``,
    ``[(N_h, values_h), ...]``: ``N_h`` runs of stratum ``h`` in phase 1, ``values_h`` a simple random
    subsample of them (double sampling for stratification, Cochran 1977, 12.2; the formulas:
    docs/claims.md, "Theorem 4.1 past the paper's horizon"). A stratum with ``N_h = 0`` is skipped; one
    with ``N_h > 0`` needs 1 to ``N_h`` values (``s_h = 0`` for one)."""
    strata = [(int(N), np.asarray(v, dtype=float)) for N, v in strata if int(N) > 0]
    if not strata:
        raise InputError("no runs in any stratum")
    N = sum(N_h for N_h, _ in strata)
    for N_h, v in strata:
        if v.size == 0 or v.size > N_h:
            raise InputError(f"a stratum of {N_h} runs needs 1 to {N_h} values, got {v.size}")
    W = np.array([N_h / N for N_h, _ in strata])
    means = np.array([v.mean() for _, v in strata])
    var = np.array([v.var(ddof=1) if v.size > 1 else 0.0 for _, v in strata])
    # mutmut equivalent: dtype=None for float or dtype dropped: n only divides (true division)
    n = np.array([v.size for _, v in strata], dtype=float)  # pragma: no mutate
    # mutmut equivalent: dtype=None for float or dtype dropped: N_h only divides (true division)
    Nh = np.array([N_h for N_h, _ in strata], dtype=float)  # pragma: no mutate
    estimate = float((W * means).sum())
    phase2 = (W**2 * var / n * (1 - n / Nh)).sum()
    S2 = (W * var).sum() + (W * (means - estimate) ** 2).sum()
    # mutmut equivalent: `or True` or N >= 1: N = 1 gives S^2 = 0
    phase1 = S2 / N if N > 1 else 0.0  # pragma: no mutate
    return estimate, float(math.sqrt(phase2 + phase1))


def rows_problem(frame, levels: dict, expected: str) -> str | None:
    """``holds N rows, not EXPECTED`` unless the columns of ``levels`` (column -> its values) of ``frame``
    hold every combination of the values once, in any order; None if they do. The first check of a
    study's reader: a file holds the rows its provenance made."""
    import pandas as pd

    want = pd.MultiIndex.from_product(list(levels.values()))
    got = pd.MultiIndex.from_frame(frame[list(levels)])
    if len(got) == len(want) and got.sort_values().equals(want.sort_values()):
        return None
    return f"holds {len(frame)} rows, not {expected}"


def curve_problem(kind: str, t, R, names=None) -> str | None:
    """Why cumulative regrets ``R`` of ``kind`` at the 1-based steps ``t`` (``(runs, steps)``, the runs
    named ``names``, ``run 0, run 1, ...`` by default) are not regrets, as one clause; None if they can
    be. A value must be finite, and the mean regret per step over every interval ``(t_{k-1}, t_k]``
    (``(0, t_0]`` first) within the kind's :data:`RANGES`, up to the rounding of a sum (``1e-9`` of its
    size): so a non-negative kind never decreases nor goes below 0, and no ``R_t`` leaves ``t`` times
    its kind's range. The point, tail, bayes and claims readers check their regrets with it, so that no
    statistic turns an impossible value into a number."""
    # mutmut equivalent: dtype dropped: steps are whole numbers, their differences and products alike
    t = np.asarray(t, dtype=float)  # pragma: no mutate
    R = np.asarray(R, dtype=float).reshape(-1, t.size)
    names = [f"run {r}" for r in range(R.shape[0])] if names is None else list(names)
    if kind not in RANGES:
        return f"{kind!r} is no regret kind (one of {', '.join(RANGES)})"
    low, high = RANGES[kind]
    dt = np.diff(np.r_[0.0, t])
    slack = 1e-9 * np.maximum(1.0, np.abs(R))
    with np.errstate(invalid="ignore"):  # inf - inf in a difference: the run is refused as not finite
        dR = np.diff(np.concatenate([np.zeros((R.shape[0], 1)), R], axis=1))
        bad = ~np.isfinite(R) | (dR < low * dt - slack) | (dR > high * dt + slack)
    if not bad.any():
        return None
    run, k = np.argwhere(bad)[0]
    where = f"{names[run]}'s {kind} regret"
    if not np.isfinite(R[run, k]):
        return f"{where} is {R[run, k]} at t = {t[k]:.0f}"
    start = f"from {R[run, k - 1]:.6g} at t = {t[k - 1]:.0f} " if k else ""
    sums = f"not a sum of per-step regrets in [{low:g}, {high:g}]"
    return f"{where} goes {start}to {R[run, k]:.6g} at t = {t[k]:.0f}: {sums}"
