"""TS-Borda (Alg. 2): exploration rate and steps, runs (its posterior and pruned sampling: tests/test_posterior.py)."""

import numpy as np
import pytest

import duelbandits
from duelbandits import AlgorithmError, simulate
from duelbandits.algorithms import ts_borda


def test_simulate_refuses_an_exploration_rate_of_one_half_naming_c_alpha():
    """The rate's own check (its message and formula: tests/test_theorems.py) reaches simulate's caller."""
    with pytest.raises(AlgorithmError, match="c_alpha"):
        simulate(np.full((2, 2), 0.5), "ts-borda", 27, 0, c_alpha=1.5)  # alpha = 1.5 / 3 = 1/2 exactly


def test_exploration_steps_are_binomial_T_alpha_and_thompson_steps_concentrate():
    """The number of b = 1 steps is Binomial(T, alpha): tolerance 5 standard deviations (what an exploration
    step plays: the next test)."""
    X = duelbandits.make_scenario("condorcet", seed=0).matrix
    A, T, c_alpha = X.shape[0], 20_000, 2.0
    alpha = ts_borda.exploration_rate(c_alpha, T)
    I, _, _, explored, _ = ts_borda._call(X, T, np.random.default_rng(4), c_alpha)
    assert abs(explored.sum() - T * alpha) <= 5 * np.sqrt(T * alpha * (1 - alpha))
    best = np.bincount(I[~explored], minlength=A).max() / (~explored).sum()
    assert best > 0.5


def test_first_step_draws_I_and_J_independently_and_uniformly_when_exploring_and_when_not():
    """At t = 1 the posterior is the prior, under which every action is the Borda argmax with
    probability 1/A; so (I_1, J_1) is uniform on the A^2 pairs both on exploration steps (line 5)
    and on Thompson steps (two independent posterior draws, lines 7-8).

    8,000 one-step runs at A = 3 with alpha = 0.45, split by the exploration flag of the same
    seed: each cell count is Binomial(n, 1/9) (n about 3,600 and 4,400), within 5 standard
    deviations (about 19% of the mean). J = I on either kind of step triples the diagonal.
    """
    X = duelbandits.make_scenario("condorcet", actions=3, seed=0).matrix
    A, c_alpha = 3, 0.45  # T = 1: alpha = c_alpha
    seeds = np.random.SeedSequence(8).spawn(8000)
    runs = [ts_borda._call(X, 1, np.random.default_rng(s), c_alpha) for s in seeds]
    first = np.array([[I[0], J[0]] for I, J, *_ in runs])
    explored = np.array([mask[0] for _, _, _, mask, _ in runs])
    for mask in (explored, ~explored):
        n = mask.sum()
        assert n > 3000  # both kinds of step are well represented
        cells = np.zeros((A, A))
        np.add.at(cells, (first[mask, 0], first[mask, 1]), 1)
        sd = np.sqrt(n * (1 / A**2) * (1 - 1 / A**2))
        assert np.all(np.abs(cells - n / A**2) <= 5 * sd), (cells, n / A**2, 5 * sd)


def test_thompson_steps_draw_under_70_percent_of_two_full_thetas_and_fewer_as_the_posterior_concentrates():
    # The full rule draws 2 (A^2 - A) variates a Thompson step; pruning must save a good share by T = 2,000,
    # and more later, when the labels settle most rows without a variate (about 90 a step over the first
    # 1,000 steps, 36 between steps 10,000 and 40,000).
    X = duelbandits.make_scenario("borda", seed=0).matrix
    A = X.shape[0]
    per_step = {}
    for T in (2000, 20_000):
        _, _, _, explored, draws = ts_borda._call(X, T, np.random.default_rng(0), 1.0)
        per_step[T] = draws / (T - explored.sum())
    assert 0 < per_step[20_000] < 0.8 * per_step[2000] < 0.8 * 0.7 * 2 * (A * A - A)
