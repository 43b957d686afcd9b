"""An edit reruns only what it can change: each module of the package, edited alone in a copy, changes
the rerun trigger (the ``code`` param) of exactly the jobs docs/rerun-triggers.md lists for it, and a
change to a config section of a target beyond the paper plans no job of the paper run.

The rules' triggers are read from the workflow as Snakemake parses it (one load), and each module's edit
recomputes them in-process (``triggers.PACKAGE_ROOT`` pointed at the edited copy). That Snakemake reruns
exactly the jobs whose trigger changed is checked end to end on a copy of the session's tiny paper run:
one ``snakemake --summary`` after an edit of a module that triggers some of its jobs, and the kernel
edit below. The jobs downstream of a triggered one run after it, as they must, and are not listed in
the table.
"""

import ast
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from workflow_helpers import REPO, TINY, planned_rules, snakemake_command

from duelbandits import triggers
from duelbandits.algorithms import ALGORITHMS

TABLE = REPO / "docs" / "rerun-triggers.md"
TARGETS = ("all",)
"""The end-to-end checks run on a copy of the session's tiny paper run; the in-process check covers every rule."""


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
        if rule == "none":
            continue
        if rule == "every job":
            out |= every
        elif rule in ("simulate", "point") and algorithm is None:
            out |= {job for job in every if job[0] == rule}  # every algorithm the build simulated
        else:
            out.add((rule, algorithm))
    return out & every  # a listed job the build does not make cannot run


@pytest.fixture(scope="module")
def built(tiny_run, tmp_path_factory):
    """A copy of the session's tiny run and of the package, and ``run(*args, src=, configs=)``, which runs
    Snakemake in the run's copy with the package at ``src`` (the copy by default)."""
    root = tmp_path_factory.mktemp("rerun")
    src = root / "src"
    shutil.copytree(REPO / "src" / "duelbandits", src / "duelbandits", ignore=shutil.ignore_patterns("__pycache__"))
    workdir = root / "run"
    shutil.copytree(tiny_run, workdir, symlinks=True)  # copy2: the times kept, the copy is up to date

    def run(*args, src=src, configs=()):
        cmd = snakemake_command(workdir, [REPO / "config.yaml", TINY, *configs], *args)
        env = {**os.environ, "PYTHONPATH": str(src)}
        return subprocess.run(cmd, capture_output=True, text=True, timeout=1200, env=env)

    return src, run


def test_the_table_lists_every_module_of_the_package():
    modules = {p.relative_to(REPO / "src" / "duelbandits").as_posix() for p in (REPO / "src/duelbandits").rglob("*.py")}
    assert set(documented()) == modules


WORKFLOW_TRIGGERS = """
import json, sys, types
from pathlib import Path
from snakemake.api import SnakemakeApi
from snakemake.settings.types import ConfigSettings, OutputSettings, ResourceSettings
from duelbandits.algorithms import ALGORITHMS

repo, workdir = Path(sys.argv[1]), Path(sys.argv[2])
configs = [repo / "config.yaml", repo / "tests/workflow/tiny.yaml"]
with SnakemakeApi(OutputSettings()) as api:
    workflow = api.workflow(
        resource_settings=ResourceSettings(cores=1), config_settings=ConfigSettings(configfiles=configs),
        snakefile=repo / "Snakefile", workdir=workdir,
    )._workflow
    found = {}
    for rule in workflow.rules:
        code = dict(rule.params.items()).get("code")
        if callable(code):  # a simulation rule's: a function of the job's algorithm
            found[rule.name] = {slug: code(types.SimpleNamespace(algorithm=slug)) for slug in ALGORITHMS}
        elif code is not None:
            found[rule.name] = {"": code}
print(json.dumps(found))
"""


@pytest.fixture(scope="module")
def workflow_triggers(tmp_path_factory):
    """``{rule: {algorithm or "": trigger}}`` of every rule with a ``code`` param, as Snakemake parses them."""
    workdir = tmp_path_factory.mktemp("parse")
    done = subprocess.run([sys.executable, "-c", WORKFLOW_TRIGGERS, str(REPO), str(workdir)], capture_output=True,
                          text=True, timeout=600)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def rule_code_calls():
    """The arguments of every ``code(...)`` and ``algorithm_code(...)`` call of the rules."""
    plain, kernel = set(), set()
    for path in sorted((REPO / "workflow/rules").glob("*.smk")):
        text = path.read_text()
        calls = re.findall(r'(?<![\w.])code\(("[^)]*)\)', text)  # the calls with strings, not the definition
        plain |= {ast.literal_eval(f"({args},)") for args in calls}
        kernel |= set(re.findall(r'(?<![\w.])algorithm_code\("([^"]+)"\)', text))
    return plain, kernel


def trigger_values(plain, kernel):
    """Every trigger the rules can have, computed from the package at ``triggers.PACKAGE_ROOT``."""
    triggers.forget()
    values = {("", args): triggers.code_digest(*args) for args in plain}
    values |= {(slug, entry): triggers.algorithm_code_digest(entry, slug) for entry in kernel for slug in ALGORITHMS}
    return values


