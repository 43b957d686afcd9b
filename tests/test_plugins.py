"""Plugins: algorithms and scenarios from another installed package, through entry points.

Each test lays out a fake installed distribution (a package and its ``.dist-info`` with
``entry_points.txt``) in a folder of its own and runs ``python -m duelbandits`` or Snakemake's
planning with that folder on ``PYTHONPATH``, so the plugin is seen exactly as an installed one is and
nothing leaks into this process's registries; or loads it here with ``plugins.load`` (into a registry only
for the test that runs a command on it), which mutation testing sees.
"""

import dataclasses
import os
import re
import subprocess
import sys
import textwrap
import types
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
TINY = REPO / "tests/workflow/tiny.yaml"

GOOD = '''
from duelbandits.algorithms import Algorithm, DuelingAlgorithm, Param
from duelbandits.scenarios import ScenarioEntry
import numpy as np


class Uniform(DuelingAlgorithm):
    """Both actions uniformly at random, independently ({offset}: 0 keeps them in range)."""

    def __init__(self, actions, horizon, rng, spread=1.0):
        super().__init__(actions, horizon, rng)

    def select(self):
        return int(self.rng.integers(self.actions)) + {offset}, int(self.rng.integers(self.actions))

    def update(self, i, j, outcome):
        pass


def make(actions, rng):
    u = np.sort(rng.uniform(0, 1, actions))[::-1]
    return 1 / (1 + np.exp(u[None, :] - u[:, None]))


ALGORITHM = Algorithm(
    slug="{slug}", label="Uniform", citation="a test's own", implementation="{package}:Uniform",
    regrets={{"condorcet": "maximin", "borda": "borda", "target": "copeland"}}, color="#123456",
    params={{"spread": Param(1.0, "unused", minimum=0.0)}},
)
SCENARIO = ScenarioEntry(slug="{scenario}", label="Sorted", citation="a test's own", make="{package}:make")
'''


def install(site, package="fakeplugin", slug="uniform", scenario="sorted", offset=0, code=None, names=None):
    """A fake installed distribution ``package`` 0.1 in ``site``; ``names`` overrides the entry points."""
    (site / package).mkdir(parents=True)
    source = code if code is not None else GOOD.format(slug=slug, scenario=scenario, package=package, offset=offset)
    (site / package / "__init__.py").write_text(textwrap.dedent(source))
    info = site / f"{package}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {package}\nVersion: 0.1\n")
    algo, scen = names or (slug, scenario)
    (info / "entry_points.txt").write_text(
        f"[duelbandits.algorithms]\n{algo} = {package}:ALGORITHM\n\n"
        f"[duelbandits.scenarios]\n{scen} = {package}:SCENARIO\n"
    )
    return site


def env_with(site):
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}


def duelbandits(site, *args):
    return subprocess.run(
        [sys.executable, "-m", "duelbandits", *args], capture_output=True, text=True, env=env_with(site), timeout=300
    )


def test_an_installed_plugin_is_listed_and_simulates_on_its_scenario_and_its_file_records_the_plugin(tmp_path):
    site = install(tmp_path / "site")
    result = duelbandits(site, "list")
    assert result.returncode == 0, result.stderr
    assert "uniform" in result.stdout and "plugin fakeplugin 0.1" in result.stdout
    assert "spread = 1.0: a finite number >= 0" in result.stdout
    assert "sorted" in result.stdout
    out = tmp_path / "run.parquet"
    args = ["--scenario", "sorted", "--actions", "6", "--algorithm", "uniform", "--horizon", "200", "--run", "3"]
    result = duelbandits(site, "simulate", *args, "--seed", "5", "--stride", "40", "--out", str(out))
    assert result.returncode == 0, result.stderr
    shown = duelbandits(site, "provenance", str(out))
    assert shown.returncode == 0, shown.stderr
    assert '"distribution": "fakeplugin"' in shown.stdout and '"version": "0.1"' in shown.stdout
    assert shown.stdout.count('"digest"') >= 2  # the algorithm's and the scenario's


