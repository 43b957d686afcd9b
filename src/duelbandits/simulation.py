"""One simulated run of one algorithm on one preference matrix."""

from __future__ import annotations

from contextlib import nullcontext
from dataclasses import dataclass, field

import numpy as np

from . import algorithms, plugins
from .errors import InputError
from .matrices import validate_matrix

DEFAULT_STRIDE = 40
"""Record strategies every this many steps (1,000 points at T = 40,000)."""


class SimulationError(InputError):
    """A simulation's horizon, stride or seed is invalid."""


@dataclass(frozen=True)
class SimulationResult:
    algorithm: str
    I: np.ndarray
    J: np.ndarray
    outcomes: np.ndarray
    strategy_steps: np.ndarray
    strategies: dict = field(default_factory=dict)
    params: dict = field(default_factory=dict)

    @property
    def horizon(self) -> int:
        return int(self.I.shape[0])


def name_seed(base_seed: int, *parts) -> np.random.SeedSequence:
    """A seed from the config's base seed and names or numbers: ``SeedSequence([base, *parts])``
    with each name turned into an integer from its UTF-8 bytes (``hash()`` is salted per process)."""
    keys = [int.from_bytes(p.encode("utf-8"), "little") if isinstance(p, str) else int(p) for p in parts]
    return np.random.SeedSequence([int(base_seed), *keys])


def run_seed(base_seed: int, scenario: str, algorithm: str, run: int) -> np.random.SeedSequence:
    """The seed of one run, a function of (base seed, scenario, algorithm, run) alone: any subset of
    runs reproduces the same streams as the full sweep."""
    return name_seed(base_seed, scenario, algorithm, int(run))


def recorded_steps(horizon: int, stride: int) -> np.ndarray:
    """1-based steps whose strategies are stored: ``1, 1 + stride, ...`` and always ``horizon``."""
    return np.unique(np.r_[np.arange(1, horizon + 1, stride), horizon]).astype(np.int64)


def _check_positive_int(name: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise SimulationError(f"{name} must be an integer >= 1, got {value!r}")
    return int(value)


def call(spec, X, horizon: int, rng, record, hyper: dict):
    """``spec.run(X, horizon, rng, record, **hyper)``; a plugin's own exception is one line naming it."""
    with plugins.foreign(spec) if spec.family == "plugin" else nullcontext():
        return spec.run(X, horizon, rng, record, **hyper)


def output_problems(spec, A: int, horizon: int, out, record) -> list[str]:
    """What is impossible in the outputs ``out`` of a run of ``spec`` (the contract's outputs, docs/extending.md):
    int64 actions in ``[0, A)``, int8 outcomes in ``{0, 1}``, ``horizon`` steps, one strategy row per
    recorded step for each of its players, each a distribution. Empty when none."""
    try:
        I, J, outcomes, strategies = out
    except (TypeError, ValueError):
        return [f"run returned {type(out).__name__}, not (I, J, outcomes, strategies)"]
    problems = []
    for name, arr, dtype in (("I", I, np.int64), ("J", J, np.int64), ("outcomes", outcomes, np.int8)):
        arr = np.asarray(arr)
        if arr.shape != (horizon,):
            problems.append(f"{name} has shape {arr.shape}, not ({horizon},): one entry per step")
        elif arr.dtype != dtype:
            problems.append(f"{name} is {arr.dtype}, not {np.dtype(dtype)}")
    if problems:
        return problems
    bad = np.flatnonzero((I < 0) | (I >= A) | (J < 0) | (J >= A))
    if len(bad):
        t = int(bad[0])
        problems.append(f"the duel of step {t + 1} is ({int(I[t])}, {int(J[t])}), outside [0, {A})")
    if not set(np.unique(outcomes)) <= {0, 1}:
        problems.append("outcomes must be 0 or 1")
    if not isinstance(strategies, dict) or set(strategies) != set(spec.strategies):
        problems.append(f"strategies must be a dict with the players {list(spec.strategies)}")
        return problems
    for player, law in strategies.items():
        law = np.asarray(law)
        if law.shape != (len(record), A):
            problems.append(f"strategy {player!r} has shape {law.shape}, not ({len(record)}, {A})")
        elif not (np.all(law >= -1e-12) and np.allclose(law.sum(axis=1), 1.0, atol=1e-9)):
            problems.append(f"strategy {player!r} is not a probability distribution at every recorded step")
    return problems


def simulate(matrix, algorithm: str, horizon: int, seed, *, stride: int = DEFAULT_STRIDE, **params):
    """Run ``algorithm`` for ``horizon`` steps on the preference ``matrix``: every draw comes from the
    generator ``seed`` (an int or a SeedSequence) seeds; ``params`` are its hyper-parameters."""
    X = np.ascontiguousarray(validate_matrix(matrix))
    spec = algorithms.get(algorithm)
    hyper = spec.hyperparameters(**params)
    horizon = _check_positive_int("horizon", horizon)
    stride = _check_positive_int("stride", stride)
    if not isinstance(seed, np.random.SeedSequence):
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
            raise SimulationError(f"seed must be a non-negative integer or a SeedSequence, got {seed!r}")
    rng = np.random.default_rng(seed)
    record = recorded_steps(horizon, stride) if spec.strategies else np.zeros(0, dtype=np.int64)
    out = call(spec, X, horizon, rng, record, hyper)
    if spec.family == "plugin":  # a plugin's outputs, checked where they enter: nothing impossible is written
        problems = output_problems(spec, X.shape[0], horizon, out, record)
        if problems:
            raise plugins.PluginError(f"{plugins.named(spec)}: {problems[0]}")
    I, J, outcomes, strategies = out
    return SimulationResult(
        algorithm=algorithm, I=I, J=J, outcomes=outcomes, strategy_steps=record, strategies=strategies, params=hyper
    )


def compile_kernels(algorithm: str) -> None:
    """Compile ``algorithm``'s kernels into numba's on-disk cache, or load them from it: one short run with
    the argument types of a real job (kernels are typed, not sized), as the compile job and
    ``bench/bench_algorithms.py --compile`` do."""
    import warnings

    matrix = [[0.5, 0.6, 0.7], [0.4, 0.5, 0.6], [0.3, 0.4, 0.5]]
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*too short for Theorem")  # tuning clipped at T = 64: no result
        simulate(matrix, algorithm, 64, 0, stride=8)
