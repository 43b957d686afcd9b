"""The scenarios: the registry of their entries, the paper's matrices (Section 5) and their siblings.

A scenario is one fixed matrix: it depends only on its seed and parameters, never on the algorithm or
the run (docs/paper.md, docs/beyond-the-paper.md); a plugin adds its own through :mod:`duelbandits.plugins`.
"""

from __future__ import annotations

from contextlib import nullcontext
from dataclasses import dataclass, field, replace

import numpy as np

from . import plugins, winners
from .errors import AlgorithmError, MatrixError, ScenarioError
from .matrices import BENCHMARKS, benchmark_matrix, fitted_utilities, read_matrix_file, validate_matrix
from .params import Param

DEFAULT_ACTIONS = 10
"""A of a generated scenario when ``actions`` is not given (docs/paper.md)."""

CYCLIC = {
    "copeland_beats_maximin": 0.6,
    "maximin_beats_borda": 0.7,
    "borda_beats_copeland": 0.8,
    "copeland_beats_others": 0.65,
    "maximin_vs_others": 0.45,
    "borda_loses_to_weakest": 0.45,
}
"""Fixed entries of the cyclic scenario (see :func:`cyclic_modification`); ``X[row, column]``."""

CYCLIC_MIN_ACTIONS = 5
"""The cyclic construction needs the three winners and at least two other actions."""

DEFAULTS = {"utility_max": 3.0, "margin": 0.5, "borda_strength": 0.95}
"""Scenario parameters and their paper values (docs/paper.md)."""

KINDS = ("utility", "generated", "benchmark", "file")
"""How a scenario's matrix is made: ``utility`` from the seed and :data:`DEFAULTS` (the paper's
logistic construction and its modifications), ``generated`` by a plugin's ``make(actions, rng)``,
``benchmark`` a published matrix of the package data, ``file`` a user's CSV."""


@dataclass(frozen=True)
class ScenarioEntry:
    """One scenario: slug, label, citation, ``kind`` (:data:`KINDS`), ``view`` (of
    ``duelbandits.algorithms.REGRET_VIEWS``), its smallest A, and for a plugin's ``generated`` scenario
    ``make``, ``"module:function"`` of ``make(actions, rng, **params) -> matrix``, and its ``params``
    (:class:`duelbandits.algorithms.Param` by name; docs/extending.md)."""

    slug: str
    label: str
    citation: str
    kind: str = "generated"
    view: str = "target"
    make: str | None = None
    min_actions: int = 2
    params: dict = field(default_factory=dict)
    source: plugins.Source | None = None

    def check(self) -> None:
        """A plugin's entry, at load (``duelbandits.plugins.load``): one line naming the first field at fault."""
        where = f"scenario {self.slug!r}"
        for name in ("slug", "label", "citation"):
            if not isinstance(getattr(self, name), str) or not getattr(self, name).strip():
                raise ScenarioError(f"{where}: {name} must be a non-empty string")
        if self.kind != "generated":
            raise ScenarioError(f"{where}: a plugin's scenario is of kind generated")
        if self.view not in ("condorcet", "borda", "target"):
            raise ScenarioError(f"{where}: view must be condorcet, borda or target")
        if not isinstance(self.make, str) or ":" not in self.make:
            raise ScenarioError(f"{where}: a generated scenario needs make = 'module:function'")
        if isinstance(self.min_actions, bool) or not isinstance(self.min_actions, int) or self.min_actions < 2:
            raise ScenarioError(f"{where}: min_actions must be an integer >= 2")
        if not isinstance(self.params, dict) or not all(isinstance(p, Param) for p in self.params.values()):
            raise ScenarioError(f"{where}: params must map each name to a duelbandits.algorithms.Param")
        for name, param in self.params.items():
            try:
                param.check(f"{where}: out-of-range default: {name}", param.default)
            except AlgorithmError as err:
                raise ScenarioError(str(err)) from None

    def identity(self) -> str:
        """The entry's fields as text, its parameters without their descriptions (which change no
        result; no parameters, no field: the text of an entry from before they existed): part of a
        plugin's digest (``duelbandits.plugins.files_digest``)."""
        fields = {**vars(self), "source": None}
        params = {name: replace(param, description="") for name, param in fields.pop("params").items()}
        return repr(sorted({**fields, **({"params": params} if params else {})}.items()))

    def parameters(self, params: dict) -> dict:
        """Its parameters' defaults overridden by ``params``, each checked against its range; an unknown
        name or a value out of range raises ScenarioError naming it."""
        unknown = sorted(set(params) - set(self.params))
        if unknown:
            allowed = f"its parameters are {', '.join(self.params)}" if self.params else "it takes none"
            raise ScenarioError(f"scenario {self.slug} has no parameter(s) {', '.join(unknown)}; {allowed}")
        try:
            given = {name: self.params[name].check(f"scenario {self.slug}: {name}", v) for name, v in params.items()}
        except AlgorithmError as err:
            raise ScenarioError(str(err)) from None
        return {**{name: p.default for name, p in self.params.items()}, **given}

    def with_source(self, source: plugins.Source) -> ScenarioEntry:
        return replace(self, source=source)

    @property
    def module(self) -> str | None:
        return self.make.partition(":")[0] if self.make else None


