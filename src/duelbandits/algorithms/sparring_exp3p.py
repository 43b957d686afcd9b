"""SparringExp3.P for dueling bandits (Alg. 3, Theorem 4.3).

The rule: docs/paper.md ("The algorithms", SparringExp3.P): two Exp3.P players spar, the row
player ``p`` picks ``I_t`` and the column player ``q`` picks ``J_t``, independently; weights are
kept in the log domain, so they never overflow at ``T = 40,000``.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ._sampling import duel, mixed_strategy, record_row, record_steps, sample_discrete, trace
from .tuning import sparring_exp3p_tuning as hyperparameters  # Theorem 4.3's beta, eta, gamma
from .tuning import tuned


@nb.njit(cache=True)
def estimate(strategy, chosen, observed, beta, out):
    """Eq. (3) for every action: ``out[i] = (observed 1(i = chosen) + beta) / strategy[i]``.

    The same formula serves both players: for ``p`` it is ``Xp~(i, J_t)`` with
    ``chosen = I_t`` and ``observed = X_t(I_t, J_t)``; for ``q`` it is
    ``Xq~(j, I_t)`` with ``chosen = J_t`` and ``observed = X_t(J_t, I_t)``.
    Conditional on the opponent's action its mean is ``X(i, .) + beta / strategy[i]``.
    """
    for i in range(strategy.shape[0]):
        out[i] = beta / strategy[i]
    out[chosen] += observed / strategy[chosen]


@nb.njit(cache=True)
def q_observation(o, I, J):
    """The ``q`` player's entry ``X_t(J_t, I_t)``: ``1 - o_t``, or ``o_t`` for a self-duel."""
    if I == J:
        return float(o)
    return 1.0 - o


@nb.njit(cache=True)
def _kernel(matrix, horizon, rng, record, beta, eta, gamma):
    A = matrix.shape[0]
    I, J, outcomes = trace(horizon)
    p_rec = np.empty((record.shape[0], A))
    q_rec = np.empty((record.shape[0], A))
    log_wp = np.zeros(A)  # log w_{p,t}, w_{p,0} = 1
    log_wq = np.zeros(A)
    p = np.full(A, 1.0 / A)  # p_1 = q_1 = uniform
    q = np.full(A, 1.0 / A)
    est = np.empty(A)
    k = 0
    for t in range(horizon):
        if k < record.shape[0] and record[k] == t + 1:
            record_row(p_rec, k, p)
            record_row(q_rec, k, q)
            k += 1
        # Alg. 3: I_t ~ p_t and J_t ~ q_t independently, then one duel
        i = sample_discrete(p, rng)
        j = sample_discrete(q, rng)
        o = duel(matrix, i, j, rng)
        I[t], J[t], outcomes[t] = i, j, o
        # eqs. (3) and (1): log w += eta * estimate, for every action
        estimate(p, i, float(o), beta, est)
        for a in range(A):
            log_wp[a] += eta * est[a]
        estimate(q, j, q_observation(o, i, j), beta, est)
        for a in range(A):
            log_wq[a] += eta * est[a]
        # eq. (2): p_{t+1} = (1 - gamma) w / W + gamma / A
        mixed_strategy(log_wp, gamma, p)
        mixed_strategy(log_wq, gamma, q)
    return I, J, outcomes, p_rec, q_rec


def run(matrix, horizon, rng, record=None, *, beta=None, eta=None, gamma=None):
    """One run of Alg. 3; strategies ``{'p': ..., 'q': ...}`` at the ``record`` steps (none if None); ``beta, eta,
    gamma`` default to Theorem 4.3's values for this horizon (:func:`hyperparameters`)."""
    h = tuned(hyperparameters, len(matrix), int(horizon), beta=beta, eta=eta, gamma=gamma)
    X = np.ascontiguousarray(matrix, dtype=np.float64)
    I, J, outcomes, p_rec, q_rec = _kernel(X, int(horizon), rng, record_steps(record), h["beta"], h["eta"], h["gamma"])
    return I, J, outcomes, {"p": p_rec, "q": q_rec}
