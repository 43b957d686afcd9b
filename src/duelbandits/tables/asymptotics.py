"""The long-horizon table: results/asymptotics/exponents.md."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..algorithms import ALGORITHMS
from ..asymptotics import LOWER_BOUNDS, NEAR, regrets_shown
from ..regret import REGRET_NAMES
from . import fmt, fraction, has, markdown


def horizon_label(T: int) -> str:
    """``10^6``, ``3x10^6``, ``2,000``: a horizon in the table's headers (powers of ten from 10^3, and
    three times them, as powers; anything else with thousands separators)."""
    T = int(T)
    power = int(math.floor(math.log10(T))) if T > 0 else 0
    lead, rest = divmod(T, 10**power)
    if power >= 3 and rest == 0 and lead in (1, 3):
        return f"10^{power}" if lead == 1 else f"3x10^{power}"
    return f"{T:,}"


def _interval(value, low, high) -> str:
    return "-" if not np.isfinite(value) else f"{fmt(value, 3)} [{fmt(low, 3)}, {fmt(high, 3)}]"


def _shown(exponents: pd.DataFrame) -> pd.DataFrame:
    """The rows the Markdown lists: per (scenario, algorithm), :func:`regrets_shown`, in that order."""
    rows = []
    for (scenario, algorithm), part in exponents.groupby(["scenario", "algorithm"], sort=False):
        for kind in regrets_shown(scenario, algorithm):
            rows.append(part[part["regret"] == kind])
    return pd.concat(rows, ignore_index=True) if rows else exponents.iloc[:0]


def _order(frame: pd.DataFrame) -> pd.DataFrame:
    """Scenarios as they come, algorithms in the paper's legend order."""
    rank = {slug: i for i, slug in enumerate(ALGORITHMS)}
    key = frame["algorithm"].map(lambda a: rank.get(a, len(rank)))
    scen = {s: i for i, s in enumerate(dict.fromkeys(frame["scenario"]))}
    return (
        frame.assign(_s=frame["scenario"].map(scen), _a=key)
        .sort_values(["_s", "_a"], kind="stable")
        .drop(columns=["_s", "_a"])
    )


def asymptotics_markdown(exponents: pd.DataFrame, local: pd.DataFrame) -> str:
    """results/asymptotics/exponents.md: the verdict table with R_T / bound at every horizon, then the
    local exponent of every interval, then how to read them."""
    shown = _shown(_order(exponents))
    horizons = sorted(set(local["horizon"]))
    uniform = shown[["prev_from", "last_from", "last_horizon"]].drop_duplicates()
    if len(uniform) == 1:
        a, b, c = uniform.iloc[0]
        prev_head = f"local {horizon_label(a)}-{horizon_label(b)}" if not pd.isna(a) else "local (previous)"
        last_head = f"local {horizon_label(b)}-{horizon_label(c)}"
    else:
        prev_head, last_head = "local, second-last interval", "local, last interval"
    header = ["scenario", "algorithm", "regret", "theorem", prev_head, last_head, "global rho", "verdict"]
    header += [f"R_T/bound {horizon_label(T)}" for T in horizons]
    ratio = local.set_index(["scenario", "algorithm", "regret", "horizon"])["ratio"]
    rows = []
    for r in shown.itertuples():
        theorem = f"{fraction(r.theorem_exponent)} (Thm {r.theorem})" if isinstance(r.theorem, str) else "-"
        label = REGRET_NAMES.get(r.regret, r.regret) + ("" if r.paper else " (theorem's)")
        cells = [
            r.scenario,
            r.algorithm,
            label,
            theorem,
            _interval(r.prev_slope, r.prev_low, r.prev_high),
            _interval(r.last_slope, r.last_low, r.last_high),
            _interval(r.rho, r.rho_low, r.rho_high),
            r.verdict if isinstance(r.verdict, str) else "-",
        ]
        for T in horizons:
            value = ratio.get((r.scenario, r.algorithm, r.regret, T), np.nan)
            cells.append(fmt(value, 2))
        rows.append(cells)
    main = markdown(header, rows, "llll" + "r" * 3 + "l" + "r" * len(horizons))

    intervals = sorted({(int(f), int(t)) for f, t in zip(local["from_horizon"], local["horizon"]) if has(f)})
    slope = local.set_index(["scenario", "algorithm", "regret", "horizon"])
    header2 = ["scenario", "algorithm", "regret"] + [f"{horizon_label(f)}-{horizon_label(t)}" for f, t in intervals]
    rows2 = []
    for r in shown.itertuples():
        cells = [r.scenario, r.algorithm, REGRET_NAMES.get(r.regret, r.regret)]
        for f, t in intervals:
            key = (r.scenario, r.algorithm, r.regret, t)
            if key in slope.index and slope.loc[key, "from_horizon"] == f:
                row = slope.loc[key]
                cells.append(_interval(row["slope"], row["ci_low"], row["ci_high"]))
            else:
                cells.append("-")
        rows2.append(cells)
    every = markdown(header2, rows2, "lll" + "r" * len(intervals))

    conf = float(exponents["confidence"].iloc[0]) if len(exponents) else 0.95
    res = int(exponents["resamples"].iloc[0]) if len(exponents) else 0
    near = float(exponents["near"].iloc[0]) if len(exponents) else NEAR
    runs = local.groupby("horizon")["runs"].min()
    usual = int(runs.mode().max()) if len(runs) else 0
    others = ", ".join(f"{n} at {horizon_label(T)}" for T, n in runs.items() if n != usual)
    run_text = f"{usual}" + (f" ({others})" if others else "")
    actions = ", ".join(str(a) for a in sorted(set(local["actions"])))
    bounds = sorted({(b.rate, b.citation) for b in LOWER_BOUNDS.values()})
    note = (
        f"A = {actions}; runs per horizon: {run_text}; every run tuned to its own T. Local exponent: slope of "
        "log mean R_T between consecutive horizons; global rho: least-squares slope over all horizons. "
        f"Intervals: {conf:.0%} percentile bootstrap, {res:,} resamples of the runs within each horizon. "
        "Verdict against the theorem's exponent e, with s the last local exponent and [lo, hi] its interval: "
        f"'inconclusive' if hi - lo > {2 * near:g} (too wide to tell); else 'at or below' if s <= e; 'consistent' "
        "if s > e but lo <= e; 'converging' if lo > e, s is below the local exponent before it and lo - e <= "
        f"{near:g}; 'above' otherwise; '-' where no theorem bounds the regret. R_T/bound: mean R_T over the "
        "theorem's bound tuned to T ('-' where no theorem bounds that regret or T misses its requirement). "
        "Worst-case lower bounds (rates only, drawn in the figures): "
        + "; ".join(f"{rate}, {citation}" for rate, citation in bounds)
        + "."
    )
    return (
        "# Long horizons: local regret exponents\n\n"
        + main
        + "\n## Local exponent of every interval\n\n"
        + every
        + "\n"
        + note
        + "\n"
    )
