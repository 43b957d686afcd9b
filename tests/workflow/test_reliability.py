"""Faults and determinism: a killed job, another core count, a tree verified by its manifest."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq
from test_workflow import sha256_tree
from workflow_helpers import REPO, TINY


def _simulate_pids(workdir: Path):
    """PIDs of `duelbandits simulate` processes running in ``workdir``."""
    pids = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmd = (proc / "cmdline").read_bytes().split(b"\0")
            cwd = os.readlink(proc / "cwd")
        except OSError:
            continue
        if b"duelbandits" in cmd and b"simulate" in cmd and Path(cwd) == workdir:
            pids.append(int(proc.name))
    return pids


def test_killed_job_then_rerun_with_one_core_matches_the_uninterrupted_run(tiny_run, tmp_path):
    cmd = [
        sys.executable,
        "-m",
        "snakemake",
        "-s",
        str(REPO / "Snakefile"),
        "--directory",
        str(tmp_path),
        "--configfile",
        str(REPO / "config.yaml"),
        str(TINY),
        "--cores",
        "1",
    ]
    first = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 300
    killed = None
    while killed is None and time.monotonic() < deadline and first.poll() is None:
        pids = _simulate_pids(tmp_path)
        if pids:
            time.sleep(0.2)  # let it get going: importing, compiling or simulating
            try:
                os.kill(pids[0], signal.SIGKILL)
                killed = pids[0]
            except ProcessLookupError:
                pass  # it finished first: wait for the next job
        time.sleep(0.05)
    _, stderr = first.communicate(timeout=300)
    assert killed is not None, "no simulate job was seen running"
    assert first.returncode != 0, "snakemake should report the killed job"

    # Nothing a rerun would accept as done: every chunk present is complete.
    for chunk in (tmp_path / "results/runs").rglob("*.parquet"):
        assert pq.read_table(chunk).num_rows % 300 == 0, chunk

    rerun = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    assert rerun.returncode == 0, rerun.stderr[-3000:]
    assert not list((tmp_path / "results").rglob("*.tmp"))
    # --cores 1 after a kill gives the bytes of the uninterrupted --cores 2 run
    assert sha256_tree(tmp_path, "results", "figures") == sha256_tree(tiny_run, "results", "figures")


def test_manifest_verifies_the_tree_and_catches_a_change(tiny_run):
    verify = [sys.executable, "-m", "duelbandits", "manifest", "verify", "results/MANIFEST.sha256"]
    ok = subprocess.run(verify, cwd=tiny_run, capture_output=True, text=True)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    listed = (tiny_run / "results/MANIFEST.sha256").read_text()
    assert "figures/main/borda.png" in listed and "results/traces/condorcet.parquet" in listed
    assert '"horizon": 300' in listed
    png = tiny_run / "figures/main/borda.png"
    original = png.read_bytes()
    try:
        png.write_bytes(original + b"\0")  # a byte after IEND: not the PNG the pipeline drew
        bad = subprocess.run(verify, cwd=tiny_run, capture_output=True, text=True)
        assert bad.returncode == 1 and "differs       figures/main/borda.png" in bad.stdout.splitlines()
    finally:
        png.write_bytes(original)
