"""Commands that draw figures (PDF and PNG; each carries the digest of the data it was drawn
from): ``figure main`` and ``figure appendix`` (the paper's), ``sweep-figure``, ``field-figure``
and ``asymptotics-figure`` (beyond the paper). Each loads only the plotting module it draws with."""

from __future__ import annotations

from pathlib import Path

from .args import UsageError, positive_float


def check_figure_paths(paths) -> None:
    """UsageError unless every output is a format the figures are saved in."""
    from ..plotting.style import METADATA

    for path in paths:
        if Path(path).suffix.lower().lstrip(".") not in METADATA:
            raise UsageError(f"--out {path}: a figure is saved as .pdf, .png or .svg")


def scenario_rows(path, scenario: str, **expected):
    """The rows of ``scenario`` in the checked Parquet file ``path``; UsageError if there are none."""
    from .. import storage

    frame = storage.read_frame(path, filters=[("scenario", "=", scenario)], **expected)
    if frame.empty:
        raise UsageError(f"{path} has no rows for scenario {scenario!r}")
    return frame


def cmd_figure_main(args) -> None:
    from .. import manifest, provenance, storage
    from ..plotting import main

    check_figure_paths(args.out)
    record = storage.read_scenario(args.scenario_file)
    provenance.check_scenario(args.summary, storage.read_provenance(args.summary, table="summary"), record)
    summary = storage.read_table(args.summary, filters=[("scenario", "=", record["name"])]).to_pandas()
    inputs = {"scenario": args.scenario_file, "summary": args.summary}
    panel = {} if args.panel is None else {"panel": args.panel}
    digest = manifest.data_digest(inputs, ledger=args.ledger, figure="main", **panel)
    if args.panel is None:
        main.main_figure(record, summary, args.out, c_alpha=args.c_alpha, data_digest=digest)
    else:
        main.main_panel(record, summary, args.panel, args.out, c_alpha=args.c_alpha, data_digest=digest)


def cmd_figure_appendix(args) -> None:
    from .. import algorithms, manifest, provenance, storage
    from ..plotting import appendix, style

    check_figure_paths(args.out)
    players = algorithms.get(args.algorithm).strategies
    if args.panel is not None and args.panel not in style.appendix_panel_letters(players):
        letters = ", ".join(style.appendix_panel_letters(players))
        raise UsageError(f"--panel: the appendix figure of {args.algorithm} has panels {letters}, not {args.panel!r}")
    record = storage.read_scenario(args.scenario_file) if args.scenario_file else None
    expected = {"scenario": args.scenario, "algorithms": args.algorithm}
    if record is not None:
        expected["matrix_sha256"] = provenance.matrix_sha256(record["matrix"])
    mine = [("algorithm", "=", args.algorithm)]
    columns = list(appendix.TRACE_COLUMNS)  # only what the figure draws: the traces have 24 million rows
    traces = storage.read_frame(args.traces, columns=columns, filters=mine, table="traces", **expected)
    strategies = storage.read_frame(args.strategies, filters=mine, table="strategies", **expected)
    inputs = {"scenario": args.scenario_file, "traces": args.traces, "strategies": args.strategies}
    panel = {} if args.panel is None else {"panel": args.panel}
    digest = manifest.data_digest(
        inputs, ledger=args.ledger, figure="appendix", scenario=args.scenario, algorithm=args.algorithm, **panel
    )
    draw_args = dict(outputs=args.out, scenario=record, data_digest=digest)
    strategies = strategies if len(strategies) else None
    if args.panel is None:
        appendix.appendix_figure(args.scenario, args.algorithm, traces, strategies, **draw_args)
    else:
        appendix.appendix_panel(args.scenario, args.algorithm, traces, strategies, panel=args.panel, **draw_args)


def cmd_sweep_figure(args) -> None:
    from .. import manifest, storage
    from ..plotting import sweeps

    check_figure_paths(args.out)
    if args.kind == "horizon" and args.exponents is None:
        raise UsageError("sweep-figure horizon needs --exponents")
    if args.exponents is not None:
        storage.read_provenance(args.exponents, table="sweep-exponents")
    table = scenario_rows(args.table, args.scenario, table=f"sweep-{args.kind}")
    if args.kind == "horizon":
        exponents = storage.read_table(args.exponents, filters=[("scenario", "=", args.scenario)]).to_pandas()
        digest = manifest.data_digest(
            {"table": args.table, "exponents": args.exponents},
            ledger=args.ledger,
            figure="sweep-horizon",
            scenario=args.scenario,
        )
        sweeps.horizon_sweep_figure(args.scenario, table, exponents, args.out, data_digest=digest)
    else:
        digest = manifest.data_digest(
            {"table": args.table}, ledger=args.ledger, figure="sweep-actions", scenario=args.scenario
        )
        sweeps.actions_sweep_figure(args.scenario, table, args.out, data_digest=digest)


