"""Beyond the paper: long horizons (target ``asymptotics``). Do the theorems' exponents appear?

The local exponent between consecutive horizons, its bootstrap interval (runs resampled within each
horizon) and the verdict are defined in docs/beyond-the-paper.md, "Long horizons". The points are
sweep points (:func:`duelbandits.points.simulate_point`), split into jobs of about equal work
(:func:`job_ranges`). pandas is imported inside the table functions only, as in :mod:`.points`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from . import algorithms, schemas, theorems
from .points import (
    PointError,
    bootstrap_exponent,
    check_bootstrap,
    check_points,
    chunk_ranges,
    fit_power_law,
    resampled_log_means,
)
from .regret import sample_std
from .simulation import name_seed

if TYPE_CHECKING:
    import pandas as pd

NEAR = 0.1
"""Default ``near`` of the verdict ``converging``: the last interval's low end at most this far above ``e``."""

VERDICTS = ("at or below", "consistent", "converging", "above", "inconclusive")
"""The verdicts, best first; a row without a theorem or without a slope has none (null)."""


@dataclass(frozen=True)
class LowerBound:
    """A published worst-case lower bound on a regret: its rate in ``T`` and where it comes from."""

    exponent: float
    rate: str
    citation: str
    needs_condorcet_winner: bool = False


SAHA_2021 = LowerBound(
    2.0 / 3.0,
    "Omega(K^(1/3) T^(2/3))",
    "Saha, Koren & Mansour, Adversarial Dueling Bandits, ICML 2021",
)
GAJANE_2015 = LowerBound(
    0.5,
    "Omega(sqrt(K T))",
    "Gajane, Urvoy & Clerot, A Relative Exponential Weighing Algorithm for Adversarial Utility-based "
    "Dueling Bandits, ICML 2015",
    needs_condorcet_winner=True,
)

LOWER_BOUNDS = {"borda": SAHA_2021, "maximin": GAJANE_2015, "exp3p": GAJANE_2015}
"""Worst-case lower bounds by regret kind (``K`` = A). Only their rates are drawn: the papers give
no constant for these bounds. They hold over all instances (adversarial sequences), not for each
fixed matrix: on a fixed stationary matrix a gap-dependent ``O(log T)`` regret is possible, so a
local exponent below them contradicts nothing. Gajane et al.'s regret is, on their linear-link
utility model, twice the Maximin (Condorcet) regret here (which equals the Exp3.P regret), so
theirs applies only where a Condorcet winner exists."""

CONDORCET_SCENARIOS = ("condorcet", "borda")
"""Generated scenarios that always have a Condorcet winner (``cyclic`` has none; ``file`` may not)."""


def lower_bound(scenario: str, kind: str) -> LowerBound | None:
    """The lower bound that applies to regret ``kind`` in ``scenario``, or None."""
    bound = LOWER_BOUNDS.get(kind)
    if bound is None or (bound.needs_condorcet_winner and scenario not in CONDORCET_SCENARIOS):
        return None
    return bound


def regrets_shown(scenario: str, algorithm: str) -> list[str]:
    """The regrets reported for ``algorithm`` in ``scenario``: the one its theorem bounds (or, with no
    theorem, the one the scenario's figures show), then the figures' regret where that differs."""
    paper = algorithms.PAPER_REGRET.get(scenario, {}).get(algorithm) or algorithms.OWN_TARGET_REGRET.get(algorithm)
    theorem = theorems.THEOREMS.get(algorithm)
    kinds = [theorem.regret] if theorem is not None else []
    return kinds + [k for k in [paper] if k is not None and k not in kinds]


# --- Planning: runs per point and their split into jobs ---------------------------------------


def point_runs(runs: int, runs_at, horizon: int) -> int:
    """Runs at ``horizon``: ``runs``, unless ``runs_at`` (``[{"horizon": T, "runs": n}, ...]``) names it."""
    for item in runs_at or ():
        if int(item["horizon"]) == int(horizon):
            return int(item["runs"])
    return int(runs)


