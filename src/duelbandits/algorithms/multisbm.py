"""MultiSBM (Ailon, Karnin & Joachims, ICML 2014): one singleton bandit machine (SBM) per action.

Step ``t`` duels ``x_t = y_{t-1}`` against ``y_t``, the pick of ``x_t``'s own UCB machine, rewarded 1
when its pick wins. The SBM and the choices the paper leaves open: docs/paper.md ("The field's
algorithms", MultiSBM and Doubler).
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np

from ._sampling import duel, pick, plain_run, trace


@nb.njit(cache=True)
def ucb_pick(N, G, alpha, rng, cands):
    """The SBM's pick from its pull counts ``N`` and rewards ``G``: an unplayed action if any, else the
    largest ``G / N + sqrt(alpha log n / N)`` (``n`` its pulls); ties uniformly (``cands[rng.integers(m)]``)."""
    K = N.shape[0]
    n = 0.0
    m = 0
    for k in range(K):
        n += N[k]
        if N[k] == 0.0:
            cands[m] = k
            m += 1
    if m == 0:
        log_n = math.log(n)
        best = -np.inf
        for k in range(K):
            v = G[k] / N[k] + math.sqrt(alpha * log_n / N[k])
            if v > best:
                best = v
                m = 0
            if v == best:
                cands[m] = k
                m += 1
    return pick(cands, m, rng)


@nb.njit(cache=True)
def _kernel(matrix, horizon, rng, alpha):
    A = matrix.shape[0]
    I, J, outcomes = trace(horizon)
    N = np.zeros((A, A))  # N[x, y]: pulls of y by S_x
    G = np.zeros((A, A))  # G[x, y]: wins of y over x in them
    cands = np.empty(A, dtype=np.int64)
    x = rng.integers(0, A)
    for t in range(horizon):
        y = ucb_pick(N[x], G[x], alpha, rng, cands)
        o = duel(matrix, x, y, rng)
        I[t], J[t], outcomes[t] = x, y, o
        N[x, y] += 1.0
        G[x, y] += 1.0 - o
        x = y
    return I, J, outcomes


def run(matrix, horizon, rng, record=None, *, alpha=2.01):
    """One MultiSBM run; no mixed strategy, so ``strategies`` is empty."""
    return plain_run(_kernel, matrix, horizon, rng, float(alpha))
