"""Versatile-DB (Saha & Gaillard, ICML 2022): dueling bandits reduced to one multi-armed bandit, Tsallis-INF.

Both actions are drawn from the learner's law ``p`` and the first one's loss is fed back,
importance-weighted. The rule and the choices the paper leaves open: docs/paper.md ("The field's
algorithms", Versatile-DB).
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np

from ._sampling import duel, plain_run, sample_discrete, trace


@nb.njit(cache=True)
def tsallis_law(L, eta, p):
    """``p[i] = 4 / (eta (L[i] - x))^2`` with ``x < min L`` such that ``sum p = 1``: Newton's method from
    ``x = min L - 2 / eta`` (where the sum is >= 1; it decreases monotonically to the root), at most 100
    steps, then ``p`` divided by its sum."""
    A = L.shape[0]
    low = L[0]
    for i in range(1, A):
        low = min(low, L[i])
    x = low - 2.0 / eta
    for _ in range(100):
        total = 0.0
        slope = 0.0
        for i in range(A):
            w = 4.0 / (eta * (L[i] - x)) ** 2
            total += w
            slope += 2.0 * w / (L[i] - x)
        step = (total - 1.0) / slope
        x -= step
        if abs(total - 1.0) < 1e-12:
            break
    total = 0.0
    for i in range(A):
        p[i] = 4.0 / (eta * (L[i] - x)) ** 2
        total += p[i]
    for i in range(A):
        p[i] /= total


@nb.njit(cache=True)
def _kernel(matrix, horizon, rng):
    A = matrix.shape[0]
    I, J, outcomes = trace(horizon)
    L = np.zeros(A)
    p = np.empty(A)
    for t in range(horizon):
        tsallis_law(L, 2.0 / math.sqrt(t + 1.0), p)
        i = sample_discrete(p, rng)
        j = sample_discrete(p, rng)
        o = duel(matrix, i, j, rng)
        I[t], J[t], outcomes[t] = i, j, o
        L[i] += (1.0 - o) / p[i]
    return I, J, outcomes


def run(matrix, horizon, rng, record=None):
    """One Versatile-DB run; its law is not recorded (no ``strategies``)."""
    return plain_run(_kernel, matrix, horizon, rng)