BUILTINS = {
    e.slug: e
    for e in (
        ScenarioEntry("condorcet", "Condorcet", "Lekang & Lamperski 2019, Section 5", "utility", "condorcet"),
        ScenarioEntry("borda", "Borda", "Lekang & Lamperski 2019, Section 5", "utility", "borda"),
        ScenarioEntry("cyclic", "Cyclic", "this project (docs/beyond-the-paper.md)", "utility", "target", None, 5),
        *(ScenarioEntry(name, name, source, "benchmark", "target") for name, (_, source) in BENCHMARKS.items()),
        ScenarioEntry("file", "File", "a user's CSV matrix (config matrix_file)", "file", "target"),
    )
}
"""The package's own scenarios."""


def _registries() -> dict:
    entries = {**BUILTINS, **plugins.load(plugins.SCENARIO_GROUP, ScenarioEntry, BUILTINS)}
    return {
        "REGISTRY": entries,
        "SCENARIOS": tuple(entries),
        "GENERATED": tuple(slug for slug, e in entries.items() if e.kind in ("utility", "generated")),
        "PARAMETERISED": tuple(slug for slug, e in entries.items() if e.kind == "utility"),
    }


_LAZY = plugins.LazyRegistry(__name__, ("REGISTRY", "SCENARIOS", "GENERATED", "PARAMETERISED"), _registries)


def __getattr__(name):
    """The registries, built on first use (:class:`duelbandits.plugins.LazyRegistry`): ``REGISTRY`` by slug
    (the built-ins, then the plugins'), ``SCENARIOS`` its slugs, ``GENERATED`` those drawn at the config's
    A, ``PARAMETERISED`` those built from :data:`DEFAULTS`."""
    return _LAZY.get(name)


def registry() -> dict:
    """``REGISTRY`` (for this module's own functions, whose global names skip ``__getattr__``)."""
    return _LAZY.get("REGISTRY")


@dataclass(frozen=True)
class Scenario:
    name: str
    matrix: np.ndarray = field(repr=False)
    utilities: np.ndarray
    params: dict


def logistic_matrix(utilities: np.ndarray) -> np.ndarray:
    """``X[i, j] = 1 / (1 + exp(u[j] - u[i]))`` (Section 5)."""
    u = np.asarray(utilities, dtype=float)
    return 1.0 / (1.0 + np.exp(u[None, :] - u[:, None]))


def condorcet_utilities(actions: int, rng: np.random.Generator, utility_max: float, margin: float):
    """The winner (at a uniform position) gets ``utility_max``; the rest are uniform on
    ``[0, utility_max - margin]``."""
    others = rng.uniform(0.0, utility_max - margin, size=actions - 1)
    winner = int(rng.integers(actions))
    return np.insert(others, winner, utility_max)


