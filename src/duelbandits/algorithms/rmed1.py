"""RMED1, Relative Minimum Empirical Divergence (Komiyama, Honda, Kashima & Nakagawa, COLT 2015).

Algorithm 1 with RMED1's comparison arm (Algorithm 2); RMED2 and RMED2FH are rule switches of the same
kernel. The rules and the choices the paper leaves open: docs/paper.md ("The field's algorithms",
RMED1, RMED2). ``W[i, j]`` counts wins of ``i`` over ``j``, ``N = W + W^T``, ``mu = W / N`` (1/2 where
``N = 0``) and the empirical divergence is ``I_i = sum_{j != i, mu[i, j] < 1/2} N[i, j] d(mu[i, j], 1/2)``
(``d`` the Bernoulli KL divergence); the candidates are ``J_t = {i : I_i - min_j I_j <= log t + f(K)}``.
Ties are :func:`._sampling.pick` over the tied arms in increasing order (``tests/test_rmed1.py``).

Speed: a duel changes one pair, so only its two arms' divergences are recomputed (O(A), exact row
sums); no work is O(A^2) per step.
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np

from ._sampling import argmin_ties, duel, pick, plain_run, tally, trace

_LOG2 = math.log(2.0)


@nb.njit(cache=True)
def _kl_half(p):
    """``d(p, 1/2)``, the Bernoulli KL divergence (``0 log 0 = 0``)."""
    if p == 0.0:
        return _LOG2
    return p * np.log(2.0 * p) + (1.0 - p) * np.log(2.0 * (1.0 - p))


@nb.njit(cache=True)
def _term(w, n):
    """``n d(w / n, 1/2)`` when ``w / n < 1/2``, else 0 (also for ``n = 0``)."""
    if n == 0.0 or 2.0 * w >= n:
        return 0.0
    return n * _kl_half(w / n)


@nb.njit(cache=True)
def _row_divergence(D, i):
    total = 0.0
    for j in range(D.shape[0]):
        total += D[i, j]
    return total


@nb.njit(cache=True)
def _refresh_pair(W, D, I_div, i, j):
    """Recompute the two divergence terms of the pair ``(i, j)`` and the divergences of ``i`` and ``j``."""
    n = W[i, j] + W[j, i]
    D[i, j] = _term(W[i, j], n)
    D[j, i] = _term(W[j, i], n)
    I_div[i] = _row_divergence(D, i)
    I_div[j] = _row_divergence(D, j)


@nb.njit(cache=True)
def _challenger(W, l, best, rng, mu, cands, everyone):
    """RMED1's ``m`` for the arm ``l`` given ``i* = best`` (Algorithm 2)."""
    A = W.shape[0]
    empty = True
    best_in = False
    for j in range(A):
        if j == l:
            mu[j] = np.inf  # never the least: m is another arm
            continue
        n = W[l, j] + W[j, l]
        mu[j] = 0.5 if n == 0.0 else W[l, j] / n
        if W[l, j] <= W[j, l]:  # mu[l, j] <= 1/2, exact
            empty = False
            if j == best:
                best_in = True
    if empty or best_in:
        return best
    return argmin_ties(mu, everyone, rng, cands)


@nb.njit(cache=True)
def _partner(W, l, best, rng, score, cands):
    """RMED2's estimated best partner of ``l``: ``argmin_{j in O_l} (Delta_l + Delta_j) / d(mu[l, j], 1/2)``,
    ``Delta_j = max(mu[best, j] - 1/2, 0)``, a ratio with ``d = 0`` infinite; -1 when ``O_l`` is empty."""
    A = W.shape[0]
    m = 0
    low = 0.0
    for j in range(A):
        if j == l or W[l, j] > W[j, l]:
            continue
        score[j] = np.inf
        if W[l, j] < W[j, l]:  # mu[l, j] < 1/2: d > 0
            gaps = 0.0
            for k in (l, j):
                n = W[best, k] + W[k, best]
                if k != best and n > 0.0:
                    gaps += max(W[best, k] / n - 0.5, 0.0)
            score[j] = gaps / _kl_half(W[l, j] / (W[l, j] + W[j, l]))
        if m == 0 or score[j] < low:
            low = score[j]
            m = 0
        if score[j] == low:
            cands[m] = j
            m += 1
    if m == 0:
        return -1
    return pick(cands, m, rng)


