"""The workflow's rerun triggers, passed by the rules as params (``workflow/rules/common.smk``): the
digest of the package modules a command runs (:func:`code_digest`) and of what a job loads by name (an
algorithm's kernel, a plugin's package, the ``file`` scenario's CSV). docs/rerun-triggers.md.
"""

from __future__ import annotations

import ast
import hashlib
from functools import cache
from pathlib import Path

from . import plugins, scenarios
from .provenance import file_sha256

PACKAGE_ROOT = Path(__file__).resolve().parent
# A unit is one module of the package by its dotted name ("storage", "algorithms._posterior"; "__init__" and
# "__main__" the package's own two files). A rule names its command's entry ("studies.paper:cmd_figure_main")
# and the modules it loads by name (an algorithm's kernel); the rest follows from the import statements,
# walked by the plugins' walker (plugins.import_walk) on absolute names ("duelbandits.storage").


def _name(unit: str) -> str:
    return "duelbandits" if unit == "__init__" else f"duelbandits.{unit}"


def _unit(name: str) -> str:
    return name.partition(".")[2] or "__init__"


def _file(name: str) -> Path | None:
    """The file of the package's module ``name`` (``duelbandits.a.b``): ``a/b.py`` or ``a/b/__init__.py``."""
    return _file_in(PACKAGE_ROOT, name)


@cache
def _file_in(root: Path, name: str) -> Path | None:
    # root is PACKAGE_ROOT (an argument so the cache follows the tests' copies of the package). Only the
    # package's names are asked: plugins.imported and import_walk drop another top-level name first. A
    # package before a module of its name, as Python's import
    base = root.parent.joinpath(*name.split("."))
    return next((path for path in (base / "__init__.py", base.with_suffix(".py")) if path.is_file()), None)


@cache
def _parse_file(path: Path) -> ast.Module:
    """The module at ``path``, parsed once per process (a Snakemake start computes every rule's trigger)."""
    return ast.parse(path.read_text(), filename=str(path))


@cache
def _imports(name: str, mode) -> frozenset[str]:
    """The modules the import statements of the module ``name`` name: all of them (``mode`` True), those
    it runs when it is loaded (False: its statements outside functions, all a package's ``__init__`` runs
    when only a submodule of it is imported), or what ``python -m duelbandits`` runs of it for a command
    (a tuple of functions: its top-level statements but its functions, those functions and the module's
    functions they call, transitively)."""
    tree = _parse_file(_file(name))
    nodes = [tree]
    if not isinstance(mode, bool):
        functions = {n.name: n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
        kept, todo = set(), list(mode)
        while todo:
            function = todo.pop()
            if function not in functions:
                raise ValueError(f"{name} has no function {function!r}")
            if function not in kept:
                kept.add(function)
                todo += [n.id for n in ast.walk(functions[function]) if isinstance(n, ast.Name) and n.id in functions]
        nodes = [n for n in tree.body if n not in functions.values()] + [functions[f] for f in sorted(kept)]
    return frozenset(plugins.imported(name, plugins.import_statements(nodes, functions=mode is not False), _file))


def code_units(*entries: str) -> list[str]:
    """The units behind ``entries`` (``"module"`` or ``"module:function"``): ``__init__``, ``__main__``, the
    entries and every unit they import, transitively; a package above an imported module only with what
    it imports when loaded (so the commands of a study's ``__init__`` do not share one another's code)."""
    modes: dict[str, object] = {}
    for entry in entries:
        unit, _, function = entry.partition(":")
        if _file(_name(unit)) is None:
            raise ValueError(f"duelbandits has no module {unit!r}")
        mode = modes.get(_name(unit), ())
        modes[_name(unit)] = True if mode is True or not function else (*mode, function)
    todo = [("duelbandits", True), ("duelbandits.__main__", True), *modes.items()]
    return sorted(_unit(name) for name in plugins.import_walk(todo, _file, _imports))


@cache
def code_digest(*entries: str) -> str:
    """sha256 of the sources of :func:`code_units` of ``entries``: the rerun trigger of a rule."""
    sha = hashlib.sha256()
    for unit in code_units(*entries):
        path = _file(_name(unit))
        sha.update(path.relative_to(PACKAGE_ROOT).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return sha.hexdigest()


def algorithm_code_digest(entry: str, slug: str) -> str:
    """The rerun trigger of a simulation command ``entry`` for algorithm ``slug``: the command's code and
    the algorithm's own, a built-in's kernel module (loaded by name, so no import names it) or a
    plugin's distribution, version and package digest (so that editing a plugin reruns its jobs only)."""
    from .algorithms import get

    spec = get(slug)
    if spec.source is None:
        return code_digest(entry, spec.module.removeprefix("duelbandits."))
    return f"{code_digest(entry)}+{spec.source.distribution}=={spec.source.version}:{spec.source.digest}"


def scenario_source_digest(name: str, matrix_file=None) -> str:
    """What a scenario's matrix comes from beyond its parameters: the sha256 of the ``file`` scenario's
    CSV (so a new matrix reruns its jobs even when the file's mtime is older), a plugin scenario's
    distribution, version and package digest, and nothing for the package's own scenarios."""
    if name == "file":
        return file_sha256(matrix_file)
    entry = scenarios.REGISTRY.get(name)
    source = entry.source if entry is not None else None
    return "" if source is None else f"{source.distribution}=={source.version}:{source.digest}"


def forget() -> None:
    """Empty the caches, so that a module edited in this process is read again (the tests edit copies)."""
    for cached in (_file_in, _parse_file, _imports, code_digest):
        cached.cache_clear()