def cmd_field_figure(args) -> None:
    from .. import manifest
    from ..plotting import field

    check_figure_paths(args.out)
    curves = scenario_rows(args.curves, args.scenario, table="field-curves")
    digest = manifest.data_digest({"curves": args.curves}, ledger=args.ledger, figure="field", scenario=args.scenario)
    field.field_figure(args.scenario, curves, args.out, data_digest=digest)


def cmd_asymptotics_figure(args) -> None:
    from .. import manifest, storage
    from ..plotting.asymptotics import asymptotics_figure

    check_figure_paths(args.out)
    local_prov = storage.read_provenance(args.local, table="asymptotics-local")
    exponents_prov = storage.read_provenance(args.exponents, table="asymptotics-exponents")
    made = ("points", "resamples", "confidence", "seed", "c_alpha", "near")
    if any(local_prov.get(key) != exponents_prov.get(key) for key in made):
        raise UsageError(f"{args.local} and {args.exponents} were not made by the same asymptotics-table call")
    local = scenario_rows(args.local, args.scenario)
    exponents = storage.read_table(args.exponents, filters=[("scenario", "=", args.scenario)]).to_pandas()
    digest = manifest.data_digest(
        {"local": args.local, "exponents": args.exponents},
        ledger=args.ledger,
        figure="asymptotics",
        scenario=args.scenario,
    )
    asymptotics_figure(args.scenario, local, exponents, args.out, data_digest=digest)


def add_commands(sub) -> None:
    p = sub.add_parser("figure", help="render a figure (PDF and PNG): main or appendix")
    fsub = p.add_subparsers(dest="kind", required=True, metavar="KIND")
    f = fsub.add_parser("main", help="a main-text figure (Figures 1, 2): utilities, matrix, regrets, bounds")
    f.add_argument("--scenario-file", required=True, help="scenario JSON from 'duelbandits scenario'")
    f.add_argument("--summary", required=True, help="results/summary.parquet")
    f.add_argument(
        "--c-alpha", type=positive_float, default=1.0, help="TS-Borda's c (Theorem 4.2's requirement, for notes)"
    )
    f.add_argument("--panel", choices=list("abcd"), help="draw this panel alone, at its width in the paper")
    f.add_argument("--out", nargs="+", required=True, help="output files (.pdf, .png)")
    f.set_defaults(func=cmd_figure_main, outputs=("out",))
    f = fsub.add_parser("appendix", help="an appendix figure: every run, I_t, J_t, strategies")
    f.add_argument("--scenario", required=True, help="scenario name")
    f.add_argument("--algorithm", required=True, help="algorithm slug")
    f.add_argument("--traces", required=True, help="the scenario's traces Parquet")
    f.add_argument("--strategies", required=True, help="the scenario's strategies Parquet")
    f.add_argument("--scenario-file", help="scenario JSON (marks the winner)")
    f.add_argument(
        "--panel",
        choices=list("abcde"),
        help="draw this panel alone, at its width in the paper (a-c; d, e where the algorithm has strategies)",
    )
    f.add_argument("--out", nargs="+", required=True, help="output files (.pdf, .png)")
    f.set_defaults(func=cmd_figure_appendix, outputs=("out",))

    p = sub.add_parser("sweep-figure", help="render a sweep figure (PDF and PNG)")
    p.add_argument("kind", choices=["horizon", "actions"])
    p.add_argument("--scenario", required=True)
    p.add_argument("--table", required=True, help="results/sweeps/{horizon,actions}.parquet")
    p.add_argument("--exponents", help="horizon: results/sweeps/exponents.parquet")
    p.add_argument("--out", nargs="+", required=True, help="output files (.pdf, .png)")
    p.set_defaults(func=cmd_sweep_figure, outputs=("out",))

    p = sub.add_parser("field-figure", help="render a scenario's field figure (PDF and PNG)")
    p.add_argument("--scenario", required=True)
    p.add_argument("--curves", required=True, help="results/field/curves.parquet")
    p.add_argument("--out", nargs="+", required=True, help="output files (.pdf, .png)")
    p.set_defaults(func=cmd_field_figure, outputs=("out",))

    p = sub.add_parser("asymptotics-figure", help="render a long-horizon figure (local exponents against T)")
    p.add_argument("--scenario", required=True)
    p.add_argument("--local", required=True, help="results/asymptotics/local.parquet")
    p.add_argument("--exponents", required=True, help="results/asymptotics/exponents.parquet")
    p.add_argument("--out", nargs="+", required=True, help="output files (.pdf, .png)")
    p.set_defaults(func=cmd_asymptotics_figure, outputs=("out",))
