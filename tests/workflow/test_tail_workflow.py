"""End to end: `snakemake maximin_tail claims` on a toy config (tests/workflow/tiny.yaml and tail_tiny.yaml): the
family's table is duelbandits.studies.tail.family.family_search's, each member's crossing and growth exponent on
all its rows, its markdown says where the bound is crossed and the smallest A / largest gap that fail, and the ledger
built in the same invocation reads the tail and the family it builds, and the archive's table for maximin_bayes."""

import pandas as pd
import pyarrow.parquet as pq
import pytest
import yaml
from workflow_helpers import REPO, TINY, snakemake

from duelbandits import cli, schemas, storage
from duelbandits.studies import bayes
from duelbandits.studies.tail import family as tail_family

TAIL_TINY = REPO / "tests" / "workflow" / "tail_tiny.yaml"
TAIL = yaml.safe_load(TAIL_TINY.read_text())["maximin-tail"]
CONFIG = yaml.safe_load((REPO / "config.yaml").read_text())
SEED = CONFIG["seed"]


@pytest.fixture(scope="module")
def tail_run(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("tail")
    built = workdir / "built" / "results" / "maximin-bayes" / "estimates.parquet"  # an archive of maximin_bayes
    table = bayes.estimates(bayes.measure(3, range(3), 1, [50, 100], SEED), 0.95)
    storage.write_frame(table, schemas.BAYES_ESTIMATE_SCHEMA, built, {"table": "bayes-estimates"})
    assert cli.main(["archive", str(workdir / "built"), "--archive", str(workdir / "archive")]) == 0
    snakemake(workdir, "--cores", "2", "maximin_tail", "claims", configs=[TINY, TAIL_TINY], check=True)
    return workdir


def test_the_familys_table_is_the_modules_with_its_crossings_and_exponents(tail_run):
    folder = tail_run / "results" / "maximin-tail"
    family = TAIL["family"]
    table = pq.read_table(folder / "family.parquet").to_pandas()
    defaults = CONFIG["maximin-tail"]
    expected = tail_family.family_search(
        family["actions"], family["gaps"], defaults["family"]["others_gap"], defaults["family"]["strength"],
        family["runs"], family["horizon"], SEED, family["points"], defaults["confidence"], family["bootstrap"],
    )  # fmt: skip
    assert list(table.columns) == list(expected.columns)
    for column in table.columns:  # every column the job wrote against the recomputation, none left out
        if pd.api.types.is_numeric_dtype(table[column]):
            assert table[column].tolist() == pytest.approx(expected[column].tolist(), nan_ok=True), column
        else:
            assert table[column].tolist() == expected[column].tolist(), column
    for _, member in table.groupby(["actions", "gap"]):
        assert member["crossing"].nunique(dropna=False) == 1 and member["exponent"].nunique(dropna=False) == 1
    text = (folder / "family.md").read_text()
    assert "crossing t [interval]" in text and "exponent past it" in text
    assert "Within the grid searched (A in {4, 5}, gap in {0.1})" in text
    extremes = tail_family.family_extremes(table)
    if extremes is None:
        assert "no member fails" in text
    else:
        assert f"the smallest A that fails is {extremes[0][0]}" in text
    assert (tail_run / "figures" / "maximin-tail" / "tail.png").stat().st_size > 0


def test_the_ledger_built_with_the_tail_reads_it(tail_run):
    """The claims rule's optional inputs are the files of the targets named with it, not only those found at
    planning: its Theorem 4.1 tail row is the estimates' first t exceeded (else the last t), and no row
    says the maximin_tail target was not built; the target not built is read from the archive, its row
    naming it."""
    estimates = pq.read_table(tail_run / "results" / "maximin-tail" / "estimates.parquet").to_pandas().sort_values("t")
    exceeded = estimates[estimates["verdict"] == "exceeded"]
    row = exceeded.iloc[0] if len(exceeded) else estimates.iloc[-1]
    ledger = pq.read_table(tail_run / "results" / "claims.parquet").to_pandas().set_index("claim")
    tail_row = ledger.loc[f"Theorem 4.1 (borda, t = {int(row['t']):,})"]
    assert (tail_row["value"], tail_row["low"], tail_row["high"]) == pytest.approx(
        (row["mean"], row["low"], row["high"])
    )
    assert any(claim.startswith("Theorem 4.1 (A = ") for claim in ledger.index)  # the family's row
    assert "maximin_tail target was not built" not in (tail_run / "results" / "claims.md").read_text()
    assert tail_row["source"] == "this run"
    assert ledger.loc["Theorem 4.1 (Bayesian, prior: uniform antisymmetric) (A = 3, T = 100)", "source"] == "archive"
