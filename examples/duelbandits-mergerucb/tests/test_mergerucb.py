"""Tests of the duelbandits-mergerucb example plugin (run with the package's src on PYTHONPATH, README)."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import numpy as np
import pytest
from duelbandits_mergerucb import ALGORITHM, SCENARIO
from duelbandits_mergerucb.mergerucb import MergeRUCB
from duelbandits_mergerucb.scenarios import make, thurstone_matrix

from duelbandits import winners
from duelbandits.algorithms import DuelingAlgorithm, python_run
from duelbandits.errors import AlgorithmError
from duelbandits.matrices import validate_matrix
from duelbandits.scenarios import generated_scenario

HERE = Path(__file__).resolve().parent.parent
RUN = python_run(MergeRUCB, "merge-rucb", ())
HYPER = {"alpha": 0.51, "batch_size": 4, "log_offset": 1e6}

A_CLEAR, T_CLEAR, SEEDS = 8, 5000, range(20)


def clear_winner(actions: int = A_CLEAR) -> np.ndarray:
    """Action 0 beats every other with probability 0.9; the others tie (0.5) among themselves."""
    X = np.full((actions, actions), 0.5)
    X[0, 1:] = 0.9
    X[1:, 0] = 0.1
    return X


def run_keeping_instance(X, horizon, seed, **hyper):
    """``python_run``'s run of MergeRUCB, and the algorithm instance it drove (to read its state)."""
    kept = []

    class Kept(MergeRUCB):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            kept.append(self)

    I, J, outcomes, _ = python_run(Kept, "merge-rucb", ())(X, horizon, np.random.default_rng(seed), None, **hyper)
    return I, J, outcomes, kept[0]


@pytest.fixture(scope="module")
def clear_runs():
    """20 runs on the clear-winner matrix (about 0.05 s each)."""
    X = clear_winner()
    return [run_keeping_instance(X, T_CLEAR, seed, **HYPER) for seed in SEEDS]


def test_entries_are_complete():
    ALGORITHM.check()
    SCENARIO.check()
    assert ALGORITHM.slug == "merge-rucb" and SCENARIO.slug == "thurstone"
    assert ALGORITHM.load() is MergeRUCB and issubclass(MergeRUCB, DuelingAlgorithm)
    assert set(ALGORITHM.defaults) == set(HYPER)


def test_entry_point_names_are_the_slugs():
    project = tomllib.loads((HERE / "pyproject.toml").read_text())["project"]
    points = project["entry-points"]
    assert points["duelbandits.algorithms"] == {ALGORITHM.slug: "duelbandits_mergerucb:ALGORITHM"}
    assert points["duelbandits.scenarios"] == {SCENARIO.slug: "duelbandits_mergerucb:SCENARIO"}


def test_same_seed_same_duels_other_seed_other_duels():
    X = make(10, np.random.default_rng(5))
    first = RUN(X, 3000, np.random.default_rng(11), None, **HYPER)
    again = RUN(X, 3000, np.random.default_rng(11), None, **HYPER)
    other = RUN(X, 3000, np.random.default_rng(12), None, **HYPER)
    for a, b in zip(first[:3], again[:3]):
        np.testing.assert_array_equal(a, b)
    assert not (np.array_equal(first[0], other[0]) and np.array_equal(first[1], other[1]))


def test_defaults_run_as_the_pipeline_passes_them():
    X = make(6, np.random.default_rng(0))
    a = RUN(X, 500, np.random.default_rng(1), None, **ALGORITHM.defaults)
    b = RUN(X, 500, np.random.default_rng(1), None)
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_array_equal(a[1], b[1])


