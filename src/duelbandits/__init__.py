"""Dueling-bandit simulations of 'Simple Algorithms for Dueling Bandits' (Lekang & Lamperski).

The names below are the package's public API. They are loaded on first use, not when the
package is imported: every command runs ``python -m duelbandits``, which imports this file,
and a command must load (and its rerun trigger cover) only the modules it runs.
"""

import importlib

_EXPORTS = {
    "ALGORITHMS": "algorithms",
    "AlgorithmError": "errors",
    "InputError": "errors",
    "REGRETS": "regret",
    "SCENARIOS": "scenarios",
    "MatrixError": "scenarios",
    "Scenario": "scenarios",
    "ScenarioError": "scenarios",
    "make_scenario": "scenarios",
    "validate_matrix": "scenarios",
    "SimulationError": "simulation",
    "SimulationResult": "simulation",
    "run_seed": "simulation",
    "simulate": "simulation",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    if name not in _EXPORTS:
        raise AttributeError(f"module 'duelbandits' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_EXPORTS))
