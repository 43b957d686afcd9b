"""Your own project: a folder of a user's that uses this workflow as a Snakemake module, with its own
config and results and the example plugin (examples/duelbandits-mergerucb) installed beside it
(docs/extending.md). The plugin's algorithm and scenario run through the paper run and `field`, its
identity is in the provenance of what it made, and editing its algorithm reruns its jobs only."""

import json
import os
import re
import shutil
import subprocess
import sys

import pytest
import yaml
from cli_process import run_cli
from workflow_helpers import REPO, TINY, assert_figure_pair

PLUGIN = REPO / "examples/duelbandits-mergerucb"

EXTENDING = (REPO / "docs/extending.md").read_text()
SNAKEFILE = re.search(r"^```snakemake\n(.*?)^```", EXTENDING, flags=re.S | re.M).group(1)
"""The project Snakefile of docs/extending.md, run as written with a link to this checkout as its folder."""


def merged_config() -> dict:
    """The repository's config.yaml with the tiny run laid over it, choosing the plugin's entries."""
    config = yaml.safe_load((REPO / "config.yaml").read_text())
    config.update(yaml.safe_load(TINY.read_text()))
    config["algorithms"] = ["ts-maximin", "dts", "merge-rucb"]
    config["scenarios"] = ["condorcet", "thurstone"]
    config["field"].update(algorithms=["dts", "merge-rucb"], scenarios=["thurstone", "arithmetic"], runs=3, horizon=300)
    return config


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    root = tmp_path_factory.mktemp("project")
    site, source = root / "site", root / "plugin-source"
    # a copy: pip builds in the source folder, and build metadata there would register the plugin in
    # every process that imports from examples/ (the example's own tests do)
    shutil.copytree(PLUGIN, source, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    install = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(site), str(source)],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert install.returncode == 0, install.stderr[-2000:]
    (root / "duelbandits").symlink_to(REPO)  # the checkout the recipe's module names
    (root / "Snakefile").write_text(SNAKEFILE)
    (root / "config.yaml").write_text(yaml.safe_dump(merged_config(), sort_keys=False))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}
    done = run(root, env, "--cores", "2", "all", "field", "claims", "panels")
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    return root, site, env


def run(root, env, *args):
    command = [sys.executable, "-m", "snakemake", *args]
    return subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, timeout=1200)


def test_the_plugins_rows_are_in_the_paper_table_and_the_field_table(project):
    root, _, _ = project
    table = (root / "results/table.md").read_text()
    # the entry's regret by view: Maximin on condorcet; on thurstone (no paper view) its own Copeland column
    assert re.search(r"\| condorcet \| merge-rucb \| Maximin \| [\d.,]+ ± [\d.,]+ \| - \| - \|", table), table
    assert re.search(r"\| thurstone \| merge-rucb \| - \| [\d.,]+ ± [\d.,]+ \| - \| - \|", table), table
    field = (root / "results/field/table.md").read_text()
    assert field.count("MergeRUCB") >= 2 and "thurstone" in field and "arithmetic" in field, field


def test_the_plugins_appendix_figures_and_the_main_figure_of_its_scenario_are_drawn(project):
    root, _, _ = project
    for name in ("appendix/condorcet-merge-rucb", "appendix/thurstone-merge-rucb", "main/thurstone"):
        assert_figure_pair(root / f"figures/{name}.pdf", root / f"figures/{name}.png")


def test_every_file_the_plugin_made_records_its_distribution_version_and_digest_and_verify_passes(project):
    root, _, env = project
    for path in sorted((root / "results/runs").glob("*/merge-rucb/*.parquet")) + sorted(
        (root / "results/runs/thurstone").glob("*/*.parquet")
    ):
        shown = run_cli("provenance", path, cwd=root, env=env)
        assert shown.returncode == 0, shown.stderr
        plugins = json.loads(shown.stdout.partition(": ")[2])["plugins"]
        for slug in {"merge-rucb", "thurstone"} & set(plugins):
            assert plugins[slug]["distribution"] == "duelbandits-mergerucb" and plugins[slug]["version"] == "0.1.0"
            assert re.fullmatch(r"[0-9a-f]{16}", plugins[slug]["digest"])
        assert ("merge-rucb" in plugins) == ("/merge-rucb/" in str(path)) and ("thurstone" in plugins) == (
            "/thurstone/" in str(path)
        )
    verified = run_cli("manifest", "verify", "results/MANIFEST.sha256", cwd=root, env=env)
    assert verified.returncode == 0 and "identical: " in verified.stdout, verified.stdout[-2000:]
    assert re.search(
        r"^plugin merge-rucb: duelbandits-mergerucb 0\.1\.0 \(digest [0-9a-f]{16}\)$", verified.stdout, re.M
    )
    assert re.search(r"^plugin thurstone: duelbandits-mergerucb 0\.1\.0 ", verified.stdout, re.M)


def test_the_claims_and_the_panels_cover_the_plugins_scenario_and_algorithm(project):
    root, _, _ = project
    claims = (root / "results/claims.md").read_text()
    assert "| Theorem 4.1 (thurstone) |" in claims  # TS-Maximin's theorem, tested on the plugin's matrix too
    for name in ("appendix-thurstone-merge-rucb", "main-thurstone"):
        assert {p.name for p in (root / "figures/panels" / name).iterdir()} >= {"a.pdf", "a.png", "c.pdf"}, name


def test_editing_the_plugins_algorithm_reruns_its_simulations_only(project):
    root, site, env = project
    module = site / "duelbandits_mergerucb/mergerucb.py"
    module.write_text(module.read_text() + "\nEDITED = True  # an edit of its code (a comment alone reruns nothing)\n")
    planned = run(root, env, "--dry-run", "all", "field")
    out = planned.stdout + planned.stderr
    assert planned.returncode == 0, out[-2000:]
    simulations = re.findall(r"rule (simulate|point):\n(?:    .*\n)*?    wildcards: ([^\n]*)", out)
    assert simulations, out[-3000:]
    assert all("algorithm=merge-rucb" in wildcards for _, wildcards in simulations), simulations
    assert len([s for s in simulations if s[0] == "simulate"]) == 4  # 2 scenarios x 2 chunks (runs 3, 2 per job)
    assert len([s for s in simulations if s[0] == "point"]) == 2  # the field's 2 scenarios, one chunk each
    assert "rule scenario:" not in out  # the scenario's own module did not change
    verified = run_cli("manifest", "verify", "results/MANIFEST.sha256", cwd=root, env=env)
    assert "plugin differs from the manifest's: merge-rucb: made by duelbandits-mergerucb 0.1.0" in verified.stderr
