"""bench/bench_pipeline.py on the tiny config: it runs the workflow from a cold numba cache and prints
what issue 20 asks of it (wall time, per-rule CPU, the bare simulation CPU and their ratio, the DAG's
levels, a second target's own time), each number consistent with the others. The benchmark itself,
not a timing: no number is compared with a target here."""

import re
import subprocess
import sys

import pytest
from workflow_helpers import REPO

pytestmark = pytest.mark.slow

TINY = ["horizon=300", "runs=2", "runs_per_job=2", "stride=10", "summary_points=100",
        "algorithms=[sparring-exp3p,partial-monitoring]"]  # fmt: skip
"""Two algorithms of one compile group (paper-2, the cheaper to compile): one compile job, not the paper's two."""
THEN = "figures/panels/main-borda/a.pdf"  # a second target of one job (panel_main)


@pytest.fixture(scope="module")
def printed(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("bench")
    cmd = [sys.executable, str(REPO / "bench" / "bench_pipeline.py"), "--workdir", str(workdir / "run")]
    result = subprocess.run([*cmd, "--config", *TINY, "--then", THEN], capture_output=True, text=True, timeout=1200)
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout


def rule_rows(block: str) -> dict[str, tuple[int, float]]:
    return {
        m[0]: (int(m[1]), float(m[2])) for m in re.findall(r"^(\S+)\s+(\d+)\s+([\d.]+)\s+[\d.]+\s+\d+$", block, re.M)
    }


def test_it_prints_the_wall_time_the_rules_cpu_and_the_ratio_to_the_bare_simulation(printed):
    first = printed.split(f"then {THEN}")[0]
    assert re.search(r"wall time with --cores 2 \(cold numba cache\): [\d.]+ s", first)
    rows = rule_rows(first)
    # 2 scenarios x 2 algorithms, one chunk each (2 runs, 2 per job): the simulation jobs
    assert rows["simulate"][0] == 4 and rows["aggregate"][0] == 2
    total = float(re.search(r"^total\s+\d+\s+([\d.]+)", first, re.M).group(1))
    assert total == pytest.approx(sum(cpu for _, cpu in rows.values()), abs=0.05 * len(rows))
    # the bare run simulates the same runs: 2 x 2 x 2 of T = 300
    assert "bare simulation CPU of paper, 8 runs, 2,400 steps (" in first
    bare = float(re.search(r"bare simulation CPU .*: ([\d.]+) s", first).group(1))
    ratio = float(re.search(r"pipeline CPU / bare simulation CPU: ([\d.]+)", first).group(1))
    # both printed rounded (bare to 0.0005 s, the total to 0.05 s, the ratio to 0.005): the ratio must
    # lie between the quotients of the extremes those roundings allow
    assert bare > 0.0005
    assert (total - 0.05) / (bare + 0.0005) - 0.005 <= ratio <= (total + 0.05) / (bare - 0.0005) + 0.005


def test_it_prints_the_dags_levels_starting_with_every_job_that_needs_no_other(printed):
    def level(k):
        found = re.search(rf"level {k}: (\d+) \((.*)\)", printed)
        jobs = dict((name, int(n)) for name, n in re.findall(r"(\w+) (\d+)", found.group(2)))
        assert int(found.group(1)) == sum(jobs.values())
        return jobs

    # the compile job first, the simulations (which wait for it) next, then the aggregation
    assert level(0)["compile_kernels"] == 1 and level(0)["scenario"] == 2 and "simulate" not in level(0)
    assert level(1) == {"simulate": 4}
    assert level(2) == {"aggregate": 2}


def test_then_reports_only_the_jobs_of_the_second_target(printed):
    then = printed.split(f"then {THEN}")[1]
    assert re.search(r": wall time with --cores 2: [\d.]+ s", then)
    rows = rule_rows(then)
    assert list(rows) == ["figures/panels/main"] and rows["figures/panels/main"][0] == 1, rows  # by benchmark folder
