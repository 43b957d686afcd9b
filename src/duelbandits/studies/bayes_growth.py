"""The maximin-bayes estimate over a grid of horizons (issue 43): the prior stratified by whether the drawn
matrix has a Condorcet winner, ``E[R_t] / bound`` as a stratified mean, the local growth exponent of the
Bayesian average between grid horizons and the horizon where it would cross the bound, with intervals
from a seeded bootstrap over the matrices. Pure arithmetic; duelbandits.studies.bayes reads the files."""

from __future__ import annotations

import math

import numpy as np

from ..regret import stratified_mean, z_value


def grid(horizon: int, first: int, points: int) -> list[int]:
    """``points`` log-spaced horizons from ``first`` to ``horizon`` (both in, rounded, repeats dropped);
    ``[horizon]`` for one point."""
    if points == 1:
        return [int(horizon)]
    return sorted({int(round(t)) for t in np.geomspace(first, horizon, points)} | {int(horizon)})


def strata(values, flags) -> list:
    """The strata of :func:`duelbandits.regret.stratified_mean`: ``values`` (one per simulated matrix, or rows
    of them) split by ``flags[:M]`` (Condorcet winner or not), with the counts of each among all the ``flags``
    (one per drawn matrix, the simulated first); ValueError for a stratum drawn but not simulated."""
    values, flags = np.asarray(values, dtype=float), np.asarray(flags, dtype=bool)
    mine = flags[: len(values)]
    out = []
    for h in (True, False):
        N_h, n_h = int((flags == h).sum()), int((mine == h).sum())
        if N_h and not n_h:
            kind = "with" if h else "without"
            raise ValueError(
                f"{N_h} of {flags.size} drawn matrices ({kind} a Condorcet winner) but none of the {len(values)}"
            )
        out.append((N_h, values[mine == h]))
    return out


def stratified(values, flags) -> tuple[float, float]:
    """``(estimate, standard error)`` of the prior mean of ``values`` (one per simulated matrix) with the
    strata of :func:`strata`."""
    return stratified_mean(strata(values, flags))


