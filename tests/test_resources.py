"""duelbandits.resources: the memory and runtime estimates, the memory check and
human(), each against a hand computation written here from the documented constants (not by
calling the function under test), off the paper's A = 10 and at each rule's boundary."""

import os
import types
from pathlib import Path

import pytest

from duelbandits import plan, resources

# The documented constants, written out by hand (resources.py's docstrings):
MIB = 2**20
BASE = 300 * MIB  # a job before its data: Python, numpy, pyarrow, the kernels = 314,572,800 B
MATRIX = 16 * 8  # 16 copies of an A x A float64 array: 128 B per entry
GIB = 2**30
REPO = Path(__file__).resolve().parents[1]


# --- Memory estimates -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("estimate", "args", "expected"),
    [
        # 314,572,800 + 25 * 40,000 * (64 + 2 * 10 * 24 = 544) + 128 * 100 = 314,572,800 + 544,000,000 + 12,800
        ("simulate_bytes", (25, 40_000, 10, 2), 858_585_600),
        # one player, A = 5: 64 + 120 = 184 per step -> 184,000,000; 128 * 25 = 3,200
        ("simulate_bytes", (25, 40_000, 5, 1), 498_576_000),
        # no strategies, A = 13: 3 * 10^6 * 64 = 192,000,000; 128 * 169 = 21,632
        ("simulate_bytes", (3, 1_000_000, 13, 0), 506_594_432),
        # 314,572,800 + 100 * 40,000 * 240 (= 960,000,000) + 128 * 100
        ("aggregate_bytes", (100, 40_000, 10), 1_274_585_600),
        # A = 1000: 128,000,000 for the matrices; 1 * 1 * 240
        ("aggregate_bytes", (1, 1, 1000), 442_573_040),
        # 314,572,800 + 128 A^2: 3,200 and 128,000,000
        ("matrix_bytes", (5,), BASE + MATRIX * 25),
        ("matrix_bytes", (1000,), 442_572_800),
        # 314,572,800 + 10^7 * 64 + 12,800 + 134,217,728 = 1,088,803,328 B: the documented 1.1 GB
        ("sweep_point_bytes", (10**7, 10), 1_088_803_328),
    ],
)
def test_memory_estimates_at_hand_computed_points(estimate, args, expected):
    assert getattr(resources, estimate)(*args) == expected


def test_a_bootstrap_is_refused_above_four_copies_of_resamples_by_horizons_plus_runs_floats(monkeypatch):
    """1000 resamples of 4 horizons x runs 0..19: 4 x 8 B x 1000 x (4 + 20) = 768,000 B."""
    import pandas as pd

    points = pd.DataFrame({"run": [r for r in range(20) for _ in range(4)], "horizon": [10, 20, 30, 40] * 20})
    monkeypatch.setattr(resources, "physical_memory", lambda: 768_000)
    resources.check_bootstrap_memory(1000, points)
    with pytest.raises(resources.LimitError, match="^--resamples 1001 needs about 750.8 KiB"):
        resources.check_bootstrap_memory(1001, points)  # 768,768 B


# --- Runtime estimate -----------------------------------------------------------------------------


def test_the_costs_file_holds_built_ins_only_each_measured_below_the_default():
    from duelbandits.algorithms import BUILTINS

    costs = resources.measured_costs()
    assert set(costs) <= set(BUILTINS) and costs["iss"] == (2.1e-6, 1.4)
    assert all(0 < step < resources.DEFAULT_STEP_SECONDS and compile > 0 for step, compile in costs.values())


