"""Algorithms and scenarios from other packages, through Python entry points (docs/extending.md).

They are loaded once, when the registries are first built, and checked there: any problem stops
everything with one :class:`PluginError` line naming the distribution, the entry point and the problem,
as does a later exception of a plugin's code (:func:`foreign`). A loaded entry carries its
:class:`Source` (distribution, version, code digest) for provenance and the rerun triggers.
"""

from __future__ import annotations

import ast
import hashlib
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from .errors import InputError

ALGORITHM_GROUP = "duelbandits.algorithms"
SCENARIO_GROUP = "duelbandits.scenarios"
GROUPS = (ALGORITHM_GROUP, SCENARIO_GROUP)
"""The entry-point groups a plugin registers its algorithms and scenarios under."""


class PluginError(InputError):
    """An installed plugin cannot be used; the message names the distribution and the problem."""


@dataclass(frozen=True)
class Source:
    """Where a plugin entry comes from: its distribution, its version, and a digest of its entry and of
    the files of its implementation (:func:`files_digest`)."""

    distribution: str
    version: str
    digest: str

    def as_dict(self) -> dict:
        return {"distribution": self.distribution, "version": self.version, "digest": self.digest}


_BLOCK = (ast.stmt, ast.excepthandler, ast.match_case)
"""What holds statements: an import is a statement, so the walk never enters an expression (most of
the nodes, and most of the time the code digests take at each Snakemake start)."""


def import_statements(nodes, functions=True):
    """Every import statement under ``nodes``, skipping ``if TYPE_CHECKING:`` blocks (never run), and
    function bodies unless ``functions`` (what runs at import is the rest)."""
    todo = list(nodes)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.If) and getattr(node.test, "id", getattr(node.test, "attr", None)) == "TYPE_CHECKING":
            todo.extend(node.orelse)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif not functions and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        else:
            for field in node._fields:
                value = getattr(node, field)  # the parser sets every field
                if isinstance(value, list):
                    todo.extend(v for v in value if isinstance(v, _BLOCK))


def imported(name: str, statements, find) -> set[str]:
    """The modules of the top-level package of module ``name`` that its import ``statements`` name, by
    absolute name: a package too where a name is taken from it (not only a submodule of it). ``find``
    gives a module's file by name, or None."""
    top = name.partition(".")[0]
    package = name if find(name).name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in statements:
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            base = node.module  # None only in ``from . import x``, relative: resolved below
            if node.level:
                parts = package.split(".")
                base = ".".join([*parts[: len(parts) + 1 - node.level], *([node.module] if node.module else [])])
            names = [f"{base}.{alias.name}" for alias in node.names]
            if base.partition(".")[0] == top and not all(find(n) for n in names):
                names.append(base)  # a name defined by the module or package ``base`` itself
        found |= {n for n in names if n.partition(".")[0] == top and find(n)}
    return found


