"""Beyond the paper: horizon and action-count sweeps, regret exponents and their bootstrap
(docs/beyond-the-paper.md, "The sweeps"; the points are :mod:`duelbandits.points`).

The Parquet schemas of the sweep tables live here, beside the code that writes them. pandas is
imported inside the table functions only, so the CLI (one process per job) does not pay for it
when it only simulates.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from . import algorithms, schemas, theorems
from .points import bootstrap_exponent, check_points, fit_power_law
from .regret import sample_std
from .simulation import name_seed

if TYPE_CHECKING:
    import pandas as pd


def horizon_table(points: pd.DataFrame) -> pd.DataFrame:
    """Mean and std over runs of R_t at every recorded (scenario, algorithm, regret, A, T, t)."""

    points = check_points(points)
    keys = ["scenario", "algorithm", "regret", "actions", "horizon", "t"]
    table = (
        points.groupby(keys, sort=True)["cumulative_regret"].agg(mean="mean", std=sample_std, runs="size").reset_index()
    )
    table["paper"] = [
        algorithms.PAPER_REGRET.get(s, {}).get(a) == r
        for s, a, r in zip(table["scenario"], table["algorithm"], table["regret"])
    ]
    return table[schemas.HORIZON_SCHEMA.names]


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
                "paper": algorithms.PAPER_REGRET.get(scenario, {}).get(algorithm) == kind,
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
    return pd.DataFrame(rows, columns=schemas.EXPONENT_SCHEMA.names)


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
        algorithms.PAPER_REGRET.get(s, {}).get(a) == r
        for s, a, r in zip(table["scenario"], table["algorithm"], table["regret"])
    ]
    table["bound"] = [
        float(th.bound(int(A), float(T), c_alpha=c_alpha)) if th and th.holds(int(A), int(T), c_alpha) else np.nan
        for th, A, T in zip(bounding, table["actions"], table["horizon"])
    ]
    table["ratio"] = table["mean"] / table["bound"]
    return table[schemas.ACTIONS_SCHEMA.names]
