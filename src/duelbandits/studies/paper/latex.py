"""The figures as an author includes them: figures/figures.tex (``figures_tex``; its layout, captions
and labels: docs/outputs.md), and its PDF through latexmk and pdfLaTeX (``build_pdf``).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np

from ...algorithms import ALGORITHMS
from ...errors import InputError
from ...plotting import style
from ...regret import REGRET_NAMES
from ...storage import atomic_write
from ...theorems import THEOREMS, theorem_for
from .appendix import regret_winner, selection_window
from .main import paper_curves

DEBIAN_PACKAGES = ("latexmk", "texlive-latex-base", "texlive-latex-recommended")
"""What the PDF needs from Debian: latexmk, pdfLaTeX with graphicx and geometry (latex-base), caption
and subcaption (latex-recommended). The tests also read the PDF with poppler-utils."""

INSTALL = f"apt-get install --no-install-recommends {' '.join(DEBIAN_PACKAGES)}"

PANEL_FOLDER = "figures/panels"
"""Where the workflow writes the panels; figures.tex names them relative to this folder."""

SUBCAPTIONS = {"a": "Utilities", "b": "Preference matrix $X$", "c": "Mean regret", "d": "Regret and bounds, log--log"}
"""Subfigure captions of the main figures (the figure caption explains each panel)."""

MARKER_NAMES = {"*": "star", "v": "triangle"}


class LatexError(InputError):
    """LaTeX is missing, or the document does not compile."""


def main_figure_name(scenario: str) -> str:
    """The figure's name in figures/panels/ and in its label: ``main-condorcet``."""
    return f"main-{scenario}"


def appendix_figure_name(scenario: str, algorithm: str) -> str:
    """The figure's name in figures/panels/ and in its label: ``appendix-borda-dts``."""
    return f"appendix-{scenario}-{algorithm}"


def panel_files(scenarios, algorithms, formats=("pdf",)) -> list[str]:
    """Every panel file of the paper's figures, relative to :data:`PANEL_FOLDER`, in each of ``formats``."""
    panels = [f"{main_figure_name(s)}/{p}" for s in scenarios for p in style.MAIN_PANELS]
    for scenario in scenarios:
        for algorithm in algorithms:
            letters = style.appendix_panel_letters(ALGORITHMS[algorithm].strategies)
            panels += [f"{appendix_figure_name(scenario, algorithm)}/{p}" for p in letters]
    return [f"{panel}.{ext}" for panel in panels for ext in formats]


