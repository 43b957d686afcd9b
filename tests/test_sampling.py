"""The numba helpers every kernel draws with: sample_discrete, duel, argmax_random_ties, and the loops
that stand in for numpy calls numba compiles slowly: largest, record_row."""

import numpy as np
from montecarlo import close_to_law

from duelbandits.algorithms._sampling import argmax_random_ties, duel, largest, record_row, sample_discrete

N = 10_000
"""Draws per frequency check (a call from Python costs about 20 us)."""


def test_sample_discrete_is_the_inverse_cdf_of_one_uniform_per_draw():
    """Index k is returned for u in [P(< k), P(<= k)): one uniform per draw, nothing else consumed, and an
    index of probability 0 never (the interval is empty)."""
    p = np.array([0.2, 0.0, 0.05, 0.4, 0.35])
    rng, ref = np.random.default_rng(5), np.random.default_rng(5)
    draws = np.array([sample_discrete(p, rng) for _ in range(2000)])
    u = ref.random(2000)
    np.testing.assert_array_equal(draws, np.searchsorted(np.cumsum(p)[:-1], u, side="right"))
    assert rng.random() == ref.random()  # both streams are at the same place


def test_duel_is_won_by_the_row_with_probability_X_ij_and_a_self_duel_is_a_fair_coin():
    X = np.array([[0.5, 0.8], [0.2, 0.5]])
    rng = np.random.default_rng(7)
    for i, j in ((0, 1), (1, 0), (1, 1)):
        wins = np.array([duel(X, i, j, rng) for _ in range(N)])
        assert set(np.unique(wins)) == {0, 1}
        assert close_to_law(np.bincount(wins, minlength=2) / N, [1 - X[i, j], X[i, j]], N)


def test_argmax_random_ties_returns_the_maximum_and_splits_ties_uniformly():
    rng = np.random.default_rng(9)
    assert argmax_random_ties(np.array([0.1, 0.9, 0.3]), rng) == 1
    values = np.array([0.4, 0.7, 0.2, 0.7, 0.7])  # three tied maxima at 1, 3, 4
    draws = np.array([argmax_random_ties(values, rng) for _ in range(N)])
    assert close_to_law(np.bincount(draws, minlength=5) / N, np.array([0, 1, 0, 1, 1]) / 3, N)  # never a non-maximum


def test_largest_is_what_ndarray_max_gives_and_record_row_writes_row_k_and_nothing_else():
    for values in [
        np.array([-0.5]),  # one value: the loop never runs
        np.array([3.0, -1.0, 2.0]),  # the first is the largest
        np.array([-np.inf, -7.25, -7.0]),  # the last is, behind -inf
        np.array([0.1, 0.7, 0.7, 0.2]),  # a tie
        np.random.default_rng(11).normal(size=50) * 1e3,
        np.array([4, 9, 9, -2]),  # integers (CCB's bounds counts) keep their type
    ]:
        assert largest(values) == values.max()
    rows = np.zeros((3, 4))
    record_row(rows, 1, np.array([0.1, 0.2, 0.3, 0.4]))
    assert rows.tolist() == [[0.0] * 4, [0.1, 0.2, 0.3, 0.4], [0.0] * 4]
