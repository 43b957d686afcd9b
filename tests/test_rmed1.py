"""RMED1 (Komiyama et al., COLT 2015): the literal reference on hand-made states (the kernels of RMED1, RMED2
and RMED2FH against it, array for array: tests/test_field_references.py), parameters, behaviour."""

import numpy as np
import pytest
import rmed1_reference as reference

import duelbandits
from duelbandits import regret
from duelbandits.algorithms import rmed1


def _cyclic_counts():
    """A = 3, mu[0, 1] = 10/40, mu[0, 2] = 6/10, mu[1, 2] = 3/10: 1 > 0 > 2 > 1 empirically.

    By hand, d(p) = d(p, 1/2) = p log 2p + (1 - p) log 2(1 - p):
    I_0 = 40 d(1/4) = 40 (1/4 log 1/2 + 3/4 log 3/2) = 5.232481 (it loses to 1 only),
    I_1 = 10 d(3/10) = 10 (0.3 log 0.6 + 0.7 log 1.4) = 0.822829 (loses to 2 only),
    I_2 = 10 d(4/10) = 10 (0.4 log 0.8 + 0.6 log 1.2) = 0.201355 (loses to 0 only), so i* = 2.
    """
    return np.array([[0, 10, 6], [30, 0, 3], [4, 7, 0]], dtype=float)


def test_divergences_of_a_hand_made_state_match_the_hand_values():
    np.testing.assert_allclose(reference.divergences(_cyclic_counts()), [5.232481, 0.822829, 0.201355], atol=1e-6)


def test_challenger_follows_algorithm_2_on_a_hand_made_state():
    """i* = 2. l = 0: O_0 = {1} lacks i*, so m = argmin mu[0, .] = 1 (1/4 < 6/10).
    l = 1: O_1 = {2} holds i*, so m = 2. l = 2: O_2 = {0} lacks i* (= l), so m = argmin mu[2, .] = 0.
    An arm that beats every other (0 at 3:1 and 2:1 below) has O_0 empty and I_0 = 0: it duels itself."""
    rng = np.random.default_rng(0)
    for l, m in ((0, 1), (1, 2), (2, 0)):
        assert reference.challenger(_cyclic_counts(), l, rng) == m
    W = np.array([[0, 3, 2], [1, 0, 1], [1, 1, 0]], dtype=float)
    assert reference.divergences(W)[0] == 0.0 and reference.divergences(W)[1:].min() > 0
    assert reference.challenger(W, 0, rng) == 0


def test_ties_are_broken_uniformly_at_random():
    """No duels yet (mu = 1/2, I = 0 everywhere), l = 0: O_0 = {1, 2}.

    i* is uniform on {0, 1, 2}; i* = 1 or 2 lies in O_0 and is taken; i* = 0 is
    not, and then m = argmin mu[0, .] is a tie of 1 and 2. So P(m = 1) = 1/3 +
    1/3 * 1/2 = 1/2 = P(m = 2) and m is never 0. Tolerance: 5 binomial standard errors.
    """
    n = 10_000
    rng = np.random.default_rng(2)
    m = np.array([reference.challenger(np.zeros((3, 3)), 0, rng) for _ in range(n)])
    assert set(np.unique(m).tolist()) == {1, 2}
    assert abs(np.mean(m == 1) - 0.5) < 5 * np.sqrt(0.25 / n)


def test_a_negative_f_coefficient_is_rejected_by_name(X):
    """f(K) = c K^e must be >= 0: the first invalid value, the largest negative float, is refused (the contract,
    tests/test_algorithm_contract.py, refuses non-numbers and non-finite values of both parameters)."""
    with pytest.raises(duelbandits.AlgorithmError, match=r"^rmed1: f_coefficient must be a finite number >= 0"):
        duelbandits.simulate(X, "rmed1", 10, 0, f_coefficient=-5e-324)


@pytest.mark.parametrize(
    ("params", "f_10"),
    [({}, 3.069879), ({"f_coefficient": 0.0}, 0.0), ({"f_exponent": -2.0}, 0.003)],
    ids=["default", "zero", "negative-exponent"],
)
def test_f_of_K_by_hand_at_the_papers_default_at_zero_and_with_a_negative_exponent(params, f_10, X):
    """The paper's f(10) = 0.3 * 10^1.01 = 0.3 * 10.23293 = 3.069879; c = 0 (the last valid value: f(K) = 0,
    candidates by the log t term alone) and a negative exponent (0.3 / 10^2 > 0 still) run."""
    res = duelbandits.simulate(X, "rmed1", 100, 0, **params)
    assert res.params == {"f_coefficient": 0.3, "f_exponent": 1.01, **params}
    assert rmed1.f_of_K(10, **res.params) == pytest.approx(f_10, rel=1e-6)


def test_rmed1_beats_rucb_on_the_arithmetic_matrix():
    """Komiyama et al. (COLT 2015), experiments, "Arithmetic" (K = 8, mu_ij = 0.5 + 0.05 (j - i)):
    RMED1's regret lies well below RUCB's.

    Condorcet (maximin) regret at T = 20,000, measured over 20 seeds: RMED1
    150 (per-run sd 32), RUCB 317 (sd 53). Over 10 seeds each the means have
    sd 10 and 17, so RMED1 - 0.75 RUCB = 150 - 238 = -88 has sd 16: the
    assertion holds with a 5.4 sd margin, and fails if RMED1 loses its edge.
    """
    X = duelbandits.make_scenario("arithmetic").matrix
    T = 20_000

    def mean_regret(slug):
        runs = [duelbandits.simulate(X, slug, T, s) for s in range(10)]
        return np.mean([regret.cumulative("maximin", X, r.I, r.J)[-1] for r in runs])

    assert mean_regret("rmed1") < 0.75 * mean_regret("rucb")