def runs_per_job(horizon: int, steps_per_job: int) -> int:
    """Runs of horizon ``horizon`` in one job: ``max(1, steps_per_job // horizon)``."""
    return max(1, int(steps_per_job) // int(horizon))


def job_ranges(runs: int, horizon: int, steps_per_job: int) -> list[tuple[int, int]]:
    """``(first, last)`` run of each job of a point: ``runs`` runs, :func:`runs_per_job` per job."""
    return chunk_ranges(int(runs), runs_per_job(horizon, steps_per_job))


# --- Local exponents -------------------------------------------------------------------------


def local_slopes(horizons, means) -> np.ndarray:
    """Slope of ``log mean`` on ``log T`` between consecutive horizons (``len - 1`` values; NaN where a
    mean is not positive). ``horizons`` must increase."""
    x = np.log(np.asarray(horizons, dtype=float))
    means = np.asarray(means, dtype=float)
    # mutmut equivalent: errstate dropped or None: the log sees only positive means, and NaN < 0 does not warn
    with np.errstate(divide="ignore", invalid="ignore"):  # pragma: no mutate
        # mutmut equivalent: inner `>= 0` or 2.0 for 1.0: the outer where puts NaN there anyway
        y = np.where(means > 0, np.log(np.where(means > 0, means, 1.0)), np.nan)  # pragma: no mutate
    return np.diff(y) / np.diff(x)


def bootstrap_local_slopes(
    horizons, finals, resamples: int = 1000, confidence: float = 0.95, seed=0
) -> tuple[np.ndarray, np.ndarray]:
    """Percentile bootstrap interval of every local slope: ``(low, high)``, ``len(horizons) - 1`` each.

    ``finals[h]`` holds the final regrets R_T of the runs at ``horizons[h]``.
    Each resample draws the runs of every horizon with replacement, within that
    horizon, and recomputes all local slopes from the resampled means; a
    slope's interval is the ``(1 -+ confidence) / 2`` quantiles of its
    finite resampled values (NaN if none is finite). ``seed`` is anything
    ``numpy.random.default_rng`` accepts.
    """
    check_bootstrap(resamples, confidence)
    x = np.log(np.asarray(horizons, dtype=float))
    if np.any(np.diff(x) <= 0):
        raise PointError(f"horizons must increase, got {list(horizons)}")
    logs = resampled_log_means(finals, resamples, seed)
    # mutmut equivalent: np.diff's axis=1 dropped: its default is the last axis, axis 1
    slopes = np.diff(logs, axis=1) / np.diff(x)  # pragma: no mutate
    low, high = np.full(x.size - 1, np.nan), np.full(x.size - 1, np.nan)
    for k in range(x.size - 1):
        finite = slopes[np.isfinite(slopes[:, k]), k]
        if finite.size:
            low[k], high[k] = np.quantile(finite, [(1 - confidence) / 2, (1 + confidence) / 2])
    return low, high


def verdict(slopes, lows, highs, exponent, near: float = NEAR) -> str | None:
    """The verdict (docs/beyond-the-paper.md, "Long horizons") from the local slopes (in horizon order), their interval
    bounds and the theorem's exponent; None without an exponent or without a last slope."""
    if exponent is None or not np.isfinite(exponent) or len(slopes) == 0:
        return None
    last, low, high = float(slopes[-1]), float(lows[-1]), float(highs[-1])
    if not (np.isfinite(last) and np.isfinite(low) and np.isfinite(high)):
        return None
    if high - low > 2 * near:
        return "inconclusive"
    if last <= exponent:
        return "at or below"
    if low <= exponent:
        return "consistent"
    # mutmut equivalent: float('NAN') for float('nan'): Python reads either case
    previous = float(slopes[-2]) if len(slopes) > 1 else float("nan")  # pragma: no mutate
    if np.isfinite(previous) and last < previous and low - exponent <= near:
        return "converging"
    return "above"


def _bound(theorem, actions: int, horizon: int, c_alpha: float) -> float:
    """The theorem's bound on E[R_T] tuned to ``horizon``, NaN where its horizon requirement fails."""
    if theorem is None or not theorem.holds(int(actions), int(horizon), c_alpha):
        return float("nan")  # pragma: no mutate -- float('NAN') for float('nan'): Python reads either case
    return float(theorem.bound(int(actions), float(horizon), c_alpha=c_alpha))


def long_horizon_tables(
    points: pd.DataFrame,
    resamples: int = 1000,
    confidence: float = 0.95,
    base_seed: int = 0,
    c_alpha: float = 1.0,
    near: float = NEAR,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``(exponents, local)`` of every (scenario, algorithm, regret, A) of the sweep ``points``.

    ``local``: one row per horizon, with R_T's mean, std and runs, the
    theorem's bound tuned to that T and R_T / bound, and the local slope from
    the previous horizon with its bootstrap interval (null at the first).
    ``exponents``: one row per (scenario, algorithm, regret, A), with the local
    slopes of the last two intervals, the global fit
    (:func:`duelbandits.points.fit_power_law`, interval from
    :func:`duelbandits.points.bootstrap_exponent`), R_T / bound at the largest
    T and the verdict. Streams: the global fit's is the sweeps' own,
    ``name_seed(base_seed, scenario, algorithm, regret, str(A))`` (the same
    horizons give the same interval as ``sweep-horizon``); the local slopes'
    adds ``"local"``.
    """
    import pandas as pd

    points = check_points(points)
    finals = points[points["t"] == points["horizon"]]
    exponent_rows, local_rows = [], []
    for (scenario, algorithm, kind, actions), part in finals.groupby(
        ["scenario", "algorithm", "regret", "actions"],
        sort=True,  # pragma: no mutate -- groupby's sort=True dropped: True is its default
    ):
        # mutmut equivalent: groupby sort None/False/dropped: check_points sorts the rows by horizon already
        by_T = [(int(T), grp["cumulative_regret"].to_numpy()) for T, grp in part.groupby("horizon", sort=True)]  # noqa: E501  # pragma: no mutate
        if len(by_T) < 2:
            raise PointError(
                f"{scenario}/{algorithm} A={actions}: local exponents need at least two horizons, "
                f"got {[T for T, _ in by_T]}"
            )
        horizons = np.array([T for T, _ in by_T])
        values = [v for _, v in by_T]
        means = np.array([v.mean() for v in values])
        slopes = local_slopes(horizons, means)
        lows, highs = bootstrap_local_slopes(
            horizons,
            values,
            resamples,
            confidence,
            name_seed(base_seed, scenario, algorithm, kind, str(actions), "local"),
        )
        rho, log_c = fit_power_law(horizons, means)
        rho_low, rho_high = bootstrap_exponent(
            horizons, values, resamples, confidence, name_seed(base_seed, scenario, algorithm, kind, str(actions))
        )
        theorem = theorems.theorem_for(algorithm, kind)
        exponent = theorem.exponent if theorem else np.nan
        bounds = np.array([_bound(theorem, actions, T, c_alpha) for T in horizons])
        common = {
            "scenario": scenario,
            "algorithm": algorithm,
            "regret": kind,
            "paper": algorithms.PAPER_REGRET.get(scenario, {}).get(algorithm) == kind,
            "theorem": theorem.name if theorem else None,
            "theorem_exponent": exponent,
            "actions": actions,
        }
        for k, (T, v) in enumerate(by_T):
            local_rows.append(
                {
                    **common,
                    "horizon": T,
                    "runs": v.size,
                    "mean": means[k],
                    "std": float(sample_std(v)),
                    "bound": bounds[k],
                    "ratio": means[k] / bounds[k],
                    "from_horizon": int(horizons[k - 1]) if k else None,
                    "slope": slopes[k - 1] if k else np.nan,
                    "ci_low": lows[k - 1] if k else np.nan,
                    "ci_high": highs[k - 1] if k else np.nan,
                    "confidence": confidence,
                    "resamples": resamples,
                }
            )
        bound = lower_bound(scenario, kind)
        has_prev = len(slopes) > 1
        exponent_rows.append(
            {
                **common,
                "lower_bound_exponent": bound.exponent if bound else np.nan,
                "horizons": len(by_T),
                "runs": min(v.size for v in values),
                "first_horizon": int(horizons[0]),
                "last_horizon": int(horizons[-1]),
                "prev_from": int(horizons[-3]) if has_prev else None,
                "prev_slope": slopes[-2] if has_prev else np.nan,
                "prev_low": lows[-2] if has_prev else np.nan,
                "prev_high": highs[-2] if has_prev else np.nan,
                "last_from": int(horizons[-2]),
                "last_slope": slopes[-1],
                "last_low": lows[-1],
                "last_high": highs[-1],
                "rho": rho,
                "log_c": log_c,
                "rho_low": rho_low,
                "rho_high": rho_high,
                "last_ratio": means[-1] / bounds[-1],
                "verdict": verdict(slopes, lows, highs, exponent, near),
                "near": near,
                "confidence": confidence,
                "resamples": resamples,
            }
        )
    exponents = pd.DataFrame(exponent_rows, columns=schemas.ASYMPTOTIC_EXPONENT_SCHEMA.names)
    local = pd.DataFrame(local_rows, columns=schemas.ASYMPTOTIC_LOCAL_SCHEMA.names)
    return exponents, local
