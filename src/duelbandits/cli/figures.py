"""Commands that draw figures (PDF and PNG; each carries the digest of the data it was drawn
from): ``figure main`` and ``figure appendix`` (the paper's). Each loads only the plotting module it draws with.

``figure main`` draws several panels, and ``figure appendix`` several algorithms' figures (or
panels), in one call: one process, one start and one import for all of them. Their ``--out`` are
then path templates, ``{algorithm}`` and ``{panel}`` replaced per figure (:func:`figure_outputs`).
"""

from __future__ import annotations

import argparse
import gc
import itertools
import string
from contextlib import contextmanager
from pathlib import Path

from .args import UsageError, add_c_alpha, scenario_rows

PLACEHOLDERS = {"algorithm": "--algorithm", "panel": "--panel"}
"""The placeholders of an ``--out`` template, and the option whose values replace each."""


def _placeholders(template: str, allowed) -> set[str]:
    """The placeholders of the ``--out`` template ``template``; UsageError for one not in ``allowed``."""
    try:
        parts = list(string.Formatter().parse(template))
    except ValueError as err:
        raise UsageError(f"--out {template}: not a path template ({err}; a literal brace is {{{{ or }}}})") from None
    names = set()
    for _, name, spec, conversion in parts:
        if name is None:
            continue
        if name not in allowed or spec or conversion:
            shown = "{" + name + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "") + "}"
            known = ", ".join("{" + key + "}" for key in allowed) or "none"
            raise UsageError(f"--out {template}: unknown placeholder {shown} (allowed: {known})")
        names.add(name)
    return names


def figure_outputs(templates, **choices) -> dict[tuple, list[str]]:
    """``{(value, ...): [path, ...]}``: the files of each figure a call draws, in drawing order: one
    figure per combination of the values ``choices`` gives each placeholder (None: its option not
    given). UsageError, before anything is drawn, for a template or value that would make two
    figures write one path or leave a placeholder unfilled.
    """
    for key, values in choices.items():
        for value in values or ():
            if values.count(value) > 1:
                raise UsageError(f"{PLACEHOLDERS[key]} {value} is given twice")
    for template in templates:
        names = _placeholders(template, list(choices))
        for key, values in choices.items():
            if values is None and key in names:
                raise UsageError(f"--out {template}: {{{key}}} needs {PLACEHOLDERS[key]}")
            if values is not None and len(values) > 1 and key not in names:
                raise UsageError(
                    f"--out {template}: {len(values)} values of {PLACEHOLDERS[key]} ({', '.join(values)}) "
                    f"need {{{key}}} in every --out template"
                )
    figures, owner = {}, {}
    for combo in itertools.product(*(values or [None] for values in choices.values())):
        values = {key: value for key, value in zip(choices, combo) if value is not None}
        figures[combo] = [template.format(**values) for template in templates]
        for path in figures[combo]:
            if owner.setdefault(path, combo) != combo:
                raise UsageError(f"--out: {path} would be written by two figures")
    return figures


def _choices(args) -> dict:
    """The values of the placeholders of ``args``'s command: ``{"panel": [...] or None, ...}``."""
    return {key: getattr(args, key) for key in PLACEHOLDERS if hasattr(args, key)}


class FigureParser(argparse.ArgumentParser):
    """The parser of ``figure main`` and ``figure appendix``: sets ``out_files``, the files the ``--out``
    templates name (the outputs the command line checks; a bad template stays as given, for the command
    to name)."""

    def parse_known_args(self, args=None, namespace=None):
        namespace, extras = super().parse_known_args(args, namespace)
        if getattr(namespace, "out", None) is not None:
            try:
                figures = figure_outputs(namespace.out, **_choices(namespace))
                namespace.out_files = [path for paths in figures.values() for path in paths]
            except UsageError:
                namespace.out_files = list(namespace.out)
        return namespace, extras


@contextmanager
def removed_on_failure(figures: dict):
    """Run the ``with`` block, which draws ``figures`` (:func:`figure_outputs`); if it fails, remove the
    files of ``figures`` that it wrote, so that a failed call leaves none of its figures behind."""
    paths = [path for paths in figures.values() for path in paths]
    before = {path: _stamp(path) for path in paths}
    try:
        yield
    except BaseException:
        for path in paths:
            if _stamp(path) != before[path]:
                Path(path).unlink(missing_ok=True)
        raise


def _stamp(path):
    """What tells whether ``path`` was written since: its inode, mtime and size (None if absent)."""
    try:
        stat = Path(path).stat()
    except OSError:
        return None
    return (stat.st_ino, stat.st_mtime_ns, stat.st_size)


