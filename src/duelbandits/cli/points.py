"""Commands that turn point files into the tables of the targets beyond the paper:
``sweep-horizon`` and ``sweep-actions`` (sweeps), ``field-table`` (field) and
``asymptotics-table`` (asymptotics). The points themselves come from ``sweep-point``."""

from __future__ import annotations

from .args import add_c_alpha, check_confidence, check_range, non_negative_float, positive_int, seed


def check_bootstrap_memory(resamples: int, frame) -> None:
    """Refuse a bootstrap larger than memory before it runs (:func:`duelbandits.resources.bootstrap_bytes`)."""
    from .. import resources

    horizons = frame["horizon"].nunique()
    runs = int(frame["run"].max()) + 1 if len(frame) else 1
    resources.check_memory(f"--resamples {resamples}", resources.bootstrap_bytes(resamples, horizons, runs))


def cmd_sweep_horizon(args) -> None:
    from .. import points, provenance, schemas, storage, sweeps
    from ..tables import sweeps as tables

    check_confidence(args.confidence)
    frame, sources, _ = points.read_points(args.points)
    check_bootstrap_memory(args.resamples, frame)
    prov = provenance.record(
        table="sweep-horizon", points=sources, resamples=args.resamples, confidence=args.confidence, seed=args.seed
    )
    storage.write_frame(sweeps.horizon_table(frame), schemas.HORIZON_SCHEMA, args.table, prov)
    exponents = sweeps.exponent_table(frame, args.resamples, args.confidence, args.seed)
    storage.write_frame(exponents, schemas.EXPONENT_SCHEMA, args.exponents, {**prov, "table": "sweep-exponents"})
    storage.write_text(args.markdown, tables.exponent_markdown(exponents))
    storage.write_text(args.html, tables.exponent_html(exponents))


def cmd_sweep_actions(args) -> None:
    from .. import points, provenance, schemas, storage, sweeps
    from ..tables import sweeps as tables

    frame, sources, _ = points.read_points(args.points)
    table = sweeps.actions_table(frame, args.c_alpha)
    prov = provenance.record(table="sweep-actions", points=sources, c_alpha=args.c_alpha)
    storage.write_frame(table, schemas.ACTIONS_SCHEMA, args.table, prov)
    storage.write_text(args.markdown, tables.actions_markdown(table))
    storage.write_text(args.html, tables.actions_html(table))


def cmd_field_table(args) -> None:
    from .. import field, points, provenance, schemas, storage
    from ..tables.field import field_markdown

    frame, sources, simulated = points.read_points(args.points)
    records = [(path, storage.read_scenario(path)) for path in args.scenario_file]
    regrets = field.scenario_regrets(records, simulated)
    curves = field.curves_table(frame, regrets)
    table = field.final_table(curves, list(regrets))
    prov = provenance.record(table="field-curves", points=sources, scenarios=list(regrets))
    markdown = field_markdown(table)  # before any write: all or nothing
    storage.write_frame(curves, schemas.FIELD_CURVES_SCHEMA, args.curves, prov)
    storage.write_frame(table, schemas.FIELD_TABLE_SCHEMA, args.table, {**prov, "table": "field-table"})
    storage.write_text(args.markdown, markdown)


def cmd_asymptotics_table(args) -> None:
    from .. import asymptotics, points, provenance, schemas, storage
    from ..tables.asymptotics import asymptotics_markdown

    check_confidence(args.confidence)
    check_range("near", args.near, "--near")
    frame, sources, records = points.read_points(args.points)
    points.check_together(args.points, records, c_alpha=args.c_alpha)
    check_bootstrap_memory(args.resamples, frame)
    exponents, local = asymptotics.long_horizon_tables(
        frame, args.resamples, args.confidence, args.seed, args.c_alpha, args.near
    )
    markdown = asymptotics_markdown(exponents, local)  # before any write: all or nothing
    fields = dict(
        points=sources,
        resamples=args.resamples,
        confidence=args.confidence,
        seed=args.seed,
        c_alpha=args.c_alpha,
        near=args.near,
    )
    local_prov = provenance.record(table="asymptotics-local", **fields)
    storage.write_frame(local, schemas.ASYMPTOTIC_LOCAL_SCHEMA, args.local, local_prov)
    exponents_prov = provenance.record(table="asymptotics-exponents", **fields)
    storage.write_frame(exponents, schemas.ASYMPTOTIC_EXPONENT_SCHEMA, args.exponents, exponents_prov)
    storage.write_text(args.markdown, markdown)


