"""Theorems 4.1-4.4 in one place: each one's horizon requirement, exponent and bound (the tuning
each prescribes is ``duelbandits.algorithms.tuning``).

Each bound is stated for ``E[R_T]`` of an algorithm tuned to ``T``; a curve that evaluates it at every
step of such a run is a bound at ``t = T`` only.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import algorithms
from .algorithms.tuning import E_MINUS_2

# --- Bounds on E[R_T] -----------------------------------------------------------------------


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


def _sparring_exp3p_horizon(A: int, c_alpha: float) -> tuple[float, bool]:
    logA = np.log(A)
    return max(4.41 * A * logA, 0.95**2 * logA / (0.1**2 * A)), False


@dataclass(frozen=True)
class Theorem:
    """A regret bound: its name, the regret kind it bounds, ``bound(A, t, c_alpha)``, the exponent of
    ``t`` in it, and ``horizon(A, c_alpha) -> (T_min, strict)``, the horizons where it holds. An
    algorithm's registry entry names its theorem (``duelbandits.algorithms.Algorithm.theorem``)."""

    name: str
    regret: str
    bound: object
    exponent: float
    horizon: object = lambda A, c_alpha: (1.0, False)  # noqa: E731 -- any horizon

    def requirement(self, A: int, c_alpha: float = 1.0) -> tuple[float, bool]:
        """``(T_min, strict)``: the theorem holds for ``T >= T_min`` (``T > T_min`` if strict)."""
        return self.horizon(A, c_alpha)

    def holds(self, A: int, T, c_alpha: float = 1.0):
        """Whether the theorem's horizon requirement is met at ``T``."""
        T_min, strict = self.requirement(A, c_alpha)
        T = np.asarray(T)
        return T > T_min if strict else T >= T_min


PAPER_THEOREMS = {
    t.name: t
    for t in (
        Theorem("4.1", "maximin", ts_maximin, 0.5),
        # alpha = c T^(-1/3) < 1/2  <=>  T > (2 c)^3 (ts_borda_alpha)
        Theorem("4.2", "borda", ts_borda, 2.0 / 3.0, lambda A, c: ((2.0 * c) ** 3, True)),
        Theorem("4.3", "exp3p", sparring_exp3p, 0.5, _sparring_exp3p_horizon),
        Theorem("4.4", "borda", partial_monitoring, 0.75, lambda A, c: (E_MINUS_2 * A**2 * np.log(A), True)),
    )
}
"""The paper's four theorems by name; the registry entries of TS-Maximin, TS-Borda, SparringExp3.P
and Partial Monitoring name them (``Algorithm.theorem``), a plugin's entry may bring its own."""


def theorem_of(spec) -> Theorem | None:
    """The theorem of the registry entry ``spec``: a paper theorem by name, or the plugin's own object."""
    if spec.theorem is None or not isinstance(spec.theorem, str):
        return spec.theorem
    return PAPER_THEOREMS[spec.theorem]


def __getattr__(name):
    """``THEOREMS``: ``{algorithm slug: Theorem}`` of every registered algorithm that has one (plugins
    included), built from the registry on first use (the registry names a paper theorem by its name:
    it imports nothing of this module, which reads it)."""
    if name == "THEOREMS":
        return {slug: theorem_of(spec) for slug, spec in algorithms.registry().items() if spec.theorem is not None}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def theorem_for(algorithm: str, regret: str) -> Theorem | None:
    """The theorem bounding ``algorithm`` under ``regret``, or None."""
    spec = algorithms.registry().get(algorithm)
    theorem = theorem_of(spec) if spec is not None else None
    return theorem if theorem is not None and theorem.regret == regret else None
