"""Commands of the figures for a LaTeX paper: ``latex figures`` (figures/figures.tex: one
subfigure per panel, with captions) and ``latex build`` (its PDF, with latexmk)."""

from __future__ import annotations

from pathlib import Path

from .args import UsageError, add_c_alpha


def cmd_latex_figures(args) -> None:
    from .. import latex, provenance, storage

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
    from .. import latex

    if Path(args.out).suffix.lower() != ".pdf":
        raise UsageError(f"--out must name a .pdf file, got {args.out!r}")
    try:
        latex.build_pdf(args.document, args.out)
    except latex.LatexError as err:
        raise UsageError(str(err)) from None


def add_commands(sub) -> None:
    p = sub.add_parser("latex", help="the figures for a LaTeX paper: figures.tex, and its PDF")
    lsub = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    x = lsub.add_parser(
        "figures", help="write the figure environments (one subfigure per panel of figures/panels/) with captions"
    )
    x.add_argument(
        "--scenario-file", action="append", required=True, help="a scenario JSON; once per scenario, in order"
    )
    x.add_argument("--summary", required=True, help="results/summary.parquet")
    add_c_alpha(x, "Theorem 4.2's requirement, for notes")
    x.add_argument("--out", required=True, help="output .tex file")
    x.set_defaults(func=cmd_latex_figures, outputs=("out",))
    x = lsub.add_parser("build", help="compile a LaTeX document with latexmk into a PDF, from the current folder")
    x.add_argument("document", help="the .tex document (workflow/latex/figures.tex)")
    x.add_argument("--out", required=True, help="output .pdf file")
    x.set_defaults(func=cmd_latex_build, outputs=("out",))