def test_the_contract_check_passes_a_good_plugin_and_names_an_action_out_of_range(tmp_path, monkeypatch, capsys):
    """The plugin loaded as the registries load it, put in this process's registry for the test."""
    from duelbandits import algorithms, cli

    tuned = good().replace('color="#123456",', 'color="#123456", horizon_tuned=True,')
    said = []
    for site, code, status in (("good", tuned, 0), ("bad", good(offset=1), 1)):
        entries, _ = load(install(tmp_path / site, code=code), monkeypatch)
        monkeypatch.setitem(algorithms.ALGORITHMS, "uniform", entries["uniform"])
        assert cli.main(["check-algorithm", "uniform"]) == status
        said.append(capsys.readouterr())
    assert said[0].out == (
        "uniform: keeps the contract (outputs, seeding, no shared state, regrets; prefix property not checked: "
        "horizon_tuned)\n"
    )
    assert said[1].err.startswith("uniform: condorcet, A = 3: select() returned the duel (3, "), said[1].err


def good(offset=0, template=GOOD):
    """The good plugin's code (``offset`` 1: its first action one out of range)."""
    return template.format(slug="uniform", scenario="sorted", package="fakeplugin", offset=offset)


BAD = {
    "import": ["fails to import: ZeroDivisionError"],
    "exit": ["fails to import: SystemExit: 0"],
    "clash": ["slug 'dts' is a built-in algorithm's"],
    "incomplete": ["algorithm 'uniform': citation must be a non-empty string"],
    "regrets": ["algorithm 'uniform': regrets must map each of condorcet, borda, target"],
    "default": ["out-of-range default: spread must be a finite number >= 0, got -1.0"],
    "name": [
        "plugin fakeplugin 0.1, entry point 'other-name' = 'fakeplugin:ALGORITHM' in group 'duelbandits.algorithms': "
        "the entry's slug is 'uniform'; the entry point must be named by it"
    ],
    "object": ["is a dict, not a duelbandits.algorithms.Algorithm"],
    "scenario-clash": [
        "entry point 'borda' = 'fakeplugin:SCENARIO' in group 'duelbandits.scenarios': slug 'borda' "
        "is a built-in scenario's; choose another"
    ],
    "kind": ["scenario 'sorted': a plugin's scenario is of kind generated"],
    "twice": ["plugin otherplugin 0.1, entry point 'uniform'", "is also registered by plugin fakeplugin"],
}
"""Each kind of unusable plugin, and the words of its one line, which starts by naming the distribution."""


def install_bad(site, kind):
    if kind == "twice":
        install(site, package="otherplugin", scenario="other")
    code, names = {
        "import": ("1 / 0\n", None),
        "exit": ("import sys\nsys.exit(0)\n", None),
        "clash": (good().replace('slug="uniform"', 'slug="dts"'), ("dts", "sorted")),
        "incomplete": (good().replace('citation="a test\'s own", implementation', 'citation="", implementation'), None),
        "default": (good().replace("Param(1.0, ", "Param(-1.0, "), None),
        "regrets": (good().replace('"target": "copeland"', '"other": "copeland"'), None),
        "name": (None, ("other-name", "sorted")),
        "object": (good() + "\nALGORITHM = {'slug': 'uniform'}\n", None),
        "kind": (good().replace('make="fakeplugin:make"', 'kind="utility"'), None),
        "scenario-clash": (good().replace('slug="sorted"', 'slug="borda"'), ("uniform", "borda")),
    }.get(kind, (None, None))
    return install(site, code=code, names=names)


def load(site, monkeypatch, package="fakeplugin"):
    """The registries' ``plugins.load`` of both groups in this process, with ``site`` on its path and
    ``package`` imported afresh (a test before, or mutmut's second run, imported another)."""
    from duelbandits import algorithms, plugins, scenarios

    assert algorithms.ALGORITHMS and scenarios.REGISTRY  # the registries built before, without the plugin
    monkeypatch.syspath_prepend(str(site))
    for name in [name for name in sys.modules if name.partition(".")[0] == package]:
        monkeypatch.delitem(sys.modules, name)
    return (
        plugins.load(plugins.ALGORITHM_GROUP, algorithms.Algorithm, algorithms.BUILTINS),
        plugins.load(plugins.SCENARIO_GROUP, scenarios.ScenarioEntry, scenarios.BUILTINS),
    )


@pytest.mark.parametrize("kind", list(BAD))
def test_a_bad_plugin_is_one_line_naming_it_and_the_problem(tmp_path, monkeypatch, kind):
    from duelbandits.plugins import PluginError

    with pytest.raises(PluginError) as refused:
        load(install_bad(tmp_path / "site", kind), monkeypatch)
    line = str(refused.value)
    assert "\n" not in line and line.startswith(("plugin fakeplugin 0.1", "plugin otherplugin 0.1"))
    for word in BAD[kind]:
        assert word in line, (word, line)


