"""docs/extending.md runs as written: the plugin's entry points as the example's pyproject.toml declares
them (its Python blocks run as scripts in tests/test_docs.py, with every other page's; its Snakefile block
and install command run in tests/workflow/test_plugin_project.py)."""

import re
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PAGE = (REPO / "docs/extending.md").read_text()


def blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", PAGE, flags=re.S | re.M)


def test_the_page_has_the_blocks_its_recipes_need():
    assert len(blocks("python")) == 3 and len(blocks("toml")) == 1 and len(blocks("snakemake")) == 1


def test_the_entry_points_shown_are_the_example_plugins_in_the_groups_the_loader_reads():
    from duelbandits import plugins

    shown = tomllib.loads(blocks("toml")[0])["project"]["entry-points"]
    example = tomllib.loads((REPO / "examples/duelbandits-mergerucb/pyproject.toml").read_text())
    assert shown == example["project"]["entry-points"] and sorted(shown) == sorted(plugins.GROUPS)
