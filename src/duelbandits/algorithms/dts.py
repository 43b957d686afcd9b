"""Double Thompson Sampling (Wu & Liu 2016), as docs/paper.md ("The algorithms", DTS) fixes it.

``B[i, j]`` counts wins of ``i`` over ``j``, ``N = B + B^T``, ``t`` is the 1-based step and ``U``,
``L`` the bounds docs/paper.md gives.

Speed. Only ``U > 1/2`` and ``L <= 1/2`` are used; with ``d = B[i, j] - N/2`` (exact) they compare
``log t`` with a per-pair threshold ``c = d^2 / (alpha N)``::

    U[i, j] > 1/2   <=>  d > 0   or  log t >  c
    L[i, j] <= 1/2  <=>  d <= 0  or  log t >= c

(the two forms can disagree only by rounding within an ulp of ``c``, never for ``d = 0``). The
thresholds change only for the dueled pair: O(1) per step, no square root. Beta samples are drawn
only where they can change the choice (``theta`` lazily for candidate rows, :func:`_first_action`;
``theta2`` for eligible actions), which keeps the law of ``(a1, a2)`` that of the full rule
(``tests/dts_reference.py``), though not its random stream.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ._sampling import argmax_step, duel, plain_run, tally, trace

_INF = np.inf


@nb.njit(cache=True)
def _pair_thresholds(B, alpha, i, j, cU, cL):
    """Refresh the log-t thresholds of the ordered pairs ``(i, j)`` and ``(j, i)`` (``i != j``)."""
    n = B[i, j] + B[j, i]
    if n == 0.0:
        # U = 1 > 1/2 and L = 0 <= 1/2 for every t
        cU[i, j] = cU[j, i] = -_INF
        cL[i, j] = cL[j, i] = -_INF
        return
    d = B[i, j] - 0.5 * n  # d[j, i] = -d
    c = d * d / (alpha * n)
    if d > 0.0:
        cU[i, j], cL[i, j] = -_INF, c
        cU[j, i], cL[j, i] = c, -_INF
    elif d < 0.0:
        cU[i, j], cL[i, j] = c, -_INF
        cU[j, i], cL[j, i] = -_INF, c
    else:
        # B/N = 1/2: U > 1/2 iff log t > 0 (c = 0), L <= 1/2 always
        cU[i, j] = cU[j, i] = 0.0
        cL[i, j] = cL[j, i] = -_INF


@nb.njit(cache=True)
def _all_thresholds(B, alpha):
    """The thresholds ``(cU, cL)`` of every pair from scratch; the diagonal makes ``U[i, i] = L[i, i] = 1/2``."""
    A = B.shape[0]
    cU = np.empty((A, A))
    cL = np.empty((A, A))
    for i in range(A):
        cU[i, i] = _INF  # U[i, i] = 1/2 is never > 1/2
        cL[i, i] = -_INF  # L[i, i] = 1/2 <= 1/2: a1 is always eligible
        for j in range(i + 1, A):
            _pair_thresholds(B, alpha, i, j, cU, cL)
    return cU, cL


@nb.njit(cache=True)
def _candidates(cU, log_t, cands):
    """Fill ``cands`` with the actions of largest upper Copeland score; return how many."""
    A = cU.shape[0]
    best = -1
    m = 0
    for i in range(A):
        score = 0
        for j in range(A):
            if log_t > cU[i, j]:  # U[i, j] > 1/2
                score += 1
        if score > best:
            best = score
            m = 0
        if score == best:
            cands[m] = i
            m += 1
    return m


@nb.njit(cache=True)
def _first_action(B, cands, m, rng, theta, drawn, stamp):
    """The candidate winning most of ``theta``, drawing as few entries as possible.

    ``theta[lo, hi] ~ Beta(B[lo, hi] + 1, B[hi, lo] + 1)`` for ``lo < hi`` and
    ``theta[hi, lo] = 1 - theta[lo, hi]``, drawn only when first needed
    (``drawn[.] == stamp`` marks this step's draws). A candidate is abandoned as
    soon as it can no longer reach the best count so far: it cannot be the
    argmax, and the pairs it leaves undrawn are independent of everything
    else, so drawing them later (or never) leaves the choice's distribution
    unchanged. Returns ``(a1, draws)``; ties go uniformly at random.
    """
    A = B.shape[0]
    draws = 0
    best, count, a1 = -1, 0, cands[0]
    for c in range(m):
        i = cands[c]
        wins = 0
        open_pairs = A - 1  # pairs of row i whose theta is not yet looked at
        for j in range(A):  # first the entries already drawn this step: free
            if j != i and drawn[i, j] == stamp:
                open_pairs -= 1
                if theta[i, j] > 0.5:
                    wins += 1
        for j in range(A):
            if wins + open_pairs < best:
                break  # i cannot reach the best count
            if j == i or drawn[i, j] == stamp:
                continue
            lo, hi = min(i, j), max(i, j)
            x = rng.beta(B[lo, hi] + 1.0, B[hi, lo] + 1.0)
            draws += 1
            theta[lo, hi] = x
            theta[hi, lo] = 1.0 - x
            drawn[lo, hi] = drawn[hi, lo] = stamp
            open_pairs -= 1
            if theta[i, j] > 0.5:
                wins += 1
        if wins + open_pairs >= best:  # fully evaluated (open_pairs == 0)
            best, count, a1 = argmax_step(wins, best, count, a1, i, rng)
    return a1, draws


@nb.njit(cache=True)
def to_front(cands, m, first):
    """Move ``first`` to the front of ``cands[:m]`` if it is there: evaluated first, it lets the others be
    abandoned sooner; the order never changes which action is chosen."""
    for c in range(1, m):
        if cands[c] == first:
            cands[c], cands[0] = cands[0], cands[c]
            break


@nb.njit(cache=True)
def second_action(B, cL, log_t, a1, rng):
    """``a2 = argmax theta2[., a1]`` over the eligible ``i`` (``L[i, a1] <= 1/2``), ``theta2[a1, a1] = 1/2``, fresh
    samples for the others, ties uniformly; ``(a2, draws)``."""
    draws = 0
    best2, count2, a2 = 0.5, 1, a1
    for i in range(B.shape[0]):
        if i != a1 and log_t >= cL[i, a1]:  # L[i, a1] <= 1/2
            x = rng.beta(B[i, a1] + 1.0, B[a1, i] + 1.0)
            draws += 1
            best2, count2, a2 = argmax_step(x, best2, count2, a2, i, rng)
    return a2, draws


@nb.njit(cache=True)
def observe(B, alpha, cU, cL, a1, a2, o):
    """Count the duel and refresh its pair's thresholds. A self-duel is a fair coin between identical actions:
    it says nothing about X, and B[i, i] is never read (U[i, i] = L[i, i] = 1/2), so it leaves B unchanged
    (docs/paper.md leaves it open; Wu & Liu's B[i, i] is unused too)."""
    if a1 != a2:
        tally(B, a1, a2, o)
        _pair_thresholds(B, alpha, a1, a2, cU, cL)


@nb.njit(cache=True)
def _select(B, cU, cL, log_t, rng, first, cands, theta, drawn, stamp):
    """The pair ``(a1, a2)`` of one DTS step and the number of Beta draws it took; ``first`` (the previous
    ``a1``) is evaluated first (:func:`to_front`)."""
    draws = 0
    m = _candidates(cU, log_t, cands)
    if m == 1:
        a1 = cands[0]  # theta cannot change the choice: draw nothing
    else:
        to_front(cands, m, first)
        a1, draws = _first_action(B, cands, m, rng, theta, drawn, stamp)
    a2, more = second_action(B, cL, log_t, a1, rng)
    return a1, a2, draws + more


@nb.njit(cache=True)
def _kernel(matrix, horizon, rng, alpha):
    A = matrix.shape[0]
    I, J, outcomes = trace(horizon)
    B = np.zeros((A, A))
    cU, cL = _all_thresholds(B, alpha)
    cands = np.empty(A, dtype=np.int64)
    theta = np.empty((A, A))
    drawn = np.zeros((A, A), dtype=np.int64)  # step stamp of each theta entry
    draws = 0
    a1 = 0
    for t in range(horizon):
        a1, a2, n = _select(B, cU, cL, np.log(t + 1.0), rng, a1, cands, theta, drawn, t + 1)
        draws += n
        o = duel(matrix, a1, a2, rng)
        I[t], J[t], outcomes[t] = a1, a2, o
        observe(B, alpha, cU, cL, a1, a2, o)
    return I, J, outcomes, draws


def run(matrix, horizon, rng, record=None, *, alpha=0.51):
    """One DTS run; DTS has no mixed strategy, so ``strategies`` is empty."""
    return plain_run(_kernel, matrix, horizon, rng, float(alpha))


def beta_draws(matrix, horizon, rng, alpha=0.51) -> int:
    """Number of Beta variates one run draws (the run :func:`run` makes with ``rng``), for benchmarks."""
    return int(_kernel(np.ascontiguousarray(matrix, dtype=np.float64), int(horizon), rng, float(alpha))[3])
