"""Plain-Python Interleaved Filter 2 (Yue, Broder, Kleinberg & Joachims, JCSS 2012, Algorithm 2) then
exploitation, written out literally: ``W`` a list in increasing order, each estimate and interval
recomputed from the counts. Its random numbers are the kernel's (``duelbandits.algorithms.if2``): the
first incumbent by ``rng.integers(A)``, then one uniform per duel.
"""

from __future__ import annotations

import math

from literal import Trace, counters


def run(X, T, rng, events=None):
    """One literal run: ``(I, J, outcomes)``; ``events`` (a dict) counts the branches taken."""
    A = X.shape[0]
    events = counters(events, "removed", "switched", "pruned", "exploit")
    delta = 1.0 / (T * A**2)
    b = int(rng.integers(0, A))
    W = [j for j in range(A) if j != b]
    wins, n = dict.fromkeys(W, 0), dict.fromkeys(W, 0)
    trace = Trace()

    def P(j):
        return wins[j] / n[j]

    def c(j):
        return math.sqrt(4 * math.log(1 / delta) / n[j])

    while W and len(trace) < T:
        for j in W:
            if len(trace) < T:
                win = trace.duel(X, b, j, rng)
                wins[j] += win
                n[j] += 1
        if len(trace) == T:
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
    while len(trace) < T:
        events["exploit"] += 1
        trace.duel(X, b, b, rng)
    return trace.arrays()
