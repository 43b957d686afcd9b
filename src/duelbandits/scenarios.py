"""Preference-matrix scenarios of the paper (Section 5) and matrix validation.

A scenario is one fixed matrix: it depends only on its seed and parameters,
never on the algorithm or the run. ``condorcet`` and ``borda`` built from the
same seed share their utilities, so the borda matrix is the condorcet matrix
modified as in Section 5. Beyond the paper, ``cyclic`` modifies the same
matrix so that no Condorcet winner exists and the Copeland, Maximin and Borda
winners are three different actions; ``arithmetic`` and ``mslr5`` are the
field's published benchmark matrices (:data:`BENCHMARKS`), shipped as package
data; and ``file`` reads a user's matrix from a CSV file.

Each scenario is one :class:`ScenarioEntry` of :data:`REGISTRY` (its slug, label, citation, how its
matrix is made, which regret view its figures take); a plugin package adds generated scenarios
through the ``duelbandits.scenarios`` entry-point group (:mod:`duelbandits.plugins`).
"""

from __future__ import annotations

import csv
from contextlib import nullcontext
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path

import numpy as np

from . import plugins, winners
from .errors import InputError, why_unreadable

BENCHMARKS = {
    "arithmetic": (
        "arithmetic.csv",
        "Komiyama et al. (COLT 2015), RMED experiments: X[i, j] = 0.5 + 0.05 (j - i); action 0 the Condorcet winner",
    ),
    "mslr5": (
        "mslr5.csv",
        "Wu & Liu (NeurIPS 2016), DTS experiments: 5 MSLR rankers, action 0 (the first ranker) the Condorcet winner",
    ),
}
"""Published benchmark matrices: name -> (file in ``duelbandits/data``, one-line source). Each file's
``#`` header cites the publication and the repository, path and commit its numbers come from."""

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

MATRIX_ATOL = 1e-12
"""Tolerance of the preference-matrix identities (``X + X^T = 1``, diagonal 1/2) of computed matrices."""

FILE_ATOL = 1e-6
"""Tolerance of the same identities for a matrix read from a file: spreadsheets and exports write
6 or 7 decimals, and two entries rounded to 6 decimals miss a sum of 1 by up to 1e-6. A matrix
within this tolerance but not within :data:`MATRIX_ATOL` is then symmetrised
(``X <- (X + 1 - X^T) / 2``, diagonal 1/2), so every algorithm sees a preference matrix."""


class ScenarioError(InputError):
    """A scenario's name or parameters are invalid."""


class MatrixError(InputError):
    """An array is not a preference matrix; ``position`` is the ``(i, j)`` entry at fault, if one is."""

    def __init__(self, message: str, position: tuple[int, int] | None = None):
        super().__init__(message)
        self.position = position


KINDS = ("utility", "generated", "benchmark", "file")
"""How a scenario's matrix is made: ``utility`` from the seed and :data:`DEFAULTS` (the paper's
logistic construction and its modifications), ``generated`` by a plugin's ``make(actions, rng)``,
``benchmark`` a published matrix of the package data, ``file`` a user's CSV."""


@dataclass(frozen=True)
class ScenarioEntry:
    """One scenario: slug, label, citation, ``kind`` (:data:`KINDS`), ``view`` (the regret each
    algorithm is measured by on it: ``condorcet``, ``borda`` or ``target``, see
    ``duelbandits.algorithms.REGRET_VIEWS``), the smallest A it is built for, and, for a plugin's
    ``generated`` scenario, ``make``: ``"module:function"`` of ``make(actions, rng) -> matrix``
    (the generator is seeded from the config's seed and the slug)."""

    slug: str
    label: str
    citation: str
    kind: str = "generated"
    view: str = "target"
    make: str | None = None
    min_actions: int = 2
    source: plugins.Source | None = None

    def check(self) -> None:
        where = f"scenario {self.slug!r}"
        for name in ("slug", "label", "citation"):
            if not isinstance(getattr(self, name), str) or not getattr(self, name).strip():
                raise ScenarioError(f"{where}: {name} must be a non-empty string")
        if self.kind not in KINDS:
            raise ScenarioError(f"{where}: kind must be one of {', '.join(KINDS)}")
        if self.view not in ("condorcet", "borda", "target"):
            raise ScenarioError(f"{where}: view must be condorcet, borda or target")
        if self.kind == "generated" and (not isinstance(self.make, str) or ":" not in self.make):
            raise ScenarioError(f"{where}: a generated scenario needs make = 'module:function'")
        if isinstance(self.min_actions, bool) or not isinstance(self.min_actions, int) or self.min_actions < 2:
            raise ScenarioError(f"{where}: min_actions must be an integer >= 2")

    def identity(self) -> str:
        """The entry's fields as text: part of a plugin's digest (``duelbandits.plugins.files_digest``)."""
        return repr(sorted({**vars(self), "source": None}.items()))

    def with_source(self, source: plugins.Source) -> ScenarioEntry:
        if self.kind != "generated":
            raise ScenarioError(f"scenario {self.slug!r}: a plugin's scenario is of kind generated")
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
    """The registries, built on first use (:class:`duelbandits.plugins.LazyRegistry`): ``REGISTRY``,
    scenario entries by slug, the built-ins then every installed plugin's; ``SCENARIOS``, their slugs
    (the names :func:`make_scenario` accepts); ``GENERATED``, those generated from a seed at the
    config's A (``file`` and the benchmarks have their own A); ``PARAMETERISED``, those built from
    :data:`DEFAULTS` (the config's ``scenario_params``)."""
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


