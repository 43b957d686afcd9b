"""CCB, Copeland Confidence Bound (Zoghi, Karnin, Whiteson & de Rijke, NeurIPS 2015, Algorithm 1).

``W[i, j]`` counts wins of ``i`` over ``j``, ``N = W + W^T``, ``t`` the 1-based step and
``u, l = W/N +- sqrt(alpha log t / N)`` (``u = l = 1/2`` on the diagonal, line 6); the hypotheses
``B_t``, ``B^i`` and ``L_C`` are updated by the paper's line 9 (A: reset, B: removals, C: additions,
in that order), then lines 10-14 choose the pair. The choices the paper leaves open: docs/paper.md
("The field's algorithms", CCB), each pinned by ``tests/test_ccb.py``; a uniform choice is
:func:`._sampling.pick` (pairs row-major), a coin ``rng.random() < p``, drawn only when it can change
the choice. Kept literally though it never binds: B's test ``|B^i| != L_C + 1``.

Speed. Every comparison of a bound with 1/2 is one of ``log t`` with the per-pair threshold
``c = d^2 / (alpha N)``, ``d = W[i, j] - N/2`` (exact), as in :mod:`.dts`: for ``N > 0``::

    l[i, j] >  1/2  <=>  d > 0  and log t <  c      ("gt")
    l[i, j] >= 1/2  <=>  d >= 0 and log t <= c      ("ge")
    u[i, j] >= 1/2  <=>  not l[j, i] > 1/2          (u[i, j] = 1 - l[j, i])

``gt`` and ``ge`` change only for the dueled pair or when ``log t`` passes the smallest threshold of
a true flag. The scores, ``C_t``, the update A-C and the lists of lines 10-11 are recomputed only when
a flag has changed or the last update changed the hypotheses: an update that changed nothing, with
unchanged flags, changes nothing again and draws nothing, so the run is that of the literal rule
(``tests/ccb_reference.py``, compared array for array).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ._sampling import duel, largest, pick, plain_run, tally, trace

_INF = np.inf
UNPLAYED_U = 2.0
"""``u`` of an unplayed pair under ``x/0 := 1``: ``1 + sqrt(1)``."""


@nb.njit(cache=True)
def _pair_flags(W, alpha, log_t, i, j, gt, ge):
    """Set ``gt``, ``ge`` of ``(i, j)`` and ``(j, i)`` at ``log_t``; return (changed, next threshold)."""
    n = W[i, j] + W[j, i]
    g_ij, g_ji, e_ij, e_ji = False, False, False, False
    event = _INF
    if n > 0.0:
        d = W[i, j] - 0.5 * n
        c = d * d / (alpha * n)
        if d > 0.0:
            g_ij = log_t < c
            e_ij = log_t <= c
        elif d < 0.0:
            g_ji = log_t < c
            e_ji = log_t <= c
        else:  # W/N = 1/2, c = 0: l = 1/2 - radius >= 1/2 only at t = 1
            e_ij = e_ji = log_t <= 0.0
        if log_t <= c:
            event = c  # a still-true flag turns false once log t passes c
    changed = g_ij != gt[i, j] or g_ji != gt[j, i] or e_ij != ge[i, j] or e_ji != ge[j, i]
    gt[i, j], gt[j, i], ge[i, j], ge[j, i] = g_ij, g_ji, e_ij, e_ji
    return changed, event


@nb.njit(cache=True)
def _all_flags(W, alpha, log_t, gt, ge):
    """All flags at ``log_t``; return (changed, smallest threshold still ahead)."""
    A = W.shape[0]
    changed = False
    nxt = _INF
    for i in range(A):
        for j in range(i + 1, A):
            ch, ev = _pair_flags(W, alpha, log_t, i, j, gt, ge)
            changed = changed or ch
            nxt = min(nxt, ev)
    return changed, nxt


@nb.njit(cache=True)
def _scores(gt, ge, cup, clo):
    """``Cpld(i) = #{k != i : not l[k, i] > 1/2}`` and ``Cpld_(i) = #{k != i : l[i, k] >= 1/2}``."""
    A = gt.shape[0]
    for i in range(A):
        up = 0
        lo = 0
        for k in range(A):
            if k != i:
                if not gt[k, i]:
                    up += 1
                if ge[i, k]:
                    lo += 1
        cup[i] = up
        clo[i] = lo


