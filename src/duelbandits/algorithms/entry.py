"""What an algorithm entry is: :class:`Algorithm` (slug, label, citation, how it runs, its
hyper-parameters as :class:`Param`, the regret it targets per kind of scenario, its theorem, colour),
and the plain-Python :class:`DuelingAlgorithm` that :func:`python_run` turns into a kernel, a
``run(matrix, horizon, rng, record, **hyper) -> (I, J, outcomes, strategies)`` (docs/extending.md).
"""

from __future__ import annotations

import importlib
import operator
from contextlib import nullcontext
from dataclasses import dataclass, field, replace

import numpy as np

from .. import plugins
from ..errors import AlgorithmError
from ..params import Param

REGRET_VIEWS = ("condorcet", "borda", "target")
"""The kinds of scenario an algorithm's regret is chosen for (``Algorithm.regrets``): ``condorcet``
(the paper's Figure 1), ``borda`` (Figure 2), and ``target``: any other scenario, where an algorithm
is measured against the winner it is built to find. Each scenario entry says which view it takes."""

REGRET_KINDS = ("maximin", "borda", "exp3p", "copeland")
"""The regret kinds an entry may name: the keys of :data:`duelbandits.regret.REGRETS` (a test keeps them
equal; not imported, so that an edit of the regrets reruns no simulation)."""


FAMILIES = ("paper", "field", "plugin")
"""``paper``: the paper's four algorithms and its two baselines; ``field``: the field's algorithms
beyond the paper (target ``field``); ``plugin``: an installed plugin's."""


class DuelingAlgorithm:
    """Base class of a plain-Python algorithm, for prototyping (docs/extending.md): each step ``select()``
    returns the duel ``(i, j)`` (0-based), ``update(i, j, outcome)`` learns its result (1 when ``i`` won),
    and an algorithm with ``strategies`` returns ``{player: law}`` from ``strategies()`` after ``select()``;
    every draw comes from ``self.rng``, the horizon is used only by a ``horizon_tuned`` entry."""

    def __init__(self, actions: int, horizon: int, rng: np.random.Generator, **hyper):
        self.actions, self.horizon, self.rng = actions, horizon, rng

    def select(self) -> tuple[int, int]:  # pragma: no cover - the subclass's
        raise NotImplementedError

    def update(self, i: int, j: int, outcome: int) -> None:  # pragma: no cover - the subclass's
        raise NotImplementedError

    def strategies(self) -> dict:
        return {}


def python_run(cls: type[DuelingAlgorithm], slug: str, players: tuple[str, ...]):
    """The kernel-contract ``run`` of the plain-Python algorithm ``cls``: the same outcomes draw as the
    kernels (``rng.random() < X[i, j]``, after the algorithm's own draws of the step), the same
    outputs; an action outside ``[0, A)`` or a wrong strategy raises AlgorithmError naming ``slug``."""

    def run(matrix, horizon, rng, record=None, **hyper):
        X = np.asarray(matrix, dtype=np.float64)
        A = X.shape[0]
        record = np.zeros(0, np.int64) if record is None else np.asarray(record, dtype=np.int64)
        I = np.empty(horizon, dtype=np.int64)
        J = np.empty(horizon, dtype=np.int64)
        outcomes = np.empty(horizon, dtype=np.int8)
        kept = {p: np.empty((len(record), A)) for p in players}
        algorithm = cls(A, horizon, rng, **hyper)
        k = 0
        for t in range(horizon):
            duel = algorithm.select()
            try:
                i, j = (operator.index(a) for a in duel)  # an integer type: 1.9 is no action, nor is 2.0
            except (TypeError, ValueError):
                raise AlgorithmError(
                    f"{slug}: select() returned {duel!r} at step {t + 1}, not two integer actions"
                ) from None
            if not (0 <= i < A and 0 <= j < A):
                raise AlgorithmError(f"{slug}: select() returned the duel ({i}, {j}) at step {t + 1}, outside [0, {A})")
            if k < len(record) and record[k] == t + 1:
                laws = algorithm.strategies()
                for p in players:
                    law = np.asarray(laws.get(p, ()), dtype=np.float64)
                    if law.shape != (A,):
                        raise AlgorithmError(f"{slug}: strategies()[{p!r}] at step {t + 1} is not {A} probabilities")
                    kept[p][k] = law
                k += 1
            o = 1 if rng.random() < X[i, j] else 0
            algorithm.update(i, j, o)
            I[t], J[t], outcomes[t] = i, j, o
        return I, J, outcomes, kept

    return run


