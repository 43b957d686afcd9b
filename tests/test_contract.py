"""duelbandits.contract: every built-in keeps the contract, and each way of breaking it is named.

The broken algorithms are plain-Python ``DuelingAlgorithm`` subclasses registered in this process
only (the fixture removes them again), each breaking one property on purpose.
"""

import dataclasses
import random

import numba
import numpy as np
import pytest

from duelbandits import algorithms, contract, plugins
from duelbandits.algorithms import BUILTINS, Algorithm, DuelingAlgorithm

REGRETS = {"condorcet": "maximin", "borda": "borda", "target": "copeland"}


@pytest.mark.parametrize("slug", list(BUILTINS))
def test_every_builtin_keeps_the_contract(slug):
    assert contract.check_algorithm(slug) == []


class Fine(DuelingAlgorithm):
    def select(self):
        return int(self.rng.integers(self.actions)), int(self.rng.integers(self.actions))

    def update(self, i, j, outcome):
        pass


class OutOfRange(Fine):
    def select(self):
        i, j = super().select()
        return (self.actions, j) if self.horizon > 0 and self.rng.random() < 0.05 else (i, j)


class NotIntegers(Fine):
    def select(self):
        return 1.9, 2.0


class GlobalRandom(Fine):
    def select(self):
        return int(np.random.randint(self.actions)), int(np.random.randint(self.actions))


class PythonRandom(Fine):
    def select(self):
        return random.randrange(self.actions), random.randrange(self.actions)


class Raises(Fine):
    def select(self):
        raise RuntimeError("its own bug")


@numba.njit
def _numba_duels(A, horizon):
    return np.random.randint(0, A, horizon), np.random.randint(0, A, horizon)


def numbaglobal(matrix, horizon, rng, record):
    """A kernel whose jitted part draws from numba's own global state, which numpy's does not show."""
    I, J = _numba_duels(matrix.shape[0], horizon)
    return I, J, (rng.random(horizon) < matrix[I, J]).astype(np.int8), {}


@numba.njit
def _untyped(A):
    return A.no_such_attribute


def numbatyping(matrix, horizon, rng, record):
    """A kernel numba cannot type: its error of tens of lines is one line naming the cause and the line."""
    return _untyped(matrix.shape[0])


class OwnGenerator(Fine):
    """Draws from a generator of its own, seeded once: the same duels whatever the run's seed."""

    def __init__(self, actions, horizon, rng):
        super().__init__(actions, horizon, np.random.default_rng(0))


SHARED = []


class SharedState(Fine):
    """Its first action cycles through a list that every instance shares: runs depend on earlier runs."""

    def select(self):
        SHARED.append(0)
        return len(SHARED) % self.actions, int(self.rng.integers(self.actions))


