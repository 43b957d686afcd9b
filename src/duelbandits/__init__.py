"""Dueling-bandit simulations of 'Simple Algorithms for Dueling Bandits' (Lekang & Lamperski).

The names below are the package's public API. They are loaded on first use, not when the
package is imported: every command runs ``python -m duelbandits``, which imports this file,
and a command must load (and its rerun trigger cover) only the modules it runs.
"""

import importlib
import sys

_EXPORTS = {
    "ALGORITHMS": "algorithms",
    "AlgorithmError": "errors",
    "InputError": "errors",
    "REGRETS": "regret",
    "SCENARIOS": "scenarios",
    "MatrixError": "errors",
    "Scenario": "scenarios",
    "ScenarioError": "errors",
    "make_scenario": "scenarios",
    "validate_matrix": "matrices",
    "SimulationError": "simulation",
    "SimulationResult": "simulation",
    "run_seed": "simulation",
    "simulate": "simulation",
}


def __getattr__(name: str):
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
    setattr(sys.modules[__name__], name, value)  # loaded once
    return value


__all__ = sorted(_EXPORTS)


def __dir__():
    return sorted(set(globals()) | set(_EXPORTS))
