"""Plugins: algorithms and scenarios from another installed package, through entry points.

Each test lays out a fake installed distribution (a package and its ``.dist-info`` with
``entry_points.txt``) in a folder of its own and runs ``python -m duelbandits`` or Snakemake's
planning with that folder on ``PYTHONPATH``, so the plugin is seen exactly as an installed one is and
nothing leaks into this process's registries.
"""

import os
import subprocess
import sys
import textwrap
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


def test_an_installed_plugin_is_listed_with_its_distribution_and_its_parameters(tmp_path):
    site = install(tmp_path / "site")
    result = duelbandits(site, "list")
    assert result.returncode == 0, result.stderr
    assert "uniform" in result.stdout and "plugin fakeplugin 0.1" in result.stdout
    assert "spread = 1.0: a finite number >= 0" in result.stdout
    assert "sorted" in result.stdout


def test_a_plugin_algorithm_simulates_on_a_plugin_scenario_and_its_file_records_the_plugin(tmp_path):
    site = install(tmp_path / "site")
    out = tmp_path / "run.parquet"
    args = ["--scenario", "sorted", "--actions", "6", "--algorithm", "uniform", "--horizon", "200", "--run", "3"]
    result = duelbandits(site, "simulate", *args, "--seed", "5", "--stride", "40", "--out", str(out))
    assert result.returncode == 0, result.stderr
    shown = duelbandits(site, "provenance", str(out))
    assert shown.returncode == 0, shown.stderr
    assert '"distribution": "fakeplugin"' in shown.stdout and '"version": "0.1"' in shown.stdout
    assert shown.stdout.count('"digest"') >= 2  # the algorithm's and the scenario's


def test_the_contract_check_passes_a_good_plugin_and_names_an_action_out_of_range(tmp_path):
    good = duelbandits(install(tmp_path / "good"), "check-algorithm", "uniform")
    assert good.returncode == 0 and "keeps the contract" in good.stdout, good.stderr
    bad = duelbandits(install(tmp_path / "bad", offset=1), "check-algorithm", "uniform")
    assert bad.returncode == 1
    assert "uniform: condorcet, A = 3: uniform: select() returned the duel (3, " in bad.stderr, bad.stderr


BAD = {
    "import": ["plugin fakeplugin 0.1", "fails to import: ZeroDivisionError"],
    "clash": ["plugin fakeplugin 0.1", "slug 'dts' is a built-in algorithm's"],
    "incomplete": ["plugin fakeplugin 0.1", "incomplete entry", "citation must be a non-empty string"],
    "regrets": ["plugin fakeplugin 0.1", "incomplete entry", "regrets must map each of condorcet, borda, target"],
    "name": ["plugin fakeplugin 0.1", "the entry's slug is 'uniform'; the entry point must be named by it"],
    "object": ["plugin fakeplugin 0.1", "is a dict, not a duelbandits.algorithms.Algorithm"],
    "scenario-clash": ["plugin fakeplugin 0.1", "slug 'borda' is a built-in scenario's"],
}
"""Each kind of unusable plugin, and the words of its one line."""


def install_bad(site, kind):
    code, names = None, None
    good = GOOD.format(slug="uniform", scenario="sorted", package="fakeplugin", offset=0)
    if kind == "import":
        code = "1 / 0\n"
    elif kind == "clash":
        code, names = good.replace('slug="uniform"', 'slug="dts"'), ("dts", "sorted")
    elif kind == "incomplete":
        code = good.replace('citation="a test\'s own", implementation', 'citation="", implementation')
    elif kind == "regrets":
        code = good.replace('"target": "copeland"', '"other": "copeland"')
    elif kind == "name":
        names = ("other-name", "sorted")
    elif kind == "object":
        code = good + "\nALGORITHM = {'slug': 'uniform'}\n"
    else:
        code, names = good.replace('slug="sorted"', 'slug="borda"'), ("uniform", "borda")
    return install(site, code=code, names=names)


@pytest.mark.parametrize("kind", list(BAD))
def test_a_bad_plugin_is_one_line_naming_it_and_the_problem_and_exit_2(tmp_path, kind):
    result = duelbandits(install_bad(tmp_path / "site", kind), "list")
    assert result.returncode == 2 and result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    for word in BAD[kind]:
        assert word in lines[0], (word, lines[0])


def plan(tmp_path, site, *args):
    """Snakemake's planning (a dry run) of the tiny paper run with ``site`` on the path."""
    return subprocess.run(
        [sys.executable, "-m", "snakemake", "-s", str(REPO / "Snakefile"), "--directory", str(tmp_path),
         "--configfile", str(REPO / "config.yaml"), str(TINY), "--dry-run", *args],
        capture_output=True, text=True, env=env_with(site), timeout=300,
    )  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["import", "clash", "incomplete"])
def test_a_bad_plugin_stops_planning_in_one_message_naming_it(tmp_path, kind):
    planned = plan(tmp_path, install_bad(tmp_path / "site", kind))
    out = planned.stdout + planned.stderr
    assert planned.returncode != 0 and all(word in out for word in BAD[kind]), out[-2000:]
    assert "Traceback" not in out and not (tmp_path / "results").exists()


@pytest.mark.slow
def test_a_plugin_whose_algorithm_breaks_the_contract_stops_planning_of_the_config_that_selects_it(tmp_path):
    site = install(tmp_path / "site", offset=1)
    planned = plan(tmp_path, site, "--config", "algorithms=[dts,uniform]")
    out = planned.stdout + planned.stderr
    assert planned.returncode != 0, out[-2000:]
    assert "config: algorithms: uniform (plugin fakeplugin 0.1) breaks the algorithm contract" in out, out[-2000:]
    assert "duelbandits check-algorithm uniform" in out and "Traceback" not in out
    unselected = plan(tmp_path, site)
    assert unselected.returncode == 0, (unselected.stdout + unselected.stderr)[-2000:]  # not selected: not run


@pytest.mark.slow
def test_a_plugin_hyper_parameter_is_validated_by_its_entry(tmp_path):
    site = install(tmp_path / "site")
    mine = tmp_path / "mine.yaml"
    for value, allowed in ((-0.5, False), (0.0, True)):  # the range is >= 0: the first invalid, the last valid
        mine.write_text(f"algorithms: [dts, uniform]\nalgorithm_params: {{uniform: {{spread: {value}}}}}\n")
        planned = plan(tmp_path, site, "--configfile", str(REPO / "config.yaml"), str(TINY), str(mine))
        out = planned.stdout + planned.stderr
        if allowed:
            assert planned.returncode == 0, out[-2000:]
        else:
            assert planned.returncode != 0, out[-2000:]
            assert "config: algorithm_params/uniform/spread: must be a finite number >= 0, got -0.5" in out, out[-2000:]
