"""figures/figures.tex: the paper's subfigure layout, one subfigure per panel file, captions with the
run's numbers, labels; the PDF build stops with one line when LaTeX is missing."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from cli_process import run_cli
from summaries import paper_summary

from duelbandits import make_scenario, storage
from duelbandits.algorithms import PAPER_ALGORITHMS
from duelbandits.studies.paper import latex

A, T, RUNS = 10, 40_000, 100


def make_summary(horizon=T, drop_bound=()):
    """The paper rows of both scenarios, with a bound where a theorem bounds the paper regret."""
    return paper_summary([1, horizon // 2, horizon], A, RUNS, drop_bound=drop_bound)


@pytest.fixture(scope="module")
def scenarios():
    """The scenario files' records of condorcet and borda at A actions."""
    return [storage.scenario_record(make_scenario(name, A, seed=20191114), 20191114) for name in ("condorcet", "borda")]


@pytest.fixture(scope="module")
def text(scenarios):
    return latex.figures_tex(scenarios, make_summary())


def environments(text):
    """{label of the figure: its environment's text}."""
    envs = re.findall(r"\\begin\{figure\}.*?\\end\{figure\}", text, re.S)
    return {re.findall(r"\\label\{([^}]*)\}", env)[-1]: env for env in envs}


def test_figures_tex_has_the_fourteen_figures_in_the_paper_order_and_one_labelled_subfigure_per_panel_file(text):
    labels = list(environments(text))
    appendix = [f"fig:appendix-{s}-{a}" for s in ("condorcet", "borda") for a in PAPER_ALGORITHMS]
    assert labels == ["fig:main-condorcet", "fig:main-borda", *appendix]
    files = re.findall(r"\\includegraphics\[width=\\textwidth\]\{([^}]*)\}", text)
    assert files == latex.panel_files(["condorcet", "borda"], list(PAPER_ALGORITHMS))
    assert len(files) == 2 * 4 + 2 * (6 * 3 + 2 + 1) == 50
    for file in files:
        figure, panel = file.removesuffix(".pdf").split("/")
        assert f"\\label{{fig:{figure}-{panel}}}" in text
    labels = re.findall(r"\\label\{([^}]*)\}", text)
    assert len(labels) == len(set(labels)) == 50 + 14


def test_subfigures_have_the_widths_of_the_paper(text):  # the panels drawn at them: tests/test_plotting.py
    envs = environments(text)
    widths = lambda env: re.findall(r"\\begin\{subfigure\}\[b\]\{([0-9.]+)\\textwidth\}", env)  # noqa: E731
    assert widths(envs["fig:main-condorcet"]) == ["0.35", "0.35", "0.4", "0.4"]
    assert widths(envs["fig:appendix-borda-dts"]) == ["0.75"] * 3
    assert widths(envs["fig:appendix-borda-partial-monitoring"]) == ["0.65"] * 4
    assert widths(envs["fig:appendix-borda-sparring-exp3p"]) == ["0.5"] * 5
    for env in envs.values():
        assert env.count("\\includegraphics[width=\\textwidth]") == env.count("\\begin{subfigure}")


def test_captions_state_the_runs_numbers_and_the_winners(text, scenarios):
    envs = environments(text)
    condorcet, borda = scenarios
    main = envs["fig:main-borda"]
    assert "$A = 10$ actions, $T = 40{,}000$ steps, 100 runs" in main
    assert f"Condorcet winner (action {borda['winners']['condorcet']}, star)" in main
    assert f"Borda winner (action {borda['winners']['borda'][0]}, triangle)" in main
    assert "Theorems 4.2 and 4.4" in main and "every algorithm is measured by the Borda regret" in main
    assert "Theorems 4.1, 4.2, 4.3 and 4.4" in envs["fig:main-condorcet"]
    exp3p = envs["fig:appendix-condorcet-sparring-exp3p"]
    maximin = condorcet["winners"]["maximin"][0]
    assert f"Exp3.P regret, against the Maximin winner, action {maximin}" in exp3p
    assert "windows of 100 steps" in exp3p  # 40,000 steps in style.SELECTION_WINDOWS windows
    assert "$\\mathbf{q}_t$, the strategy of $\\mathbf{J}_t$" in exp3p


def test_a_bound_left_out_is_named_with_the_horizon_it_needs(scenarios):
    text = latex.figures_tex(scenarios, make_summary(horizon=300, drop_bound=("partial-monitoring",)))
    main = environments(text)["fig:main-condorcet"]
    assert "Theorems 4.1, 4.2 and 4.3" in main
    assert re.search(r"Theorem 4\.4 needs \$T > [0-9{},]+\$ and is left out", main)
    assert "each run step by step" in environments(text)["fig:appendix-borda-dts"]  # 300 steps: windows of 1


def test_figures_tex_is_the_same_text_for_the_same_inputs(scenarios, text):
    assert latex.figures_tex(scenarios, make_summary().sample(frac=1.0, random_state=3)) == text


def test_building_the_pdf_without_latexmk_names_the_debian_packages(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(Path(sys.executable).parent))  # this interpreter's folder alone: no latexmk
    with pytest.raises(latex.LatexError) as err:
        latex.build_pdf(tmp_path / "doc.tex", tmp_path / "figures.pdf")
    message = str(err.value)
    assert "\n" not in message and "apt-get install --no-install-recommends latexmk" in message
    assert "texlive-latex-base texlive-latex-recommended" in message
    assert not (tmp_path / "figures.pdf").exists()


def test_latex_figures_refuses_a_scenario_given_twice(tmp_path):
    path = tmp_path / "condorcet.json"
    storage.write_scenario(path, make_scenario("condorcet", A, seed=20191114), 20191114)
    result = run_cli(
        "latex", "figures", "--scenario-file", str(path), "--scenario-file", str(path),
        "--summary", str(tmp_path / "summary.parquet"), "--c-alpha", "1.0", "--out", str(tmp_path / "figures.tex"),
    )  # fmt: skip
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert "a scenario given twice" in result.stderr
    assert not (tmp_path / "figures.tex").exists()
