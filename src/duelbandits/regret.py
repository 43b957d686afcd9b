"""Expected per-step regrets of docs/paper.md as pure functions of (X, I, J).

The theorems bound the expected regret, and given the selections the
expectation of ``X_t`` is ``X``; so each function takes the matrix and the
selected actions (scalars or arrays) and returns the expected regret of each
step, at most 1 (Section 4 normalises every regret). The Borda and Copeland
regrets are never negative; the Maximin and Exp3.P regrets are, where no
Condorcet winner exists (``cyclic``), when the Maximin winner loses a duel.

The Exp3.P regret of Theorem 4.3, with ``X(J, I)`` as in its proof, equals
the Maximin regret identically: ``X[I, J] + X[J, I] = 1`` turns
``(X[i*, J] - X[I, J] + X[i*, I] - X[J, I]) / 2`` into
``(X[i*, I] + X[i*, J] - 1) / 2``. The pipeline keeps both names, because
each is what its theorem bounds, and reports that they coincide.
"""

from __future__ import annotations

import numpy as np

from . import winners


def maximin(matrix, I, J):
    """Theorem 4.1: ``(X[i*, I] + X[i*, J] - 1) / 2``, ``i*`` the Maximin winner."""
    X = np.asarray(matrix)
    star = winners.maximin_winners(X)[0]
    return (X[star, I] + X[star, J] - 1.0) / 2.0


def borda(matrix, I, J):
    """Theorems 4.2 and 4.4: ``(2 s[i*] - s[I] - s[J]) / 2``, ``s`` the row means."""
    s = winners.borda_scores(matrix)
    return (2.0 * s.max() - s[I] - s[J]) / 2.0


def exp3p(matrix, I, J):
    """Theorem 4.3 (as in its proof): ``(X[i*, J] - X[I, J] + X[i*, I] - X[J, I]) / 2``."""
    X = np.asarray(matrix)
    star = winners.maximin_winners(X)[0]
    return (X[star, J] - X[I, J] + X[star, I] - X[J, I]) / 2.0


def copeland(matrix, I, J):
    """Extra: ``(2 c[i*] - c[I] - c[J]) / 2`` with ``c`` the Copeland score over ``A - 1``."""
    X = np.asarray(matrix)
    c = winners.copeland_scores(X) / (X.shape[0] - 1)
    return (2.0 * c.max() - c[I] - c[J]) / 2.0


REGRETS = {"maximin": maximin, "borda": borda, "exp3p": exp3p, "copeland": copeland}
"""Regret kinds by name."""

REGRET_NAMES = {"maximin": "Maximin", "borda": "Borda", "exp3p": "Exp3.P", "copeland": "Copeland"}
"""How tables and figures name each regret kind."""


def per_step(kind: str, matrix, I, J) -> np.ndarray:
    """Per-step expected regret of the named kind: the kind's function evaluated once per pair of
    actions (the same arithmetic, so the same bits), then looked up for each step: a chunk's 4 x 10^6
    steps cost one gather instead of the formula's several passes."""
    if kind not in REGRETS:
        raise ValueError(f"unknown regret {kind!r}; valid regrets: {', '.join(REGRETS)}")
    X = np.asarray(matrix)
    actions = np.arange(X.shape[0])
    table = np.asarray(REGRETS[kind](X, actions[:, None], actions[None, :]), dtype=float)
    return np.asarray(table[I, J])


def cumulative(kind: str, matrix, I, J) -> np.ndarray:
    """Cumulative regret ``R_t = sum_{s <= t} r_s`` of the named kind."""
    return np.cumsum(per_step(kind, matrix, I, J))


def sample_std(values):
    """Sample standard deviation over runs (axis 0, ``ddof = 1``); 0 for a single run."""
    values = np.asarray(values, dtype=float)
    if values.shape[0] < 2:
        return np.zeros(values.shape[1:]) if values.ndim > 1 else 0.0
    return values.std(axis=0, ddof=1)
