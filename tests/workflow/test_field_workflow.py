"""End to end beyond the paper: `snakemake field` (tests/workflow/field_tiny.yaml) and its planning checks."""

import subprocess

import numpy as np
import pyarrow.parquet as pq
import pytest
import yaml
from workflow_helpers import REPO, assert_figure_pair, snakemake_command

from duelbandits import ALGORITHMS, make_scenario, regret, run_seed, simulate

FIELD_TINY = REPO / "tests" / "workflow" / "field_tiny.yaml"
FIELD = {
    **yaml.safe_load((REPO / "config.yaml").read_text())["field"],
    **yaml.safe_load(FIELD_TINY.read_text())["field"],
}


def field_snakemake(workdir, *args):
    cmd = snakemake_command(workdir, [REPO / "config.yaml", FIELD_TINY], *args)
    return subprocess.run(cmd, capture_output=True, text=True, timeout=1200)


@pytest.fixture(scope="module")
def field_run(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("field")
    result = field_snakemake(workdir, "--cores", "2", "field")
    assert result.returncode == 0, result.stderr[-5000:]
    return workdir


def test_the_field_runs_every_algorithm_of_the_paper_and_the_field(field_run):
    assert FIELD["algorithms"] == list(ALGORITHMS)  # the default config runs all twelve
    table = pq.read_table(field_run / "results/field/table.parquet").to_pandas()
    groups = {("borda", "condorcet"), ("borda", "borda"), ("cyclic", "copeland"), ("arithmetic", "condorcet")}
    assert set(zip(table["scenario"], table["regret"])) == groups
    for (scenario, kind), part in table.groupby(["scenario", "regret"]):
        assert sorted(part["algorithm"]) == sorted(ALGORITHMS), (scenario, kind)
        # rank 1 = lowest mean; ranks follow the means
        order = part.sort_values("mean")
        assert order["rank"].is_monotonic_increasing and order["rank"].iloc[0] == 1
    assert set(table.loc[table["scenario"] == "arithmetic", "actions"]) == {8}  # the benchmark's own A
    assert set(table["runs"]) == {FIELD["runs"]} and set(table["horizon"]) == {FIELD["horizon"]}
    md = (field_run / "results/field/table.md").read_text()
    assert md.count("\n| ") == (2 + 12) + (2 + len(table))  # each table: header, rule and its rows


def test_field_final_regrets_match_a_recomputation_from_the_run_seeds(field_run):
    table = pq.read_table(field_run / "results/field/table.parquet").to_pandas()
    table = table.set_index(["scenario", "regret", "algorithm"])
    for scenario, kind, column, algorithm in (("arithmetic", "condorcet", "maximin", "rmed1"),
                                               ("cyclic", "copeland", "copeland", "ccb"),
                                               ("borda", "borda", "borda", "dexp3")):  # fmt: skip
        actions = 8 if scenario == "arithmetic" else 10
        X = make_scenario(scenario, actions=actions, seed=20191114).matrix
        finals = []
        for run in range(FIELD["runs"]):
            res = simulate(X, algorithm, FIELD["horizon"], run_seed(20191114, scenario, algorithm, run), stride=500)
            finals.append(regret.cumulative(column, X, res.I, res.J)[-1])
        assert table.loc[(scenario, kind, algorithm), "mean"] == pytest.approx(np.mean(finals), rel=1e-12)


def test_field_figures_are_pdf_and_png_pairs_with_one_panel_per_regret(field_run):
    for scenario in FIELD["scenarios"]:
        pdf, png = (field_run / f"figures/field/{scenario}.{ext}" for ext in ("pdf", "png"))
        panels = 2 if scenario == "borda" else 1
        assert_figure_pair(pdf, png, size_inches=(6.2 * panels, 4.6))


def test_a_benchmark_asked_for_with_another_number_of_actions_fails_at_planning(tmp_path):
    """The paper run's `actions` (10) on the 8-arm arithmetic matrix: one line naming both sizes, no job."""
    result = field_snakemake(tmp_path, "-n", "--config", "scenarios=[arithmetic]")
    assert result.returncode != 0
    assert "arithmetic has 8 actions, but actions = 10 was asked for" in result.stdout + result.stderr
    assert not (tmp_path / "results").exists()
