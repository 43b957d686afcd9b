"""RMED2 (Komiyama, Honda, Kashima & Nakagawa, COLT 2015, Algorithms 1 and 3).

RMED1's loop (:mod:`.rmed1`: initial phase, ``L_C``/``L_R``/``L_N``, the candidates ``J_t``) with
RMED2's comparison arm, which aims at the regret lower bound: the arm ``b_l`` of ``O_l`` minimising
the estimated regret per unit of divergence ``(Delta_l + Delta_j) / d(mu[l, j], 1/2)``, after
drawing every pair of ``l`` at least ``alpha log log t`` times, and ``i*`` when ``l`` has met it
much less than ``b_l``. The rule and its open choices: docs/paper.md ("The field's algorithms", RMED2).
"""

from __future__ import annotations

from .rmed1 import run_rmed2


def run(matrix, horizon, rng, record=None, *, f_coefficient=0.3, f_exponent=1.01, alpha=3.0):
    """One RMED2 run; no mixed strategy, so ``strategies`` is empty."""
    return run_rmed2(matrix, horizon, rng, f_coefficient, f_exponent, alpha, fixed_horizon=False)
