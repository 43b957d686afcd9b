"""The contract every algorithm keeps, checked for one registry entry: built-in, plugin or prototype.

``duelbandits check-algorithm SLUG`` runs :func:`check_algorithm`; planning runs :func:`check_plugin`
on every plugin algorithm a config selects. What is checked: docs/extending.md.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import pickle
import random
import sys
from pathlib import Path

import numpy as np

from . import plugins, regret, scenarios, simulation
from .algorithms import get
from .errors import InputError
from .scenarios import make_scenario
from .simulation import call, output_problems, recorded_steps, run_seed

HORIZON = 300
"""Steps of each contract run: enough for every built-in to leave its initial round robin at A = 7."""


def _global_states() -> dict:
    """The global random states a run could draw from instead of its rng, by the name a problem gives
    them, each comparable (a draw changes it): numpy's (``np.random.*``), numba's (``np.random.*``
    inside a jitted kernel, a state of numba's own) and Python's (the ``random`` module)."""
    states = {
        "numpy's global random state (np.random.*)": pickle.dumps(np.random.get_state()),  # its arrays as bytes
        "Python's global random state (the random module)": random.getstate(),
    }
    if "numba" in sys.modules:  # a kernel that draws from it has imported numba
        try:  # numba's private API: a numba without it checks the other states (its test row then fails)
            from numba import _helperlib as numba_states

            pointers = (numba_states.rnd_get_np_state_ptr(), numba_states.rnd_get_py_state_ptr())
            states["numba's global random state (np.random.* inside a jitted kernel)"] = tuple(
                numba_states.rnd_get_state(pointer) for pointer in pointers
            )
        except (ImportError, AttributeError):  # pragma: no mutate -- a numba that has the API never gets here
            pass
    return states


# mutmut equivalent: any stride records some steps to check; an algorithm without strategies ignores record
def _run(spec, X, horizon: int, seed, stride: int = 50):  # pragma: no mutate
    record = recorded_steps(horizon, stride) if spec.strategies else np.zeros(0, np.int64)  # pragma: no mutate -- above
    return call(spec, X, horizon, np.random.default_rng(seed), record, spec.defaults), record


def check_algorithm(slug: str) -> list[str]:
    """Every problem of algorithm ``slug`` with the contract, as lines (empty: it keeps it)."""
    spec = get(slug)
    problems: list[str] = []
    for scenario, A in (("condorcet", 3), ("borda", 7)):
        X = make_scenario(scenario, actions=A, seed=1).matrix  # pragma: no mutate -- any seed's matrix does
        where = f"{scenario}, A = {A}: "
        seeds = [run_seed(0, scenario, slug, run) for run in (0, 1, 0)]  # pragma: no mutate -- any 2 seeds do
        before = _global_states()
        try:
            (first, record), (other, _), (again, _) = (_run(spec, X, HORIZON, seed) for seed in seeds)
        except InputError as err:  # a plugin's own error, or a plain algorithm's bad duel: named by the caller
            return [where + str(err).removeprefix(f"{plugins.named(spec)}: ").removeprefix(f"{slug}: ")]
        shape = output_problems(spec, A, HORIZON, first, record)
        problems += [where + p for p in shape]
        if shape:
            continue
        # mutmut equivalent (here and at the next two zips): zip stops at the shorter, so a longer slice of
        # one side compares nothing more
        same = all(np.array_equal(a, b) for a, b in zip(first[:3], again[:3])) and all(  # pragma: no mutate
            np.array_equal(first[3][p], again[3][p]) for p in spec.strategies
        )
        # numba's state exists only once numba is imported, which the first run may do: the next scenario checks it
        drawn = [name for name, state in _global_states().items() if state != before.get(name, state)]
        problems += [f"{where}draws from {name}, not from its rng" for name in drawn]
        if not same and not drawn:
            problems.append(
                where + "shares state between runs: the same seed gave other arrays after a run with another "
                "seed (a module- or class-level variable?)"
            )
        if all(np.array_equal(a, b) for a, b in zip(first[:2], other[:2])):  # pragma: no mutate -- zip, above
            problems.append(
                where + "ignores its seed: another seed gave the same duels (is every draw from rng, and is "
                "what it plays learned from the outcomes?)"
            )
        if not spec.horizon_tuned:
            (short, _), half = _run(spec, X, HORIZON // 2, seeds[0]), HORIZON // 2
            if not all(np.array_equal(a[:half], b) for a, b in zip(first[:3], short[:3])):  # pragma: no mutate -- zip
                problems.append(
                    where + "breaks the prefix property: a run of T/2 steps is not the first half of a run of "
                    "T (set horizon_tuned=True if the algorithm uses its horizon)"
                )
    return problems


PASSES = ".duelbandits/contract-passes.json"
"""Where planning records the plugin algorithms that kept the contract (:func:`check_plugin`)."""


def code_key() -> str:
    """sha256 of the sources of the contract's own checks (this module and the simulation, regret and
    scenario modules it runs): a pass recorded under another key does not count."""
    sha = hashlib.sha256()
    for file in (__file__, simulation.__file__, regret.__file__, scenarios.__file__):
        sha.update(Path(file).read_bytes() + b"\0")  # pragma: no mutate -- any separator keeps the files apart
    return sha.hexdigest()[:16]  # pragma: no mutate -- a key is only compared: any prefix of the hash does


def check_plugin(slug: str, passes: str = PASSES) -> list[str]:
    """:func:`check_algorithm` of the installed plugin's algorithm ``slug``, run once per version of its
    code: a pass is recorded in ``passes`` under the plugin's digest and :func:`code_key`, so a second
    planning runs nothing until either changes. A record that cannot be written only means the
    contract runs again next time."""
    source = get(slug).source
    key = f"{source.distribution}=={source.version}:{source.digest} contract {code_key()}"
    path = Path(passes)
    try:
        passed = dict(json.loads(path.read_text()))
    except (OSError, ValueError, TypeError):  # none yet, or not a record: check afresh
        passed = {}
    if passed.get(slug) == key:
        return []
    problems = check_algorithm(slug)
    if not problems:
        part = path.with_name(f"{path.name}.{os.getpid()}")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            # mutmut equivalent: the record's layout is for a person reading it; any layout reads back the same
            part.write_text(json.dumps({**passed, slug: key}, indent=1, sort_keys=True) + "\n")  # pragma: no mutate
            os.replace(part, path)  # whole or absent, even with two plannings at once
        except OSError:  # a read-only folder or a full disk: not recorded, and planning goes on
            with contextlib.suppress(OSError):
                part.unlink()
    return problems
