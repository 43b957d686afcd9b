"""RMED2FH, RMED2 for a known horizon (Komiyama, Honda, Kashima & Nakagawa, COLT 2015).

RMED2 (:mod:`.rmed2`) whose initial phase plays every pair ``max(1, ceil(alpha log log T))`` times
and whose comparison arms ``b_l`` are estimated once, at the end of that phase. The rule and its
open choices: docs/paper.md ("The field's algorithms", RMED2).
"""

from __future__ import annotations

from .rmed1 import run_rmed2


def run(matrix, horizon, rng, record=None, *, f_coefficient=0.3, f_exponent=1.01, alpha=3.0):
    """One RMED2FH run; no mixed strategy, so ``strategies`` is empty."""
    return run_rmed2(matrix, horizon, rng, f_coefficient, f_exponent, alpha, fixed_horizon=True)