def validate_matrix(matrix, atol: float = MATRIX_ATOL) -> np.ndarray:
    """Return ``matrix`` as a float array, or raise MatrixError naming the fault.

    A preference matrix is square with at least 2 actions, has entries in
    [0, 1], ``X[i, j] + X[j, i] = 1`` off the diagonal and ``X[i, i] = 1/2``
    (both up to ``atol``).
    """
    try:
        X = np.array(matrix, dtype=float)
    except (TypeError, ValueError) as err:
        raise MatrixError(f"preference matrix is not numeric: {err}") from None
    if X.ndim != 2 or X.shape[0] != X.shape[1]:
        raise MatrixError(f"preference matrix must be square, got shape {X.shape}")
    if X.shape[0] < 2:  # pragma: no mutate -- shape[1] for shape[0]: checked square before
        # mutmut equivalent: shape[1] for shape[0]: checked square before
        raise MatrixError(f"preference matrix needs at least 2 actions, got {X.shape[0]}")  # pragma: no mutate
    bad = np.argwhere(~np.isfinite(X))
    if len(bad):
        i, j = map(int, bad[0])
        raise MatrixError(f"preference matrix has a non-finite entry, X[{i}, {j}] = {float(X[i, j])!r}", (i, j))
    bad = np.argwhere((X < 0) | (X > 1))
    if len(bad):
        i, j = map(int, bad[0])
        raise MatrixError(f"preference matrix entries must lie in [0, 1], X[{i}, {j}] = {float(X[i, j])!r}", (i, j))
    diag = np.abs(np.diag(X) - 0.5)
    if diag.max() > atol * (1 + 1e-9):
        i = int(np.argmax(diag))
        raise MatrixError(f"preference matrix diagonal must be 1/2, X[{i}, {i}] = {float(X[i, i])!r}", (i, i))
    gap = np.abs(X + X.T - 1.0)
    np.fill_diagonal(gap, 0.0)
    if gap.max() > atol * (1 + 1e-9):  # the slack: the rounding of the sum itself
        i, j = map(int, np.unravel_index(int(np.argmax(gap)), gap.shape))
        raise MatrixError(
            f"preference matrix must satisfy X[i, j] + X[j, i] = 1 (tolerance {atol:g}); "
            f"X[{i}, {j}] + X[{j}, {i}] = {float(X[i, j])!r} + {float(X[j, i])!r} = {float(X[i, j] + X[j, i])!r}",
            (i, j),
        )
    return X


def logistic_matrix(utilities: np.ndarray) -> np.ndarray:
    """``X[i, j] = 1 / (1 + exp(u[j] - u[i]))`` (Section 5)."""
    u = np.asarray(utilities, dtype=float)
    return 1.0 / (1.0 + np.exp(u[None, :] - u[:, None]))


