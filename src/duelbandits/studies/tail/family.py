"""Where Theorem 4.1's bound breaks first: TS-Maximin on a small family of trap matrices (target
``maximin-tail``, its family table; docs/claims.md)."""

from __future__ import annotations

import math

import numpy as np

from ... import regret, schemas
from ...errors import InputError
from ...points import fit_power_law, thin_grid
from ...simulation import name_seed, simulate
from ...tables import markdown
from ...winners import trap
from .analysis import ALGORITHM, TailError, against_bound


def family_matrix(actions: int, gap: float, others_gap: float, strength: float) -> np.ndarray:
    """The family searched for Theorem 4.1's first break: ``X[0, 1] = 1/2 + gap``, ``X[0, j] = 1/2 +
    others_gap`` and ``X[1, j] = strength`` for ``j >= 2``, other pairs 1/2; action 1 is the Borda winner
    (the trap) when ``(A - 2)(strength - 1/2 - others_gap) > 2 gap``."""
    if actions < 3:
        raise TailError(f"the family needs A >= 3, got {actions}")
    if not (0 < gap < 0.5 and 0 < others_gap < 0.5 and 0.5 < strength < 1):
        raise TailError(f"need 0 < gap, others_gap < 1/2 and 1/2 < strength < 1, got {gap}, {others_gap}, {strength}")
    X = np.full((actions, actions), 0.5)
    X[0, 2:], X[2:, 0] = 0.5 + others_gap, 0.5 - others_gap
    X[0, 1], X[1, 0] = 0.5 + gap, 0.5 - gap
    X[1, 2:], X[2:, 1] = strength, 1 - strength
    return X


def family_search(
    actions,
    gaps,
    others_gap: float,
    strength: float,
    runs: int,
    horizon: int,
    base_seed: int,
    points: int,
    confidence: float,
    resamples: int = 1000,
    progress=None,
):
    """TS-Maximin on every member of the family (the seeds: docs/claims.md): mean Maximin ``R_t`` on
    ``thin_grid(horizon, points)`` with its two-sided ``confidence`` normal interval against Theorem 4.1's
    bound, the member's :func:`crossing` and :func:`growth_exponent` (``resamples`` bootstrap resamples);
    a member without a trap gets one row, verdict ``no trap``."""
    import pandas as pd

    from ...theorems import ts_maximin

    z = regret.z_value(confidence)
    grid = thin_grid(horizon, points)
    rows = []
    members = [(int(A), float(g)) for A in actions for g in gaps]
    for n, (A, g) in enumerate(members):
        X = family_matrix(A, g, others_gap, strength)
        member = (A, g, others_gap, strength)
        try:
            trap(X)
        except InputError:  # no trap
            rows.append((*member, 0, 0, *[math.nan] * 6, "no trap", *[math.nan] * 6))
            continue
        R = np.empty((runs, grid.size))
        for r in range(runs):
            seed = name_seed(base_seed, "maximin-tail", "family", A, int(round(1000 * g)), r)
            res = simulate(X, ALGORITHM, horizon, seed, stride=horizon)
            R[r] = np.cumsum(regret.per_step("maximin", X, res.I, res.J))[grid - 1]
        mean, se = R.mean(axis=0), R.std(axis=0, ddof=1) / math.sqrt(runs)
        bound = ts_maximin(A, grid)
        low, high = mean - z * se, mean + z * se
        cross = crossing(grid, mean / bound, low / bound, high / bound)
        boot = name_seed(base_seed, "maximin-tail", "family", "bootstrap", A, int(round(1000 * g)))
        slope = growth_exponent(grid, R, cross[0], resamples, confidence, boot)
        verdicts = against_bound(low, high, bound)
        for k, t in enumerate(grid):
            row = (int(t), runs, mean[k], se[k], low[k], high[k], bound[k], mean[k] / bound[k], str(verdicts[k]))
            rows.append((*member, *row, *cross, *slope))
        if progress is not None:
            progress(n + 1, len(members))
    return pd.DataFrame(rows, columns=schemas.TAIL_FAMILY_SCHEMA.names)


def first_break(family) -> tuple | None:
    """``(A, gap, t, row)`` of the member whose interval first lies above the bound (smallest ``t``; ties: smallest
    A, then gap), or None."""
    over = family[family["verdict"] == "exceeded"].sort_values(["t", "actions", "gap"])
    if over.empty:
        return None
    row = over.iloc[0]
    return int(row["actions"]), float(row["gap"]), int(row["t"]), row


