"""The rules' argument plumbing: one ``snakemake --dry-run --printshellcmds --forceall`` of every target
with an override off every default a rule passes on, whose shell commands are checked against the
merged config and ``duelbandits.plan.jobs`` (a dropped argument or a value from the wrong key fails)."""

import collections
import json
import re
import shlex
import subprocess
from pathlib import Path

import pytest
import yaml
from snakemake.utils import update_config
from workflow_helpers import snakemake_command

from duelbandits import plan, resources, scenarios

REPO = Path(__file__).resolve().parents[1]

OVERRIDE = """
seed: 4246
scenario_params: {utility_max: 2.5, margin: 0.4, borda_strength: 0.9}
algorithm_params:
  ts-borda: {c_alpha: 0.7}
  dts: {alpha: 0.6}
sweeps:
  runs: 7
  runs_per_job: 3
  points: 9
  bootstrap: 50
  confidence: 0.9
  actions: {scenarios: [borda], actions: [6, 10, 12], horizon: 10000}
field:
  runs: 5
  runs_per_job: 2
  points: 11
asymptotics:
  runs: 5
  runs_at: [{horizon: 10000000, runs: 3}]
  steps_per_job: 20000000
  points: 13
  bootstrap: 60
  confidence: 0.85
  near: 0.15
"""
"""Off the defaults. The action sweep reaches A = 10 at T = 10^4, a point of the horizon sweep too (planned
once); seed 4246 is one at which every scenario of every target builds with these parameters."""

TARGETS = ["all", "sweeps", "field", "asymptotics", "panels", "maximin_tail", "maximin_bayes", "claims"]
CLI = ["python", "-m", "duelbandits"]
RUN_CHUNK = "results/runs/{scenario}/{algorithm}/chunk-{chunk}.parquet"
POINT = "results/{target}/points/{scenario}/A{actions}-T{horizon}/{algorithm}/chunk-{chunk}.parquet"


CONFIG = yaml.safe_load((REPO / "config.yaml").read_text())
for overlay in ((REPO / "tests/workflow/tiny.yaml").read_text(), OVERRIDE):
    update_config(CONFIG, yaml.safe_load(overlay))  # as Snakemake merges config files


class Job:
    """One planned job: its rule, wildcards and parsed shell command (``options``: option -> one list of
    values per occurrence; ``positional``: the words after the command that belong to no option)."""

    def __init__(self, rule, wildcards, shell, output=(), resources=None):
        self.rule, self.wildcards, self.shell, self.output = rule, wildcards, shell, list(output)
        self.resources = resources or {}
        self.command, self.positional, self.options = None, [], {}
        if shell is None:
            return
        tokens = shlex.split(shell.split(" > ", 1)[0])
        assert tokens[: len(CLI)] == CLI, shell
        self.command, current = tokens[len(CLI)], None
        for token in tokens[len(CLI) + 1 :]:
            if token.startswith("--"):
                current = token
                self.options.setdefault(token, []).append([])
            elif current is None:
                self.positional.append(token)
            else:
                self.options[current][-1].append(token)

    def all(self, option):
        """Every value of ``option``, over its occurrences."""
        return [value for values in self.options.get(option, []) for value in values]

    def one(self, option):
        """The value of an option given once with one value."""
        assert len(self.options.get(option, [])) == 1 and len(self.options[option][0]) == 1, (self.rule, option)
        return self.options[option][0][0]

    def pairs(self, option):
        """``NAME=VALUE`` values of a repeated option, as a dict of floats (each name once)."""
        items = [value.split("=", 1) for value in self.all(option)]
        assert len({name for name, _ in items}) == len(items), (self.rule, option, items)
        return {name: float(value) for name, value in items}

    def __repr__(self):
        return f"Job({self.rule}, {self.wildcards})"


def parse_dry_run(text):
    jobs, job = [], None
    for line in text.splitlines():
        match = re.match(r"^(?:local)?rule (\w+):$", line)
        if match:
            job = {"rule": match.group(1), "wildcards": {}, "shell": None}
            jobs.append(job)
        elif job is not None and line.strip().startswith("output: "):
            job["output"] = line.strip()[len("output: ") :].split(", ")
        elif job is not None and line.strip().startswith(("wildcards: ", "resources: ")):
            name, _, items = line.strip().partition(": ")
            job[name] = dict(item.split("=", 1) for item in items.split(", "))
        elif job is not None and line.startswith("Shell command: "):
            shell = line[len("Shell command: ") :]
            job["shell"] = None if shell == "None" else shell  # a target rule: nothing to run
    return [Job(**job) for job in jobs]


