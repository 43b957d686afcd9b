"""End to end beyond the paper: the sweeps (tests/workflow/sweep_tiny.yaml), results/table.md and the report.

The sweep run starts from a copy of the tiny paper run (the `tiny_run` fixture), so only the
sweep jobs and the report are added on top of it.
"""

import base64
import json
import re
import shutil

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
import yaml
from workflow_helpers import REPO, TINY, assert_figure_pair, snakemake

from duelbandits import digests, make_scenario, regret, run_seed, simulate

SWEEP_TINY = TINY.with_name("sweep_tiny.yaml")
SWEEP_CONFIGS = [TINY, SWEEP_TINY]  # over config.yaml
PAPER = yaml.safe_load((REPO / "config.yaml").read_text())
CFG = {**PAPER, **yaml.safe_load(TINY.read_text())}
SWEEP = {**PAPER["sweeps"], **yaml.safe_load(SWEEP_TINY.read_text())["sweeps"]}


def file_matrix():
    """A 10-action matrix without a Condorcet winner: the cyclic matrix of another seed, actions reversed."""
    return make_scenario("cyclic", actions=10, seed=11).matrix[::-1, ::-1]


@pytest.fixture(scope="module")
def sweep_run(tiny_run, tmp_path_factory):
    workdir = tmp_path_factory.mktemp("sweeps") / "run"
    shutil.copytree(tiny_run, workdir, symlinks=True)
    np.savetxt(workdir / "matrix.csv", file_matrix(), delimiter=",", fmt="%.17g", header="the file scenario")
    snakemake(workdir, "--cores", "2", "all", "sweeps", configs=SWEEP_CONFIGS, check=True)
    snakemake(workdir, "--report", "report.html", "all", "sweeps", configs=SWEEP_CONFIGS, check=True)
    snakemake(workdir, "--report", "default-target.html", configs=SWEEP_CONFIGS, check=True)
    return workdir


def embedded_files(html):
    """The files a Snakemake report embeds as base64 data URIs, decoded."""
    pattern = r"data:[\w/+.-]+;charset=[\w-]+;filename=[^;]+;base64,([A-Za-z0-9+/=]+)"
    return [base64.b64decode(m) for m in re.findall(pattern, html)]


def points(workdir):
    """Every sweep point file of the run, concatenated."""
    files = sorted((workdir / "results/sweeps/points").rglob("*.parquet"))
    return pd.concat([pq.read_table(p).to_pandas() for p in files], ignore_index=True)


@pytest.mark.parametrize(
    "override, message",
    [
        ("matrix_file: missing.csv", "matrix file missing.csv: file not found"),  # the horizon sweep reads it
        # the borda scenario cannot make i2 the Borda winner with 4 actions
        ("sweeps: {actions: {scenarios: [borda], actions: [4], horizon: 300}}", "config: sweeps/actions/actions"),
    ],
)
def test_bad_sweep_config_fails_before_any_job_and_names_the_key(tmp_path, override, message):
    """Planning the sweeps target fails first (the default target does not check the sweeps)."""
    (tmp_path / "matrix.csv").write_text("\n".join(",".join(map(str, row)) for row in file_matrix()))
    (tmp_path / "bad.yaml").write_text(override + "\n")
    result = snakemake(tmp_path, "--cores", "1", "sweeps", configs=[*SWEEP_CONFIGS, tmp_path / "bad.yaml"])
    assert result.returncode != 0
    assert message in result.stderr
    assert not (tmp_path / "results").exists()


def test_sweep_points_hold_every_run_and_reproduce_simulate(sweep_run):
    df = points(sweep_run)
    assert set(df["algorithm"]) == set(CFG["algorithms"])
    expected = {("file", CFG["actions"], T) for T in SWEEP["horizon"]["horizons"]}
    expected |= {("cyclic", A, SWEEP["actions"]["horizon"]) for A in SWEEP["actions"]["actions"]}
    assert set(map(tuple, df[["scenario", "actions", "horizon"]].drop_duplicates().to_numpy().tolist())) == expected
    for _, part in df.groupby(["scenario", "algorithm", "actions", "horizon"]):
        assert sorted(part["run"].unique()) == list(range(SWEEP["runs"]))
        assert part["t"].max() == part["horizon"].iloc[0]
    # run 3 of (file, dts, T = 400) is the run `duelbandits simulate --run 3` makes
    X = file_matrix()
    res = simulate(X, "dts", 400, run_seed(CFG["seed"], "file", "dts", 3))
    row = df.query("scenario == 'file' and algorithm == 'dts' and horizon == 400 and run == 3 and t == 400")
    row = row[row["regret"] == "copeland"]
    assert row["cumulative_regret"].item() == pytest.approx(regret.cumulative("copeland", X, res.I, res.J)[-1])


