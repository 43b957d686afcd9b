"""DTS+ (Wu & Liu, NeurIPS 2016): Double Thompson Sampling with the ties of its first action broken to
reduce regret.

:mod:`.dts` but for one rule: of several candidates sharing the largest sampled Copeland score, the
first action is the one of least ``R[i] = sum_{j != i} r[i, j] / d(theta[i, j], 1/2)``, estimated
regret per unit of information. The rule and the choices the paper leaves open: docs/paper.md ("The
field's algorithms", DTS+).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ._sampling import duel, pick, plain_run, trace
from .dts import _all_thresholds, _candidates, observe, second_action, to_front
from .rmed1 import _kl_half


@nb.njit(cache=True)
def _draw(B, rng, theta, drawn, i, j):
    """Draw ``theta[lo, hi] ~ Beta(B[lo, hi] + 1, B[hi, lo] + 1)`` for ``{i, j}``, ``theta[hi, lo]`` its complement."""
    lo, hi = min(i, j), max(i, j)
    x = rng.beta(B[lo, hi] + 1.0, B[hi, lo] + 1.0)
    theta[lo, hi] = x
    theta[hi, lo] = 1.0 - x
    drawn[lo, hi] = drawn[hi, lo] = True


@nb.njit(cache=True)
def _first_action(B, cands, m, rng, theta, drawn, wins, tied):
    """DTS+'s first action among the ``m`` candidates: most sampled wins, ties by least ``R``.

    Each candidate's row is drawn lazily (the candidates in ``cands``'s order, the previous first action
    moved to the front) and abandoned once it cannot reach the best
    count so far (it can then be no maximiser); only for a tie are the other pairs drawn
    (lexicographic order), since ``R`` reads every action's sampled score. Pairs left undrawn are
    independent of the choice, so its law is that of the full sample."""
    A = B.shape[0]
    drawn[:] = False
    best = -1
    n = 0
    for c in range(m):
        i = cands[c]
        count = 0
        open_pairs = A - 1
        for j in range(A):
            if j != i and drawn[i, j]:
                open_pairs -= 1
                if theta[i, j] > 0.5:
                    count += 1
        for j in range(A):
            if count + open_pairs < best:
                break
            if j == i or drawn[i, j]:
                continue
            _draw(B, rng, theta, drawn, i, j)
            open_pairs -= 1
            if theta[i, j] > 0.5:
                count += 1
        if open_pairs == 0 and count >= best:
            if count > best:
                best = count
                n = 0
            tied[n] = i
            n += 1
    if n == 1:
        return tied[0]
    for i in range(A):
        wins[i] = 0
        for j in range(i + 1, A):
            if not drawn[i, j]:
                _draw(B, rng, theta, drawn, i, j)
    for i in range(A):
        for j in range(A):
            if j != i and theta[i, j] > 0.5:
                wins[i] += 1
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
    return pick(tied, k, rng)


@nb.njit(cache=True)
def _kernel(matrix, horizon, rng, alpha):
    A = matrix.shape[0]
    I, J, outcomes = trace(horizon)
    B = np.zeros((A, A))
    cU, cL = _all_thresholds(B, alpha)
    cands = np.empty(A, dtype=np.int64)
    tied = np.empty(A, dtype=np.int64)
    wins = np.zeros(A, dtype=np.int64)
    drawn = np.zeros((A, A), dtype=np.bool_)
    theta = np.empty((A, A))
    a1 = 0
    for t in range(horizon):
        log_t = np.log(t + 1.0)
        m = _candidates(cU, log_t, cands)
        if m == 1:
            a1 = cands[0]
        else:
            to_front(cands, m, a1)
            a1 = _first_action(B, cands, m, rng, theta, drawn, wins, tied)
        a2, _ = second_action(B, cL, log_t, a1, rng)
        o = duel(matrix, a1, a2, rng)
        I[t], J[t], outcomes[t] = a1, a2, o
        observe(B, alpha, cU, cL, a1, a2, o)
    return I, J, outcomes


def run(matrix, horizon, rng, record=None, *, alpha=0.51):
    """One DTS+ run; no mixed strategy, so ``strategies`` is empty."""
    return plain_run(_kernel, matrix, horizon, rng, float(alpha))
