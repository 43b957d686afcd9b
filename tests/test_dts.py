"""Double Thompson Sampling: selection rule, agreement with the literal reference, behaviour."""

import dts_reference as reference
import numpy as np
import pytest
from montecarlo import assert_same_frequencies

from duelbandits.algorithms import dts

ALPHA = 0.51


def _cyclic_state():
    """A = 4 at t = 100: 0 > 1 > 2 > 0 and 0 > 3 confidently, pairs (1, 3), (2, 3) unplayed.

    30 wins to 0: B/N = 1, radius sqrt(0.51 log 100 / 30) = 0.280, so the winner's
    L = 0.72 > 1/2 and the loser's U = 0.28 < 1/2. Every action then has upper
    Copeland score 2 (all four are candidates), and the actions that are
    confidently better than a1 (L[i, a1] > 1/2) are {2} for a1 = 0, {0} for 1,
    {1} for 2 and {0} for 3.
    """
    B = np.zeros((4, 4))
    for w, l in ((0, 1), (1, 2), (2, 0), (0, 3)):
        B[w, l] = 30
    return B, 100, {0: {2}, 1: {0}, 2: {1}, 3: {0}}


def _reference_candidates(B, t):
    U, _ = reference.bounds(B, t, ALPHA)
    score = (U > 0.5).sum(axis=1)
    return set(np.flatnonzero(score == score.max()).tolist())


def _select(B, t, rng, n, first=0):
    """``n`` independent choices ``(a1s, a2s)`` of the kernel's step at ``t`` from the win counts ``B``;
    ``first`` is the candidate evaluated first (the previous ``a1`` in a run), which must not change the law."""
    A = B.shape[0]
    cU, cL = dts._all_thresholds(B, ALPHA)
    cands, theta, drawn = np.empty(A, dtype=np.int64), np.empty((A, A)), np.zeros((A, A), dtype=np.int64)
    pairs = [dts._select(B, cU, cL, np.log(t), rng, first, cands, theta, drawn, k + 1)[:2] for k in range(n)]
    return np.array(pairs, dtype=np.int64).T


def test_hand_made_state_has_the_designed_candidates_and_eligibility():
    B, t, ineligible = _cyclic_state()
    assert _reference_candidates(B, t) == {0, 1, 2, 3}
    _, L = reference.bounds(B, t, ALPHA)
    for a1, bad in ineligible.items():
        assert set(np.flatnonzero(L[:, a1] > 0.5).tolist()) == bad


def test_first_step_is_uniform_then_second_action_avoids_a1():
    """At t = 1 (B = 0): all actions are candidates and eligible, theta ~ U(0, 1).

    a1 is uniform; a2 = a1 only if all A - 1 uniform theta2 fall below 1/2,
    probability 2^-(A-1); otherwise a2 is uniform over the others. Tolerances:
    five binomial standard errors.
    """
    A, n = 10, 40_000
    a1, a2 = _select(np.zeros((A, A)), 1, np.random.default_rng(4), n)
    f1 = np.bincount(a1, minlength=A) / n
    assert np.all(np.abs(f1 - 1 / A) < 5 * np.sqrt(0.1 * 0.9 / n))
    same = 2.0 ** -(A - 1)
    assert abs(np.mean(a1 == a2) - same) < 5 * np.sqrt(same / n)
    offset = np.bincount((a2 - a1) % A, minlength=A)[1:] / n
    q = (1 - same) / (A - 1)
    assert np.all(np.abs(offset - q) < 5 * np.sqrt(q * (1 - q) / n))


@pytest.mark.parametrize("state", ["cyclic", "two", "random"])
def test_selection_distribution_matches_the_literal_reference(state):
    """Same state, many draws: kernel (lazy, pruned draws) and reference (all draws) agree in law."""
    if state == "cyclic":
        (B, t, _), first = _cyclic_state(), 3
    elif state == "two":
        # candidates {0, 1} (both confidently beat 2, N = 4 between them):
        # a1 = 0 iff theta[0, 1] ~ Beta(4, 2) > 1/2, probability 0.8125
        B = np.array([[0, 3, 30], [1, 0, 30], [0, 0, 0]], dtype=float)
        t, first = 100, 1
    else:
        rng = np.random.default_rng(10)
        B = rng.integers(0, 6, size=(6, 6)).astype(float)
        np.fill_diagonal(B, 0)
        t, first = 30, 5
    A = B.shape[0]
    k1, k2 = _select(B, t, np.random.default_rng(11), 40_000, first)
    rng = np.random.default_rng(12)
    r = np.array([reference.select(B, t, rng, ALPHA) for _ in range(2500)])
    for kernel, ref in ((k1, r[:, 0]), (k2, r[:, 1]), ((k1 == k2).astype(int), (r[:, 0] == r[:, 1]).astype(int))):
        assert_same_frequencies(kernel, ref, A, state)  # 5 standard errors per value
    assert set(np.unique(k1).tolist()) <= _reference_candidates(B, t)


@pytest.mark.parametrize("matrix", ["condorcet", "cyclic"])
def test_every_step_of_a_run_follows_the_rule(matrix, X, cyclic4):
    """Replay a run: each a1 is a candidate and each a2 eligible under U, L of the step's B.

    This pins down the kernel's incremental threshold updates. On the cyclic
    matrix confident pairs appear early, so both restrictions bind (counted,
    so the check cannot pass vacuously; seed 13 gives 75 steps with a
    non-candidate and 1395 with an ineligible action).
    """
    X = X if matrix == "condorcet" else cyclic4
    T, A = 1500, X.shape[0]
    I, J, o, _ = dts.run(X, T, np.random.default_rng(13), None)
    B = np.zeros((A, A))
    restricted = ineligible = 0
    for t in range(1, T + 1):
        a1, a2 = I[t - 1], J[t - 1]
        U, L = reference.bounds(B, t, ALPHA)
        score = (U > 0.5).sum(axis=1)
        assert score[a1] == score.max(), t
        assert L[a2, a1] <= 0.5, t
        restricted += (score < score.max()).any()
        ineligible += (L[:, a1] > 0.5).any()
        if a1 != a2:
            B[(a1, a2) if o[t - 1] else (a2, a1)] += 1
    if matrix == "cyclic":
        assert restricted > 30 and ineligible > T // 2


def test_draws_fewer_beta_samples_than_the_literal_rule(X):
    # The literal rule draws A(A-1)/2 + (A-1) = 54 samples per step at A = 10.
    per_step = dts.beta_draws(X, 5000, np.random.default_rng(0)) / 5000
    assert 0 < per_step < 0.5 * 54