@nb.njit(cache=True)
def _rmed2_challenger(W, l, best, b, t, alpha, rng, score, cands):
    """RMED2's ``m`` for ``l`` at step ``t`` (``b`` >= -1: RMED2FH's partner fixed after its initial
    phase; -2: RMED2's, estimated now). First a pair ``(l, j)`` played fewer than ``alpha log log t``
    times (RMED2 only; the fewest, then the least index); then ``i*`` if ``O_l`` is empty, or if ``i*``
    is in ``O_l`` and ``N[l, i*] < N[l, b] / log log t``; else ``b``."""
    A = W.shape[0]
    log_log = np.log(np.log(t))
    if b == -2:
        pick = -1
        for j in range(A):
            n = W[l, j] + W[j, l]
            if j != l and n < alpha * log_log and (pick < 0 or n < W[l, pick] + W[pick, l]):
                pick = j
        if pick >= 0:
            return pick
        b = _partner(W, l, best, rng, score, cands)
    if b < 0:
        return best
    if best != l and W[l, best] <= W[best, l] and W[l, best] + W[best, l] < (W[l, b] + W[b, l]) / log_log:
        return best
    return b


@nb.njit(cache=True)
def _kernel(matrix, horizon, rng, f_K, rule, alpha, rounds):
    """``rule`` 0 RMED1, 1 RMED2, 2 RMED2FH; ``rounds`` passes over the pairs in the initial phase."""
    A = matrix.shape[0]
    I, J, outcomes = trace(horizon)
    W = np.zeros((A, A))
    D = np.zeros((A, A))
    I_div = np.zeros(A)
    mu = np.empty(A)
    cands = np.empty(A, dtype=np.int64)
    everyone = np.ones(A, dtype=np.bool_)
    t = 0
    # initial phase: each pair ``rounds`` times, the pairs in lexicographic order each round
    for _ in range(rounds):
        for i in range(A):
            for j in range(i + 1, A):
                if t == horizon:
                    return I, J, outcomes
                o = duel(matrix, i, j, rng)
                I[t], J[t], outcomes[t] = i, j, o
                tally(W, i, j, o)
                _refresh_pair(W, D, I_div, i, j)
                t += 1
    partner = np.full(A, -2, dtype=np.int64)  # RMED2: estimated each step
    if rule == 2:  # RMED2FH: fixed now, with the i* of the end of the initial phase
        best = argmin_ties(I_div, everyone, rng, cands)
        for l in range(A):
            partner[l] = _partner(W, l, best, rng, mu, cands)
    L_C = np.arange(A)
    n_C = A
    pos = 0
    in_R = np.ones(A, dtype=np.bool_)
    in_N = np.zeros(A, dtype=np.bool_)
    while t < horizon:
        l = L_C[pos]
        best = argmin_ties(I_div, everyone, rng, cands)
        if rule == 0:
            m = _challenger(W, l, best, rng, mu, cands, everyone)
        else:
            m = _rmed2_challenger(W, l, best, partner[l], float(t + 1), alpha, rng, mu, cands)
        o = duel(matrix, l, m, rng)
        I[t], J[t], outcomes[t] = l, m, o
        if l != m:
            tally(W, l, m, o)
            _refresh_pair(W, D, I_div, l, m)
        t += 1  # the 1-based index of the step just played
        in_R[l] = False
        threshold = np.log(float(t)) + f_K
        low = I_div.min()
        for j in range(A):
            if not in_R[j] and not in_N[j] and I_div[j] - low <= threshold:
                in_N[j] = True
        pos += 1
        if pos == n_C:
            n_C = 0
            for j in range(A):
                if in_N[j]:
                    L_C[n_C] = j
                    n_C += 1
                in_R[j] = in_N[j]
                in_N[j] = False
            pos = 0
    return I, J, outcomes


def f_of_K(actions, f_coefficient=0.3, f_exponent=1.01) -> float:
    """``f(K) = f_coefficient * K ** f_exponent`` (the paper's experiments: 0.3 K^1.01)."""
    return float(f_coefficient) * float(actions) ** float(f_exponent)


def run(matrix, horizon, rng, record=None, *, f_coefficient=0.3, f_exponent=1.01):
    """One RMED1 run; RMED1 has no mixed strategy, so ``strategies`` is empty."""
    return plain_run(_kernel, matrix, horizon, rng, f_of_K(len(matrix), f_coefficient, f_exponent), 0, 0.0, 1)


def initial_rounds(horizon, alpha) -> int:
    """RMED2FH's passes over the pairs in its initial phase: ``max(1, ceil(alpha log log T))``, at most
    ``T`` (the horizon stops the phase before that)."""
    return max(1, math.ceil(min(alpha * math.log(math.log(horizon)), horizon))) if horizon > math.e else 1


def run_rmed2(matrix, horizon, rng, f_coefficient, f_exponent, alpha, fixed_horizon):
    """One RMED2 run, or RMED2FH's with ``fixed_horizon`` (the kernels of rmed2.py and rmed2fh.py)."""
    f_K = f_of_K(len(matrix), f_coefficient, f_exponent)
    rounds = initial_rounds(int(horizon), float(alpha)) if fixed_horizon else 1
    return plain_run(_kernel, matrix, horizon, rng, f_K, 2 if fixed_horizon else 1, float(alpha), rounds)
