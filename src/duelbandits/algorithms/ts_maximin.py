"""TS-Maximin: Thompson sampling for dueling bandits with Maximin winners (Alg. 1).

The rule: docs/paper.md ("The algorithms", TS-Maximin); ties uniform. The posterior and its pruned,
exact sampling live in :mod:`._posterior`; :func:`beta_draws` counts a run's Beta variates.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ._posterior import ROWS, new_state, observe, sample_maximin
from ._sampling import duel, trace


@nb.njit(cache=True)
def _kernel(matrix, horizon, rng, borda):
    """The whole run: ``(I, J, outcomes, number of Beta draws)``; ``borda`` False, an argument so that
    both TS kernels share one compile of the posterior (:func:`.ts_borda._kernel`)."""
    A = matrix.shape[0]
    pair, order = new_state(np.zeros((A, A)), borda)
    I, J, outcomes = trace(horizon)
    draws = 0
    i = order[A + ROWS, 0]  # the top row of the prior's order
    j = i
    for t in range(horizon):
        # Each draw starts from its own previous choice, the likeliest winner.
        i, d_i = sample_maximin(pair, order, i, rng)
        j, d_j = sample_maximin(pair, order, j, rng)
        o = duel(matrix, i, j, rng)
        observe(pair, order, i, j, o, borda)
        I[t] = i
        J[t] = j
        outcomes[t] = o
        draws += d_i + d_j
    return I, J, outcomes, draws


def _prepare(matrix, horizon):
    return np.ascontiguousarray(matrix, dtype=np.float64), int(horizon)


def run(matrix, horizon, rng, record=None):
    """One run of Alg. 1; no hyper-parameters and no strategies (see :mod:`..algorithms`)."""
    I, J, outcomes, _ = _kernel(*_prepare(matrix, horizon), rng, False)
    return I, J, outcomes, {}


def beta_draws(matrix, horizon, rng) -> int:
    """Number of Beta variates one run draws (the run is the one :func:`run` makes with ``rng``)."""
    return int(_kernel(*_prepare(matrix, horizon), rng, False)[3])
