"""Interleaved Filter 2 (Yue, Broder, Kleinberg & Joachims, JCSS 2012, Algorithm 2), then exploitation:
the action it returns duels itself to the end. The rule and the choices the paper leaves open:
docs/paper.md ("The field's algorithms", Interleaved Filter 2).
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np

from ._sampling import duel, plain_run, trace


@nb.njit(cache=True)
def _kernel(matrix, horizon, rng, log_inv_delta):
    A = matrix.shape[0]
    I, J, outcomes = trace(horizon)
    wins = np.zeros(A)
    n = np.zeros(A)
    member = np.ones(A, dtype=np.bool_)
    best = rng.integers(0, A)
    member[best] = False
    size = A - 1
    t = 0
    while size > 0 and t < horizon:
        for j in range(A):
            if member[j] and t < horizon:
                o = duel(matrix, best, j, rng)
                I[t], J[t], outcomes[t] = best, j, o
                wins[j] += o
                n[j] += 1.0
                t += 1
        if t == horizon:  # the horizon cut the round
            break
        challenger = -1
        for j in range(A):
            if member[j]:
                p = wins[j] / n[j]
                c = math.sqrt(4.0 * log_inv_delta / n[j])
                if p - c > 0.5:
                    member[j] = False
                    size -= 1
                elif p + c < 0.5 and challenger < 0:
                    challenger = j
        if challenger >= 0:
            for j in range(A):
                if member[j] and wins[j] / n[j] > 0.5:
                    member[j] = False
                    size -= 1
            best = challenger
            member[best] = False
            size -= 1
            wins[:] = 0.0
            n[:] = 0.0
    while t < horizon:
        I[t], J[t], outcomes[t] = best, best, duel(matrix, best, best, rng)
        t += 1
    return I, J, outcomes


def run(matrix, horizon, rng, record=None):
    """One IF2 run (tuned to the horizon through delta); no mixed strategy."""
    return plain_run(_kernel, matrix, horizon, rng, math.log(int(horizon) * len(matrix) ** 2))
