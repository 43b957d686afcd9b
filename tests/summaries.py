"""Hand-made tables shared by several test files: a results/summary.parquet table (the table tests and
the CLI table command test), point tables as the sweep-point command writes them, and lognormal final
regrets around a power law (the fits of the points, sweeps and asymptotics)."""

import numpy as np
import pandas as pd

from duelbandits import regret, schemas
from duelbandits.points import thin_grid


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
