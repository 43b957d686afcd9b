"""TS-Borda: Thompson sampling for dueling bandits with Borda winners (Alg. 2).

The rule: docs/paper.md ("The algorithms", TS-Borda). Each step draws
``b ~ Bernoulli(alpha)`` (line 3) before the posterior samples; ties uniform,
the diagonal 1/2 included. The posterior and its pruned, exact sampling live
in :mod:`._posterior`.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ._posterior import ROWS, new_state, observe, sample_borda
from ._sampling import duel, trace
from .tuning import ts_borda_alpha as exploration_rate  # Theorem 4.2's alpha = c_alpha T^(-1/3) < 1/2


@nb.njit(cache=True)
def _kernel(matrix, horizon, alpha, rng, borda):
    """The whole run; returns ``(I, J, outcomes, exploration mask, number of Beta draws)``.

    ``borda`` is True: an argument rather than a constant, so that the posterior's helpers compile
    for a plain bool, once for both TS kernels when one process compiles them (the workflow's
    ``compile_kernels``: TS-Borda's compile after TS-Maximin's 3.8 -> 2.4 s).
    """
    A = matrix.shape[0]
    pair, order = new_state(np.zeros((A, A)), borda)
    I, J, outcomes = trace(horizon)
    explored = np.zeros(horizon, dtype=np.bool_)
    draws = 0
    # Where each Thompson draw starts: its own previous Thompson choice.
    ts_i = order[A + ROWS, 0]  # the top row of the prior's order
    ts_j = ts_i
    for t in range(horizon):
        if rng.random() < alpha:  # b = 1: explore
            explored[t] = True
            i = rng.integers(0, A)
            j = rng.integers(0, A)
        else:
            ts_i, d_i = sample_borda(pair, order, ts_i, rng)
            ts_j, d_j = sample_borda(pair, order, ts_j, rng)
            i = ts_i
            j = ts_j
            draws += d_i + d_j
        o = duel(matrix, i, j, rng)
        observe(pair, order, i, j, o, borda)
        I[t], J[t], outcomes[t] = i, j, o
    return I, J, outcomes, explored, draws


def _call(matrix, horizon, rng, c_alpha):
    alpha = exploration_rate(c_alpha, horizon)
    return _kernel(np.ascontiguousarray(matrix, dtype=np.float64), int(horizon), alpha, rng, True)


def run(matrix, horizon, rng, record=None, *, c_alpha=1.0):
    """One run of Alg. 2; no strategies (see :mod:`..algorithms`)."""
    I, J, outcomes, _, _ = _call(matrix, horizon, rng, c_alpha)
    return I, J, outcomes, {}


def beta_draws(matrix, horizon, rng, c_alpha=1.0) -> int:
    """Number of Beta variates one run draws (the run :func:`run` makes with ``rng``)."""
    return int(_call(matrix, horizon, rng, c_alpha)[4])