def test_a_plugins_entries_carry_its_source_and_its_calls_errors_name_it(tmp_path, monkeypatch):
    """A distribution's name, version and a 16-digit digest of its entry and code; without a distribution,
    its module's name and version unknown."""
    from duelbandits import algorithms, plugins
    from duelbandits.errors import AlgorithmError

    (algorithms_, scenarios_) = load(install(tmp_path / "site"), monkeypatch)
    algorithm, scenario = algorithms_["uniform"], scenarios_["sorted"]
    assert list(algorithms_) == ["uniform"] and list(scenarios_) == ["sorted"]
    digest = algorithm.source.digest
    assert algorithm.source.as_dict() == {"distribution": "fakeplugin", "version": "0.1", "digest": digest}
    assert re.fullmatch("[0-9a-f]{16}", digest) and scenario.source.digest not in ("", digest)  # its entry differs
    with pytest.raises(plugins.PluginError, match=r"^plugin uniform \(distribution fakeplugin\): SystemExit: 3$"):
        with plugins.foreign(algorithm):
            raise SystemExit(3)
    with pytest.raises(AlgorithmError, match="^its own$"), plugins.foreign(algorithm):
        raise AlgorithmError("its own")  # the project's own error is already one line
    unnamed = dataclasses.replace(algorithm, source=None)
    assert plugins.named(unnamed) == "plugin uniform (distribution none: registered in this process)"
    raw, renamed = sys.modules["fakeplugin"].ALGORITHM, types.SimpleNamespace(name="Fake-Plugin", version="2")
    for dist, source in ((renamed, ("Fake-Plugin", "2")), (None, ("fakeplugin", "unknown"))):
        point = types.SimpleNamespace(name="uniform", value="fakeplugin:ALGORITHM", group="g", dist=dist)
        point.load = lambda: raw
        monkeypatch.setattr(plugins.metadata, "entry_points", lambda group, point=point: [point])
        (entry,) = plugins.load(plugins.ALGORITHM_GROUP, algorithms.Algorithm, algorithms.BUILTINS).values()
        assert entry.source == plugins.Source(*source, digest)
    point.load = dict  # refused without a distribution: named by its entry point
    with pytest.raises(plugins.PluginError, match="^plugin an unknown distribution, entry point 'uniform' = "):
        plugins.load(plugins.ALGORITHM_GROUP, algorithms.Algorithm, algorithms.BUILTINS)


def test_the_registries_are_built_once_on_first_use_and_not_while_building(monkeypatch):
    from duelbandits import plugins

    module, built = types.ModuleType("toyregistry"), []
    monkeypatch.setitem(sys.modules, "toyregistry", module)

    def build():
        built.append(True)
        with pytest.raises(plugins.PluginError, match=r"^toyregistry\.B was used while the plugins were being loaded"):
            lazy.get("B")  # by a plugin's import, say
        return {"A": 1, "B": 2}

    lazy = plugins.LazyRegistry("toyregistry", ("A", "B"), build)
    with pytest.raises(AttributeError, match="^module 'toyregistry' has no attribute 'C'$"):
        lazy.get("C")
    assert lazy.get("B") == 2 and lazy.get("A") == 1 and built == [True] and (module.A, module.B) == (1, 2)


def plan(tmp_path, site, *args):
    """Snakemake's planning (a dry run) of the tiny paper run with ``site`` on the path."""
    return subprocess.run(
        [sys.executable, "-m", "snakemake", "-s", str(REPO / "Snakefile"), "--directory", str(tmp_path),
         "--configfile", str(REPO / "config.yaml"), str(TINY), "--dry-run", *args],
        capture_output=True, text=True, env=env_with(site), timeout=300,
    )  # fmt: skip


NUMBA_PLACES = (
    "\x1b[1mFailed in nopython mode pipeline (step: nopython frontend)\nUnknown attribute 'x' of type int64\x1b[0m\n"
    'File "pkg/inner.py", line 5:\n\x1b[1mdef inner(A):\n    return A.x\n    ^\x1b[0m\n\nDuring: typing\n'
    'File "pkg/middle.py", line 7:\n    return inner(A)\n    ^\n'  # its caret right above the last place
    'File "/abs/pkg/kern.py", line 9:\n    return middle(matrix.shape[0])\n    ^\n\nDuring: Pass nopython_type'
)
SIGNATURE = "No implementation found for signature:"


