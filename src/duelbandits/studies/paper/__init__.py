"""The paper's study (the default target, `panels` and `paper`): its commands ``aggregate``, ``bounds``,
``summary``, ``table``, ``figure main|appendix`` and ``latex figures|build``; the analysis is in
:mod:`.analysis`, the table in :mod:`.table`, the figures in :mod:`.main`, :mod:`.appendix` and
:mod:`.batches`, the LaTeX in :mod:`.latex`, each loaded by the command that uses it."""

from __future__ import annotations

import gc
import sys
from pathlib import Path

from ...cli.args import UsageError, actions, add_c_alpha, positive_int, scenario_rows


def cmd_aggregate(args) -> None:
    import numpy as np

    from ... import algorithms, provenance, resources, storage
    from .analysis import aggregate_scenario

    record = storage.read_scenario(args.scenario_file)
    chunks: dict[str, list[str]] = {}
    for item in args.chunk:
        slug, sep, path = item.partition("=")
        if not sep:
            raise UsageError(f"--chunk must look like ALGORITHM=PATH, got {item!r}")
        algorithms.get(slug)
        chunks.setdefault(slug, []).append(path)
    size = len(record["matrix"])
    resources.check_memory(
        f"--horizon {args.horizon} x --runs {args.runs} at A = {size}",
        resources.aggregate_bytes(args.runs, args.horizon, size),
    )
    matrix_sha = provenance.matrix_sha256(record["matrix"])
    made = dict(horizon=args.horizon, matrix_sha256=matrix_sha, seed=record.get("seed"))
    sources = {}
    for slug, paths in chunks.items():
        for path in paths:
            expected = dict(table="runs", scenario=record["name"], algorithm=slug, **made)
            prov = storage.read_provenance(path, {"config_sha256": str}, **expected)
            sources.setdefault(slug, []).append(prov["config_sha256"])
    outputs = {"traces": args.traces, "strategies": args.strategies, "summary": args.summary}
    fields = dict(actions=size, scenario=record["name"], algorithms=list(chunks), runs=args.runs, **made)
    fields |= dict(points=args.points, chunks=sources)
    tables = {"traces": "traces", "strategies": "strategies", "summary": "scenario-summary"}
    prov = {name: provenance.record(table=tables[name], **fields) for name in outputs}
    aggregate_scenario(
        record["name"], np.array(record["matrix"]), chunks, args.horizon, args.runs, outputs, points=args.points,
        provenance=prov,
    )  # fmt: skip


def cmd_bounds(args) -> None:
    import warnings

    from ... import algorithms, provenance, schemas, storage
    from .analysis import bounds_table

    for slug in args.algorithms:
        algorithms.get(slug)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        df = bounds_table(args.algorithms, args.actions, args.horizon, args.points, args.c_alpha)
    for w in caught:
        print(f"warning: {w.message}", file=sys.stderr)
    keys = ("algorithms", "actions", "horizon", "points", "c_alpha")
    prov = provenance.record(table="bounds", **{key: getattr(args, key) for key in keys})
    storage.write_frame(df, schemas.BOUND_SCHEMA, args.out, prov)


def cmd_summary(args) -> None:
    from ... import provenance, schemas, storage
    from .analysis import join_summary

    needed = {"horizon": int, "actions": int, "config_sha256": str}
    bounds_prov = storage.read_provenance(args.bounds, table="bounds", fields=needed)
    matrices, slugs = {}, []
    for path in args.summaries:
        used = {"algorithms": list, "scenario": str, "matrix_sha256": str}
        same = {key: bounds_prov[key] for key in ("horizon", "actions")}
        prov = storage.read_provenance(path, used, table="scenario-summary", **same)
        if prov["scenario"] in matrices:
            raise UsageError(f"{path}: a second summary of scenario {prov['scenario']!r}; give one per scenario")
        matrices[prov["scenario"]] = prov["matrix_sha256"]
        slugs += [a for a in prov["algorithms"] if a not in slugs]
    summaries = [storage.read_frame(p, "scenario-summary") for p in args.summaries]
    df = join_summary(summaries, storage.read_frame(args.bounds, "bounds"))
    made = dict(scenarios=list(matrices), algorithms=slugs, horizon=bounds_prov["horizon"], matrix_sha256=matrices)
    prov = provenance.record(table="summary", **made, bounds=bounds_prov["config_sha256"])
    storage.write_frame(df, schemas.SUMMARY_SCHEMA, args.out, prov)


def cmd_table(args) -> None:
    from ... import storage
    from . import table as tables

    page = tables.final_regret_page(tables.final_regret_table(storage.read_frame(args.summary, "summary")))
    storage.write_text(args.markdown, page.markdown())
    if args.html:
        storage.write_text(args.html, page.html())