class UsesHorizon(Fine):
    """Plays among the first T / 100 actions: a run of T / 2 steps is not the start of one of T."""

    def select(self):
        width = max(1, min(self.actions, self.horizon // 100))
        return int(self.rng.integers(width)), int(self.rng.integers(width))


class BadLaw(Fine):
    def strategies(self):
        return {"p": np.full(self.actions, 1.0)}


def entry(slug, cls, **more):
    return Algorithm(slug, slug, "tests/test_contract.py", f"{__name__}:{cls.__name__}", REGRETS, "#000000", **more)


@pytest.fixture
def registered():
    added = []

    def add(spec):
        added.append(algorithms.register(spec).slug)
        return spec.slug

    yield add
    for slug in added:
        for table in (algorithms.ALGORITHMS, algorithms.OWN_TARGET_REGRET):
            table.pop(slug, None)
        for view in algorithms.PAPER_REGRET.values():
            view.pop(slug, None)


@pytest.mark.parametrize(
    ("cls", "more", "words"),
    [
        (Fine, {}, None),
        (OutOfRange, {}, "select() returned the duel (3, "),
        (NotIntegers, {}, "condorcet, A = 3: select() returned (1.9, 2.0) at step 1, not two integer actions"),
        (GlobalRandom, {}, "condorcet, A = 3: draws from numpy's global random state (np.random.*), not from its rng"),
        (numbaglobal, {}, "A = 3: draws from numba's global random state (np.random.* inside a jitted kernel), not"),
        (numbatyping, {}, "cannot compile it: TypingError: Unknown attribute 'no_such_attribute' of type int64 (test_"),
        (PythonRandom, {}, "borda, A = 7: draws from Python's global random state (the random module), not from"),
        (Raises, {}, "condorcet, A = 3: RuntimeError: its own bug"),  # a plugin's error, named by the caller
        (OwnGenerator, {}, "ignores its seed: another seed gave the same duels (is every draw from rng, and is what"),
        (SharedState, {}, "shares state between runs: the same seed gave other arrays after a run with another seed"),
        (UsesHorizon, {}, "breaks the prefix property: a run of T/2 steps is not the first half of a run of T (set"),
        (UsesHorizon, {"horizon_tuned": True}, None),  # declared: no prefix property asked
        (BadLaw, {"strategies": ("p",)}, "borda, A = 7: strategy 'p' is not a probability distribution"),
    ],
)
def test_each_broken_property_is_named_and_a_good_algorithm_passes(registered, cls, more, words):
    slug = registered(entry(f"toy-{cls.__name__.lower()}-{len(more)}", cls, **more))  # a class or a kernel
    problems = contract.check_algorithm(slug)
    if words is None:
        assert problems == []
    else:
        assert any(words in p for p in problems) and not any("\n" in p for p in problems), problems


def test_planning_runs_the_contract_once_per_version_of_a_plugins_code_and_of_the_contract(
    registered, tmp_path, monkeypatch
):
    """A pass is read back until the plugin's digest or the contract's own code (code_key) changes; one
    that cannot be recorded (its folder is a file: root can write even a read-only folder) only is not."""
    source = plugins.Source("toyplugin", "0.1", "0123456789abcdef")
    slug = registered(dataclasses.replace(entry("toy-planned", Fine), source=source))
    runs, passes = [], str(tmp_path / "work/.duelbandits/contract-passes.json")
    monkeypatch.setattr(contract, "check_algorithm", lambda slug: runs.append(slug) or [])
    assert contract.check_plugin(slug, passes) == [] and contract.check_plugin(slug, passes) == []
    assert runs == [slug]  # the second planning reads the pass
    edited = dataclasses.replace(source, digest="fedcba9876543210")
    algorithms.ALGORITHMS[slug] = dataclasses.replace(algorithms.ALGORITHMS[slug], source=edited)
    assert contract.check_plugin(slug, passes) == contract.check_plugin(slug, passes) == []
    assert runs == [slug] * 2  # an edit of its code: again, once
    monkeypatch.setattr(contract, "code_key", lambda: "another version")  # e.g. an edit of simulation.py
    assert contract.check_plugin(slug, passes) == contract.check_plugin(slug, passes) == []
    assert runs == [slug] * 3
    unwritable = tmp_path / "a-file" / "contract-passes.json"
    unwritable.parent.write_text("not a folder")
    assert contract.check_plugin(slug, str(unwritable)) == contract.check_plugin(slug, str(unwritable)) == []
    assert runs == [slug] * 5 and unwritable.parent.read_text() == "not a folder"


def test_a_random_state_first_seen_after_a_run_is_not_a_draw(registered, monkeypatch):
    """numba's state exists once a run has imported numba: it is compared from the next scenario on."""
    states = iter([{}, {"numba's": 1}, {"numba's": 1}, {"numba's": 1}])
    monkeypatch.setattr(contract, "_global_states", lambda: next(states))
    assert contract.check_algorithm(registered(entry("toy-numba-later", Fine))) == []


def test_register_refuses_a_taken_slug_and_a_bad_entry(registered):
    """(An entry's other checks: tests/test_plugins.py's BAD, through the same ``check``.)"""
    with pytest.raises(algorithms.AlgorithmError, match="'dts' is already registered"):
        algorithms.register(dataclasses.replace(entry("x", Fine), slug="dts"))
    with pytest.raises(algorithms.AlgorithmError, match="a slug is lower-case letters"):
        algorithms.register(entry("Toy_Bad", Fine))
