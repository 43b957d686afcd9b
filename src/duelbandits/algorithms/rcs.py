"""RCS: Relative Confidence Sampling (Zoghi, Whiteson, de Rijke & Munos, WSDM 2014, Algorithm 1).

The rule and the choices the paper leaves open: docs/paper.md ("The field's algorithms", RCS).
``W[i, j]`` counts the wins of ``i`` over ``j``, ``b[i]`` the steps at which ``i`` was the champion;
the challenger is :func:`.rucb.challenger`.

Speed. The champion depends on ``theta`` only through which arm, if any, beats all others, so
``theta`` is revealed lazily in a knockout (the previous champion first): every other arm has lost a
revealed duel, and each revealed entry is a fresh draw from its own Beta law, so the champion has the
law of the full-matrix rule (``tests/test_rcs.py``) with ``A - 1`` to ``2A - 3`` Beta draws a step
instead of ``A(A - 1)/2``. ``U`` is compared with 1/2 through RUCB's log-t thresholds (:mod:`.rucb`).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ._sampling import argmax_random_ties, duel, plain_run, trace
from .rucb import challenger, new_state, observe


@nb.njit(cache=True)
def _theta(W, i, j, theta, drawn, stamp, rng):
    """``theta[i, j]`` of this step's sample, drawing ``theta[lo, hi]`` on first use; ``(value, draws)``."""
    lo, hi = min(i, j), max(i, j)
    if drawn[lo, hi] == stamp:
        x = theta[lo, hi]
        return (x if i == lo else 1.0 - x), 0
    x = rng.beta(W[lo, hi] + 1.0, W[hi, lo] + 1.0)
    theta[lo, hi] = x
    drawn[lo, hi] = stamp
    return (x if i == lo else 1.0 - x), 1


@nb.njit(cache=True)
def champion(W, b, first, rng, theta, drawn, stamp):
    """The simulated tournament's champion and the Beta draws it took (module docstring).

    ``first`` (the previous champion in a run) holds the lead first; the order
    changes only how many entries are drawn, never the champion's law.
    ``drawn[lo, hi] == stamp`` marks entries drawn in this call.
    """
    A = W.shape[0]
    draws = 0
    c = first
    for j in range(A):  # knockout: every arm but the final holder loses once
        if j == first:
            continue
        x, k = _theta(W, c, j, theta, drawn, stamp, rng)
        draws += k
        if x < 0.5:  # theta[j, c] > 1/2: j takes the lead
            c = j
    for j in range(A):  # the holder against the arms it has not met
        if j == c:
            continue
        x, k = _theta(W, c, j, theta, drawn, stamp, rng)
        draws += k
        if x < 0.5:  # no arm beats all others in the sample
            return argmax_random_ties(-b, rng), draws  # the least chosen, ties uniformly
    return c, draws


@nb.njit(cache=True)
def _kernel(matrix, horizon, rng, alpha):
    A = matrix.shape[0]
    I, J, outcomes = trace(horizon)
    W = np.zeros((A, A))
    thr, rowmax, colmin = new_state(W, alpha)
    b = np.zeros(A)
    theta = np.empty((A, A))
    drawn = np.zeros((A, A), dtype=np.int64)
    draws = 0
    c = 0
    for t in range(horizon):
        c, k = champion(W, b, c, rng, theta, drawn, t + 1)
        draws += k
        b[c] += 1.0
        d = challenger(W, colmin, c, np.log(t + 1.0), alpha, rng)
        o = duel(matrix, c, d, rng)
        I[t], J[t], outcomes[t] = c, d, o
        observe(W, alpha, thr, rowmax, colmin, c, d, o)
    return I, J, outcomes, draws


def run(matrix, horizon, rng, record=None, *, alpha=0.51):
    """One RCS run; RCS has no mixed strategy, so ``strategies`` is empty."""
    return plain_run(_kernel, matrix, horizon, rng, float(alpha))


def beta_draws(matrix, horizon, rng, alpha=0.51) -> int:
    """Number of Beta variates one run draws (the run :func:`run` makes with ``rng``), for benchmarks."""
    return int(_kernel(np.ascontiguousarray(matrix, dtype=np.float64), int(horizon), rng, float(alpha))[3])
