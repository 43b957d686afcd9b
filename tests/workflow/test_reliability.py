"""Faults and determinism: a killed job, then another core count. (A tree verified by its manifest: the rebuild
in tests/workflow/test_workflow.py and the reference run; a changed file named: tests/test_manifest.py.)"""

import os
import signal
import subprocess
import time
from pathlib import Path

import pyarrow.parquet as pq
from workflow_helpers import REPO, TINY, run_workflow, sha256_tree, snakemake_command

SLOW_JOBS = ["horizon=300000", "runs=4", "runs_per_job=2", "algorithms=[ts-borda]", "stride=1000"]
"""This test's own config: 4 simulate jobs of 2 TS-Borda runs of 300,000 steps, 2.4 to 2.6 s each as
measured (TS-Borda takes 2.8 us a step at A = 10, the imports 0.5 s), so the job the test kills 0.5 s
after it appears is in mid-run, never exiting. (The shared tiny run's jobs last 0.5 s: too short.)"""

TARGETS = [f"results/runs/{scenario}/ts-borda/chunk-{k}.parquet" for scenario in ("condorcet", "borda") for k in (0, 1)]


def _running_simulate_jobs(workdir: Path) -> dict[int, str]:
    """``{pid: output chunk}`` of the `duelbandits simulate` processes running (not exited) in ``workdir``."""
    jobs = {}
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmd = (proc / "cmdline").read_bytes().split(b"\0")
            cwd = os.readlink(proc / "cwd")
            state = (proc / "stat").read_text().rpartition(")")[2].split()[0]
        except (OSError, IndexError):
            continue  # it exited meanwhile
        if b"duelbandits" in cmd and b"simulate" in cmd and Path(cwd) == workdir and state not in "ZX":
            jobs[int(proc.name)] = cmd[cmd.index(b"--out") + 1].decode()
    return jobs


def _workflow(workdir: Path, *args) -> list[str]:
    return snakemake_command(workdir, [REPO / "config.yaml", TINY], "--config", *SLOW_JOBS, *args)


def test_killed_job_then_rerun_with_one_core_matches_the_uninterrupted_run(tmp_path):
    reference, workdir = tmp_path / "uninterrupted", tmp_path / "killed"
    done = run_workflow(_workflow(reference, "--cores", "2", *TARGETS), 900)
    assert done.returncode == 0, done.stderr[-3000:]

    cmd = _workflow(workdir, "--cores", "1", *TARGETS)
    first = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 600
    killed = None
    while killed is None and time.monotonic() < deadline and first.poll() is None:
        for pid, out in _running_simulate_jobs(workdir).items():
            time.sleep(0.5)  # into the job, with about 2 s of it left
            if pid not in _running_simulate_jobs(workdir):
                continue  # it exited first: try the next job
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                continue
            killed = out
            break
        time.sleep(0.05)
    _, stderr = first.communicate(timeout=600)
    assert killed is not None, "no simulate job was seen running"
    # the kill happened: Snakemake reports the job failed and stops, and the job's chunk is not there
    assert first.returncode != 0, "snakemake should report the killed job"
    assert "Error in rule simulate" in stderr, stderr[-3000:]
    assert not (workdir / killed).exists(), killed

    # Nothing a rerun would accept as done: every chunk present is complete.
    for chunk in (workdir / "results/runs").rglob("*.parquet"):
        assert pq.read_table(chunk).num_rows == 2 * 300_000, chunk
    assert not list((workdir / "results").rglob("*.tmp"))

    rerun = run_workflow(cmd, 900)
    assert rerun.returncode == 0, rerun.stderr[-3000:]
    assert not list((workdir / "results").rglob("*.tmp"))
    # --cores 1 after a kill gives the bytes of the uninterrupted --cores 2 run
    assert sorted(p.relative_to(workdir).as_posix() for p in (workdir / "results/runs").rglob("*.parquet")) == sorted(
        TARGETS
    )
    assert sha256_tree(workdir, "results") == sha256_tree(reference, "results")
