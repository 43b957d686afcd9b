"""End-to-end tests of the Snakemake workflow on the tiny config."""

import json
import re

import numpy as np
import pyarrow.parquet as pq
import yaml
from regret_by_hand import per_step_regrets
from workflow_helpers import REPO, TINY, assert_figure_pair, sha256_tree, snakemake

from duelbandits import algorithms, digests, manifest, schemas
from duelbandits.plotting import style

PAPER = yaml.safe_load((REPO / "config.yaml").read_text())
TINY_CFG = {**PAPER, **yaml.safe_load(TINY.read_text())}


def test_lint_is_clean_but_for_the_deliberate_absence_of_conda_environments(tmp_path):
    """Jobs run in the locked environment that runs Snakemake, not in per-rule conda
    environments (README, "Conda"), so that is the one lint left, once per rule; and the rule
    matrix_file names the config's matrix_file in its command, not as a param, on purpose: a param is
    a rerun trigger, and moving or renaming the matrix with the same content must rerun nothing (its
    content's sha256 is the param)."""
    result = snakemake(tmp_path, "--lint", configs=())
    out = result.stdout + result.stderr
    conda = "Specify a conda environment or container for each rule."
    by_rule = dict(re.findall(r"^Lints for rule (\w+).*?\n(.*?)(?=^Lints for|\Z)", out, re.M | re.S))
    assert by_rule, out
    for rule, text in by_rule.items():
        lints = re.findall(r"^\s+\* (.+?):$", text, re.M)
        shell_config = ["Shell command directly uses variable config from outside of the rule"] * 2
        assert lints == [conda] + (shell_config if rule == "matrix_file" else []), (rule, lints)
    assert "Lints for snakefile" not in out, out


def test_tiny_run_makes_all_28_figures_each_drawn_from_its_inputs(tiny_run):
    """Each figure is a one-page PDF and a PNG of that page's size at the PNG resolution, and both carry
    the data digest of the very files (and arguments) the figure is drawn from."""
    files = sorted(p.relative_to(tiny_run).as_posix() for p in (tiny_run / "figures").rglob("*.*"))
    assert len(files) == 28
    results = tiny_run / "results"
    for scenario in TINY_CFG["scenarios"]:
        inputs = {"scenario": results / f"scenarios/{scenario}.json", "summary": results / "summary.parquet"}
        stem = tiny_run / f"figures/main/{scenario}"
        digest = assert_figure_pair(stem.with_suffix(".pdf"), stem.with_suffix(".png"), size_inches=style.MAIN_SIZE)
        assert digest == digests.data_digest(inputs, figure="main"), stem
        inputs = {
            "scenario": results / f"scenarios/{scenario}.json",
            "traces": results / f"traces/{scenario}.parquet",
            "strategies": results / f"strategies/{scenario}.parquet",
        }
        for algorithm in TINY_CFG["algorithms"]:
            stem = tiny_run / f"figures/appendix/{scenario}-{algorithm}"
            digest = assert_figure_pair(
                stem.with_suffix(".pdf"), stem.with_suffix(".png"), width_inches=style.APPENDIX_WIDTH
            )
            assert digest == digests.data_digest(inputs, figure="appendix", scenario=scenario, algorithm=algorithm)
    # the digest tells the inputs apart: another scenario's data give another digest
    assert digests.figure_data_digest(tiny_run / "figures/main/borda.png") != digests.figure_data_digest(
        tiny_run / "figures/main/condorcet.png"
    )


def matrix(run, scenario):
    return np.array(json.loads((run / f"results/scenarios/{scenario}.json").read_text())["matrix"])


def test_traces_regret_matches_a_hand_computation_from_the_matrix(tiny_run):
    T, runs = TINY_CFG["horizon"], TINY_CFG["runs"]
    for scenario in TINY_CFG["scenarios"]:
        X = matrix(tiny_run, scenario)
        table = pq.read_table(tiny_run / f"results/traces/{scenario}.parquet")
        assert table.schema.equals(schemas.TRACE_SCHEMA)
        df = table.to_pandas()
        assert set(df["algorithm"]) == set(TINY_CFG["algorithms"])
        for algorithm, rows in df.groupby("algorithm"):
            kind = algorithms.paper_regret(scenario, algorithm)
            assert set(rows["regret_kind"]) == {kind}
            assert sorted(rows["run"].unique()) == list(range(runs))
            for _, run in rows.groupby("run"):
                assert run["t"].tolist() == list(range(1, T + 1))
                per = per_step_regrets(X, run["I"].to_numpy(), run["J"].to_numpy())[kind]
                np.testing.assert_allclose(run["regret"], per, rtol=0, atol=1e-12)
                # stored as float32: rounding is at most half an ulp, a relative 2^-24 = 6e-8
                np.testing.assert_allclose(run["cumulative_regret"], np.cumsum(per), rtol=6e-8, atol=1e-30)


def test_a_missing_chunk_and_traces_file_are_rebuilt_by_the_next_run_with_identical_bytes(tiny_copy):
    """The default target after a chunk and a scenario's traces were deleted: the run remakes them (the chunk
    in a fresh process, borda re-aggregated, the summary and the figures drawn from them redrawn) with the
    bytes they had, and the manifest verifies the tree identical."""
    before = sha256_tree(tiny_copy, "results", "figures")
    (tiny_copy / "results/runs/borda/dts/chunk-1.parquet").unlink()
    (tiny_copy / "results/traces/borda.parquet").unlink()
    result = snakemake(tiny_copy, "--cores", "2", check=True)
    assert "rule figure_appendix:" in result.stdout + result.stderr  # borda's appendix figures redrawn
    assert sha256_tree(tiny_copy, "results", "figures") == before
    status = manifest.verify(tiny_copy / "results/MANIFEST.sha256", tiny_copy)
    assert set(status.values()) == {manifest.IDENTICAL}