def condorcet_utilities(actions: int, rng: np.random.Generator, utility_max: float, margin: float):
    """The winner gets ``utility_max``; the rest are uniform on ``[0, utility_max - margin]``.

    The winner's position is uniform among the actions.
    """
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
    """Build the named scenario's preference matrix.

    ``seed`` is anything ``numpy.random.default_rng`` accepts (an int or a
    ``SeedSequence``); ``params`` override :data:`DEFAULTS`; ``actions``
    defaults to :data:`DEFAULT_ACTIONS`. The ``file`` scenario reads its
    matrix from the CSV file ``path`` (:func:`read_matrix_file`), a
    :data:`BENCHMARKS` scenario from the package data: A comes from the
    matrix (an ``actions`` given must equal it) and ``seed`` and ``params``
    do not apply (their names are still checked).
    """
    if name == "file":
        return file_scenario(path, actions, params)
    if name in BENCHMARKS and path is None:
        return benchmark_scenario(name, actions, params)
    if path is not None:
        raise ScenarioError(f"path applies only to the file scenario, not to {name!r}")
    if actions is None:
        actions = DEFAULT_ACTIONS
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
    """Rewire the three best actions into a cycle with three different winners.

    With the actions ranked by utility, ``a`` (best) becomes the Copeland
    winner, ``b`` (second) the Maximin winner, ``c`` (third) the Borda winner;
    the other actions ``o`` keep their logistic entries among themselves:

    - a cycle: ``a`` beats ``b`` (0.6), ``b`` beats ``c`` (0.7), ``c`` beats ``a`` (0.8),
      so no action beats all others (no Condorcet winner);
    - ``a`` beats every ``o`` narrowly (0.65): it wins the most duels (Copeland);
    - ``b`` loses narrowly to every ``o`` (0.45) and to ``a`` (0.4) but never by
      much: its worst entry 0.4 is the largest row minimum (Maximin), as each
      ``o`` has ``X[o, a] = 0.35``, ``a`` has ``X[a, c] = 0.2`` and ``c`` has ``X[c, b] = 0.3``;
    - ``c`` crushes every ``o`` (``strength``, borda_strength) but loses narrowly
      (0.45) to the weakest ``o``: few wins, the largest row mean (Borda).

    The fixed values are :data:`CYCLIC`. Raises ScenarioError unless the result
    has no Condorcet winner and unique, pairwise different Copeland, Maximin
    and Borda winners ``a, b, c`` (large utility spreads or a low
    borda_strength can break the Borda winner).
    """
    k = CYCLIC
    # mutmut equivalent: argsort kind or argsort kind dropped: the utilities are continuous uniform draws below
    # utility_max, without ties, so every sort kind gives the same order; kind 'STABLE': numpy ignores its case
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
    found = {
        "Copeland": winners.copeland_winners(X).tolist(),
        "Maximin": winners.maximin_winners(X).tolist(),
        "Borda": winners.borda_winners(X).tolist(),
    }
    wanted = {"Copeland": [a], "Maximin": [b], "Borda": [c]}
    for notion, expected in wanted.items():
        if found[notion] != expected:
            raise ScenarioError(
                f"cyclic scenario: action {expected[0]} is not the unique {notion} winner "
                f"({notion} winners: {found[notion]}); raise borda_strength or lower utility_max"
            )
    if winners.condorcet_winner(X) is not None:  # pragma: no cover - the cycle rules it out
        # mutmut equivalent: message of the unreachable branch (no cover)
        raise ScenarioError("cyclic scenario: a Condorcet winner exists")  # pragma: no mutate
    return X


def read_matrix_file(path) -> np.ndarray:
    """Read a preference matrix from a CSV file; errors name the file and the problem.

    One matrix row per line, entries separated by commas, no header; blank
    lines and lines starting with ``#`` are skipped; a UTF-8 byte-order mark
    (spreadsheets write one) is ignored. The matrix must be square and pass
    :func:`validate_matrix` with :data:`FILE_ATOL`; it is returned symmetrised.
    """
    if path is None:
        raise ScenarioError("the file scenario needs the path of a CSV matrix file")
    path = Path(path)
    problem = why_unreadable(path)
    if problem:
        raise ScenarioError(f"matrix file {path}: {problem}")
    try:
        text = path.read_text(encoding="utf-8-sig")  # pragma: no mutate -- 'UTF-8-SIG': codec names ignore case
    except (OSError, UnicodeDecodeError) as err:
        raise ScenarioError(f"matrix file {path}: cannot be read ({err})") from None
    rows, lines = [], []
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = next(csv.reader([line]))
        row = []
        for col, value in enumerate(fields, start=1):
            try:
                row.append(float(value.strip()))
            except ValueError:
                raise ScenarioError(
                    f"matrix file {path}: line {lineno}, column {col}: {value.strip()!r} is not a number"
                ) from None
        rows.append(row)
        lines.append(lineno)
    if not rows:
        raise ScenarioError(f"matrix file {path}: no matrix rows found")
    for lineno, row in zip(lines, rows):
        if len(row) != len(rows):
            raise ScenarioError(
                f"matrix file {path}: not a square matrix: {len(rows)} rows, but line {lineno} has {len(row)} entries"
            )
    try:
        X = validate_matrix(rows, atol=FILE_ATOL)
    except MatrixError as err:
        where = f" (line {lines[err.position[0]]}, column {err.position[1] + 1})" if err.position else ""
        raise ScenarioError(f"matrix file {path}: {err}{where}") from None
    try:
        return validate_matrix(X)
    except MatrixError:  # within FILE_ATOL, not within MATRIX_ATOL: make it exact
        X = (X + 1.0 - X.T) / 2.0
        np.fill_diagonal(X, 0.5)
        return X


