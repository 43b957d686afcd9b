"""Theorem 4.1 on trial (target ``maximin-tail``; docs/claims.md, "Theorem 4.1 past the paper's horizon"):
phase 2 reruns the trapped runs and some free ones to the long horizon, :func:`estimates` weighs the strata.
"""

from __future__ import annotations

import math

import numpy as np
import pyarrow as pa

from ... import regret, schemas
from ...errors import InputError
from ...points import thin_grid
from ...simulation import name_seed, run_seed, simulate
from ...tables import fmt, interval, markdown
from ...winners import trap

ALGORITHM = "ts-maximin"
"""The algorithm on trial (Theorem 4.1)."""


class TailError(InputError):
    """The settings or the files of the maximin-tail target are invalid."""


def interval_slopes(t, R) -> np.ndarray:
    """Mean per-step regret over each grid interval ``(t_{k-1}, t_k]`` (``(0, t_0]`` first);
    ``R`` is ``(runs, steps)`` or ``(steps,)``. The prepended 0.0 (a double) makes both differences double
    precision, of float32 or integer inputs too."""
    return np.diff(R, prepend=0.0) / np.diff(t, prepend=0.0)


def trapped(t, R, delta: float, share: float = 0.5) -> np.ndarray:
    """Whether each run is trapped at each grid step: its last interval's mean per-step Maximin
    regret is at least ``share * delta`` (see the module's docstring)."""
    return interval_slopes(t, R) >= share * delta