def cmd_figure_main(args) -> None:
    from ... import digests, provenance, storage
    from ...plotting import style
    from . import main
    from .batches import figure_outputs, removed_on_failure

    figures = figure_outputs(args.out, panel=args.panel)
    style.check_figure_paths(path for paths in figures.values() for path in paths)
    record = storage.read_scenario(args.scenario_file)
    provenance.check_scenario(args.summary, storage.read_provenance(args.summary, table="summary"), record)
    summary = scenario_rows(args.summary, record["name"], "summary")
    contents = digests.input_contents({"scenario": args.scenario_file, "summary": args.summary})
    with removed_on_failure(figures):
        for (panel,), outputs in figures.items():
            by_panel = {} if panel is None else {"panel": panel}
            digest = digests.figure_digest(contents, figure="main", **by_panel)
            draw = main.main_figure if panel is None else main.main_panel
            draw(record, summary, outputs=outputs, c_alpha=args.c_alpha, data_digest=digest, **by_panel)


def cmd_figure_appendix(args) -> None:
    from ... import algorithms, digests, provenance, storage
    from ...plotting import style
    from . import appendix
    from .batches import figure_outputs, removed_on_failure

    figures = figure_outputs(args.out, algorithm=args.algorithm, panel=args.panel)
    for slug in args.algorithm:
        letters = style.appendix_panel_letters(algorithms.get(slug).strategies)
        for panel in args.panel or ():
            if panel not in letters:
                raise UsageError(
                    f"--panel: the appendix figure of {slug} has panels {', '.join(letters)}, not {panel!r}"
                )
    style.check_figure_paths(path for paths in figures.values() for path in paths)
    record = storage.read_scenario(args.scenario_file)
    expected = dict(scenario=record["name"], matrix_sha256=provenance.matrix_sha256(record["matrix"]))
    made = {  # every input checked, for every algorithm, before the first figure is drawn
        path: storage.read_provenance(path, table=table, **expected)
        for path, table in ((args.traces, "traces"), (args.strategies, "strategies"))
    }
    for slug in args.algorithm:
        for path, prov in made.items():
            provenance.check(path, prov, algorithms=slug)
    inputs = {"scenario": args.scenario_file, "traces": args.traces, "strategies": args.strategies}
    contents = digests.input_contents(inputs)
    columns = list(appendix.TRACE_COLUMNS)  # only what the figures draw: the traces have 24 million rows
    gc.freeze()  # what the job holds now (modules, fonts) lives to its end: the collections below skip it
    try:
        with removed_on_failure(figures):
            for slug in args.algorithm:
                # One algorithm's rows at a time: the file is written algorithm by algorithm, so each of
                # its row groups is read once, and only one algorithm's traces are held.
                mine = [("algorithm", "=", slug)]
                traces = storage.read_frame(args.traces, "traces", columns=columns, filters=mine)
                strategies = storage.read_frame(args.strategies, "strategies", filters=mine)
                strategies = strategies if len(strategies) else None
                for panel in args.panel or [None]:
                    by_panel = {} if panel is None else {"panel": panel}
                    figure = dict(scenario=record["name"], algorithm=slug, **by_panel)
                    digest = digests.figure_digest(contents, figure="appendix", **figure)
                    draw = appendix.appendix_figure if panel is None else appendix.appendix_panel
                    outputs = figures[(slug, panel)]
                    draw(record, slug, traces, strategies, outputs=outputs, data_digest=digest, **by_panel)
                del traces, strategies
                gc.collect()  # a drawn Figure is a reference cycle that holds its arrays: free them now
    finally:
        gc.unfreeze()  # a caller in the same process (the tests) gets its collector back


def add_panels_and_outputs(parser, letters: str, panel_help: str, template_help: str) -> None:
    """The ``--panel`` and ``--out`` options of ``figure main`` and ``figure appendix``."""
    parser.add_argument("--panel", nargs="+", action="extend", choices=list(letters), help=panel_help)
    parser.add_argument("--out", nargs="+", required=True, help=f"output files (.pdf, .png); {template_help}")


def cmd_latex_figures(args) -> None:
    from ... import provenance, storage
    from . import latex

    records = [storage.read_scenario(path) for path in args.scenario_file]
    names = [record["name"] for record in records]
    if len(set(names)) < len(names):
        raise UsageError(f"--scenario-file: a scenario given twice ({', '.join(names)})")
    prov = storage.read_provenance(args.summary, table="summary")
    for record in records:
        provenance.check_scenario(args.summary, prov, record)
    summary = storage.read_frame(args.summary, "summary")
    storage.write_text(args.out, latex.figures_tex(records, summary, c_alpha=args.c_alpha))


def cmd_latex_build(args) -> None:
    from . import latex

    if Path(args.out).suffix.lower() != ".pdf":
        raise UsageError(f"--out must name a .pdf file, got {args.out!r}")
    latex.build_pdf(args.document, args.out)


