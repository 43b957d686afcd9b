"""RUCB (Zoghi et al., ICML 2014, Algorithm 1): update rules, selection law, a run replayed against the formulas
(its behaviour: tests/test_rcs.py and tests/test_rmed1.py compare regrets with it)."""

import numpy as np
import pytest
from literal import bounds
from montecarlo import close_to_law

from duelbandits.algorithms import rucb

ALPHA = 0.51
NONE = rucb.NO_ARM


def formula_candidates(W, t):
    """Line 6 literally: the arms whose upper bounds (lines 4-5) against every arm are >= 1/2."""
    return set(np.flatnonzero((bounds(W, t)[0] >= 0.5).all(axis=1)).tolist())


def _step(W, t, best, rng, n=1, alpha=ALPHA):
    """The kernel's lines 6-13 at step ``t`` from the counts ``W`` and the hypothesis ``best`` held before
    it: the candidates ``C``, the hypothesis after lines 8-9, and ``n`` independent pairs ``(cs, ds)``."""
    W = np.asarray(W, dtype=float)
    _, rowmax, colmin = rucb.new_state(W, alpha)
    cands = np.empty(len(W), dtype=np.int64)
    m, best = rucb._hypothesis(rowmax, np.log(t), best, cands)
    cs = np.array([rucb._sample_champion(cands, m, best, len(W), rng) for _ in range(n)], dtype=np.int64)
    ds = np.array([rucb.challenger(W, colmin, c, np.log(t), alpha, rng) for c in cs], dtype=np.int64)
    return cands[:m].tolist(), best, cs, ds


def test_candidate_set_switches_exactly_at_the_log_t_threshold(ucb_hand_state):
    """The hand state (conftest): C = {0, 1} up to t = 134, {0, 1, 2, 3} from t = 135 on (the
    log-t threshold e^2 / (alpha N) with e = -5, N = 10 is 4.902; ln 134 = 4.898, ln 135 = 4.905)."""
    W = ucb_hand_state
    assert formula_candidates(W, 134) == {0, 1} and formula_candidates(W, 135) == {0, 1, 2, 3}
    for t, expected in ((100, [0, 1]), (134, [0, 1]), (135, [0, 1, 2, 3]), (1000, [0, 1, 2, 3])):
        assert _step(W, t, NONE, None, n=0)[0] == expected, t


def _frequencies(a, A):
    return np.bincount(a, minlength=A) / len(a)


@pytest.mark.parametrize(
    "t, best, new_best, law",
    [
        # C = {0, 1, 2, 3}, B = {1}: P(1) = 1/2, the others 1/(2 |C \ B|) = 1/6
        (135, 1, 1, [1 / 6, 1 / 2, 1 / 6, 1 / 6]),
        # B empty: 1/(2^0 |C|) = 1/4 each
        (135, NONE, NONE, [1 / 4] * 4),
        # C = {0, 1} and B = {2} not in C: B <- B ∩ C = ∅, uniform over C
        (100, 2, NONE, [1 / 2, 1 / 2, 0, 0]),
        (100, 0, 0, [1 / 2, 1 / 2, 0, 0]),
    ],
)
def test_champion_law_with_and_without_a_hypothesis(t, best, new_best, law, ucb_hand_state):
    n = 40_000
    _, got_best, c, _ = _step(ucb_hand_state, t, best, np.random.default_rng(1), n=n)
    assert got_best == new_best
    assert close_to_law(_frequencies(c, 4), law, n), _frequencies(c, 4)


def test_an_empty_candidate_set_clears_the_hypothesis_and_draws_the_champion_uniformly():
    # a 3-cycle, ten to nothing each: every row has a bound 0.485 < 1/2, C is empty, the champion is uniform
    # over all arms and the hypothesis is dropped (a single candidate becoming B: the run replays below)
    W = np.zeros((3, 3))
    W[0, 1] = W[1, 2] = W[2, 0] = 10
    n = 30_000
    C, best, c, _ = _step(W, 100, 0, np.random.default_rng(3), n=n)
    assert C == [] and best == NONE
    assert close_to_law(_frequencies(c, 3), [1 / 3] * 3, n)