def select_continued(trapped_runs, free_runs, others: int, base_seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Phase 2's runs: ``(trapped, sampled free)``, sorted; the free ones a uniform subsample of
    ``min(others, len(free_runs))`` drawn from ``SeedSequence([seed, "maximin-tail", "others"])``."""
    free_runs = np.sort(np.asarray(free_runs, dtype=np.int64))
    rng = np.random.default_rng(name_seed(base_seed, "maximin-tail", "others"))
    take = min(int(others), free_runs.size)
    # mutmut equivalent: `or True`: take = 0 draws nothing, as free_runs[:0]; replace=None is false
    sampled = np.sort(rng.choice(free_runs, size=take, replace=False)) if take else free_runs[:0]  # pragma: no mutate
    return np.sort(np.asarray(trapped_runs, dtype=np.int64)), sampled


def job_share(runs, jobs: int, job: int) -> np.ndarray:
    """The runs of phase-2 job ``job`` of ``jobs``: every ``jobs``-th of ``runs`` from ``job`` on
    (trapped runs, the slow ones, spread over all jobs)."""
    return np.asarray(runs)[job::jobs]


# --- Phase 2: one run to the long horizon, with its state -------------------------------------


def posterior_counts(actions: int, I, J, outcomes, upto: int) -> np.ndarray:
    """Algorithm 1's counts after ``upto`` steps: ``wins[i, j]`` = outcomes won by ``i`` against ``j``
    (a duel ``(I, J)`` with outcome ``o`` adds ``o`` to ``(I, J)`` and ``1 - o`` to ``(J, I)``; self-duels
    add nothing)."""
    I, J, o = (np.asarray(a[:upto], dtype=np.int64) for a in (I, J, outcomes))
    keep = I != J
    I, J, o = I[keep], J[keep], o[keep]
    wins = np.zeros((actions, actions), dtype=np.int64)
    np.add.at(wins, (I, J), o)
    np.add.at(wins, (J, I), 1 - o)
    return wins


def escape_probabilities(wins, star: int, borda: int, samples: int, rng) -> tuple[float, float, float]:
    """Under the frozen posterior ``Beta(1 + wins, 1 + wins.T)``: the probability that one draw (the
    argmax of the sampled row minima) picks ``i*``, and that a step (two draws: ``2 p(i) p(j)``) duels
    ``i*`` against ``i2``, and against ``j_min``, the action of fewest duels with ``i*`` (ties: lowest)."""
    A = wins.shape[0]  # pragma: no mutate -- wins.shape[1] for shape[0]: the counts are square
    a, b = 1.0 + wins, 1.0 + wins.T
    picks = np.empty(samples, dtype=np.int64)
    for s in range(samples):
        theta = rng.beta(a, b)
        np.fill_diagonal(theta, 0.5)
        picks[s] = int(np.argmax(theta.min(axis=1)))
    p = np.bincount(picks, minlength=A) / samples
    duels = (wins + wins.T)[star].astype(float)  # pragma: no mutate -- astype(None): numpy's default type is float64
    duels[star] = np.inf
    j_min = int(np.argmin(duels))
    return float(p[star]), float(2 * p[star] * p[borda]), float(2 * p[star] * p[j_min])


def continue_runs(
    matrix,
    scenario: str,
    runs,
    strata,
    horizon: int,
    first_horizon: int,
    base_seed: int,
    points: int,
    samples: int = 2000,
    progress=None,
) -> tuple[pa.Table, pa.Table]:
    """Phase 2: each run of ``runs`` (stratum ``strata[k]``) to ``horizon`` with the seed of ``duelbandits
    simulate --run r``; returns ``(curves, states)``: its Maximin ``R_t`` on ``thin_grid(horizon, points)``
    and its state at ``first_horizon`` and ``horizon`` (escape probabilities from ``samples`` draws seeded
    by ``SeedSequence([seed, "maximin-tail", "escape", run, step])``)."""
    X = np.asarray(matrix, dtype=float)
    A = X.shape[0]  # pragma: no mutate -- X.shape[1] for X.shape[0]: a preference matrix is square
    tr = trap(X)
    star, borda = tr.maximin_winner, tr.borda_winner
    grid = thin_grid(horizon, points)
    curves, states = [], []
    for n, (run, stratum) in enumerate(zip(runs, strata)):
        res = simulate(X, ALGORITHM, horizon, run_seed(base_seed, scenario, ALGORITHM, int(run)), stride=horizon)
        R = np.cumsum(regret.per_step("maximin", X, res.I, res.J))
        curves += [(int(run), stratum, int(t), float(R[t - 1])) for t in grid]
        for step in sorted({int(first_horizon), int(horizon)}):
            wins = posterior_counts(A, res.I, res.J, res.outcomes, step)
            seen = wins + wins.T
            never = int((seen[~np.eye(A, dtype=bool)] == 0).sum())
            row = np.delete(seen[star], star)  # i*'s duels against every other action
            rng = np.random.default_rng(name_seed(base_seed, "maximin-tail", "escape", int(run), step))
            escape = escape_probabilities(wins, star, borda, samples, rng)
            duels, won, never_star = int(seen[star, borda]), int(wins[star, borda]), int((row == 0).sum())
            states.append(
                (int(run), stratum, step, float(R[step - 1]), duels, won, never, never_star, int(row.min()), *escape)
            )
        if progress is not None:
            progress(n + 1, len(runs))
    return _table(curves, schemas.TAIL_CURVE_SCHEMA), _table(states, schemas.TAIL_STATE_SCHEMA)


def _table(rows, schema) -> pa.Table:
    """``rows`` (tuples in ``schema``'s column order) as a table of ``schema``, which gives each column its type."""
    columns = list(zip(*rows)) if rows else [[] for _ in schema.names]
    return pa.table({name: list(column) for name, column in zip(schema.names, columns)}, schema=schema)


def read_phase_two(paths, table: str):
    """Phase 2's ``tail-curves`` or ``tail-states`` files: the rows of all, None for no file; refused in one
    line when a run lacks a step, or holds a Maximin regret no run can have or a probability outside [0, 1]."""
    import pandas as pd

    from ... import storage

    frames = []
    for path in paths:
        prov = storage.read_provenance(path, {"horizon": int, "points_kept": int, "first_horizon": int}, table=table)
        frame = storage.read_frame(path, table=table).sort_values(["run", "t"])
        grid = (
            thin_grid(prov["horizon"], prov["points_kept"])
            if table == "tail-curves"
            else np.unique([prov["first_horizon"], prov["horizon"]])
        )
        runs = np.unique(frame["run"].to_numpy())
        what = f"its {runs.size} runs x {grid.size} steps to T = {prov['horizon']}"
        problem = regret.rows_problem(frame, {"run": runs, "t": grid}, what)
        names = [f"run {r}" for r in runs]
        problem = problem or regret.curve_problem("maximin", grid, frame["cumulative_regret"].to_numpy(), names)
        chances = frame.filter(like="p_").to_numpy()
        if problem is None and not ((chances >= 0) & (chances <= 1)).all():
            problem = "a probability of its states is not in [0, 1]"
        if problem:
            raise TailError(f"{path}: {problem}")
        frames.append(frame)
    if not frames:
        return None
    return pd.concat(frames, ignore_index=True)  # pragma: no mutate -- ignore_index: no caller reads the index


# --- Phase 1 -> the strata, and the estimates ----------------------------------------------------


def phase_one(points_frame, delta: float, share: float):
    """From phase 1's point rows (regret ``maximin``): ``(t, R, runs, trapped_at_T1)`` with ``R``
    of shape ``(runs, steps)``."""
    frame = points_frame[points_frame["regret"] == "maximin"].sort_values(["run", "t"])
    runs = np.unique(frame["run"].to_numpy())
    t = np.unique(frame["t"].to_numpy())
    R = frame["cumulative_regret"].to_numpy().reshape(runs.size, t.size)
    return t, R, runs, trapped(t, R, delta, share)[:, -1]


def strata_of(points_frame, delta: float, share: float, others: int, base_seed: int):
    """Phase 2's ``(runs, strata)`` (stratum ``trapped`` or ``free`` at the first horizon), in run order."""
    _, _, runs, caught = phase_one(points_frame, delta, share)
    held, sampled = select_continued(runs[caught], runs[~caught], others, base_seed)
    chosen = np.r_[held, sampled]
    labels = np.array(["trapped"] * held.size + ["free"] * sampled.size)
    order = np.argsort(chosen)  # the chosen runs are distinct
    return chosen[order], labels[order]


def estimates(points_frame, curves, actions: int, delta: float, share: float, confidence: float):
    """One row per grid step: mean Maximin ``R_t`` with its interval, the trapped fraction with its
    interval, Theorem 4.1's bound and the ratio; ``t <= T1`` from all phase-1 runs, ``t > T1``
    from the stratified phase 2."""
    import pandas as pd

    from ...theorems import ts_maximin

    z = regret.z_value(confidence)
    t1, R1, runs, caught = phase_one(points_frame, delta, share)
    N = runs.size
    N_trapped = int(caught.sum())
    rows = []
    stuck1 = trapped(t1, R1, delta, share)
    for k, t in enumerate(t1):
        mean = float(R1[:, k].mean())
        se = float(R1[:, k].std(ddof=1) / math.sqrt(N)) if N > 1 else 0.0
        frac = float(stuck1[:, k].mean())
        fse = math.sqrt(frac * (1 - frac) / N)
        rows.append(("phase 1 (all runs)", int(t), N, N_trapped, 0, mean, se, frac, fse))
    if curves is not None and len(curves):
        c = curves.sort_values(["run", "t"])
        t2 = np.unique(c["t"].to_numpy())
        # mutmut equivalent: reshape(-2, n): numpy 2 takes any negative size as the unknown one
        strat = c["stratum"].to_numpy().reshape(-1, t2.size)[:, 0]  # pragma: no mutate
        # mutmut equivalent: reshape(-2, n): numpy 2 takes any negative size as the unknown one
        R2 = c["cumulative_regret"].to_numpy().reshape(-1, t2.size)  # pragma: no mutate
        stuck2 = trapped(t2, R2, delta, share)
        held = strat == "trapped"
        free_n = int((~held).sum())
        for k, t in enumerate(t2):
            if t <= t1[-1]:
                continue
            mean, se = regret.stratified_mean([(N_trapped, R2[held, k]), (N - N_trapped, R2[~held, k])])
            frac, fse = regret.stratified_mean([(N_trapped, stuck2[held, k]), (N - N_trapped, stuck2[~held, k])])
            rows.append(("phase 2 (stratified)", int(t), N, N_trapped, free_n, mean, se, frac, fse))
    columns = ["source", "t", "runs", "trapped_runs", "free_runs_continued", "mean", "se", "trapped", "trapped_se"]
    frame = pd.DataFrame(rows, columns=columns)
    frame["low"] = frame["mean"] - z * frame["se"]
    frame["high"] = frame["mean"] + z * frame["se"]
    frame["trapped_low"] = (frame["trapped"] - z * frame["trapped_se"]).clip(lower=0.0)
    frame["trapped_high"] = (frame["trapped"] + z * frame["trapped_se"]).clip(upper=1.0)
    frame["bound"] = ts_maximin(actions, frame["t"].to_numpy())
    for col in ("mean", "low", "high"):
        frame[f"ratio_{col}" if col != "mean" else "ratio"] = frame[col] / frame["bound"]
    frame["verdict"] = against_bound(frame["low"], frame["high"], frame["bound"])
    frame["confidence"] = confidence
    return frame[[f.name for f in schemas.TAIL_ESTIMATE_SCHEMA]]


def against_bound(low, high, bound) -> np.ndarray:
    """Each interval ``[low, high]`` against Theorem 4.1's ``bound``: ``exceeded`` (it lies above), ``below``,
    else ``inconclusive`` (touching the bound included)."""
    return np.where(low > bound, "exceeded", np.where(high < bound, "below", "inconclusive"))


def _ratio(row) -> str:
    return f"R_t / bound {row['ratio']:.2f} [{row['ratio_low']:.2f}, {row['ratio_high']:.2f}]"


def verdict(frame) -> str:
    """Theorem 4.1's verdict over the estimates: the first ``t`` whose interval lies above the
    bound, else the largest ``t`` up to which every interval lies below it, else inconclusive."""
    over = frame[frame["verdict"] == "exceeded"]
    if len(over):
        row = over.sort_values("t").iloc[0]
        return f"fails: E[R_t] exceeds Theorem 4.1's bound at t = {int(row['t']):,} ({_ratio(row)})"
    frame = frame.sort_values("t")
    below = frame["verdict"].eq("below").to_numpy()
    last = frame.iloc[-1]
    if below.all():
        t = int(last["t"])
        return f"holds up to t = {t:,}: every interval below the bound (at t = {t:,}: {_ratio(last)})"
    first = frame[~below].iloc[0]
    return (
        f"inconclusive from t = {int(first['t']):,}: the interval reaches the bound "
        f"(at t = {int(last['t']):,}: {_ratio(last)})"
    )


# --- The table --------------------------------------------------------------------------------


def _estimate_rows(table) -> list[list[str]]:
    rows = []
    for row in table.sort_values("t").itertuples():
        mean = interval(row.mean, row.low, row.high, 0)
        ratio = interval(row.ratio, row.ratio_low, row.ratio_high)
        trapped = interval(row.trapped, row.trapped_low, row.trapped_high, 2, percent=True)
        rows.append([f"{int(row.t):,}", row.source, mean, fmt(row.bound, 0), ratio, trapped, row.verdict])
    return rows


def _state_rows(states) -> list[list[str]]:
    rows = []
    if states is None:
        return rows
    for (t, stratum), part in states.groupby(["t", "stratum"]):  # sorted by t, then stratum
        median = part.median(numeric_only=True)
        counts = [fmt(median[name], 0) for name in ("never_observed", "never_observed_star", "fewest_duels_star")]
        chances = [f"{median[name]:.2e}" for name in ("p_star", "p_duel_borda", "p_escape")]
        none = str(int((part["duels_star_borda"] == 0).sum()))
        cells = [f"{int(t):,}", stratum, str(len(part)), fmt(median["duels_star_borda"], 0), none, *counts, *chances]
        rows.append([*cells, fmt(median["cumulative_regret"], 0)])
    return rows


STATE_HEADER = ["t", "stratum", "runs", "duels i*-i2", "none", "never observed", "of i*'s row", "fewest i* duels"]
STATE_HEADER += ["p(i*)", "p(i*-i2)", "p(escape)", "R_t"]


def tail_markdown(table, states, trap, verdict: str, confidence: float) -> str:
    """results/maximin-tail/tail.md: the estimates (survival curve and E[R_t] / bound per step), the
    continued runs' states, the verdict."""
    level = f"{100 * confidence:g}%"
    runs, trapped_runs = (int(table[name].iloc[0]) for name in ("runs", "trapped_runs"))  # those of every row
    text = [
        "# Theorem 4.1 on trial: TS-Maximin's Maximin regret far past the paper's horizon\n",
        f"Maximin winner i* = {trap.maximin_winner}, Borda winner i2 = {trap.borda_winner}; the trap's regret "
        f"per step delta = X[i*, i2] - 1/2 = {trap.delta:.4f}. Phase 1: {runs:,} runs; "
        f"{trapped_runs} trapped at the first horizon. Intervals: two-sided {level}, normal; phase 2 "
        "stratified (duelbandits.regret.stratified_mean).\n",
        f"**Verdict: {verdict}.**\n",
        "## E[R_t] against Theorem 4.1's bound, and the trapped fraction (survival curve)\n",
        markdown(
            ["t", "from", f"E[R_t] [{level}]", "bound", "R_t / bound", "trapped", "verdict"],
            _estimate_rows(table),
            "rlrrrrl",
        ),
    ]
    rows = _state_rows(states)
    if rows:
        text += [
            "\n## The continued runs' posterior state (medians over runs)\n",
            'The columns: docs/claims.md, "Theorem 4.1 past the paper\'s horizon".\n',
            markdown(STATE_HEADER, rows, "rlrrrrrrrrrr"),
        ]
    return "\n".join(text)
