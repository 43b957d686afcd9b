"""ISS: Independent Self-Sparring (Sui et al., 2017), a baseline of Section 5.

The rule: docs/paper.md ("The algorithms", ISS); argmax ties uniform. ISS needs every sample (no
row structure to prune), so a run draws exactly ``2 A T`` Beta variates; besides
:func:`run`, :func:`beta_draws(matrix, horizon, rng) <beta_draws>` returns that
count, for benchmarks.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ._sampling import argmax_random_ties, duel, plain_run, trace


@nb.njit(cache=True)
def observe(S, F, i, j, o):
    """Winner ``S += 1``, loser ``F += 1``; for ``i == j`` the one action gets both."""
    if o == 1:
        S[i] += 1.0
        F[j] += 1.0
    else:
        S[j] += 1.0
        F[i] += 1.0


@nb.njit(cache=True)
def sample_action(S, F, theta, rng):
    """One Thompson choice: ``argmax_i theta[i]``, ``theta[i] ~ Beta(S[i] + 1, F[i] + 1)``, ties uniform."""
    for k in range(S.shape[0]):
        theta[k] = rng.beta(S[k] + 1.0, F[k] + 1.0)
    return argmax_random_ties(theta, rng)


@nb.njit(cache=True)
def _kernel(matrix, horizon, rng):
    """The whole run; returns ``(I, J, outcomes)``."""
    A = matrix.shape[0]
    S = np.zeros(A)
    F = np.zeros(A)
    theta = np.empty(A)
    I, J, outcomes = trace(horizon)
    for t in range(horizon):
        i = sample_action(S, F, theta, rng)
        j = sample_action(S, F, theta, rng)
        o = duel(matrix, i, j, rng)
        observe(S, F, i, j, o)
        I[t], J[t], outcomes[t] = i, j, o
    return I, J, outcomes


def run(matrix, horizon, rng, record=None):
    """One ISS run; no hyper-parameters and no strategies (see :mod:`..algorithms`)."""
    return plain_run(_kernel, matrix, horizon, rng)


def beta_draws(matrix, horizon, rng=None) -> int:
    """Number of Beta variates one run draws: ``2 A T`` (every sample is needed)."""
    return 2 * int(np.shape(matrix)[0]) * int(horizon)
