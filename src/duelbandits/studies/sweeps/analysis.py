"""The sweeps' tables: R_t per horizon, the regret exponents with their bootstrap (results/sweeps/exponents.*)
and the scaling in A against the theorem bounds (results/sweeps/actions.*); the points are
:mod:`duelbandits.points`."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ... import algorithms, schemas, theorems
from ...points import bootstrap_exponent, fit_power_law
from ...regret import REGRET_NAMES, sample_std
from ...simulation import name_seed
from ...tables import Page, Table, fmt, fraction, mean_std


def _is_paper(scenario: str, algorithm: str, kind: str) -> bool:
    """Whether ``kind`` is the regret the scenario's figures show for ``algorithm``."""
    return algorithms.PAPER_REGRET.get(scenario, {}).get(algorithm) == kind


def key_columns(scenario: str, algorithm: str, kind: str, actions) -> dict:
    """The first columns of an exponent table's row: its key, whether ``kind`` is the figures' regret
    (:func:`_is_paper`) and the theorem that bounds it with its exponent (None and NaN without one)."""
    theorem = theorems.theorem_for(algorithm, kind)
    key = dict(scenario=scenario, algorithm=algorithm, regret=kind, actions=actions)
    bound = dict(theorem=theorem.name if theorem else None, theorem_exponent=theorem.exponent if theorem else np.nan)
    return {**key, "paper": _is_paper(scenario, algorithm, kind), **bound}


def bound_at(theorem, actions, horizon, c_alpha: float) -> float:
    """The theorem's bound on E[R_T] tuned to ``horizon``; NaN without a theorem or where its horizon
    requirement fails."""
    if theorem is None or not theorem.holds(int(actions), int(horizon), c_alpha):
        return np.nan
    return float(theorem.bound(int(actions), float(horizon), c_alpha=c_alpha))


def fitted_groups(points: pd.DataFrame, resamples: int, confidence: float, base_seed: int):
    """Each (scenario, algorithm, regret, A) of ``points``: its :func:`key_columns`, its horizons
    (increasing), the final regrets R_T of the runs at each, and ``(rho, log_c, low, high)``, the power
    law fitted to the means with its bootstrap interval from the stream
    ``name_seed(base_seed, scenario, algorithm, regret, str(A))``."""
    finals = points[points["t"] == points["horizon"]]
    for key, part in finals.groupby(["scenario", "algorithm", "regret", "actions"]):
        by_T = [(int(T), grp["cumulative_regret"].to_numpy()) for T, grp in part.groupby("horizon")]
        horizons, values = np.array([T for T, _ in by_T]), [v for _, v in by_T]
        seed = name_seed(base_seed, *key[:3], str(key[3]))
        fit = fit_power_law(horizons, [v.mean() for v in values])
        interval = bootstrap_exponent(horizons, values, resamples, confidence, seed)
        yield key_columns(*key), horizons, values, (*fit, *interval)


def _final_stats(points: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """Mean, std and runs of R_t per ``keys``, with ``paper`` (:func:`_is_paper`)."""
    table = points.groupby(keys)["cumulative_regret"].agg(mean="mean", std=sample_std, runs="size")
    table = table.reset_index()
    table["paper"] = [_is_paper(*key) for key in zip(table["scenario"], table["algorithm"], table["regret"])]
    return table


def horizon_table(points: pd.DataFrame) -> pd.DataFrame:
    """Mean and std over runs of R_t at every recorded (scenario, algorithm, regret, A, T, t)."""
    table = _final_stats(points, ["scenario", "algorithm", "regret", "actions", "horizon", "t"])
    return table[schemas.HORIZON_SCHEMA.names]


def exponent_table(
    points: pd.DataFrame, resamples: int = 1000, confidence: float = 0.95, base_seed: int = 0
) -> pd.DataFrame:
    """Fit rho for every (scenario, algorithm, regret, A) over the horizons, with a bootstrap CI
    (:func:`fitted_groups`)."""
    rows = []
    for columns, horizons, values, (rho, log_c, low, high) in fitted_groups(points, resamples, confidence, base_seed):
        fit = dict(rho=rho, log_c=log_c, ci_low=low, ci_high=high, confidence=confidence, resamples=resamples)
        rows.append({**columns, "horizons": len(horizons), "runs": min(v.size for v in values), **fit})
    return pd.DataFrame(rows, columns=schemas.EXPONENT_SCHEMA.names)


def actions_table(points: pd.DataFrame, c_alpha: float = 1.0) -> pd.DataFrame:
    """Final regret per number of actions, with the theorem bound at T (NaN for another regret, or where
    the theorem's horizon requirement fails at (A, T)) and mean / bound."""
    finals = points[points["t"] == points["horizon"]]
    table = _final_stats(finals, ["scenario", "algorithm", "regret", "actions", "horizon"])
    bounding = [theorems.theorem_for(a, r) for a, r in zip(table["algorithm"], table["regret"])]
    table["theorem"] = [th.name if th else None for th in bounding]
    table["bound"] = [bound_at(th, A, T, c_alpha) for th, A, T in zip(bounding, table["actions"], table["horizon"])]
    table["ratio"] = table["mean"] / table["bound"]
    return table[schemas.ACTIONS_SCHEMA.names]


def regret_label(row) -> str:
    """A row's regret in a table, ``(theorem's)`` where it is not the one the figures show."""
    return REGRET_NAMES.get(row.regret, row.regret) + ("" if row.paper else " (theorem's)")


def theorem_cell(row) -> str:
    """``2/3 (Thm 4.2)``: a row's theorem exponent and theorem, ``-`` without one."""
    return f"{fraction(row.theorem_exponent)} (Thm {row.theorem})" if isinstance(row.theorem, str) else "-"


EXPONENT_HEADER = ["scenario", "algorithm", "regret", "rho", "CI", "theorem exponent"]
EXPONENT_HEADER += ["rho at or below it (CI)", "sublinear (CI below 1)"]
EXPONENT_ALIGN = "lllrrrll"


def exponent_rows(exponents: pd.DataFrame) -> list[list[str]]:
    """Rows of the figure's regret, plus the theorem's own regret where it differs."""
    shown = exponents[exponents["paper"].astype(bool) | exponents["theorem"].notna()]
    rows = []
    for r in shown.itertuples():
        fitted = np.isfinite(r.rho)
        at_or_below = "-"
        if pd.notna(r.theorem) and fitted:
            at_or_below = "yes" if r.ci_low <= r.theorem_exponent else "no"
        sublinear = ("yes" if r.ci_high < 1 else "no") if fitted else "-"
        ci = f"[{fmt(r.ci_low, 3)}, {fmt(r.ci_high, 3)}]"
        cells = [r.scenario, r.algorithm, regret_label(r), fmt(r.rho, 3), ci, theorem_cell(r)]
        rows.append([*cells, at_or_below, sublinear])
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
        cells = [r.scenario, r.algorithm, regret_label(r), str(r.actions), f"{r.horizon:,}", final]
        rows.append([*cells, fmt(r.bound), fmt(r.ratio, 4)])
    return rows


def actions_page(table: pd.DataFrame) -> Page:
    """results/sweeps/actions.md and its HTML."""
    rows = Table(ACTIONS_HEADER, actions_rows(table), ACTIONS_ALIGN, note=ACTIONS_NOTE)
    return Page("Scaling in the number of actions A", [rows])
