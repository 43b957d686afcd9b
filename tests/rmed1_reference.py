"""Plain-Python RMED1, RMED2 and RMED2FH (Komiyama et al., COLT 2015, Algorithms 1-3), written out literally.

Every step recomputes all empirical divergences from the win counts and
keeps ``L_C``, ``L_R`` and ``L_N`` as Python lists and sets; it draws its random
numbers in the same order and by the same calls as the numba kernel of
``duelbandits.algorithms.rmed1`` (ties: ``rng.integers`` over the tied arms in
increasing order), so the two give the same arrays from the same seed.
"""

from __future__ import annotations

import math

import numpy as np
from literal import Trace, pick


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

RMED2_EVENTS = ("tie", "explore", "m = i*, O_l empty", "m = i*, met rarely", "m = b_l", "self-duel", "L_C shrank")
"""The same for RMED2 and RMED2FH (``explore`` only for RMED2)."""


def _argmin(values, rng, events, skip=None):
    keys = [k for k in range(len(values)) if k != skip]
    low = min(values[k] for k in keys)
    ties = [k for k in keys if values[k] == low]
    events["tie"] += len(ties) > 1
    return pick(ties, rng)


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


def partner(W, l, best, rng, events):
    """RMED2's ``b_l = argmin_{j in O_l} (Delta_l + Delta_j) / d(mu[l, j], 1/2)`` with
    ``Delta_j = max(mu[i*, j] - 1/2, 0)`` (0 for ``i*``), a ratio with ``d = 0`` infinite; None if ``O_l = {}``."""
    A = W.shape[0]
    N = W + W.T
    mu = np.where(N > 0, W / np.where(N > 0, N, 1.0), 0.5)
    delta = [0.0 if k == best else max(mu[best, k] - 0.5, 0.0) for k in range(A)]
    O_l = [j for j in range(A) if j != l and mu[l, j] <= 0.5]
    if not O_l:
        return None
    ratio = [(delta[l] + delta[j]) / kl_half(mu[l, j]) if mu[l, j] < 0.5 else math.inf for j in O_l]
    return O_l[_argmin(ratio, rng, events)]


def rmed2_challenger(W, l, t, alpha, rng, events, b_l="estimate"):
    """Algorithm 3 at step ``t``: a pair of ``l`` played fewer than ``alpha log log t`` times (the fewest,
    then the least index; RMED2 only), else ``i*`` if ``O_l`` is empty or ``i*`` is in ``O_l`` with
    ``N[l, i*] < N[l, b_l] / log log t``, else ``b_l``. RMED2FH passes its fixed ``b_l``."""
    A = W.shape[0]
    N = W + W.T
    best = _argmin(divergences(W), rng, events)
    if b_l == "estimate":
        few = [j for j in range(A) if j != l and N[l, j] < alpha * math.log(math.log(t))]
        if few:
            events["explore"] += 1
            return min(few, key=lambda j: (N[l, j], j))
        b_l = partner(W, l, best, rng, events)
    if b_l is None:
        events["m = i*, O_l empty"] += 1
        return best
    if best != l and W[l, best] <= W[best, l] and N[l, best] < N[l, b_l] / math.log(math.log(t)):
        events["m = i*, met rarely"] += 1
        return best
    events["m = b_l"] += 1
    return b_l


def run(X, T, rng, events=None, rule="rmed1", alpha=3.0):
    """One literal RMED1 (``rule``: or ``rmed2``, ``rmed2fh``) run: ``(I, J, outcomes)``; a self-duel
    leaves ``W`` unchanged; ``f(K) = 0.3 K^1.01``, the paper's. ``events``, a dict, receives the counts of
    :data:`EVENTS` (RMED1) or :data:`RMED2_EVENTS` (but ``explore`` for RMED2FH, which has none).
    """
    A = X.shape[0]
    f_K = 0.3 * A**1.01
    events = {} if events is None else events
    keys = EVENTS if rule == "rmed1" else [k for k in RMED2_EVENTS if (rule, k) != ("rmed2fh", "explore")]
    events.update(dict.fromkeys(keys, 0))
    W = np.zeros((A, A))
    trace = Trace()

    def play(i, j):
        win = trace.duel(X, i, j, rng)
        if i != j:
            W[(i, j) if win else (j, i)] += 1
        else:
            events["self-duel"] += 1

    rounds = max(1, math.ceil(alpha * math.log(math.log(T)))) if rule == "rmed2fh" and T > math.e else 1
    for _ in range(rounds):
        for i in range(A):
            for j in range(i + 1, A):
                if len(trace) < T:
                    play(i, j)
    if rule == "rmed2fh":
        best = _argmin(divergences(W), rng, events)
        fixed = [partner(W, l, best, rng, events) for l in range(A)]
    L_C, L_R, L_N = list(range(A)), set(range(A)), set()
    while len(trace) < T:
        for l in L_C:
            if len(trace) == T:
                break
            if rule == "rmed1":
                m = challenger(W, l, rng, events)
            elif rule == "rmed2":
                m = rmed2_challenger(W, l, len(trace) + 1, alpha, rng, events)
            else:
                m = rmed2_challenger(W, l, len(trace) + 1, alpha, rng, events, fixed[l])
            play(l, m)
            t = len(trace)  # the 1-based step just played
            L_R.discard(l)
            div = divergences(W)
            J_t = {j for j in range(A) if div[j] - div.min() <= math.log(t) + f_K}
            L_N |= {j for j in J_t if j not in L_R}
        else:
            events["L_C shrank"] += len(L_N) < len(L_C)
            L_C, L_R, L_N = sorted(L_N), set(L_N), set()
    return trace.arrays()
