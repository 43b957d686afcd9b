"""The README and docs/ stay true to the repository: links resolve, every code block runs or says why
not (tests/docblocks.py), the tables that repeat a fact are their generator's output (bench/docgen.py),
no outside pointers.

Quick tier: the Python blocks run; the slow tier dry-runs the shown snakemake commands (about ten
`snakemake -n`, two at a time) and runs the duelbandits commands of the blocks.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import docblocks
import pytest
from cli_process import run_cli, run_main

REPO, PAGES = docblocks.REPO, docblocks.PAGES
README, DOCS = PAGES[0], PAGES[1:]

LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
INLINE_CODE = re.compile(r"(`+)(.+?)\1")

# Snakemake options that take one value, and options that take every following word up to the next option.
ONE_VALUE = {
    "--cores", "-c", "--jobs", "-j", "--profile", "--report", "--executor", "-e", "--snakefile", "-s",
    "--directory", "-d", "--cluster-generic-submit-cmd", "--rerun-triggers", "--latency-wait",
    "--slurm-status-command", "--local-cores", "--restart-times", "--report-stylesheet",
}  # fmt: skip
MANY_VALUES = {
    "--config", "-C", "--configfile", "--configfiles", "--forcerun", "-R", "--groups", "--group-components",
    "--default-resources", "--set-resources", "--set-threads", "--until", "-U", "--omit-from", "-O",
    "--sdm", "--software-deployment-method",
}  # fmt: skip
TARGET = re.compile(r"^[a-z][a-z0-9_]*$")  # a rule name; file targets and placeholders (TARGET) are not checked
LATEX_MISSING = "needs latexmk"
LATEX_TARGETS = {"paper"}  # figures/figures.pdf: Snakemake refuses to plan it without latexmk


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lowercase, spaces to '-', punctuation other than '-' and '_' dropped."""
    text = heading.strip().lower()
    return "".join("-" if c == " " else c for c in text if c.isalnum() or c in " -_")


def anchors(path: Path) -> set[str]:
    """The anchors of every heading of a Markdown file, duplicates numbered as GitHub does."""
    found, seen = set(), {}
    prose, _ = docblocks.split(path.read_text())
    for line in prose:
        match = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if match:
            base = slug(match.group(1))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    return found


def relative_links(path: Path) -> list[str]:
    """Link targets of a Markdown file outside code, without web and mail links."""
    prose, _ = docblocks.split(path.read_text())
    text = INLINE_CODE.sub("", "\n".join(prose))
    return [t for t in LINK.findall(text) if not re.match(r"^(https?:|mailto:)", t)]


def link_problems(page: Path, root: Path = REPO) -> list[str]:
    """What is wrong with the relative links of ``page``: a missing file or folder, a path out of
    ``root``, an anchor that no heading of the target has."""
    problems = []
    for target in relative_links(page):
        where, _, anchor = target.partition("#")
        dest = (page.parent / where).resolve() if where else page
        if not dest.exists():
            problems.append(f"{target}: no such file or folder")
        elif root not in dest.parents and dest != root:
            problems.append(f"{target}: outside the repository")
        elif anchor and dest.suffix != ".md":
            problems.append(f"{target}: an anchor into a file that is not Markdown")
        elif anchor and anchor not in anchors(dest):
            problems.append(f"{target}: {dest.relative_to(root)} has no heading with anchor #{anchor}")
    return problems


def test_the_link_check_finds_broken_links_and_takes_githubs_anchors(tmp_path):
    assert slug("Long horizons (target `asymptotics`)") == "long-horizons-target-asymptotics"
    assert slug("The field: the paper's algorithms against the field's") == (
        "the-field-the-papers-algorithms-against-the-fields"
    )
    (tmp_path / "other.md").write_text("# A heading, with `code`\n\n```\n# not a heading\n```\n")
    page = tmp_path / "page.md"
    page.write_text(
        "[ok](other.md#a-heading-with-code) [gone](missing.md) [bad](other.md#not-a-heading) "
        "[web](https://example.org) `[code](nowhere.md)` [self](#top)\n\n# Top\n"
    )
    assert link_problems(page, tmp_path) == [
        "missing.md: no such file or folder",
        "other.md#not-a-heading: other.md has no heading with anchor #not-a-heading",
    ]


