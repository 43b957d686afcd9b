"""Theorem 4.1 under its Bayesian reading (target ``maximin-bayes``): TS-Maximin's Maximin regret
averaged over matrices drawn from a stated prior (:data:`duelbandits.schemas.PRIORS`, :func:`draw_matrix`),
against the bound, with the project's own ``simulate`` and regret code; its commands ``bayes-runs`` (one
job's share of the drawn matrices), ``bayes-table`` and ``bayes-figure``. The priors, why each, and the
estimate (per-matrix means of ``R_T / bound``, a normal interval from their spread, :func:`estimates`) are
docs/claims.md, "Theorem 4.1 as a Bayesian bound".
"""

from __future__ import annotations

import math

import numpy as np

from .. import regret, schemas
from ..cli.args import UsageError, check_confidence, int_in, positive_int, seed
from ..errors import InputError
from ..schemas import PRIORS
from ..simulation import name_seed, simulate
from ..theorems import PAPER_THEOREMS

ALGORITHM = "ts-maximin"
"""The algorithm of Theorem 4.1."""

DRAWS = {
    "uniform": "X[i, j] ~ U(0, 1) for i < j, X[j, i] = 1 - X[i, j]",
    "projected": "X[i, j] = (a + 1 - b) / 2 with a, b ~ U(0, 1) independent for i < j, X[j, i] = 1 - X[i, j]",
}
"""How each prior draws a matrix, in the tables."""