def cmd_figure_main(args) -> None:
    from .. import digests, provenance, storage
    from ..plotting import main, style

    figures = figure_outputs(args.out, panel=args.panel)
    style.check_figure_paths(path for paths in figures.values() for path in paths)
    record = storage.read_scenario(args.scenario_file)
    provenance.check_scenario(args.summary, storage.read_provenance(args.summary, table="summary"), record)
    summary = scenario_rows(args.summary, record["name"], "summary")
    contents = digests.input_contents({"scenario": args.scenario_file, "summary": args.summary})
    with removed_on_failure(figures):
        for (panel,), outputs in figures.items():
            panel_arg = {} if panel is None else {"panel": panel}
            digest = digests.figure_digest(contents, figure="main", **panel_arg)
            if panel is None:
                main.main_figure(record, summary, outputs, c_alpha=args.c_alpha, data_digest=digest)
            else:
                main.main_panel(record, summary, panel, outputs, c_alpha=args.c_alpha, data_digest=digest)


def cmd_figure_appendix(args) -> None:
    from .. import algorithms, digests, provenance, storage
    from ..plotting import appendix, style

    figures = figure_outputs(args.out, algorithm=args.algorithm, panel=args.panel)
    for slug in args.algorithm:
        letters = style.appendix_panel_letters(algorithms.get(slug).strategies)
        for panel in args.panel or ():
            if panel not in letters:
                raise UsageError(
                    f"--panel: the appendix figure of {slug} has panels {', '.join(letters)}, not {panel!r}"
                )
    style.check_figure_paths(path for paths in figures.values() for path in paths)
    record = storage.read_scenario(args.scenario_file) if args.scenario_file else None
    expected = {"scenario": args.scenario}
    if record is not None:
        expected["matrix_sha256"] = provenance.matrix_sha256(record["matrix"])
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
                    outputs = figures[(slug, panel)]
                    panel_arg = {} if panel is None else {"panel": panel}
                    digest = digests.figure_digest(
                        contents, figure="appendix", scenario=args.scenario, algorithm=slug, **panel_arg
                    )
                    draw = dict(outputs=outputs, scenario=record, data_digest=digest)
                    if panel is None:
                        appendix.appendix_figure(args.scenario, slug, traces, strategies, **draw)
                    else:
                        appendix.appendix_panel(args.scenario, slug, traces, strategies, panel=panel, **draw)
                del traces, strategies
                gc.collect()  # a drawn Figure is a reference cycle that holds its arrays: free them now
    finally:
        gc.unfreeze()  # a caller in the same process (the tests) gets its collector back


def add_panels_and_outputs(parser, letters: str, panel_help: str, template_help: str) -> None:
    """The ``--panel`` and ``--out`` options of ``figure main`` and ``figure appendix``."""
    parser.add_argument("--panel", nargs="+", action="extend", choices=list(letters), help=panel_help)
    parser.add_argument("--out", nargs="+", required=True, help=f"output files (.pdf, .png); {template_help}")


def add_commands(sub) -> None:
    p = sub.add_parser("figure", help="render a figure (PDF and PNG): main or appendix")
    fsub = p.add_subparsers(dest="kind", required=True, metavar="KIND", parser_class=FigureParser)
    f = fsub.add_parser("main", help="a main-text figure (Figures 1, 2): utilities, matrix, regrets, bounds")
    f.add_argument("--scenario-file", required=True, help="scenario JSON from 'duelbandits scenario'")
    f.add_argument("--summary", required=True, help="results/summary.parquet")
    add_c_alpha(f, "Theorem 4.2's requirement, for notes")
    add_panels_and_outputs(
        f,
        "abcd",
        "draw these panels alone, each at its width in the paper (one process for all)",
        "with several --panel, path templates in which {panel} is replaced by each panel's letter, "
        "e.g. 'figures/panels/main-borda/{panel}.pdf'",
    )
    f.set_defaults(func=cmd_figure_main, outputs=("out_files",))
    f = fsub.add_parser("appendix", help="appendix figures: every run, I_t, J_t, strategies")
    f.add_argument("--scenario", required=True, help="scenario name")
    f.add_argument(
        "--algorithm",
        nargs="+",
        action="extend",
        required=True,
        help="algorithm slug; several (or the option repeated) draw each one's figure in one process",
    )
    f.add_argument("--traces", required=True, help="the scenario's traces Parquet")
    f.add_argument("--strategies", required=True, help="the scenario's strategies Parquet")
    f.add_argument("--scenario-file", help="scenario JSON (marks the winner)")
    add_panels_and_outputs(
        f,
        "abcde",
        "draw these panels alone, each at its width in the paper (a-c; d, e where the algorithm has strategies)",
        "with several --algorithm or --panel, path templates in which {algorithm} and {panel} are replaced "
        "by each figure's, e.g. 'figures/appendix/borda-{algorithm}.pdf'",
    )
    f.set_defaults(func=cmd_figure_appendix, outputs=("out_files",))
