"""Dueling-EXP3 (Saha, Koren & Mansour, "Adversarial Dueling Bandits", ICML 2021, Algorithm 1).

The paper's Partial Monitoring update (Alg. 4, eqs. 4-6) with another tuning (:func:`hyperparameters`),
so a run is that forecaster's kernel (:mod:`.partial_monitoring`). The rule, its tuning and the choices
left open: docs/paper.md ("The field's algorithms", Dueling-EXP3).
"""

from __future__ import annotations

import math

import numpy as np

from . import AlgorithmError
from .partial_monitoring import _kernel
from .partial_monitoring import estimate as estimate  # eq. (6) is the estimate s~_t above
from .tuning import _clipped_gamma


def hyperparameters(K: int, T: int) -> dict:
    """The paper's ``eta = (log K / (T sqrt K))^(2/3)`` and ``gamma = sqrt(eta K)`` (clipped to 1)."""
    eta = float((math.log(K) / (T * math.sqrt(K))) ** (2.0 / 3.0))
    gamma = math.sqrt(eta * K)
    return {"eta": eta, "gamma": _clipped_gamma(gamma, "dexp3", "2 of Saha et al. (2021)", K, T, ", needs T > K log K")}


def _check(name, value, low_open) -> float:
    """``eta`` must be a finite number >= 0, ``gamma`` one in (0, 1] (a floor keeps every q(i) > 0)."""
    ok = not isinstance(value, bool) and isinstance(value, (int, float, np.number)) and np.isfinite(value)
    if low_open:
        if not (ok and 0 < value <= 1):
            raise AlgorithmError(f"dexp3: {name} must be a number in (0, 1], got {value!r}")
    elif not (ok and value >= 0):
        raise AlgorithmError(f"dexp3: {name} must be a finite number >= 0, got {value!r}")
    return float(value)


def run(matrix, horizon, rng, record=None, *, eta=None, gamma=None):
    """One Dueling-EXP3 run; strategies ``{'p': q_t at the record steps}``.

    ``eta, gamma`` default to the paper's tuning for this horizon
    (:func:`hyperparameters`); passing them overrides it (used by tests).
    """
    K = int(np.shape(matrix)[0])
    tuned = hyperparameters(K, int(horizon)) if None in (eta, gamma) else {}
    eta = tuned["eta"] if eta is None else _check("eta", eta, False)
    gamma = tuned["gamma"] if gamma is None else _check("gamma", gamma, True)
    matrix = np.ascontiguousarray(matrix, dtype=np.float64)
    record = np.zeros(0, dtype=np.int64) if record is None else np.ascontiguousarray(record, dtype=np.int64)
    I, J, outcomes, q_rec = _kernel(matrix, int(horizon), rng, record, eta, gamma)
    return I, J, outcomes, {"p": q_rec}
