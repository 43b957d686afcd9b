"""simulate(): seeding, per-run seeds, argument checks, recorded strategy steps. What every algorithm's
run must give (same seed same arrays, types, strategies) is in tests/test_contract.py and
tests/test_algorithm_contract.py."""

import numpy as np
import pytest

from duelbandits import ALGORITHMS, SimulationError, make_scenario, run_seed, simulate
from duelbandits.scenarios import SCENARIOS
from duelbandits.simulation import recorded_steps


@pytest.fixture(scope="module")
def X():
    return make_scenario("condorcet", actions=5, seed=0).matrix


def stream(seed_sequence, n=8):
    """The first n uniforms of the generator a seed sequence seeds."""
    return np.random.default_rng(seed_sequence).random(n)


def test_run_seeds_of_every_scenario_algorithm_and_run_start_distinct_streams():
    """Every scenario x algorithm x 25 runs (1,800 streams at 6 scenarios and 12 algorithms), pairwise
    different in their first 4 uniforms
    (two independent streams agree there with probability 2^-212), and none repeats under another base seed."""
    keys = [(s, a, r) for s in SCENARIOS for a in ALGORITHMS for r in range(25)]
    starts = {tuple(stream(run_seed(1, *key), 4)) for key in keys}
    assert len(starts) == len(keys) == len(SCENARIOS) * len(ALGORITHMS) * 25
    assert starts.isdisjoint(tuple(stream(run_seed(2, *key), 4)) for key in keys)


def test_bad_horizon_stride_or_seed_raises_simulation_error_naming_it(X):
    for argument, kwargs in [
        ("horizon", {"horizon": 0}),
        ("horizon", {"horizon": 10.0}),
        ("horizon", {"horizon": True}),
        ("stride", {"stride": 0}),
        ("seed", {"seed": -1}),
        ("seed", {"seed": 1.0}),
        ("seed", {"seed": True}),
    ]:
        args = {"horizon": 10, "seed": 0, **kwargs}
        with pytest.raises(SimulationError, match=rf"^{argument} must be"):
            simulate(X, "dts", args.pop("horizon"), args.pop("seed"), **args)


def test_simulation_error_is_a_value_error_and_numpy_integers_are_accepted(X):
    assert issubclass(SimulationError, ValueError)
    res = simulate(X, "dts", np.int64(20), np.uint32(3), stride=np.int32(7))
    assert res.horizon == 20 and res.I.shape == (20,)


def test_recorded_steps_start_at_1_step_by_stride_and_end_at_the_horizon():
    for horizon, stride, expected in [
        (100, 40, [1, 41, 81, 100]),
        (81, 40, [1, 41, 81]),
        (1, 40, [1]),
        (5, 1, [1, 2, 3, 4, 5]),
        (3, 10, [1, 3]),
    ]:
        steps = recorded_steps(horizon, stride)
        assert steps.tolist() == expected and steps.dtype == np.int64


def _key(name: str) -> int:
    """A name's integer in a documented seed: its UTF-8 bytes read little-endian (docs/reproducibility.md)."""
    return int.from_bytes(name.encode("utf-8"), "little")


def test_run_seed_is_the_documented_seed_sequence_with_golden_first_draws():
    """Run r's stream is SeedSequence([seed, scenario, algorithm, r]) (`seeds` in data/claims.yaml, the
    docs): its entropy written out, and the first three uniform draws of its generator, taken once from
    numpy.random.default_rng(SeedSequence([20191114, 'condorcet', 'ts-maximin', 3])), so that a seed that
    loses or reorders a component changes them; the names' keys are fixed integers, so no per-process hash() salt
    enters."""
    seed = run_seed(20191114, "condorcet", "ts-maximin", 3)
    assert _key("condorcet") == 2147128121393584959331
    assert seed.entropy == [20191114, 2147128121393584959331, _key("ts-maximin"), 3]
    draws = np.random.default_rng(seed).random(3)
    np.testing.assert_array_equal(draws, [0.38609154780098665, 0.5847208229712227, 0.14372784663257576])


def test_the_bayes_and_tail_streams_are_their_documented_seed_sequences():
    from duelbandits.studies import bayes
    from duelbandits.studies.tail import analysis as tail

    matrix = bayes.matrix_seed(7, 5, 2)
    assert matrix.entropy == [7, _key("maximin-bayes"), _key("matrix"), 5, 2]
    assert np.random.default_rng(matrix).random(2).tolist() == [0.9767609254038578, 0.803592193006612]
    run = bayes.run_seed(7, 5, 2, 1)
    assert run.entropy == [7, _key("maximin-bayes"), _key("run"), 5, 2, 1]
    assert np.random.default_rng(run).random(2).tolist() == [0.7530667176859828, 0.43629909438801007]
    # phase 2's free runs: 5 of 0..19 drawn from SeedSequence([seed, "maximin-tail", "others"]) (golden)
    held, sampled = tail.select_continued([11, 4], list(range(20)), 5, 20191114)
    assert held.tolist() == [4, 11] and sampled.tolist() == [5, 9, 12, 14, 18]