def add_bootstrap_args(p, section: str) -> None:
    """The point files and the bootstrap's options; ``section`` is the config section the workflow takes
    them from (``sweeps``, ``asymptotics``)."""
    p.add_argument("points", nargs="+", help="point files (duelbandits sweep-point)")
    p.add_argument(
        "--resamples", type=positive_int, required=True, help=f"bootstrap resamples (config `{section}/bootstrap`)"
    )
    p.add_argument("--confidence", type=float, required=True, help=f"CI level (config `{section}/confidence`)")
    p.add_argument("--seed", type=seed, required=True, help="base seed of the bootstrap (config `seed`)")


def add_commands(sub) -> None:
    p = sub.add_parser("sweep-horizon", help="horizon-sweep points -> R_T table, fitted exponents with bootstrap CIs")
    add_bootstrap_args(p, "sweeps")
    p.add_argument("--table", required=True, help="output: R_t mean/std per horizon (.parquet)")
    p.add_argument("--exponents", required=True, help="output: fitted exponents (.parquet)")
    p.add_argument("--markdown", required=True, help="output: exponents table (.md)")
    p.add_argument("--html", required=True, help="output: exponents table (.html)")
    p.set_defaults(func=cmd_sweep_horizon, outputs=("table", "exponents", "markdown", "html"))

    p = sub.add_parser("sweep-actions", help="action-count sweep points -> R_T and R_T / bound per A")
    p.add_argument("points", nargs="+", help="point files (duelbandits sweep-point)")
    add_c_alpha(p, "Theorem 4.2")
    p.add_argument("--table", required=True, help="output .parquet")
    p.add_argument("--markdown", required=True, help="output .md")
    p.add_argument("--html", required=True, help="output .html")
    p.set_defaults(func=cmd_sweep_actions, outputs=("table", "markdown", "html"))

    p = sub.add_parser("field-table", help="field point files -> mean regret curves, final regret table with ranks")
    p.add_argument("points", nargs="+", help="point files (sweep-point) of every field scenario and algorithm")
    p.add_argument(
        "--scenario-file", action="append", required=True, help="scenario JSON file (duelbandits scenario), in order"
    )
    p.add_argument("--curves", required=True, help="output: mean and std of R_t per grid step (.parquet)")
    p.add_argument("--table", required=True, help="output: final regret and rank (.parquet)")
    p.add_argument("--markdown", required=True, help="output: the table (.md)")
    p.set_defaults(func=cmd_field_table, outputs=("curves", "table", "markdown"))

    p = sub.add_parser(
        "asymptotics-table",
        help="long-horizon points -> local exponents with bootstrap CIs, verdicts, R_T / bound (Parquet, Markdown)",
    )
    add_bootstrap_args(p, "asymptotics")
    add_c_alpha(p, "Theorem 4.2's bound")
    p.add_argument(
        "--near",
        type=non_negative_float,
        required=True,
        help="verdict 'converging': the last interval's low end at most NEAR above the theorem exponent "
        "(config `asymptotics/near`)",
    )
    p.add_argument("--exponents", required=True, help="output: one row per (scenario, algorithm, regret) (.parquet)")
    p.add_argument("--local", required=True, help="output: R_T, R_T / bound and local exponent per horizon (.parquet)")
    p.add_argument("--markdown", required=True, help="output: the readable table (.md)")
    p.set_defaults(func=cmd_asymptotics_table, outputs=("exponents", "local", "markdown"))
