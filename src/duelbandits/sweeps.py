"""Beyond the paper: horizon and action-count sweeps, regret exponents and their bootstrap.

The theorems bound ``E[R_T]`` for an algorithm tuned to its horizon ``T``,
so the exponent they predict is the slope of ``log E[R_T]`` against
``log T`` *across* horizons, each run tuned to its own ``T``. Within one run
the tuned exploration rate is constant, so ``R_t`` against ``t`` inside a run
can look linear even when ``R_T`` across horizons is sublinear.

A sweep point is one (scenario, A, T, algorithm) with its runs; a point file
keeps, per run and for every regret kind, the cumulative regret on a thin
log-spaced grid of steps (always ending at ``T``), never the full trace.
The Parquet schemas of the sweep tables live here, beside the code that
writes them. pandas is imported inside the table functions only, so the CLI
(one process per job) does not pay for it when it only simulates.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa

from . import regret, storage, theorems
from .aggregate import sample_std
from .simulate import name_seed, run_seed, simulate

if TYPE_CHECKING:
    import pandas as pd


class SweepError(ValueError):
    """A sweep's settings or point files are invalid."""


def thin_grid(horizon: int, points: int) -> np.ndarray:
    """At most ``points`` log-spaced 1-based steps in ``1..horizon``, always ending at ``horizon``."""
    grid = np.geomspace(1, horizon, max(int(points), 2)).round().astype(np.int64)
    return np.unique(np.r_[grid, horizon])


def chunk_ranges(runs: int, runs_per_job: int) -> list[tuple[int, int]]:
    """``(first, last)`` run index of each job: ``runs`` runs, ``runs_per_job`` per job."""
    if runs < 1 or runs_per_job < 1:
        raise SweepError(f"runs and runs_per_job must be >= 1, got {runs} and {runs_per_job}")
    return [(first, min(first + runs_per_job, runs) - 1) for first in range(0, runs, runs_per_job)]


def simulate_point(
    matrix,
    scenario: str,
    algorithm: str,
    horizon: int,
    runs,
    base_seed: int,
    points: int = 20,
    progress=None,
    **params,
) -> pa.Table:
    """Simulate ``runs`` of one sweep point and keep only their thin regret curves.

    Run ``r`` uses ``run_seed(base_seed, scenario, algorithm, r)``, the seed of
    ``duelbandits simulate --run r`` at the same horizon, so any point's run
    can be rebuilt in full with that command. Hyper-parameters that depend on
    the horizon (TS-Borda's alpha, Exp3.P's and PM's beta, eta, gamma) are
    tuned to ``horizon`` by the algorithms themselves. ``progress``, if given,
    is called as ``progress(done, total)`` after each run (the CLI logs it).
    """
    X = np.asarray(matrix, dtype=float)
    grid = thin_grid(horizon, points)
    kinds = list(regret.REGRETS)
    runs = list(runs)
    values = np.empty((len(runs), len(kinds), grid.size))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", UserWarning)  # gamma clipping, once per run: reported once below
        for n, run in enumerate(runs):
            res = simulate(
                X, algorithm, horizon, run_seed(base_seed, scenario, algorithm, run), stride=horizon, **params
            )
            for k, kind in enumerate(kinds):
                values[n, k] = np.cumsum(regret.per_step(kind, X, res.I, res.J))[grid - 1]
            if progress is not None:
                progress(n + 1, len(runs))
    for message in dict.fromkeys(str(w.message) for w in caught):
        warnings.warn(message, UserWarning, stacklevel=2)
    shape = values.shape
    rows = values.size
    return pa.table(
        {
            "scenario": pa.array([scenario] * rows, pa.string()),
            "algorithm": pa.array([algorithm] * rows, pa.string()),
            "actions": np.full(rows, X.shape[0], np.int16),
            "horizon": np.full(rows, horizon, np.int32),
            "run": np.repeat(np.asarray(runs, np.int32), shape[1] * shape[2]),
            "regret": pa.array(np.tile(np.repeat(kinds, shape[2]), shape[0]).tolist(), pa.string()),
            "t": np.tile(grid.astype(np.int32), shape[0] * shape[1]),
            "cumulative_regret": values.ravel(),
        },
        schema=storage.POINT_SCHEMA,
    )