@pytest.fixture(scope="module")
def jobs(tmp_path_factory):
    """``{rule: [Job, ...]}`` of the one dry run."""
    workdir = tmp_path_factory.mktemp("plumbing")
    override = workdir / "override.yaml"
    override.write_text(OVERRIDE)
    configs = [REPO / "config.yaml", REPO / "tests/workflow/tiny.yaml", override]
    args = ["--dry-run", "--printshellcmds", "--forceall", *TARGETS]
    cmd = snakemake_command(workdir / "run", configs, *args)
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    by_rule = collections.defaultdict(list)
    for job in parse_dry_run(result.stdout):
        by_rule[job.rule].append(job)
    return dict(by_rule)


def shell_jobs(jobs):
    return [job for rule_jobs in jobs.values() for job in rule_jobs if job.shell is not None]


def appendix_panel_jobs(jobs):
    """The jobs of the appendix panel rules, one rule per set of panels (panel_appendix_abc, ...)."""
    return [job for rule, rule_jobs in jobs.items() if rule.startswith("panel_appendix_") for job in rule_jobs]


def test_every_job_runs_the_cli_and_each_rule_has_its_expected_number_of_jobs(jobs):
    """The simulations' and points' jobs are the planned ones: the partition tests below."""
    assert len(jobs["aggregate"]) == len(CONFIG["scenarios"])
    assert len(jobs["figure_main"]) == len(CONFIG["scenarios"])
    assert len(jobs["figure_appendix"]) == len(CONFIG["scenarios"])  # one job per scenario: its six figures
    assert len(jobs["panel_main"]) == len(CONFIG["scenarios"])  # one job per figure: its panels
    assert len(appendix_panel_jobs(jobs)) == len(CONFIG["scenarios"]) * len(CONFIG["algorithms"])
    scenario_names = set(CONFIG["scenarios"]) | set(CONFIG["field"]["scenarios"])
    assert {job.wildcards["scenario"] for job in jobs["scenario"]} == scenario_names
    for rule in TARGETS:
        assert [job.shell for job in jobs[rule]] == [None]  # target rules run nothing
    assert all(job.command for job in shell_jobs(jobs))


# --- Seeds, scenario parameters, hyper-parameters ------------------------------------------------

SEEDED = {"scenario", "simulate", "point", "sweep_horizon", "asymptotics_table", "tail_continue", "tail_table"}
SEEDED |= {"tail_family", "bayes_runs"}
"""Rules whose command takes --seed: the matrices, the runs' streams and the bootstraps."""


C_ALPHA_RULES = {"bounds", "figure_main", "panel_main", "figures_tex", "sweep_actions", "asymptotics_table"}
"""Rules whose command takes TS-Borda's c_alpha (its bound, its requirement notes)."""


@pytest.mark.parametrize(
    "option, rules, value", [("--seed", SEEDED, str(CONFIG["seed"])), ("--c-alpha", C_ALPHA_RULES, "0.7")]
)
def test_an_option_from_one_key_reaches_every_command_that_takes_it_and_no_other(jobs, option, rules, value):
    for job in shell_jobs(jobs):
        if job.rule in rules:
            assert job.one(option) == value, job
        else:
            assert option not in job.options, job
    assert rules <= set(jobs)


def test_generated_scenarios_get_the_configs_parameters_and_benchmarks_none(jobs):
    expected = {name: float(value) for name, value in CONFIG["scenario_params"].items()}
    sizes = {"arithmetic": 8, "mslr5": 5}
    seen = set()
    for job in jobs["scenario"] + jobs["simulate"] + jobs["point"]:
        name = job.one("--scenario")
        seen.add(name)
        if name in scenarios.GENERATED:
            assert job.pairs("--scenario-param") == expected, job
            assert job.rule != "scenario" or job.one("--actions") == str(CONFIG["actions"]), job
        else:  # a published matrix: no parameter applies (and none may trigger a rerun)
            assert "--scenario-param" not in job.options, job
            assert job.one("--actions") == str(sizes[name]), job
    assert {"condorcet", "borda", "cyclic", "arithmetic", "mslr5"} <= seen
    for job in shell_jobs(jobs):
        if job.rule not in ("scenario", "simulate", "point"):
            assert "--scenario-param" not in job.options, job


