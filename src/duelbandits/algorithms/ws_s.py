"""Winner Stays for strong regret, WS-S (Chen & Frazier, ICML 2017, Algorithm 2).

WS-W (:mod:`.winner_stays`) as the exploration, in rounds, each round's winner then duelling itself
``floor(beta^r)`` times. The rule and the choices the paper leaves open: docs/paper.md ("The field's
algorithms", WS-S).
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np

from ._sampling import duel, plain_run, trace
from .winner_stays import _select, _update


@nb.njit(cache=True)
def _kernel(matrix, horizon, rng, beta):
    A = matrix.shape[0]
    C = np.zeros(A, dtype=np.int64)
    cands = np.empty(A, dtype=np.int64)
    I, J, outcomes = trace(horizon)
    i, j = -1, -1  # WS-W's previous actions (none at step 1)
    r = 1
    t = 0
    while t < horizon:
        i, j = _select(C, i, j, rng, cands)
        o = duel(matrix, i, j, rng)
        _update(C, i, j, o)
        I[t], J[t], outcomes[t] = i, j, o
        t += 1
        top = r * (A - 1)
        if C[i] == top or C[j] == top:  # round r of WS-W is over
            w = i if C[i] == top else j
            for _ in range(int(math.floor(min(beta**r, float(horizon))))):
                if t == horizon:
                    break
                I[t], J[t], outcomes[t] = w, w, duel(matrix, w, w, rng)
                t += 1
            r += 1
    return I, J, outcomes


def run(matrix, horizon, rng, record=None, *, beta=1.5):
    """One WS-S run; no mixed strategy, so ``strategies`` is empty."""
    return plain_run(_kernel, matrix, horizon, rng, float(beta))