def exponents(t, means) -> np.ndarray:
    """Local growth exponents ``log(m_k / m_{k-1}) / log(t_k / t_{k-1})`` of ``means`` (last axis over the
    horizons ``t``): NaN at the first horizon and where a mean is not positive."""
    t, m = np.asarray(t, dtype=float), np.asarray(means, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        logs = np.where(m > 0, np.log(np.where(m > 0, m, 1.0)), np.nan)
    out = np.full(m.shape, np.nan)
    out[..., 1:] = np.diff(logs, axis=-1) / np.diff(np.log(t))
    return out


def crossings(t, ratios, alpha, beta) -> np.ndarray:
    """Where ``ratio = E[R_t] / bound`` reaches 1, as seen from each horizon ``t_k`` (docs/claims.md): ``t_k``
    when ``ratio_k >= 1``; below 1, ``t_k ratio_k^(-1 / (alpha - beta))`` with the local exponents ``alpha``
    of the mean and ``beta`` of the bound when ``alpha > beta``, ``inf`` if not, NaN where ``alpha`` is."""
    t, r = np.asarray(t, dtype=float), np.asarray(ratios, dtype=float)
    alpha, beta = np.asarray(alpha, dtype=float), np.asarray(beta, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        ahead = t * np.exp(-np.log(np.where(r > 0, r, 1.0)) / (alpha - beta))
    below = np.where(np.isnan(alpha), np.nan, np.where(alpha > beta, ahead, np.inf))
    return np.where(r >= 1.0, t, below)


def bootstrap(values, flags, t, bounds, replicates: int, rng) -> tuple[np.ndarray, np.ndarray]:
    """``(exponents, crossings)`` of ``replicates`` resamplings, each ``(replicates, K)``, of ``values``, each
    simulated matrix's mean ``R_t`` at the ``K`` horizons ``t`` (bound ``bounds``): the Condorcet count
    redrawn binomially, the matrices within each stratum with replacement (docs/claims.md)."""
    values, flags = np.asarray(values, dtype=float), np.asarray(flags, dtype=bool)
    N = flags.size
    (N1, v1), (_, v0) = strata(values, flags)
    W1 = rng.binomial(N, N1 / N, size=replicates)[:, None] / N
    means = np.zeros((replicates, values.shape[1]))
    for W, v in ((W1, v1), (1 - W1, v0)):
        if len(v):
            means += W * v[rng.integers(0, len(v), size=(replicates, len(v)))].mean(axis=1)
    alpha = exponents(t, means)
    beta = exponents(t, bounds)
    return alpha, crossings(t, means / np.asarray(bounds, dtype=float), alpha, beta)


def matrices_to_decide(matrices: int, half: float, ratio: float) -> float:
    """The fewest matrices whose interval on ``E[R_t] / bound`` would exclude 1 if the estimate ``ratio``
    and the between-matrix spread stayed as observed with ``matrices`` (its half-width ``half`` = z se,
    shrinking as ``1 / sqrt(n)``): the smallest ``n > matrices (half / |ratio - 1|)^2``; ``inf`` at a ratio
    of exactly 1 (no number decides)."""
    gap = abs(ratio - 1.0)
    return math.inf if gap == 0 else float(math.floor(matrices * (half / gap) ** 2) + 1)


def percentile_interval(replicates, confidence: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(low, high, undefined)`` per column of ``replicates``: the two-sided percentile interval over the
    replicates where the quantity is defined (not NaN; an order statistic, so ``inf`` stays ``inf``; NaN
    where none is) and the count of those where it is not."""
    x = np.asarray(replicates, dtype=float)
    q = (1 - confidence) / 2
    ends = np.full((2, x.shape[1]), np.nan)
    for k in range(x.shape[1]):
        defined = x[~np.isnan(x[:, k]), k]
        if defined.size:
            ends[:, k] = np.quantile(defined, [q, 1 - q], method="inverted_cdf")
    return ends[0], ends[1], np.isnan(x).sum(axis=0)


def columns(ratio, R, flags, t, bounds, confidence: float, replicates: int, rng) -> dict:
    """The estimate's columns of :data:`duelbandits.schemas.BAYES_ESTIMATE_SCHEMA` (name -> one value per
    horizon ``t_k``, or one for all) from the ``(M, K)`` matrix means ``ratio`` (of ``R_t / bound``) and ``R``
    and the strata's ``flags``; the percentile intervals from ``replicates`` resamplings (none: NaN and 0)."""
    z, flags, t, bounds = z_value(confidence), np.asarray(flags, dtype=bool), np.asarray(t), np.asarray(bounds)
    ratio, R = np.asarray(ratio, dtype=float), np.asarray(R, dtype=float)
    mean, se = np.array([stratified(ratio[:, k], flags) for k in range(len(t))]).T
    mean_R = np.array([stratified(R[:, k], flags)[0] for k in range(len(t))])
    alpha = exponents(t, mean_R)
    cross = crossings(t, mean_R / bounds, alpha, exponents(t, bounds))
    ci = [np.full(len(t), np.nan), np.full(len(t), np.nan), np.zeros(len(t), int)] * 2
    if replicates:
        boot = bootstrap(R, flags, t, bounds, replicates, rng)
        ci = [*percentile_interval(boot[0], confidence), *percentile_interval(boot[1], confidence)]
    p, N = float(flags.mean()), flags.size
    share = (ratio > 1.0).mean(axis=0)
    share_half, half = z * np.sqrt(share * (1 - share) / len(ratio)), z * np.sqrt(p * (1 - p) / N)
    return {
        "ratio": mean, "se": se, "low": mean - z * se, "high": mean + z * se,
        "share_above": share, "share_low": np.maximum(0.0, share - share_half),
        "share_high": np.minimum(1.0, share + share_half),
        "condorcet_share": p, "condorcet_low": max(0.0, p - half), "condorcet_high": min(1.0, p + half),
        "strata_draws": N, "exponent": alpha, "exponent_low": ci[0], "exponent_high": ci[1],
        "exponent_undefined": ci[2].astype(np.int64), "crossing": cross, "crossing_low": ci[3],
        "crossing_high": ci[4], "crossing_undefined": ci[5].astype(np.int64),
    }  # fmt: skip
