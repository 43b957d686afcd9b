"""duelbandits.plan and configcheck's planning checks off the defaults and at their boundaries, on
config.yaml with keys changed in Python (each validated first), without a Snakemake process."""

import copy
import math
import re
from pathlib import Path

import numpy as np
import pytest
import yaml

from duelbandits import configcheck, plan

REPO = Path(__file__).resolve().parents[1]
BASE = yaml.safe_load((REPO / "config.yaml").read_text())

BENCHMARK_SIZES = {"arithmetic": 8, "mslr5": 5}
"""A of the published matrices (their CSV files), whatever the config's `actions`."""


def config_with(validate=True, **changes):
    """config.yaml with ``changes`` (``"a/b/c": value``), validated against the workflow's schema."""
    config = copy.deepcopy(BASE)
    for key, value in changes.items():
        *parents, last = key.split("/")
        node = config
        for part in parents:
            node = node.setdefault(part, {})
        node[last] = value
    if validate:
        configcheck.validate(config, REPO / "workflow/schemas/config.schema.yaml")
    return config


# --- TS-Borda's alpha at the shortest horizon ---------------------------------------------------

C_ALPHA, EDGE = 2.5, 125
"""A c_alpha off the default 1 whose threshold (2 c_alpha)^3 = 125 is an integer at which c_alpha T^(-1/3)
is exactly 1/2 in floats (the boundary itself for every c_alpha: tests/test_theorems.py)."""
assert C_ALPHA * EDGE ** (-1 / 3) == 0.5 and C_ALPHA * (EDGE + 1) ** (-1 / 3) < 0.5  # the premise, by hand


def check(config, target):
    configcheck.check_paper(config) if target == "paper" else configcheck.check_target(config, target)


FIELD_OTHERS = [a for a in BASE["field"]["algorithms"] if a != "ts-borda"]


@pytest.mark.parametrize(
    "target, key, horizons, named, changes, without",
    [
        # a list's shortest horizon in the middle: neither its first nor its last item
        ("asymptotics", "asymptotics/horizons", lambda T: [1000, T, 100_000], "asymptotics/horizons", {}, None),
        ("sweeps", "sweeps/horizon/horizons", lambda T: [1000, T, 100_000], "sweeps", {}, None),
        # TS-Borda on the condorcet scenario alone; listed for a scenario the target does not run: no job, no check
        ("asymptotics", "asymptotics/horizons", lambda T: [T, 1000, 10_000], "asymptotics/horizons",
         {"asymptotics/scenarios": ["condorcet"],
          "asymptotics/algorithms": {"condorcet": ["ts-borda"], "borda": ["ts-maximin"]}},
         {"asymptotics/algorithms": {"condorcet": ["ts-maximin"], "borda": ["ts-borda"]}}),
        # the paper's horizon, the action sweep's (the shortest of the sweeps here) and the field's
        ("paper", "horizon", lambda T: T, "algorithm_params/ts-borda/c_alpha", {},
         {"algorithms": ["ts-maximin", "dts"]}),
        ("sweeps", "sweeps/actions/horizon", lambda T: T, "sweeps", {}, {"algorithms": ["ts-maximin", "iss"]}),
        ("field", "field/horizon", lambda T: T, "field/horizon", {}, {"field/algorithms": FIELD_OTHERS}),
    ],
    ids=["asymptotics", "sweeps-horizons", "asymptotics-one-scenario", "paper", "sweeps-actions", "field"],
)  # fmt: skip
def test_alpha_is_checked_at_a_targets_shortest_horizon_only_where_ts_borda_runs(
    target, key, horizons, named, changes, without
):
    changes = {"algorithm_params/ts-borda/c_alpha": C_ALPHA, **changes}
    with pytest.raises(configcheck.ConfigError, match=rf"config: {named}.*: .* {EDGE}\^\(-1/3\)"):
        check(config_with(**changes, **{key: horizons(EDGE)}), target)
    check(config_with(**changes, **{key: horizons(EDGE + 1)}), target)
    if without is not None:
        check(config_with(**{**changes, key: horizons(EDGE), **without}), target)