def test_hyper_parameter_overrides_reach_exactly_their_algorithms_jobs(jobs):
    dts = []
    for job in jobs["simulate"] + jobs["point"]:
        algorithm = job.one("--algorithm")
        assert algorithm == job.wildcards["algorithm"]
        expected = {k: float(v) for k, v in CONFIG["algorithm_params"].get(algorithm, {}).items()}
        assert job.pairs("--param") == expected, job
        if job.pairs("--param") == {"alpha": 0.6}:
            dts.append(job)
    assert dts and {job.one("--algorithm") for job in dts} == {"dts"}
    planned_dts = [j for t in ("paper", *plan.POINT_TARGETS) for j in plan.jobs(CONFIG, t) if j.algorithm == "dts"]
    assert len(dts) == len(planned_dts)
    for job in shell_jobs(jobs):
        if job.rule not in ("simulate", "point"):
            assert "--param" not in job.options, job


# --- The paper run: chunks, aggregate, bounds, summary, figures ----------------------------------


def parse_runs(text):
    first, _, last = text.partition("-")
    return int(first), int(last or first)


def test_simulate_and_point_jobs_are_the_planned_jobs_with_their_arguments_and_requests(jobs):
    """Each planned job once (that the chunks partition the runs: tests/test_plan.py) with its own arguments,
    and its Slurm requests (mem_mb, runtime) duelbandits.resources' for it."""
    planned = {
        (RUN_CHUNK if j.target == "paper" else POINT).format(**vars(j)): j
        for target in ("paper", *plan.POINT_TARGETS)
        for j in plan.jobs(CONFIG, target)
    }
    simulations = jobs["simulate"] + jobs["point"]
    assert sorted(job.one("--out") for job in simulations) == sorted(planned)
    for job in simulations:
        j = planned[job.one("--out")]
        assert job.output == [job.one("--out")] and parse_runs(job.one("--runs")) == (j.first, j.last), job
        for option in ("scenario", "algorithm", "horizon", "actions"):
            assert job.one(f"--{option}") == str(getattr(j, option)), (job, option)
        if j.target == "paper":
            assert job.one("--stride") == str(CONFIG["stride"]), job
        else:
            assert job.one("--points") == str(CONFIG[j.target]["points"]), job
        requested = {name: int(job.resources[name]) for name in ("mem_mb", "runtime")}
        assert requested == {"mem_mb": resources.job_mem_mb(j), "runtime": resources.job_runtime(j)}, job
    assert CONFIG["runs"] > CONFIG["runs_per_job"]  # a scenario's runs in several chunks


def test_aggregate_lists_every_chunk_of_every_algorithm_once_with_its_own_scenario(jobs):
    written = {job.one("--out") for job in jobs["simulate"]}
    for job in jobs["aggregate"]:
        scenario = job.wildcards["scenario"]
        assert job.one("--scenario-file") == f"results/scenarios/{scenario}.json"
        chunks = [tuple(value.split("=", 1)) for value in job.all("--chunk")]
        expected = [
            (j.algorithm, RUN_CHUNK.format(scenario=scenario, algorithm=j.algorithm, chunk=j.chunk))
            for j in plan.jobs(CONFIG, "paper")
            if j.scenario == scenario
        ]
        assert collections.Counter(chunks) == collections.Counter(expected), job
        assert {path for _, path in chunks} <= written
        assert [a for a in dict.fromkeys(a for a, _ in chunks)] == CONFIG["algorithms"]  # legend order
        assert job.one("--horizon") == str(CONFIG["horizon"]) and job.one("--runs") == str(CONFIG["runs"])
        assert job.one("--points") == str(CONFIG["summary_points"])
        for name in ("traces", "strategies", "summary"):
            assert job.one(f"--{name}") == f"results/{name}/{scenario}.parquet"


