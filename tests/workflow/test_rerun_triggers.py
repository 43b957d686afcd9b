"""An edit reruns only what it can change: each module of the package, edited alone in a copy, plans
exactly the jobs docs/rerun-triggers.md lists for it, and a change to a config section of a target
beyond the paper plans no job of the paper run.

One tiny build of every target but `panels` and `paper` (the paper run, sweeps, field with all twelve
algorithms, asymptotics, maximin_tail, maximin_bayes, claims), then one `snakemake --summary` per module
with that module changed by a comment. A job is *triggered* when its own rerun trigger
(its rule's ``code`` param) changed, as ``snakemake --summary`` marks them; the jobs
downstream of a triggered one run after it, as they must, and are not listed in the table.
"""

import os
import re
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from workflow_helpers import REPO, TINY, planned_rules, snakemake_command

TABLE = REPO / "docs" / "rerun-triggers.md"
TARGETS = ("all", "sweeps", "field", "asymptotics", "maximin_tail", "maximin_bayes", "claims")
UNBUILT = {
    "matrix_file",  # only for the file scenario, which the tiny config does not run
    "panel_main",
    "panel_appendix_abc",
    "panel_appendix_abcd",
    "panel_appendix_abcde",
    "figures_tex",
    "figures_pdf",
}
"""The rules of `panels` and `paper`, which the build leaves out (figures_pdf needs TeX Live; the panels run
the figure commands' own functions, cmd_figure_main and cmd_figure_appendix, with --panel, so their triggers
are those of figure_main and figure_appendix, which are checked); their rows are not checked here."""
BEYOND = """
sweeps: {runs: 2, runs_per_job: 2, points: 4, bootstrap: 20,
         horizon: {scenarios: [borda], horizons: [200, 400]}, actions: {scenarios: [borda], actions: [6], horizon: 200}}
field: {scenarios: [borda, arithmetic], horizon: 200, runs: 2, runs_per_job: 2, points: 4}
asymptotics: {horizons: [200, 300, 400], runs: 2, steps_per_job: 1000, points: 4, bootstrap: 20}
maximin-tail: {runs: 6, runs_per_job: 3, first_horizon: 200, horizon: 400, others: 2, jobs: 2, points: 5,
               escape_samples: 10, family: {actions: [4], gaps: [0.1], runs: 2, horizon: 200, points: 4,
               bootstrap: 5}}
maximin-bayes: {actions: [3, 4], horizon: 200, matrices: 2, runs: 1, jobs: 2}
"""


def documented() -> dict[str, set[tuple[str, str | None]]]:
    """``{module path: {(rule, algorithm or None), ...}}`` from the table of docs/rerun-triggers.md."""
    rows = {}
    for line in TABLE.read_text().splitlines():
        match = re.fullmatch(r"\| `([\w/]+\.py)` \| (.*) \|", line.strip())
        if not match:
            continue
        jobs = set()
        for item in re.findall(r"every job|[\w-]+(?: \([^)]*\))?", match.group(2)):
            rule, _, algorithms = item.partition(" (")
            if algorithms:
                jobs |= {(rule, slug.strip()) for slug in algorithms.rstrip(")").split(",")}
            else:
                jobs.add((rule, None))
        rows[match.group(1)] = jobs
    return rows


def triggered(summary: str) -> set[tuple[str, str | None]]:
    """The (rule, algorithm) of every output ``snakemake --summary`` marks ``params changed``: the jobs
    whose own rerun trigger changed (the algorithm only for the simulation rules, whose trigger
    depends on it; it is the folder above the chunk file)."""
    jobs = set()
    for line in summary.splitlines()[1:]:
        fields = line.split("\t")
        if len(fields) < 6 or fields[4] != "params changed":
            continue
        path, rule = Path(fields[0]), fields[2]
        jobs.add((rule, path.parent.name if rule in ("simulate", "point") else None))
    return jobs


