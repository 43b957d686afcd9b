"""Hand-made tables shared by several test files: results/summary.parquet tables (the table tests and the
CLI table command test; the figures' and figures.tex's tests), point tables as the sweep-point command
writes them, and lognormal final regrets around a power law (the fits of the points, sweeps and
asymptotics)."""

import numpy as np
import pandas as pd

from duelbandits import regret, schemas
from duelbandits.algorithms import PAPER_ALGORITHMS, PAPER_REGRET
from duelbandits.points import thin_grid
from duelbandits.theorems import theorem_for


def summary_rows():
    """A three-algorithm summary of the borda scenario at T = 100 and at t = 50."""
    rows = []
    for t in (50, 100):
        rows += [
            ("borda", "ts-borda", "borda", True, t, 40.0 * t / 100, 4.0, 5, 100.0 * t / 100),
            ("borda", "ts-borda", "copeland", False, t, 7.0, 1.0, 5, np.nan),
            ("borda", "partial-monitoring", "borda", True, t, 300.0 * t / 100, 9.0, 5, 200.0),
            ("borda", "partial-monitoring", "copeland", False, t, 8.0, 2.0, 5, np.nan),
            ("borda", "iss", "borda", True, t, 30.0, 3.0, 5, np.nan),
            ("borda", "iss", "copeland", False, t, 6.0, 0.5, 5, np.nan),
        ]
    return pd.DataFrame(rows, columns=["scenario", "algorithm", "regret", "paper", "t", "mean", "std", "runs", "bound"])


def paper_summary(t, actions, runs, names=("condorcet", "borda"), drop_bound=(), other=None):
    """The paper's six algorithms on the scenarios ``names`` at the steps ``t``: the regret each figure shows
    (``paper`` true), mean (k + 1) sqrt(t) for the k-th algorithm, std 0.3 sqrt(t), and its theorem's bound
    at ``actions`` where there is one and the algorithm is not in ``drop_bound``; with ``other``, that regret
    too, off the figures and 50 times larger."""
    t, frames = np.asarray(t), []
    for name in names:
        for k, slug in enumerate(PAPER_ALGORITHMS):
            shown = PAPER_REGRET[name][slug]
            for kind in [shown, other] if other else [shown]:
                theorem = None if slug in drop_bound else theorem_for(slug, kind)
                bound = theorem.bound(actions, t.astype(float)) if theorem is not None else np.full(t.size, np.nan)
                mean = (k + 1) * np.sqrt(t) * (1.0 if kind == shown else 50.0)
                columns = {"scenario": name, "algorithm": slug, "regret": kind, "paper": kind == shown, "t": t}
                columns |= {"mean": mean, "std": 0.3 * np.sqrt(t), "runs": runs, "bound": bound}
                frames.append(pd.DataFrame(columns))
    return pd.concat(frames, ignore_index=True)


def synthetic_points(algorithms, actions, horizons, runs=5, rho=0.7, scenario="borda"):
    """A point table as the sweep writes it, with R_t = t^rho (1 + run / 100) for every regret kind."""
    rows = []
    for algorithm in algorithms:
        for A in actions:
            for T in horizons:
                grid = thin_grid(T, 5)
                for run in range(runs):
                    for kind in regret.REGRETS:
                        for t in grid:
                            rows.append((scenario, algorithm, A, T, run, kind, t, t**rho * (1 + run / 100)))
    return pd.DataFrame(rows, columns=schemas.POINT_SCHEMA.names)


def synthetic_finals(rng, horizons, runs, rho, c=2.0, sigma=0.3):
    """Final regrets R_T = c T^rho exp(sigma Z - sigma^2 / 2): mean exactly c T^rho at every T."""
    return [c * T**rho * np.exp(sigma * rng.standard_normal(runs) - sigma**2 / 2) for T in horizons]
