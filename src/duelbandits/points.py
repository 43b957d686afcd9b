"""Points: the unit of the targets beyond the paper, one (scenario, A, T, algorithm) with its runs, kept
as the cumulative regrets on a thin log-spaced grid of steps; run ``r`` has the seed of
``duelbandits simulate --run r``, so any run can be rebuilt in full.
"""

from __future__ import annotations

import math
import warnings
from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa

from . import regret, schemas, storage
from .errors import InputError
from .simulation import run_seed, simulate

if TYPE_CHECKING:
    import pandas as pd


class PointError(InputError):
    """Point files, or the settings of a points target, are invalid."""


def thin_grid(horizon: int, points: int) -> np.ndarray:
    """At most ``points`` log-spaced 1-based steps in ``1..horizon``, always ending at ``horizon``."""
    grid = np.geomspace(1, horizon, max(int(points), 2)).round().astype(np.int64)
    return np.unique(np.r_[grid, horizon])


def simulate_point(
    matrix,
    scenario: str,
    algorithm: str,
    horizon: int,
    runs,
    base_seed: int,
    points: int = 20,
    progress=None,
    **params,
) -> pa.Table:
    """Simulate ``runs`` of one sweep point (run ``r`` seeded as ``duelbandits simulate --run r``) and
    keep only their thin regret curves; ``progress(done, total)``, if given, is called after each run."""
    X = np.asarray(matrix, dtype=float)
    grid = thin_grid(horizon, points)
    kinds = list(regret.REGRETS)
    runs = list(runs)
    values = np.empty((len(runs), len(kinds), grid.size))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", UserWarning)  # gamma clipping, once per run: reported once below
        for n, run in enumerate(runs):
            res = simulate(
                X, algorithm, horizon, run_seed(base_seed, scenario, algorithm, run), stride=horizon, **params
            )
            for k, kind in enumerate(kinds):
                values[n, k] = np.cumsum(regret.per_step(kind, X, res.I, res.J))[grid - 1]
            if progress is not None:
                progress(n + 1, len(runs))
    for message in dict.fromkeys(str(w.message) for w in caught):
        # mutmut equivalent: category dropped: UserWarning is the default; stacklevel: mutmut's trampolines add frames
        warnings.warn(message, UserWarning, stacklevel=2)  # pragma: no mutate
    shape = values.shape
    rows = values.size
    return pa.table(
        {
            # mutmut equivalent: a column's type changed or dropped: pa.table casts every column to the schema's
            # (the integral floats too); shape[1] for shape[0]: X is square
            "scenario": pa.array([scenario] * rows, pa.string()),  # pragma: no mutate
            "algorithm": pa.array([algorithm] * rows, pa.string()),  # pragma: no mutate
            "actions": np.full(rows, X.shape[0], np.int16),  # pragma: no mutate
            "horizon": np.full(rows, horizon, np.int32),  # pragma: no mutate
            "run": np.repeat(np.asarray(runs, np.int32), shape[1] * shape[2]),  # pragma: no mutate
            "regret": pa.array(np.tile(np.repeat(kinds, shape[2]), shape[0]).tolist(), pa.string()),  # noqa: E501  # pragma: no mutate
            "t": np.tile(grid.astype(np.int32), shape[0] * shape[1]),  # pragma: no mutate
            "cumulative_regret": values.ravel(),
        },
        # mutmut equivalent: the schema dropped: each column is built with the schema's type
        schema=schemas.POINT_SCHEMA,  # pragma: no mutate
    )


