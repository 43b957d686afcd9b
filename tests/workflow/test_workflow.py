"""End-to-end tests of the Snakemake workflow on the tiny config."""

import hashlib
import json
import re
import shutil

import numpy as np
import pyarrow.parquet as pq
import pytest
import yaml
from workflow_helpers import REPO, TINY, snakemake

from duelbandits import regret, storage

PAPER = yaml.safe_load((REPO / "config.yaml").read_text())
TINY_CFG = {**PAPER, **yaml.safe_load(TINY.read_text())}


def sha256_tree(root, *folders):
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for folder in folders
        for p in sorted((root / folder).rglob("*"))
        if p.is_file()
    }


def test_paper_config_dry_run_plans_every_job(tmp_path):
    result = snakemake(tmp_path, "--dry-run", "--quiet", "rules", tiny=False)
    assert result.returncode == 0, result.stderr
    counts = dict(re.findall(r"^(\w+)\s+(\d+)$", result.stdout + result.stderr, re.M))
    chunks = -(-PAPER["runs"] // PAPER["runs_per_job"])
    assert int(counts["simulate"]) == 2 * 6 * chunks
    assert int(counts["figure_appendix"]) == 12 and int(counts["figure_main"]) == 2


def test_lint_is_clean_but_for_the_deliberate_absence_of_conda_environments(tmp_path):
    """Jobs run in the locked environment that runs Snakemake, not in per-rule conda
    environments (README, "Conda"), so that is the one lint left, once per rule."""
    result = snakemake(tmp_path, "--lint", tiny=False)
    out = result.stdout + result.stderr
    lints = re.findall(r"^\s+\* (.+?):$", out, re.M)
    rules = re.findall(r"^Lints for rule (\w+)", out, re.M)
    assert lints == ["Specify a conda environment or container for each rule."] * len(rules), out
    assert "Lints for snakefile" not in out, out


@pytest.mark.parametrize(
    "override, key",
    [
        ("horizon=-5", "horizon"),
        ("runs=zero", "runs"),
        ("typo_key=1", "typo_key"),
        ("algorithms=[ucb]", "ucb"),
        ("horizon=5", "c_alpha"),  # alpha = 5^(-1/3) = 0.58 >= 1/2
        ("actions=2", "borda"),  # two actions cannot make i2 the Borda winner
    ],
)
def test_bad_config_fails_before_any_job_and_names_the_key(tmp_path, override, key):
    result = snakemake(tmp_path, "--cores", "1", "--config", override)
    assert result.returncode != 0
    assert key in result.stderr
    assert not (tmp_path / "results").exists()


def test_tiny_run_makes_all_28_figures(tiny_run):
    files = sorted(p.relative_to(tiny_run).as_posix() for p in (tiny_run / "figures").rglob("*.*"))
    assert len(files) == 28
    for path in files:
        data = (tiny_run / path).read_bytes()
        magic = b"%PDF" if path.endswith(".pdf") else b"\x89PNG"
        assert data.startswith(magic), path
        assert len(data) > 10_000, path


def test_traces_cumulative_regret_matches_recomputation(tiny_run):
    T, runs = TINY_CFG["horizon"], TINY_CFG["runs"]
    for scenario in TINY_CFG["scenarios"]:
        record = json.loads((tiny_run / f"results/scenarios/{scenario}.json").read_text())
        X = np.array(record["matrix"])
        table = pq.read_table(tiny_run / f"results/traces/{scenario}.parquet")
        assert table.schema.equals(storage.TRACE_SCHEMA)
        df = table.to_pandas()
        assert set(df["algorithm"]) == set(TINY_CFG["algorithms"])
        for algorithm, rows in df.groupby("algorithm"):
            kind = regret.paper_regret(scenario, algorithm)
            assert set(rows["regret_kind"]) == {kind}
            assert sorted(rows["run"].unique()) == list(range(runs))
            for _, run in rows.groupby("run"):
                assert run["t"].tolist() == list(range(1, T + 1))
                per = regret.per_step(kind, X, run["I"].to_numpy(), run["J"].to_numpy())
                np.testing.assert_allclose(run["regret"], per, rtol=0, atol=1e-12)
                # stored as float32: rounding is at most half an ulp, a relative 2^-24 = 6e-8
                np.testing.assert_allclose(run["cumulative_regret"], np.cumsum(per), rtol=6e-8, atol=1e-30)


def test_summary_has_its_schema_runs_horizon_theorem_bounds_and_the_trace_means(tiny_run):
    table = pq.read_table(tiny_run / "results/summary.parquet")
    assert table.schema.equals(storage.SUMMARY_SCHEMA)
    df = table.to_pandas()
    assert set(df["runs"]) == {TINY_CFG["runs"]}
    assert df["t"].max() == TINY_CFG["horizon"]
    paper = df[df["paper"]]
    assert len(paper.groupby(["scenario", "algorithm"])) == 12
    # bounds only where a theorem bounds that algorithm under that regret
    with_bound = set(map(tuple, df[df["bound"].notna()][["algorithm", "regret"]].drop_duplicates().to_numpy()))
    assert with_bound == {
        ("ts-maximin", "maximin"),
        ("ts-borda", "borda"),
        ("sparring-exp3p", "exp3p"),
        ("partial-monitoring", "borda"),
    }
    # the mean at T equals the mean over runs of the traces' final cumulative regret
    traces = pq.read_table(tiny_run / "results/traces/condorcet.parquet").to_pandas()
    final = traces[traces["t"] == TINY_CFG["horizon"]].groupby("algorithm")["cumulative_regret"]
    at_T = paper[(paper["scenario"] == "condorcet") & (paper["t"] == TINY_CFG["horizon"])].set_index("algorithm")
    # the traces hold float32 copies (relative error <= 6e-8) of the float64 sums behind the summary
    np.testing.assert_allclose(at_T.loc[final.mean().index, "mean"], final.mean(), rtol=1e-7)
    np.testing.assert_allclose(at_T.loc[final.std().index, "std"], final.std(), rtol=1e-5)


def test_recorded_strategies_sum_to_one_per_algorithm_player_and_step(tiny_run):
    df = pq.read_table(tiny_run / "results/strategies/condorcet.parquet").to_pandas()
    assert set(df["algorithm"]) == {"sparring-exp3p", "partial-monitoring"}
    sums = df.groupby(["algorithm", "player", "t"])["mean"].sum()
    np.testing.assert_allclose(sums, 1.0, atol=1e-12)
    assert set(df[df["algorithm"] == "sparring-exp3p"]["player"]) == {"p", "q"}


def test_rebuilding_a_chunk_and_rerendering_give_identical_bytes(tiny_run):
    before = sha256_tree(tiny_run, "results", "figures")
    chunk = tiny_run / "results/runs/borda/dts/chunk-1.parquet"
    chunk.unlink()
    result = snakemake(tiny_run, "--cores", "2", "--force", str(chunk.relative_to(tiny_run)))
    assert result.returncode == 0, result.stderr[-3000:]
    assert hashlib.sha256(chunk.read_bytes()).hexdigest() == before[str(chunk.relative_to(tiny_run))]
    shutil.rmtree(tiny_run / "figures")
    (tiny_run / "results/traces/borda.parquet").unlink()  # re-aggregates borda, then the summary
    result = snakemake(tiny_run, "--cores", "2")
    assert result.returncode == 0, result.stderr[-3000:]
    assert sha256_tree(tiny_run, "results", "figures") == before
