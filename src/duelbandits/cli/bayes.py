"""Commands of the ``maximin-bayes`` target: Theorem 4.1 as a Bayesian bound (duelbandits.bayes):
``bayes-runs`` (TS-Maximin on one job's share of the drawn matrices) and ``bayes-table``."""

from __future__ import annotations

from .args import UsageError, check_confidence, int_in, positive_int, seed


def cmd_bayes_runs(args) -> None:
    from .. import bayes, provenance, schemas, storage
    from .simulation import progress_line

    if args.job >= args.jobs:
        raise UsageError(f"--job {args.job} must be below --jobs {args.jobs}")
    bayes.check_prior(args.prior)
    frame = bayes.measure(
        args.actions,
        bayes.matrix_indices(args.matrices, args.jobs, args.job),
        args.runs,
        args.horizon,
        args.seed,
        progress=progress_line(f"bayes-runs A={args.actions} T={args.horizon} job {args.job}/{args.jobs}"),
        prior=args.prior,
    )
    prov = provenance.record(
        table="bayes-runs",
        prior=args.prior,
        actions=args.actions,
        matrices=args.matrices,
        runs=args.runs,
        horizon=args.horizon,
        seed=args.seed,
        jobs=args.jobs,
        job=args.job,
    )
    storage.write_frame(frame, schemas.BAYES_RUN_SCHEMA, args.out, prov)


def cmd_bayes_table(args) -> None:
    from .. import bayes, provenance, schemas, storage
    from ..tables.bayes import bayes_markdown

    check_confidence(args.confidence)
    runs, records = bayes.read_runs(args.files)
    seeds = {r["seed"] for r in records}
    if len(seeds) > 1:
        raise UsageError(f"the run files were made with different seeds: {sorted(seeds)}")
    priors = {bayes_prior(r) for r in records}
    if len(priors) > 1:
        raise UsageError(f"the run files were drawn from different priors: {', '.join(sorted(priors))}")
    (prior,) = priors
    if runs.duplicated(["actions", "matrix", "run"]).any():
        raise UsageError("a (A, matrix, run) appears twice: the run files overlap")
    table = bayes.estimates(runs, args.confidence, prior)
    verdict = bayes.overall_verdict(table)
    markdown = bayes_markdown(table, verdict, prior)
    prov = provenance.record(
        table="bayes-estimates",
        prior=prior,
        inputs={path: provenance.file_sha256(path) for path in args.files},
        confidence=args.confidence,
        verdict=verdict,
    )
    storage.write_frame(table, schemas.BAYES_ESTIMATE_SCHEMA, args.estimates, prov)
    storage.write_text(args.markdown, markdown)


def bayes_prior(record) -> str:
    """The prior a run file was drawn from, by its provenance (files written before the choice existed
    record the default's name)."""
    from .. import bayes

    prior = record.get("prior", "uniform")
    return {name: key for key, name in bayes.PRIORS.items()}.get(prior, prior)


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
        "--prior", required=True, help="the prior, a key of duelbandits.bayes.PRIORS (config `maximin-bayes/prior`)"
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
