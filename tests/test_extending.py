"""docs/extending.md runs as written: each Python block as a script, the plugin's entry points as the
example's pyproject.toml declares them (its Snakefile block is run by tests/workflow/test_plugin_project.py)."""

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PAGE = (REPO / "docs/extending.md").read_text()


def blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", PAGE, flags=re.S | re.M)


@pytest.mark.parametrize("code", blocks("python"), ids=lambda code: code.splitlines()[-1][:40])
def test_each_python_block_runs_as_a_script(tmp_path, code):
    script = tmp_path / "block.py"
    script.write_text(code)
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]


def test_the_page_has_the_blocks_its_recipes_need():
    assert len(blocks("python")) == 2 and len(blocks("toml")) == 1 and len(blocks("snakemake")) == 1


def test_the_entry_points_shown_are_the_example_plugins():
    shown = tomllib.loads(blocks("toml")[0])["project"]["entry-points"]
    example = tomllib.loads((REPO / "examples/duelbandits-mergerucb/pyproject.toml").read_text())
    assert shown == example["project"]["entry-points"]


def test_the_entry_point_groups_shown_are_the_ones_the_loader_reads():
    from duelbandits import plugins

    shown = tomllib.loads(blocks("toml")[0])["project"]["entry-points"]
    assert sorted(shown) == sorted(plugins.GROUPS)
