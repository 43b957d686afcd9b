"""The tables of the README and docs/ that repeat a fact of the repository, written from their sources.

Each table sits between ``<!-- generated: NAME (python bench/docgen.py) -->`` and
``<!-- end generated -->`` in its page; this script rewrites what is between, from:

- ``targets`` (README.md): the Snakefile's own rules, the targets, each one's docstring its row;
- ``config`` (README.md): config.yaml's keys and values, each described by its schema description
  (workflow/schemas/config.schema.yaml);
- ``results`` (README.md): docs/images/table.md (the reference run's results/table.md) without its
  Copeland column;
- ``costs`` (docs/performance.md): the planner's measured costs, src/duelbandits/data/costs.csv.

    python bench/docgen.py    # rewrite each page whose tables differ from their sources

tests/test_docs.py checks that every page equals this script's output.
"""

from __future__ import annotations

import csv
import re
import sys
from pathlib import Path

import yaml

from duelbandits.storage import write_text
from duelbandits.tables import markdown

REPO = Path(__file__).resolve().parents[1]
SECTION = re.compile(r"(<!-- generated: (\w+) \(python bench/docgen\.py\) -->\n)(.*?)(<!-- end generated -->)", re.S)
SHOWN_DEFAULT = 72
"""A config value longer than this, as YAML on one line, is shown as "see `config.yaml`"."""


def targets(root: Path = REPO) -> str:
    """The Snakefile's rules, the default first as ``snakemake --cores 2``, each with its docstring."""
    rows = []
    for block in re.split(r"^(?=rule )", (root / "Snakefile").read_text(), flags=re.M)[1:]:
        name = re.match(r"rule (\w+):", block).group(1)
        doc = re.match(r'rule \w+:\n    """(.*?)"""', block, re.S)
        if doc is None:
            sys.exit(f"Snakefile: rule {name} has no docstring (its row of the README's table of targets)")
        if "default_target: True" in block:
            rows.insert(0, [f"default (`{name}`)", "`snakemake --cores 2`", " ".join(doc.group(1).split())])
        else:
            rows.append([f"`{name}`", f"`snakemake --cores 2 {name}`", " ".join(doc.group(1).split())])
    return markdown(["target", "command", "what it makes"], rows, "lll")


def config(root: Path = REPO) -> str:
    """Every key of config.yaml: its value as YAML on one line (or a pointer to the file if longer than
    :data:`SHOWN_DEFAULT`) and its schema description."""
    values = yaml.safe_load((root / "config.yaml").read_text())
    schema = yaml.safe_load((root / "workflow/schemas/config.schema.yaml").read_text())["properties"]
    rows = []
    for key, value in values.items():
        description = schema.get(key, {}).get("description")
        if description is None:
            sys.exit(f"workflow/schemas/config.schema.yaml: config key {key} has no description (its README row)")
        text = yaml.safe_dump(value, default_flow_style=True, sort_keys=False, width=float("inf"))
        text = text.removesuffix("...\n").strip()
        shown = f"`{text}`" if len(text) <= SHOWN_DEFAULT else "see `config.yaml`"
        rows.append([f"`{key}`", shown, " ".join(description.split())])
    return markdown(["key", "default", "what it sets"], rows, "lll")


def results(root: Path = REPO) -> str:
    """docs/images/table.md's table without its Copeland column."""
    lines = [line for line in (root / "docs/images/table.md").read_text().splitlines() if line.startswith("|")]
    cells = [[cell.strip() for cell in line.strip("|").split("|")] for line in lines]
    kept = [i for i, name in enumerate(cells[0]) if not name.startswith("Copeland")]
    return "".join("| " + " | ".join(row[i] for i in kept) + " |\n" for row in cells)


def costs(root: Path = REPO) -> str:
    """The measured costs file as written (an empty cell: not measured, the default applies)."""
    text = (root / "src/duelbandits/data/costs.csv").read_text()
    rows = csv.DictReader(line for line in text.splitlines() if not line.startswith("#"))
    cells = [[f"`{r['algorithm']}`", r["step_us"] or "-", r["compile_s"] or "-"] for r in rows]
    return markdown(["algorithm", "us per step", "compile CPU s"], cells, "lrr")


PAGES = {"README.md": (targets, config, results), "docs/performance.md": (costs,)}
"""Each page and the tables it holds."""


def expected(root: Path = REPO) -> dict[str, str]:
    """``{page: its text with every generated table rewritten}``; a page whose markers name another
    set of tables than :data:`PAGES` says is refused."""
    out = {}
    for page, makers in PAGES.items():
        text = (root / page).read_text()
        found = [match.group(2) for match in SECTION.finditer(text)]
        if sorted(found) != sorted(maker.__name__ for maker in makers):
            sys.exit(f"{page}: generated tables {found}, expected {[maker.__name__ for maker in makers]}")
        tables = {maker.__name__: maker(root) for maker in makers}
        out[page] = SECTION.sub(lambda m, tables=tables: m.group(1) + tables[m.group(2)] + m.group(4), text)
    return out


def main() -> None:
    """Rewrite each page that is not the output (atomically: never a half-written page), naming it."""
    for page, text in expected().items():
        if (REPO / page).read_text() != text:
            write_text(REPO / page, text)
            print(f"written: {page}")


if __name__ == "__main__":
    main()