def _check_params(name: str, actions, params: dict) -> dict:
    if name not in registry():
        raise ScenarioError(f"unknown scenario {name!r}; valid scenarios: {', '.join(registry())}")
    unknown = sorted(set(params) - set(DEFAULTS))
    if unknown:
        raise ScenarioError(f"unknown scenario parameter(s) {', '.join(unknown)}; valid: {', '.join(DEFAULTS)}")
    if isinstance(actions, bool) or not isinstance(actions, (int, np.integer)) or actions < 2:
        raise ScenarioError(f"actions must be an integer >= 2, got {actions!r}")
    merged = {**DEFAULTS, **params}
    for key, value in merged.items():
        if isinstance(value, bool) or not isinstance(value, (int, float, np.number)) or not np.isfinite(value):
            raise ScenarioError(f"scenario parameter {key} must be a finite number, got {value!r}")
        merged[key] = float(value)
    if merged["utility_max"] <= 0:
        raise ScenarioError(f"utility_max must be > 0, got {merged['utility_max']:g}")
    if not 0 <= merged["margin"] < merged["utility_max"]:
        raise ScenarioError(
            f"margin must lie in [0, utility_max) = [0, {merged['utility_max']:g}), got {merged['margin']:g}"
        )
    if not 0.5 < merged["borda_strength"] <= 1:
        raise ScenarioError(f"borda_strength must lie in (0.5, 1], got {merged['borda_strength']:g}")
    return merged


def make_scenario(name: str, actions: int | None = None, seed=0, *, path=None, **params) -> Scenario:
    """Build the named scenario's preference matrix; ``params`` override :data:`DEFAULTS`. The ``file``
    scenario reads the CSV file ``path``, a :data:`BENCHMARKS` scenario the package data: A comes from
    the matrix (an ``actions`` given must equal it) and ``seed`` and ``params`` do not apply."""
    if name == "file":  # keyed by the matrix's content (its sha256 in every file's provenance), not the path
        return _fixed("file", read_matrix_file(path), actions, params, f"matrix file {path}: has")
    if name in BENCHMARKS and path is None:
        return _fixed(name, benchmark_matrix(name), actions, params, f"scenario {name} has", source=BENCHMARKS[name][1])
    if path is not None:
        raise ScenarioError(f"path applies only to the file scenario, not to {name!r}")
    actions = DEFAULT_ACTIONS if actions is None else actions
    entry = registry().get(name)
    if entry is not None and entry.kind == "generated":
        return generated_scenario(entry, actions, seed, params)
    merged = _check_params(name, actions, params)
    if name == "cyclic" and actions < CYCLIC_MIN_ACTIONS:
        raise ScenarioError(f"cyclic scenario needs at least {CYCLIC_MIN_ACTIONS} actions, got {actions}")
    rng = np.random.default_rng(seed)
    u = condorcet_utilities(int(actions), rng, merged["utility_max"], merged["margin"])
    X = logistic_matrix(u)
    if name == "borda":
        X = borda_modification(X, u, merged["borda_strength"])
    elif name == "cyclic":
        X = cyclic_modification(X, u, merged["borda_strength"])
    return Scenario(name=name, matrix=X, utilities=u, params={"actions": int(actions), **merged})


def cyclic_modification(matrix: np.ndarray, utilities: np.ndarray, strength: float) -> np.ndarray:
    """Rewire the three best actions ``a, b, c`` into a cycle whose Copeland, Maximin and Borda winners
    are ``a, b, c`` (docs/beyond-the-paper.md, "More scenarios"; the entries are :data:`CYCLIC`).
    Raises ScenarioError unless the result has those unique winners (then no Condorcet winner exists).
    """
    k = CYCLIC
    # mutmut equivalent: argsort kind: continuous uniform utilities have no ties
    order = np.argsort(utilities, kind="stable")[::-1]  # pragma: no mutate
    a, b, c = (int(i) for i in order[:3])
    others = [int(i) for i in order[3:]]
    weakest = others[-1]
    X = matrix.copy()

    def put(i, j, value):
        X[i, j], X[j, i] = value, 1.0 - value

    put(a, b, k["copeland_beats_maximin"])
    put(b, c, k["maximin_beats_borda"])
    put(c, a, k["borda_beats_copeland"])
    for o in others:
        put(a, o, k["copeland_beats_others"])
        put(b, o, k["maximin_vs_others"])
        put(c, o, k["borda_loses_to_weakest"] if o == weakest else strength)
    for kind, expected in {"copeland": [a], "maximin": [b], "borda": [c]}.items():
        found = winners.WINNERS[kind](X).tolist()
        if found != expected:
            notion = kind.capitalize()
            raise ScenarioError(
                f"cyclic scenario: action {expected[0]} is not the unique {notion} winner "
                f"({notion} winners: {found}); raise borda_strength or lower utility_max"
            )
    return X