def _first_reach(t, ratio) -> float:
    """The first ``t`` at which ``ratio`` reaches 1, linear in ``log t`` between the grid steps around
    it (the first step itself if ``ratio`` starts at or above 1); NaN if it never does."""
    # mutmut equivalent: dtype=None or dtype dropped: math.log and float() take a step at its double value
    t = np.asarray(t, dtype=float)  # pragma: no mutate
    ratio = np.asarray(ratio, dtype=float)
    above = np.flatnonzero(ratio >= 1)
    if above.size == 0:
        return math.nan
    k = int(above[0])
    if k == 0:
        return float(t[0])
    x0, x1 = math.log(t[k - 1]), math.log(t[k])
    r0, r1 = ratio[k - 1], ratio[k]
    return float(math.exp(x0 + (1 - r0) / (r1 - r0) * (x1 - x0)))


def crossing(t, ratio, low, high) -> tuple[float, float, float]:
    """Where ``E[R_t]`` first reaches Theorem 4.1's bound on the grid ``t``: ``(t_cross, t_low, t_high)``,
    where the mean ``ratio`` over the bound, the upper end ``high`` and the lower end ``low`` of its
    interval first reach 1 (:func:`_first_reach`; ``t_high`` NaN with ``t_cross`` finite: crossed, not
    yet shown exceeded)."""
    return _first_reach(t, ratio), _first_reach(t, high), _first_reach(t, low)


def growth_exponent(t, R, start: float, resamples: int, confidence: float, seed) -> tuple[float, float, float]:
    """``(rho, low, high)``: the least-squares slope of ``log E[R_t]`` on ``log t`` over the grid steps
    ``t >= start`` (``R``: the runs' curves, ``(runs, len(t))``) and its percentile bootstrap interval over
    the runs (whole curves). NaN where ``start`` is NaN or fewer than two steps lie past it; the interval
    NaN when a resample's mean is not positive at some step (dropping such resamples would narrow it)."""
    t = np.asarray(t, dtype=float)
    R = np.asarray(R, dtype=float)
    # mutmut equivalent: `or True` or the zeros' dtype: t >= NaN is all False; rho NaN returns first
    past = t >= start if not math.isnan(start) else np.zeros(t.size, dtype=bool)  # pragma: no mutate
    # mutmut equivalent: `or True`: fit_power_law of fewer than two steps is NaN already
    rho, _ = fit_power_law(t[past], R[:, past].mean(axis=0)) if past.sum() >= 2 else (math.nan, math.nan)  # noqa: E501  # pragma: no mutate
    if math.isnan(rho):
        return math.nan, math.nan, math.nan
    runs = R.shape[0]
    rng = np.random.default_rng(seed)
    picks = rng.integers(runs, size=(resamples, runs)) + runs * np.arange(resamples)[:, None]
    counts = np.bincount(picks.ravel(), minlength=resamples * runs).reshape(resamples, runs)
    # mutmut equivalent: * runs: scales every mean by runs^2, a constant the centring removes
    means = counts @ R[:, past] / runs  # pragma: no mutate
    x = np.log(t[past])
    xc = x - x.mean()
    # mutmut equivalent: errstate: np.log sees only positive values, no error to hide
    with np.errstate(divide="ignore", invalid="ignore"):  # pragma: no mutate
        # mutmut equivalent: `>= 0` or 2.0 inside: the outer where puts NaN there anyway
        y = np.where(means > 0, np.log(np.where(means > 0, means, 1.0)), np.nan)  # pragma: no mutate
    # mutmut equivalent: y + a row constant: the centred xc sum to 0, so the slope stays
    rhos = ((y - y.mean(axis=1, keepdims=True)) * xc).sum(axis=1) / (xc**2).sum()  # pragma: no mutate
    if not np.all(np.isfinite(rhos)):
        return rho, math.nan, math.nan
    low, high = np.quantile(rhos, [(1 - confidence) / 2, (1 + confidence) / 2])
    return rho, float(low), float(high)


def family_extremes(family) -> tuple[tuple[int, list[float]], tuple[float, list[int]]] | None:
    """Over the members whose interval lies above the bound at some ``t`` of the grid searched:
    ``((smallest A, its gaps that fail), (largest gap, the A's that fail at it))``, or None if none fails.
    Both are "within the grid": a smaller A or a larger gap than those searched is not ruled out."""
    failing = family.loc[family["verdict"] == "exceeded", ["actions", "gap"]].drop_duplicates()
    if failing.empty:
        return None
    smallest = int(failing["actions"].min())
    largest = float(failing["gap"].max())
    gaps = sorted(float(g) for g in failing.loc[failing["actions"] == smallest, "gap"])
    actions = sorted(int(a) for a in failing.loc[failing["gap"] == largest, "actions"])
    return (smallest, gaps), (largest, actions)


