"""Theorem 4.1 under its Bayesian reading (target ``maximin-bayes``): TS-Maximin's Maximin regret
averaged over matrices drawn from a stated prior (:data:`PRIORS`, :func:`draw_matrix`), against the
bound, with the project's own ``simulate`` and regret code. The priors, why each, and the estimate
(per-matrix means of ``R_T / bound``, a normal interval from their spread, :func:`estimates`) are
docs/claims.md, "Theorem 4.1 as a Bayesian bound".
"""

from __future__ import annotations

import math

import numpy as np

from . import regret
from .errors import InputError
from .simulation import name_seed, simulate
from .theorems import PAPER_THEOREMS

ALGORITHM = "ts-maximin"
"""The algorithm of Theorem 4.1."""

PRIORS = {"uniform": "uniform antisymmetric", "projected": "independent entries, projected"}
"""The priors (config ``maximin-bayes/prior``, docs/claims.md) and their names in the tables and the ledger."""

DRAWS = {
    "uniform": "X[i, j] ~ U(0, 1) for i < j, X[j, i] = 1 - X[i, j]",
    "projected": "X[i, j] = (a + 1 - b) / 2 with a, b ~ U(0, 1) independent for i < j, X[j, i] = 1 - X[i, j]",
}
"""How each prior draws a matrix, in the tables."""

PRIOR = PRIORS["uniform"]
"""The default prior's name: ``X[i, j] ~ U(0, 1)`` for ``i < j``, ``X[j, i] = 1 - X[i, j]``."""

TARGET = "maximin-bayes"
"""The target's name, the first name of every seed it uses."""

RUN_COLUMNS = ["actions", "matrix", "run", "horizon", "regret", "bound", "ratio"]
"""One row per run: its Maximin ``R_T``, Theorem 4.1's bound at ``(A, T)`` and their ratio."""

ESTIMATE_COLUMNS = [
    "actions",
    "horizon",
    "matrices",
    "runs_per_matrix",
    "ratio",
    "se",
    "low",
    "high",
    "share_above",
    "share_low",
    "share_high",
    "confidence",
    "verdict",
    "prior",
]
"""One row per A: ``E[R_T] / bound`` over the prior with its interval, the share of matrices whose
mean ``R_T`` exceeds the bound with its interval, and the verdict."""


class BayesError(InputError):
    """The settings or the files of the maximin-bayes target are invalid."""


def check_prior(prior: str) -> str:
    """``prior`` if it is one of :data:`PRIORS`, else one line naming the choices."""
    if prior not in PRIORS:
        raise BayesError(f"unknown prior {prior!r}; the priors are {', '.join(PRIORS)}")
    return prior


def draw_matrix(actions: int, rng, prior: str = "uniform") -> np.ndarray:
    """One draw of ``prior`` (docs/claims.md). ``uniform``: the upper triangle's entries, row by row,
    are ``u = rng.uniform(size=A (A - 1) / 2)``; ``projected``: ``(u + 1 - v) / 2`` with ``v`` the next
    ``A (A - 1) / 2`` uniforms (so matrix ``m`` of both priors starts from the same ``u``)."""
    check_prior(prior)
    if actions < 2:
        raise BayesError(f"a preference matrix needs A >= 2, got {actions}")
    upper = np.triu_indices(actions, 1)
    u = rng.uniform(size=upper[0].size)
    if prior == "projected":
        u = (u + 1.0 - rng.uniform(size=upper[0].size)) / 2.0
    X = np.full((actions, actions), 0.5)
    X[upper] = u
    X[upper[1], upper[0]] = 1.0 - u
    return X


def matrix_seed(base_seed: int, actions: int, matrix: int) -> np.random.SeedSequence:
    """Matrix ``matrix`` at A: ``SeedSequence([seed, "maximin-bayes", "matrix", A, matrix])`` (names as
    :func:`duelbandits.simulation.name_seed` turns them into integers)."""
    return name_seed(base_seed, TARGET, "matrix", int(actions), int(matrix))


def run_seed(base_seed: int, actions: int, matrix: int, run: int) -> np.random.SeedSequence:
    """Run ``run`` on matrix ``matrix`` at A: ``SeedSequence([seed, "maximin-bayes", "run", A, matrix, run])``."""
    return name_seed(base_seed, TARGET, "run", int(actions), int(matrix), int(run))


