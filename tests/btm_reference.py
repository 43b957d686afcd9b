"""Plain-Python Beat the Mean (Yue & Joachims, ICML 2011, Algorithm 1, online, gamma = 1), written out
literally: the working set as a sorted list, the win and comparison records per pair, every step's
estimates recomputed from them. It draws its random numbers by the same calls in the same order as
the kernel of ``duelbandits.algorithms.btm`` (ties: ``rng.integers`` over the tied actions in
increasing order; ``b'``: ``rng.integers(|W|)`` over ``W`` in increasing order).
"""

from __future__ import annotations

import math

import numpy as np
from literal import Trace, counters, pick


def _argmin(values, keys, rng):
    low = min(values[k] for k in keys)
    return pick([k for k in keys if values[k] == low], rng)


def run(X, T, rng, events=None):
    """One literal run: ``(I, J, outcomes)``; ``events`` (a dict) counts the removals and self-duels."""
    A = X.shape[0]
    events = counters(events, "removed", "exploit")
    c = lambda n: 3.0 * math.sqrt(math.log(2 * T * A) / n)  # noqa: E731 -- gamma = 1, delta = 1 / (2 T A)
    wins = np.zeros((A, A))  # wins[b, b']: wins of b as the compared action against b'
    count = np.zeros((A, A))
    W = list(range(A))
    trace = Trace()
    for _ in range(T):
        if len(W) == 1:
            events["exploit"] += 1
            b = other = W[0]
        else:
            n = {b: sum(count[b, k] for k in W) for b in W}
            b = _argmin(n, W, rng)
            other = pick(W, rng)
        win = trace.duel(X, b, other, rng)
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
    return trace.arrays()
