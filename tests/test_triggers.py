"""The rerun triggers are complete: ``triggers.code_units`` of every entry the rules name holds what
``python -m duelbandits COMMAND`` runs, by an independent ast resolver of the package's imports (closed
under imports and packages' ``__init__``, and the kernels loaded by name)."""

import ast
import re
import shutil
from functools import cache
from pathlib import Path

import pytest

import duelbandits
from duelbandits import plugins, triggers
from duelbandits.algorithms import ALGORITHMS

REPO = Path(__file__).resolve().parents[1]
PACKAGE = Path(duelbandits.__file__).resolve().parent
RULES = sorted((REPO / "workflow/rules").glob("*.smk"))


def rule_entries():
    """``(entry, with_kernel)`` of every ``code("...")`` and ``algorithm_code("...")`` in the rules."""
    found = set()
    for path in RULES:
        text = path.read_text()
        found |= {(entry, False) for entry in re.findall(r'(?<![\w.])code\("([^"]+)"\)', text)}
        found |= {(entry, True) for entry in re.findall(r'(?<![\w.])algorithm_code\("([^"]+)"\)', text)}
    return sorted(found)


@pytest.fixture(autouse=True)
def afresh():
    """Each test computes the units and digests afresh: mutmut forks each mutant from a process that ran
    the tests, whose caches would answer for the mutant."""
    triggers.forget()
    code_units.cache_clear()


ENTRIES = rule_entries()
PLAIN = [entry for entry, kernel in ENTRIES if not kernel]
WITH_KERNEL = [entry for entry, kernel in ENTRIES if kernel]


def test_the_rules_name_entries_of_every_command_family_and_both_simulation_commands():
    modules = {entry.partition(":")[0] for entry, _ in ENTRIES}
    from duelbandits.cli import FAMILIES

    assert modules == set(FAMILIES)  # every command family has a rule
    assert set(WITH_KERNEL) == {"cli.simulation:cmd_simulate", "cli.simulation:cmd_sweep_point"}
    assert len(ENTRIES) >= 20


# --- An independent resolver of the package's import statements -----------------------------------


def unit_file(unit):
    if unit in ("__init__", "__main__"):
        return PACKAGE / f"{unit}.py"
    base = PACKAGE.joinpath(*unit.split("."))
    if base.with_suffix(".py").is_file():
        return base.with_suffix(".py")
    if (base / "__init__.py").is_file():
        return base / "__init__.py"
    return None


def package_of(unit):
    """The package a module's relative imports start from: its own for a package's __init__."""
    if unit in ("__init__", "__main__"):
        return []
    parts = unit.split(".")
    return parts if unit_file(unit).name == "__init__.py" else parts[:-1]


def parents(unit):
    """``a.b.c`` -> ``a``, ``a.b`` (the packages whose __init__ Python runs first)."""
    parts = unit.split(".")
    return {".".join(parts[:i]) for i in range(1, len(parts))}


def resolve(unit, node):
    """The package modules an import statement of module ``unit`` loads."""
    if isinstance(node, ast.Import):
        names = [alias.name[len("duelbandits.") :] for alias in node.names if alias.name.startswith("duelbandits.")]
    else:
        if node.level:
            package = package_of(unit)
            base = package[: len(package) - node.level + 1]
        elif (node.module or "").split(".")[0] == "duelbandits":
            base = []
        else:
            return set()
        module = [*base, *((node.module or "").split(".") if node.module else [])]
        if not node.level:
            module = module[1:]  # drop "duelbandits"
        names = [".".join(module)] if module else []
        names += [".".join([*module, alias.name]) for alias in node.names]
    found = {name for name in names if name and unit_file(name) is not None}
    return found | {p for name in found for p in parents(name)}


def executed_imports(body):
    """Import statements run when ``body`` runs: not inside functions, not under ``if TYPE_CHECKING``."""
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        elif isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            yield from executed_imports(node.orelse)
        else:
            yield from executed_imports(ast.iter_child_nodes(node))


@cache
def tree(unit):
    return ast.parse(unit_file(unit).read_text())


@cache
def module_imports(unit):
    """The package modules that importing ``unit`` loads directly."""
    return set().union(*[resolve(unit, node) for node in executed_imports(tree(unit).body)])