def import_walk(todo: list, find, imports) -> set[str]:
    """The modules ``todo`` names as ``(name, mode)``, and those they import, transitively, with the package
    of each (its ``__init__`` runs first): ``imports(name, mode)`` names a module's imports, all of them
    for a true ``mode`` (a module imported), those that run when it is loaded for ``False`` (a package
    above a module). Breadth first, so the modules of ``todo`` are visited in their own mode first."""
    seen, loaded = set(), set()
    while todo:
        name, mode = todo.pop(0)
        if name in seen or (not mode and name in loaded):
            continue
        (seen if mode else loaded).add(name)
        packages = [".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 1)]
        todo += [(package, False) for package in packages if find(package)]
        todo += [(module, True) for module in sorted(imports(name, mode) - seen)]
    return seen | loaded


def module_files(module: str) -> dict[str, Path]:
    """The file of ``module`` and of every module of its own top-level package that it imports, directly
    or through another (read from the sources, not by importing), by module name; with the ``__init__``
    of every package above each of them, which runs before it. A package's ``__init__`` is followed (its
    own imports) only where a module imports the package itself or a name from it, not a submodule: a
    plugin's ``__init__`` typically gathers all its entries, and an edit to one entry's module must rerun
    that entry's jobs alone."""
    import importlib.util

    def origin(name: str) -> Path | None:
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            return None
        return Path(spec.origin) if spec and spec.origin and spec.origin.endswith(".py") else None

    def imports(name: str, whole: bool) -> set[str]:
        tree = ast.parse(origin(name).read_bytes())
        return imported(name, import_statements([tree]), origin) if whole else set()

    if origin(module) is None:
        return {}
    return {name: origin(name) for name in import_walk([(module, True)], origin, imports)}


def results_source(path: Path) -> bytes:
    """What of a plugin module's source can change results: its syntax tree (not its comments or
    layout), each ``Param(...)``'s description left out (the text ``duelbandits list`` shows)."""
    tree = ast.parse(path.read_bytes())
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "Param":
            blank = ast.Constant("")  # pragma: no mutate -- any constant: every description becomes the same one
            node.args[1:2] = [blank] * len(node.args[1:2])
            node.keywords = [k for k in node.keywords if k.arg != "description"]
    return ast.dump(tree).encode()


def files_digest(module: str, entry=None) -> str:
    """sha256 over the names and :func:`results_source` of :func:`module_files` of ``module`` and the
    registry ``entry``'s ``identity()`` (its label, parameters, defaults...), first 16 hex digits: the
    rerun trigger of its jobs, so it covers only what can change their results."""
    sha = hashlib.sha256()
    for name, path in sorted(module_files(module).items()):
        # mutmut equivalent: the separators only keep the names and sources apart (any other does too)
        sha.update(name.encode() + b"\0" + results_source(path) + b"\0")  # pragma: no mutate
    if entry is not None:
        sha.update(entry.identity().encode())
    return sha.hexdigest()[:16]


def named(entry) -> str:
    """How a plugin's entry is named in its errors: ``plugin SLUG (distribution DIST)``."""
    origin = entry.source.distribution if entry.source is not None else "none: registered in this process"
    return f"plugin {entry.slug} (distribution {origin})"


def numba_cause(err: Exception) -> str:
    """A numba compilation error (tens of lines: the pipeline's step, the candidates it tried, the
    source) as one line: its first cause, the signature it could not type, and the line of the kernel."""
    import re

    lines = [line.strip() for line in re.sub(r"\x1b\[[0-9;]*m", "", str(err)).splitlines()]
    body = [line for line in lines if line and not line.startswith(("Failed in ", "During:"))]
    cause = body[0] if body else type(err).__name__
    signature = next((line for line in body[1:3] if line.startswith(">>>")), None)
    if cause.endswith(":") and signature:
        cause += " " + signature.removeprefix(">>>").strip()
    places = [(n, m) for n, line in enumerate(lines) if (m := re.match(r'File "(.+)", line (\d+):', line))]
    if places:
        n, match = places[-1]
        after = lines[n + 1 :]  # the place's source, a caret under the line that fails
        marker = next((k for k, line in enumerate(after) if line == "^"), None)
        code = f": {after[marker - 1]}" if marker else ""
        cause += f" ({Path(match.group(1)).name}, line {match.group(2)}{code})"
    return f"numba cannot compile it: {type(err).__name__}: {cause}"


@contextmanager
def foreign(entry):
    """Around a call of a plugin's code: any exception but the project's own (an InputError, already one
    line) becomes one PluginError line ``plugin SLUG (distribution DIST): Type: message``; numba's
    compilation errors by :func:`numba_cause`."""
    try:
        yield
    except InputError:
        raise
    except (Exception, SystemExit) as err:  # noqa: BLE001 - whatever a foreign call raises is the plugin's
        numba = type(err).__module__.startswith("numba.") and isinstance(err, Exception)
        cause = numba_cause(err) if numba else f"{type(err).__name__}: {err}"
        raise PluginError(f"{named(entry)}: {cause}") from None


def load(group: str, kind: type, builtins: dict) -> dict:
    """The entries of ``group`` as ``{slug: entry}``, each checked and given its :class:`Source`.

    ``kind`` is the entry class (it has ``slug``, ``check()`` and ``with_source()``), ``builtins`` the
    package's own entries, whose slugs a plugin may not take.
    """
    loaded: dict = {}
    for point in sorted(metadata.entry_points(group=group)):  # by name, then value
        dist = point.dist
        made_by = f"{dist.name} {dist.version}" if dist is not None else "an unknown distribution"
        where = f"plugin {made_by}, entry point {point.name!r} = {point.value!r} in group {point.group!r}"
        try:
            entry = point.load()
        except (Exception, SystemExit) as err:  # noqa: BLE001 - any failure of a foreign import (a sys.exit too)
            raise PluginError(f"{where}: fails to import: {type(err).__name__}: {err}") from None
        if not isinstance(entry, kind):
            raise PluginError(f"{where}: is a {type(entry).__name__}, not a {kind.__module__}.{kind.__name__}")
        if entry.slug != point.name:
            raise PluginError(f"{where}: the entry's slug is {entry.slug!r}; the entry point must be named by it")
        if entry.slug in builtins:
            noun = "scenario" if kind.__name__ == "ScenarioEntry" else kind.__name__.lower()
            raise PluginError(f"{where}: slug {entry.slug!r} is a built-in {noun}'s; choose another")
        if entry.slug in loaded:
            other = loaded[entry.slug].source.distribution
            raise PluginError(f"{where}: slug {entry.slug!r} is also registered by plugin {other}")
        try:
            entry.check()
            entry = entry.with_source(None)  # a plugin's: an algorithm of family plugin, a generated scenario
        except InputError as err:
            raise PluginError(f"{where}: {err}") from None
        name, version = (dist.name, dist.version) if dist is not None else (entry.module, "unknown")
        loaded[entry.slug] = entry.with_source(Source(name, version, files_digest(entry.module, entry)))
    return loaded


class LazyRegistry:
    """A module's registries, built by ``build()`` on first use and then set as the module's globals.

    The registries include the plugins, whose modules import ``duelbandits.algorithms`` and
    ``duelbandits.scenarios`` for the entry classes: building them when those modules are first
    imported would import a plugin from inside them, half-initialised. So each module builds its
    registries on the first access to one of ``names`` (its ``__getattr__``), once both modules exist.
    """

    def __init__(self, module: str, names: tuple[str, ...], build):
        self.module, self.names, self.build, self.building, self.values = module, names, build, False, None

    def get(self, name: str):
        import sys

        if name not in self.names:
            raise AttributeError(f"module {self.module!r} has no attribute {name!r}")
        if self.values is not None:
            return self.values[name]
        if self.building:
            raise PluginError(f"{self.module}.{name} was used while the plugins were being loaded (by a plugin?)")
        self.building = True
        try:
            values = self.build()
        finally:
            self.building = False  # pragma: no mutate -- None is as false (and a failed build ends the process)
        self.values = values
        vars(sys.modules[self.module]).update(values)
        return values[name]