def test_each_module_edit_changes_the_trigger_of_exactly_the_jobs_the_table_lists(
    workflow_triggers, tmp_path, monkeypatch
):
    copy = tmp_path / "duelbandits"
    shutil.copytree(REPO / "src" / "duelbandits", copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(triggers, "PACKAGE_ROOT", copy)
    calls = rule_code_calls()
    before = trigger_values(*calls)
    # each job's trigger as the workflow has it, and the call of the rules that gives it
    call = {}
    for rule, by_algorithm in workflow_triggers.items():
        for algorithm, value in by_algorithm.items():
            matching = [key for key, v in before.items() if v == value and key[0] == algorithm]
            assert matching, f"{rule} ({algorithm}): its trigger is no code() call of the rules"
            call[rule, algorithm or None] = matching[0]
    every, table, wrong = set(call), documented(), []
    named = {rule for jobs in table.values() for rule, _ in jobs} - {"every job", "none"}
    assert named <= set(workflow_triggers), (
        f"{TABLE.name} names rules without a trigger: {named - set(workflow_triggers)}"
    )
    for module in sorted(p.relative_to(copy).as_posix() for p in copy.rglob("*.py")):
        path = copy / module
        original = path.read_bytes()
        path.write_bytes(original + b"\n# an edit\n")
        after = trigger_values(*calls)
        path.write_bytes(original)
        changed = {job for job, key in call.items() if after[key] != before[key]}
        if module not in table or changed != expand(table[module], every):
            wrong.append(f"| `{module}` | {row(changed, every, list(workflow_triggers))} |")
    triggers.code_digest.cache_clear()
    assert not wrong, "the table's rows should be:\n" + "\n".join(wrong)


def row(jobs, every, rules):
    """The table's cell for ``jobs``: the rules in the workflow's order, a simulation rule's algorithms
    in the registry's order when not all of them."""
    if jobs == every:
        return "every job"
    cells = []
    for rule in rules:
        slugs = [slug for slug in ALGORITHMS if (rule, slug) in jobs]
        if (rule, None) in jobs or len(slugs) == len(ALGORITHMS):
            cells.append(rule)
        elif slugs:
            cells.append(f"{rule} ({', '.join(slugs)})")
    return ", ".join(cells) or "none"


EDITED = "theorems.py"
"""The bounds, the summary and the main figure, not the simulations nor the appendix figures."""


def test_snakemake_reruns_exactly_the_jobs_whose_trigger_an_edit_changed(built, tmp_path):
    """End to end, for one module whose jobs are a mixed set: ``snakemake --summary`` after its edit
    marks the jobs the table lists, of every job of the tiny run (those __main__'s edit marks)."""
    src, run = built
    nothing = run("--dry-run", *TARGETS)
    assert nothing.returncode == 0 and "Nothing to be done" in nothing.stdout + nothing.stderr

    def marked(module):
        copy = tmp_path / module.replace("/", "-")
        shutil.copytree(src, copy)
        path = copy / "duelbandits" / module
        path.write_bytes(path.read_bytes() + b"\n# an edit\n")
        result = run("--summary", "--nolock", *TARGETS, src=copy)
        assert result.returncode == 0, result.stderr[-3000:]
        return triggered(result.stdout)

    every = marked("__main__.py")
    assert len({rule for rule, _ in every}) >= 8, every
    listed = expand(documented()[EDITED], every)
    assert marked(EDITED) == listed


def test_a_change_to_the_sections_beyond_the_paper_plans_no_job_of_the_paper_run(built, tmp_path):
    """The three sections changed at once: a job of the paper run that one of them triggered would be planned."""
    _, run = built
    (tmp_path / "change.yaml").write_text("sweeps: {runs: 3}\nfield: {runs: 3}\nasymptotics: {runs: 3}\n")
    result = run("--dry-run", "--quiet", "rules", "all", configs=[tmp_path / "change.yaml"])
    assert result.returncode == 0, result.stderr[-3000:]
    # only the report's page of the whole config, which shows those sections
    assert planned_rules(result.stdout + result.stderr) == {"report_config": 1, "all": 1}


# the compile seconds of a re-measure (bench_algorithms.py --compile --write) whose balanced cut of the paper's
# kernels is five | DTS: in a cut from the costs file, DTS's simulations would take another group's file
MEASURED = "ts-maximin,0.8,1\nts-borda,1.4,1\nsparring-exp3p,0.27,1\npartial-monitoring,0.22,1\niss,2.1,1\ndts,1.6,9\n"


@pytest.mark.parametrize("edit", ["kernel", "costs"])
def test_an_edited_kernel_or_compile_cost_reruns_no_compile_job_nor_another_simulation(built, tmp_path, edit):
    """The compile job of a group of kernels (paper-2: SparringExp3.P, Partial Monitoring, ISS, DTS) has no
    rerun trigger and its file is not remade: an edit of ISS's kernel plans ISS's simulations and what reads
    them, not the compile job and not the simulations of the other three; re-measured compile costs plan
    no simulation (algorithms.KERNEL_GROUPS is frozen)."""
    src, run = built
    copy = tmp_path / "src"
    shutil.copytree(src, copy)
    if edit == "kernel":
        kernel = copy / "duelbandits" / "algorithms" / "iss.py"
        kernel.write_bytes(kernel.read_bytes() + b"\n# an edit\n")
    else:
        costs = copy / "duelbandits" / "data" / "costs.csv"
        costs.write_text(re.sub(r"(?s)ts-maximin,.*?\ndts,[^\n]*\n", MEASURED, costs.read_text()))
        assert MEASURED in costs.read_text()
    result = run("--dry-run", "all", src=copy)
    assert result.returncode == 0, result.stderr[-3000:]
    planned = planned_rules(result.stdout + result.stderr)
    simulated = set(re.findall(r"output: results/runs/\w+/([\w-]+)/chunk-\d+\.parquet", result.stdout))
    assert "compile_kernels" not in planned and simulated == ({"iss"} if edit == "kernel" else set())
    assert planned.get("simulate", 0) == len(re.findall(r"output: results/runs/\w+/iss/chunk-", result.stdout))
