"""Doubler (Ailon, Karnin & Joachims, ICML 2014): a dueling bandit from one singleton bandit machine.

Epoch ``i`` lasts ``2^i`` steps; a step's first action is uniform over the previous epoch's second
actions, its second the pick of a UCB machine (:func:`.multisbm.ucb_pick`, reset each epoch). The
choices the paper leaves open: docs/paper.md ("The field's algorithms", MultiSBM and Doubler).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ._sampling import duel, plain_run, trace
from .multisbm import ucb_pick


@nb.njit(cache=True)
def _kernel(matrix, horizon, rng, alpha):
    A = matrix.shape[0]
    I, J, outcomes = trace(horizon)
    N = np.zeros(A)
    G = np.zeros(A)
    cands = np.empty(A, dtype=np.int64)
    L = np.empty(max(horizon, 1), dtype=np.int64)
    size = 1
    L[0] = rng.integers(0, A)
    t = 0
    length = 1
    while t < horizon:
        length *= 2
        start = t
        N[:] = 0.0
        G[:] = 0.0
        while t < horizon and t - start < length:
            x = L[0] if size == 1 else L[rng.integers(0, size)]
            y = ucb_pick(N, G, alpha, rng, cands)
            o = duel(matrix, x, y, rng)
            I[t], J[t], outcomes[t] = x, y, o
            N[y] += 1.0
            G[y] += 1.0 - o
            t += 1
        size = t - start
        L[:size] = J[start:t]
    return I, J, outcomes


def run(matrix, horizon, rng, record=None, *, alpha=2.01):
    """One Doubler run; no mixed strategy, so ``strategies`` is empty."""
    return plain_run(_kernel, matrix, horizon, rng, float(alpha))