def test_c_alpha_is_the_configs_or_the_algorithms_default():
    from duelbandits.algorithms import ALGORITHMS

    assert plan.c_alpha(config_with(**{"algorithm_params/ts-borda/c_alpha": 0.7})) == 0.7
    assert (
        plan.c_alpha(config_with(**{"algorithm_params": {"dts": {"alpha": 0.6}}}))
        == (ALGORITHMS["ts-borda"].defaults["c_alpha"])
    )


# --- jobs: every point once, run ranges that partition the runs ---------------------------------


def assert_partition(jobs, per_job, runs_of):
    """Group ``jobs`` by point; each point's chunks are numbered 0..n-1 and split 0..runs-1 in order into
    ceil(runs / per_job) ranges of ``per_job`` runs (the last may be shorter). Returns the points."""
    points = {}
    for job in jobs:
        points.setdefault((job.scenario, job.actions, job.horizon, job.algorithm), []).append(job)
    for key, chunks in points.items():
        runs, size = runs_of(key), per_job(key)
        assert [job.chunk for job in chunks] == list(range(len(chunks))), key
        assert len(chunks) == math.ceil(runs / size), (key, runs, size)
        covered = [r for job in chunks for r in range(job.first, job.last + 1)]
        assert covered == list(range(runs)), key  # every run once, in order
        for job in chunks:
            assert job.runs == job.last - job.first + 1
            assert job.runs == (size if job is not chunks[-1] else runs - size * (len(chunks) - 1)), key
    return set(points)


RUN_SPLITS = [(1, 1), (7, 3), (100, 25), (5, 10), (13, 12)]
"""(runs, runs_per_job): not a multiple and one, one run per job, runs_per_job above runs, a last job of one."""


@pytest.mark.parametrize("runs, per_job", RUN_SPLITS)
def test_paper_jobs_cover_every_scenario_and_algorithm_once_and_partition_the_runs(runs, per_job):
    config = config_with(runs=runs, runs_per_job=per_job, actions=13, horizon=500, scenarios=["cyclic", "borda"])
    jobs = plan.jobs(config, "paper")
    assert {job.target for job in jobs} == {"paper"}
    points = assert_partition(jobs, lambda key: per_job, lambda key: runs)
    assert points == {(s, 13, 500, a) for s in ["cyclic", "borda"] for a in BASE["algorithms"]}


SWEEP_GRIDS = [
    # (horizon sweep: scenarios, horizons; action sweep: scenarios, actions, horizon)
    (["borda"], [1000, 3000], ["borda"], [6, 12], 10_000),
    # the action sweep reaches A = `actions` at a horizon of the horizon sweep: that point is planned once
    (["borda", "condorcet"], [300, 10_000, 3000], ["borda"], [3, 10, 13], 10_000),
    (["cyclic"], [500, 50], ["condorcet", "cyclic"], [10, 4], 500),
]


@pytest.mark.parametrize("grid", SWEEP_GRIDS, ids=["disjoint", "overlap", "overlap-two-scenarios"])
def test_sweep_jobs_cover_both_grids_once_and_partition_the_runs(grid):
    """One split of the runs (every split: the paper's test; the targets share chunk_ranges)."""
    h_scen, horizons, a_scen, actions, a_horizon = grid
    runs, per_job = 7, 3
    config = config_with(
        **{
            "sweeps/runs": runs,
            "sweeps/runs_per_job": per_job,
            "sweeps/horizon/scenarios": h_scen,
            "sweeps/horizon/horizons": horizons,
            "sweeps/actions/scenarios": a_scen,
            "sweeps/actions/actions": actions,
            "sweeps/actions/horizon": a_horizon,
        }
    )
    jobs = plan.jobs(config, "sweeps")
    assert {job.target for job in jobs} == {"sweeps"}
    points = assert_partition(jobs, lambda key: per_job, lambda key: runs)
    grid_points = {(s, BASE["actions"], T) for s in h_scen for T in horizons}
    grid_points |= {(s, A, a_horizon) for s in a_scen for A in actions}
    assert points == {(*p, a) for p in grid_points for a in BASE["algorithms"]}
    assert len({(j.scenario, j.actions, j.horizon, j.algorithm, j.chunk) for j in jobs}) == len(jobs)