def test_bounds_and_summary_get_the_papers_algorithms_size_horizon_and_every_scenario(jobs):
    (bounds,) = jobs["bounds"]
    assert bounds.all("--algorithms") == CONFIG["algorithms"]
    assert bounds.one("--actions") == str(CONFIG["actions"]) and bounds.one("--horizon") == str(CONFIG["horizon"])
    assert bounds.one("--points") == str(CONFIG["summary_points"])
    (summary,) = jobs["summary"]
    assert summary.positional == [f"results/summary/{s}.parquet" for s in CONFIG["scenarios"]]
    assert summary.one("--bounds") == bounds.one("--out")
    (table,) = jobs["final_table"]
    assert table.one("--summary") == summary.one("--out")


def test_every_panel_command_reads_its_own_scenarios_files(jobs):
    """The figures' inputs are shown end to end by their data digests, and the files each figure and panel
    job writes by the tiny run's and the panels target's file lists (tests/workflow/test_workflow.py,
    test_paper_figures.py); the panels' inputs and figures.tex's scenarios here."""
    for job in jobs["panel_main"] + appendix_panel_jobs(jobs):
        scenario = job.wildcards["scenario"]
        assert job.one("--scenario-file") == f"results/scenarios/{scenario}.json", job
        if job.rule == "panel_main":
            assert job.one("--summary") == "results/summary.parquet"
            continue
        assert job.one("--algorithm") == job.wildcards["algorithm"], job
        assert job.one("--traces") == f"results/traces/{scenario}.parquet"
        assert job.one("--strategies") == f"results/strategies/{scenario}.parquet"
    (tex,) = jobs["figures_tex"]
    assert tex.all("--scenario-file") == [f"results/scenarios/{s}.json" for s in CONFIG["scenarios"]]


def test_the_manifest_and_the_report_page_record_the_configs_they_should(jobs):
    """(The files the manifest lists: the paper run's test against reference/MANIFEST.sha256.)"""
    (manifest,) = jobs["manifest"]
    assert json.loads(manifest.one("--config-json")) == plan.paper_config(CONFIG)
    (page,) = jobs["report_config"]
    assert json.loads(page.one("--config-json")) == CONFIG


# --- The points of the targets beyond the paper, and their tables -------------------------------


def test_each_table_reads_every_point_of_its_grid_once(jobs):
    sweeps = plan.jobs(CONFIG, "sweeps")
    horizon_grid = CONFIG["sweeps"]["horizon"]
    action_grid = CONFIG["sweeps"]["actions"]
    expected = {
        "sweep_horizon": [
            POINT.format(**vars(j))
            for j in sweeps
            if j.scenario in horizon_grid["scenarios"]
            and j.actions == CONFIG["actions"]
            and j.horizon in horizon_grid["horizons"]
        ],
        "sweep_actions": [
            POINT.format(**vars(j))
            for j in sweeps
            if j.scenario in action_grid["scenarios"]
            and j.horizon == action_grid["horizon"]
            and j.actions in action_grid["actions"]
        ],
        "asymptotics_table": [POINT.format(**vars(j)) for j in plan.jobs(CONFIG, "asymptotics")],
        "field_table": [POINT.format(**vars(j)) for j in plan.jobs(CONFIG, "field")],
    }
    # the point shared by both sweeps (borda, A = 10, T = 10^4) is read by both tables
    shared = [p for p in expected["sweep_actions"] if "/A10-T10000/" in p]
    assert shared and set(shared) <= set(expected["sweep_horizon"])
    for rule, paths in expected.items():
        (job,) = jobs[rule]
        assert collections.Counter(job.positional) == collections.Counter(paths), rule
        assert len(paths) == len(set(paths))


def test_bootstrap_settings_and_the_field_scenario_files_reach_the_tables(jobs):
    (horizon,) = jobs["sweep_horizon"]
    assert int(horizon.one("--resamples")) == CONFIG["sweeps"]["bootstrap"]
    assert float(horizon.one("--confidence")) == CONFIG["sweeps"]["confidence"]
    (asymptotics,) = jobs["asymptotics_table"]
    section = CONFIG["asymptotics"]
    assert int(asymptotics.one("--resamples")) == section["bootstrap"]
    assert float(asymptotics.one("--confidence")) == section["confidence"]
    assert float(asymptotics.one("--near")) == section["near"]
    (field,) = jobs["field_table"]
    assert field.all("--scenario-file") == [f"results/scenarios/{s}.json" for s in CONFIG["field"]["scenarios"]]
