"""Plain-Python DTS+ (Wu & Liu, NeurIPS 2016), written out literally: the bounds of
``dts_reference.bounds`` every step, the whole ``theta`` when there are several candidates, the
tie-break by least ``R[i] = sum_j r[i, j] / d(theta[i, j], 1/2)``. It draws its random numbers by
the same calls in the same order as ``duelbandits.algorithms.dts_plus`` (``theta`` pair by pair,
``i < j`` in lexicographic order; the first action's ties by ``rng.integers``; the second action's
by DTS's running argmax, one ``rng.random()`` per tie met), so the two give the same arrays.
"""

from __future__ import annotations

import math

import numpy as np
from dts_reference import bounds


def kl_half(p):
    """``d(p, 1/2)``, the Bernoulli KL divergence (``0 log 0 = 0``)."""
    p = min(p, 1.0 - p)  # d(p, 1/2) = d(1 - p, 1/2)
    return math.log(2.0) if p == 0.0 else p * math.log(2.0 * p) + (1.0 - p) * math.log(2.0 * (1.0 - p))


def _uniform(ties, rng):
    return ties[0] if len(ties) == 1 else ties[int(rng.integers(0, len(ties)))]


def select(B, t, rng, alpha, events):
    """One DTS+ choice ``(a1, a2)`` at the 1-based step ``t``."""
    A = B.shape[0]
    U, L = bounds(B, t, alpha)
    upper = (U > 0.5).sum(axis=1)
    cands = [i for i in range(A) if upper[i] == upper.max()]
    if len(cands) == 1:
        a1 = cands[0]
    else:
        theta = np.full((A, A), 0.5)
        for i in range(A):
            for j in range(i + 1, A):
                theta[i, j] = rng.beta(B[i, j] + 1.0, B[j, i] + 1.0)
                theta[j, i] = 1.0 - theta[i, j]
        wins = (theta > 0.5).sum(axis=1)
        tied = [i for i in cands if wins[i] == max(wins[c] for c in cands)]
        if len(tied) == 1:
            a1 = tied[0]
        else:
            events["tie-break"] += 1
            z = wins / (A - 1)
            R = {
                i: sum(
                    (z.max() - (z[i] + z[j]) / 2) / kl_half(theta[i, j])
                    for j in range(A)
                    if j != i and theta[i, j] != 0.5
                )
                for i in tied
            }
            a1 = _uniform([i for i in tied if R[i] == min(R.values())], rng)
    # second action, as DTS: argmax of fresh theta2[i, a1] over {i : L[i, a1] <= 1/2}, theta2[a1, a1] = 1/2
    best, count, a2 = 0.5, 1, a1
    for i in range(A):
        if i != a1 and L[i, a1] <= 0.5:
            x = rng.beta(B[i, a1] + 1.0, B[a1, i] + 1.0)
            if x > best:
                best, count, a2 = x, 1, i
            elif x == best:
                count += 1
                if rng.random() * count < 1.0:
                    a2 = i
    return a1, a2


def run(X, T, rng, events=None, alpha=0.51):
    """One literal run: ``(I, J, outcomes)``; ``events`` (a dict) counts the tie-breaks and self-duels."""
    A = X.shape[0]
    events = {} if events is None else events
    events.update({"tie-break": 0, "self-duel": 0})
    B = np.zeros((A, A))
    I, J, o = [], [], []
    for t in range(1, T + 1):
        a1, a2 = select(B, t, rng, alpha, events)
        win = int(rng.random() < X[a1, a2])
        I.append(a1)
        J.append(a2)
        o.append(win)
        if a1 != a2:
            B[(a1, a2) if win else (a2, a1)] += 1
        else:
            events["self-duel"] += 1
    return np.array(I, dtype=np.int64), np.array(J, dtype=np.int64), np.array(o, dtype=np.int8)