def test_every_relative_link_resolves_to_a_file_and_heading():
    problems = {str(page.relative_to(REPO)): link_problems(page) for page in PAGES}
    assert not {page: found for page, found in problems.items() if found}


def commands(text: str) -> list[list[str]]:
    """The arguments of every snakemake command in Markdown code: shell blocks' (tests/docblocks.py) and
    inline spans that start with snakemake. Other blocks (error messages, YAML) and snakemake in the middle
    of a sentence are not commands."""
    prose, blocks = docblocks.split(text)
    found = [w for _, language, body in blocks if language in docblocks.SHELL for w in docblocks.shell_commands(body)]
    for _, span in INLINE_CODE.findall("\n".join(prose)):
        if span.startswith("snakemake "):
            try:
                found += docblocks.shell_commands(span)
            except ValueError:  # an unbalanced quote in a span: fall back to plain words
                found.append(span.split())
    return [docblocks.dry_run_arguments(w) for w in found if docblocks.program(w) == "snakemake"]


def targets(words: list[str]) -> list[str]:
    """The rule names a snakemake command asks for, skipping options and their values."""
    found, takes = [], 0
    for word in words:
        if word.startswith("-"):
            name = word.split("=", 1)[0]
            takes = 0 if "=" in word else (1 if name in ONE_VALUE else (-1 if name in MANY_VALUES else 0))
        elif takes == 1:
            takes = 0
        elif takes == -1 or "=" in word:
            continue
        elif TARGET.match(word):
            found.append(word)
    return found


def shown_targets() -> list[str]:
    found = []
    for page in PAGES:
        for words in commands(page.read_text()):
            found += [t for t in targets(words) if t not in found]
    return found


def test_the_command_parser_skips_options_and_their_values():
    line = ".venv/bin/snakemake --cores all && x\nsnakemake --cores 2 --config horizon=2 runs=5 --profile p sweeps"
    words = commands(f"```bash\n{line}\n```\n")
    assert [targets(w) for w in words] == [[], ["sweeps"]]
    assert targets(shlex.split("--report report.html all sweeps --forcerun figure_main")) == ["all", "sweeps"]
    assert commands("`pip install snakemake-executor-plugin-cluster-generic`") == []
    assert commands("```\nsnakemake --report: the results differ\n```\n`run snakemake from a venv`") == []
    assert commands("```bash\npython -m snakemake -c 2 --cores=all --report r.html panels\n```") == [["panels"]]
    assert {"all", "table", "sweeps", "field", "asymptotics", "panels", "paper"} <= set(shown_targets())


def test_the_readme_is_at_most_300_lines_the_index_lists_every_page_and_nothing_points_outside():
    lines = len(README.read_text().splitlines())
    assert lines <= 300, f"README.md has {lines} lines; move detail into docs/"
    listed = {t for t in relative_links(REPO / "docs/README.md") if not t.startswith("..")}
    assert listed == {p.name for p in DOCS} - {"README.md"}
    files = [README, *sorted((REPO / "docs").rglob("*")), REPO / "config.yaml", *sorted((REPO / "workflow").rglob("*"))]
    offenders = [
        str(path.relative_to(REPO))
        for path in files
        if path.is_file()
        and "__pycache__" not in path.parts
        and any(word in path.read_bytes() for word in (b"../shared", b"SPEC.md"))
    ]
    assert not offenders, f"mention ../shared or SPEC.md (point to docs/paper.md instead): {offenders}"


# --- every code block runs (tests/docblocks.py says how each kind of block is run or marked) ---------------

BLOCKS = [block for page in PAGES for block in docblocks.blocks(page)]
RUNNERS = {"snakemake", "duelbandits"}


