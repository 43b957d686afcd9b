"""Dueling-bandit simulations of 'Simple Algorithms for Dueling Bandits' (Lekang & Lamperski)."""

from .algorithms import ALGORITHMS, AlgorithmError
from .regret import REGRETS
from .scenarios import SCENARIOS, MatrixError, Scenario, ScenarioError, make_scenario, validate_matrix
from .simulate import SimulationError, SimulationResult, run_seed, simulate

__all__ = [
    "ALGORITHMS",
    "REGRETS",
    "SCENARIOS",
    "AlgorithmError",
    "MatrixError",
    "Scenario",
    "ScenarioError",
    "SimulationError",
    "SimulationResult",
    "make_scenario",
    "run_seed",
    "simulate",
    "validate_matrix",
]
