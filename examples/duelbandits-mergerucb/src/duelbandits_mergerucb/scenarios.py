"""The ``thurstone`` scenario: a Thurstone Case V (probit) preference matrix with random utilities.

Thurstone's law of comparative judgment, Case V (L. L. Thurstone, "A law of comparative judgment",
Psychological Review 34(4), 273-286, 1927): each arm ``i`` has a latent utility ``u_i``, a comparison
perturbs both utilities by independent standard normal noise, and the larger perturbed value wins::

    X[i, j] = P(u_i + e_i > u_j + e_j) = Phi((u_i - u_j) / sqrt(2)) = (1 + erf((u_i - u_j) / 2)) / 2

It is, with the logistic (Bradley-Terry) model, the standard example of a preference model with linear
stochastic transitivity in the dueling-bandit literature (Bengs, Busa-Fekete, El Mesaoudi-Paul &
Hüllermeier, "Preference-based online learning with dueling bandits: a survey", JMLR 22(7), 2021).
The probit link has lighter tails than the logistic one: arms far apart are told apart almost surely,
near ones not much more easily than under the logistic link. The utilities are i.i.d. standard normal
draws of the run's generator, so the arm with the largest utility (almost surely unique) is the
Condorcet winner, and it sits at a random index.
"""

from __future__ import annotations

import math

import numpy as np

from duelbandits.scenarios import ScenarioEntry

MIN_ACTIONS = 2


def thurstone_matrix(utilities) -> np.ndarray:
    """``X[i, j] = Phi((u_i - u_j) / sqrt(2))``, computed for ``i < j`` and completed by ``X[j, i] = 1 - X[i, j]``
    (so ``X + X^T = 1`` holds to rounding), diagonal 1/2."""
    u = np.asarray(utilities, dtype=np.float64)
    A = u.shape[0]
    X = np.full((A, A), 0.5)
    for i in range(A):
        for j in range(i + 1, A):
            X[i, j] = 0.5 * (1.0 + math.erf((u[i] - u[j]) / 2.0))
            X[j, i] = 1.0 - X[i, j]
    return X


def make(actions: int, rng: np.random.Generator) -> np.ndarray:
    """The ``thurstone`` matrix of ``actions`` arms: utilities ``u ~ N(0, 1)`` i.i.d. from ``rng``."""
    return thurstone_matrix(rng.standard_normal(int(actions)))


SCENARIO = ScenarioEntry(
    slug="thurstone",
    label="Thurstone",
    citation="Thurstone 1927, Case V (probit): X[i, j] = Phi((u_i - u_j) / sqrt(2)), u_i ~ N(0, 1)",
    kind="generated",
    view="target",
    make="duelbandits_mergerucb.scenarios:make",
    min_actions=MIN_ACTIONS,
)