def block_problem(block: docblocks.Block) -> str | None:
    """Why ``block`` is neither run by this module nor marked, or None."""
    if block.marker:
        kind, value = block.marker
        if not value:
            return f"'{kind}:' gives no {'path' if kind == 'run by' else 'reason'}"
        if kind == "run by":
            runner = REPO / value
            if not runner.is_file():
                return f"run by {value}: no such file"
            if block.page.name not in runner.read_text():
                return f"run by {value}: that file never names {block.page.name}"
        return None
    if block.language in ("python", docblocks.OUTPUT):
        return None
    if block.language in docblocks.SHELL:
        others = [" ".join(w) for w in docblocks.shell_commands(block.text) if docblocks.program(w) not in RUNNERS]
        return f"runs {others[0]!r}, neither snakemake nor duelbandits" if others else None
    if block.language == "yaml":
        if not [w for w in docblocks.shell_commands(block.text, True) if docblocks.program(w) == "snakemake"]:
            return "a yaml block with no '# snakemake ...' line saying how it is used"
        return None
    return f"a '{block.language or 'bare'}' block: give it a language this test runs, or a marker"


def test_every_block_is_run_or_marked():
    assert len(BLOCKS) >= 30, "the parser lost blocks"
    problems = [f"{b.where}: {p}" for b in BLOCKS if (p := block_problem(b))]
    assert not problems, "\n".join(problems) + "\n(tests/docblocks.py lists the markers)"


def test_the_block_check_refuses_what_it_must(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "```bash\nsnakemake --cores 2 sweeps && duelbandits list\n```\n\n```bash\nrm -rf results\n```\n"
        "<!-- not run: it installs a package -->\n```bash\npip install x\n```\n\n```\nplain\n```\n"
        "<!-- run by: tests/conftest.py -->\n```toml\n[a]\n```\n<!-- not run: -->\n```bash\nls\n```\n"
        "```yaml\nruns: 2\n```\n"
        "```yaml\n# A's prior\n# snakemake --cores 2 sweeps --configfile config.yaml this.yaml\nruns: 2\n```\n"
    )
    found = [block_problem(b) for b in docblocks.blocks(page)]
    assert found == [
        None,
        "runs 'rm -rf results', neither snakemake nor duelbandits",
        None,
        "a 'bare' block: give it a language this test runs, or a marker",
        "run by tests/conftest.py: that file never names page.md",
        "'not run:' gives no reason",
        "a yaml block with no '# snakemake ...' line saying how it is used",
        None,  # its usage line read past a prose comment that shlex cannot split
    ]


PYTHON_BLOCKS = [b for b in BLOCKS if b.language == "python" and not b.marker]


