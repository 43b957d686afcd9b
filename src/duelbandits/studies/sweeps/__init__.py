"""The sweeps (target ``sweeps``; docs/beyond-the-paper.md, "The sweeps"): R_T over horizons with the
fitted exponents, and over the number of actions against the theorem bounds. The commands are here,
the tables in :mod:`.analysis`, the figures in :mod:`.figure`, each loaded by the command that uses it."""

from __future__ import annotations

from ...cli.args import UsageError, add_bootstrap_args, add_c_alpha, check_confidence


def cmd_sweep_horizon(args) -> None:
    """Both tables computed before either is written: a failure leaves no partial set of files."""
    from ... import points, provenance, resources, schemas, storage
    from . import analysis

    check_confidence(args.confidence)
    frame, sources, _ = points.read_points(args.points)
    resources.check_bootstrap_memory(args.resamples, frame)
    prov = provenance.record(
        table="sweep-horizon", points=sources, resamples=args.resamples, confidence=args.confidence, seed=args.seed
    )
    horizons = analysis.horizon_table(frame)
    exponents = analysis.exponent_table(frame, args.resamples, args.confidence, args.seed)
    storage.write_frame(horizons, schemas.HORIZON_SCHEMA, args.table, prov)
    storage.write_frame(exponents, schemas.EXPONENT_SCHEMA, args.exponents, {**prov, "table": "sweep-exponents"})
    page = analysis.exponent_page(exponents)
    storage.write_text(args.markdown, page.markdown())
    storage.write_text(args.html, page.html())


def cmd_sweep_actions(args) -> None:
    from ... import points, provenance, schemas, storage
    from . import analysis

    frame, sources, _ = points.read_points(args.points)
    table = analysis.actions_table(frame, args.c_alpha)
    prov = provenance.record(table="sweep-actions", points=sources, c_alpha=args.c_alpha)
    storage.write_frame(table, schemas.ACTIONS_SCHEMA, args.table, prov)
    page = analysis.actions_page(table)
    storage.write_text(args.markdown, page.markdown())
    storage.write_text(args.html, page.html())


def cmd_sweep_figure(args) -> None:
    from .. import scenario_figure
    from . import figure

    if args.kind == "actions":
        scenario_figure(args, "sweep-actions", figure.actions_sweep_figure, table="sweep-actions")
    elif args.exponents is None:
        raise UsageError("sweep-figure horizon needs --exponents")
    else:
        tables = {"table": "sweep-horizon", "exponents": "sweep-exponents"}
        scenario_figure(args, "sweep-horizon", figure.horizon_sweep_figure, **tables)


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

    p = sub.add_parser("sweep-figure", help="render a sweep figure (PDF and PNG)")
    p.add_argument("kind", choices=["horizon", "actions"])
    p.add_argument("--scenario", required=True)
    p.add_argument("--table", required=True, help="results/sweeps/{horizon,actions}.parquet")
    p.add_argument("--exponents", help="horizon: results/sweeps/exponents.parquet")
    p.add_argument("--out", nargs="+", required=True, help="output files (.pdf, .png)")
    p.set_defaults(func=cmd_sweep_figure, outputs=("out",))