def _t_or(value: float, missing: str) -> str:
    return missing if math.isnan(value) else f"{value:,.0f}"


FAMILY_HEADER = ["A", "gap", "t", "R_t / bound at t", "first t exceeded", "crossing t [interval]", "exponent past it"]


def family_markdown(table, first, extremes, confidence: float) -> str:
    """results/maximin-tail/family.md: per member of the family, R_t / bound at the horizon, the first grid t
    exceeded, where E[R_t] crosses the bound (with its interval) and its growth exponent past the crossing;
    the first break, the smallest A and the largest gap that fail (within the grid searched)."""
    level = f"{100 * confidence:g}%"
    rows = []
    horizon = int(table["t"].max())
    for (A, gap), part in table.groupby(["actions", "gap"], sort=True):
        if (part["verdict"] == "no trap").all():
            rows.append([str(A), f"{gap:g}", "-", "-", "no trap (the Borda winner is the Condorcet winner)", "-", "-"])
            continue
        last = part.sort_values("t").iloc[-1]
        over = part[part["verdict"] == "exceeded"].sort_values("t")
        ends = f"[{_t_or(last['crossing_low'], '-')}, {_t_or(last['crossing_high'], f'> {horizon:,}')}]"
        cross = f"not within t <= {horizon:,}" if math.isnan(last["crossing"]) else f"{last['crossing']:,.0f} {ends}"
        if math.isnan(last["exponent"]):
            slope = "-" if math.isnan(last["crossing"]) else "fewer than 2 grid steps past the crossing"
        else:
            slope = f"{last['exponent']:.2f} [{last['exponent_low']:.2f}, {last['exponent_high']:.2f}]"
        ratio = f"{last['ratio']:.3f} [{last['low'] / last['bound']:.3f}, {last['high'] / last['bound']:.3f}]"
        exceeded = f"{int(over['t'].iloc[0]):,}" if len(over) else "not exceeded"
        rows.append([str(A), f"{gap:g}", f"{int(last['t']):,}", ratio, exceeded, cross, slope])
    if first is None:
        verdict = f"No member's interval lies above Theorem 4.1's bound up to t = {horizon:,}."
    else:
        A, gap, t, row = first
        verdict = (
            f"Theorem 4.1's bound breaks first on A = {A}, gap = {gap:g}: at t = {t:,}, E[R_t] = {row['mean']:,.0f} "
            f"[{row['low']:,.0f}, {row['high']:,.0f}] ({level}) against the bound {row['bound']:,.0f}."
        )
    searched = (
        f"A in {{{', '.join(str(a) for a in sorted(table['actions'].unique()))}}}, "
        f"gap in {{{', '.join(f'{g:g}' for g in sorted(table['gap'].unique()))}}}"
    )
    if extremes is None:
        reach = f"Within the grid searched ({searched}), no member fails."
    else:
        (small, gaps), (large, actions) = extremes
        reach = (
            f"Within the grid searched ({searched}): the smallest A that fails is {small} "
            f"(gap {', '.join(f'{g:g}' for g in gaps)}), the largest gap that fails is {large:g} "
            f"(A = {', '.join(map(str, actions))})."
        )
    one = table[table["verdict"] != "no trap"]
    others_gap, strength = float(table["others_gap"].iloc[0]), float(table["strength"].iloc[0])
    runs = int(one["runs"].iloc[0]) if len(one) else 0
    return "\n".join(
        [
            "# Where Theorem 4.1's bound breaks first\n",
            "Family (duelbandits.studies.tail.family.family_matrix): action 0 the Condorcet winner, X[0, 1] = 1/2 + "
            f"gap, X[0, j] = {0.5 + others_gap:g}; action 1 beats every j >= 2 with {strength:g}; other pairs 1/2. "
            f"TS-Maximin, {runs} runs per member; two-sided {level} normal intervals. A member fails when its "
            "interval lies above the bound at some t of the grid. The crossing and the exponent past it: "
            'docs/claims.md, "Where the bound breaks first".\n',
            f"**{verdict}**\n",
            f"**{reach}**\n",
            markdown(FAMILY_HEADER, rows, "rrrrlll"),
        ]
    )
