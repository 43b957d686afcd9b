"""Regret upper bounds of Theorems 4.1-4.4 as functions of the horizon.

Each bound function takes the number of actions ``A`` and the horizon ``t``
(scalar or array) and returns the bound on ``E[R_t]``; ``requirement`` gives
the smallest horizon at which a theorem holds.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

E_MINUS_2 = np.e - 2.0


def ts_maximin(A: int, t, c_alpha: float | None = None):
    """Theorem 4.1: ``A / sqrt(2) * sqrt(log A) * sqrt(t)``."""
    return A / np.sqrt(2.0) * np.sqrt(np.log(A)) * np.sqrt(t)


def ts_borda(A: int, t, c_alpha: float = 1.0):
    """Theorem 4.2: ``(c + sqrt(A / c * log A)) * t^(2/3)`` for ``alpha = c t^(-1/3)``."""
    return (c_alpha + np.sqrt(A / c_alpha * np.log(A))) * np.power(t, 2.0 / 3.0)


def sparring_exp3p(A: int, t, c_alpha: float | None = None):
    """Theorem 4.3: ``(sqrt(A / log A) + 4.2 sqrt(A log A)) * sqrt(t)``."""
    return (np.sqrt(A / np.log(A)) + 4.2 * np.sqrt(A * np.log(A))) * np.sqrt(t)


def partial_monitoring(A: int, t, c_alpha: float | None = None):
    """Theorem 4.4: ``2 (e - 2)^(1/4) sqrt(A sqrt(log A)) t^(3/4)``."""
    return 2.0 * E_MINUS_2**0.25 * np.sqrt(A * np.sqrt(np.log(A))) * np.power(t, 0.75)


@dataclass(frozen=True)
class Theorem:
    name: str
    algorithm: str
    regret: str
    bound: object
    exponent: float

    def requirement(self, A: int, c_alpha: float = 1.0) -> tuple[float, bool]:
        """``(T_min, strict)``: the theorem holds for ``T >= T_min`` (``T > T_min`` if strict)."""
        logA = np.log(A)
        if self.algorithm == "sparring-exp3p":
            return max(4.41 * A * logA, 0.95**2 * logA / (0.1**2 * A)), False
        if self.algorithm == "partial-monitoring":
            return E_MINUS_2 * A**2 * logA, True
        if self.algorithm == "ts-borda":
            # alpha = c T^(-1/3) < 1/2  <=>  T > (2 c)^3
            return (2.0 * c_alpha) ** 3, True
        return 1.0, False

    def holds(self, A: int, T, c_alpha: float = 1.0):
        """Whether the theorem's horizon requirement is met at ``T``."""
        T_min, strict = self.requirement(A, c_alpha)
        T = np.asarray(T)
        return T > T_min if strict else T >= T_min


THEOREMS = {
    "ts-maximin": Theorem("4.1", "ts-maximin", "maximin", ts_maximin, 0.5),
    "ts-borda": Theorem("4.2", "ts-borda", "borda", ts_borda, 2.0 / 3.0),
    "sparring-exp3p": Theorem("4.3", "sparring-exp3p", "exp3p", sparring_exp3p, 0.5),
    "partial-monitoring": Theorem("4.4", "partial-monitoring", "borda", partial_monitoring, 0.75),
}
"""The paper's theorems by the algorithm they bound."""


def theorem_for(algorithm: str, regret: str) -> Theorem | None:
    """The theorem bounding ``algorithm`` under ``regret``, or None."""
    theorem = THEOREMS.get(algorithm)
    return theorem if theorem is not None and theorem.regret == regret else None
