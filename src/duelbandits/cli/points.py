"""``asymptotics-table``: the long horizons' point files (``sweep-point``) into their tables."""

from __future__ import annotations

from .args import add_bootstrap_args, add_c_alpha, check_confidence, check_range, non_negative_float


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
