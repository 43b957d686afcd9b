"""End to end beyond the paper: the long-horizon target `asymptotics` on tests/workflow/asymptotics_tiny.yaml,
its planning on the paper config rendered by the Slurm executor into sbatch calls of fake Slurm commands (each
job's own request: tests/test_rules_plumbing.py). A killed job leaves no file: tests/workflow/test_reliability.py."""

import os
import re
import subprocess
import time

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
import yaml
from workflow_helpers import REPO, TINY, assert_figure_pair, snakemake, snakemake_command

from duelbandits import digests, plan, resources, schemas, storage
from duelbandits.studies.asymptotics import analysis as asymptotics

ASYMPTOTICS_TINY = TINY.with_name("asymptotics_tiny.yaml")
PAPER = yaml.safe_load((REPO / "config.yaml").read_text())
FULL = PAPER["asymptotics"]
TINY_SECTION = {**FULL, **yaml.safe_load(ASYMPTOTICS_TINY.read_text())["asymptotics"]}


@pytest.fixture(scope="module")
def asymptotics_run(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("asymptotics")
    snakemake(workdir, "--cores", "2", "asymptotics", configs=[TINY, ASYMPTOTICS_TINY], check=True)
    return workdir


def point_files(workdir):
    return sorted((workdir / "results/asymptotics/points").rglob("*.parquet"))


def test_points_are_split_into_jobs_by_steps_and_hold_every_run(asymptotics_run):
    files = point_files(asymptotics_run)
    df = pd.concat([pq.read_table(p).to_pandas() for p in files], ignore_index=True)
    for scenario in TINY_SECTION["scenarios"]:
        for T in TINY_SECTION["horizons"]:
            runs = plan.point_runs(TINY_SECTION["runs"], TINY_SECTION["runs_at"], T)
            jobs = plan.job_ranges(runs, T, TINY_SECTION["steps_per_job"])
            for algorithm in TINY_SECTION["algorithms"][scenario]:
                folder = asymptotics_run / f"results/asymptotics/points/{scenario}/A{PAPER['actions']}-T{T}/{algorithm}"
                assert sorted(p.name for p in folder.iterdir()) == [f"chunk-{k}.parquet" for k in range(len(jobs))]
                part = df[(df["scenario"] == scenario) & (df["algorithm"] == algorithm) & (df["horizon"] == T)]
                assert sorted(part["run"].unique()) == list(range(runs))
    assert {len(plan.job_ranges(4, T, 2400)) for T in (200, 600)} == {1}  # the tiny config's split
    assert len(plan.job_ranges(3, 2000, 2400)) == 3


def test_tables_are_the_local_slopes_of_the_points(asymptotics_run):
    results = asymptotics_run / "results/asymptotics"
    assert pq.read_schema(results / "local.parquet").remove_metadata().equals(schemas.ASYMPTOTIC_LOCAL_SCHEMA)
    exponents = pq.read_table(results / "exponents.parquet")
    assert exponents.schema.remove_metadata().equals(schemas.ASYMPTOTIC_EXPONENT_SCHEMA)
    ex = exponents.to_pandas()
    local = pq.read_table(results / "local.parquet").to_pandas()
    df = pd.concat([pq.read_table(p).to_pandas() for p in point_files(asymptotics_run)], ignore_index=True)
    finals = df[df["t"] == df["horizon"]]
    md = (results / "exponents.md").read_text()
    for scenario in TINY_SECTION["scenarios"]:
        for algorithm in TINY_SECTION["algorithms"][scenario]:
            kind = asymptotics.regrets_shown(scenario, algorithm)[0]
            part = finals[(finals["scenario"] == scenario) & (finals["algorithm"] == algorithm)]
            means = part[part["regret"] == kind].groupby("horizon")["cumulative_regret"].mean()
            rows = local[
                (local["scenario"] == scenario) & (local["algorithm"] == algorithm) & (local["regret"] == kind)
            ]
            np.testing.assert_allclose(
                rows.sort_values("horizon")["slope"].to_numpy()[1:], asymptotics.local_slopes(means.index, means)
            )
            assert rows.sort_values("horizon")["runs"].tolist() == [4, 4, 3]
            row = ex[(ex["scenario"] == scenario) & (ex["algorithm"] == algorithm) & (ex["regret"] == kind)].iloc[0]
            assert row["confidence"] == TINY_SECTION["confidence"]  # the verdicts: tests/test_asymptotics.py
            assert f"| {scenario} | {algorithm} |" in md
    prov = storage.read_provenance(results / "exponents.parquet")
    assert prov["seed"] == PAPER["seed"] and prov["resamples"] == TINY_SECTION["bootstrap"]
    for scenario in TINY_SECTION["scenarios"]:
        stem = asymptotics_run / f"figures/asymptotics/{scenario}"
        digest = digests.data_digest(
            {"local": results / "local.parquet", "exponents": results / "exponents.parquet"},
            figure="asymptotics",
            scenario=scenario,
        )
        assert assert_figure_pair(stem.with_suffix(".pdf"), stem.with_suffix(".png")) == digest


def test_every_point_job_logs_one_progress_line_per_run(asymptotics_run):
    logs = sorted((asymptotics_run / "logs/asymptotics/points").rglob("*.log"))
    assert len(logs) == len(point_files(asymptotics_run))
    for log in logs:
        lines = [line for line in log.read_text().splitlines() if " runs done, elapsed " in line]
        total = int(lines[-1].split(": ")[1].split("/")[1].split()[0])
        assert [line.split(": ")[1].split()[0] for line in lines] == [f"{k}/{total}" for k in range(1, total + 1)]


FAKE_SLURM = {
    "sbatch": 'echo "$*" >> "$FAKE_SBATCH_LOG"\necho $((1000 + $(wc -l < "$FAKE_SBATCH_LOG")))\n',
    "sinfo": 'printf "PARTITION\\ndebug*\\n"\n',
    "sacctmgr": "echo test\n",
    "sshare": "echo test\n",
    "squeue": "exit 0\n",
    "sacct": "exit 0\n",
    "scontrol": "exit 0\n",
}


def test_the_slurm_profile_submits_the_point_jobs_in_groups_that_request_their_members_sum(tmp_path):
    """The Slurm executor with workflow/profiles/slurm submits every point job of the paper config to a fake
    `sbatch` that records its arguments (nothing runs); the run is then killed. The profile's `point=simulate`
    group packs 8 jobs per submission: each submission asks for the sum of its members' runtimes and the
    largest of their memory, so the requests add up to what duelbandits.resources computes for every job."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, body in FAKE_SLURM.items():
        (bin_dir / name).write_text("#!/bin/sh\n" + body)
        (bin_dir / name).chmod(0o755)
    log = tmp_path / "sbatch.log"
    log.touch()
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}", FAKE_SBATCH_LOG=str(log))
    workdir = tmp_path / "run"
    workdir.mkdir()
    cmd = snakemake_command(workdir, [REPO / "config.yaml"], "--jobs", "200", "asymptotics",
                            "--profile", str(REPO / "workflow/profiles/slurm"), "--default-resources",
                            "slurm_account=test", "slurm_partition=debug", "runtime=15", "mem_mb=1000",
                            "cpus_per_task=1")  # fmt: skip
    submissions = -(-156 // 8)
    output = tmp_path / "snakemake.out"
    with open(output, "w") as sink:
        proc = subprocess.Popen(cmd, stdout=sink, stderr=subprocess.STDOUT, env=env)
    try:
        deadline = time.monotonic() + 120
        while len(log.read_text().splitlines()) < submissions and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.5)
        time.sleep(2)  # nothing more comes: every point job is in one of those submissions
    finally:
        proc.kill()
        proc.wait(timeout=30)
    calls = log.read_text().splitlines()
    assert len(calls) == submissions, output.read_text()[-3000:]
    runtimes = [int(re.search(r" -t '?(\d+)", call).group(1)) for call in calls]
    mems = [int(re.search(r" --mem (\d+)", call).group(1)) for call in calls]
    jobs = plan.jobs(yaml.safe_load((REPO / "config.yaml").read_text()), "asymptotics")
    assert len(jobs) == 156
    assert sum(runtimes) == sum(
        resources.runtime_minutes(job.algorithm, job.runs, job.horizon, job.actions) for job in jobs
    )
    assert max(mems) == -(-resources.sweep_point_bytes(max(job.horizon for job in jobs), PAPER["actions"]) // 10**6)
    assert max(resources.job_runtime(job) for job in jobs) <= 10 and max(runtimes) <= 8 * 10  # 8 members a group
