"""Preference-matrix scenarios of the paper (Section 5) and matrix validation.

A scenario is one fixed matrix: it depends only on its seed and parameters,
never on the algorithm or the run. ``condorcet`` and ``borda`` built from the
same seed share their utilities, so the borda matrix is the condorcet matrix
modified as in Section 5.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from . import winners

SCENARIOS = ("condorcet", "borda")
"""Scenario names accepted by :func:`make_scenario`."""

DEFAULTS = {"utility_max": 3.0, "margin": 0.5, "borda_strength": 0.95}
"""Scenario parameters and their paper values (SPEC.md)."""

MATRIX_ATOL = 1e-12
"""Tolerance of the preference-matrix identities (``X + X^T = 1``)."""


class ScenarioError(ValueError):
    """A scenario's name or parameters are invalid."""


class MatrixError(ValueError):
    """An array is not a preference matrix."""


@dataclass(frozen=True)
class Scenario:
    name: str
    matrix: np.ndarray = field(repr=False)
    utilities: np.ndarray
    params: dict


def validate_matrix(matrix) -> np.ndarray:
    """Return ``matrix`` as a float array, or raise MatrixError naming the fault.

    A preference matrix is square with at least 2 actions, has entries in
    [0, 1], ``X[i, j] + X[j, i] = 1`` off the diagonal and ``X[i, i] = 1/2``.
    """
    try:
        X = np.array(matrix, dtype=float)
    except (TypeError, ValueError) as err:
        raise MatrixError(f"preference matrix is not numeric: {err}") from None
    if X.ndim != 2 or X.shape[0] != X.shape[1]:
        raise MatrixError(f"preference matrix must be square, got shape {X.shape}")
    if X.shape[0] < 2:
        raise MatrixError(f"preference matrix needs at least 2 actions, got {X.shape[0]}")
    if not np.all(np.isfinite(X)):
        raise MatrixError("preference matrix has non-finite entries")
    if X.min() < 0 or X.max() > 1:
        raise MatrixError(
            f"preference matrix entries must lie in [0, 1], got range [{X.min():g}, {X.max():g}]"
        )
    diag = np.diag(X)
    if not np.allclose(diag, 0.5, rtol=0, atol=MATRIX_ATOL):
        bad = int(np.argmax(np.abs(diag - 0.5)))
        raise MatrixError(f"preference matrix diagonal must be 1/2, X[{bad}, {bad}] = {diag[bad]:g}")
    gap = np.abs(X + X.T - 1.0)
    np.fill_diagonal(gap, 0.0)
    if gap.max() > MATRIX_ATOL:
        i, j = np.unravel_index(int(np.argmax(gap)), gap.shape)
        raise MatrixError(
            f"preference matrix must satisfy X[i, j] + X[j, i] = 1; "
            f"X[{i}, {j}] + X[{j}, {i}] = {X[i, j] + X[j, i]:g}"
        )
    return X


def logistic_matrix(utilities: np.ndarray) -> np.ndarray:
    """``X[i, j] = 1 / (1 + exp(u[j] - u[i]))`` (Section 5)."""
    u = np.asarray(utilities, dtype=float)
    return 1.0 / (1.0 + np.exp(u[None, :] - u[:, None]))


def condorcet_utilities(actions: int, rng: np.random.Generator, utility_max: float, margin: float):
    """The winner gets ``utility_max``; the rest are uniform on ``[0, utility_max - margin]``.

    The winner's position is uniform among the actions.
    """
    others = rng.uniform(0.0, utility_max - margin, size=actions - 1)
    winner = int(rng.integers(actions))
    return np.insert(others, winner, utility_max)


def _check_params(name: str, actions, params: dict) -> dict:
    if name not in SCENARIOS:
        raise ScenarioError(f"unknown scenario {name!r}; valid scenarios: {', '.join(SCENARIOS)}")
    unknown = sorted(set(params) - set(DEFAULTS))
    if unknown:
        raise ScenarioError(
            f"unknown scenario parameter(s) {', '.join(unknown)}; valid: {', '.join(DEFAULTS)}"
        )
    if isinstance(actions, bool) or not isinstance(actions, (int, np.integer)) or actions < 2:
        raise ScenarioError(f"actions must be an integer >= 2, got {actions!r}")
    merged = {**DEFAULTS, **params}
    for key, value in merged.items():
        if isinstance(value, bool) or not isinstance(value, (int, float, np.number)) or not np.isfinite(value):
            raise ScenarioError(f"scenario parameter {key} must be a finite number, got {value!r}")
        merged[key] = float(value)
    if merged["utility_max"] <= 0:
        raise ScenarioError(f"utility_max must be > 0, got {merged['utility_max']:g}")
    if not 0 <= merged["margin"] < merged["utility_max"]:
        raise ScenarioError(
            f"margin must lie in [0, utility_max) = [0, {merged['utility_max']:g}), got {merged['margin']:g}"
        )
    if not 0.5 < merged["borda_strength"] <= 1:
        raise ScenarioError(f"borda_strength must lie in (0.5, 1], got {merged['borda_strength']:g}")
    return merged


def make_scenario(name: str, actions: int = 10, seed=0, **params) -> Scenario:
    """Build the named scenario's preference matrix.

    ``seed`` is anything ``numpy.random.default_rng`` accepts (an int or a
    ``SeedSequence``); ``params`` override :data:`DEFAULTS`.
    """
    merged = _check_params(name, actions, params)
    rng = np.random.default_rng(seed)
    u = condorcet_utilities(int(actions), rng, merged["utility_max"], merged["margin"])
    X = logistic_matrix(u)
    if name == "borda":
        X = borda_modification(X, u, merged["borda_strength"])
    return Scenario(name=name, matrix=X, utilities=u, params={"actions": int(actions), **merged})


def borda_modification(matrix: np.ndarray, utilities: np.ndarray, strength: float) -> np.ndarray:
    """Make ``i2`` (second-largest utility) the Borda winner (Section 5).

    ``X[i2, j] = strength`` and ``X[j, i2] = 1 - strength`` for every ``j``
    other than ``i2`` and the Condorcet winner ``i*``. Raises ScenarioError
    unless ``i2`` is then the unique Borda winner and ``i*`` the unique
    Condorcet and Maximin winner.
    """
    order = np.argsort(utilities, kind="stable")
    i_star, i2 = int(order[-1]), int(order[-2])
    X = matrix.copy()
    others = [j for j in range(X.shape[0]) if j not in (i2, i_star)]
    X[i2, others] = strength
    X[others, i2] = 1.0 - strength
    borda = winners.borda_winners(X)
    maximin = winners.maximin_winners(X)
    if list(borda) != [i2]:
        raise ScenarioError(
            f"borda scenario: action {i2} (second-largest utility) is not the unique Borda winner "
            f"(Borda winners: {borda.tolist()}); raise borda_strength or the number of actions"
        )
    if winners.condorcet_winner(X) != i_star or list(maximin) != [i_star]:
        raise ScenarioError(
            f"borda scenario: action {i_star} is no longer the unique Condorcet and Maximin winner; "
            "increase margin or utility_max"
        )
    return X