def command_imports(entry):
    """The package modules a command's function imports, with those of its module's functions it calls."""
    unit, _, name = entry.partition(":")
    module = tree(unit)
    functions = {n.name: n for n in module.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    assert name in functions, entry
    todo, seen, found = [name], set(), set()
    while todo:
        function = functions[todo.pop()]
        if function.name in seen:
            continue
        seen.add(function.name)
        for node in ast.walk(function):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                found |= resolve(unit, node)
            elif isinstance(node, ast.Name) and node.id in functions:
                todo.append(node.id)
    return found


def imported_units(unit, statements):
    """The package units ``statements`` of module ``unit`` import, as triggers reads them (plugins.imported)."""
    return {triggers._unit(n) for n in plugins.imported(triggers._name(unit), statements, triggers._file)}


def test_the_resolver_reads_relative_absolute_and_package_imports():
    """The resolver itself, on import statements whose modules are known by hand."""

    def units(unit, source):
        nodes = ast.parse(source).body
        found, named = set().union(*[resolve(unit, node) for node in nodes]), imported_units(unit, nodes)
        assert named | {p for name in named for p in parents(name)} == found, (unit, source)  # triggers' agrees
        return found

    assert units("cli.simulation", "from .. import storage, points") == {"storage", "points"}
    assert units("cli.simulation", "from .args import seed") == {"cli", "cli.args"}
    assert units("studies.sweeps", "from . import figure") == {"studies", "studies.sweeps", "studies.sweeps.figure"}
    assert units("studies.paper.main", "from ...plotting.style import METADATA") == {"plotting", "plotting.style"}
    assert units("storage", "from .schemas import RUN_COLUMNS") == {"schemas"}
    assert units("storage", "from . import winners") == {"winners"}
    assert units("algorithms.dexp3", "from .partial_monitoring import x") == {
        "algorithms",
        "algorithms.partial_monitoring",
    }
    assert units("algorithms", "from . import _sampling") == {"algorithms", "algorithms._sampling"}
    assert units("__main__", "from .cli import main") == {"cli"}
    assert units("studies.sweeps", "from .. import field") == {"studies", "studies.field"}
    assert units("__init__", "from .cli import main") == {"cli"}
    assert units("storage", "import duelbandits.regret, duelbandits.plotting.style") == {
        "regret",
        "plotting",
        "plotting.style",
    }
    assert units("storage", "from duelbandits.plotting import style") == {"plotting", "plotting.style"}
    assert units("storage", "from duelbandits import regret") == {"regret"}
    assert units("storage", "from duelbandits.regret import per_step") == {"regret"}
    assert units("storage", "import numpy as np\nfrom pathlib import Path\nfrom . import winners") == {"winners"}


# --- Every command's units -------------------------------------------------------------------------


@cache
def code_units(*entries):
    """triggers.code_units, computed once per entry for the tests below."""
    return frozenset(triggers.code_units(*entries))


def closure(units):
    """``units`` and every unit they import or sit in, transitively, by the independent resolver."""
    found, todo = set(), list(units)
    while todo:
        unit = todo.pop()
        if unit not in found:
            found.add(unit)
            todo += sorted(module_imports(unit) | parents(unit))
    return found


ALWAYS = {"__init__", "__main__", "cli", "cli.args"}
"""Every job runs `python -m duelbandits`: the package, its __main__, the CLI package and its argument types."""


def test_code_units_hold_what_the_command_imports_and_are_closed_under_imports_and_packages():
    for entry in sorted({entry for entry, _ in ENTRIES}):
        units = code_units(entry)
        module = entry.partition(":")[0]
        assert ALWAYS <= units and module in units, (entry, sorted(ALWAYS - units))
        imported = command_imports(entry) | module_imports(module)
        assert imported <= units, (entry, sorted(imported - units))
        for unit in sorted(units):
            assert unit_file(unit) is not None, unit
            missing = (module_imports(unit) | parents(unit)) - units
            assert not missing, f"{entry}: {unit} imports {sorted(missing)}, which are not among its units"


@pytest.mark.parametrize("entry", WITH_KERNEL)
def test_simulation_units_hold_the_jobs_kernel_and_everything_it_imports(entry):
    for slug in ALGORITHMS:
        kernel = ALGORITHMS[slug].module.removeprefix("duelbandits.")
        units = code_units(entry, kernel)
        assert {kernel, "algorithms"} | ALWAYS | {entry.partition(":")[0]} <= units, slug
        assert closure({kernel}) <= units, (slug, sorted(closure({kernel}) - units))
        assert code_units(entry) <= units  # the kernel adds, never removes


def test_units_of_several_entries_are_the_union_of_each_entrys():
    a, b = "studies.paper:cmd_aggregate", "studies.paper:cmd_figure_main"
    assert set(triggers.code_units(a, b)) == set(triggers.code_units(a)) | set(triggers.code_units(b))
    assert triggers.code_units("studies.paper", a) == triggers.code_units("studies.paper")  # whole wins


NESTED = """
import a0
def f():
    import a1
    class C:
        from a2 import x
    lambda: None
for i in range(2):
    import a3
else:
    import a4
while False:
    import a5
with open("x") as fh:
    import a6
try:
    import a7
except ImportError:
    import a8
else:
    import a9
finally:
    import a10
match 1:
    case 1:
        import a11
if TYPE_CHECKING:
    import never
else:
    import a12
if typing.TYPE_CHECKING:
    import never
async def g():
    async with h():
        import a13
    async for k in h():
        import a14
"""


def test_the_import_walk_finds_an_import_in_every_kind_of_block_but_type_checking():
    """triggers walks statements only (an import is one): every block that holds statements is entered."""
    found = [alias.name for node in plugins.import_statements([ast.parse(NESTED)]) for alias in node.names]
    assert sorted(found) == sorted(["a0", "x", *(f"a{k}" for k in (1, *range(3, 15)))])


SIMULATE = "cli.simulation:cmd_simulate"
FIGURE_MAIN = "studies.paper:cmd_figure_main"


def test_code_units_are_the_modules_a_command_imports_and_no_other():
    simulate = set(triggers.code_units(SIMULATE, "algorithms.dts"))
    assert {"__init__", "__main__", "cli", "cli.args", "cli.simulation", "simulation", "algorithms"} <= simulate
    assert {"algorithms.dts", "algorithms._sampling", "scenarios", "storage", "resources"} <= simulate
    # the other commands of the module, the other kernels, plotting and analyses are not run
    assert not {"algorithms.iss", "points", "studies.paper.analysis", "plotting", "tables", "manifest"} & simulate
    assert not {unit for unit in simulate if unit.startswith(("plotting.", "tables.", "studies."))}
    point = set(triggers.code_units("cli.simulation:cmd_sweep_point"))
    assert "points" in point and "simulation" in point  # a command's own lazy imports count
    figure = set(triggers.code_units(FIGURE_MAIN))
    assert {"studies.paper.main", "plotting.style", "digests", "studies.paper"} <= figure
    assert not {"studies.paper.appendix", "studies.paper.analysis", "studies.sweeps.figure"} & figure
    assert not {"simulation", "points", "manifest"} & figure
    # a package above the entry counts with what it runs when loaded, not its other commands' imports
    claims = set(triggers.code_units("studies.claims:cmd_claims"))  # it imports from tail.analysis
    assert {"studies.tail", "studies.tail.analysis"} <= claims and "studies.tail.figure" not in claims


def test_code_units_name_the_missing_module_or_function():
    with pytest.raises(ValueError, match="no module 'nowhere'"):
        triggers.code_units("nowhere")
    with pytest.raises(ValueError, match="has no function 'cmd_nothing'"):
        triggers.code_units("cli.simulation:cmd_nothing")


def test_code_digest_changes_with_the_code_a_command_runs_and_nothing_else(tmp_path, monkeypatch):
    copy = tmp_path / "duelbandits"
    shutil.copytree(triggers.PACKAGE_ROOT, copy, ignore=shutil.ignore_patterns("__pycache__"))

    def digests():
        triggers.forget()
        return (
            triggers.code_digest(SIMULATE, "algorithms.dts"),
            triggers.code_digest(SIMULATE, "algorithms.iss"),
            triggers.code_digest(FIGURE_MAIN),
        )

    def edit(path):
        with open(copy / path, "a") as handle:
            handle.write("\n# an edit\n")
        return digests()

    monkeypatch.setattr(triggers, "PACKAGE_ROOT", copy)
    dts, iss, figure = digests()
    assert edit("studies/paper/main.py") == (dts, iss, digests()[2]) and digests()[2] != figure
    figure = digests()[2]
    assert edit("studies/paper/appendix.py") == (dts, iss, figure)
    after_dts = edit("algorithms/dts.py")
    assert after_dts[0] != dts and after_dts[1:] == (iss, figure)
    after_cli = edit("cli/simulation.py")
    assert after_cli[0] != after_dts[0] and after_cli[1] != iss and after_cli[2] == figure
    toy = copy / "cli" / "toy.py"  # a command calling a function after one already followed
    toy.write_text(
        "def cmd():\n    helper(), other(), cmd()\n\ndef helper():\n    from .. import manifest\n\ndef other(): ...\n"
    )
    assert {"manifest", "regret"} & set(triggers.code_units("cli.toy:cmd")) == {"manifest"}
    triggers.forget()
    # A unit followed whole counts its functions' imports (any may run), a package only loaded does not:
    files = {
        "cli/toy2.py": "from . import toy4\n",
        "cli/toy4.py": "def f():\n    from .. import regret\n",
        "cli/toy3.py": "def cmd():\n    from . import toy2\n",  # toy2 and toy4 followed whole
        "cli/toy5.py": "def cmd():\n    from .. import a1\n    from ..late import sub\n    from ..quiet import x\n",
        "a1.py": "import duelbandits.late\n",  # late: first loaded (sub's package), then imported whole
        "late/__init__.py": "def f():\n    from .. import late_d\n",
        "quiet/__init__.py": "from .. import late_e\n\n\ndef f():\n    from .. import late_c\n",  # only loaded
    }
    files["quiet/x.py"] = "def g():\n    from .. import late_f\n"  # the entry imports it: followed whole
    files["quiet/y.py"] = "def cmd():\n    pass\n"
    for name in ("late/sub", "late_a", "late_b", "late_c", "late_d", "late_e", "late_f"):
        files[f"{name}.py"] = ""
    (copy / "late").mkdir(), (copy / "quiet").mkdir()
    for name, text in files.items():
        (copy / name).write_text(text)
    for name, late in (("__init__", "late_a"), ("__main__", "late_b")):  # both followed whole
        with open(copy / f"{name}.py", "a") as handle:
            handle.write(f"\n\ndef _{late}():\n    from . import {late}\n")
    assert "regret" in triggers.code_units("cli.toy3:cmd") and "regret" in triggers.code_units("cli.toy4")
    units = set(triggers.code_units("cli.toy5:cmd"))
    assert {"late_a", "late_b", "late", "late_d", "late_e", "late_f"} <= units and not {"late_c", ""} & units
    assert "late_c" not in triggers.code_units("quiet.y:cmd")  # the entry's package: only loaded
    triggers.forget()  # no digest of the copy stays cached for a later test


def test_a_simulations_trigger_adds_its_kernel_or_its_plugins_source_and_a_scenario_its_source(tmp_path, monkeypatch):
    import dataclasses
    import hashlib

    from duelbandits import plugins, scenarios

    assert triggers.algorithm_code_digest(SIMULATE, "dts") == triggers.code_digest(SIMULATE, "algorithms.dts")
    source = plugins.Source("toyplugin", "0.1", "0123456789abcdef")
    monkeypatch.setitem(ALGORITHMS, "toy", dataclasses.replace(ALGORITHMS["dts"], slug="toy", source=source))
    assert (
        triggers.algorithm_code_digest(SIMULATE, "toy")
        == triggers.code_digest(SIMULATE) + "+toyplugin==0.1:0123456789abcdef"
    )
    monkeypatch.setitem(scenarios.REGISTRY, "toy", dataclasses.replace(scenarios.REGISTRY["condorcet"], source=source))
    (tmp_path / "m.csv").write_bytes(b"0.5,0.6\n0.4,0.5\n")
    assert (
        triggers.scenario_source_digest("file", tmp_path / "m.csv") == hashlib.sha256(b"0.5,0.6\n0.4,0.5\n").hexdigest()
    )
    assert [triggers.scenario_source_digest(name) for name in ("toy", "condorcet", "no-such")] == [
        "toyplugin==0.1:0123456789abcdef",
        "",
        "",
    ]
