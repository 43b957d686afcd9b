"""The contract every algorithm keeps, checked for one registry entry: built-in, plugin or prototype.

``duelbandits check-algorithm SLUG`` runs :func:`check_algorithm`; a plugin's own tests can call it
too (``assert not check_algorithm("my-slug")``). The workflow runs :func:`smoke` on every plugin
algorithm a config selects, before any job, so that a plugin that breaks the contract stops the run
at planning with one line instead of failing inside a job.

What is checked, each on small matrices of the built-in scenarios (A = 3 and 7, T = 300):

- the outputs: int64 actions in ``[0, A)``, int8 outcomes in ``{0, 1}``, exactly ``horizon`` steps,
  one strategy row per recorded step for each player of the entry, each a distribution;
- the seeding: the same seed gives the same arrays, another seed other duels;
- no state shared between runs: a run repeated after another run with another seed is unchanged;
- the prefix property, for an algorithm not tuned to its horizon: the first steps of a longer run
  are the run of the shorter horizon;
- every regret kind it targets (its entry's ``regrets``) is defined and finite on its runs.
"""

from __future__ import annotations

import numpy as np

from . import regret
from .algorithms import get
from .errors import AlgorithmError
from .scenarios import make_scenario
from .simulation import recorded_steps, run_seed

HORIZON = 300
"""Steps of each contract run: enough for every built-in to leave its initial round robin at A = 7."""


def _run(spec, X, horizon: int, seed, stride: int = 50):
    record = recorded_steps(horizon, stride) if spec.strategies else np.zeros(0, np.int64)
    rng = np.random.default_rng(seed)
    return spec.run(X, horizon, rng, record, **spec.defaults), record


def _shape_problems(spec, X, horizon: int, out, record) -> list[str]:
    A = X.shape[0]
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


def smoke(slug: str, actions: int = 7, horizon: int = 100) -> list[str]:
    """The outputs' contract alone, on one condorcet matrix at ``actions`` (what planning checks)."""
    spec = get(slug)
    X = make_scenario("condorcet", actions=max(2, int(actions)), seed=0).matrix
    try:
        out, record = _run(spec, X, horizon, run_seed(0, "condorcet", slug, 0))
    except AlgorithmError as err:
        return [str(err)]
    return _shape_problems(spec, X, horizon, out, record)


def check_algorithm(slug: str) -> list[str]:
    """Every problem of algorithm ``slug`` with the contract, as lines (empty: it keeps it)."""
    spec = get(slug)
    problems: list[str] = []
    for scenario, A in (("condorcet", 3), ("borda", 7)):
        X = make_scenario(scenario, actions=A, seed=1).matrix
        where = f"{scenario}, A = {A}: "
        seeds = [run_seed(0, scenario, slug, run) for run in (0, 1, 0)]
        try:
            (first, record), (other, _), (again, _) = (_run(spec, X, HORIZON, seed) for seed in seeds)
        except AlgorithmError as err:
            return [where + str(err)]
        shape = _shape_problems(spec, X, HORIZON, first, record)
        problems += [where + p for p in shape]
        if shape:
            continue
        same = all(np.array_equal(a, b) for a, b in zip(first[:3], again[:3])) and all(
            np.array_equal(first[3][p], again[3][p]) for p in spec.strategies
        )
        if not same:
            problems.append(where + "the same seed gave other arrays after a run with another seed (shared state?)")
        if all(np.array_equal(a, b) for a, b in zip(first[:2], other[:2])):
            problems.append(
                where + "another seed gave the same duels (is every draw from rng, and is what it plays "
                "learned from the outcomes?)"
            )
        if not spec.horizon_tuned:
            (short, _), half = _run(spec, X, HORIZON // 2, seeds[0]), HORIZON // 2
            if not all(np.array_equal(a[:half], b) for a, b in zip(first[:3], short[:3])):
                problems.append(
                    where + "a run of T/2 steps is not the first half of a run of T (set horizon_tuned=True "
                    "if the algorithm uses its horizon)"
                )
        for view in sorted(set(spec.regrets.values())):
            values = regret.per_step(view, X, first[0], first[1])
            if not np.all(np.isfinite(values)):
                problems.append(where + f"its {view} regret is not finite")
    return problems