@pytest.mark.parametrize("block", PYTHON_BLOCKS, ids=lambda b: b.where)
def test_each_python_block_runs_as_a_script(tmp_path, block):
    (tmp_path / "block.py").write_text(block.text)
    done = subprocess.run([sys.executable, "block.py"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{block.where}:\n{done.stderr[-2000:]}"


def repository_folder(root: Path) -> Path:
    """A folder laid out as the repository, for shown commands run from its root: the Snakefile,
    workflow/, config.yaml and config/ (the non-default overlays) linked in, and the user's own files of
    docblocks.FIXTURES."""
    root.mkdir(parents=True, exist_ok=True)
    for name in ("Snakefile", "workflow", "config.yaml", "config"):
        (root / name).symlink_to(REPO / name)
    for name, text in docblocks.FIXTURES.items():
        (root / name).write_text(text)
    return root


def shown_runs() -> tuple[dict[tuple[str, ...], set[str]], list[tuple[docblocks.Block, list[str]]]]:
    """The dry runs of every unmarked shell and yaml block and of the prose's `snakemake ...` spans,
    commands that differ only in their targets merged into one run (options -> targets, 'all' for
    none), and the duelbandits commands of the blocks."""
    dry, real = {}, []
    for block in BLOCKS:
        if block.marker or block.language not in docblocks.SHELL | {"yaml"}:
            continue
        for words in docblocks.shell_commands(block.text, comments_only=block.language == "yaml"):
            if docblocks.program(words) == "duelbandits":
                real.append((block, words))
            elif docblocks.program(words) == "snakemake":
                args = docblocks.dry_run_arguments(words)
                names = targets(args)
                options = tuple(w for w in args if w not in names)
                if block.language == "yaml":
                    options += (f"block:{block.where}",)
                dry.setdefault(options, set()).update(names or ["all"])
    dry.setdefault((), set()).update(shown_targets())  # and the rule names of the prose's `snakemake ...`
    return dry, real


@pytest.mark.slow
def test_every_shown_snakemake_command_dry_runs(tmp_path):
    """One `snakemake -n` per distinct set of options; without latexmk, `paper` is left out with a warning
    (tests/test_latex.py builds it when DUELBANDITS_LATEX_TEST is set)."""
    dry, _ = shown_runs()
    assert len(dry) >= 5 and {"all", "sweeps", "maximin_tail", "claims"} <= dry[()], dry
    blocks_by_name = {b.where: b for b in BLOCKS}
    jobs = []
    for number, (options, names) in enumerate(sorted(dry.items(), key=str)):
        folder = repository_folder(tmp_path / f"run{number}")
        args = [o for o in options if not o.startswith("block:")]
        for option in options:
            if option.startswith("block:"):
                (folder / "this.yaml").write_text(blocks_by_name[option[6:]].text)
        if not shutil.which("latexmk") and LATEX_TARGETS & names:
            warnings.warn(f"not planned, latexmk is missing: {sorted(LATEX_TARGETS & names)}", stacklevel=1)
            names = (names - LATEX_TARGETS) or {"all"}
        jobs.append((folder, [*sorted(names), *args]))

    def dry_run(job):  # in a fork of a process that imported Snakemake and the package (tests/cli_process.py)
        folder, args = job
        done = run_main("snakemake.cli", [*args, "-n", "--quiet"], cwd=folder, timeout=600)
        return f"snakemake -n {' '.join(args)}:\n{(done.stdout + done.stderr)[-1500:]}" if done.returncode else None

    with ThreadPoolExecutor(2) as pool:  # two at a time
        failed = [problem for problem in pool.map(dry_run, jobs) if problem]
    assert not failed, "\n\n".join(failed)


def complete_commands() -> list[tuple[str, list[str]]]:
    """The prose's whole `duelbandits ...` commands as (page, words): no placeholder (FILE, `...`, `[`) nor
    results/ or figures/ (the workflow tests run those); a bare subcommand gets --help."""
    found = []
    for page in PAGES:
        prose, _ = docblocks.split(page.read_text())
        for _, span in INLINE_CODE.findall("\n".join(prose)):
            if not span.startswith("duelbandits ") or re.search(r"\b[A-Z]{2,}\b|\.\.\.|\[|results/|figures/", span):
                continue
            words = shlex.split(span)
            if words[-1].startswith("--") and words[-1] != "--help" or len(words) > 1 and words[-2] == "--run":
                continue  # a flag named in a sentence (`--run r`), not a command
            if not any(w.startswith("-") for w in words):
                words.append("--help")  # a command named in a sentence (`duelbandits sweep-point`): it exists
            if (str(page.relative_to(REPO)), words) not in found:
                found.append((str(page.relative_to(REPO)), words))
    return found


@pytest.mark.slow
def test_every_shown_duelbandits_command_runs(tmp_path):
    """The duelbandits commands of the blocks and the whole ones of the prose, in a repository-like folder."""
    _, real = shown_runs()
    commands = [(block.where, words) for block, words in real] + complete_commands()
    assert {"list", "matrix", "simulate", "sweep-point"} <= {words[1] for _, words in commands}, commands
    folder = repository_folder(tmp_path)
    for where, words in commands:
        done = run_cli(*words[1:], cwd=folder, timeout=600)
        assert done.returncode == 0, f"{where}: {' '.join(words)}:\n{done.stderr[-2000:]}"


def test_the_readmes_simulate_command_gives_run_7_of_the_paper_run(tmp_path):
    """The README's promise: its `duelbandits simulate ... --run 7` command line is run 7 of the paper's
    experiment (config.yaml's seed, horizon, stride and the condorcet matrix), row for row."""
    import numpy as np
    import pyarrow.parquet as pq
    import yaml

    from duelbandits import plan, run_seed, simulate

    shown = re.search(r"`(duelbandits simulate [^`]*--run 7[^`]*)`", (REPO / "README.md").read_text()).group(1)
    args = shlex.split(shown)[1:]
    done = run_cli(*args, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    config = yaml.safe_load((REPO / "config.yaml").read_text())
    matrix = plan.scenario(config, "condorcet").matrix
    expected = simulate(matrix, "dts", config["horizon"], run_seed(config["seed"], "condorcet", "dts", 7),
                        stride=config["stride"], **config["algorithm_params"]["dts"])  # fmt: skip
    table = pq.read_table(tmp_path / "run7.parquet").to_pandas()
    assert (table["run"] == 7).all() and len(table) == config["horizon"]
    np.testing.assert_array_equal(table["I"].to_numpy(), expected.I)
    np.testing.assert_array_equal(table["J"].to_numpy(), expected.J)


# --- one source for each fact: the prose against the code and config.yaml it repeats ---------------------


def test_config_yaml_and_the_snakefile_header_name_only_real_targets():
    """config.yaml's comments say `snakemake --cores 2 TARGET`; the Snakefile's header names none (its
    targets are its own rules, listed in the README's table above)."""
    shown = [t for span in re.findall(r"`(snakemake [^`]*)`", (REPO / "config.yaml").read_text())
             for t in targets(shlex.split(span)[1:])]  # fmt: skip
    rules = set(re.findall(r"^rule (\w+):", (REPO / "Snakefile").read_text(), flags=re.M))  # the targets
    assert shown and set(shown) <= rules, set(shown) - rules
    assert "maximin-tail`" not in (REPO / "config.yaml").read_text().replace("maximin-tail:", "")


def test_the_generated_tables_are_the_generators_output(tmp_path):
    """The tables of the README and docs/ that repeat a fact (targets, config keys, the reference run's
    results, the measured costs) are written by bench/docgen.py from their sources; after a change of
    one: python bench/docgen.py."""
    import docgen

    stale = [page for page, text in docgen.expected().items() if (REPO / page).read_text() != text]
    assert not stale, f"not the output of python bench/docgen.py: {stale}"
    (tmp_path / "Snakefile").write_text('rule all:\n    """Everything."""\n\n\nrule new:\n    input:\n')
    with pytest.raises(SystemExit, match="^Snakefile: rule new has no docstring"):
        docgen.targets(tmp_path)  # a new target's row is its docstring: one is needed
    (tmp_path / "workflow/schemas").mkdir(parents=True)  # a new config key's row is its schema description
    (tmp_path / "workflow/schemas/config.schema.yaml").write_text("properties:\n  seed: {description: The seed.}\n")
    (tmp_path / "config.yaml").write_text("seed: 1\nnew_key: 2\n")
    with pytest.raises(SystemExit, match="^workflow/schemas/config.schema.yaml: config key new_key has no description"):
        docgen.config(tmp_path)


def test_the_readmes_results_come_from_the_reference_runs_table():
    """docs/images/table.md, the README's results table's source, is the reference run's results/table.md."""
    import hashlib

    from duelbandits import manifest

    _, entries, _ = manifest.read(REPO / "reference/MANIFEST.sha256")
    assert hashlib.sha256((REPO / "docs/images/table.md").read_bytes()).hexdigest() == entries["results/table.md"]


def test_every_declared_runtime_dependency_is_imported():
    """A dependency nothing imports is not one (docs/reproducibility.md#dependencies); the Snakefile counts."""
    import tomllib

    from packaging.requirements import Requirement

    declared = [
        Requirement(r).name for r in tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["dependencies"]
    ]
    sources = [*sorted((REPO / "src").rglob("*.py")), REPO / "Snakefile", *sorted((REPO / "workflow").rglob("*.smk"))]
    text = "\n".join(p.read_text() for p in sources)
    unused = [n for n in declared if not re.search(rf"^\s*(import|from) {re.escape(n)}\b", text, flags=re.M)]
    assert not unused, f"declared in pyproject.toml, imported nowhere: {unused}"
