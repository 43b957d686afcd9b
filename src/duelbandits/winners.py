"""Winner notions of a preference matrix ``X`` (``X[i, j] = P(i beats j)``).

Each ``*_scores`` function returns one score per action; the winners are the
actions of maximal score. Ties are kept: the ``*_winners`` functions return
every maximiser, so callers can test uniqueness.
"""

from __future__ import annotations

import numpy as np


def copeland_scores(matrix: np.ndarray) -> np.ndarray:
    """Number of other actions each action beats with probability > 1/2."""
    return (np.asarray(matrix) > 0.5).sum(axis=1)


def maximin_scores(matrix: np.ndarray) -> np.ndarray:
    """Row minima of ``X`` (the diagonal 1/2 included, as in the paper)."""
    return np.asarray(matrix).min(axis=1)


def borda_scores(matrix: np.ndarray) -> np.ndarray:
    """Row means of ``X``: the probability of beating an action drawn uniformly."""
    return np.asarray(matrix).mean(axis=1)


def _maximisers(scores: np.ndarray) -> np.ndarray:
    return np.flatnonzero(scores == scores.max())


def copeland_winners(matrix: np.ndarray) -> np.ndarray:
    return _maximisers(copeland_scores(matrix))


def maximin_winners(matrix: np.ndarray) -> np.ndarray:
    return _maximisers(maximin_scores(matrix))


def borda_winners(matrix: np.ndarray) -> np.ndarray:
    return _maximisers(borda_scores(matrix))


def condorcet_winner(matrix: np.ndarray) -> int | None:
    """The action that beats every other with probability > 1/2, or None."""
    matrix = np.asarray(matrix)
    beats = copeland_scores(matrix)
    # mutmut equivalent: matrix.shape[1] for shape[0]: a preference matrix is square
    winners = np.flatnonzero(beats == matrix.shape[0] - 1)  # pragma: no mutate
    return int(winners[0]) if winners.size else None
