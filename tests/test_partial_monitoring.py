"""Partial Monitoring forecaster (Alg. 4): estimator, hyper-parameters, strategy, behaviour."""

import numpy as np
import pytest
from montecarlo import assert_pairs_follow, pooled_runs, separation

import duelbandits
from duelbandits.algorithms import partial_monitoring as pm
from duelbandits.simulation import recorded_steps


def test_hyperparameters_match_theorem_4_4_by_hand():
    # A = 10, T = 40,000, e - 2 = 0.718281828:
    # A^(2/3) = 4.641588834, log A / (A^(2/3) T) = 2.302585093 / 185663.55 = 1.240192e-5,
    # ^(3/4) = 2.089858e-4, x (e-2)^(-1/4) = 1.086241 -> eta = 2.270090e-4;
    # A^2 log A / T = 5.756463e-3, ^(1/4) = 0.2754476, x (e-2)^(1/4) = 0.9206058 -> gamma = 0.2535786.
    h = pm.hyperparameters(10, 40_000)
    assert h["eta"] == pytest.approx(2.270090e-4, rel=1e-6)
    assert h["gamma"] == pytest.approx(0.2535786, rel=1e-6)


def test_estimate_is_unbiased_for_the_borda_score():
    """E[g~(i)] = g(i) = (1/A) sum_k X(i, k) with I, J ~ p independently (eq. 5), by Monte Carlo."""
    X = duelbandits.make_scenario("condorcet", actions=5, seed=3).matrix
    rng = np.random.default_rng(21)
    A, M = 5, 200_000
    p = np.array([0.1, 0.15, 0.2, 0.25, 0.3])
    I = rng.choice(A, size=M, p=p)
    J = rng.choice(A, size=M, p=p)
    o = (rng.random(M) < X[I, J]).astype(float)  # X[i, i] = 1/2: a self-duel is a fair coin
    out = np.empty(A)
    total = np.zeros(A)
    for i, j, x in zip(I, J, o):
        pm.estimate(p, i, j, x, out)
        total += out
    g = X.mean(axis=1)
    # E[g~(i)^2] = sum_j p(i) p(j) X(i,j) / (A p(i) p(j))^2 = (1/A^2) sum_j X(i,j) / (p(i) p(j));
    # Var = that - g(i)^2; five standard errors of the mean of M draws.
    second = (X / np.outer(p, p)).sum(axis=1) / A**2
    tol = 5.0 * np.sqrt((second - g**2) / M)
    assert np.all(np.abs(total / M - g) < tol)


def test_I_and_J_are_drawn_independently_from_p_at_every_step():
    """Alg. 4: (I_t, J_t) ~ p_t x p_t, checked per cell against the laws the kernel recorded.

    eta = 0.5 moves p_t far from uniform within 50 steps (gamma = 0.3 keeps every probability
    >= 0.1); 400 runs, A = 3. The per-cell tolerance (5 sd, martingale CLT) is derived in
    montecarlo.assert_pairs_follow.
    """
    X3 = duelbandits.make_scenario("condorcet", actions=3, seed=0).matrix
    I, J, s = pooled_runs(pm.run, X3, 50, 400, seed=1, eta=0.5, gamma=0.3)
    assert_pairs_follow(I, J, s["p"], s["p"])
    # The check has power: drawing J (or both) uniformly moves some cell's expected count by 64
    # (resp. 81) sd on this trajectory; 20 keeps a wide margin.
    uniform = np.full_like(s["p"], 1 / 3)
    assert separation(s["p"], s["p"], s["p"], uniform) > 20
    assert separation(s["p"], s["p"], uniform, uniform) > 20


def test_recorded_strategies_are_those_the_history_implies(X):
    """Replay eqs. (5)-(7) in numpy from (I, J, o): p_t at the recorded steps agrees."""
    T, A = 600, 10
    h = pm.hyperparameters(A, T)
    record = recorded_steps(T, 53)
    I, J, o, s = pm.run(X, T, np.random.default_rng(5), record)
    log_w, p, k = np.zeros(A), np.full(A, 1 / A), 0
    for t in range(1, T + 1):
        if t == record[k]:
            np.testing.assert_allclose(s["p"][k], p, rtol=1e-10, atol=0)
            k += 1
        i, j = I[t - 1], J[t - 1]
        log_w[i] += h["eta"] * o[t - 1] / (A * p[i] * p[j])
        w = np.exp(log_w)
        p = (1 - h["gamma"]) * w / w.sum() + h["gamma"] / A
    assert k == len(record)
