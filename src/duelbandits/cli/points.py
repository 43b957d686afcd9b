"""Commands that turn point files into the tables of the targets beyond the paper:
``field-table`` (field) and ``asymptotics-table`` (asymptotics). The points themselves come from ``sweep-point``."""

from __future__ import annotations

from .args import add_bootstrap_args, add_c_alpha, check_confidence, check_range, non_negative_float


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
    from .. import asymptotics, points, provenance, resources, schemas, storage
    from ..tables.asymptotics import asymptotics_markdown

    check_confidence(args.confidence)
    check_range("near", args.near, "--near")
    frame, sources, records = points.read_points(args.points)
    points.check_together(args.points, records, c_alpha=args.c_alpha)
    resources.check_bootstrap_memory(args.resamples, frame)
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


def add_commands(sub) -> None:
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