def _fixed(name: str, X, actions, params, where: str, **more) -> Scenario:
    """The scenario of a matrix of its own A (a file's or a benchmark's), which ``actions`` (if given) must
    equal; its utilities fitted (:func:`fitted_utilities`)."""
    A = X.shape[0]  # pragma: no mutate -- shape[1] for shape[0]: checked square before
    if actions is not None and not isinstance(actions, bool) and actions != A:
        raise ScenarioError(f"{where} {A} actions, but actions = {actions} was asked for")
    _check_params(name, A if actions is None else actions, dict(params or {}))
    return Scenario(name=name, matrix=X, utilities=fitted_utilities(X), params={"actions": A, **more})


def borda_modification(matrix: np.ndarray, utilities: np.ndarray, strength: float) -> np.ndarray:
    """Make ``i2`` (second-largest utility) the Borda winner (Section 5); ScenarioError unless ``i2`` is
    then the unique Borda winner and ``i*`` the unique Condorcet and Maximin winner."""
    # mutmut equivalent: argsort kind: continuous uniform utilities have no ties
    order = np.argsort(utilities, kind="stable")  # pragma: no mutate
    i_star, i2 = int(order[-1]), int(order[-2])
    X = matrix.copy()
    # mutmut equivalent: shape[1] for shape[0]: checked square before
    others = [j for j in range(X.shape[0]) if j not in (i2, i_star)]  # pragma: no mutate
    X[i2, others] = strength
    X[others, i2] = 1.0 - strength
    borda = winners.borda_winners(X)
    maximin = winners.maximin_winners(X)
    if list(borda) != [i2]:
        raise ScenarioError(
            f"borda scenario: action {i2} (second-largest utility) is not the unique Borda winner "
            f"(Borda winners: {borda.tolist()}); raise borda_strength or the number of actions, "
            "or choose another seed"
        )
    if winners.condorcet_winner(X) != i_star or list(maximin) != [i_star]:
        raise ScenarioError(
            f"borda scenario: action {i_star} is no longer the unique Condorcet and Maximin winner; "
            "increase margin or utility_max"
        )
    return X


def generated_scenario(entry: ScenarioEntry, actions, seed, params: dict) -> Scenario:
    """A plugin's generated scenario: ``make(actions, rng, **params)`` with ``rng`` seeded from (``seed``,
    slug) and the entry's parameters (``params`` over their defaults; none passed if it declares none),
    its matrix validated; utilities fitted (:func:`fitted_utilities`) as for a file's matrix."""
    import importlib

    params = entry.parameters(params)
    if isinstance(actions, bool) or not isinstance(actions, (int, np.integer)) or actions < entry.min_actions:
        raise ScenarioError(
            f"scenario {entry.slug} needs an integer number of actions >= {entry.min_actions}, got {actions!r}"
        )
    module, _, function = entry.make.partition(":")
    try:
        with plugins.foreign(entry) if entry.source is not None else nullcontext():
            make = getattr(importlib.import_module(module), function)
    except (ImportError, AttributeError) as err:
        raise ScenarioError(f"scenario {entry.slug}: cannot load {entry.make}: {err}") from None
    if isinstance(seed, np.random.SeedSequence):
        rng = np.random.default_rng(seed)
    else:
        rng = np.random.default_rng(np.random.SeedSequence([int(seed), int.from_bytes(entry.slug.encode(), "little")]))
    try:
        with plugins.foreign(entry) if entry.source is not None else nullcontext():
            X = validate_matrix(make(int(actions), rng, **params))
    except MatrixError as err:
        raise ScenarioError(f"scenario {entry.slug} ({entry.make}): {err}") from None
    if X.shape[0] != actions:  # pragma: no mutate -- shape[1] for shape[0]: checked square before
        raise ScenarioError(
            # mutmut equivalent: shape[1] in the message: checked square before
            f"scenario {entry.slug}: make({actions}, rng) returned a {X.shape[0]} x {X.shape[0]} matrix"  # noqa: E501  # pragma: no mutate
        )
    return Scenario(entry.slug, X, fitted_utilities(X), params={"actions": int(actions), **params})
