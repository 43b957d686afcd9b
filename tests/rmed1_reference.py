"""Plain-Python RMED1 (Komiyama et al., COLT 2015, Algorithms 1 and 2), written out literally.

Every step recomputes all empirical divergences from the win counts and
keeps ``L_C``, ``L_R`` and ``L_N`` as Python lists and sets; it draws its random
numbers in the same order and by the same calls as the numba kernel of
``duelbandits.algorithms.rmed1`` (ties: ``rng.integers`` over the tied arms in
increasing order), so the two give the same arrays from the same seed.
"""

from __future__ import annotations

import math

import numpy as np


def kl_half(p):
    """``d(p, 1/2)``, the Bernoulli KL divergence (``0 log 0 = 0``)."""
    if p == 0.0:
        return math.log(2.0)
    return p * math.log(2.0 * p) + (1.0 - p) * math.log(2.0 * (1.0 - p))


def divergences(W):
    """``I_i = sum_{j : mu[i, j] < 1/2} N[i, j] d(mu[i, j], 1/2)``; ``mu = 1/2`` where ``N = 0``."""
    A = W.shape[0]
    out = np.zeros(A)
    for i in range(A):
        total = 0.0
        for j in range(A):
            n = W[i, j] + W[j, i]
            if j != i and n > 0 and W[i, j] / n < 0.5:
                total += n * kl_half(W[i, j] / n)
        out[i] = total
    return out


EVENTS = ("tie", "m = i*", "m = argmin mu", "self-duel", "L_C shrank")
"""What a run's ``events`` dict counts, so tests can check that a run exercised every branch."""


def _argmin(values, rng, events, skip=None):
    keys = [k for k in range(len(values)) if k != skip]
    low = min(values[k] for k in keys)
    ties = [k for k in keys if values[k] == low]
    if len(ties) == 1:
        return ties[0]
    events["tie"] += 1
    return ties[int(rng.integers(0, len(ties)))]


def challenger(W, l, rng, events=None):
    """Algorithm 2: ``i*`` if ``O_l`` is empty or holds it, else ``argmin_{j != l} mu[l, j]``."""
    events = dict.fromkeys(EVENTS, 0) if events is None else events
    A = W.shape[0]
    best = _argmin(divergences(W), rng, events)
    N = W + W.T
    mu = np.where(N > 0, W / np.where(N > 0, N, 1.0), 0.5)
    O_l = {j for j in range(A) if j != l and mu[l, j] <= 0.5}
    if not O_l or best in O_l:
        events["m = i*"] += 1
        return best
    events["m = argmin mu"] += 1
    return _argmin(mu[l], rng, events, skip=l)


def run(X, T, rng, f_K, events=None):
    """One literal RMED1 run: ``(I, J, outcomes)``; a self-duel leaves ``W`` unchanged.

    ``events``, a dict, receives the counts of :data:`EVENTS`.
    """
    A = X.shape[0]
    events = {} if events is None else events
    events.update(dict.fromkeys(EVENTS, 0))
    W = np.zeros((A, A))
    I, J, o = [], [], []

    def play(i, j):
        win = rng.random() < X[i, j]
        I.append(i)
        J.append(j)
        o.append(int(win))
        if i != j:
            W[(i, j) if win else (j, i)] += 1
        else:
            events["self-duel"] += 1

    for i in range(A):
        for j in range(i + 1, A):
            if len(I) < T:
                play(i, j)
    L_C, L_R, L_N = list(range(A)), set(range(A)), set()
    while len(I) < T:
        for l in L_C:
            if len(I) == T:
                break
            play(l, challenger(W, l, rng, events))
            t = len(I)  # the 1-based step just played
            L_R.discard(l)
            div = divergences(W)
            J_t = {j for j in range(A) if div[j] - div.min() <= math.log(t) + f_K}
            L_N |= {j for j in J_t if j not in L_R}
        else:
            events["L_C shrank"] += len(L_N) < len(L_C)
            L_C, L_R, L_N = sorted(L_N), set(L_N), set()
    return np.array(I, dtype=np.int64), np.array(J, dtype=np.int64), np.array(o, dtype=np.int8)
