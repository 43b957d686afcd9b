"""Beat the Mean, the online regret-minimising version (Yue & Joachims, ICML 2011, Algorithm 1), gamma = 1.

A working set shrinks by the action of least empirical win rate against its mean once the confidence
radius ``c(n*) = 3 sqrt(log(1/delta) / n*)``, ``delta = 1 / (2 T A)``, separates it. The rule and the
choices the paper leaves open: docs/paper.md ("The field's algorithms", Beat the Mean).
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np

from ._sampling import argmin_ties, duel, plain_run, trace


@nb.njit(cache=True)
def _kernel(matrix, horizon, rng, log_inv_delta):
    A = matrix.shape[0]
    I, J, outcomes = trace(horizon)
    pair_wins = np.zeros((A, A))
    pair_n = np.zeros((A, A))
    wins = np.zeros(A)
    n = np.zeros(A)
    rate = np.empty(A)
    member = np.ones(A, dtype=np.bool_)
    members = np.arange(A)
    size = A
    cands = np.empty(A, dtype=np.int64)
    for t in range(horizon):
        if size == 1:
            b = members[0]
            I[t], J[t], outcomes[t] = b, b, duel(matrix, b, b, rng)
            continue
        b = argmin_ties(n, member, rng, cands)
        other = members[rng.integers(0, size)]
        o = duel(matrix, b, other, rng)
        I[t], J[t], outcomes[t] = b, other, o
        pair_wins[b, other] += o
        pair_n[b, other] += 1.0
        wins[b] += o
        n[b] += 1.0
        fewest = np.inf
        for k in members[:size]:
            fewest = min(fewest, n[k])
        if fewest == 0.0:  # c(0) is infinite: no decision
            continue
        top = -np.inf
        low = np.inf
        for k in members[:size]:
            rate[k] = wins[k] / n[k]
            top = max(top, rate[k])
            low = min(low, rate[k])
        radius = 3.0 * math.sqrt(log_inv_delta / fewest)
        if low + radius <= top - radius:
            worst = argmin_ties(rate, member, rng, cands)
            member[worst] = False
            size = 0
            for k in range(A):
                if member[k]:
                    wins[k] -= pair_wins[k, worst]
                    n[k] -= pair_n[k, worst]
                    members[size] = k
                    size += 1
    return I, J, outcomes


def run(matrix, horizon, rng, record=None):
    """One Beat-the-Mean run (tuned to the horizon through delta); no mixed strategy."""
    return plain_run(_kernel, matrix, horizon, rng, math.log(2.0 * int(horizon) * len(matrix)))