@pytest.mark.parametrize("actions", [6, 13])
def test_field_jobs_cover_every_scenario_at_its_own_size_once_and_partition_the_runs(actions):
    config = config_with(actions=actions, **{"field/runs": 9, "field/runs_per_job": 4, "field/horizon": 700})
    points = assert_partition(plan.jobs(config, "field"), lambda key: 4, lambda key: 9)
    size = {name: BENCHMARK_SIZES.get(name, actions) for name in BASE["field"]["scenarios"]}
    assert points == {(s, size[s], 700, a) for s in BASE["field"]["scenarios"] for a in BASE["field"]["algorithms"]}


ASYMPTOTICS = [
    # (runs, steps_per_job, runs_at): per job max(1, steps_per_job // T) runs
    (40, 30_000_000, []),
    (7, 25_000, [{"horizon": 10_000, "runs": 3}]),  # 25 runs/job at T = 1000, 8 at 3000, 2 at 10^4, 1 at 3x10^4
    (5, 1, []),  # one run per job everywhere
    (2, 10**9, [{"horizon": 3000, "runs": 9}, {"horizon": 30_000, "runs": 4}]),
    (13, 30_000, [{"horizon": 1000, "runs": 31}]),  # 30 runs/job at T = 1000: 31 runs in 2 jobs
]