def prior_matrix(base_seed: int, actions: int, matrix: int, prior: str = "uniform") -> np.ndarray:
    """Matrix ``matrix`` of ``prior`` at A, from its own stream."""
    return draw_matrix(actions, np.random.default_rng(matrix_seed(base_seed, actions, matrix)), prior)


def bound(actions: int, horizon: int) -> float:
    """Theorem 4.1's bound at ``(A, T)``."""
    return float(PAPER_THEOREMS["4.1"].bound(actions, float(horizon)))


def matrix_indices(matrices: int, jobs: int, job: int) -> range:
    """The matrices of job ``job`` of ``jobs``: every ``jobs``-th from ``job`` on."""
    if not 0 <= job < jobs:
        raise BayesError(f"job {job} is not one of 0..{jobs - 1}")
    return range(job, matrices, jobs)


def measure(actions: int, matrices, runs: int, horizon: int, base_seed: int, progress=None, prior: str = "uniform"):
    """TS-Maximin's Maximin ``R_T`` on each matrix of ``matrices`` (indices) of ``prior`` at A, ``runs`` runs
    each: a DataFrame with :data:`RUN_COLUMNS`."""
    import pandas as pd

    b = bound(actions, horizon)
    rows = []
    matrices = list(matrices)
    for n, m in enumerate(matrices):
        X = prior_matrix(base_seed, actions, m, prior)
        for r in range(runs):
            res = simulate(X, ALGORITHM, horizon, run_seed(base_seed, actions, m, r), stride=horizon)
            R = float(regret.per_step("maximin", X, res.I, res.J).sum())
            rows.append((int(actions), int(m), r, int(horizon), R, b, R / b))
        if progress is not None:
            progress(n + 1, len(matrices))
    return pd.DataFrame(rows, columns=RUN_COLUMNS)


def read_runs(paths):
    """The run files (``bayes-runs``): ``(runs, records)``, the rows of all and each file's provenance; a
    file is refused in one line unless it holds each run of its job's matrices (:func:`matrix_indices`)
    once, a Maximin ``R_T`` a run can have (:func:`duelbandits.regret.curve_problem`), Theorem 4.1's
    bound and their ratio."""
    import pandas as pd

    from . import storage

    frames, records = [], []
    for path in paths:
        prov = storage.read_provenance(
            path, {key: int for key in ("actions", "matrices", "runs", "horizon", "jobs", "job")}, table="bayes-runs"
        )
        frame = storage.read_frame(path, table="bayes-runs").sort_values(["matrix", "run"], ignore_index=True)
        problem = runs_problem(frame, prov)
        if problem:
            raise BayesError(f"{path}: {problem}")
        frames.append(frame)
        records.append(prov)
    return pd.concat(frames, ignore_index=True), records


def runs_problem(frame, prov: dict) -> str | None:
    """Why the rows ``frame`` of one run file (sorted by matrix and run) are not those its provenance
    ``prov`` made, as one clause; None if they are."""
    import pandas as pd

    A, T = prov["actions"], prov["horizon"]
    matrices = matrix_indices(prov["matrices"], prov["jobs"], prov["job"])
    expected = pd.MultiIndex.from_product([[A], [T], matrices, range(prov["runs"])])
    if not pd.MultiIndex.from_frame(frame[["actions", "horizon", "matrix", "run"]]).equals(expected):
        return (
            f"holds {len(frame)} rows, not the {len(expected)} of its provenance ({len(matrices)} matrices x "
            f"{prov['runs']} runs at A = {A}, T = {T})"
        )
    names = [f"matrix {m} run {r}" for m, r in zip(frame["matrix"], frame["run"])]
    problem = regret.curve_problem("maximin", [T], frame["regret"].to_numpy()[:, None], names)
    if problem:
        return problem
    b = bound(A, T)
    ratios = np.allclose(frame["ratio"], frame["regret"] / b, rtol=1e-12, atol=0)
    if not (ratios and np.array_equal(frame["bound"], np.full(len(frame), b))):
        return f"its columns bound and ratio are not Theorem 4.1's bound at A = {A}, T = {T} ({b:g}) and R_T over it"
    return None


def z_value(confidence: float) -> float:
    """The two-sided normal quantile of ``confidence``."""
    from statistics import NormalDist

    return NormalDist().inv_cdf((1 + confidence) / 2)