@pytest.mark.parametrize(
    "text, line",
    [
        (NUMBA_PLACES, "Unknown attribute 'x' of type int64 (kern.py, line 9: return middle(matrix.shape[0]))"),
        (NUMBA_PLACES.replace("    return middle(matrix.shape[0])\n    ^", "<source missing, REPL/exec in use?>"),
         "Unknown attribute 'x' of type int64 (kern.py, line 9)"),
        (f"Failed in nopython mode pipeline\n{SIGNATURE}\n \n >>> add(int64, unicode_type)\n \nThere are 20 ...",
         f"{SIGNATURE} add(int64, unicode_type)"),
        (f"{SIGNATURE}\nDuring: a\nDuring: b\n>>> f(int64)", f"{SIGNATURE} f(int64)"),  # numba's lines skipped
        (f"{SIGNATURE}\n- one\n- two\n>>> f(int64)", SIGNATURE),  # beyond the two lines after the cause
        ("Cannot unify int64 and float64\n>>> f(int64)", "Cannot unify int64 and float64"),  # no colon: no signature
        ("", "TypingError"),
    ],
)  # fmt: skip
def test_a_numba_error_is_one_line_its_cause_signature_and_last_place(text, line):
    """numba's message of tens of lines (colours, its own "Failed in" and "During:" lines, the places it
    went through) as its cause, the signature on one of the two lines after a cause ending in a colon, and
    the last place, with its failing line when numba shows the source."""
    from duelbandits import plugins

    class TypingError(Exception):
        pass

    assert plugins.numba_cause(TypingError(text)) == f"numba cannot compile it: TypingError: {line}"


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["import", "exit", "clash", "incomplete"])
def test_a_bad_plugin_stops_planning_in_one_message_naming_it(tmp_path, kind):
    planned = plan(tmp_path, install_bad(tmp_path / "site", kind))
    out = planned.stdout + planned.stderr
    assert planned.returncode != 0 and all(word in out for word in BAD[kind]), out[-2000:]
    assert "Traceback" not in out and not (tmp_path / "results").exists()


@pytest.mark.slow
def test_a_plugin_whose_algorithm_breaks_the_contract_stops_planning_of_the_config_that_selects_it(tmp_path):
    """One that draws from numpy's global random state (each kind of breach: tests/test_contract.py)."""
    code = good().replace("int(self.rng.integers(self.actions)) + 0", "int(np.random.randint(self.actions))")
    problem = "draws from numpy's global random state (np.random.*), not from its rng"
    site = install(tmp_path / "site", code=code)
    planned = plan(tmp_path, site, "--config", "algorithms=[dts,uniform]")
    out = planned.stdout + planned.stderr
    assert planned.returncode != 0, out[-2000:]
    line = "config: algorithms: uniform (plugin fakeplugin 0.1) breaks the algorithm contract: condorcet, A = 3: "
    assert line in out and problem in out.partition(line)[2].splitlines()[0], out[-2000:]
    assert "duelbandits check-algorithm uniform" in out and "Traceback" not in out
    unselected = plan(tmp_path, site)
    assert unselected.returncode == 0, (unselected.stdout + unselected.stderr)[-2000:]  # not selected: not run


KERNEL = """
def run(matrix, horizon, rng, record, **hyper):
    A = len(matrix)
    I, J = rng.integers(A, size=horizon), rng.integers(A, size=horizon)
    outcomes, strategies = (rng.random(horizon) < 0.5).astype(np.int8), {{"p": np.full((len(record), A), 1 / A)}}
    {flaw}
    return I, J, outcomes, strategies


ALGORITHM = Algorithm(
    slug="uniform", label="Uniform", citation="a test's own", implementation="fakeplugin:run",
    regrets={{"condorcet": "maximin", "borda": "borda", "target": "copeland"}}, color="#123456", strategies=("p",),
)
"""
"""A kernel-contract plugin whose run returns what ``flaw`` makes of its uniform outputs."""

IMPOSSIBLE = {
    "I[4] = A": "the duel of step 5 is (6, ",
    "J[0] = -1": "the duel of step 1 is (",
    "outcomes[3] = 2": "outcomes must be 0 or 1",
    "I, J, outcomes = I[1:], J[1:], outcomes[1:]": "I has shape (199,), not (200,): one entry per step",
    "I = I.astype(float)": "I is float64, not int64",
    "strategies['p'][2, 0] = np.nan": "strategy 'p' is not a probability distribution at every recorded step",
    "raise RuntimeError('the plugin broke')": "RuntimeError: the plugin broke",
}
"""Each kind of impossible output (and a plugin's own exception), and the end of its one line."""


