"""RUCB: Relative Upper Confidence Bound (Zoghi, Whiteson, Munos & de Rijke, ICML 2014, Algorithm 1).

The rule and the choices the paper leaves open: docs/paper.md ("The field's algorithms", RUCB).
``W[i, j]`` counts the wins of ``i`` over ``j``, ``N = W + W^T``, ``t`` the 1-based step and
``U = W/N + sqrt(alpha ln t / N)`` (``x/0 := 1``, ``U[i, i] = 1/2``).

Speed. With ``e = W[i, j] - N/2`` (exact)::

    U[i, j] >= 1/2   <=>   N = 0  or  e >= 0  or  ln t >= e^2 / (alpha N)

so each ordered pair carries a threshold ``thr[i, j]`` that changes only for the dueled pair. ``C``
is ``{i : ln t >= rowmax[i]}`` and "every ``U[j, c] < 1/2``" is ``ln t < colmin[c]``, the row maxima
and column minima of ``thr`` repaired in O(A) per duel; square roots only for the challenger's argmax.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ._sampling import argmax_step, duel, pick, plain_run, tally, trace

_INF = np.inf
NO_ARM = -1
"""The empty hypothesis ``B = ∅``."""


@nb.njit(cache=True)
def _pair_thresholds(W, alpha, i, j, thr):
    """``thr[i, j]`` and ``thr[j, i]`` (``i != j``): ``U[i, j] >= 1/2`` iff ``ln t >= thr[i, j]``."""
    n = W[i, j] + W[j, i]
    if n == 0.0:
        thr[i, j] = thr[j, i] = -_INF  # U = 2
        return
    e = W[i, j] - 0.5 * n  # e[j, i] = -e
    c = e * e / (alpha * n)
    if e >= 0.0:
        thr[i, j], thr[j, i] = -_INF, c  # c = 0 when e = 0: U[j, i] = 1/2 + radius >= 1/2
    else:
        thr[i, j], thr[j, i] = c, -_INF


@nb.njit(cache=True)
def _refresh(thr, k, rowmax, colmin):
    """Row maximum and column minimum of ``thr`` for arm ``k``, both over ``j != k``."""
    A = thr.shape[0]
    hi, lo = -_INF, _INF
    for j in range(A):
        if j != k:
            hi = max(hi, thr[k, j])
            lo = min(lo, thr[j, k])
    rowmax[k] = hi
    colmin[k] = lo


@nb.njit(cache=True)
def new_state(W, alpha):
    """``(thr, rowmax, colmin)`` of the counts ``W`` from scratch."""
    A = W.shape[0]
    thr = np.full((A, A), -_INF)
    for i in range(A):
        for j in range(i + 1, A):
            _pair_thresholds(W, alpha, i, j, thr)
    rowmax = np.empty(A)
    colmin = np.empty(A)
    for k in range(A):
        _refresh(thr, k, rowmax, colmin)
    return thr, rowmax, colmin


@nb.njit(cache=True)
def observe(W, alpha, thr, rowmax, colmin, c, d, o):
    """Line 14: ``W[c, d] += 1`` if ``c`` won (``o = 1``), else ``W[d, c] += 1``; a self-duel changes nothing."""
    if c == d:
        return
    tally(W, c, d, o)
    _pair_thresholds(W, alpha, c, d, thr)
    _refresh(thr, c, rowmax, colmin)
    _refresh(thr, d, rowmax, colmin)


@nb.njit(cache=True)
def _hypothesis(rowmax, log_t, best, cands):
    """Lines 6, 8, 9: fill ``cands`` with ``C``; return ``(|C|, B)``, ``B`` an arm or ``NO_ARM``."""
    m = 0
    in_c = False
    for i in range(rowmax.shape[0]):
        if log_t >= rowmax[i]:  # U[i, j] >= 1/2 for every j
            cands[m] = i
            m += 1
            in_c = in_c or i == best
    if m == 1:
        return m, cands[0]  # line 9
    return m, best if in_c else NO_ARM  # line 8 (C empty: B = ∅)


@nb.njit(cache=True)
def _sample_champion(cands, m, best, A, rng):
    """Lines 7, 9, 11: the champion ``c`` given ``C = cands[:m]`` and the hypothesis ``best``."""
    if m == 0:
        return rng.integers(0, A)  # line 7
    if m == 1 or best == NO_ARM:
        return pick(cands, m, rng)  # 1/(2^0 |C|)
    if rng.random() < 0.5:
        return best
    k = rng.integers(0, m - 1)  # uniform over C \ B: 1/(2 |C \ B|) each
    for q in range(m):
        if cands[q] != best:
            if k == 0:
                return cands[q]
            k -= 1
    return best  # unreachable


@nb.njit(cache=True)
def challenger(W, colmin, c, log_t, alpha, rng):
    """Line 13: ``d = argmax_j U[j, c]`` (``U[c, c] = 1/2``), ties uniform, ``d != c`` on a tie.

    ``d = c`` iff every ``U[j, c] < 1/2`` (``ln t < colmin[c]``, no square root);
    otherwise the maximum is ``>= 1/2`` and is taken over ``j != c``.
    """
    if log_t < colmin[c]:
        return c
    best, count, d = -_INF, 0, c
    for j in range(W.shape[0]):
        if j == c:
            continue
        n = W[j, c] + W[c, j]
        u = 2.0 if n == 0.0 else W[j, c] / n + np.sqrt(alpha * log_t / n)
        best, count, d = argmax_step(u, best, count, d, j, rng)
    return d


@nb.njit(cache=True)
def _kernel(matrix, horizon, rng, alpha):
    A = matrix.shape[0]
    I, J, outcomes = trace(horizon)
    W = np.zeros((A, A))
    thr, rowmax, colmin = new_state(W, alpha)
    cands = np.empty(A, dtype=np.int64)
    best = NO_ARM
    for t in range(horizon):
        log_t = np.log(t + 1.0)
        m, best = _hypothesis(rowmax, log_t, best, cands)
        c = _sample_champion(cands, m, best, A, rng)
        d = challenger(W, colmin, c, log_t, alpha, rng)
        o = duel(matrix, c, d, rng)
        I[t], J[t], outcomes[t] = c, d, o
        observe(W, alpha, thr, rowmax, colmin, c, d, o)
    return I, J, outcomes


def run(matrix, horizon, rng, record=None, *, alpha=0.51):
    """One RUCB run; RUCB has no mixed strategy, so ``strategies`` is empty."""
    return plain_run(_kernel, matrix, horizon, rng, float(alpha))