def _escape(text: str) -> str:
    """``text`` safe in LaTeX's text mode."""
    special = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_"}
    special |= {"{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}
    return "".join(special.get(c, c) for c in text)


def _number(n: int) -> str:
    """``40000`` -> ``40{,}000`` (thousands separated, for math mode)."""
    return f"{n:,}".replace(",", "{,}")


def _join(items: list[str]) -> str:
    """``a``; ``a and b``; ``a, b and c``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _actions(actions: list[int]) -> str:
    """``action 3``; ``actions 2 and 5``."""
    return ("action " if len(actions) == 1 else "actions ") + _join([str(a) for a in actions])


def _run_text(record: dict) -> str:
    """``$A = 10$ actions, $T = 40{,}000$ steps, 100 runs``."""
    runs = style.runs_text(record["runs"], dash="--")
    return f"$A = {record['actions']}$ actions, $T = {_number(record['horizon'])}$ steps, {runs}"


def scenario_numbers(scenario: dict, summary) -> dict:
    """What the captions of one scenario state, from its scenario record and the summary table:
    A, T, the runs, the winners, and per algorithm its paper regret and whether its bound is drawn."""
    curves, horizon, runs, actions = paper_curves(scenario, summary)
    kinds = {slug: str(part["regret"].iloc[0]) for slug, part in curves.items()}
    bounds = {  # the bound at T (each curve's last row) drawn
        slug: bool(np.isfinite(part["bound"].iloc[-1]))
        for slug, part in curves.items()
        if theorem_for(slug, kinds[slug]) is not None
    }
    return {
        "name": scenario["name"],
        "actions": actions,
        "horizon": horizon,
        "runs": runs,
        "winners": scenario["winners"],
        "algorithms": list(curves),
        "kinds": kinds,
        "bounds": bounds,
    }


def _main_caption(record: dict, c_alpha: float) -> str:
    condorcet, borda = record["winners"]["condorcet"], list(record["winners"]["borda"])
    star, triangle = (MARKER_NAMES[style.MARKERS[w][0]] for w in ("condorcet", "borda"))
    marked = [f"the Condorcet winner ({_actions([condorcet])}, {star})"] if condorcet is not None else []
    marked += [f"the Borda winner ({_actions(borda)}, {triangle})"] if borda else []
    utilities = "Latent utility $u(i)$ of each action" + (f"; marked: {_join(marked)}." if marked else ".")
    if condorcet is None:
        utilities += " There is no Condorcet winner."
    by_kind: dict[str, list[str]] = {}
    for slug in record["algorithms"]:
        by_kind.setdefault(record["kinds"][slug], []).append(_escape(ALGORITHMS[slug].label))
    if len(by_kind) == 1:
        (kind,) = by_kind
        measured = f"every algorithm is measured by the {REGRET_NAMES.get(kind, kind)} regret"
    else:
        parts = [f"{REGRET_NAMES.get(kind, kind)} regret for {_join(labels)}" for kind, labels in by_kind.items()]
        measured = "each algorithm is measured by its own regret: " + "; ".join(parts)
    drawn = [THEOREMS[slug].name for slug, shown in record["bounds"].items() if shown]
    missing = [slug for slug, shown in record["bounds"].items() if not shown]
    if drawn:
        bounds = f"the regret bound{'s' if len(drawn) > 1 else ''} of Theorem{'s' if len(drawn) > 1 else ''} "
        bounds += f"{_join(drawn)} dashed in the colour of {'their' if len(drawn) > 1 else 'its'} algorithm"
    else:
        bounds = "no theorem bound"
    notes = []
    for slug in missing:
        theorem = THEOREMS[slug]
        t_min, strict = theorem.requirement(record["actions"], c_alpha)
        relation = ">" if strict else "\\geq"
        notes.append(f"Theorem {theorem.name} needs $T {relation} {_number(int(np.ceil(t_min)))}$ and is left out")
    left_out = f" ({'; '.join(notes)})" if notes else ""
    return (
        f"\\textbf{{{style.scenario_label(record['name'])} scenario}}: {_run_text(record)} per algorithm. "
        f"(a) {utilities} "
        "(b) Preference matrix: $X(i, j)$ is the probability that action $i$ beats action $j$. "
        f"(c) Cumulative regret averaged over the runs, one standard deviation shaded above the mean; "
        f"{measured}. "
        f"(d) The curves of (c) on log--log axes with {bounds}{left_out}; "
        "each bound is the one for horizon $T$, drawn at every step $t$."
    )


def _appendix_caption(record: dict, algorithm: str) -> str:
    kind = record["kinds"][algorithm]
    notion, chosen = regret_winner(record, kind)
    marked = len(chosen) == 1
    width = selection_window(record["horizon"])
    window = f"each run averaged over windows of {_number(width)} steps" if width > 1 else "each run step by step"
    text = (
        f"\\textbf{{{style.scenario_label(record['name'])} scenario, {_escape(ALGORITHMS[algorithm].label)}}} "
        f"({_run_text(record)}). Light lines: single runs; thick lines: means over runs; shading: one "
        "standard deviation (above the mean in (a)). "
        f"(a) Cumulative {REGRET_NAMES.get(kind, kind)} regret, against the {notion.capitalize()} winner, "
        f"{_actions(chosen)}. "
        f"(b) First action $\\mathbf{{I}}_t$ and (c) second action $\\mathbf{{J}}_t$, {window}"
        + (f"; dotted: action {chosen[0]}." if marked else ".")
    )
    players = ALGORITHMS[algorithm].strategies
    if len(players) == 1:
        text += f" (d) $\\mathbf{{{players[0]}}}_t$, the strategy both actions are drawn from"
    elif players:
        text += " " + ", and ".join(
            f"({letter}) $\\mathbf{{{p}}}_t$, the strategy of $\\mathbf{{{action}}}_t$"
            for letter, p, action in zip("de", players, "IJ")
        )
    if players:
        text += ": mean probability of each action" + (f"; thicker: action {chosen[0]}." if marked else ".")
    return text


def _environment(figure: str, rows: list[str], widths: dict, subcaptions: dict, between: str, caption: str):
    """A figure environment: the subfigures of each row of panel letters, ``between`` the rows."""
    lines = ["\\begin{figure}[tbp]", "  \\centering"]
    for k, row in enumerate(rows):
        lines += [] if k == 0 else [f"  {between}"]
        for i, panel in enumerate(row):
            lines += [] if i == 0 else ["  \\hfil"]
            lines += [
                f"  \\begin{{subfigure}}[b]{{{widths[panel]:g}\\textwidth}}",
                "    \\centering",
                f"    \\includegraphics[width=\\textwidth]{{{figure}/{panel}.pdf}}",
                f"    \\caption{{{subcaptions[panel]}}}\\label{{fig:{figure}-{panel}}}",
                "  \\end{subfigure}",
            ]
    return lines + [f"  \\caption{{{caption}}}", f"  \\label{{fig:{figure}}}", "\\end{figure}"]


def _main_environment(record: dict, c_alpha: float) -> list[str]:
    widths = {panel: size[0] for panel, size in style.MAIN_PANELS.items()}
    caption = _main_caption(record, c_alpha)
    return _environment(main_figure_name(record["name"]), ["ab", "cd"], widths, SUBCAPTIONS, "\\par\\medskip", caption)


def _appendix_environment(record: dict, algorithm: str) -> list[str]:
    players = ALGORITHMS[algorithm].strategies
    letters = style.appendix_panel_letters(players)
    widths = dict.fromkeys(letters, style.APPENDIX_PANELS[len(letters)][0])
    kind = record["kinds"][algorithm]
    subcaptions = {"a": f"{REGRET_NAMES.get(kind, kind)} regret", "b": "$\\mathbf{I}_t$", "c": "$\\mathbf{J}_t$"}
    subcaptions |= {letter: f"$\\mathbf{{{p}}}_t$" for letter, p in zip("de", players)}
    figure = appendix_figure_name(record["name"], algorithm)
    return _environment(figure, list(letters), widths, subcaptions, "\\par", _appendix_caption(record, algorithm))


def figures_tex(scenarios: list[dict], summary, *, c_alpha: float = 1.0) -> str:
    """The text of figures/figures.tex: the main figure of each scenario record of ``scenarios``, then its
    appendix figures; ``c_alpha`` states Theorem 4.2's requirement when its bound is left out."""
    records = [scenario_numbers(scenario, summary) for scenario in scenarios]
    header = [
        "% The figures of 'Simple Algorithms for Dueling Bandits', generated by `duelbandits latex figures`",
        "% from results/scenarios/*.json and results/summary.parquet; do not edit, rebuild it.",
        f"% Needs \\usepackage{{graphicx,subcaption}} and \\graphicspath{{{{{PANEL_FOLDER}/}}}} (the panels' folder).",
        "% Labels: fig:main-{scenario}, fig:appendix-{scenario}-{algorithm}, and -a, -b, ... for the panels.",
        "",
    ]
    body = []
    for record in records:
        body += [f"% --- {record['name']}: main figure", *_main_environment(record, c_alpha), ""]
    for record in records:
        for algorithm in record["algorithms"]:
            body += [f"% --- {record['name']}: {algorithm}", *_appendix_environment(record, algorithm), ""]
    return "\n".join(header + body)


def _first_error(output: str) -> str:
    """The first LaTeX error of a latexmk run's output, on one line."""
    for line in output.splitlines():
        if line.startswith("!") or re.match(r"^[^:\s]+\.(tex|sty|cls):\d+: ", line):
            return line.strip()
    lines = [line for line in output.splitlines() if line.strip()]
    return lines[-1].strip() if lines else "no output"


def build_pdf(document, out) -> Path:
    """Compile ``document`` with latexmk and pdfLaTeX into ``out``, atomically, from the current folder
    (the document's relative paths resolve there), the auxiliary files in a temporary folder;
    SOURCE_DATE_EPOCH fixes the PDF's dates, so the same inputs and TeX Live give the same bytes."""
    latexmk = shutil.which("latexmk")
    if latexmk is None:
        raise LatexError(f"latexmk not found: install TeX Live from Debian with: {INSTALL}")
    document, out = Path(document), Path(out)
    if not document.is_file():
        raise LatexError(f"{document}: no such file")
    env = dict(os.environ, SOURCE_DATE_EPOCH="0", FORCE_SOURCE_DATE="1")
    with tempfile.TemporaryDirectory(prefix="duelbandits-latex-") as build:
        command = [latexmk, "-pdf", "-interaction=nonstopmode", "-halt-on-error", "-file-line-error"]
        command += [f"-outdir={build}", f"-jobname={out.stem}", str(document.resolve())]
        done = subprocess.run(command, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True)
        output = done.stdout + done.stderr
        pdf = Path(build) / f"{out.stem}.pdf"
        if done.returncode != 0 or not pdf.is_file():
            print(output)  # the whole run, for the job's log; the error below is its one line
            raise LatexError(f"{document}: LaTeX failed: {_first_error(output)}")
        with atomic_write(out) as tmp:
            shutil.copyfile(pdf, tmp)
    return out