def bench_module():
    """bench/bench_algorithms.py, imported from its file."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_algorithms", REPO / "bench" / "bench_algorithms.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    return bench


def test_the_benchmark_rewrites_one_column_of_the_costs_file_for_the_built_ins(tmp_path, monkeypatch):
    """bench/bench_algorithms.py --write: the measured figures at two significant digits, the other
    column and the comments kept, a row per built-in in the registry's order (a new one's other cell
    empty, read as not measured), a row of a former built-in dropped."""
    from duelbandits import algorithms

    bench = bench_module()
    path = tmp_path / "costs.csv"
    path.write_text("# how\nalgorithm,step_us,compile_s\niss,2.1,1.4\ngone,1.0,1.0\n")
    monkeypatch.setattr(algorithms, "BUILTINS", {"iss": None, "new": None, "slow": None})
    bench.write_costs("step_us", {"new": 0.876, "iss": 0.8449, "slow": 100.0}, path)  # 100: 2 digits, 1e+02
    assert path.read_text() == "# how\nalgorithm,step_us,compile_s\niss,0.84,1.4\nnew,0.88,\nslow,1e+02,\n"
    costs = {"iss": (0.84e-6, 1.4), "new": (0.88e-6, None), "slow": (1e-4, None)}
    assert resources.read_costs(path.read_text()) == costs


@pytest.mark.parametrize(
    "seconds, jobs, sizes",
    [
        ([6.8, 4.1, 1.8, 0.95, 1.4, 3.2], 2, [2, 4]),  # the paper's: 10.9 | 7.35, not 12.7 | 5.55 (three and three)
        ([5.0, 1.0, 1.0, 1.0, 1.0, 1.0], 2, [1, 5]),  # 5 | 5: the heavy first kernel alone
        ([1.0, 1.0, 1.0, 1.0, 4.0], 2, [4, 1]),  # 4 | 4: the heavy last kernel alone
        ([2.0, 2.0, 2.0], 2, [1, 2]),  # 2 | 4 and 4 | 2 tie at 4: the first cut
        ([1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 6.0], 3, [1, 5, 1]),  # no cut below 6; 1 | 5 | 6 is the first at 6
        ([4.0, 1.0], 3, [1, 1]),  # more jobs than kernels: one each
    ],
)
def test_the_benchmark_balances_the_compile_groups_by_hand(monkeypatch, seconds, jobs, sizes):
    """bench_algorithms.py --compile's advice for algorithms.KERNEL_GROUPS: the cut with the smallest largest
    group, worked out by hand for each list of compile times."""
    from duelbandits import algorithms

    fake = {f"k{i}": types.SimpleNamespace(family="paper") for i in range(len(seconds))}
    monkeypatch.setattr(algorithms, "BUILTINS", fake)
    groups = bench_module().balanced_groups({f"k{i}": s for i, s in enumerate(seconds)}, jobs)
    assert [len(members) for members in groups.values()] == sizes
    assert [slug for members in groups.values() for slug in members] == list(fake)


def test_the_benchmark_refuses_an_unknown_algorithm_by_name(capsys):
    """--algorithms (time only the new built-ins): a slug the registry lacks is one line, before any timing."""
    with pytest.raises(SystemExit) as exit:
        bench_module().main(["--algorithms", "rucb", "nope", "zz"])
    assert exit.value.code == 2
    assert (
        capsys.readouterr()
        .err.splitlines()[-1]
        .endswith("--algorithms: unknown algorithm(s) nope, zz; see duelbandits list")
    )


@pytest.mark.parametrize(
    "algorithm, runs, horizon, actions, attempt, seconds, minutes",
    [
        # a plugin's algorithm, not in the costs file: 10^4 steps x 3 us = 0.03 s (ISS's: 2.1 us); 40 runs x 10^6
        # steps x 3 us = 120 s, 60 + 360 = 420 s = 7 min
        ("not-measured", 10, 1000, 10, 1, 0.03, 2),
        ("iss", 10, 1000, 10, 1, 0.021, 2),
        ("not-measured", 40, 10**6, 10, 1, 120.0, 7),
        # TS-Maximin, 0.8 us a step, 100 runs of 10^6 steps: 80 s at A <= 10 (the factor is max(1, (A/10)^2) = 1),
        # so 60 + 3 * 80 = 300 s = 5 min exactly; one step more (300.00024 s in all) is 6 min
        ("ts-maximin", 100, 10**6, 5, 1, 80.0, 5),
        ("ts-maximin", 100, 10**6, 10, 1, 80.0, 5),
        ("ts-maximin", 100, 10**6 + 1, 10, 1, 80.00008, 6),
        # (11/10)^2 = 1.21: 96.8 s, 60 + 290.4 = 350.4 s -> 6 min; (20/10)^2 = 4: 320 s, 60 + 960 = 1020 s = 17 min
        ("ts-maximin", 100, 10**6, 11, 1, 96.8, 6),
        ("ts-maximin", 100, 10**6, 20, 1, 320.0, 17),
        # a retry requests the attempt times the first runtime; an attempt below 1 counts as the first
        ("ts-maximin", 100, 10**6, 8, 3, 80.0, 15),
        ("ts-maximin", 100, 10**6, 20, 3, 320.0, 51),
        ("ts-maximin", 100, 10**6, 20, 0, 320.0, 17),
        # the start alone: 60 s + 3 * (1 step * 0.8 us) -> 2 min
        ("ts-maximin", 1, 1, 10, 1, 0.8e-6, 2),
    ],
)
def test_a_jobs_runtime_by_hand(algorithm, runs, horizon, actions, attempt, seconds, minutes):
    assert resources.job_seconds(algorithm, runs, horizon, actions) == pytest.approx(seconds, rel=1e-12)
    assert resources.runtime_minutes(algorithm, runs, horizon, actions, attempt=attempt) == minutes


def test_a_job_requests_its_runtime():
    job = plan.Job("asymptotics", "borda", 20, 10**6, "ts-maximin", 0, 0, 99)  # 17 minutes, above
    assert resources.job_runtime(job, 2) == 34


# --- The memory check and human() ------------------------------------------------------------------


def test_check_memory_passes_at_the_limit_and_refuses_one_byte_more_naming_what_the_sizes_and_the_source(
    monkeypatch,
):
    resources.check_memory("x", 24 * GIB, limit=24 * GIB)  # the last valid value
    with pytest.raises(resources.LimitError) as err:
        resources.check_memory("--horizon 2000000000 x 10000 run(s)", 24 * GIB + 1, limit=24 * GIB)
    assert str(err.value) == (
        "--horizon 2000000000 x 10000 run(s) needs about 24.0 GiB of memory, more than the limit of 24.0 GiB "
        "(this machine's memory)"
    )
    with pytest.raises(resources.LimitError) as err:
        resources.check_memory("a sweep point", 3 * GIB // 2, limit=GIB, source="the cluster's mem_mb")
    assert str(err.value) == (
        "a sweep point needs about 1.5 GiB of memory, more than the limit of 1.0 GiB (the cluster's mem_mb)"
    )
    assert issubclass(resources.LimitError, ValueError)
    monkeypatch.setattr(resources, "physical_memory", lambda: 1000)  # the default limit: this machine's
    resources.check_memory("a", 1000)
    with pytest.raises(resources.LimitError, match=r"^a needs about 1001 B of memory, more than the limit of 1000 B"):
        resources.check_memory("a", 1001)


def test_physical_memory_is_pages_times_page_size_or_unbounded_without_sysconf(monkeypatch):
    assert resources.physical_memory() == os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") > 0

    def no_sysconf(name):
        raise ValueError(name)

    monkeypatch.setattr(os, "sysconf", no_sysconf)
    assert resources.physical_memory() == 2**62


def test_human_uses_binary_units_with_one_decimal_above_bytes():
    for n, text in [
        (1023, "1023 B"),  # the last byte count shown in B
        (512.4, "512 B"),
        (1024, "1.0 KiB"),  # the first in KiB
        (2**20, "1.0 MiB"),
        (int(7.3 * 2**40), "7.3 TiB"),
        (3 * GIB // 2, "1.5 GiB"),
        (int(1.3 * 2**50), "1.3 PiB"),
        (5 * 2**60, "5120.0 PiB"),  # no unit above PiB
    ]:
        assert resources.human(n) == text, n


# --- The workflow's resource requests, computed by hand from the constants above --------------------


def test_megabytes_round_up_to_the_next_whole_mb_and_a_compile_job_asks_for_the_base_and_the_compile():
    assert [resources.megabytes(n) for n in (0, 1, 10**6, 10**6 + 1)] == [0, 1, 1, 2]
    assert resources.COMPILE_MEM_MB == 449  # (314,572,800 + 134,217,728) / 10^6 = 448.8, rounded up


@pytest.mark.parametrize(
    "job, mb",
    [
        # 25 x 40,000 x (64 + 2 x 10 x 24) = 544,000,000 + base + matrix + compile = 992,803,328 bytes
        (plan.Job("paper", "condorcet", 10, 40_000, "sparring-exp3p", 0, 0, 24), 993),
        # no strategies: 25 x 40,000 x 64 = 64,000,000 + 448,803,328 = 512,803,328 bytes
        (plan.Job("paper", "condorcet", 10, 40_000, "ts-maximin", 3, 75, 99), 513),
        # a point: one run of 10^7 steps, 640,000,000 + 448,803,328 bytes, whatever its runs
        (plan.Job("asymptotics", "borda", 10, 10**7, "ts-borda", 0, 0, 19), 1089),
    ],
)
def test_a_simulation_jobs_memory_request_by_hand(job, mb):
    assert resources.job_mem_mb(job) == mb


def test_the_bayes_jobs_resources_by_hand():
    """10 matrices over 3 jobs: ceil(10/3) = 4 matrices of 4 runs = 16 runs of 10^7 steps. At A = 10:
    60 + 3 x 16 x 10^7 x 0.8e-6 = 444 s -> 8 minutes; at A = 20, (20/10)^2 = 4 times the steps' time:
    60 + 1,536 = 1,596 s -> 27 minutes. Memory, whatever the horizon: 300 MiB + 128 MiB (a compile) + 16 x 8 x
    10^2 (the matrices) + 4 x 4 x 7 rows x 400 bytes = 314,572,800 + 134,217,728 + 12,800 + 44,800 =
    448,848,128 bytes -> 449 MB."""
    section = {"matrices": 10, "jobs": 3, "runs": 4, "horizon": 10**7, "grid_points": 7}
    assert resources.bayes_runtime(section, "10", "ts-maximin") == 8
    assert resources.bayes_runtime(section, 10, "ts-maximin", attempt=3) == 24
    assert resources.bayes_runtime(section, 20, "ts-maximin") == 27
    assert resources.bayes_mem_mb(section, "10") == 449


def test_the_tail_continue_jobs_resources_by_hand():
    """others 30 and one trapped run in 10 of 200: ceil((30 + 20) / 4) = 13 runs of 10^7 steps per
    job: 60 + 3 x 13 x 8 = 372 s -> 7 minutes, 14 on the second attempt."""
    config = {"actions": 10, "maximin-tail": {"others": 30, "runs": 200, "jobs": 4, "horizon": 10**7}}
    assert resources.tail_continue_runtime(config, "ts-maximin") == 7
    assert resources.tail_continue_runtime(config, "ts-maximin", 2) == 14
    assert resources.tail_continue_mem_mb(config) == 1089
