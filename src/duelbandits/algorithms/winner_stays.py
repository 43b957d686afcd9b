"""Winner Stays for weak regret, WS-W (Chen & Frazier, ICML 2017, Algorithm 1).

The rule: docs/paper.md ("The field's algorithms", Winner Stays). ``C[i]`` counts the wins minus the
losses of action ``i``; a uniform draw among the maximisers (:func:`._sampling.pick`) is made only
when no previous action is taken.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ._sampling import duel, pick, plain_run, trace


@nb.njit(cache=True)
def _choose(C, exclude, prev_first, prev_second, rng, cands):
    """One choice from ``argmax_{i != exclude} C[i]``: ``prev_first``, else ``prev_second``, else uniform.

    ``exclude``, ``prev_first`` or ``prev_second`` equal to ``-1`` stand for none.
    """
    A = C.shape[0]
    m = 0
    best = 0
    for i in range(A):
        if i == exclude:
            continue
        c = C[i]
        if m == 0 or c > best:
            best = c
            m = 0
        if c == best:
            cands[m] = i
            m += 1
    if prev_first >= 0 and prev_first != exclude and C[prev_first] == best:
        return prev_first
    if prev_second >= 0 and prev_second != exclude and C[prev_second] == best:
        return prev_second
    return pick(cands, m, rng)


@nb.njit(cache=True)
def _select(C, prev_first, prev_second, rng, cands):
    i = _choose(C, -1, prev_first, prev_second, rng, cands)
    j = _choose(C, i, prev_first, prev_second, rng, cands)
    return i, j


@nb.njit(cache=True)
def _update(C, i, j, o):
    """WS-W's counters: the winner's ``C += 1``, the loser's ``C -= 1``."""
    if o == 1:
        C[i] += 1
        C[j] -= 1
    else:
        C[i] -= 1
        C[j] += 1


@nb.njit(cache=True)
def _kernel(matrix, horizon, rng):
    A = matrix.shape[0]
    C = np.zeros(A, dtype=np.int64)
    cands = np.empty(A, dtype=np.int64)
    I, J, outcomes = trace(horizon)
    i, j = -1, -1  # no previous actions at step 1
    for t in range(horizon):
        i, j = _select(C, i, j, rng, cands)
        o = duel(matrix, i, j, rng)
        _update(C, i, j, o)
        I[t], J[t], outcomes[t] = i, j, o
    return I, J, outcomes


def run(matrix, horizon, rng, record=None):
    """One WS-W run; no hyper-parameters and no mixed strategy, so ``strategies`` is empty."""
    return plain_run(_kernel, matrix, horizon, rng)
