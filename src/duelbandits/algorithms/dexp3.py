"""Dueling-EXP3 (Saha, Koren & Mansour, "Adversarial Dueling Bandits", ICML 2021, Algorithm 1).

The paper's Partial Monitoring update (Alg. 4, eqs. 4-6) with another tuning (:func:`hyperparameters`),
so a run is that forecaster's kernel (:mod:`.partial_monitoring`). The rule, its tuning and the choices
left open: docs/paper.md ("The field's algorithms", Dueling-EXP3).
"""

from __future__ import annotations

import math

from .partial_monitoring import tuned_run
from .tuning import _clipped_gamma


def hyperparameters(K: int, T: int) -> dict:
    """The paper's ``eta = (log K / (T sqrt K))^(2/3)`` and ``gamma = sqrt(eta K)`` (clipped to 1)."""
    eta = float((math.log(K) / (T * math.sqrt(K))) ** (2.0 / 3.0))
    gamma = math.sqrt(eta * K)
    return {"eta": eta, "gamma": _clipped_gamma(gamma, "dexp3", "2 of Saha et al. (2021)", K, T, ", needs T > K log K")}


def run(matrix, horizon, rng, record=None, *, eta=None, gamma=None):
    """One Dueling-EXP3 run; strategies ``{'p': q_t at the record steps}``; ``eta, gamma`` default to the
    paper's tuning for this horizon (:func:`hyperparameters`; no entry parameter: a test's override)."""
    return tuned_run(hyperparameters, matrix, horizon, rng, record, eta, gamma)