def check_points(points: pd.DataFrame) -> pd.DataFrame:
    """Check that every (scenario, algorithm, A, T) has the same runs at every step; return sorted rows."""

    if points.empty:
        raise SweepError("no sweep points given")
    points = points.sort_values(
        ["scenario", "algorithm", "actions", "horizon", "regret", "run", "t"], kind="stable", ignore_index=True
    )
    dup = points.duplicated(["scenario", "algorithm", "actions", "horizon", "regret", "run", "t"])
    if dup.any():
        row = points[dup].iloc[0]
        raise SweepError(
            f"run {row['run']} of {row['scenario']}/{row['algorithm']} A={row['actions']} "
            f"T={row['horizon']} appears in more than one point file"
        )
    for key, part in points.groupby(["scenario", "algorithm", "actions", "horizon"], sort=False):
        runs = np.unique(part["run"].to_numpy())
        if not np.array_equal(runs, np.arange(runs.size)):
            raise SweepError(
                f"sweep point {'/'.join(map(str, key))} holds runs {runs.tolist()}, expected 0..{runs.size - 1}"
            )
        if len(part) % runs.size or part.groupby(["regret", "run"]).size().nunique() != 1:
            raise SweepError(f"sweep point {'/'.join(map(str, key))} has runs of unequal length")
    return points


def horizon_table(points: pd.DataFrame) -> pd.DataFrame:
    """Mean and std over runs of R_t at every recorded (scenario, algorithm, regret, A, T, t)."""

    points = check_points(points)
    keys = ["scenario", "algorithm", "regret", "actions", "horizon", "t"]
    table = (
        points.groupby(keys, sort=True)["cumulative_regret"].agg(mean="mean", std=sample_std, runs="size").reset_index()
    )
    table["paper"] = [
        regret.PAPER_REGRET.get(s, {}).get(a) == r
        for s, a, r in zip(table["scenario"], table["algorithm"], table["regret"])
    ]
    return table[storage.HORIZON_SCHEMA.names]


def fit_power_law(horizons, means) -> tuple[float, float]:
    """Least squares of ``log mean`` on ``log T``: ``(rho, log_c)`` with ``mean ~ exp(log_c) T^rho``.

    NaN if fewer than two distinct horizons or any mean is not positive.
    """
    x = np.log(np.asarray(horizons, dtype=float))
    means = np.asarray(means, dtype=float)
    if np.unique(x).size < 2 or not np.all(means > 0):
        return float("nan"), float("nan")
    y = np.log(means)
    rho = float(((x - x.mean()) * (y - y.mean())).sum() / ((x - x.mean()) ** 2).sum())
    return rho, float(y.mean() - rho * x.mean())


def check_bootstrap(resamples: int, confidence: float) -> None:
    """A bootstrap needs at least one resample and a level in (0, 1)."""
    if not 0 < confidence < 1:
        raise SweepError(f"confidence must lie in (0, 1), got {confidence}")
    if resamples < 1:
        raise SweepError(f"resamples must be >= 1, got {resamples}")