def check_points(points: pd.DataFrame) -> pd.DataFrame:
    """Check that every (scenario, algorithm, A, T) has the same runs at every step; return sorted rows."""

    if points.empty:
        raise PointError("no point files given")
    points = points.sort_values(
        ["scenario", "algorithm", "actions", "horizon", "regret", "run", "t"],
        # mutmut equivalent: the sort kind (any, or none): pandas applies kind only when sorting by one column
        kind="stable",  # pragma: no mutate
        ignore_index=True,
    )
    dup = points.duplicated(["scenario", "algorithm", "actions", "horizon", "regret", "run", "t"])
    if dup.any():
        row = points[dup].iloc[0]
        raise PointError(
            f"run {row['run']} of {row['scenario']}/{row['algorithm']} A={row['actions']} "
            f"T={row['horizon']} appears in more than one point file"
        )
    # mutmut equivalent: groupby sort: the rows are sorted by these keys already
    for key, part in points.groupby(["scenario", "algorithm", "actions", "horizon"], sort=False):  # pragma: no mutate
        runs = np.unique(part["run"].to_numpy())
        if not np.array_equal(runs, np.arange(runs.size)):
            raise PointError(
                f"sweep point {'/'.join(map(str, key))} holds runs {runs.tolist()}, expected 0..{runs.size - 1}"
            )
        if len(part) % runs.size or part.groupby(["regret", "run"]).size().nunique() != 1:
            raise PointError(f"sweep point {'/'.join(map(str, key))} has runs of unequal length")
    return points


def read_points(paths) -> tuple[pd.DataFrame, list[str], list[dict]]:
    """The point files as one DataFrame, the sorted digests of their provenance, and the provenance
    records themselves (one per path, in order); each file checked on its own (:func:`point_problem`),
    then all together (:func:`check_points`), so that the studies read checked points."""
    frames, records = [], []
    for path in paths:
        table = storage.read_table(path)
        if not table.schema.equals(schemas.POINT_SCHEMA):
            raise storage.StorageError(f"{path}: not a sweep point file (columns {', '.join(table.column_names)})")
        prov = storage.read_provenance(path, {"runs": str, "horizon": int, "points": int}, table="sweep-point")
        frame = table.to_pandas()
        problem = point_problem(frame, prov)
        if problem:
            raise PointError(f"{path}: {problem}")
        records.append(prov)
        frames.append(frame)
    import pandas as pd

    return check_points(pd.concat(frames)), sorted(p["config_sha256"] for p in records), records


def point_problem(frame: pd.DataFrame, prov: dict) -> str | None:
    """Why the rows ``frame`` of one point file are not those its provenance ``prov`` made, as one clause:
    not every run of ``prov["runs"]`` with every regret kind at every step of ``thin_grid(horizon,
    points)`` once, or a regret no run can have (:func:`duelbandits.regret.curve_problem`); None if
    they are."""
    first, _, last = prov["runs"].partition("-")
    runs = np.arange(int(first), int(last or first) + 1)
    grid = thin_grid(prov["horizon"], prov["points"])
    kinds = list(regret.REGRETS)
    shape = f"runs {prov['runs']} x {len(kinds)} regrets x {grid.size} steps to T = {prov['horizon']}"
    what = f"the {runs.size * len(kinds) * grid.size} of its provenance ({shape})"
    problem = regret.rows_problem(frame, {"run": runs, "regret": kinds, "t": grid}, what)
    if problem:
        return problem
    frame = frame.sort_values(["regret", "run", "t"])
    for kind, part in frame.groupby("regret"):
        problem = regret.curve_problem(kind, grid, part["cumulative_regret"].to_numpy(), [f"run {r}" for r in runs])
        if problem:
            return problem
    return None