def add_commands(sub) -> None:
    from .batches import FigureParser  # here, not at the top: the other commands' triggers need none of it

    p = sub.add_parser("aggregate", help="one scenario's run chunks -> traces, strategies, summary")
    p.add_argument("--scenario-file", required=True, help="scenario JSON from 'duelbandits scenario'")
    p.add_argument("--chunk", action="append", required=True, metavar="ALGORITHM=PATH", help="a run chunk")
    p.add_argument("--horizon", type=positive_int, required=True)
    p.add_argument("--runs", type=positive_int, required=True, help="runs per algorithm")
    p.add_argument("--points", type=positive_int, required=True, help="summary steps (config `summary_points`)")
    p.add_argument("--traces", required=True)
    p.add_argument("--strategies", required=True)
    p.add_argument("--summary", required=True)
    p.set_defaults(func=cmd_aggregate, outputs=("traces", "strategies", "summary"))

    p = sub.add_parser("bounds", help="theorem bound curves as Parquet")
    p.add_argument("--algorithms", nargs="+", required=True)
    p.add_argument("--actions", type=actions, required=True)
    p.add_argument("--horizon", type=positive_int, required=True)
    p.add_argument("--points", type=positive_int, required=True, help="bound steps (config `summary_points`)")
    add_c_alpha(p, "Theorem 4.2")
    p.add_argument("--out", required=True)
    p.set_defaults(func=cmd_bounds, outputs=("out",))

    p = sub.add_parser("summary", help="join per-scenario summaries with the bounds")
    p.add_argument("summaries", nargs="+")
    p.add_argument("--bounds", required=True)
    p.add_argument("--out", required=True)
    p.set_defaults(func=cmd_summary, outputs=("out",))

    p = sub.add_parser("table", help="final regret per scenario and algorithm with the bound at T (Markdown, HTML)")
    p.add_argument("--summary", required=True, help="results/summary.parquet")
    p.add_argument("--markdown", required=True, help="output .md")
    p.add_argument("--html", help="output .html (the same table)")
    p.set_defaults(func=cmd_table, outputs=("markdown", "html"))

    p = sub.add_parser("figure", help="render a figure (PDF and PNG): main or appendix")
    fsub = p.add_subparsers(dest="kind", required=True, metavar="KIND", parser_class=FigureParser)
    f = fsub.add_parser("main", help="a main-text figure (Figures 1, 2): utilities, matrix, regrets, bounds")
    f.add_argument("--scenario-file", required=True, help="scenario JSON from 'duelbandits scenario'")
    f.add_argument("--summary", required=True, help="results/summary.parquet")
    add_c_alpha(f, "Theorem 4.2's requirement, for notes")
    alone = "draw these panels alone, each at its width in the paper (one process for all)"
    templates = "with several --panel, path templates in which {panel} is replaced by each panel's letter, "
    add_panels_and_outputs(f, "abcd", alone, templates + "e.g. 'figures/panels/main-borda/{panel}.pdf'")
    f.set_defaults(func=cmd_figure_main, outputs=("out_files",))
    f = fsub.add_parser("appendix", help="appendix figures: every run, I_t, J_t, strategies")
    f.add_argument("--scenario-file", required=True, help="scenario JSON from 'duelbandits scenario'")
    several = "algorithm slug; several (or the option repeated) draw each one's figure in one process"
    f.add_argument("--algorithm", nargs="+", action="extend", required=True, help=several)
    f.add_argument("--traces", required=True, help="the scenario's traces Parquet")
    f.add_argument("--strategies", required=True, help="the scenario's strategies Parquet")
    alone = "draw these panels alone, each at its width in the paper (a-c; d, e where the algorithm has strategies)"
    templates = "with several --algorithm or --panel, path templates in which {algorithm} and {panel} are replaced "
    templates += "by each figure's, e.g. 'figures/appendix/borda-{algorithm}.pdf'"
    add_panels_and_outputs(f, "abcde", alone, templates)
    f.set_defaults(func=cmd_figure_appendix, outputs=("out_files",))

    p = sub.add_parser("latex", help="the figures for a LaTeX paper: figures.tex, and its PDF")
    lsub = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    x = lsub.add_parser("figures", help="figure environments with captions, a subfigure per panel of figures/panels/")
    x.add_argument(
        "--scenario-file", action="append", required=True, help="a scenario JSON, once per scenario, in order"
    )
    x.add_argument("--summary", required=True, help="results/summary.parquet")
    add_c_alpha(x, "Theorem 4.2's requirement, for notes")
    x.add_argument("--out", required=True, help="output .tex file")
    x.set_defaults(func=cmd_latex_figures, outputs=("out",))
    x = lsub.add_parser("build", help="compile a LaTeX document with latexmk into a PDF, from the current folder")
    x.add_argument("document", help="the .tex document (workflow/latex/figures.tex)")
    x.add_argument("--out", required=True, help="output .pdf file")
    x.set_defaults(func=cmd_latex_build, outputs=("out",))
