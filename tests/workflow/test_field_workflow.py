"""End to end beyond the paper: `snakemake field` (tests/workflow/field_tiny.yaml); its table from the runs by
hand: tests/test_field.py."""

import pyarrow.parquet as pq
import pytest
import yaml
from workflow_helpers import REPO, assert_figure_pair, snakemake

from duelbandits import ALGORITHMS

FIELD_TINY = REPO / "tests" / "workflow" / "field_tiny.yaml"
DEFAULT = yaml.safe_load((REPO / "config.yaml").read_text())["field"]
FIELD = {**DEFAULT, **yaml.safe_load(FIELD_TINY.read_text())["field"]}


@pytest.fixture(scope="module")
def field_run(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("field")
    snakemake(workdir, "--cores", "2", "field", configs=[FIELD_TINY], check=True)
    return workdir


def test_the_field_table_holds_each_scenarios_regrets_and_ranks_its_algorithms(field_run):
    assert DEFAULT["algorithms"] == list(ALGORITHMS)  # the default config runs every built-in
    table = pq.read_table(field_run / "results/field/table.parquet").to_pandas()
    groups = {("borda", "condorcet"), ("borda", "borda"), ("cyclic", "copeland"), ("arithmetic", "condorcet")}
    groups |= {(scenario, "copeland") for scenario in ("borda", "arithmetic")}  # every scenario's Copeland regret
    assert set(zip(table["scenario"], table["regret"])) == groups
    for (scenario, kind), part in table.groupby(["scenario", "regret"]):
        assert sorted(part["algorithm"]) == sorted(FIELD["algorithms"]), (scenario, kind)
        # rank 1 = lowest mean; ranks follow the means
        order = part.sort_values("mean")
        assert order["rank"].is_monotonic_increasing and order["rank"].iloc[0] == 1
    assert set(table.loc[table["scenario"] == "arithmetic", "actions"]) == {8}  # the benchmark's own A
    assert set(table["runs"]) == {FIELD["runs"]} and set(table["horizon"]) == {FIELD["horizon"]}
    md = (field_run / "results/field/table.md").read_text()
    assert md.count("\n| ") == (2 + len(FIELD["algorithms"])) + (2 + len(table))  # each table: header, rule, rows


def test_field_figures_are_pdf_and_png_pairs_with_one_panel_per_regret(field_run):
    for scenario in FIELD["scenarios"]:
        pdf, png = (field_run / f"figures/field/{scenario}.{ext}" for ext in ("pdf", "png"))
        panels = {"borda": 3, "cyclic": 1}.get(scenario, 2)  # Condorcet, Copeland (and Borda on borda)
        assert_figure_pair(pdf, png, size_inches=(6.2 * panels, 4.6))