@nb.njit(cache=True)
def _reset(inB, Bset, Bsize, LC):
    A = inB.shape[0]
    for i in range(A):
        inB[i] = True
        Bsize[i] = 0
        for j in range(A):
            Bset[i, j] = False
    LC[0] = A


@nb.njit(cache=True)
def _update(gt, cup, clo, inB, Bset, Bsize, LC, rng, buf):
    """Line 9, steps A-C, in place; returns whether ``B_t``, a ``B^i`` or ``L_C`` changed."""
    A = gt.shape[0]
    old_inB = inB.copy()
    old_Bset = Bset.copy()
    old_LC = LC[0]
    maxU = largest(cup)
    maxL = largest(clo)
    # A. reset disproven hypotheses: some j in B^i with l[i, j] > 1/2
    disproven = False
    for i in range(A):
        if Bsize[i] > 0:
            for j in range(A):
                if Bset[i, j] and gt[i, j]:
                    disproven = True
    if disproven:
        _reset(inB, Bset, Bsize, LC)
    # B. remove non-Copeland winners
    left = False
    for i in range(A):
        if inB[i]:
            if cup[i] < maxL:
                inB[i] = False
                if Bsize[i] != LC[0] + 1:
                    size = 0
                    for k in range(A):
                        Bset[i, k] = gt[k, i]  # u[i, k] < 1/2  <=>  l[k, i] > 1/2
                        if gt[k, i]:
                            size += 1
                    Bsize[i] = size
            else:
                left = True
    if not left:
        _reset(inB, Bset, Bsize, LC)
    # C. add Copeland winners (arms of C_t whose score is known)
    for i in range(A):
        if cup[i] == maxU and cup[i] == clo[i]:
            inB[i] = True
            for k in range(A):
                Bset[i, k] = False
            Bsize[i] = 0
            LC[0] = A - 1 - cup[i]
            keep = LC[0] + 1
            for j in range(A):
                if j == i or Bsize[j] == keep:
                    continue
                if Bsize[j] < keep:
                    for k in range(A):
                        Bset[j, k] = False
                    Bsize[j] = 0
                else:
                    s = 0
                    for k in range(A):
                        if Bset[j, k]:
                            buf[s] = k
                            s += 1
                    for k in range(keep):  # partial Fisher-Yates: the first `keep` are a uniform subset
                        r = k + rng.integers(0, s - k)
                        buf[k], buf[r] = buf[r], buf[k]
                    for k in range(A):
                        Bset[j, k] = False
                    for k in range(keep):
                        Bset[j, buf[k]] = True
                    Bsize[j] = keep
    if LC[0] != old_LC:
        return True
    for i in range(A):
        if inB[i] != old_inB[i]:
            return True
        for j in range(A):
            if Bset[i, j] != old_Bset[i, j]:
                return True
    return False


@nb.njit(cache=True)
def _lists(gt, cup, inB, Bset, C, BC, pairs):
    """``C_t``, ``B_t ∩ C_t`` and line 10's pairs ``i * A + j``; returns their sizes."""
    A = gt.shape[0]
    maxU = largest(cup)
    nC = 0
    nBC = 0
    for i in range(A):
        if cup[i] == maxU:
            C[nC] = i
            nC += 1
            if inB[i]:
                BC[nBC] = i
                nBC += 1
    nP = 0
    for i in range(A):
        for j in range(A):
            if Bset[i, j] and not gt[i, j] and not gt[j, i]:  # l[i, j] <= 1/2 <= u[i, j]
                pairs[nP] = i * A + j
                nP += 1
    return nC, nBC, nP


