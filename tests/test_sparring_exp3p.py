"""SparringExp3.P (Alg. 3): the players' draws, and their strategies replayed from eqs. (1)-(3), which pins each
player's estimate and what it is fed (its tuning, Theorem 4.3's: tests/test_theorems.py)."""

import numpy as np
from montecarlo import assert_pairs_follow, pooled_runs, separation

import duelbandits
from duelbandits.algorithms import sparring_exp3p as exp3p
from duelbandits.simulation import recorded_steps


def test_I_is_drawn_from_p_and_J_from_q_independently_at_every_step():
    """Alg. 3: (I_t, J_t) ~ p_t x q_t, checked per cell against the laws the kernel recorded.

    eta = 1 and beta = 0 make each player lock onto its own early winners, so p_t and q_t
    differ (gamma = 0.3 keeps every probability >= 0.1); 400 runs of 50 steps, A = 3.
    The per-cell tolerance (5 sd, martingale CLT) is derived in montecarlo.assert_pairs_follow.
    """
    X3 = duelbandits.make_scenario("condorcet", actions=3, seed=0).matrix
    I, J, s = pooled_runs(exp3p.run, X3, 50, 400, seed=1, beta=0.0, eta=1.0, gamma=0.3)
    assert_pairs_follow(I, J, s["p"], s["q"])
    # The check has power: on this trajectory, drawing J from p (or I from q) moves the expected
    # count of some cell by 41 (resp. 44) sd; 20 keeps a wide margin for another platform's stream.
    assert separation(s["p"], s["q"], s["p"], s["p"]) > 20
    assert separation(s["p"], s["q"], s["q"], s["q"]) > 20


def test_recorded_strategies_are_those_the_history_implies(X):
    """Replay eqs. (1)-(3) in numpy from (I, J, o): p_t, q_t at the recorded steps agree."""
    T, A = 400, 10
    h = exp3p.hyperparameters(A, T)
    record = recorded_steps(T, 37)  # 1, 38, ..., 371, 400
    I, J, o, s = exp3p.run(X, T, np.random.default_rng(5), record)
    beta, eta, gamma = h["beta"], h["eta"], h["gamma"]
    log_wp, log_wq = np.zeros(A), np.zeros(A)
    p, q = np.full(A, 1 / A), np.full(A, 1 / A)
    k = 0
    for t in range(1, T + 1):
        if t == record[k]:
            np.testing.assert_allclose(s["p"][k], p, rtol=1e-10, atol=0)
            np.testing.assert_allclose(s["q"][k], q, rtol=1e-10, atol=0)
            k += 1
        i, j, x = I[t - 1], J[t - 1], float(o[t - 1])
        log_wp += eta * ((i == np.arange(A)) * x + beta) / p
        y = x if i == j else 1.0 - x
        log_wq += eta * ((j == np.arange(A)) * y + beta) / q
        p = (1 - gamma) * np.exp(log_wp) / np.exp(log_wp).sum() + gamma / A
        q = (1 - gamma) * np.exp(log_wq) / np.exp(log_wq).sum() + gamma / A
    assert k == len(record)
