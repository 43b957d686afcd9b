"""Winner notions of a preference matrix ``X`` (``X[i, j] = P(i beats j)``): one score per action,
and every maximiser as a winner (ties kept).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .errors import InputError


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


WINNERS = {
    "condorcet": condorcet_winner,
    "copeland": copeland_winners,
    "maximin": maximin_winners,
    "borda": borda_winners,
}
"""Each winner notion's function by kind, in the order a scenario file records them
(``duelbandits.storage.scenario_record``, which its reader requires all of)."""


@dataclass(frozen=True)
class Trap:
    """The trap of a matrix for TS-Maximin (the maximin-tail study, checked by the config): its unique
    Maximin winner ``i*``, its unique Borda winner ``i2 != i*``, and ``delta = X[i*, i2] - 1/2``, the
    Maximin regret of a step on ``i2``'s self-duel."""

    maximin_winner: int
    borda_winner: int
    delta: float


def trap(matrix) -> Trap:
    """The :class:`Trap` of ``matrix``, or one line saying it has none."""
    # mutmut equivalent: dtype dropped: the winners' scores and X[i, j] - 0.5 are floats for any numbers
    X = np.asarray(matrix, dtype=float)  # pragma: no mutate
    star, borda = maximin_winners(X), borda_winners(X)
    if star.size != 1 or borda.size != 1 or star[0] == borda[0]:
        raise InputError(
            "maximin-tail needs a matrix with one Maximin winner and a different, unique Borda winner; "
            f"got Maximin winners {star.tolist()} and Borda winners {borda.tolist()}"
        )
    i, j = int(star[0]), int(borda[0])
    return Trap(i, j, float(X[i, j] - 0.5))
