"""Theorem 4.1 under its Bayesian reading (target ``maximin-bayes``): TS-Maximin's Maximin regret
averaged over matrices drawn from a stated prior (:data:`duelbandits.schemas.PRIORS`, :func:`draw_matrix`),
against the bound, with the project's own TS-Maximin kernel and regret code; its commands ``bayes-runs`` (one
job's share of the drawn matrices), ``bayes-table`` and ``bayes-figure`` (their page and figure:
:mod:`.bayes_report`). The priors, why each, and the estimate (per-matrix means of ``R_t / bound`` on a
grid of horizons, stratified by a Condorcet winner, :func:`estimates`; the arithmetic in
:mod:`.bayes_growth`) are docs/claims.md, "Theorem 4.1 as a Bayesian bound".
"""

from __future__ import annotations

import numpy as np

from .. import regret, schemas
from ..cli.args import UsageError, check_confidence, int_in, positive_int, seed
from ..errors import InputError
from ..schemas import PRIORS
from ..simulation import name_seed
from ..theorems import PAPER_THEOREMS
from .bayes_growth import grid

ALGORITHM = "ts-maximin"
"""The algorithm of Theorem 4.1."""

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


PROVENANCE_INTS = ("actions", "matrices", "runs", "horizon", "grid_from", "grid_points")
"""The integer settings of a run file's provenance (besides its job's), which make its rows."""


def matrix_indices(matrices: int, jobs: int, job: int) -> range:
    """The matrices of job ``job`` of ``jobs`` (``bayes-runs --job`` checks it is one): every ``jobs``-th from
    ``job`` on."""
    return range(job, matrices, jobs)


def measure(actions: int, matrices, runs: int, horizons, base_seed: int, progress=None, prior: str = "uniform"):
    """TS-Maximin's Maximin ``R_t`` at each of ``horizons`` (increasing; one run to the last: Algorithm 1 has
    the prefix property) on each matrix of ``matrices`` (indices) of ``prior`` at A, ``runs`` runs each: the
    rows of ``bayes-runs`` (:data:`duelbandits.schemas.BAYES_RUN_SCHEMA`). The run is the one ``simulate``
    makes with the run's seed, its regret summed as it proceeds (``ts_maximin.regret_at``): memory of the
    grid's size, not the run's."""
    import pandas as pd

    from ..algorithms.ts_maximin import regret_at

    horizons = [int(t) for t in horizons]
    b = [bound(actions, t) for t in horizons]
    rows = []
    matrices = list(matrices)
    a = np.arange(actions)
    for n, m in enumerate(matrices):
        X = prior_matrix(base_seed, actions, m, prior)
        table = regret.per_step("maximin", X, a[:, None], a[None, :])  # each pair's step regret, its one formula
        for r in range(runs):
            R = regret_at(X, horizons, table, np.random.default_rng(run_seed(base_seed, actions, m, r)))
            rows += [(int(actions), int(m), r, t, float(R_t), b_t, R_t / b_t) for t, R_t, b_t in zip(horizons, R, b)]
        if progress is not None:
            progress(n + 1, len(matrices))
    return pd.DataFrame(rows, columns=schemas.BAYES_RUN_SCHEMA.names)


def read_runs(paths):
    """The run files (``bayes-runs``): ``(runs, records)``, the rows of all and each file's provenance; a
    file is refused in one line unless it holds each run of its job's matrices (:func:`matrix_indices`)
    once, with a Maximin ``R_T`` a run can have (:func:`duelbandits.regret.curve_problem`)."""
    import pandas as pd

    from .. import storage

    frames, records = [], []
    for path in paths:
        prov = storage.read_provenance(
            path, {key: int for key in (*PROVENANCE_INTS, "jobs", "job")}, table="bayes-runs"
        )
        frame = storage.read_frame(path, table="bayes-runs").sort_values(
            ["matrix", "run", "horizon"], ignore_index=True
        )
        problem = runs_problem(frame, prov)
        if problem:
            raise BayesError(f"{path}: {problem}")
        # the ratio from the regret just checked, not the file's column (no statistic reads a value unchecked)
        frame["ratio"] = frame["regret"] / np.array([bound(prov["actions"], t) for t in frame["horizon"]])
        frames.append(frame)
        records.append(prov)
    return pd.concat(frames, ignore_index=True), records


