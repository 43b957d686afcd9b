"""Mutation score of package modules with mutmut: an opt-in developer tool, not a test.

For each module it copies the working tree (tracked and new files, as they are now) into a scratch
folder, configures mutmut there to mutate that one module and to run only the module's fast tests
(:data:`TESTS`), runs ``mutmut run``, and prints the module's score: killed / mutants, where a
mutant that survives, times out or that no test reaches counts as not killed. The rest of mutmut's
configuration is the ``[tool.mutmut]`` table of pyproject.toml, and a mutant no test can kill is not
made at all: its line carries ``# pragma: no mutate -- why`` (or the why in the comment above). The work
tree itself is never touched (mutmut writes its ``mutants/`` folder in the scratch copy). It exits 1
when a module scores below ``--target`` (90% by default), listing its live mutants for
``mutmut show``, and 2 when mutmut fails or lists no mutant for a module (no score is printed for it).

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
    "studies.paper.analysis": ["tests/test_aggregate.py"],
    "studies.asymptotics.analysis": ["tests/test_asymptotics.py", "tests/test_asymptotics_off_defaults.py"],
    "configcheck": [  # test_plan's job lists validate their config too: left out, they made a run of hours
        "tests/test_config_validation.py",
        "tests/test_plan.py",
        *(
            f"--deselect=tests/test_plan.py::test_{name}"
            for name in (
                "c_alpha_is_the_configs_or_the_algorithms_default",
                "paper_jobs_cover_every_scenario_and_algorithm_once_and_partition_the_runs",
                "sweep_jobs_cover_both_grids_once_and_partition_the_runs",
                "field_jobs_cover_every_scenario_at_its_own_size_once_and_partition_the_runs",
                "asymptotics_jobs_cover_every_point_once_and_split_runs_by_steps",
                "every_target_plans_jobs_of_its_own_name_only",
                "the_compile_groups_cut_each_family_in_registry_order_into_consecutive_groups",
                "algorithm_args_give_each_override_in_the_configs_order",
            )
        ),
        "tests/test_bayes.py::test_the_default_section_is_valid_and_checked",
        "tests/test_bayes.py::test_the_target_check_names_its_key",
    ],
    "configschema": ["tests/test_config_validation.py::test_the_committed_schema_file_is_the_generators_output"],
    "digests": [
        "tests/test_digests.py",
        "tests/test_storage.py",
        "tests/test_manifest.py",  # the content digests of the manifest, and the figures' data digests
    ],
    "studies.field.analysis": [  # its Markdown page is tested with the other pages
        "tests/test_field.py",
        "tests/test_tables.py::test_the_field_table_shares_ranks_on_ties_averages_known_ranks_and_lists_runs_in_numeric_order",
    ],
    "manifest": [
        "tests/test_manifest.py",
        "tests/test_bad_input.py::test_a_manifest_entry_outside_the_tree_or_listed_twice_is_refused_naming_the_line",
        "tests/test_bad_input.py::test_verify_from_the_wrong_folder_says_to_use_root",
    ],
    "matrices": ["tests/test_scenarios.py", "tests/test_scenarios_edges.py", "tests/test_benchmarks.py"],
    "plan": ["tests/test_plan.py"],
    "plugins": [
        "tests/test_plugins.py",
        "tests/test_triggers.py",  # the import walk, which the package's own triggers use too
        "tests/test_contract.py::test_each_broken_property_is_named_and_a_good_algorithm_passes",
        "--deselect=tests/test_plugins.py::test_a_bad_plugin_stops_planning_in_one_message_naming_it",
        "--deselect=tests/test_plugins.py::test_a_plugin_whose_algorithm_breaks_the_contract_stops_planning_of_the_config_that_selects_it",
    ],
    "points": ["tests/test_points.py"],
    "regret": ["tests/test_regret.py"],
    "resources": ["tests/test_resources.py"],
    "scenarios": [
        "tests/test_scenarios.py",
        "tests/test_scenarios_edges.py",
        "tests/test_benchmarks.py",
        # a plugin scenario's parameters, in-process (ScenarioEntry.parameters, make's **params)
        "tests/test_config_validation.py::test_a_plugin_scenarios_parameters_are_set_under_its_slug_and_checked_by_its_entry",
    ],
    "studies.claims.analysis": ["tests/test_claims.py"],
    "studies.claims.archive": ["tests/test_archive.py"],
    "studies.claims.verdicts": ["tests/test_claims.py"],
    "studies.tail.analysis": ["tests/test_tail.py"],
    "studies.tail.family": ["tests/test_tail.py"],
    "storage": [
        "tests/test_storage.py",
        "tests/test_read_runs.py",
        "tests/test_provenance.py",
        "tests/test_benchmarks.py",
    ],
    "theorems": ["tests/test_theorems.py"],
    "winners": ["tests/test_winners.py"],
}
"""The fast tests of each module: the tests mutmut runs against its mutants (a module not listed here
gets ``tests/test_NAME.py``, NAME the last part of its dotted name): files, single tests
(``file::name``) or ``--deselect=file::name``."""

STATUS = re.compile(r"^\s*(duelbandits\.\S+): (.+)$")


def changed_modules(base: str, repo: Path = REPO) -> list[str]:
    """The package's top-level modules changed since ``base`` (committed or not) or new and not yet
    tracked, by name, in the order git lists them."""
    pattern = "src/duelbandits/*.py"
    git = ["git", "-C", str(repo)]
    changed = subprocess.run([*git, "diff", "--name-only", base, "--", pattern], check=True, capture_output=True)
    new = subprocess.run(
        [*git, "ls-files", "--others", "--exclude-standard", "--", pattern], check=True, capture_output=True
    )
    paths = (changed.stdout + new.stdout).decode().split()
    names = [Path(line).stem for line in paths if Path(line).parent == Path("src/duelbandits")]
    return [name for name in dict.fromkeys(names) if not name.startswith("_")]


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


def source(module: str) -> str:
    """The file of a package module, by its dotted name below the package (``regret``, ``studies.field.analysis``)."""
    return f"src/duelbandits/{module.replace('.', '/')}.py"


def mutmut_config(module: str, tests: list[str]) -> str:
    """What one module's run adds to the ``[tool.mutmut]`` table, the last of pyproject.toml: the module to
    mutate and its tests."""
    quoted = ", ".join(f'"{test}"' for test in tests)
    return f'\nonly_mutate = ["{source(module)}"]\npytest_add_cli_args_test_selection = [{quoted}]\n'


def run_module(module: str, mutmut: str, children: int, diffs: bool) -> tuple[dict[str, str], dict[str, str]] | None:
    """``{mutant: status}`` of one module's mutmut run, and with ``diffs`` the diff of each live one; None
    (said on stderr) when mutmut failed or listed no mutant, which must not read as a score of 100%."""
    tests = TESTS.get(module, [f"tests/test_{module.rpartition('.')[2]}.py"])
    with tempfile.TemporaryDirectory(prefix=f"mutation-{module}-") as scratch:
        folder = Path(scratch)
        scratch_copy(folder)
        with open(folder / "pyproject.toml", "a", encoding="utf-8") as handle:
            handle.write(mutmut_config(module, tests))
        run = subprocess.run(
            [mutmut, "run", "--max-children", str(children)], cwd=folder, capture_output=True, text=True, check=False
        )
        out = subprocess.run(
            [mutmut, "results", "--all", "true"], cwd=folder, capture_output=True, text=True, check=False
        ).stdout
        status = {m.group(1): m.group(2).strip() for m in map(STATUS.match, out.splitlines()) if m}
        if run.returncode or not status:
            why = f"mutmut run exited {run.returncode}" if run.returncode else "mutmut listed no mutant"
            tail = (run.stdout + run.stderr).splitlines()[-5:]
            print(f"mutation: {module}: {why}:", *tail, sep="\n    ", file=sys.stderr)
            return None
        if status and all(s == "not checked" for s in status.values()):  # the run stopped before the mutants
            print(f"mutation: mutmut checked no mutant of {module}:", *run.stdout.splitlines()[-5:], sep="\n    ")
        live = [name for name, s in status.items() if s != "killed"]
        shown = live_diffs(folder, module, live) if diffs and live else {}
    return status, shown


DIFFS = """
import sys
from mutmut.mutation.diff_apply import get_diff_for_mutant
for name in sys.argv[2:]:
    print(f"\\0{name}\\n{get_diff_for_mutant(name, path=sys.argv[1])}")
