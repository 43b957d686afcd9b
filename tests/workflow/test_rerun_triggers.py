"""An edit reruns only what it can change: each module of the package, edited alone in a copy, plans
exactly the jobs docs/rerun-triggers.md lists for it, and a change to a config section of a target
beyond the paper plans no job of the paper run.

One tiny build of every target (the paper run, sweeps, field with all twelve algorithms, asymptotics,
the panels and figures/figures.tex; not figures/figures.pdf, which needs TeX Live), then one dry run
per module with that module changed by a comment. A job is *triggered* when its own rerun trigger
(its rule's ``code`` param) changed; the jobs downstream of a triggered one are planned too, as they
must be, and are not listed in the table.
"""

import os
import re
import shutil
import subprocess

import pytest
from workflow_helpers import REPO, TINY, planned_rules, snakemake_command

from duelbandits.algorithms import ALGORITHMS

TABLE = REPO / "docs" / "rerun-triggers.md"
TARGETS = ("all", "sweeps", "field", "asymptotics", "panels")
UNBUILT = "figures_pdf"
"""The one rule the build leaves out (it needs TeX Live); its rows are not checked here."""
BEYOND = """
sweeps: {runs: 2, runs_per_job: 2, points: 4, bootstrap: 20,
         horizon: {scenarios: [borda], horizons: [200, 400]}, actions: {scenarios: [borda], actions: [6], horizon: 200}}
field: {scenarios: [borda, arithmetic], horizon: 200, runs: 2, runs_per_job: 2, points: 4}
asymptotics: {horizons: [200, 400], runs: 2, steps_per_job: 1000, points: 4, bootstrap: 20}
"""


def documented() -> dict[str, set[tuple[str, str | None]]]:
    """``{module path: {(rule, algorithm or None), ...}}`` from the table of docs/rerun-triggers.md."""
    rows = {}
    for line in TABLE.read_text().splitlines():
        match = re.fullmatch(r"\| `([\w/]+\.py)` \| (.*) \|", line.strip())
        if not match:
            continue
        jobs = set()
        for item in re.findall(r"[\w-]+(?: \([^)]*\))?", match.group(2)):
            rule, _, algorithms = item.partition(" (")
            if algorithms:
                jobs |= {(rule, slug.strip()) for slug in algorithms.rstrip(")").split(",")}
            else:
                jobs.add((rule, None))
        rows[match.group(1)] = jobs
    return rows


def triggered(text: str) -> set[tuple[str, str | None]]:
    """The (rule, algorithm) of every job a dry run plans because its rerun trigger changed; the
    algorithm only for the simulation rules, whose trigger depends on it."""
    jobs = set()
    for block in re.split(r"\n(?=\[.*\]\nrule |rule )", text):
        rule = re.search(r"rule (\w+):", block)
        reason = re.search(r"reason: (.*)", block)
        if not rule or not reason or "Params have changed" not in reason.group(1):
            continue
        wildcards = dict(re.findall(r"(\w+)=([\w.-]+)", (re.search(r"wildcards: (.*)", block) or ["", ""])[1] or ""))
        algorithm = wildcards.get("algorithm") if rule.group(1) in ("simulate", "point") else None
        jobs.add((rule.group(1), algorithm))
    return jobs


def expand(jobs, every):
    """The documented jobs with ``every job`` and the simulation rules without algorithms spelled out."""
    out = set()
    for rule, algorithm in jobs:
        if rule == UNBUILT:
            continue
        if rule == "every":
            out |= every
        elif rule in ("simulate", "point") and algorithm is None:
            out |= {(rule, slug) for slug in ALGORITHMS}
        else:
            out.add((rule, algorithm))
    return out


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A copy of the package and a tiny build of every target, made with that copy."""
    root = tmp_path_factory.mktemp("rerun")
    src = root / "src"
    shutil.copytree(REPO / "src" / "duelbandits", src / "duelbandits", ignore=shutil.ignore_patterns("__pycache__"))
    (root / "beyond.yaml").write_text(BEYOND)
    workdir = root / "run"
    workdir.mkdir()
    env = {**os.environ, "PYTHONPATH": str(src)}

    def run(*args, configs=()):
        cmd = snakemake_command(workdir, [REPO / "config.yaml", TINY, root / "beyond.yaml", *configs], *args)
        return subprocess.run(cmd, capture_output=True, text=True, timeout=1200, env=env)

    result = run("--cores", "2", *TARGETS)
    assert result.returncode == 0, result.stderr[-5000:]
    return src / "duelbandits", run


def test_the_table_lists_every_module_of_the_package():
    modules = {p.relative_to(REPO / "src" / "duelbandits").as_posix() for p in (REPO / "src/duelbandits").rglob("*.py")}
    assert set(documented()) == modules


def test_each_module_edit_reruns_exactly_the_jobs_the_table_lists(built):
    package, run = built
    nothing = run("--dry-run", *TARGETS)
    assert nothing.returncode == 0 and "Nothing to be done" in nothing.stdout + nothing.stderr
    table = documented()
    every = set()
    wrong = {}
    for module in sorted(table, key=lambda m: m != "__main__.py"):  # __main__ first: it touches every job
        path = package / module
        original = path.read_bytes()
        try:
            path.write_bytes(original + b"\n# an edit\n")
            result = run("--dry-run", *TARGETS)
        finally:
            path.write_bytes(original)
        assert result.returncode == 0, (module, result.stderr[-3000:])
        planned = triggered(result.stdout + result.stderr)
        if module == "__main__.py":
            every = planned
        if planned != expand(table[module], every):
            wrong[module] = (
                sorted(planned - expand(table[module], every)),
                sorted(expand(table[module], every) - planned),
            )
    assert not wrong, "\n".join(
        f"{m}: planned but not listed {a}; listed but not planned {b}" for m, (a, b) in wrong.items()
    )


@pytest.mark.parametrize(
    "section", ["sweeps: {runs: 3}", "field: {runs: 3}", "asymptotics: {runs: 3}", "sweeps: {bootstrap: 21}"]
)
def test_a_change_to_a_section_beyond_the_paper_plans_no_job_of_the_paper_run(built, tmp_path, section):
    _, run = built
    (tmp_path / "change.yaml").write_text(section + "\n")
    result = run("--dry-run", "--quiet", "rules", "all", configs=[tmp_path / "change.yaml"])
    assert result.returncode == 0, result.stderr[-3000:]
    # only the report's page of the whole config, which shows that section
    assert planned_rules(result.stdout + result.stderr) == {"report_config": 1, "all": 1}