TARGET = "maximin-bayes"
"""The target's name, the first name of every seed it uses."""


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
    each: the rows of ``bayes-runs`` (:data:`duelbandits.schemas.BAYES_RUN_SCHEMA`)."""
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
    return pd.DataFrame(rows, columns=schemas.BAYES_RUN_SCHEMA.names)


def read_runs(paths):
    """The run files (``bayes-runs``): ``(runs, records)``, the rows of all and each file's provenance; a
    file is refused in one line unless it holds each run of its job's matrices (:func:`matrix_indices`)
    once, a Maximin ``R_T`` a run can have (:func:`duelbandits.regret.curve_problem`), Theorem 4.1's
    bound and their ratio."""
    import pandas as pd

    from .. import storage

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
    A, T, runs = prov["actions"], prov["horizon"], prov["runs"]
    matrices = matrix_indices(prov["matrices"], prov["jobs"], prov["job"])
    shape = f"{len(matrices)} matrices x {runs} runs at A = {A}, T = {T}"
    levels = {"actions": [A], "horizon": [T], "matrix": matrices, "run": range(runs)}
    problem = regret.rows_problem(frame, levels, f"the {len(matrices) * runs} of its provenance ({shape})")
    names = [f"matrix {m} run {r}" for m, r in zip(frame["matrix"], frame["run"])]
    problem = problem or regret.curve_problem("maximin", [T], frame["regret"].to_numpy()[:, None], names)
    if problem:
        return problem
    b = bound(A, T)
    ratios = np.allclose(frame["ratio"], frame["regret"] / b, rtol=1e-12, atol=0)
    if not (ratios and np.array_equal(frame["bound"], np.full(len(frame), b))):
        return f"its columns bound and ratio are not Theorem 4.1's bound at A = {A}, T = {T} ({b:g}) and R_T over it"
    return None


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
    z = regret.z_value(confidence)
    mean = float(means.mean())
    se = float(means.std(ddof=1) / math.sqrt(M))
    share = float((means > 1.0).mean())
    half, share_half = z * se, z * math.sqrt(share * (1 - share) / M)
    return mean, se, mean - half, mean + half, share, max(0.0, share - share_half), min(1.0, share + share_half)


def estimates(runs_frame, confidence: float, prior: str = "uniform"):
    """One row per A of the runs of ``prior`` (:data:`duelbandits.schemas.BAYES_ESTIMATE_SCHEMA`); every
    matrix of an A needs the same runs."""
    import pandas as pd

    rows = []
    for (A, T), group in runs_frame.groupby(["actions", "horizon"], sort=True):
        table = group.pivot_table(index="matrix", columns="run", values="ratio", aggfunc="first")
        if table.isna().any().any():
            raise BayesError(f"A = {A}: the matrices do not all have the same runs")
        mean, se, low, high, *share = estimate(table.to_numpy(), confidence)
        row = (int(A), int(T), *table.shape, mean, se, low, high, *share, confidence, verdict(low, high))
        rows.append((*row, PRIORS[check_prior(prior)]))
    return pd.DataFrame(rows, columns=schemas.BAYES_ESTIMATE_SCHEMA.names)


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
    """The name of the prior an estimates table was drawn from (the default's without a table or its column)."""
    if frame is None or "prior" not in frame or frame.empty:
        return PRIORS["uniform"]
    return str(frame["prior"].iloc[0])


def bayes_markdown(table, verdict: str, prior: str) -> str:
    """results/maximin-bayes/bayes.md: per A, E[R_T] / bound over the prior (a key of :data:`PRIORS`), the
    share of drawn matrices above the bound, the verdict."""
    from ..tables import fmt, markdown

    level = f"{100 * float(table['confidence'].iloc[0]):g}%" if len(table) else "-"
    rows = [
        [
            str(int(row.actions)),
            f"{int(row.horizon):,}",
            f"{int(row.matrices)} x {int(row.runs_per_matrix)}",
            f"{fmt(row.ratio, 3)} [{fmt(row.low, 3)}, {fmt(row.high, 3)}]",
            f"{fmt(100 * row.share_above, 1)}% [{fmt(100 * row.share_low, 1)}, {fmt(100 * row.share_high, 1)}]",
            row.verdict,
        ]
        for row in table.sort_values("actions").itertuples()
    ]
    return "\n".join(
        [
            "# Theorem 4.1 as a Bayesian bound\n",
            f"TS-Maximin on matrices drawn from the prior `{PRIORS[prior]}` (duelbandits.bayes: {DRAWS[prior]}). "
            "E[R_T] / bound is the mean over matrices of each matrix's mean "
            f"Maximin R_T / bound, with the two-sided {level} normal interval from the spread of the matrix "
            "means; 'matrices above' is the share of matrices whose mean R_T exceeds the bound.\n",
            f"**{verdict}.**\n",
            markdown(
                ["A", "T", "matrices x runs", "E[R_T] / bound", "matrices above the bound", "verdict"], rows, "rrrrrl"
            ),
        ]
    )


def ratios_figure(runs_frame, estimates_frame, bins: int, outputs, *, data_digest=None):
    """figures/maximin-bayes/ratios.{pdf,png}: per A, the histogram of the drawn matrices' mean ``R_T / bound``
    (``bins`` bins over the range of every A, so the rows compare), the bound at 1, and the share of
    matrices above it with its interval (the estimates table's)."""
    from matplotlib.figure import Figure

    from ..plotting import style

    means = runs_frame.groupby(["actions", "matrix"], sort=True)["ratio"].mean()
    shares = estimates_frame.set_index("actions")
    low, high = min(float(means.min()), 1.0), max(float(means.max()), 1.0)
    edges = np.linspace(low, high, bins + 1)
    actions = sorted(means.index.unique("actions"))
    with style.style():
        fig = Figure(figsize=(6.4, 0.9 + 0.75 * len(actions)), layout="constrained")
        axes = np.atleast_1d(fig.subplots(len(actions), 1, sharex=True))
        for ax, A in zip(axes, actions):
            values = means.loc[A].to_numpy()
            ax.hist(values, bins=edges, color="#0072b2", alpha=0.8)
            ax.axvline(1.0, color="black", lw=1.2)
            row = shares.loc[A]
            share = f"{100 * row.share_above:.1f}% [{100 * row.share_low:.1f}, {100 * row.share_high:.1f}]"
            ax.text(
                0.99,
                0.9,
                f"A = {A}: {len(values)} matrices, {share} above",
                transform=ax.transAxes,
                ha="right",
                va="top",
                fontsize=7,
            )
            ax.set_yticks([])
        axes[-1].set_xlabel("a matrix's mean Maximin R_T / Theorem 4.1's bound (line: the bound)")
        fig.suptitle(
            f"TS-Maximin over the prior {shares['prior'].iloc[0]}, T = {int(shares['horizon'].iloc[0]):,}", fontsize=9
        )
        style.save(fig, outputs, data_digest)
    return fig


# --- The commands -------------------------------------------------------------------------------


def cmd_bayes_runs(args) -> None:
    from .. import provenance, storage
    from ..cli.simulation import progress_line

    if args.job >= args.jobs:
        raise UsageError(f"--job {args.job} must be below --jobs {args.jobs}")
    check_prior(args.prior)
    label = f"bayes-runs A={args.actions} T={args.horizon} job {args.job}/{args.jobs}"
    matrices = matrix_indices(args.matrices, args.jobs, args.job)
    frame = measure(args.actions, matrices, args.runs, args.horizon, args.seed, progress_line(label), args.prior)
    keys = ("prior", "actions", "matrices", "runs", "horizon", "seed", "jobs", "job")
    prov = provenance.record(table="bayes-runs", **{key: getattr(args, key) for key in keys})
    storage.write_frame(frame, schemas.BAYES_RUN_SCHEMA, args.out, prov)


def cmd_bayes_table(args) -> None:
    from .. import provenance, storage

    check_confidence(args.confidence)
    runs, records = read_runs(args.files)
    seeds = {r["seed"] for r in records}
    if len(seeds) > 1:
        raise UsageError(f"the run files were made with different seeds: {sorted(seeds)}")
    keys = {name: key for key, name in PRIORS.items()}  # a file written before the choice: the default's name
    priors = {keys.get(r.get("prior", "uniform"), r.get("prior", "uniform")) for r in records}
    if len(priors) > 1:
        raise UsageError(f"the run files were drawn from different priors: {', '.join(sorted(priors))}")
    (prior,) = priors
    if runs.duplicated(["actions", "matrix", "run"]).any():
        raise UsageError("a (A, matrix, run) appears twice: the run files overlap")
    table = estimates(runs, args.confidence, prior)
    verdict = overall_verdict(table)
    inputs = {path: provenance.file_sha256(path) for path in args.files}
    prov = provenance.record(
        table="bayes-estimates", prior=prior, inputs=inputs, confidence=args.confidence, verdict=verdict
    )
    storage.write_frame(table, schemas.BAYES_ESTIMATE_SCHEMA, args.estimates, prov)
    storage.write_text(args.markdown, bayes_markdown(table, verdict, prior))


def cmd_bayes_figure(args) -> None:
    from .. import digests, storage
    from ..plotting import style

    style.check_figure_paths(args.out)
    runs, _ = read_runs(args.files)
    estimates_frame = storage.read_frame(args.estimates, "bayes-estimates")
    if sorted(estimates_frame["actions"]) != sorted(runs["actions"].unique()):
        raise UsageError(f"{args.estimates}: its A values are not those of the run files")
    inputs = {f"runs {k}": path for k, path in enumerate(args.files)} | {"estimates": args.estimates}
    ratios_figure(runs, estimates_frame, args.bins, args.out, data_digest=digests.data_digest(inputs, bins=args.bins))


def add_commands(sub) -> None:
    p = sub.add_parser("bayes-runs", help="maximin-bayes: TS-Maximin's Maximin R_T on matrices drawn from the prior")
    p.add_argument("--actions", type=int_in(2, 64), required=True, help="A (config `maximin-bayes/actions`)")
    p.add_argument("--matrices", type=positive_int, required=True, help="matrices drawn at A (all jobs)")
    p.add_argument("--runs", type=positive_int, required=True, help="runs per matrix")
    p.add_argument("--horizon", type=positive_int, required=True, help="the horizon T")
    p.add_argument("--seed", type=seed, required=True, help="the config's base seed")
    p.add_argument("--jobs", type=positive_int, required=True, help="jobs the matrices of one A are split over")
    p.add_argument("--job", type=int_in(0, 2**31 - 1), required=True, help="this job, 0..jobs-1")
    p.add_argument(
        "--prior", required=True, help="the prior, a key of duelbandits.schemas.PRIORS (config `maximin-bayes/prior`)"
    )
    p.add_argument("--out", required=True, help="output .parquet")
    p.set_defaults(func=cmd_bayes_runs, outputs=("out",))
    p = sub.add_parser("bayes-table", help="maximin-bayes: E[R_T] / Theorem 4.1's bound over the prior, verdict")
    p.add_argument("files", nargs="+", help="run files (bayes-runs)")
    p.add_argument(
        "--confidence", type=float, required=True, help="level of the intervals (config `maximin-bayes/confidence`)"
    )
    p.add_argument("--estimates", required=True, help="output .parquet")
    p.add_argument("--markdown", required=True, help="output .md")
    p.set_defaults(func=cmd_bayes_table, outputs=("estimates", "markdown"))
    p = sub.add_parser("bayes-figure", help="maximin-bayes: the histogram of the matrices' R_T / bound per A")
    p.add_argument("files", nargs="+", help="run files (bayes-runs)")
    p.add_argument("--estimates", required=True, help="the estimates table (bayes-table)")
    p.add_argument("--bins", type=int_in(1, 1000), required=True, help="histogram bins (config `maximin-bayes/bins`)")
    p.add_argument("--out", nargs="+", required=True, help="output .pdf and/or .png")
    p.set_defaults(func=cmd_bayes_figure, outputs=("out",))
