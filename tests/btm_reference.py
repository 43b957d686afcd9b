"""Plain-Python Beat the Mean (Yue & Joachims, ICML 2011, Algorithm 1, online, gamma = 1), written out
literally: the working set as a sorted list, the win and comparison records per pair, every step's
estimates recomputed from them. It draws its random numbers by the same calls in the same order as
the kernel of ``duelbandits.algorithms.btm`` (ties: ``rng.integers`` over the tied actions in
increasing order; ``b'``: ``rng.integers(|W|)`` over ``W`` in increasing order).
"""

from __future__ import annotations

import math

import numpy as np


def _argmin(values, keys, rng):
    low = min(values[k] for k in keys)
    ties = [k for k in keys if values[k] == low]
    return ties[0] if len(ties) == 1 else ties[int(rng.integers(0, len(ties)))]


def run(X, T, rng, events=None):
    """One literal run: ``(I, J, outcomes)``; ``events`` (a dict) counts the removals and self-duels."""
    A = X.shape[0]
    events = {} if events is None else events
    events.update(removed=0, exploit=0)
    c = lambda n: 3.0 * math.sqrt(math.log(2 * T * A) / n)  # noqa: E731 -- gamma = 1, delta = 1 / (2 T A)
    wins = np.zeros((A, A))  # wins[b, b']: wins of b as the compared action against b'
    count = np.zeros((A, A))
    W = list(range(A))
    I, J, o = [], [], []
    for _ in range(T):
        if len(W) == 1:
            events["exploit"] += 1
            b = other = W[0]
        else:
            n = {b: sum(count[b, k] for k in W) for b in W}
            b = _argmin(n, W, rng)
            other = W[int(rng.integers(0, len(W)))]
        win = int(rng.random() < X[b, other])
        I.append(b)
        J.append(other)
        o.append(win)
        if len(W) == 1:
            continue
        wins[b, other] += win
        count[b, other] += 1
        n = {b: sum(count[b, k] for k in W) for b in W}
        if min(n.values()) == 0:
            continue
        P = {b: sum(wins[b, k] for k in W) / n[b] for b in W}
        radius = c(min(n.values()))
        if min(P.values()) + radius <= max(P.values()) - radius:
            W.remove(_argmin(P, W, rng))
            events["removed"] += 1
    return np.array(I, dtype=np.int64), np.array(J, dtype=np.int64), np.array(o, dtype=np.int8)
