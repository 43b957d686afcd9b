"""Theorem 4.1 past the paper's horizon (target ``maximin_tail``): the commands ``tail-continue`` (phase 2),
``tail-table``, ``tail-family`` and ``tail-figure``; the analysis is :mod:`.analysis`, the family of trap
matrices :mod:`.family`, the figure :mod:`.figure`."""

from __future__ import annotations

from ...cli.args import UsageError, check_confidence, check_range, non_negative_int, positive_float, positive_int, seed


def _phase_one(args):
    """Phase 1's point files, checked together and against the scenario file: ``(frame, sources, record)``."""
    from ... import points, storage

    frame, sources, records = points.read_points(args.points)
    points.check_together(args.points, records)
    record = storage.read_scenario(args.scenario_file)
    for path, prov in zip(args.points, records):
        if prov.get("matrix_sha256") != record["matrix_sha256"] or prov.get("algorithm") != "ts-maximin":
            raise UsageError(f"{path}: not a TS-Maximin point of the matrix of {args.scenario_file}")
        if prov.get("seed") != args.seed:
            raise UsageError(f"{path}: made with seed {prov.get('seed')}, but --seed is {args.seed}")
    return frame, sources, record


def cmd_tail_continue(args) -> None:
    import numpy as np

    from ... import provenance, resources, storage
    from ...cli.simulation import progress_line
    from ...winners import trap
    from .analysis import continue_runs, job_share, strata_of

    if args.job >= args.jobs:
        raise UsageError(f"--job must be below --jobs ({args.jobs}), got {args.job}")
    check_range("share", args.share, "--share")
    frame, sources, record = _phase_one(args)
    X = np.asarray(record["matrix"])
    first = int(frame["horizon"].max())
    if args.horizon <= first:
        raise UsageError(f"--horizon {args.horizon} must exceed the points' horizon {first}")
    resources.check_memory(
        f"--horizon {args.horizon} at A = {X.shape[0]}", resources.sweep_point_bytes(args.horizon, X.shape[0])
    )
    runs, strata = strata_of(frame, trap(X).delta, args.share, args.others, args.seed)
    mine = job_share(np.arange(runs.size), args.jobs, args.job)
    label = f"tail-continue {record['name']} T={args.horizon} job {args.job}/{args.jobs}"
    settings = (args.horizon, first, args.seed, args.grid_points, args.escape_samples)
    curves, states = continue_runs(
        X, record["name"], runs[mine], strata[mine], *settings, progress=progress_line(label)
    )
    fields = dict(points=sources, scenario=record["name"], matrix_sha256=record["matrix_sha256"], first_horizon=first)
    keys = ("seed", "horizon", "share", "others", "jobs", "job", "escape_samples")
    fields |= {key: getattr(args, key) for key in keys}
    prov = provenance.record(table="tail-curves", points_kept=args.grid_points, **fields)
    storage.write_table(curves, args.curves, prov)
    storage.write_table(states, args.states, {**prov, "table": "tail-states"})


def cmd_tail_table(args) -> None:
    from ... import provenance, schemas, storage
    from ...winners import trap
    from .analysis import estimates, read_phase_two, tail_markdown, verdict

    check_confidence(args.confidence)
    check_range("share", args.share, "--share")
    frame, sources, record = _phase_one(args)
    X = record["matrix"]
    curves = read_phase_two(args.curves, "tail-curves")  # made by tail-continue from these points (snakemake)
    states = read_phase_two(args.states, "tail-states")
    table = estimates(frame, curves, len(X), trap(X).delta, args.share, args.confidence)
    markdown = tail_markdown(table, states, trap(X), verdict(table), args.confidence)
    prov = provenance.record(
        table="tail-estimates", points=sources, share=args.share, confidence=args.confidence, seed=args.seed
    )
    storage.write_frame(table, schemas.TAIL_ESTIMATE_SCHEMA, args.estimates, prov)
    storage.write_text(args.markdown, markdown)


def cmd_tail_family(args) -> None:
    from ... import provenance, schemas, storage
    from ...cli.simulation import progress_line
    from .family import family_extremes, family_markdown, family_search, first_break

    check_confidence(args.confidence)
    keys = ("actions", "gaps", "others_gap", "strength", "runs", "horizon", "seed")
    member = [getattr(args, key) for key in keys]
    progress = progress_line(f"tail-family T={args.horizon}")
    table = family_search(*member, args.grid_points, args.confidence, args.bootstrap, progress=progress)
    markdown = family_markdown(table, first_break(table), family_extremes(table), args.confidence)
    made = dict(zip(keys, member), points=args.grid_points, confidence=args.confidence, bootstrap=args.bootstrap)
    prov = provenance.record(table="tail-family", **made)
    storage.write_frame(table, schemas.TAIL_FAMILY_SCHEMA, args.table, prov)
    storage.write_text(args.markdown, markdown)


