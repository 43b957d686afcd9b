"""The package's floors (docs/architecture.md): every import goes to the same floor or one below,
and no modules import each other in a loop."""

import ast
from pathlib import Path

from duelbandits import plugins, triggers

PACKAGE = Path(triggers.PACKAGE_ROOT)
FLOORS = {
    "domain core": ["errors", "params", "plugins", "winners", "matrices", "scenarios", "regret", "theorems",
                    "algorithms", "simulation", "contract", "resources"],
    "storage": ["schemas", "storage", "provenance", "triggers", "digests", "manifest"],
    "analyses": ["points", "configcheck", "configschema", "plan"],
    "presentation": ["tables", "plotting"],
    "command line": ["cli", "studies", "__main__", "__init__"],
}  # fmt: skip
LEVEL = {top: level for level, tops in enumerate(FLOORS.values()) for top in tops}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
    if parts[-1] == "__init__" and len(parts) > 1:
        parts.pop()
    return ".".join(parts)


def floor(module: str) -> int:
    return LEVEL[module.split(".")[0]]


def imports(path: Path) -> set[str]:
    """The package modules ``path`` imports anywhere (functions included), as duelbandits.triggers reads them."""
    unit = module_name(path)
    statements = plugins.import_statements([ast.parse(path.read_text())])
    return {triggers._unit(n) for n in plugins.imported(triggers._name(unit), statements, triggers._file)}


MODULES = sorted(PACKAGE.rglob("*.py"))


def test_every_module_has_a_floor():
    assert {module_name(p).split(".")[0] for p in MODULES} == set(LEVEL)


def test_a_module_imports_only_its_own_floor_and_those_below():
    above = {
        f"{module_name(path)} (floor {floor(module_name(path))})": sorted(
            m for m in imports(path) if floor(m) > floor(module_name(path))
        )
        for path in MODULES
    }
    assert not {here: names for here, names in above.items() if names}, "imports from a higher floor"


def test_no_modules_import_each_other_in_a_loop():
    """With the registry's imports of its kernels by name (importlib), which no import statement shows
    (a kernel's own import of its package's helpers is the package's inside)."""
    from duelbandits.algorithms import BUILTINS

    graph = {module_name(p): imports(p) - {module_name(p)} for p in MODULES}
    for kernel in {spec.module.removeprefix("duelbandits.") for spec in BUILTINS.values()}:
        graph["algorithms"].add(kernel)
        graph[kernel].discard("algorithms")
    done, active = set(), []

    def visit(node):
        if node in active:
            raise AssertionError(" -> ".join([*active[active.index(node) :], node]))
        if node in done:
            return
        active.append(node)
        for target in sorted(graph.get(node, ())):
            visit(target)
        active.pop()
        done.add(node)

    for node in sorted(graph):
        visit(node)


def test_the_floors_table_of_the_docs_names_every_module_of_each_floor():
    """docs/architecture.md's table is written by hand: each floor's row names (in backquotes) every
    top-level module this test places on that floor."""
    import re

    rows = {}
    for line in (Path(__file__).resolve().parents[1] / "docs/architecture.md").read_text().splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 3 and any(cells[0].startswith(floor) for floor in FLOORS):
            rows[cells[0]] = {name.rstrip("/") for name in re.findall(r"`([\w/]+)`", cells[1])}
    for floor, modules in FLOORS.items():
        (row,) = [names for name, names in rows.items() if name.startswith(floor)]
        missing = [m for m in modules if m not in row and not m.startswith("__")]
        assert not missing, (floor, missing)
