"""Plain-Python Versatile-DB (Saha & Gaillard, ICML 2022) with Tsallis-INF, written out literally. The
normaliser is found by the same Newton steps as ``duelbandits.algorithms.versatile_db`` and both
actions are drawn by the inverse CDF of one uniform each, so the two give the same arrays."""

from __future__ import annotations

import math

from literal import Trace, counters


def law(L, eta):
    """Tsallis-INF's ``p[i] = 4 / (eta (L[i] - x))^2``, ``x`` solving ``sum p = 1`` (Newton from ``min L - 2/eta``)."""
    x = min(L) - 2.0 / eta
    for _ in range(100):
        w = [4.0 / (eta * (l - x)) ** 2 for l in L]
        total, slope = 0.0, 0.0
        for wi, l in zip(w, L):
            total += wi
            slope += 2.0 * wi / (l - x)
        x -= (total - 1.0) / slope
        if abs(total - 1.0) < 1e-12:
            break
    p = [4.0 / (eta * (l - x)) ** 2 for l in L]
    total = 0.0
    for pi in p:
        total += pi
    return [pi / total for pi in p]


def draw(p, rng):
    """Inverse CDF of one uniform."""
    u, acc = rng.random(), 0.0
    for k in range(len(p) - 1):
        acc += p[k]
        if u < acc:
            return k
    return len(p) - 1


def run(X, T, rng, events=None):
    """One literal run: ``(I, J, outcomes)``; ``events`` (a dict) counts the self-duels."""
    A = X.shape[0]
    events = counters(events, "self-duel")
    L = [0.0] * A
    trace = Trace()
    for t in range(1, T + 1):
        p = law(L, 2.0 / math.sqrt(t))
        i, j = draw(p, rng), draw(p, rng)
        win = trace.duel(X, i, j, rng)
        events["self-duel"] += i == j
        L[i] += (1.0 - win) / p[i]
    return trace.arrays()
