"""Long horizons (target ``asymptotics``; docs/beyond-the-paper.md, "Long horizons"): the local exponents of
R_T with their bootstrap intervals, the verdicts against the theorems and R_T / bound. The commands are
here, the tables in :mod:`.analysis`, the figure in :mod:`.figure`, each loaded by the command that uses it."""

from __future__ import annotations

from ...cli.args import add_bootstrap_args, add_c_alpha, check_confidence, check_range, non_negative_float


def cmd_asymptotics_table(args) -> None:
    from ... import points, provenance, resources, schemas, storage
    from . import analysis

    check_confidence(args.confidence)
    check_range("near", args.near, "--near")
    frame, sources, records = points.read_points(args.points)
    points.check_together(args.points, records, c_alpha=args.c_alpha)
    resources.check_bootstrap_memory(args.resamples, frame)
    exponents, local = analysis.long_horizon_tables(
        frame, args.resamples, args.confidence, args.seed, args.c_alpha, args.near
    )
    markdown = analysis.asymptotics_page(exponents, local).markdown()  # before any write: all or nothing
    fields = {key: getattr(args, key) for key in ("resamples", "confidence", "seed", "c_alpha", "near")}
    fields["points"] = sources
    local_prov = provenance.record(table="asymptotics-local", **fields)
    storage.write_frame(local, schemas.ASYMPTOTIC_LOCAL_SCHEMA, args.local, local_prov)
    exponents_prov = provenance.record(table="asymptotics-exponents", **fields)
    storage.write_frame(exponents, schemas.ASYMPTOTIC_EXPONENT_SCHEMA, args.exponents, exponents_prov)
    storage.write_text(args.markdown, markdown)


def cmd_asymptotics_figure(args) -> None:
    from .. import scenario_figure
    from .figure import asymptotics_figure

    tables = {"local": "asymptotics-local", "exponents": "asymptotics-exponents"}
    scenario_figure(args, "asymptotics", asymptotics_figure, **tables)


def add_commands(sub) -> None:
    what = "long-horizon points -> local exponents with bootstrap CIs, verdicts, R_T / bound (Parquet, Markdown)"
    p = sub.add_parser("asymptotics-table", help=what)
    add_bootstrap_args(p, "asymptotics")
    add_c_alpha(p, "Theorem 4.2's bound")
    near = "verdict 'converging': the last interval's low end at most NEAR above the theorem exponent"
    p.add_argument("--near", type=non_negative_float, required=True, help=f"{near} (config `asymptotics/near`)")
    p.add_argument("--exponents", required=True, help="output: one row per (scenario, algorithm, regret) (.parquet)")
    p.add_argument("--local", required=True, help="output: R_T, R_T / bound and local exponent per horizon (.parquet)")
    p.add_argument("--markdown", required=True, help="output: the readable table (.md)")
    p.set_defaults(func=cmd_asymptotics_table, outputs=("exponents", "local", "markdown"))

    p = sub.add_parser("asymptotics-figure", help="render a long-horizon figure (local exponents against T)")
    p.add_argument("--scenario", required=True)
    p.add_argument("--local", required=True, help="results/asymptotics/local.parquet")
    p.add_argument("--exponents", required=True, help="results/asymptotics/exponents.parquet")
    p.add_argument("--out", nargs="+", required=True, help="output files (.pdf, .png)")
    p.set_defaults(func=cmd_asymptotics_figure, outputs=("out",))