@dataclass(frozen=True)
class Algorithm:
    """Everything the pipeline knows about one algorithm: ``implementation`` is ``"module:name"`` of a
    kernel-contract ``run`` or a :class:`DuelingAlgorithm` subclass, imported on first use; ``regrets``
    maps each of :data:`REGRET_VIEWS` to a regret kind; ``theorem`` its bound, if any; ``horizon_tuned``
    whether it uses the horizon (then a run is not a prefix of a longer one). Its costs are measured
    (:mod:`duelbandits.resources`)."""

    slug: str
    label: str
    citation: str
    implementation: str
    regrets: dict
    color: str
    params: dict = field(default_factory=dict)
    strategies: tuple[str, ...] = ()
    theorem: object = None
    horizon_tuned: bool = False
    family: str = "plugin"
    source: plugins.Source | None = None

    def check(self) -> None:
        """Refuse an incomplete or inconsistent entry (AlgorithmError naming the field)."""
        where = f"algorithm {self.slug!r}"
        for name in ("slug", "label", "citation", "implementation", "color"):
            if not isinstance(getattr(self, name), str) or not getattr(self, name).strip():
                raise AlgorithmError(f"{where}: {name} must be a non-empty string")
        if not all(c.islower() or c.isdigit() or c == "-" for c in self.slug) or not self.slug[0].isalpha():
            raise AlgorithmError(f"{where}: a slug is lower-case letters, digits and '-', starting with a letter")
        if ":" not in self.implementation:
            raise AlgorithmError(f"{where}: implementation must be 'module:name', got {self.implementation!r}")
        if not isinstance(self.regrets, dict) or sorted(self.regrets) != sorted(REGRET_VIEWS):
            raise AlgorithmError(f"{where}: regrets must map each of {', '.join(REGRET_VIEWS)} to a regret kind")
        bad = sorted(v for v in self.regrets.values() if v not in REGRET_KINDS)
        if bad:
            raise AlgorithmError(
                f"{where}: unknown regret kind(s) {', '.join(map(str, bad))}; kinds: {', '.join(REGRET_KINDS)}"
            )
        if not isinstance(self.params, dict) or not all(isinstance(p, Param) for p in self.params.values()):
            raise AlgorithmError(f"{where}: params must map each name to a duelbandits.algorithms.Param")
        for name, param in self.params.items():
            param.check(f"{where}: out-of-range default: {name}", param.default)
        if self.theorem is not None and not isinstance(self.theorem, str):
            if not all(hasattr(self.theorem, name) for name in ("name", "regret", "bound", "exponent", "holds")):
                raise AlgorithmError(f"{where}: theorem must be a paper theorem's name or a theorems.Theorem")
            if self.theorem.regret not in self.regrets.values():
                raise AlgorithmError(
                    f"{where}: its theorem bounds the {self.theorem.regret} regret, which it targets nowhere"
                )
        if self.family not in FAMILIES:
            raise AlgorithmError(f"{where}: family must be one of {', '.join(FAMILIES)}")
        if not isinstance(self.strategies, tuple) or not all(p in ("p", "q") for p in self.strategies):
            raise AlgorithmError(f"{where}: strategies must be a tuple of 'p' and 'q' (the players' laws)")

    def identity(self) -> str:
        """The entry's fields as text, the same in every process (a theorem by its name and formula's
        name, a parameter without its description, which changes no result): part of a plugin's digest,
        so that editing its entry reruns its jobs."""
        theorem = (
            self.theorem
            if self.theorem is None or isinstance(self.theorem, str)
            else (self.theorem.name, self.theorem.regret, self.theorem.exponent)
        )
        params = {name: replace(param, description="") for name, param in self.params.items()}
        fields = {**vars(self), "theorem": theorem, "params": params, "source": None}
        return repr(sorted(fields.items()))

    def with_source(self, source: plugins.Source) -> Algorithm:
        return replace(self, family="plugin", source=source)

    @property
    def defaults(self) -> dict:
        """``{name: default}`` of the hyper-parameters."""
        return {name: p.default for name, p in self.params.items()}

    @property
    def module(self) -> str:
        """The module of the implementation, as imported."""
        return self.implementation.partition(":")[0]

    def load(self):
        """The implementation object: a kernel ``run`` or a :class:`DuelingAlgorithm` subclass."""
        module, _, name = self.implementation.partition(":")
        try:
            with plugins.foreign(self) if self.family == "plugin" else nullcontext():  # a plugin module's import
                return getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError) as err:
            raise AlgorithmError(f"algorithm {self.slug}: cannot load {self.implementation}: {err}") from None

    @property
    def run(self):
        """The kernel-contract ``run`` (a plain-Python :class:`DuelingAlgorithm`'s through :func:`python_run`)."""
        impl = self.load()
        if isinstance(impl, type) and issubclass(impl, DuelingAlgorithm):
            return python_run(impl, self.slug, self.strategies)
        return impl

    def hyperparameters(self, **params) -> dict:
        """Defaults overridden by ``params``, each checked against its range; unknown names raise
        AlgorithmError."""
        unknown = sorted(set(params) - set(self.params))
        if unknown:
            allowed = ", ".join(self.params) or "none"
            raise AlgorithmError(f"algorithm {self.slug} has no parameter(s) {', '.join(unknown)}; allowed: {allowed}")
        given = {name: self.params[name].check(f"{self.slug}: {name}", value) for name, value in params.items()}
        return {**self.defaults, **given}