def cmd_tail_figure(args) -> None:
    from ... import digests, storage
    from ...plotting import style
    from .figure import tail_figure

    style.check_figure_paths(args.out)
    estimates = storage.read_frame(args.estimates, "tail-estimates")
    family = storage.read_frame(args.family, "tail-family") if args.family else None
    digest = digests.data_digest({"estimates": args.estimates, "family": args.family}, figure="maximin-tail")
    tail_figure(estimates, family, args.out, data_digest=digest)


def _config_option(p, flag: str, type_, what: str, key: str) -> None:
    p.add_argument(flag, type=type_, required=True, help=f"{what} (config `maximin-tail/{key}`)")


def _phase_one_args(p) -> None:
    p.add_argument("points", nargs="+", help="phase-1 point files (duelbandits sweep-point, ts-maximin)")
    p.add_argument("--scenario-file", required=True, help="the scenario's JSON file (duelbandits scenario)")
    p.add_argument("--seed", type=seed, required=True, help="the base seed the points were simulated with")
    trapped = "trapped: last interval's mean regret per step >= SHARE * delta"
    _config_option(p, "--share", positive_float, trapped, "share")


def add_commands(sub) -> None:
    what = "maximin-tail phase 2: rerun trapped and sampled free TS-Maximin runs to a long horizon"
    p = sub.add_parser("tail-continue", help=what)
    _phase_one_args(p)
    p.add_argument("--horizon", type=positive_int, required=True, help="the long horizon")
    p.add_argument("--others", type=non_negative_int, required=True, help="free runs continued (seeded subsample)")
    p.add_argument("--jobs", type=positive_int, required=True, help="phase-2 jobs")
    p.add_argument("--job", type=non_negative_int, required=True, help="this job's index, 0..jobs-1")
    _config_option(p, "--grid-points", positive_int, "log-spaced steps kept per run", "points")
    _config_option(p, "--escape-samples", positive_int, "posterior draws per state", "escape_samples")
    p.add_argument("--curves", required=True, help="output: R_t per continued run (.parquet)")
    p.add_argument("--states", required=True, help="output: posterior state per continued run (.parquet)")
    p.set_defaults(func=cmd_tail_continue, outputs=("curves", "states"))

    what = "maximin-tail: stratified E[R_t] / Theorem 4.1's bound, survival curve, verdict"
    p = sub.add_parser("tail-table", help=what)
    _phase_one_args(p)
    for name in ("curve", "state"):
        what = f"phase-2 {name} files (tail-continue, one per job of config `maximin-tail/jobs`; none: phase 1 alone)"
        p.add_argument(f"--{name}s", nargs="*", required=True, help=what)
    _config_option(p, "--confidence", float, "level of the intervals", "confidence")
    p.add_argument("--estimates", required=True, help="output .parquet")
    p.add_argument("--markdown", required=True, help="output .md")
    p.set_defaults(func=cmd_tail_table, outputs=("estimates", "markdown"))

    p = sub.add_parser("tail-family", help="Theorem 4.1: where its bound breaks first, on a small family of matrices")
    p.add_argument("--actions", type=positive_int, nargs="+", required=True, help="numbers of actions A (>= 3)")
    p.add_argument("--gaps", type=positive_float, nargs="+", required=True, help="X[0, 1] - 1/2 of each member")
    p.add_argument("--others-gap", type=positive_float, required=True, help="X[0, j] - 1/2 for j >= 2")
    p.add_argument("--strength", type=positive_float, required=True, help="X[1, j] for j >= 2")
    p.add_argument("--runs", type=positive_int, required=True, help="runs per member")
    p.add_argument("--horizon", type=positive_int, required=True, help="the horizon")
    p.add_argument("--seed", type=seed, required=True, help="base seed")
    _config_option(p, "--grid-points", positive_int, "log-spaced steps kept", "family/points")
    _config_option(p, "--confidence", float, "level of the intervals", "confidence")
    _config_option(p, "--bootstrap", positive_int, "resamples of the growth exponent's interval", "family/bootstrap")
    p.add_argument("--table", required=True, help="output .parquet")
    p.add_argument("--markdown", required=True, help="output .md")
    p.set_defaults(func=cmd_tail_family, outputs=("table", "markdown"))

    p = sub.add_parser("tail-figure", help="maximin-tail figure: survival curve, E[R_t] / Theorem 4.1's bound")
    p.add_argument("--estimates", required=True, help="results/maximin-tail/estimates.parquet")
    p.add_argument("--family", help="results/maximin-tail/family.parquet (optional)")
    p.add_argument("--out", nargs="+", required=True, help="output figure files (.pdf, .png)")
    p.set_defaults(func=cmd_tail_figure, outputs=("out",))
