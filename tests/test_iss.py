"""ISS (Independent Self-Sparring): runs against a plain numpy replay (its update and its sampling)."""

import numpy as np
import pytest
from literal import Trace

import duelbandits
from duelbandits.algorithms import iss


def replay(X, T, rng):
    """ISS in plain numpy from the same generator: per step A Beta variates for I, A for J, one uniform
    for the duel. Returns ``(I, J, outcomes, number of Beta variates drawn)``."""
    A = X.shape[0]
    S, F = np.zeros(A), np.zeros(A)
    trace, draws = Trace(), 0
    for _ in range(T):
        chosen = []
        for _ in range(2):
            theta = np.array([rng.beta(S[k] + 1.0, F[k] + 1.0) for k in range(A)])
            draws += A
            assert len(set(theta)) == A  # no tie, so no tie-breaking uniform is drawn
            chosen.append(int(np.argmax(theta)))
        i, j = chosen
        o = trace.duel(X, i, j, rng)
        S[i if o else j] += 1
        F[j if o else i] += 1
    return *trace.arrays(), draws


@pytest.mark.parametrize("A", [2, 5])
def test_a_run_is_the_plain_numpy_replay_and_beta_draws_counts_its_variates(A):
    """The kernel consumes its generator exactly as the replay does (same actions, same outcomes,
    same generator state afterwards), so the replay's count of Beta variates is the run's."""
    X = duelbandits.make_scenario("condorcet", actions=A, seed=2).matrix
    rng, ref = np.random.default_rng(6), np.random.default_rng(6)
    I, J, outcomes, _ = iss.run(X, 300, rng)
    rI, rJ, routcomes, draws = replay(X, 300, ref)
    np.testing.assert_array_equal(I, rI)
    np.testing.assert_array_equal(J, rJ)
    np.testing.assert_array_equal(outcomes, routcomes)
    assert rng.bit_generator.state == ref.bit_generator.state
    assert (I == J).any()  # a self-duel counts a win and a loss for the same arm
    assert iss.beta_draws(X, 300) == draws
