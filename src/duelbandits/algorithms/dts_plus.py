"""DTS+ (Wu & Liu, NeurIPS 2016): Double Thompson Sampling with the ties of its first action broken to
reduce regret.

DTS (:mod:`.dts`: the candidates of largest upper Copeland score, ``theta`` from the Beta
posteriors, the second action from fresh samples against the first) except for one rule: when several
candidates share the largest sampled Copeland score, the first action is the one of least estimated
regret per unit of information, ``R[i] = sum_{j != i} r[i, j] / d(theta[i, j], 1/2)`` with
``r[i, j] = z* - (z[i] + z[j]) / 2`` the Copeland regret of the duel ``(i, j)`` under the sample
(``z`` the sampled normalised Copeland scores, ``z*`` their largest) and ``d`` the Bernoulli KL
divergence. The choices the paper leaves open: docs/paper.md ("The field's algorithms", DTS+).

With several candidates the whole ``theta`` is drawn (pairs ``i < j`` in lexicographic order), since
the tie-break reads every action's sampled score; with one, nothing (as DTS).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ._sampling import duel
from .dts import _all_thresholds, _candidates, _pair_thresholds, _pick
from .rmed1 import _kl_half


@nb.njit(cache=True)
def _first_action(B, cands, m, rng, theta, wins, tied):
    """DTS+'s first action among the ``m`` candidates: most sampled wins, ties by least ``R``."""
    A = B.shape[0]
    wins[:] = 0
    for i in range(A):
        for j in range(i + 1, A):
            x = rng.beta(B[i, j] + 1.0, B[j, i] + 1.0)
            theta[i, j] = x
            theta[j, i] = 1.0 - x
            if x > 0.5:
                wins[i] += 1
            elif 1.0 - x > 0.5:
                wins[j] += 1
    best = -1
    n = 0
    for c in range(m):
        i = cands[c]
        if wins[i] > best:
            best = wins[i]
            n = 0
        if wins[i] == best:
            tied[n] = i
            n += 1
    if n == 1:
        return tied[0]
    top = wins.max()
    low = np.inf
    k = 0
    for c in range(n):
        i = tied[c]
        total = 0.0
        for j in range(A):
            if j != i and theta[i, j] != 0.5:  # d = 0 at 1/2 (probability 0): left out
                total += (top - 0.5 * (wins[i] + wins[j])) / (A - 1) / _kl_half(min(theta[i, j], theta[j, i]))
        if total < low:
            low = total
            k = 0
        if total == low:
            tied[k] = i
            k += 1
    if k == 1:
        return tied[0]
    return tied[rng.integers(0, k)]


@nb.njit(cache=True)
def _kernel(matrix, horizon, rng, alpha):
    A = matrix.shape[0]
    I = np.empty(horizon, dtype=np.int64)
    J = np.empty(horizon, dtype=np.int64)
    outcomes = np.empty(horizon, dtype=np.int8)
    B = np.zeros((A, A))
    cU = np.empty((A, A))
    cL = np.empty((A, A))
    _all_thresholds(B, alpha, cU, cL)
    cands = np.empty(A, dtype=np.int64)
    tied = np.empty(A, dtype=np.int64)
    wins = np.zeros(A, dtype=np.int64)
    theta = np.empty((A, A))
    for t in range(horizon):
        log_t = np.log(t + 1.0)
        m = _candidates(cU, log_t, cands)
        a1 = cands[0] if m == 1 else _first_action(B, cands, m, rng, theta, wins, tied)
        best2, count2, a2 = 0.5, 1, a1  # DTS's second action
        for i in range(A):
            if i != a1 and log_t >= cL[i, a1]:
                best2, count2, a2 = _pick(rng.beta(B[i, a1] + 1.0, B[a1, i] + 1.0), best2, count2, a2, i, rng)
        o = duel(matrix, a1, a2, rng)
        I[t], J[t], outcomes[t] = a1, a2, o
        if a1 != a2:  # a self-duel leaves B unchanged, as in DTS
            if o == 1:
                B[a1, a2] += 1.0
            else:
                B[a2, a1] += 1.0
            _pair_thresholds(B, alpha, a1, a2, cU, cL)
    return I, J, outcomes


def run(matrix, horizon, rng, record=None, *, alpha=0.51):
    """One DTS+ run; no mixed strategy, so ``strategies`` is empty."""
    I, J, outcomes = _kernel(np.ascontiguousarray(matrix, dtype=np.float64), int(horizon), rng, float(alpha))
    return I, J, outcomes, {}
