"""Mutation score of package modules with mutmut: an opt-in developer tool, not a test.

For each module it copies the working tree (tracked and new files, as they are now) into a scratch
folder, configures mutmut there to mutate that one module and to run only the module's fast tests
(:data:`TESTS`), runs ``mutmut run``, and prints the module's score: killed / (mutants -
equivalents), where a mutant that survives, times out or that no test reaches counts as not killed
and :data:`EQUIVALENT` lists the mutants that no test can kill, each with its reason. The work tree
itself is never touched (mutmut writes its ``mutants/`` folder in the scratch copy). It exits 1
when a module scores below ``--target`` (90% by default), listing its live mutants for
``mutmut show``.

mutmut is not in requirements.lock (CI does not run it); install it into the venv first:

    .venv/bin/pip install mutmut==3.8.1
    nice -n 10 .venv/bin/python bench/mutation.py regret theorems
    nice -n 10 .venv/bin/python bench/mutation.py --changed main   # the modules changed since main

The numba kernels (``algorithms/``) are not covered: mutmut wraps every function in a trampoline,
which numba cannot compile.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

TESTS = {
    "aggregate": ["tests/test_aggregate.py"],
    "asymptotics": ["tests/test_asymptotics.py", "tests/test_asymptotics_off_defaults.py"],
    "claims": ["tests/test_claims.py"],
    "digests": ["tests/test_digests.py"],
    "field": ["tests/test_field.py"],
    "limits": ["tests/test_limits.py"],
    "manifest": ["tests/test_manifest.py"],
    "plan": ["tests/test_plan.py", "tests/test_limits.py"],
    "points": ["tests/test_points.py"],
    "regret": ["tests/test_regret.py"],
    "scenarios": ["tests/test_scenarios.py"],
    "storage": ["tests/test_storage.py", "tests/test_read_runs.py"],
    "tail": ["tests/test_tail.py"],
    "theorems": ["tests/test_theorems.py"],
    "winners": ["tests/test_winners.py"],
}
"""The fast tests of each module: the tests mutmut runs against its mutants (a module not listed here
gets ``tests/test_MODULE.py``)."""

EQUIVALENT: dict[str, str] = {
    "duelbandits.regret.x_copeland__mutmut_7": "X.shape[1] for X.shape[0]: a preference matrix is square",
    "duelbandits.regret.x_per_step__mutmut_6": "dtype=None for float: every regret is float arithmetic already",
    "duelbandits.regret.x_per_step__mutmut_8": "dtype dropped: as mutmut_6",
    "duelbandits.regret.x_sample_std__mutmut_3": "dtype=None for float: numpy's std of integers is float64",
    "duelbandits.regret.x_sample_std__mutmut_5": "dtype dropped: as mutmut_3",
    "duelbandits.winners.x_condorcet_winner__mutmut_9": "matrix.shape[1] for shape[0]: a preference matrix is square",
}
"""Mutants no test can kill, by mutmut's name, with the reason (the numbers change when the function
changes: rerun and recheck them then)."""

STATUS = re.compile(r"^\s*(duelbandits\.\S+): (.+)$")


def changed_modules(base: str) -> list[str]:
    """The package's top-level modules changed since ``base`` (committed or not), by name."""
    out = subprocess.run(
        ["git", "diff", "--name-only", base, "--", "src/duelbandits/*.py"],
        cwd=REPO,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    names = [Path(line).stem for line in out.split() if Path(line).parent == Path("src/duelbandits")]
    return [name for name in names if not name.startswith("_")]


def scratch_copy(folder: Path) -> None:
    """The work tree's tracked and new (not ignored) files, as they are now, into ``folder``."""
    files = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=REPO,
        check=True,
        capture_output=True,
    ).stdout.split(b"\0")
    for name in filter(None, files):
        source = REPO / os.fsdecode(name)
        if source.is_file():
            target = folder / os.fsdecode(name)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