def test_a_tie_for_the_challenger_is_uniform(ucb_hand_state):
    """Hand state at t = 135 against c = 2: U[0, 2] = 1 + sqrt(0.51 ln 135 / 10) = 1.500, U[1, 2] = U[3, 2] = 2
    (unplayed): a tie, d uniform on {1, 3} (the argmax itself: the run replays below)."""
    _, _, c, d = _step(ucb_hand_state, 135, NONE, np.random.default_rng(5), n=40_000)
    on_2 = d[c == 2]
    assert set(on_2.tolist()) == {1, 3}
    assert abs(np.mean(on_2 == 1) - 0.5) < 5 * np.sqrt(0.25 / len(on_2))


def test_tie_with_the_champion_itself_goes_to_the_other_arm():
    # U[1, 0] = 1/2 exactly needs W[1,0]/N + sqrt(alpha ln t / N) = 1/2: with W[1, 0] = 0,
    # N = 4 and alpha ln t = 1 (alpha = 1 / ln t), the radius is sqrt(1/4) = 1/2.
    t = 50
    alpha = 1 / np.log(t)
    W = np.zeros((2, 2))
    W[0, 1] = 4
    assert bounds(W, t, alpha)[0][1, 0] == 0.5
    _, _, c, d = _step(W, t, NONE, np.random.default_rng(6), n=500, alpha=alpha)
    # the candidate set is {0, 1} (U[1, 0] = 1/2 >= 1/2); against c = 0 the tie
    # U[1, 0] = U[0, 0] = 1/2 must give d = 1, against c = 1 U[0, 1] = 3/2 gives d = 0
    assert np.all(d[c == 0] == 1) and np.all(d[c == 1] == 0)
    assert (c == 0).any()


@pytest.mark.parametrize("matrix", ["condorcet", "cyclic"])
def test_every_step_of_a_run_follows_algorithm_1(matrix, X, cyclic4):
    """Replay a run against the literal formulas: c in C (or C empty), B's rules, d's argmax.

    The hypothesis B is recomputed here from the formula's C. Among the steps
    with |C| > 1 and B non-empty, c = B must hold with probability 1/2 each:
    the count is checked within 5 binomial standard errors (seed 9 gives 345
    such steps on condorcet; on the cycle C is empty at 1429 of 1500 steps).
    """
    X = X if matrix == "condorcet" else cyclic4
    T, A = (3000, X.shape[0]) if matrix == "condorcet" else (1500, 4)
    I, J, o, _ = rucb.run(X, T, np.random.default_rng(9), None)
    W = np.zeros((A, A))
    B = NONE
    on_b = with_b = empty = self_duels = 0
    for t in range(1, T + 1):
        c, d = I[t - 1], J[t - 1]
        U = bounds(W, t)[0]
        C = np.flatnonzero((U >= 0.5).all(axis=1))
        B = B if B in C else NONE
        if len(C) == 1:
            B = C[0]
            assert c == B, t
        elif len(C) > 1:
            assert c in C, t
            if B != NONE:
                with_b += 1
                on_b += c == B
        else:
            empty += 1
        others = np.delete(U[:, c], c)
        if others.max() < 0.5:
            assert d == c, t
            self_duels += 1
        else:
            assert d != c and U[d, c] == others.max(), t
        if c != d:
            W[(c, d) if o[t - 1] else (d, c)] += 1
    if matrix == "condorcet":
        assert with_b > 100 and abs(on_b - with_b / 2) <= 5 * np.sqrt(with_b / 4)
        assert self_duels > 100  # the Condorcet winner is confidently best and duels itself
    else:
        assert empty > T // 2  # the cycle empties C: the uniform branch of line 7 is exercised