def fitted_utilities(matrix: np.ndarray, clip: float = 1e-3) -> np.ndarray:
    """Least-squares Bradley-Terry utilities ``u[i] = mean_j logit X[i, j]``, shifted to min 0.

    Exact (up to a constant) for a logistic matrix; the ``file`` scenario has
    no latent utilities, so these stand in for them (entries are clipped to
    ``[clip, 1 - clip]`` so that 0 and 1 stay finite).
    """
    # mutmut equivalent: dtype=None or dtype dropped: np.clip to float bounds gives floats
    X = np.clip(np.asarray(matrix, dtype=float), clip, 1.0 - clip)  # pragma: no mutate
    u = np.log(X / (1.0 - X)).mean(axis=1)
    return u - u.min()


def file_scenario(path, actions=None, params=None) -> Scenario:
    """The ``file`` scenario: the matrix of :func:`read_matrix_file` and its fitted utilities."""
    X = read_matrix_file(path)
    A = X.shape[0]  # pragma: no mutate -- shape[1] for shape[0]: checked square before
    if actions is not None and not isinstance(actions, bool) and actions != A:
        raise ScenarioError(f"matrix file {path}: has {A} actions, but actions = {actions} was asked for")
    _check_params("file", A if actions is None else actions, dict(params or {}))
    # the path is not recorded: the results are keyed by the matrix's content (its sha256 is in every
    # file's provenance), so the same matrix under another name gives the same results
    return Scenario(name="file", matrix=X, utilities=fitted_utilities(X), params={"actions": A})


def benchmark_matrix(name: str) -> np.ndarray:
    """The :data:`BENCHMARKS` matrix ``name``, read from the package data (:func:`read_matrix_file`)."""
    if name not in BENCHMARKS:
        raise ScenarioError(f"unknown benchmark matrix {name!r}; benchmarks: {', '.join(BENCHMARKS)}")
    with resources.as_file(resources.files(__package__).joinpath("data", BENCHMARKS[name][0])) as path:
        return read_matrix_file(path)


def benchmark_scenario(name: str, actions=None, params=None) -> Scenario:
    """A :data:`BENCHMARKS` scenario: the published matrix and its fitted utilities (as for ``file``)."""
    X = benchmark_matrix(name)
    A = X.shape[0]  # pragma: no mutate -- shape[1] for shape[0]: checked square before
    if actions is not None and not isinstance(actions, bool) and actions != A:
        raise ScenarioError(f"scenario {name} has {A} actions, but actions = {actions} was asked for")
    _check_params(name, A if actions is None else actions, dict(params or {}))
    source = BENCHMARKS[name][1]
    return Scenario(name=name, matrix=X, utilities=fitted_utilities(X), params={"actions": A, "source": source})


def borda_modification(matrix: np.ndarray, utilities: np.ndarray, strength: float) -> np.ndarray:
    """Make ``i2`` (second-largest utility) the Borda winner (Section 5).

    ``X[i2, j] = strength`` and ``X[j, i2] = 1 - strength`` for every ``j``
    other than ``i2`` and the Condorcet winner ``i*``. Raises ScenarioError
    unless ``i2`` is then the unique Borda winner and ``i*`` the unique
    Condorcet and Maximin winner.
    """
    # mutmut equivalent: argsort kind or argsort kind dropped: the utilities are continuous uniform draws below
    # utility_max, without ties, so every sort kind gives the same order; argsort kind 'STABLE': numpy ignores its case
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
    """A plugin's generated scenario: ``make(actions, rng)`` with ``rng`` seeded from (``seed``, slug),
    its matrix validated; utilities fitted (:func:`fitted_utilities`) as for a file's matrix."""
    import importlib

    if params:
        raise ScenarioError(f"scenario {entry.slug} takes no scenario parameters, got {', '.join(sorted(params))}")
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
            X = validate_matrix(make(int(actions), rng))
    except MatrixError as err:
        raise ScenarioError(f"scenario {entry.slug} ({entry.make}): {err}") from None
    if X.shape[0] != actions:  # pragma: no mutate -- shape[1] for shape[0]: checked square before
        raise ScenarioError(
            # mutmut equivalent: shape[1] in the message: checked square before
            f"scenario {entry.slug}: make({actions}, rng) returned a {X.shape[0]} x {X.shape[0]} matrix"  # noqa: E501  # pragma: no mutate
        )
    return Scenario(name=entry.slug, matrix=X, utilities=fitted_utilities(X), params={"actions": int(actions)})