def mutmut_config(module: str, tests: list[str]) -> str:
    """The ``[tool.mutmut]`` table of one module's run."""
    quoted = ", ".join(f'"{test}"' for test in tests)
    return (
        "\n[tool.mutmut]\n"
        'source_paths = ["src"]\n'
        f'only_mutate = ["src/duelbandits/{module}.py"]\n'
        f"pytest_add_cli_args_test_selection = [{quoted}]\n"
        'pytest_add_cli_args = ["-p", "no:cacheprovider", "-q", "-x"]\n'
    )


def run_module(module: str, mutmut: str, children: int, diffs: bool) -> tuple[dict[str, str], dict[str, str]]:
    """``{mutant: status}`` of one module's mutmut run, and with ``diffs`` the diff of each live one."""
    tests = TESTS.get(module, [f"tests/test_{module}.py"])
    with tempfile.TemporaryDirectory(prefix=f"mutation-{module}-") as scratch:
        folder = Path(scratch)
        scratch_copy(folder)
        with open(folder / "pyproject.toml", "a", encoding="utf-8") as handle:
            handle.write(mutmut_config(module, tests))
        subprocess.run(
            [mutmut, "run", "--max-children", str(children)], cwd=folder, capture_output=True, text=True, check=False
        )
        out = subprocess.run(
            [mutmut, "results", "--all", "true"], cwd=folder, capture_output=True, text=True, check=False
        ).stdout
        status = {m.group(1): m.group(2).strip() for m in map(STATUS.match, out.splitlines()) if m}
        shown = {}
        for name in status if diffs else ():
            if status[name] != "killed" and name not in EQUIVALENT:
                shown[name] = subprocess.run(
                    [mutmut, "show", name], cwd=folder, capture_output=True, text=True, check=False
                ).stdout
    return status, shown


def parser() -> argparse.ArgumentParser:
    """The command line (docs/testing.md shows it)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", nargs="*", help="modules of src/duelbandits, e.g. regret theorems")
    parser.add_argument("--changed", metavar="BASE", help="also every module changed since git revision BASE")
    parser.add_argument("--children", type=int, default=2, help="mutants tested at once (default 2)")
    parser.add_argument("--diffs", action="store_true", help="print the diff of each live mutant")
    parser.add_argument("--target", type=float, default=90.0, help="the score a module must reach, in %%")
    return parser


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    modules = list(dict.fromkeys(args.modules + (changed_modules(args.changed) if args.changed else [])))
    unknown = [m for m in modules if not (REPO / "src/duelbandits" / f"{m}.py").is_file()]
    if unknown:
        print(f"mutation: no module src/duelbandits/{unknown[0]}.py", file=sys.stderr)
        return 2
    mutmut = shutil.which("mutmut", path=str(Path(sys.executable).parent)) or shutil.which("mutmut")
    if mutmut is None:
        print("mutation: mutmut is not installed: .venv/bin/pip install mutmut==3.8.1", file=sys.stderr)
        return 2
    if not modules:
        print("mutation: no module to mutate")
        return 0
    below = False
    print(f"{'module':<12} {'mutants':>7} {'killed':>6} {'equiv':>5} {'live':>4} {'score':>6}")
    for module in modules:
        status, shown = run_module(module, mutmut, args.children, args.diffs)
        equivalent = [name for name in status if name in EQUIVALENT]
        live = [name for name, s in status.items() if s != "killed" and name not in EQUIVALENT]
        counted = len(status) - len(equivalent)
        killed = counted - len(live)
        score = 100.0 * killed / counted if counted else 100.0
        print(f"{module:<12} {len(status):>7} {killed:>6} {len(equivalent):>5} {len(live):>4} {score:>5.1f}%")
        for name in live:
            print(f"    {name}: {status[name]}")
            for line in shown.get(name, "").splitlines():
                if line.startswith(("+", "-")) and not line.startswith(("+++", "---")):
                    print(f"        {line}")
        below |= score < args.target
    return 1 if below else 0


if __name__ == "__main__":
    sys.exit(main())
