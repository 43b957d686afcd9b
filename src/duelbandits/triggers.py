"""The workflow's rerun triggers, passed by the rules as params (``workflow/rules/common.smk``): the
digest of the package modules a command runs (:func:`code_digest`) and of what a job loads by name (an
algorithm's kernel, a plugin's package, the ``file`` scenario's CSV). docs/rerun-triggers.md.
"""

from __future__ import annotations

import ast
import hashlib
from functools import cache
from pathlib import Path

from . import scenarios
from .provenance import file_sha256

PACKAGE_ROOT = Path(__file__).resolve().parent
# A unit is one module of the package by its dotted name ("storage", "algorithms._posterior"; "__init__" and
# "__main__" the package's own two files). A rule names its command's entry ("studies.paper:cmd_figure_main")
# and the modules it loads by name (an algorithm's kernel); the rest follows from the import statements.


def _unit_file(unit: str) -> Path:
    """The file of a unit: ``a/b.py`` or the package file ``a/b/__init__.py``."""
    return _unit_file_in(PACKAGE_ROOT, unit)


@cache
def _unit_file_in(root: Path, unit: str) -> Path:
    if unit in ("__init__", "__main__"):
        return root / f"{unit}.py"
    base = root.joinpath(*unit.split("."))
    if base.with_suffix(".py").is_file():
        return base.with_suffix(".py")
    if (base / "__init__.py").is_file():
        return base / "__init__.py"
    raise ValueError(f"duelbandits has no module {unit!r}")


def _is_unit(unit: str) -> bool:
    try:
        _unit_file(unit)
    except ValueError:
        return False
    return True


def _packages(unit: str) -> list[str]:
    """The packages whose ``__init__`` runs before ``unit``: ``a.b.c`` -> ``a``, ``a.b``."""
    parts = unit.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts)) if _is_unit(".".join(parts[:i]))]


def _is_type_checking(node) -> bool:
    return isinstance(node, ast.If) and getattr(node.test, "id", getattr(node.test, "attr", None)) == "TYPE_CHECKING"


_BLOCK = (ast.stmt, ast.excepthandler, ast.match_case)
"""What holds statements: an import is a statement, so the walk never enters an expression (most of
the nodes, and most of the time the code digests take at each Snakemake start)."""


def _import_statements(nodes, functions=True):
    """Every import statement under ``nodes``, skipping ``if TYPE_CHECKING:`` blocks (never run), and
    function bodies unless ``functions`` (what runs at import is the rest)."""
    todo = list(nodes)
    while todo:
        node = todo.pop()
        if _is_type_checking(node):
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


def _imported_units(unit: str, statements) -> set[str]:
    """Package units named by ``statements`` of the module ``unit``."""
    package = unit.split(".")[:-1] if _unit_file(unit).name != "__init__.py" else unit.split(".")
    if unit == "__init__":  # the package's own (``__main__``'s package is [] by the rule above)
        package = []
    units = set()
    for node in statements:
        if isinstance(node, ast.Import):
            names = [alias.name.split(".", 1)[1] for alias in node.names if alias.name.startswith("duelbandits.")]
        elif node.level or (node.module or "").split(".")[0] == "duelbandits":
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module.partition(".")[2]
            names = [f"{module}.{alias.name}" if module else alias.name for alias in node.names]
            if module and not all(_is_unit(name) for name in names):  # a name of the package's own
                names.append(module)
        else:
            continue
        units |= {name for name in names if _is_unit(name)}
    return units


def _parse(unit: str) -> ast.Module:
    return _parse_file(_unit_file(unit))


@cache
def _parse_file(path: Path) -> ast.Module:
    """The module at ``path``, parsed once per process (a Snakemake start computes every rule's trigger)."""
    return ast.parse(path.read_text(), filename=str(path))


@cache
def _module_imports(unit: str, functions: bool) -> frozenset[str]:
    """The units the import statements of the module ``unit`` name; without ``functions``, those it imports
    when it is loaded (its statements outside functions): all a package's ``__init__`` runs when only a
    submodule of it is imported."""
    return frozenset(_imported_units(unit, _import_statements([_parse(unit)], functions)))


def _entry_statements(unit: str, function: str) -> list:
    """The top-level statements of ``unit`` but its functions, ``function`` and the module's functions it
    calls, transitively: what ``python -m duelbandits`` runs of that module for one command."""
    tree = _parse(unit)
    functions = {n.name: n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    if function not in functions:
        raise ValueError(f"duelbandits.{unit} has no function {function!r}")
    kept, todo = set(), [function]
    while todo:
        name = todo.pop()
        if name in kept:
            continue
        kept.add(name)
        todo += [n.id for n in ast.walk(functions[name]) if isinstance(n, ast.Name) and n.id in functions]
    return [n for n in tree.body if n not in functions.values()] + [functions[name] for name in sorted(kept)]


def code_units(*entries: str) -> list[str]:
    """The units behind ``entries`` (``"module"`` or ``"module:function"``): ``__init__``, ``__main__``, the
    entries and every unit they import, transitively; a package above an imported module only with what
    it imports when loaded (so the commands of a study's ``__init__`` do not share one another's code)."""
    seen, loaded = set(), set()  # units followed through every import statement / through their loading
    todo = [("__init__", True), ("__main__", True)]
    for entry in entries:
        unit, _, function = entry.partition(":")
        _unit_file(unit)
        if function:
            seen.add(unit)
            statements = _import_statements(_entry_statements(unit, function))
            todo += [(package, False) for package in _packages(unit)]
            todo += [(name, True) for name in sorted(_imported_units(unit, statements))]
        else:
            todo.append((unit, True))
    while todo:
        unit, whole = todo.pop()
        if unit in seen or (not whole and unit in loaded):
            continue
        (seen if whole else loaded).add(unit)
        todo += [(package, False) for package in _packages(unit)]
        todo += [(name, True) for name in sorted(_module_imports(unit, functions=whole) - seen)]
    return sorted(seen | loaded)


@cache
def code_digest(*entries: str) -> str:
    """sha256 of the sources of :func:`code_units` of ``entries``: the rerun trigger of a rule."""
    sha = hashlib.sha256()
    for unit in code_units(*entries):
        path = _unit_file(unit)
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
    for cached in (_unit_file_in, _parse_file, _module_imports, code_digest):
        cached.cache_clear()