def runs_problem(frame, prov: dict) -> str | None:
    """Why the rows ``frame`` of one run file (sorted by matrix, run and horizon) are not those its
    provenance ``prov`` made, as one clause; None if they are."""
    A, T, runs = prov["actions"], prov["horizon"], prov["runs"]
    ts = grid(T, prov["grid_from"], prov["grid_points"])
    matrices = matrix_indices(prov["matrices"], prov["jobs"], prov["job"])
    shape = f"{len(matrices)} matrices x {runs} runs x {len(ts)} horizons at A = {A}, T = {T}"
    levels = {"actions": [A], "horizon": ts, "matrix": matrices, "run": range(runs)}
    problem = regret.rows_problem(frame, levels, f"the {len(matrices) * runs * len(ts)} of its provenance ({shape})")
    names = [f"matrix {m} run {r}" for m, r in zip(frame["matrix"][:: len(ts)], frame["run"][:: len(ts)])]
    return problem or regret.curve_problem("maximin", ts, frame["regret"].to_numpy(), names)


def verdict(low: float, high: float) -> str:
    """Theorem 4.1 as a Bayesian bound, from the interval on ``E[R_T] / bound``: ``holds`` when the
    interval lies below 1, ``fails`` when it lies above 1, else ``inconclusive`` (1 inside or on an end)."""
    if high < 1.0:
        return "holds"
    if low > 1.0:
        return "fails"
    return "inconclusive"


def estimates(runs_frame, confidence: float, prior: str = "uniform", flags=None, replicates: int = 0, seed: int = 0):
    """One row per A and horizon of the runs of ``prior`` (:data:`duelbandits.schemas.BAYES_ESTIMATE_SCHEMA`);
    every matrix of an A needs the same runs. ``flags`` (A -> :func:`condorcet_flags`) stratifies the estimate
    (:mod:`.bayes_growth`; without it the simulated matrices are one stratum); ``replicates`` seeded bootstrap
    resamplings give the intervals of the local exponent and the predicted crossing (none: NaN)."""
    import pandas as pd

    from . import bayes_growth as growth

    frames = []
    for A, group in runs_frame.groupby("actions", sort=True):
        table = group.pivot_table(index="matrix", columns=["horizon", "run"], values=["ratio", "regret"])
        if table.isna().any().any() or len(table) < 2:
            raise BayesError(f"A = {A}: the matrices do not all have the same runs (at least 2 matrices)")
        ratio, R = (table[v].T.groupby(level="horizon").mean().T.to_numpy() for v in ("ratio", "regret"))
        t = np.array(sorted(group["horizon"].unique()))
        f = np.ones(len(table), bool) if flags is None else np.asarray(flags[A], dtype=bool)
        rng = np.random.default_rng(name_seed(seed, TARGET, "bootstrap", int(A)))
        try:
            columns = growth.columns(ratio, R, f, t, [bound(A, s) for s in t], confidence, replicates, rng)
        except ValueError as e:
            raise BayesError(f"A = {A}: a stratum has {e}: simulate more (maximin-bayes/matrices)") from None
        head = {"actions": int(A), "horizon": t.astype(np.int64), "matrices": len(table)}
        head["runs_per_matrix"] = table["ratio"].shape[1] // len(t)
        tail = {"verdict": list(map(verdict, columns["low"], columns["high"])), "prior": PRIORS[check_prior(prior)]}
        frames.append(pd.DataFrame(head | columns | {"confidence": confidence} | tail))
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=schemas.BAYES_ESTIMATE_SCHEMA.names)


def condorcet_flags(base_seed: int, actions: int, count: int, prior: str) -> np.ndarray:
    """Whether each of matrices ``0..count-1`` of ``prior`` at A (:func:`prior_matrix`) has a Condorcet
    winner: the large cheap draw the strata's probabilities come from."""
    from ..winners import condorcet_winner

    return np.array([condorcet_winner(prior_matrix(base_seed, actions, m, prior)) is not None for m in range(count)])


# --- The commands -------------------------------------------------------------------------------


def cmd_bayes_runs(args) -> None:
    from .. import provenance, storage
    from ..cli.simulation import progress_line

    if args.job >= args.jobs:
        raise UsageError(f"--job {args.job} must be below --jobs {args.jobs}")
    check_prior(args.prior)
    label = f"bayes-runs A={args.actions} T={args.horizon} job {args.job}/{args.jobs}"
    if args.grid_from > args.horizon:
        raise UsageError(f"--grid-from {args.grid_from} must be at most --horizon {args.horizon}")
    matrices = matrix_indices(args.matrices, args.jobs, args.job)
    horizons = grid(args.horizon, args.grid_from, args.grid_points)
    frame = measure(args.actions, matrices, args.runs, horizons, args.seed, progress_line(label), args.prior)
    keys = ("prior", *PROVENANCE_INTS, "seed", "jobs", "job")
    prov = provenance.record(table="bayes-runs", **{key: getattr(args, key) for key in keys})
    storage.write_frame(frame, schemas.BAYES_RUN_SCHEMA, args.out, prov)


