"""Long horizons (target ``asymptotics``; docs/beyond-the-paper.md, "Long horizons"): the local exponents
between consecutive horizons with their bootstrap intervals and verdicts, from sweep points."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ... import algorithms, schemas, theorems
from ...points import PointError, resampled_log_means
from ...regret import REGRET_NAMES, sample_std
from ...simulation import name_seed
from ...tables import Page, Table, fmt, interval
from ..sweeps.analysis import bound_at, fitted_groups, regret_label, theorem_cell

NEAR = 0.1
"""Default ``near`` of the verdict ``converging``: the last interval's low end at most this far above ``e``."""


@dataclass(frozen=True)
class LowerBound:
    """A published worst-case lower bound on a regret: its rate in ``T`` and where it comes from."""

    exponent: float
    rate: str
    citation: str
    needs_condorcet_winner: bool = False


SAHA_2021 = LowerBound(
    2.0 / 3.0, "Omega(K^(1/3) T^(2/3))", "Saha, Koren & Mansour, Adversarial Dueling Bandits, ICML 2021"
)
GAJANE_2015 = LowerBound(
    0.5,
    "Omega(sqrt(K T))",
    "Gajane, Urvoy & Clerot, A Relative Exponential Weighing Algorithm for Adversarial Utility-based "
    "Dueling Bandits, ICML 2015",
    needs_condorcet_winner=True,
)

LOWER_BOUNDS = {"borda": SAHA_2021, "maximin": GAJANE_2015, "exp3p": GAJANE_2015}
"""Worst-case lower bounds by regret kind (``K`` = A), drawn as rates only; why these, and where they
apply: docs/beyond-the-paper.md, "Long horizons"."""

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
    """Percentile bootstrap interval of every local slope, ``(low, high)``, resampled as
    :func:`duelbandits.points.bootstrap_exponent` does; from a slope's finite resampled values (NaN if none)."""
    x = np.log(np.asarray(horizons, dtype=float))
    logs = resampled_log_means(finals, resamples, seed)
    slopes = np.diff(logs) / np.diff(x)
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
    previous = float(slopes[-2]) if len(slopes) > 1 else math.nan
    if np.isfinite(previous) and last < previous and low - exponent <= near:
        return "converging"
    return "above"