def expand(jobs, every):
    """The documented jobs with ``every job`` and the simulation rules without algorithms spelled out."""
    out = set()
    for rule, algorithm in jobs:
        if rule in UNBUILT or rule == "none":
            continue
        if rule == "every job":
            out |= every
        elif rule in ("simulate", "point") and algorithm is None:
            out |= {job for job in every if job[0] == rule}  # every algorithm the build simulated
        else:
            out.add((rule, algorithm))
    unknown = {rule for rule, _ in out} - {rule for rule, _ in every}
    assert not unknown, f"{TABLE.name} names rules the workflow does not have: {sorted(unknown)}"
    return out & every  # a listed job the tiny config does not make (simulate of a field algorithm) cannot run


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A tiny build of every target made with a copy of the package, and ``run(*args, src=, configs=)``,
    which runs Snakemake there with the package at ``src`` (the copy by default)."""
    root = tmp_path_factory.mktemp("rerun")
    src = root / "src"
    shutil.copytree(REPO / "src" / "duelbandits", src / "duelbandits", ignore=shutil.ignore_patterns("__pycache__"))
    (root / "beyond.yaml").write_text(BEYOND)
    workdir = root / "run"
    workdir.mkdir()

    def run(*args, src=src, configs=()):
        cmd = snakemake_command(workdir, [REPO / "config.yaml", TINY, root / "beyond.yaml", *configs], *args)
        env = {**os.environ, "PYTHONPATH": str(src)}
        return subprocess.run(cmd, capture_output=True, text=True, timeout=1200, env=env)

    result = run("--cores", "2", *TARGETS)
    assert result.returncode == 0, result.stderr[-5000:]
    result = run("--cores", "2", "claims")  # the ledger reads the tail's tables, which the first build made
    assert result.returncode == 0, result.stderr[-5000:]
    return src, run


def test_the_table_lists_every_module_of_the_package():
    modules = {p.relative_to(REPO / "src" / "duelbandits").as_posix() for p in (REPO / "src/duelbandits").rglob("*.py")}
    assert set(documented()) == modules


def test_each_module_edit_reruns_exactly_the_jobs_the_table_lists(built, tmp_path):
    src, run = built
    nothing = run("--dry-run", *TARGETS)
    assert nothing.returncode == 0 and "Nothing to be done" in nothing.stdout + nothing.stderr
    table = documented()

    def edited(module, worker):
        """The jobs ``snakemake --summary`` marks after ``module`` is edited in the worker's own copy."""
        copy = tmp_path / f"src{worker}"
        if not copy.exists():
            shutil.copytree(src, copy)
        path = copy / "duelbandits" / module
        original = path.read_bytes()
        try:
            path.write_bytes(original + b"\n# an edit\n")
            result = run("--summary", "--nolock", *TARGETS, src=copy)
        finally:
            path.write_bytes(original)
        assert result.returncode == 0, (module, result.stderr[-3000:])
        return triggered(result.stdout)

    every = edited("__main__.py", 0)  # every job runs __main__
    modules = sorted(table)
    with ThreadPoolExecutor(2) as pool:  # two copies of the package, two Snakemake processes at a time
        planned = dict(zip(modules, pool.map(lambda k: edited(modules[k], k % 2), range(len(modules)))))
    wrong = {}
    for module in modules:
        listed = expand(table[module], every)
        if planned[module] != listed:
            wrong[module] = (sorted(planned[module] - listed, key=str), sorted(listed - planned[module], key=str))
    report = [f"{m}: planned but not listed {a}; listed but not planned {b}" for m, (a, b) in wrong.items()]
    assert not wrong, "\n".join(report)


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


def test_an_edited_kernel_reruns_its_own_simulations_not_its_compile_group(built, tmp_path):
    """The compile job of a group of kernels (paper-2: SparringExp3.P, Partial Monitoring, ISS, DTS) has no
    rerun trigger and its file is not remade: an edit of ISS's kernel plans ISS's simulations and what reads
    them, not the compile job and not the simulations of the other three."""
    src, run = built
    copy = tmp_path / "src"
    shutil.copytree(src, copy)
    kernel = copy / "duelbandits" / "algorithms" / "iss.py"
    kernel.write_bytes(kernel.read_bytes() + b"\n# an edit\n")
    result = run("--dry-run", "all", src=copy)
    assert result.returncode == 0, result.stderr[-3000:]
    planned = planned_rules(result.stdout + result.stderr)
    simulated = set(re.findall(r"output: results/runs/\w+/([\w-]+)/chunk-\d+\.parquet", result.stdout))
    assert "compile_kernels" not in planned and simulated == {"iss"}
    assert planned["simulate"] == sum(
        1 for line in result.stdout.splitlines() if "/iss/chunk-" in line and "output:" in line
    )