def verdict(low: float, high: float) -> str:
    """Theorem 4.1 as a Bayesian bound, from the interval on ``E[R_T] / bound``: ``holds`` when the
    interval lies below 1, ``fails`` when it lies above 1, else ``inconclusive`` (1 inside or on an end)."""
    if high < 1.0:
        return "holds"
    if low > 1.0:
        return "fails"
    return "inconclusive"


def estimate(ratios, confidence: float) -> tuple[float, float, float, float, float, float, float]:
    """From ``ratios`` of shape ``(M, r)`` (run ``R_T / bound`` per matrix and run): ``(mean, se, low, high,
    share, share_low, share_high)``.

    The mean over the prior is the mean of the ``M`` matrix means; each matrix mean is an independent
    draw of one random variable (a matrix from the prior, then ``r`` runs on it), so the standard error
    is their standard deviation over ``sqrt(M)``, and the interval is the two-sided normal one (``M`` is
    hundreds in the default config, where the t and normal quantiles agree to 1%; the tiny test
    configs only smoke-test it). ``share`` is the fraction of matrix means above 1 (the matrices that
    are themselves counterexamples, up to their own run noise), with the normal interval
    ``p +- z sqrt(p (1 - p) / M)`` clipped to [0, 1].
    """
    ratios = np.asarray(ratios, dtype=float)
    if ratios.ndim != 2 or ratios.shape[0] < 2 or ratios.shape[1] < 1:
        raise BayesError(f"need at least 2 matrices and 1 run each, got shape {ratios.shape}")
    M = ratios.shape[0]
    means = ratios.mean(axis=1)
    z = z_value(confidence)
    mean = float(means.mean())
    se = float(means.std(ddof=1) / math.sqrt(M))
    share = float((means > 1.0).mean())
    share_se = math.sqrt(share * (1 - share) / M)
    return (
        mean,
        se,
        mean - z * se,
        mean + z * se,
        share,
        max(0.0, share - z * share_se),
        min(1.0, share + z * share_se),
    )


def estimates(runs_frame, confidence: float, prior: str = "uniform"):
    """One row per A of the runs of ``prior`` (:data:`ESTIMATE_COLUMNS`); every matrix of an A needs the
    same runs."""
    import pandas as pd

    rows = []
    for (A, T), group in runs_frame.groupby(["actions", "horizon"], sort=True):
        table = group.pivot_table(index="matrix", columns="run", values="ratio", aggfunc="first")
        if table.isna().any().any():
            raise BayesError(f"A = {A}: the matrices do not all have the same runs")
        mean, se, low, high, share, share_low, share_high = estimate(table.to_numpy(), confidence)
        rows.append(
            (
                int(A),
                int(T),
                table.shape[0],
                table.shape[1],
                mean,
                se,
                low,
                high,
                share,
                share_low,
                share_high,
                confidence,
                verdict(low, high),
                PRIORS[check_prior(prior)],
            )
        )
    return pd.DataFrame(rows, columns=ESTIMATE_COLUMNS)


def overall_verdict(frame) -> str:
    """One sentence over every A: ``fails`` if any A fails, ``holds`` if every A holds, else inconclusive."""
    if frame.empty:
        return "inconclusive: no estimates"
    verdicts = frame["verdict"].tolist()
    prior = prior_name(frame)
    T = ", ".join(f"{t:,}" for t in sorted(set(frame["horizon"])))
    As = ", ".join(str(a) for a in frame["actions"])
    if "fails" in verdicts:
        bad = ", ".join(str(a) for a, v in zip(frame["actions"], verdicts) if v == "fails")
        return f"fails as a Bayesian bound (prior: {prior}) at A = {bad}, T = {T}"
    if all(v == "holds" for v in verdicts):
        return f"holds as a Bayesian bound (prior: {prior}) at A = {As}, T = {T}"
    open_ = ", ".join(str(a) for a, v in zip(frame["actions"], verdicts) if v != "holds")
    return f"inconclusive at A = {open_}, T = {T} (prior: {prior})"


def prior_name(frame) -> str:
    """The name of the prior an estimates table was drawn from (:data:`PRIOR` for one without the column)."""
    if "prior" not in frame or frame.empty:
        return PRIOR
    return str(frame["prior"].iloc[0])
