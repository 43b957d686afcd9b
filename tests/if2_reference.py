"""Plain-Python Interleaved Filter 2 (Yue, Broder, Kleinberg & Joachims, JCSS 2012, Algorithm 2) then
exploitation, written out literally: ``W`` a list in increasing order, each estimate and interval
recomputed from the counts. Its random numbers are the kernel's (``duelbandits.algorithms.if2``): the
first incumbent by ``rng.integers(A)``, then one uniform per duel.
"""

from __future__ import annotations

import math

import numpy as np


def run(X, T, rng, events=None):
    """One literal run: ``(I, J, outcomes)``; ``events`` (a dict) counts the branches taken."""
    A = X.shape[0]
    events = {} if events is None else events
    events.update(removed=0, switched=0, pruned=0, exploit=0)
    delta = 1.0 / (T * A**2)
    b = int(rng.integers(0, A))
    W = [j for j in range(A) if j != b]
    wins, n = dict.fromkeys(W, 0), dict.fromkeys(W, 0)
    I, J, o = [], [], []

    def P(j):
        return wins[j] / n[j]

    def c(j):
        return math.sqrt(4 * math.log(1 / delta) / n[j])

    while W and len(I) < T:
        for j in W:
            if len(I) < T:
                win = int(rng.random() < X[b, j])
                I.append(b)
                J.append(j)
                o.append(win)
                wins[j] += win
                n[j] += 1
        if len(I) == T:
            break
        for j in [j for j in W if P(j) > 0.5 and not P(j) - c(j) <= 0.5]:  # 1/2 outside the interval, above
            W.remove(j)
            events["removed"] += 1
        beaten_by = [j for j in W if P(j) < 0.5 and not P(j) + c(j) >= 0.5]
        if beaten_by:
            pruned = [j for j in W if P(j) > 0.5]
            events["pruned"] += len(pruned)
            W = [j for j in W if j not in pruned and j != beaten_by[0]]
            b = beaten_by[0]
            wins, n = dict.fromkeys(W, 0), dict.fromkeys(W, 0)
            events["switched"] += 1
    while len(I) < T:
        events["exploit"] += 1
        I.append(b)
        J.append(b)
        o.append(int(rng.random() < X[b, b]))
    return np.array(I, dtype=np.int64), np.array(J, dtype=np.int64), np.array(o, dtype=np.int8)