@pytest.mark.parametrize("runs, steps, runs_at", ASYMPTOTICS)
@pytest.mark.parametrize("order", [[1000, 3000, 10_000, 30_000], [30_000, 1000, 10_000, 3000]])
def test_asymptotics_jobs_cover_every_point_once_and_split_runs_by_steps(runs, steps, runs_at, order):
    config = config_with(
        actions=7,
        **{
            "asymptotics/runs": runs,
            "asymptotics/steps_per_job": steps,
            "asymptotics/runs_at": runs_at,
            "asymptotics/horizons": order,
        },
    )
    jobs = plan.jobs(config, "asymptotics")
    named = {item["horizon"]: item["runs"] for item in runs_at}
    points = assert_partition(jobs, lambda key: max(1, steps // key[2]), lambda key: named.get(key[2], runs))
    algorithms = BASE["asymptotics"]["algorithms"]
    expected = {(s, 7, T, a) for s in BASE["asymptotics"]["scenarios"] for T in order for a in algorithms[s]}
    assert points == expected


def test_every_target_plans_jobs_of_its_own_name_only():
    config = config_with(runs=3, runs_per_job=2)
    for target in ("paper", *plan.POINT_TARGETS):
        jobs = plan.jobs(config, target)
        assert jobs and {job.target for job in jobs} == {target}
    keys = [
        (job.target, job.scenario, job.actions, job.horizon, job.algorithm, job.chunk)
        for target in ("paper", *plan.POINT_TARGETS)
        for job in plan.jobs(config, target)
    ]
    assert len(keys) == len(set(keys))


# --- Memory: checked at the largest job, to the byte --------------------------------------------


def limit_gb(needed):
    """memory_limit_gb whose byte limit int(gb * 2^30) is exactly ``needed`` (a power-of-two division: exact)."""
    gb = needed / 2**30
    assert int(gb * 2**30) == needed
    return gb


def memory_boundary(config, check, needed, key, what):
    """``check`` passes with a limit of exactly ``needed`` bytes and fails, naming ``key`` and the job ``what``,
    one byte below."""
    config["memory_limit_gb"] = limit_gb(needed)
    check(config)
    config["memory_limit_gb"] = limit_gb(needed - 1)
    with pytest.raises(
        configcheck.ConfigError, match=f"^config: {re.escape(f'{key}: {what} needs')} .*memory_limit_gb"
    ):
        check(config)


@pytest.mark.parametrize("runs, per_job", [(3, 100), (100, 25), (7, 3)])
def test_paper_memory_is_checked_for_a_chunk_of_at_most_runs_and_for_aggregating_all_runs(runs, per_job, actions=13):
    from duelbandits import resources

    config = config_with(runs=runs, runs_per_job=per_job, actions=actions, horizon=40_000, scenarios=["condorcet"])
    chunk = resources.simulate_bytes(min(runs, per_job), 40_000, actions)  # a chunk never holds more runs than exist
    aggregate = resources.aggregate_bytes(runs, 40_000, actions)
    what = (f"a simulation job of horizon 40000 x runs_per_job {min(runs, per_job)} at A = {actions}"
            if chunk >= aggregate else f"aggregating horizon 40000 x runs {runs} at A = {actions}")  # fmt: skip
    memory_boundary(
        config, lambda c: check(c, "paper"), max(chunk, aggregate), "horizon/runs/runs_per_job/actions", what
    )


@pytest.mark.parametrize("target", ["sweeps", "field", "asymptotics", "maximin-tail"])
def test_target_memory_is_checked_at_the_longest_horizon_and_the_widest_matrix_wherever_listed(target):
    from duelbandits.resources import sweep_point_bytes

    changes = {
        # the longest horizon first, the widest A in the middle: neither is the last item
        "sweeps": {"sweeps/horizon/horizons": [300_000, 1000, 3000], "sweeps/actions/actions": [6, 48, 12]},
        # generated scenarios at A = 6: the widest is arithmetic's own 8
        "field": {"actions": 6, "field/horizon": 50_000},
        "asymptotics": {"asymptotics/horizons": [10**7, 1000, 3000]},
        "maximin-tail": {"maximin-tail/horizon": 3 * 10**6},  # phase two's horizon, not phase one's
    }[target]
    run, key, longest, widest = {
        "sweeps": ("a sweep run", "sweeps/horizon/horizons/actions", 300_000, 48),
        "field": ("a field run", "field/horizon", 50_000, 8),
        "asymptotics": ("an asymptotics run", "asymptotics/horizons", 10**7, 10),
        "maximin-tail": ("a maximin-tail run", "maximin-tail/horizon", 3 * 10**6, 10),
    }[target]
    what = f"{run} of horizon {longest} at A = {widest}"
    memory_boundary(config_with(**changes), lambda c: check(c, target), sweep_point_bytes(longest, widest), key, what)


# --- The other checks a schema cannot express -----------------------------------------------------


TAIL_HORIZON = BASE["maximin-tail"]["horizon"]


@pytest.mark.parametrize(
    "target, changes, line",
    [
        ("paper", {"actions": 4, "scenarios": ["cyclic"]}, "scenarios/seed/scenario_params/actions: cyclic scenario"),
        ("sweeps", {"sweeps/horizon/scenarios": ["arithmetic"]},  # a benchmark is at its own A in the field alone
         "sweeps/horizon/scenarios: scenario arithmetic has 8 actions, but actions = 10 was asked for"),
        ("sweeps", {"sweeps/horizon/scenarios": ["file"], "matrix_file": "m4.csv"},
         "sweeps/horizon/scenarios: matrix file m4.csv: has 4 actions, but actions = 10 was asked for"),
        ("sweeps", {"sweeps/actions/scenarios": ["cyclic"], "sweeps/actions/actions": [6, 4]},
         "sweeps/actions/actions: cyclic scenario"),
        ("asymptotics", {"actions": 4, "asymptotics/scenarios": ["cyclic"], "asymptotics/algorithms/cyclic": ["dts"]},
         "asymptotics/scenarios: cyclic scenario"),
        ("field", {"actions": 4, "field/scenarios": ["cyclic"]}, "field/scenarios: cyclic scenario"),
        ("maximin-tail", {"actions": 4, "maximin-tail/scenario": "cyclic"}, "maximin-tail/scenario: cyclic scenario"),
        # the file scenario without its matrix file
        ("field", {"field/scenarios": ["borda", "file"]}, "matrix_file: required when field/scenarios include file"),
        ("paper", {"scenarios": ["file"]},
         "matrix_file: required when scenarios include file (a CSV preference matrix)"),
        # what asymptotics' runs_at names, and its scenarios' algorithms
        ("asymptotics", {"asymptotics/runs_at": [{"horizon": 10_001, "runs": 2}]},
         "asymptotics/runs_at: horizon 10001 is not one of asymptotics/horizons"),
        ("asymptotics", {"asymptotics/runs_at": [{"horizon": 3000, "runs": 2}, {"horizon": 3000, "runs": 5}]},
         "asymptotics/runs_at: horizon 3000 is given twice"),
        ("asymptotics", {"asymptotics/scenarios": ["borda", "cyclic", "condorcet"],
                         "asymptotics/algorithms": {"borda": ["dts"]}},
         "asymptotics/algorithms: no algorithms for scenario(s) cyclic, condorcet"),
        # the tail's horizons in order, its scenario a matrix with a trap
        ("maximin-tail", {"maximin-tail/first_horizon": TAIL_HORIZON},
         f"maximin-tail/first_horizon: {TAIL_HORIZON} must be below maximin-tail/horizon ({TAIL_HORIZON})"),
        ("maximin-tail", {"maximin-tail/scenario": "condorcet"}, "maximin-tail/scenario: maximin-tail needs a matrix "
         "with one Maximin winner and a different, unique Borda winner; got Maximin winners [3] and Borda winners [3]"),
    ],
)  # fmt: skip
def test_each_check_the_schema_cannot_express_is_one_line_naming_the_key(tmp_path, monkeypatch, target, changes, line):
    """A scenario that does not build at the config's A (10, or 4, below the cyclic scenario's 5) or the one a
    sweep lists, named by the key of its target; the other checks of several values."""
    from duelbandits import make_scenario

    monkeypatch.chdir(tmp_path)
    np.savetxt("m4.csv", make_scenario("condorcet", actions=4, seed=2).matrix, delimiter=",", fmt="%.17g")
    with pytest.raises(configcheck.ConfigError) as raised:
        check(config_with(validate=False, **changes), target)
    expected = f"config: {line}" + (" needs at least 5 actions, got 4" if line.endswith("cyclic scenario") else "")
    assert str(raised.value) == expected


def test_the_checks_accept_a_runs_at_of_a_listed_horizon_and_the_tails_horizons_one_apart():
    runs_at = [{"horizon": 10_000, "runs": 2}]
    configcheck.check_target(
        config_with(**{"asymptotics/horizons": [1000, 3000, 10_000], "asymptotics/runs_at": runs_at}), "asymptotics"
    )
    configcheck.check_target(config_with(**{"maximin-tail/first_horizon": TAIL_HORIZON - 1}), "maximin-tail")


def test_the_compile_groups_cut_each_family_in_registry_order_into_consecutive_groups():
    """A new built-in must join a group of its family (bench_algorithms.py --compile says where)."""
    from duelbandits.algorithms import BUILTINS, KERNEL_GROUPS

    for family in ("paper", "field"):
        slugs = [slug for slug, a in BUILTINS.items() if a.family == family]
        mine = [members for name, members in KERNEL_GROUPS.items() if name.startswith(f"{family}-")]
        assert len(mine) == 2 and [slug for members in mine for slug in members] == slugs  # each once, in order
    assert plan.kernel_group("iss") == "paper-2" and plan.kernel_group("a-plugins") is None


def test_the_tail_section_plans_its_first_phase():
    config = config_with()
    section = config["maximin-tail"]
    jobs = plan.jobs(config, "maximin-tail")
    assert {(j.scenario, j.horizon, j.algorithm) for j in jobs} == {
        (section["scenario"], section["first_horizon"], "ts-maximin")
    }
    assert sum(j.runs for j in jobs) == section["runs"]


def test_algorithm_args_give_each_override_in_the_configs_order():
    config = {"algorithm_params": {"dts": {"alpha": 0.6}, "rmed1": {"f_coefficient": 0.2, "f_exponent": 1.05}}}
    assert plan.algorithm_args(config, "rmed1") == "--param f_coefficient=0.2 --param f_exponent=1.05"
    assert plan.algorithm_args(config, "dts") == "--param alpha=0.6"
    assert plan.algorithm_args(config, "iss") == "" and plan.algorithm_args({}, "dts") == ""
