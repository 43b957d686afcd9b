"""End to end: `snakemake maximin_bayes` on a toy config (tests/workflow/bayes_tiny.yaml): the jobs' files
hold the runs duelbandits.studies.bayes makes, and the table is their estimate."""

import pyarrow.parquet as pq
import pytest
import yaml
from workflow_helpers import REPO, snakemake

from duelbandits import digests
from duelbandits.studies import bayes
from duelbandits.studies import bayes_growth as growth
from duelbandits.studies import bayes_report as report

BAYES_TINY = REPO / "tests" / "workflow" / "bayes_tiny.yaml"
BAYES = yaml.safe_load(BAYES_TINY.read_text())["maximin-bayes"]
SEED = yaml.safe_load((REPO / "config.yaml").read_text())["seed"]


@pytest.fixture(scope="module")
def bayes_run(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("bayes")
    snakemake(workdir, "--cores", "2", "maximin_bayes", configs=[BAYES_TINY], check=True)
    return workdir


def test_the_runs_are_the_modules_and_the_table_their_estimate(bayes_run):
    folder = bayes_run / "results" / "maximin-bayes"
    files = sorted((folder / "runs").glob("*.parquet"))
    assert [f.name for f in files] == [f"A{a}-{j}.parquet" for a in BAYES["actions"] for j in range(BAYES["jobs"])]
    import pandas as pd

    runs = pd.concat([pq.read_table(f).to_pandas() for f in files], ignore_index=True)
    horizons = growth.grid(BAYES["horizon"], BAYES["grid_from"], BAYES["grid_points"])
    assert len(runs) == len(BAYES["actions"]) * BAYES["matrices"] * BAYES["runs"] * len(horizons)
    for A in BAYES["actions"]:
        expected = bayes.measure(A, range(BAYES["matrices"]), BAYES["runs"], horizons, SEED)
        got = runs[runs["actions"] == A].sort_values(["matrix", "run", "horizon"])
        assert got["regret"].tolist() == pytest.approx(expected["regret"].tolist())
    table = pq.read_table(folder / "estimates.parquet").to_pandas()
    flags = {A: bayes.condorcet_flags(SEED, A, BAYES["strata_draws"], "uniform") for A in BAYES["actions"]}
    expected = bayes.estimates(runs, BAYES["confidence"], "uniform", flags, BAYES["bootstrap"], SEED)
    assert table["verdict"].tolist() == expected["verdict"].tolist()
    for column in ("ratio", "low", "high", "share_above", "matrices", "runs_per_matrix", "exponent_low"):
        assert table[column].tolist() == pytest.approx(expected[column].tolist(), nan_ok=True), column
    text = (folder / "bayes.md").read_text()
    assert "Theorem 4.1 as a Bayesian bound" in text and report.overall_verdict(table) in text
    # the figure is drawn from these files with the config's bins (3, not the default 40)
    inputs = {f"runs {k}": path for k, path in enumerate(files)} | {"estimates": folder / "estimates.parquet"}
    png = bayes_run / "figures" / "maximin-bayes" / "ratios.png"
    assert digests.figure_data_digest(png) == digests.data_digest(inputs, bins=BAYES["bins"])