"""
"""Prints each named mutant's diff, as ``mutmut show`` does, in one process (one ``mutmut show`` each
takes seconds on a loaded machine)."""


def live_diffs(folder: Path, module: str, names: list[str]) -> dict[str, str]:
    """``{mutant: diff}`` of the mutants ``names`` of a finished run in ``folder``."""
    out = subprocess.run(
        [sys.executable, "-c", DIFFS, source(module), *names],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    return dict(part.split("\n", 1) for part in out.split("\0") if "\n" in part)


def parser() -> argparse.ArgumentParser:
    """The command line (docs/testing.md shows it)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", nargs="*", help="modules of src/duelbandits, e.g. regret studies.field.analysis")
    parser.add_argument("--changed", metavar="BASE", help="also every module changed since git revision BASE")
    parser.add_argument("--children", type=int, default=2, help="mutants tested at once (default 2)")
    parser.add_argument("--diffs", action="store_true", help="print the diff of each live mutant")
    parser.add_argument("--target", type=float, default=90.0, help="the score a module must reach, in %%")
    return parser


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    modules = list(dict.fromkeys(args.modules + (changed_modules(args.changed) if args.changed else [])))
    unknown = [m for m in modules if not (REPO / source(m)).is_file()]
    if unknown:
        print(f"mutation: no module {source(unknown[0])}", file=sys.stderr)
        return 2
    mutmut = shutil.which("mutmut", path=str(Path(sys.executable).parent)) or shutil.which("mutmut")
    if mutmut is None:
        print("mutation: mutmut is not installed: .venv/bin/pip install mutmut==3.8.1", file=sys.stderr)
        return 2
    if not modules:
        print("mutation: no module to mutate")
        return 0
    below = failed = False
    print(f"{'module':<12} {'mutants':>7} {'killed':>6} {'live':>4} {'score':>6}")
    for module in modules:
        result = run_module(module, mutmut, args.children, args.diffs)
        if result is None:
            failed = True
            continue
        status, shown = result
        live = [name for name, s in status.items() if s != "killed"]
        score = 100.0 * (len(status) - len(live)) / len(status)
        print(f"{module:<12} {len(status):>7} {len(status) - len(live):>6} {len(live):>4} {score:>5.1f}%")
        for name in live:
            print(f"    {name}: {status[name]}")
            for line in shown.get(name, "").splitlines():
                if line.startswith(("+", "-")) and not line.startswith(("+++", "---")):
                    print(f"        {line}")
        below |= score < args.target
    return 2 if failed else 1 if below else 0


if __name__ == "__main__":
    sys.exit(main())
