"""TS-Maximin: Thompson sampling for dueling bandits with Maximin winners (Alg. 1).

The rule: docs/paper.md ("The algorithms", TS-Maximin); ties uniform. The posterior and its pruned,
exact sampling live in :mod:`._posterior`; :func:`beta_draws` counts a run's Beta variates, and
:func:`regret_at` sums a run's regret at a few steps without holding its trace.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ._posterior import ROWS, new_state, observe, sample_maximin
from ._sampling import duel, trace


@nb.njit(cache=True)
def _kernel(matrix, horizon, rng, borda, steps, table):
    """The whole run: ``(I, J, outcomes, number of Beta draws, regret)``. ``borda`` False, an argument so that
    both TS kernels share one compile of the posterior (:func:`.ts_borda._kernel`). With ``steps``
    (1-based, increasing, the last one ``horizon``) the trace is empty and ``regret`` holds the running sum
    of ``table[I_t, J_t]`` at each of ``steps``; the draws are the same either way."""
    A = matrix.shape[0]
    pair, order = new_state(np.zeros((A, A)), borda)
    keep = steps.size == 0
    I, J, outcomes = trace(horizon if keep else 0)
    regret = np.empty(steps.size)
    total = 0.0
    k = 0
    draws = 0
    i = order[A + ROWS, 0]  # the top row of the prior's order
    j = i
    for t in range(horizon):
        # Each draw starts from its own previous choice, the likeliest winner.
        i, d_i = sample_maximin(pair, order, i, rng)
        j, d_j = sample_maximin(pair, order, j, rng)
        o = duel(matrix, i, j, rng)
        observe(pair, order, i, j, o, borda)
        draws += d_i + d_j
        if keep:
            I[t], J[t], outcomes[t] = i, j, o
        else:
            total += table[i, j]  # one step at a time, as np.cumsum adds: the same bits
            if t + 1 == steps[k]:
                regret[k] = total
                k += 1
    return I, J, outcomes, draws, regret


_NO_STEPS = np.empty(0, dtype=np.int64)
_NO_TABLE = np.empty((0, 0))


def _run(matrix, horizon, rng):
    X = np.ascontiguousarray(matrix, dtype=np.float64)
    return _kernel(X, int(horizon), rng, False, _NO_STEPS, _NO_TABLE)


def run(matrix, horizon, rng, record=None):
    """One run of Alg. 1; no hyper-parameters and no strategies (see :mod:`..algorithms`)."""
    I, J, outcomes, _, _ = _run(matrix, horizon, rng)
    return I, J, outcomes, {}


def beta_draws(matrix, horizon, rng) -> int:
    """Number of Beta variates one run draws (the run is the one :func:`run` makes with ``rng``)."""
    return int(_run(matrix, horizon, rng)[3])


def regret_at(matrix, steps, table, rng) -> np.ndarray:
    """The cumulative regret ``sum_{s <= t} table[I_s, J_s]`` at each of ``steps`` (1-based, strictly
    increasing) of the run :func:`run` makes with ``rng`` to ``steps[-1]``, bit for bit, in memory of the
    size of ``steps`` instead of the run's trace (the Bayesian study's runs to 10^8)."""
    steps = np.asarray(steps, dtype=np.int64)
    if steps.size == 0 or steps[0] < 1 or np.any(np.diff(steps) <= 0):  # else the kernel would skip a step
        raise ValueError(f"steps must be 1-based and strictly increasing, got {steps.tolist()}")
    X = np.ascontiguousarray(matrix, dtype=np.float64)
    return _kernel(X, int(steps[-1]), rng, False, steps, np.ascontiguousarray(table, dtype=np.float64))[4]