def cmd_bayes_table(args) -> None:
    from .. import provenance, storage
    from .bayes_report import bayes_markdown, overall_verdict

    check_confidence(args.confidence)
    runs, records = read_runs(args.files)
    for key, what in (("seed", "made with different seeds"), ("prior", "drawn from different priors")):
        if len({r[key] for r in records}) > 1:  # bayes-runs records its --seed and --prior
            raise UsageError(f"the run files were {what}: {', '.join(map(str, sorted({r[key] for r in records})))}")
    seed, prior = records[0]["seed"], records[0]["prior"]
    made = {r["actions"]: r["matrices"] for r in records}
    if any(args.strata_draws < M for M in made.values()):
        raise UsageError(
            f"--strata-draws {args.strata_draws} must be at least the matrices drawn ({max(made.values())})"
        )
    flags = {A: condorcet_flags(seed, A, args.strata_draws, prior) for A in made}
    table = estimates(runs, args.confidence, prior, flags, args.bootstrap, seed)
    verdict = overall_verdict(table)
    inputs = {path: provenance.file_sha256(path) for path in args.files}
    settings = {key: getattr(args, key) for key in ("confidence", "strata_draws", "bootstrap")}
    prov = provenance.record(table="bayes-estimates", prior=prior, inputs=inputs, verdict=verdict, **settings)
    storage.write_frame(table, schemas.BAYES_ESTIMATE_SCHEMA, args.estimates, prov)
    storage.write_text(args.markdown, bayes_markdown(table, verdict, prior, args.bootstrap))


def cmd_bayes_figure(args) -> None:
    from .. import digests, storage
    from ..plotting import style
    from .bayes_report import ratios_figure

    style.check_figure_paths(args.out)
    runs, _ = read_runs(args.files)  # and the estimates bayes-table made of them (snakemake)
    estimates_frame = storage.read_frame(args.estimates, "bayes-estimates")
    inputs = {f"runs {k}": path for k, path in enumerate(args.files)} | {"estimates": args.estimates}
    ratios_figure(runs, estimates_frame, args.bins, args.out, data_digest=digests.data_digest(inputs, bins=args.bins))


def add_commands(sub) -> None:
    p = sub.add_parser("bayes-runs", help="maximin-bayes: TS-Maximin's Maximin R_T on matrices drawn from the prior")
    p.add_argument("--actions", type=int_in(2, 64), required=True, help="A (config `maximin-bayes/actions`)")
    p.add_argument("--matrices", type=positive_int, required=True, help="matrices drawn at A (all jobs)")
    p.add_argument("--runs", type=positive_int, required=True, help="runs per matrix")
    p.add_argument("--horizon", type=positive_int, required=True, help="the horizon T")
    p.add_argument("--grid-from", type=positive_int, required=True, help="the first horizon of the grid (`grid_from`)")
    p.add_argument("--grid-points", type=positive_int, required=True, help="log-spaced horizons (`grid_points`)")
    p.add_argument("--seed", type=seed, required=True, help="the config's base seed")
    p.add_argument("--jobs", type=positive_int, required=True, help="jobs the matrices of one A are split over")
    p.add_argument("--job", type=int_in(0, 2**31 - 1), required=True, help="this job, 0..jobs-1")
    p.add_argument("--prior", required=True, help="the prior, a key of schemas.PRIORS (config `maximin-bayes/prior`)")
    p.add_argument("--out", required=True, help="output .parquet")
    p.set_defaults(func=cmd_bayes_runs, outputs=("out",))
    p = sub.add_parser("bayes-table", help="maximin-bayes: E[R_T] / Theorem 4.1's bound over the prior, verdict")
    p.add_argument("files", nargs="+", help="run files (bayes-runs)")
    p.add_argument("--confidence", type=float, required=True, help="level of the intervals (`confidence`)")
    p.add_argument(
        "--strata-draws", type=positive_int, required=True, help="matrices drawn for the strata (`strata_draws`)"
    )
    p.add_argument("--bootstrap", type=int_in(0, 10**6), required=True, help="bootstrap resamplings (`bootstrap`)")
    p.add_argument("--estimates", required=True, help="output .parquet")
    p.add_argument("--markdown", required=True, help="output .md")
    p.set_defaults(func=cmd_bayes_table, outputs=("estimates", "markdown"))
    p = sub.add_parser("bayes-figure", help="maximin-bayes: the histogram of the matrices' R_T / bound per A")
    p.add_argument("files", nargs="+", help="run files (bayes-runs)")
    p.add_argument("--estimates", required=True, help="the estimates table (bayes-table)")
    p.add_argument("--bins", type=int_in(1, 1000), required=True, help="histogram bins (config `maximin-bayes/bins`)")
    p.add_argument("--out", nargs="+", required=True, help="output .pdf and/or .png")
    p.set_defaults(func=cmd_bayes_figure, outputs=("out",))
