"""End to end: `snakemake maximin_tail` on a toy config (tests/workflow/tail_tiny.yaml): the family's
table is duelbandits.tail.family_search's, each member's crossing and growth exponent on all its rows,
and its markdown says where the bound is crossed and the smallest A / largest gap that fail."""

import pandas as pd
import pyarrow.parquet as pq
import pytest
import yaml
from workflow_helpers import REPO, build_target

from duelbandits import tail

TAIL_TINY = REPO / "tests" / "workflow" / "tail_tiny.yaml"
TAIL = yaml.safe_load(TAIL_TINY.read_text())["maximin-tail"]
CONFIG = yaml.safe_load((REPO / "config.yaml").read_text())
SEED = CONFIG["seed"]


@pytest.fixture(scope="module")
def tail_run(tmp_path_factory):
    return build_target(tmp_path_factory.mktemp("tail"), TAIL_TINY, "maximin_tail")


def test_the_familys_table_is_the_modules_with_its_crossings_and_exponents(tail_run):
    folder = tail_run / "results" / "maximin-tail"
    family = TAIL["family"]
    table = pq.read_table(folder / "family.parquet").to_pandas()
    expected = tail.family_search(
        family["actions"],
        family["gaps"],
        CONFIG["maximin-tail"]["family"]["others_gap"],
        CONFIG["maximin-tail"]["family"]["strength"],
        family["runs"],
        family["horizon"],
        SEED,
        family["points"],
        CONFIG["maximin-tail"]["confidence"],
        family["bootstrap"],
    )
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
    extremes = tail.family_extremes(table)
    if extremes is None:
        assert "no member fails" in text
    else:
        assert f"the smallest A that fails is {extremes[0][0]}" in text
    assert (tail_run / "figures" / "maximin-tail" / "tail.png").stat().st_size > 0