@pytest.mark.parametrize("flaw", list(IMPOSSIBLE))
def test_impossible_outputs_or_an_exception_of_a_plugin_are_one_line_naming_it_and_nothing_is_written(
    tmp_path, monkeypatch, capsys, flaw
):
    """The plugin loaded as the registries load it, put in this process's registry (so mutmut sees it)."""
    from duelbandits import algorithms, cli

    code = good() + KERNEL.format(flaw=flaw)
    entries, _ = load(install(tmp_path / "site", code=code), monkeypatch)
    monkeypatch.setitem(algorithms.ALGORITHMS, "uniform", entries["uniform"])
    out = tmp_path / "run.parquet"
    args = ["--scenario", "condorcet", "--actions", "6", "--algorithm", "uniform", "--horizon", "200", "--run", "0"]
    assert cli.main(["simulate", *args, "--seed", "5", "--stride", "40", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert not out.exists() and err.count("\n") == 1, err
    assert err.startswith("duelbandits simulate: error: plugin uniform (distribution fakeplugin): ")
    assert IMPOSSIBLE[flaw] in err, err


def test_a_plugins_digest_covers_its_packages_init_and_what_changes_results_only(tmp_path, monkeypatch):
    """The ``__init__`` of the implementation's package runs before it, so an edit of it changes the
    digest; its own imports are followed only for a name of the package (``helper``), not a submodule's.
    Relative, absolute and plain imports, two levels down, through a cycle. A parameter's description
    (in the module or the entry, by position or keyword) or a comment changes no result, nor the digest;
    its other arguments do."""
    from duelbandits import plugins
    from duelbandits.algorithms import BUILTINS

    package = tmp_path / "initplugin"
    (package / "sub").mkdir(parents=True)
    init = "from .other import OTHER\n\n\ndef helper():\n    return {}\n"
    for name, text in (("__init__", init.format(1)), ("sub/__init__", ""), ("sub/deep", ""), ("util", "f = 1\n"),
                       ("sub/algo", "import json, initplugin.sub.deep\nfrom ..util import f\n"),
                       ("other", "from .sub import algo\nOTHER = 1\n")):  # fmt: skip
        (package / f"{name}.py").write_text(text)
    load(tmp_path, monkeypatch, "initplugin")
    before = plugins.files_digest("initplugin.sub.algo")
    (package / "__init__.py").write_text(init.format(2))
    assert plugins.files_digest("initplugin.sub.algo") != before
    common = {"initplugin", "initplugin.sub", "initplugin.sub.algo"}
    assert set(plugins.module_files("initplugin.sub.algo")) == {*common, "initplugin.sub.deep", "initplugin.util"}
    (package / "sub/algo.py").write_text("from initplugin import util\n")
    assert set(plugins.module_files("initplugin.sub.algo")) == {*common, "initplugin.util"}
    (package / "sub/algo.py").write_text("from .. import helper\n")
    assert set(plugins.module_files("initplugin.sub.algo")) == {*common, "initplugin.other"}
    entry, digests = BUILTINS["dts"], []
    alpha = entry.params["alpha"]
    for default, text, comment in ((0.51, "alpha", ""), (0.51, "alpha > 1/2", "  # a comment"), (0.6, "alpha", "")):
        (package / "sub/algo.py").write_text(f'from .. import helper\nP = Param({default}, "{text}"){comment}\n')
        edited = {"alpha": dataclasses.replace(alpha, default=default, description=text)}
        digests.append(plugins.files_digest("initplugin.sub.algo", dataclasses.replace(entry, params=edited)))
    assert digests[0] == digests[1] != digests[2]

    def digest(line):
        (package / "sub/algo.py").write_text(f"from .. import helper\n{line}\n")
        return plugins.files_digest("initplugin.sub.algo")

    keyword = 'P = algorithms.Param(0.5, description="{}", minimum={})'  # by keyword, through a module
    assert digest(keyword.format("a", 0)) == digest(keyword.format("b", 0)) != digest(keyword.format("a", 1))
    assert digest('P = Param(0.5, "a", 0)') != digest('P = Param(0.5, "a", 1)')  # the argument after it counts