def resampled_log_means(finals, resamples: int, seed) -> np.ndarray:
    """``(resamples, len(finals))`` logs of bootstrap means: resample ``h`` draws the runs of
    ``finals[h]`` with replacement (within that horizon); NaN where a mean is not positive."""
    rng = np.random.default_rng(seed)
    logs = np.empty((resamples, len(finals)))
    for h, values in enumerate(finals):
        values = np.asarray(values, dtype=float)
        means = values[rng.integers(0, values.size, size=(resamples, values.size))].mean(axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            logs[:, h] = np.where(means > 0, np.log(np.where(means > 0, means, 1.0)), np.nan)
    return logs


def bootstrap_exponent(
    horizons, finals, resamples: int = 1000, confidence: float = 0.95, seed=0
) -> tuple[float, float]:
    """Percentile bootstrap interval of the fitted exponent rho.

    ``finals[h]`` holds the final regrets R_T of the runs at ``horizons[h]``.
    Each resample draws the runs of every horizon with replacement, within
    that horizon, and refits rho on the resampled means; the interval is the
    ``(1 - confidence) / 2`` and ``(1 + confidence) / 2`` quantiles of the
    refitted rhos. ``seed`` is anything ``numpy.random.default_rng`` accepts.
    """
    check_bootstrap(resamples, confidence)
    x = np.log(np.asarray(horizons, dtype=float))
    if np.unique(x).size < 2:
        return float("nan"), float("nan")
    logs = resampled_log_means(finals, resamples, seed)
    xc = x - x.mean()
    rhos = ((logs - logs.mean(axis=1, keepdims=True)) * xc).sum(axis=1) / (xc**2).sum()
    rhos = rhos[np.isfinite(rhos)]
    if rhos.size == 0:
        return float("nan"), float("nan")
    low, high = np.quantile(rhos, [(1 - confidence) / 2, (1 + confidence) / 2])
    return float(low), float(high)


def exponent_table(
    points: pd.DataFrame, resamples: int = 1000, confidence: float = 0.95, base_seed: int = 0
) -> pd.DataFrame:
    """Fit rho for every (scenario, algorithm, regret, A) over the horizons, with a bootstrap CI.

    The bootstrap of each fit has its own stream, ``name_seed(base_seed,
    scenario, algorithm, regret, str(A))``, so a fit does not depend on which
    other fits are made.
    """
    import pandas as pd

    points = check_points(points)
    finals = points[points["t"] == points["horizon"]]
    rows = []
    for (scenario, algorithm, kind, actions), part in finals.groupby(
        ["scenario", "algorithm", "regret", "actions"], sort=True
    ):
        by_T = [(T, grp["cumulative_regret"].to_numpy()) for T, grp in part.groupby("horizon", sort=True)]
        horizons = [T for T, _ in by_T]
        rho, log_c = fit_power_law(horizons, [v.mean() for _, v in by_T])
        seed = name_seed(base_seed, scenario, algorithm, kind, str(actions))
        low, high = bootstrap_exponent(horizons, [v for _, v in by_T], resamples, confidence, seed)
        theorem = theorems.theorem_for(algorithm, kind)
        rows.append(
            {
                "scenario": scenario,
                "algorithm": algorithm,
                "regret": kind,
                "paper": regret.PAPER_REGRET.get(scenario, {}).get(algorithm) == kind,
                "theorem": theorem.name if theorem else None,
                "theorem_exponent": theorem.exponent if theorem else np.nan,
                "actions": actions,
                "horizons": len(horizons),
                "runs": min(v.size for _, v in by_T),
                "rho": rho,
                "log_c": log_c,
                "ci_low": low,
                "ci_high": high,
                "confidence": confidence,
                "resamples": resamples,
            }
        )
    return pd.DataFrame(rows, columns=storage.EXPONENT_SCHEMA.names)


def actions_table(points: pd.DataFrame, c_alpha: float = 1.0) -> pd.DataFrame:
    """Final regret per number of actions, with the theorem bound at T and mean / bound.

    The bound applies only to the regret its theorem bounds, and only where
    the theorem's horizon requirement holds at (A, T); elsewhere it is NaN.
    """

    points = check_points(points)
    finals = points[points["t"] == points["horizon"]]
    keys = ["scenario", "algorithm", "regret", "actions", "horizon"]
    table = (
        finals.groupby(keys, sort=True)["cumulative_regret"].agg(mean="mean", std=sample_std, runs="size").reset_index()
    )
    bounding = [theorems.theorem_for(a, r) for a, r in zip(table["algorithm"], table["regret"])]
    table["theorem"] = [th.name if th else None for th in bounding]
    table["paper"] = [
        regret.PAPER_REGRET.get(s, {}).get(a) == r
        for s, a, r in zip(table["scenario"], table["algorithm"], table["regret"])
    ]
    table["bound"] = [
        float(th.bound(int(A), float(T), c_alpha=c_alpha)) if th and th.holds(int(A), int(T), c_alpha) else np.nan
        for th, A, T in zip(bounding, table["actions"], table["horizon"])
    ]
    table["ratio"] = table["mean"] / table["bound"]
    return table[storage.ACTIONS_SCHEMA.names]
