"""The sweeps' tables: R_t per horizon, the regret exponents with their bootstrap (results/sweeps/exponents.*)
and the scaling in A against the theorem bounds (results/sweeps/actions.*); the points are
:mod:`duelbandits.points`."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ... import algorithms, schemas, theorems
from ...points import bootstrap_exponent, check_points, fit_power_law
from ...regret import REGRET_NAMES, sample_std
from ...simulation import name_seed
from ...tables import Page, Table, fmt, fraction, mean_std


def _is_paper(scenario: str, algorithm: str, kind: str) -> bool:
    """Whether ``kind`` is the regret the scenario's figures show for ``algorithm``."""
    return algorithms.PAPER_REGRET.get(scenario, {}).get(algorithm) == kind


def _final_stats(points: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """Mean, std and runs of R_t per ``keys``, with ``paper`` (:func:`_is_paper`)."""
    table = points.groupby(keys)["cumulative_regret"].agg(mean="mean", std=sample_std, runs="size")
    table = table.reset_index()
    table["paper"] = [_is_paper(*key) for key in zip(table["scenario"], table["algorithm"], table["regret"])]
    return table


def horizon_table(points: pd.DataFrame) -> pd.DataFrame:
    """Mean and std over runs of R_t at every recorded (scenario, algorithm, regret, A, T, t)."""
    table = _final_stats(check_points(points), ["scenario", "algorithm", "regret", "actions", "horizon", "t"])
    return table[schemas.HORIZON_SCHEMA.names]


def exponent_table(
    points: pd.DataFrame, resamples: int = 1000, confidence: float = 0.95, base_seed: int = 0
) -> pd.DataFrame:
    """Fit rho for every (scenario, algorithm, regret, A) over the horizons, with a bootstrap CI, each
    from its own stream (``name_seed(base_seed, scenario, algorithm, regret, str(A))``)."""
    points = check_points(points)
    finals = points[points["t"] == points["horizon"]]
    rows = []
    for (scenario, algorithm, kind, actions), part in finals.groupby(["scenario", "algorithm", "regret", "actions"]):
        by_T = [(T, grp["cumulative_regret"].to_numpy()) for T, grp in part.groupby("horizon")]
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
                "paper": _is_paper(scenario, algorithm, kind),
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
    """Final regret per number of actions, with the theorem bound at T (NaN for another regret, or where
    the theorem's horizon requirement fails at (A, T)) and mean / bound."""
    points = check_points(points)
    finals = points[points["t"] == points["horizon"]]
    table = _final_stats(finals, ["scenario", "algorithm", "regret", "actions", "horizon"])
    bounding = [theorems.theorem_for(a, r) for a, r in zip(table["algorithm"], table["regret"])]
    table["theorem"] = [th.name if th else None for th in bounding]
    table["bound"] = [
        float(th.bound(int(A), float(T), c_alpha=c_alpha)) if th and th.holds(int(A), int(T), c_alpha) else np.nan
        for th, A, T in zip(bounding, table["actions"], table["horizon"])
    ]
    table["ratio"] = table["mean"] / table["bound"]
    return table[schemas.ACTIONS_SCHEMA.names]


def _regret_label(row) -> str:
    return REGRET_NAMES.get(row.regret, row.regret) + ("" if row.paper else " (theorem's)")


EXPONENT_HEADER = ["scenario", "algorithm", "regret", "rho", "CI", "theorem exponent"]
EXPONENT_HEADER += ["rho at or below it (CI)", "sublinear (CI below 1)"]
EXPONENT_ALIGN = "lllrrrll"


def exponent_rows(exponents: pd.DataFrame) -> list[list[str]]:
    """Rows of the figure's regret, plus the theorem's own regret where it differs."""
    shown = exponents[exponents["paper"].astype(bool) | exponents["theorem"].notna()]
    rows = []
    for r in shown.itertuples():
        fitted = np.isfinite(r.rho)
        if pd.notna(r.theorem):
            theorem = f"{fraction(r.theorem_exponent)} (Thm {r.theorem})"
            at_or_below = ("yes" if r.ci_low <= r.theorem_exponent else "no") if fitted else "-"
        else:
            theorem, at_or_below = "-", "-"
        sublinear = ("yes" if r.ci_high < 1 else "no") if fitted else "-"
        ci = f"[{fmt(r.ci_low, 3)}, {fmt(r.ci_high, 3)}]"
        rows.append([r.scenario, r.algorithm, _regret_label(r), fmt(r.rho, 3), ci, theorem, at_or_below, sublinear])
    return rows


def exponent_note(exponents: pd.DataFrame) -> str:
    """The fit and its bootstrap: the most horizons, the fewest runs, the level and resamples of the table."""
    hs, runs, first = exponents["horizons"].max(), exponents["runs"].min(), exponents.iloc[0]
    return (
        f"rho: least-squares slope of log mean R_T on log T over {hs} horizons, {runs} runs each, every run "
        f"tuned to its own T. CI: {first['confidence']:.0%} percentile bootstrap ({first['resamples']:,} "
        "resamples of the runs within each horizon). Rows: the regret the figures show, plus the regret the "
        "algorithm's theorem bounds where that differs."
    )


def exponent_page(exponents: pd.DataFrame) -> Page:
    """results/sweeps/exponents.md and its HTML."""
    table = Table(EXPONENT_HEADER, exponent_rows(exponents), EXPONENT_ALIGN, note=exponent_note(exponents))
    return Page("Regret exponents: E[R_T] ~ T^rho", [table])


ACTIONS_HEADER = ["scenario", "algorithm", "regret", "A", "T", "R_T mean ± std", "bound at T", "R_T / bound"]
ACTIONS_ALIGN = "lllrrrrr"
ACTIONS_NOTE = (
    "R_T / bound: mean final regret over the theorem bound at (A, T), for the regret the "
    "theorem bounds; '-' where no theorem applies or T misses its requirement."
)


def actions_rows(table: pd.DataFrame) -> list[list[str]]:
    shown = table[table["paper"].astype(bool) | table["theorem"].notna()]
    rows = []
    for r in shown.itertuples():
        final = mean_std(r.mean, r.std, runs=r.runs)
        cells = [r.scenario, r.algorithm, _regret_label(r), str(r.actions), f"{r.horizon:,}", final]
        rows.append([*cells, fmt(r.bound), fmt(r.ratio, 4)])
    return rows


def actions_page(table: pd.DataFrame) -> Page:
    """results/sweeps/actions.md and its HTML."""
    rows = Table(ACTIONS_HEADER, actions_rows(table), ACTIONS_ALIGN, note=ACTIONS_NOTE)
    return Page("Scaling in the number of actions A", [rows])
