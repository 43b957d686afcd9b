"""A hand-made results/summary.parquet table, shared by the table tests and the CLI table command test."""

import numpy as np
import pandas as pd


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