@nb.njit(cache=True)
def _challenger(W, gt, Bset, c, restricted, alpha, log_t, rng, ties):
    """Line 13: argmax of ``u[j, c]`` over the eligible ``j`` (``-1`` if none), ``c`` only if unique."""
    A = W.shape[0]
    best = -_INF
    m = 0
    for j in range(A):
        if (restricted and not Bset[c, j]) or gt[j, c]:  # l[j, c] > 1/2: not eligible
            continue
        if j == c:
            u = 0.5
        else:
            n = W[j, c] + W[c, j]
            u = UNPLAYED_U if n == 0.0 else W[j, c] / n + np.sqrt(alpha * log_t / n)
        if u > best:
            best = u
            m = 0
        if u == best:
            ties[m] = j
            m += 1
    if m == 0:
        return -1
    if m > 1:  # a tie may not pick c
        k = 0
        for q in range(m):
            if ties[q] != c:
                ties[k] = ties[q]
                k += 1
        m = k
    return pick(ties, m, rng)


@nb.njit(cache=True)
def _select(W, gt, Bset, Bsize, C, nC, BC, nBC, pairs, nP, alpha, log_t, rng, ties):
    """Lines 10-13: the pair ``(c, d)``."""
    A = W.shape[0]
    if nP > 0 and rng.random() < 0.25:
        p = pick(pairs, nP, rng)
        return p // A, p % A
    if 0 < nBC < nC and rng.random() < 2.0 / 3.0:
        c = pick(BC, nBC, rng)
    else:
        c = pick(C, nC, rng)
    d = -1
    if Bsize[c] > 0 and rng.random() < 0.5:
        d = _challenger(W, gt, Bset, c, True, alpha, log_t, rng, ties)
    if d < 0:
        d = _challenger(W, gt, Bset, c, False, alpha, log_t, rng, ties)
    return c, d


@nb.njit(cache=True)
def _kernel(matrix, horizon, rng, alpha):
    A = matrix.shape[0]
    I, J, outcomes = trace(horizon)
    W = np.zeros((A, A))
    gt = np.zeros((A, A), dtype=np.bool_)
    ge = np.zeros((A, A), dtype=np.bool_)
    cup = np.zeros(A, dtype=np.int64)
    clo = np.zeros(A, dtype=np.int64)
    inB = np.ones(A, dtype=np.bool_)
    Bset = np.zeros((A, A), dtype=np.bool_)
    Bsize = np.zeros(A, dtype=np.int64)
    LC = np.full(1, A, dtype=np.int64)
    C = np.empty(A, dtype=np.int64)
    BC = np.empty(A, dtype=np.int64)
    pairs = np.empty(A * A, dtype=np.int64)
    ties = np.empty(A, dtype=np.int64)
    buf = np.empty(A, dtype=np.int64)
    nC = nBC = nP = 0
    _, next_event = _all_flags(W, alpha, 0.0, gt, ge)
    dirty = True
    pc, pd = -1, -1
    for t in range(horizon):
        log_t = np.log(t + 1.0)
        if pc >= 0:
            ch, ev = _pair_flags(W, alpha, log_t, pc, pd, gt, ge)
            dirty = dirty or ch
            next_event = min(next_event, ev)
        if log_t >= next_event:
            ch, next_event = _all_flags(W, alpha, log_t, gt, ge)
            dirty = dirty or ch
        if dirty:
            _scores(gt, ge, cup, clo)
            dirty = _update(gt, cup, clo, inB, Bset, Bsize, LC, rng, buf)
            nC, nBC, nP = _lists(gt, cup, inB, Bset, C, BC, pairs)
        c, d = _select(W, gt, Bset, Bsize, C, nC, BC, nBC, pairs, nP, alpha, log_t, rng, ties)
        o = duel(matrix, c, d, rng)
        I[t], J[t], outcomes[t] = c, d, o
        pc, pd = -1, -1
        if c != d:
            tally(W, c, d, o)
            pc, pd = c, d
    return I, J, outcomes


def run(matrix, horizon, rng, record=None, *, alpha=0.51):
    """One CCB run; CCB has no mixed strategy, so ``strategies`` is empty."""
    return plain_run(_kernel, matrix, horizon, rng, float(alpha))
