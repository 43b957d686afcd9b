"""Plain-Python Double Thompson Sampling: the docs/paper.md rules written out literally.

A per-step numpy transcription with no tricks: it forms ``U`` and ``L`` from
their formulas every step and draws the full ``theta`` and ``theta2``. It is
the cross-check of ``tests/test_dts.py`` for the numba kernel in
``duelbandits.algorithms.dts`` (same distribution of choices, not the same
random stream) and the yardstick of ``bench/bench_algorithms.py``.
"""

from __future__ import annotations

import literal
import numpy as np
from literal import Trace


def bounds(B, t, alpha=0.51):
    """``(U, L)`` of docs/paper.md at the 1-based step ``t`` (an unplayed pair's ``U`` is 1)."""
    return literal.bounds(B, t, alpha, unplayed=1.0)


def _argmax_random_ties(values, rng):
    return int(rng.choice(np.flatnonzero(values == values.max())))


def select(B, t, rng, alpha=0.51):
    """One DTS choice ``(a1, a2)`` from the win counts ``B`` at step ``t``."""
    A = B.shape[0]
    U, L = bounds(B, t, alpha)
    upper_copeland = (U > 0.5).sum(axis=1)  # the diagonal is 1/2, never counted
    cands = np.flatnonzero(upper_copeland == upper_copeland.max())
    # first action: theta[i, j] ~ Beta(B[i, j] + 1, B[j, i] + 1) for i < j
    theta = np.full((A, A), 0.5)
    iu = np.triu_indices(A, 1)
    theta[iu] = rng.beta(B[iu] + 1.0, B.T[iu] + 1.0)
    theta.T[iu] = 1.0 - theta[iu]
    wins = (theta > 0.5).sum(axis=1)
    a1 = int(cands[_argmax_random_ties(wins[cands], rng)])
    # second action: fresh theta2[i, a1], argmax over {i : L[i, a1] <= 1/2}
    theta2 = rng.beta(B[:, a1] + 1.0, B[a1, :] + 1.0)
    theta2[a1] = 0.5
    eligible = np.flatnonzero(L[:, a1] <= 0.5)
    a2 = int(eligible[_argmax_random_ties(theta2[eligible], rng)])
    return a1, a2


def run(matrix, horizon, rng, alpha=0.51):
    """One run: ``(I, J, outcomes)``; a self-duel is a fair coin and leaves ``B`` unchanged."""
    X = np.asarray(matrix, dtype=float)
    A = X.shape[0]
    B = np.zeros((A, A))
    trace = Trace()
    for t in range(1, horizon + 1):
        a1, a2 = select(B, t, rng, alpha)
        o = trace.duel(X, a1, a2, rng)
        if a1 != a2:
            B[(a1, a2) if o else (a2, a1)] += 1
    return trace.arrays()
