"""Partial Monitoring forecaster for dueling bandits (Alg. 4, Theorem 4.4).

The rule: docs/paper.md ("The algorithms", Partial Monitoring): one exponentially weighted strategy
``p`` supplies both actions, drawn independently from ``p_t``; the estimate of eq. (6), weights
(eq. 4) in the log domain, mixed with uniform exploration (eq. 5).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ._sampling import duel, mixed_strategy, record_row, record_steps, sample_discrete, trace
from .tuning import partial_monitoring_tuning as hyperparameters  # Theorem 4.4's eta, gamma
from .tuning import tuned


@nb.njit(cache=True)
def estimate(p, I, J, o, out):
    """Eq. (6): ``out[i] = (1/A) o 1(i = I) / (p(I) p(J))``.

    With ``I, J ~ p`` independently its mean is the Borda score
    ``g(i) = (1/A) sum_k X(i, k)``.
    """
    A = p.shape[0]
    for i in range(A):
        out[i] = 0.0
    out[I] = o / (A * p[I] * p[J])


@nb.njit(cache=True)
def step(log_w, p, g, I, J, o, eta, gamma):
    """Eqs. (6), (4), (5) after the duel ``(I, J)`` with outcome ``o``, in place: ``g <- g~_t``,
    ``log w += eta g~`` (only ``g~(I)`` is non-zero) and ``p <- p_{t+1} = (1 - gamma) w / W + gamma / A``."""
    estimate(p, I, J, float(o), g)
    for a in range(log_w.shape[0]):
        log_w[a] += eta * g[a]
    mixed_strategy(log_w, gamma, p)


@nb.njit(cache=True)
def _kernel(matrix, horizon, rng, record, eta, gamma):
    A = matrix.shape[0]
    I, J, outcomes = trace(horizon)
    p_rec = np.empty((record.shape[0], A))
    log_w = np.zeros(A)  # log w_0 = 0
    p = np.full(A, 1.0 / A)  # p_1 = uniform
    g = np.empty(A)  # g~_t
    k = 0
    for t in range(horizon):
        if k < record.shape[0] and record[k] == t + 1:
            record_row(p_rec, k, p)
            k += 1
        # Alg. 4: I_t, J_t ~ p_t independently, then one duel
        i = sample_discrete(p, rng)
        j = sample_discrete(p, rng)
        o = duel(matrix, i, j, rng)
        I[t], J[t], outcomes[t] = i, j, o
        step(log_w, p, g, i, j, o, eta, gamma)
    return I, J, outcomes, p_rec


def run(matrix, horizon, rng, record=None, *, eta=None, gamma=None):
    """One run of Alg. 4; strategies ``{'p': ...}`` at the ``record`` steps (none if None); ``eta, gamma``
    default to Theorem 4.4's values for this horizon (:func:`hyperparameters`)."""
    return tuned_run(hyperparameters, matrix, horizon, rng, record, eta, gamma)


def tuned_run(tuning, matrix, horizon, rng, record, eta, gamma):
    """A run of the forecaster whose ``eta, gamma`` left None are ``tuning(A, T)``'s (Dueling-EXP3 shares it)."""
    h = tuned(tuning, len(matrix), int(horizon), eta=eta, gamma=gamma)
    X = np.ascontiguousarray(matrix, dtype=np.float64)
    I, J, outcomes, p_rec = _kernel(X, int(horizon), rng, record_steps(record), h["eta"], h["gamma"])
    return I, J, outcomes, {"p": p_rec}