def test_sweep_figures_are_drawn_from_the_sweep_tables(sweep_run):
    """Each sweep figure is a one-page PDF and a PNG of that page's size at the PNG resolution, both
    carrying the data digest of the very tables (and arguments) it is drawn from."""
    sweeps_dir = sweep_run / "results/sweeps"
    expected = {
        "horizon-file": digests.data_digest(
            {"table": sweeps_dir / "horizon.parquet", "exponents": sweeps_dir / "exponents.parquet"},
            figure="sweep-horizon",
            scenario="file",
        ),
        "actions-cyclic": digests.data_digest(
            {"table": sweeps_dir / "actions.parquet"}, figure="sweep-actions", scenario="cyclic"
        ),
    }
    for name, digest in expected.items():
        stem = sweep_run / f"figures/sweeps/{name}"
        assert assert_figure_pair(stem.with_suffix(".pdf"), stem.with_suffix(".png")) == digest, name


def test_report_is_self_contained_with_every_figure_caption_table_and_the_config(sweep_run):
    html = (sweep_run / "report.html").read_text()
    assert not re.search(r"<script[^>]*\ssrc=|<link[^>]*href=\"https?:", html)  # nothing fetched from the web
    embedded = embedded_files(html)
    pngs = [d for d in embedded if d.startswith(b"\x89PNG")]
    pages = [d.decode("utf-8", "replace") for d in embedded if d.lstrip().startswith(b"<!DOCTYPE html>")]
    # one main and one appendix figure per algorithm for each scenario, and the two sweep figures
    assert len(pngs) == len(CFG["scenarios"]) * (1 + len(CFG["algorithms"])) + 2
    titles = " ".join(pages)
    for title in (
        "Final regret at T = ",
        "Effective configuration",
        "Regret exponents",
        "Scaling in the number of actions A",
    ):
        assert title in titles
    config_page = next(p for p in pages if "Effective configuration" in p)
    assert "sweeps/horizon/horizons" in config_page and json.dumps(SWEEP["horizon"]["horizons"]) in config_page
    for caption in (
        "Main-text figure of the <strong>borda</strong>",
        "Appendix figure of one algorithm (its label and the figure's title name it) on the <strong>borda</strong>",
        "Horizon sweep on the <strong>file</strong>",
        "Scaling in the number of actions on the <strong>cyclic</strong>",
    ):
        assert caption in html.replace("\\n", " ").replace("\n", " ")
    # one job draws a scenario's appendix figures: each file's labels name its algorithm
    for scenario in CFG["scenarios"]:
        for algorithm in CFG["algorithms"]:
            labels = f'"labels": {{"figure": "appendix", "scenario": "{scenario}", "algorithm": "{algorithm}"}}'
            entry = re.escape(f'"figures/appendix/{scenario}-{algorithm}.png": {{') + r"[^{}]*" + re.escape(labels)
            assert re.search(entry, html), labels


def test_report_of_the_default_target_has_the_paper_figures_and_tables_only(sweep_run):
    html = (sweep_run / "default-target.html").read_text()
    embedded = embedded_files(html)
    pngs = [d for d in embedded if d.startswith(b"\x89PNG")]
    assert len(pngs) == len(CFG["scenarios"]) * (1 + len(CFG["algorithms"]))
    pages = " ".join(d.decode("utf-8", "replace") for d in embedded if d.lstrip().startswith(b"<!DOCTYPE html>"))
    assert "Final regret at T = " in pages and "Effective configuration" in pages
    assert "Regret exponents" not in pages
