"""bench/bench_pipeline.py's bare simulation: every run of a target's simulation jobs, counted by hand."""

import subprocess
import sys
from pathlib import Path

import bench_pipeline as BENCH
import pytest

REPO = Path(__file__).resolve().parents[1]
CHEAP = "algorithms=[partial-monitoring, iss]"  # the two kernels that compile fastest


def bare(targets, *overrides) -> tuple[int, int]:
    """(runs, steps) the bare script simulated for ``targets`` (plan names) with the paper config and overrides."""
    done = subprocess.run(
        [sys.executable, "-c", BENCH.BARE, str(REPO / "config.yaml"), targets, CHEAP, *overrides],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    runs, steps, seconds = done.stdout.split()
    assert float(seconds) > 0
    return int(runs), int(steps)


@pytest.mark.slow  # the benchmark's own check, next to tests/workflow/test_bench_pipeline.py
def test_the_sweeps_bare_are_the_runs_of_every_point_of_both_sweeps_once():
    """The horizon sweep at A = 10 (T = 200, 400) and the action sweep at T = 200 (A = 6, and A = 10, a
    point of the horizon sweep, planned once): 2 algorithms x 3 distinct points x 2 runs, one run a job; the
    nested override merges into the config's section, as Snakemake's --config does. With the paper's
    (2 scenarios x 2 algorithms x 1 run) they add up (the paper's alone: tests/workflow/test_bench_pipeline.py)."""
    sweeps = (
        "sweeps={runs: 2, runs_per_job: 1, horizon: {scenarios: [borda], horizons: [200, 400]}, "
        "actions: {scenarios: [borda], actions: [6, 10], horizon: 200}}"
    )
    assert bare("sweeps", sweeps) == (2 * 3 * 2, 2 * 2 * (200 + 400 + 200))
    assert bare("paper,sweeps", sweeps, "horizon=100", "runs=1") == (2 * 2 + 12, 2 * 2 * 100 + 3200)


@pytest.mark.parametrize("target", ["all", "table", "sweeps", "field", "asymptotics"])
def test_each_target_with_a_bare_run_is_a_plan_target(target):
    from duelbandits import plan

    assert BENCH.BARE_TARGETS[target] in ("paper", *plan.POINT_TARGETS)