def long_horizon_tables(
    points: pd.DataFrame,
    resamples: int = 1000,
    confidence: float = 0.95,
    base_seed: int = 0,
    c_alpha: float = 1.0,
    near: float = NEAR,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``(exponents, local)``: one row per (scenario, algorithm, regret, A) of the sweep ``points``, and one
    per horizon. The global fit's stream is the sweeps' own (the same interval as ``sweep-horizon``); the
    local slopes' adds ``"local"``."""
    exponent_rows, local_frames = [], []
    for common, horizons, values, (rho, log_c, rho_low, rho_high) in fitted_groups(
        points, resamples, confidence, base_seed
    ):
        scenario, algorithm, kind, actions = (common[name] for name in ("scenario", "algorithm", "regret", "actions"))
        if len(horizons) < 2:
            raise PointError(
                f"{scenario}/{algorithm} A={actions}: local exponents need at least two horizons, "
                f"got {horizons.tolist()}"
            )
        means = np.array([v.mean() for v in values])
        slopes = local_slopes(horizons, means)
        local_seed = name_seed(base_seed, scenario, algorithm, kind, str(actions), "local")
        lows, highs = bootstrap_local_slopes(horizons, values, resamples, confidence, local_seed)
        theorem = theorems.theorem_for(algorithm, kind)
        bounds = np.array([bound_at(theorem, actions, T, c_alpha) for T in horizons])
        per_horizon = {
            "horizon": horizons,
            "runs": [v.size for v in values],
            "mean": means,
            "std": [float(sample_std(v)) for v in values],
            "bound": bounds,
            "ratio": means / bounds,
        }
        ending = {  # per horizon, the local slope of the interval ending there (none at the first horizon)
            "from_horizon": [None, *map(int, horizons[:-1])],
            "slope": np.r_[np.nan, slopes],
            "ci_low": np.r_[np.nan, lows],
            "ci_high": np.r_[np.nan, highs],
        }
        bootstrap = {"confidence": confidence, "resamples": resamples}
        local_frames.append(pd.DataFrame({**common, **per_horizon, **ending, **bootstrap}))
        bound = lower_bound(scenario, kind)
        exponent_rows.append(
            {
                **common,
                "lower_bound_exponent": bound.exponent if bound else np.nan,
                "horizons": len(horizons),
                "runs": min(v.size for v in values),
                "first_horizon": int(horizons[0]),
                "last_horizon": int(horizons[-1]),
                # the last two intervals, which the verdict reads (the second-last none with two horizons)
                "prev_from": ending["from_horizon"][-2],
                "prev_slope": ending["slope"][-2],
                "prev_low": ending["ci_low"][-2],
                "prev_high": ending["ci_high"][-2],
                "last_from": ending["from_horizon"][-1],
                "last_slope": slopes[-1],
                "last_low": lows[-1],
                "last_high": highs[-1],
                "rho": rho,
                "log_c": log_c,
                "rho_low": rho_low,
                "rho_high": rho_high,
                "last_ratio": means[-1] / bounds[-1],
                "verdict": verdict(slopes, lows, highs, common["theorem_exponent"], near),
                "near": near,
                **bootstrap,
            }
        )
    exponents = pd.DataFrame(exponent_rows, columns=schemas.ASYMPTOTIC_EXPONENT_SCHEMA.names)
    local = pd.concat(local_frames, ignore_index=True) if local_frames else pd.DataFrame()
    return exponents, local.reindex(columns=schemas.ASYMPTOTIC_LOCAL_SCHEMA.names)


# --- The Markdown table ----------------------------------------------------------------------


def horizon_label(T: int) -> str:
    """``10^6``, ``3x10^6``, ``2,000``: a horizon in the table's headers (from 10^3, 10^k and 3x10^k as powers)."""
    T = int(T)
    power = int(math.floor(math.log10(T)))  # T >= 1: a horizon
    lead, rest = divmod(T, 10**power)
    if power >= 3 and rest == 0 and lead in (1, 3):
        return f"10^{power}" if lead == 1 else f"3x10^{power}"
    return f"{T:,}"


def _interval(value, low, high) -> str:
    return "-" if not np.isfinite(value) else interval(value, low, high)


def _shown(exponents: pd.DataFrame) -> pd.DataFrame:
    """The rows the Markdown lists: scenarios as they come, algorithms in the paper's legend order, and of
    each its :func:`regrets_shown`, in that order."""
    scenarios, slugs = list(dict.fromkeys(exponents["scenario"])), list(algorithms.ALGORITHMS)
    pairs = sorted(
        dict.fromkeys(zip(exponents["scenario"], exponents["algorithm"])),
        key=lambda pair: (scenarios.index(pair[0]), slugs.index(pair[1]) if pair[1] in slugs else len(slugs)),
    )
    at = exponents.set_index(["scenario", "algorithm", "regret"]).index
    rows = [exponents[at == (s, a, kind)] for s, a in pairs for kind in regrets_shown(s, a)]
    return pd.concat(rows) if rows else exponents.iloc[:0]  # read by itertuples: its index unused


def asymptotics_page(exponents: pd.DataFrame, local: pd.DataFrame) -> Page:
    """results/asymptotics/exponents.md: the verdict table with R_T / bound at every horizon, then the
    local exponent of every interval, then how to read them."""
    shown = _shown(exponents)
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
        fits = [_interval(r.prev_slope, r.prev_low, r.prev_high), _interval(r.last_slope, r.last_low, r.last_high)]
        fits += [_interval(r.rho, r.rho_low, r.rho_high), r.verdict if isinstance(r.verdict, str) else "-"]
        ratios = [fmt(ratio.get((r.scenario, r.algorithm, r.regret, T), np.nan), 2) for T in horizons]
        rows.append([r.scenario, r.algorithm, regret_label(r), theorem_cell(r), *fits, *ratios])
    main = Table(header, rows, "llll" + "r" * 3 + "l" + "r" * len(horizons))

    intervals = sorted({(int(f), int(t)) for f, t in zip(local["from_horizon"], local["horizon"]) if pd.notna(f)})
    slopes = {
        (r.scenario, r.algorithm, r.regret, int(r.from_horizon), r.horizon): _interval(r.slope, r.ci_low, r.ci_high)
        for r in local.itertuples()
        if pd.notna(r.from_horizon)
    }
    header2 = ["scenario", "algorithm", "regret"] + [f"{horizon_label(f)}-{horizon_label(t)}" for f, t in intervals]
    rows2 = [
        [r.scenario, r.algorithm, REGRET_NAMES.get(r.regret, r.regret)]
        + [slopes.get((r.scenario, r.algorithm, r.regret, f, t), "-") for f, t in intervals]
        for r in shown.itertuples()
    ]

    first = exponents.iloc[0]
    conf, res, near = first["confidence"], first["resamples"], first["near"]
    runs = local.groupby("horizon")["runs"].min()
    usual = int(runs.mode().max())
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
    heading = "Local exponent of every interval"
    every = Table(header2, rows2, "lll" + "r" * len(intervals), heading=heading, note=note)
    return Page("Long horizons: local regret exponents", [main, every])