def check_together(paths, records, c_alpha: float | None = None) -> None:
    """Point files belong together: one base seed, one matrix per scenario and, with ``c_alpha``,
    TS-Borda run with that c_alpha (its bound uses it)."""
    from .algorithms import ALGORITHMS

    default_c = ALGORITHMS["ts-borda"].defaults["c_alpha"]
    seeds, matrices = {}, {}
    for path, prov in zip(paths, records):
        seeds.setdefault(prov.get("seed"), path)
        matrices.setdefault(prov.get("scenario"), {}).setdefault(prov.get("matrix_sha256"), path)
        if c_alpha is not None and prov.get("algorithm") == "ts-borda":
            used = float((prov.get("params") or {}).get("c_alpha", default_c))
            if not math.isclose(used, c_alpha, rel_tol=1e-12):
                raise PointError(f"{path}: TS-Borda ran with c_alpha = {used:g}, but --c-alpha is {c_alpha:g}")
    if len(seeds) > 1:
        (a, first), (b, second) = list(seeds.items())[:2]
        raise PointError(f"the points come from different seeds: {a} ({first}) and {b} ({second})")
    for scenario, digests in matrices.items():
        if len(digests) > 1:
            first, second = list(digests.values())[:2]
            raise PointError(f"the points of scenario {scenario!r} hold different matrices: {first} and {second}")


def fit_power_law(horizons, means) -> tuple[float, float]:
    """Least squares of ``log mean`` on ``log T``: ``(rho, log_c)`` with ``mean ~ exp(log_c) T^rho``;
    NaN if fewer than two distinct horizons or any mean is not positive."""
    x = np.log(np.asarray(horizons, dtype=float))
    means = np.asarray(means, dtype=float)
    if np.unique(x).size < 2 or not np.all(means > 0):
        return float("nan"), float("nan")  # pragma: no mutate -- float('NAN') is NaN: float() ignores the case
    y = np.log(means)
    # mutmut equivalent: x or y + its mean: the deviations of the other sum to 0
    rho = float(((x - x.mean()) * (y - y.mean())).sum() / ((x - x.mean()) ** 2).sum())  # pragma: no mutate
    return rho, float(y.mean() - rho * x.mean())


def resampled_log_means(finals, resamples: int, seed) -> np.ndarray:
    """``(resamples, len(finals))`` logs of bootstrap means: resample ``h`` draws the runs of
    ``finals[h]`` with replacement (within that horizon); NaN where a mean is not positive."""
    rng = np.random.default_rng(seed)
    logs = np.empty((resamples, len(finals)))
    for h, values in enumerate(finals):
        values = np.asarray(values, dtype=float)
        # mutmut equivalent: integers(n) is integers(0, n): low alone is the bound
        means = values[rng.integers(0, values.size, size=(resamples, values.size))].mean(axis=1)  # pragma: no mutate
        # mutmut equivalent: errstate: np.log sees only positive values, no error to hide
        with np.errstate(divide="ignore", invalid="ignore"):  # pragma: no mutate
            # mutmut equivalent: None for nan is NaN; `>= 0` or 2.0 inside: the outer where puts NaN there
            logs[:, h] = np.where(means > 0, np.log(np.where(means > 0, means, 1.0)), np.nan)  # pragma: no mutate
    return logs


def bootstrap_exponent(
    horizons, finals, resamples: int = 1000, confidence: float = 0.95, seed=0
) -> tuple[float, float]:
    """Percentile bootstrap interval of the fitted exponent rho: the runs of each horizon (``finals[h]``,
    their R_T) resampled within it, rho refitted on the resampled means (``resamples`` >= 1 and
    ``confidence`` in (0, 1): checked at the command line)."""
    x = np.log(np.asarray(horizons, dtype=float))
    if np.unique(x).size < 2:
        return float("nan"), float("nan")  # pragma: no mutate -- float('NAN') is NaN: float() ignores the case
    logs = resampled_log_means(finals, resamples, seed)
    xc = x - x.mean()
    # mutmut equivalent: logs + row mean: the centred xc sum to 0, so a row constant leaves the slope
    rhos = ((logs - logs.mean(axis=1, keepdims=True)) * xc).sum(axis=1) / (xc**2).sum()  # pragma: no mutate
    rhos = rhos[np.isfinite(rhos)]
    if rhos.size == 0:
        return float("nan"), float("nan")  # pragma: no mutate -- float('NAN') is NaN: float() ignores the case
    low, high = np.quantile(rhos, [(1 - confidence) / 2, (1 + confidence) / 2])
    return float(low), float(high)