@pytest.mark.parametrize("actions, batch_size", [(2, 4), (5, 4), (11, 4), (13, 3), (30, 5)])
def test_actions_in_range(actions, batch_size):
    X = make(actions, np.random.default_rng(actions))
    I, J, outcomes, _ = RUN(X, 2000, np.random.default_rng(3), None, **{**HYPER, "batch_size": batch_size})
    assert I.shape == J.shape == outcomes.shape == (2000,)
    assert I.min() >= 0 and J.min() >= 0 and I.max() < actions and J.max() < actions
    assert set(np.unique(outcomes)) <= {0, 1}


def test_finds_the_clear_condorcet_winner(clear_runs):
    # Tolerance. A loser j leaves the winner's batch once u_j0 < 1/2, i.e. w/n + sqrt(alpha ln(t + C) / n) < 1/2.
    # Here ln(t + C) <= ln(5000 + 1e6) = 13.8, so alpha ln(t + C) <= 7.05 and, at j's mean win rate 0.1,
    # sqrt(7.05 / n) < 0.4 needs n > 44 duels with the winner. Seven losers, the round-robin over two batches,
    # one merge and the duels among losers put the last elimination near step 500 (measured: at most ~615
    # over 50 seeds), after which every step is (0, 0). The last quarter starts at step 3751, so the
    # fraction is 1 unless something is broken (the winner eliminated gives 0); 0.8 leaves room for a
    # 6-fold slower elimination and still fails on any run where the winner stops playing itself.
    tail = slice(3 * T_CLEAR // 4, T_CLEAR)
    for I, J, _, _ in clear_runs:
        assert np.mean((I[tail] == 0) & (J[tail] == 0)) > 0.8


def test_never_eliminates_the_condorcet_winner(clear_runs):
    for _, _, _, algorithm in clear_runs:
        eliminated = [arm for _, arm in algorithm.eliminated]
        assert 0 not in eliminated
        assert sorted(eliminated) == list(range(1, A_CLEAR))  # every other arm, once
        assert algorithm.batches == [[0]] and algorithm.remaining == 1


def test_batches_stay_a_partition_of_the_arms_left_through_merges():
    # A total order with wide gaps (every X[i, j] >= Phi(3 / sqrt(2)) = 0.98 for i < j): each batch quickly
    # keeps only its best arm, so both merge rules fire; arm 0 is the Condorcet winner.
    X = thurstone_matrix(3.0 * np.arange(16)[::-1])
    kinds = set()
    for seed in range(10):
        rng = np.random.default_rng(seed)
        algorithm = MergeRUCB(16, 2000, rng)
        count = len(algorithm.batches)
        for _ in range(2000):
            i, j = algorithm.select()
            left = sorted(a for b in algorithm.batches for a in b)
            gone = sorted(a for _, a in algorithm.eliminated)
            assert sorted(left + gone) == list(range(16)) and len(left) == algorithm.remaining
            assert len(algorithm.batches) <= count and all(algorithm.batches)
            count = len(algorithm.batches)
            assert any(i in b and j in b for b in algorithm.batches)  # a duel inside one batch
            algorithm.update(i, j, int(rng.random() < X[i, j]))
        assert algorithm.batches == [[0]]
        kinds |= {kind for _, kind in algorithm.merges}
    assert kinds == {"single", "pairs"}


@pytest.mark.parametrize("batch_size", [2, 3, 4, 5])
def test_initial_partition_covers_every_arm_once(batch_size):
    for actions in range(2, 41):
        batches = MergeRUCB(actions, 100, np.random.default_rng(actions), batch_size=batch_size).batches
        sizes = [len(b) for b in batches]
        assert sorted(a for b in batches for a in b) == list(range(actions))
        assert len(batches) == -(-actions // batch_size)  # ceil(A / P) batches
        assert max(sizes) <= batch_size and max(sizes) - min(sizes) <= 1
        if actions % batch_size == 0:
            assert sizes == [batch_size] * (actions // batch_size)


def test_initial_partition_is_random_and_seeded():
    def partition(seed):
        return MergeRUCB(20, 100, np.random.default_rng(seed)).batches

    assert partition(4) == partition(4)
    assert len({str(partition(seed)) for seed in range(10)}) > 1


def test_first_duel_is_uniform_with_ties_broken_at_random():
    # One batch of 4 arms, no duel yet: every u = 2, so the candidate is uniform and the challenger is a
    # tie among the 3 others, broken uniformly. 1200 seeds: each of the 12 ordered pairs expects 100;
    # a count outside [55, 145] is 4.7 standard deviations (sd = sqrt(1200 * 1/12 * 11/12) = 9.6) away.
    counts = {}
    for seed in range(1200):
        c, d = MergeRUCB(4, 10, np.random.default_rng(seed)).select()
        counts[c, d] = counts.get((c, d), 0) + 1
    assert sorted(counts) == [(c, d) for c in range(4) for d in range(4) if c != d]
    assert all(55 <= n <= 145 for n in counts.values()), counts


def test_self_duels_teach_nothing():
    algorithm = MergeRUCB(3, 10, np.random.default_rng(0))
    algorithm.update(1, 1, 1)
    assert algorithm.wins == [[0] * 3 for _ in range(3)]
    algorithm.update(1, 2, 0)
    assert algorithm.wins[2][1] == 1 and algorithm.wins[1][2] == 0


@pytest.mark.parametrize("bad", [{"alpha": 0.0}, {"batch_size": 1}, {"batch_size": 2.5}, {"log_offset": -1.0}])
def test_bad_hyperparameters_are_refused(bad):
    with pytest.raises(AlgorithmError, match="merge-rucb"):
        MergeRUCB(5, 10, np.random.default_rng(0), **bad)


@pytest.mark.parametrize("actions", [SCENARIO.min_actions, 20])
def test_scenario_matrix(actions):
    X = make(actions, np.random.default_rng(7))
    assert validate_matrix(X).shape == (actions, actions)
    np.testing.assert_array_equal(X, make(actions, np.random.default_rng(7)))
    assert not np.array_equal(X, make(actions, np.random.default_rng(8)))
    assert winners.condorcet_winner(X) is not None  # distinct utilities: the largest one wins every duel
    built = generated_scenario(SCENARIO, actions, 3, {})  # the project's path: seeded from (seed, slug)
    np.testing.assert_array_equal(built.matrix, generated_scenario(SCENARIO, actions, 3, {}).matrix)
    assert not np.array_equal(built.matrix, generated_scenario(SCENARIO, actions, 4, {}).matrix)


@pytest.mark.parametrize("first", ["duelbandits.algorithms", "duelbandits.scenarios"])
def test_entry_points_load_through_duelbandits(tmp_path, first):
    """The real loader (importlib.metadata entry points), without installing: a dist-info folder on the path
    declares the entry points of pyproject.toml. Either registry may be imported first (the CLI imports the
    scenarios first); the two entries must not import each other's duelbandits module too early."""
    project = tomllib.loads((HERE / "pyproject.toml").read_text())["project"]
    info = tmp_path / f"duelbandits_mergerucb-{project['version']}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {project['version']}\n")
    lines = []
    for group, points in project["entry-points"].items():
        lines += [f"[{group}]"] + [f"{name} = {value}" for name, value in points.items()] + [""]
    (info / "entry_points.txt").write_text("\n".join(lines))
    code = (
        f"import {first}\n"
        "from duelbandits.algorithms import ALGORITHMS\n"
        "from duelbandits.scenarios import REGISTRY\n"
        "a, s = ALGORITHMS['merge-rucb'], REGISTRY['thurstone']\n"
        "print(a.family, a.source.distribution, s.source.distribution)\n"
    )
    path = os.pathsep.join([str(tmp_path), str(HERE / "src"), os.environ.get("PYTHONPATH", "")])
    done = subprocess.run(
        [sys.executable, "-c", code], env={**os.environ, "PYTHONPATH": path}, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["plugin", "duelbandits-mergerucb", "duelbandits-mergerucb"]
