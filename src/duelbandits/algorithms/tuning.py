"""The hyper-parameters Theorems 4.2-4.4 prescribe for A actions and horizon T (and Dueling-EXP3's
clipping): the kernels of TS-Borda, SparringExp3.P, Partial Monitoring and Dueling-EXP3 tune
themselves with them, and ``duelbandits.theorems`` states the bounds they give. Here, beside the
kernels, so that no kernel imports the theorems' module (which reads the registry: a loop) and an
edit of a bound reruns no simulation.
"""

from __future__ import annotations

import warnings

import numpy as np

from ..errors import AlgorithmError

E_MINUS_2 = np.e - 2.0
"""``e - 2``, the constant of Theorem 4.4 (and of Exp3's analysis)."""


def ts_borda_alpha(c_alpha, horizon) -> float:
    """Theorem 4.2's exploration rate ``alpha = c_alpha * T^(-1/3)``; AlgorithmError unless ``alpha < 1/2``
    (Algorithm 2's exploration probability), that is unless ``T > (2 c_alpha)^3``."""
    c_alpha = float(c_alpha)  # > 0: checked at its doors (the config, the CLI, the entry's Param)
    alpha = c_alpha * float(horizon) ** (-1.0 / 3.0)
    if not alpha < 0.5:
        raise AlgorithmError(
            f"ts-borda: alpha = c_alpha * T^(-1/3) = {c_alpha:g} * {int(horizon)}^(-1/3) = {alpha:.4g} "
            f"must be < 1/2; lower c_alpha below {0.5 * float(horizon) ** (1.0 / 3.0):.4g} "
            "or raise the horizon"
        )
    return alpha


def _clipped_gamma(gamma: float, algorithm: str, theorem: str, A: int, T: int, need: str = "") -> float:
    """``gamma``, or 1 (uniform play) with a warning where the horizon is too short (``gamma >= 1``)."""
    if gamma < 1.0:
        return gamma
    warnings.warn(
        f"{algorithm}: horizon T={T} is too short for Theorem {theorem} with A={A} "
        f"(gamma = {gamma:.3g} >= 1{need}); clipping gamma to 1, i.e. uniform play",
        # mutmut equivalent: the stacklevel (3, the tuning's caller): mutmut's trampolines add frames (docs/testing.md)
        stacklevel=3,  # pragma: no mutate
    )
    return 1.0


def tuned(tuning, A: int, T: int, **given) -> dict:
    """The ``given`` hyper-parameters as floats, each left None taken from ``tuning(A, T)`` (the theorem's, called
    and its warning given only then; a value passed overrides it, as the tests do)."""
    theorem = tuning(A, T) if None in given.values() else {}
    return {name: theorem[name] if value is None else float(value) for name, value in given.items()}


def sparring_exp3p_tuning(A: int, T: int) -> dict:
    """Theorem 4.3's ``beta = sqrt(log A / (A T))``, ``eta = 0.95 beta``, ``gamma = 1.05 sqrt(A log A / T)``;
    ``gamma >= 1`` (a horizon too short for the theorem) is clipped to 1, uniform play, with a warning."""
    logA = np.log(A)
    beta = float(np.sqrt(logA / (A * T)))
    gamma = float(1.05 * np.sqrt(A * logA / T))
    return {"beta": beta, "eta": 0.95 * beta, "gamma": _clipped_gamma(gamma, "sparring-exp3p", "4.3", A, T)}


def partial_monitoring_tuning(A: int, T: int) -> dict:
    """Theorem 4.4's ``eta = (e-2)^(-1/4) (log A / (A^(2/3) T))^(3/4)``, ``gamma = (e-2)^(1/4) (A^2 log A / T)^(1/4)``;
    ``gamma >= 1`` (``T <= (e-2) A^2 log A``) is clipped to 1, uniform play, with a warning."""
    logA = np.log(A)
    eta = float(E_MINUS_2**-0.25 * (logA / (A ** (2.0 / 3.0) * T)) ** 0.75)
    gamma = float(E_MINUS_2**0.25 * (A**2 * logA / T) ** 0.25)
    need = f", needs T > {E_MINUS_2 * A**2 * logA:.1f}"
    return {"eta": eta, "gamma": _clipped_gamma(gamma, "partial-monitoring", "4.4", A, T, need)}
