"""RCS (Zoghi et al., WSDM 2014, Algorithm 1): champion law, challenger rule, reproducibility, behaviour."""

from functools import cache
from math import comb

import numpy as np
import pytest
from literal import bounds
from montecarlo import close_to_law

import duelbandits
from duelbandits import regret
from duelbandits.algorithms import rcs, rucb

ALPHA = 0.51


@cache
def p_wins(w, l):
    """``P(theta >= 1/2)`` for ``theta ~ Beta(w + 1, l + 1)``: for integer parameters
    ``P(Beta(a, b) <= x) = P(Binomial(a + b - 1, x) >= a)``, so this is
    ``P(Binomial(w + l + 1, 1/2) <= w)``, computed exactly in integers."""
    m = int(w + l + 1)
    return sum(comb(m, k) for k in range(int(w) + 1)) / 2**m


def sample_winner_law(W):
    """``P(i beats all others in the sample) = prod_j p_wins(W[i, j], W[j, i])`` (the pairs are independent)."""
    A = W.shape[0]
    return np.array([np.prod([p_wins(W[i, j], W[j, i]) for j in range(A) if j != i]) for i in range(A)])


def champion_law(W, b):
    """Exact law of the champion: the sample's Condorcet winner, and the remaining mass (no sample
    Condorcet winner) on the argmin of ``b``, split evenly on ties."""
    P = sample_winner_law(W)
    least = np.flatnonzero(b == b.min())
    P[least] += (1.0 - P.sum()) / len(least)
    return P


def _champions(W, b, rng, n, first):
    """``n`` independent champions of the kernel's tournament; ``first`` holds the lead first (the previous
    champion in a run), which must not change the law."""
    A = W.shape[0]
    theta, drawn = np.empty((A, A)), np.zeros((A, A), dtype=np.int64)
    return np.array([rcs.champion(W, b, first, rng, theta, drawn, k + 1)[0] for k in range(n)], dtype=np.int64)


def test_champion_law_on_a_hand_made_state():
    """A = 3: 0 leads 1 by 3-1, 1 and 2 are even at 2-2, 0 and 2 never met; b = (5, 2, 2).

    p(0 over 1) = P(Bin(5, 1/2) <= 3) = 26/32, p(0 over 2) = 1/2, p(1 over 2) = P(Bin(5, 1/2) <= 2) = 1/2.
    Sample Condorcet winner: 0 w.p. 26/32 * 1/2 = 0.40625; 1 w.p. 6/32 * 1/2 = 0.09375;
    2 w.p. 1/2 * 1/2 = 0.25; none w.p. 0.25, split between the least-chosen 1 and 2.
    """
    W = np.array([[0, 3, 0], [1, 0, 2], [0, 2, 0]], dtype=float)
    b = np.array([5.0, 2.0, 2.0])
    law = [0.40625, 0.09375 + 0.125, 0.25 + 0.125]
    np.testing.assert_allclose(champion_law(W, b), law)
    n = 60_000
    for first in range(3):  # the arm holding the lead first must not change the law
        c = _champions(W, b, np.random.default_rng(first), n, first)
        assert close_to_law(np.bincount(c, minlength=3) / n, law, n), first


@pytest.mark.parametrize("matrix", ["condorcet", "cyclic"])
def test_every_step_of_a_run_follows_algorithm_1(matrix, cyclic4):
    """Replay a run (A = 4, T = 800): each step's champion against its exact law given (W, b),
    and the challenger against the formula's argmax (RUCB's challenger, whose ties and self-duels
    tests/test_rucb.py checks on hand-made states).

    Per arm a, N_a - sum_t P_t(a) (N_a the champion count, P_t the exact law of
    step t) is a martingale with variance sum_t P_t(a)(1 - P_t(a)); the
    standardised gap is checked against 5. This pins down the kernel's lazy
    draws and per-step stamps. On the cycle the sample has no Condorcet winner
    at 792 of 800 steps in expectation, so the argmin-b branch carries the run,
    and the b counts are pinned down by the steps whose champion had
    probability < 1e-3 under its law: their expected number is the summed mass
    of such arms, 0.018 (a fallback ignoring b would put 283 there), so at most
    2 are allowed (Poisson tail < 1e-6).
    """
    X = duelbandits.make_scenario("condorcet", actions=4, seed=1).matrix if matrix == "condorcet" else cyclic4
    T, A = 800, 4
    I, J, o, _ = rcs.run(X, T, np.random.default_rng(11), None)
    W = np.zeros((A, A))
    b = np.zeros(A)
    expected = np.zeros(A)
    variance = np.zeros(A)
    fallback = unlikely_mass = 0.0
    unlikely = 0
    for t in range(1, T + 1):
        c, d = I[t - 1], J[t - 1]
        fallback += 1.0 - sample_winner_law(W).sum()
        P = champion_law(W, b)
        expected += P
        variance += P * (1 - P)
        unlikely += P[c] < 1e-3
        unlikely_mass += P[P < 1e-3].sum()
        U = bounds(W, t)[0]
        others = np.delete(U[:, c], c)
        if others.max() < 0.5:
            assert d == c, t
        else:
            assert d != c and U[d, c] == others.max(), t
        b[c] += 1
        if c != d:
            W[(c, d) if o[t - 1] else (d, c)] += 1
    counts = np.bincount(I, minlength=A)
    z = np.abs(counts - expected) / np.sqrt(variance)
    assert np.all(z <= 5), z
    if matrix == "cyclic":
        assert fallback > 0.9 * T
        assert unlikely_mass < 0.05 and unlikely <= 2, (unlikely, unlikely_mass)


def test_knockout_draws_between_A_minus_1_and_2A_minus_3_betas_per_step(X):
    # the literal rule draws A(A - 1)/2 = 45 per step at A = 10
    T, A = 3000, X.shape[0]
    draws = rcs.beta_draws(X, T, np.random.default_rng(0))
    assert (A - 1) * T <= draws <= (2 * A - 3) * T


def test_rcs_accumulates_less_regret_than_rucb_on_a_small_matrix():
    """Zoghi et al. (WSDM 2014) report that RCS, sampling the champion instead of RUCB's
    optimistic candidate set, accumulates substantially less cumulative regret than RUCB
    on some of their ranker-evaluation problems (also seen in Wu & Liu's 2016 comparisons).

    Here condorcet with A = 5 at T = 2,000: measured over 30 seeds, RCS 25.4 (per-run sd 4.3),
    RUCB 41.0 (sd 6.1). With 8 runs each the difference of means has sd 2.6, so the asserted
    margin of 5 is 4 sd below the measured gap of 15.6.
    """
    X = duelbandits.make_scenario("condorcet", actions=5, seed=0).matrix
    T = 2000

    def mean_regret(module, base):
        runs = [module.run(X, T, np.random.default_rng(base + s), None) for s in range(8)]
        return np.mean([regret.cumulative("maximin", X, I, J)[-1] for I, J, _, _ in runs])

    assert mean_regret(rcs, 200) + 5 < mean_regret(rucb, 300)
