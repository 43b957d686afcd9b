"""TS-Maximin (Alg. 1): exact pruned sampling, runs (the posterior's update: tests/test_posterior.py)."""

import numpy as np
import pytest
from montecarlo import N_MC, assert_same_frequencies, full_theta_choices, random_counts

import duelbandits
from duelbandits.algorithms import ts_maximin
from duelbandits.algorithms._posterior import new_state, sample_maximin

# Exactness tests: N_MC draws per sampler, frequencies within 5 standard errors
# (montecarlo.assert_same_frequencies). The faults these tests target (ties
# resolved towards the first row visited, the diagonal 1/2 left out of the min)
# shift a frequency by >= 0.03 in the tie-prone states, about twice the
# tolerance at n = 20,000.


def tie_prone_counts():
    """Rows 0 and 1 beat 2..4 surely, and (0, 1) is even: both rows often have min exactly 1/2."""
    W = np.zeros((5, 5))
    W[:2, 2:] = 300.0
    W[2:, :2] = 1.0
    W[0, 1] = W[1, 0] = 40.0
    W[2, 3], W[3, 2], W[3, 4], W[4, 3], W[2, 4], W[4, 2] = 5, 3, 8, 9, 2, 6
    return W


def uneven_tie_counts():
    """As :func:`tie_prone_counts` with (0, 1) leaning to 0: the diagonal decides about 12% of draws."""
    W = tie_prone_counts()
    W[0, 1], W[1, 0] = 45.0, 35.0
    return W


@pytest.mark.parametrize(
    ("W", "first"),
    [
        (tie_prone_counts(), 0),
        (tie_prone_counts(), 4),
        (uneven_tie_counts(), 1),
        (uneven_tie_counts(), 4),
        (random_counts(6, 3), 2),
        (np.zeros((3, 3)), 1),
    ],
    ids=["ties-first-0", "ties-first-4", "uneven-first-1", "uneven-first-4", "random", "prior"],
)
def test_pruned_sampler_matches_full_argmax(W, first):
    A = W.shape[0]
    pair, order = new_state(W, False)
    rng = np.random.default_rng(11)
    pruned = np.array([sample_maximin(pair, order, first, rng)[0] for _ in range(N_MC)])
    full = full_theta_choices(W, N_MC, np.random.default_rng(12), np.min)
    assert_same_frequencies(pruned, full, A)


def test_tie_prone_state_really_ties():
    # Guard on the test above: rows 0 and 1 share the maximum 1/2 about a quarter of the time.
    full = full_theta_choices(tie_prone_counts(), N_MC, np.random.default_rng(5), np.min)
    f = np.bincount(full, minlength=5) / N_MC
    assert abs(f[0] - 0.5) < 0.02 and abs(f[1] - 0.5) < 0.02


def test_steps_draw_under_60_percent_of_two_full_thetas():
    # The full rule draws 2 (A^2 - A) variates a step; after learning, pruning must save most (rows behind
    # the Condorcet winner are dropped on their labels, its own entries surely above 1/2 are skipped).
    X = duelbandits.make_scenario("condorcet", seed=0).matrix
    A, T = X.shape[0], 2000
    per_step = ts_maximin.beta_draws(X, T, np.random.default_rng(0)) / T
    assert 0 < per_step < 0.6 * 2 * (A * A - A)
