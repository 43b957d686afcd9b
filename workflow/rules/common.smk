# Helpers that turn the validated config into file lists and rule params. Rules use them by
# name; the checks are in duelbandits.configcheck and the job lists in duelbandits.plan (testable
# without Snakemake), and no algorithm or plotting logic lives here.

import json
import os
import shlex
import shutil
import sys
from pathlib import Path

import duelbandits.studies.bayes
import duelbandits.claims
import duelbandits.configcheck as configcheck
import duelbandits.plan as plan
import duelbandits.resources as resources
import duelbandits.studies.tail.analysis as tail
import duelbandits.plotting.style as style
import duelbandits.triggers as triggers
import duelbandits.scenarios as scenarios
from duelbandits.algorithms import ALGORITHMS as REGISTRY


# Jobs run the package's CLI as `python -m duelbandits`, with the folder of the interpreter that
# runs Snakemake first on the PATH, so that they use the same environment whether or not it is
# activated. The interpreter's path is neither a param nor in the shell text: both are rerun
# triggers, and starting Snakemake from another environment must not rerun anything. PATH is
# passed on to cluster jobs.
envvars:
    "PATH",


if not (Path(sys.executable).parent / "python").exists():
    raise ValueError(
        f"run snakemake from a virtual environment or conda environment: the jobs run `python`, and "
        f"{Path(sys.executable).parent} (the folder of {sys.executable}) has none"
    )
os.environ["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])


def cli(command):
    """The shell command of every job, the one place that spells it: ``python -m duelbandits COMMAND``
    with its output in the job's log, which is shown when the command fails."""
    return f"python -m duelbandits {command} > {{log}} 2>&1 || (cat {{log}} >&2; exit 1)"


# Snakemake has read the config files, but its log file cannot hold a name that is not UTF-8 (a
# "--- Logging error ---" traceback at every run): refused here, before the run starts.
for _path in workflow.configfiles:
    try:
        str(_path).encode("utf-8")
    except UnicodeEncodeError:
        _name = str(_path).encode("utf-8", "backslashreplace").decode()
        raise ValueError(f"config: --configfile {_name}: its name is not valid UTF-8 (rename the file)") from None


def checked(check, *args):
    """``check(*args)``, with a ConfigError, or running out of memory while planning (a big target under
    ``ulimit -v``), turned into the one-line planning error Snakemake prints."""
    try:
        return check(*args)
    except configcheck.ConfigError as err:
        raise ValueError(str(err)) from None
    except MemoryError:
        raise ValueError(
            "config: planning ran out of memory: this config plans more than Snakemake may allocate here "
            "(ulimit -v, or memory_limit_gb above the free memory); lower actions/horizon/runs or raise the limit"
        ) from None


checked(configcheck.check_paper, config)


SCENARIOS = config["scenarios"]
ALGORITHMS = config["algorithms"]
C_ALPHA = plan.c_alpha(config)
CHUNKS = sorted({job.chunk for job in plan.jobs(config)})
PAPER_CONFIG = json.dumps(plan.paper_config(config), sort_keys=True)
PLUGINS_USED = json.dumps(plan.plugins_used(config), sort_keys=True)


# Every scenario and algorithm the package knows: each target picks its own from the config.
wildcard_constraints:
    scenario="|".join(scenarios.SCENARIOS),
    algorithm="|".join(REGISTRY),
    chunk=r"\d+",
    target="|".join(plan.POINT_TARGETS),
    actions=r"\d+",
    horizon=r"\d+",


# --- Rerun triggers: the code each command runs -------------------------------------------------


def code(entry, *modules):
    """A rule's rerun trigger: the digest of the package modules its command ``entry``
    ("cli.MODULE:FUNCTION") runs, and of ``modules`` it loads by name (a kernel the registry imports
    with importlib) (duelbandits.triggers.code_units)."""
    return triggers.code_digest(entry, *modules)


def algorithm_code(entry):
    """The rerun trigger of a simulation rule: ``entry`` and the job's algorithm's own code (its kernel
    module, or a plugin's package: duelbandits.triggers.algorithm_code_digest), so that an edit to
    one algorithm reruns only its simulations."""

    def digest(wildcards):
        return triggers.algorithm_code_digest(entry, wildcards.algorithm)

    return digest


# --- Scenarios ----------------------------------------------------------------------------------


def scenario_size(name):
    """A of scenario ``name``: the config's for generated scenarios, the matrix's own otherwise."""
    if name in scenarios.GENERATED:
        return config["actions"]
    return checked(lambda: plan.scenario(config, name, own_size=True)).matrix.shape[0]


def scenario_args(wildcards):
    """CLI arguments that pin the job's scenario matrix (at the job's A)."""
    actions = int(wildcards.actions) if hasattr(wildcards, "actions") else scenario_size(wildcards.scenario)
    return plan.scenario_args(config, wildcards.scenario, actions)


def matrix_input(wildcards):
    """The file scenario's validated copy of its CSV (duelbandits.plan.MATRIX_COPY); nothing for the others."""
    return [plan.MATRIX_COPY] if wildcards.scenario == "file" else []


def matrix_file_sha256(wildcards):
    """The sha256 of the config's matrix_file: the rerun trigger of its copy (its content, not its name)."""
    return triggers.scenario_source_digest("file", config["matrix_file"])


def matrix_sha256(wildcards):
    """A param of the jobs that build the job's matrix: the sha256 of the file scenario's CSV, a plugin
    scenario's version and digest, empty for the package's own (duelbandits.triggers.scenario_source_digest)."""
    return triggers.scenario_source_digest(wildcards.scenario, config.get("matrix_file"))


def algorithm_args(wildcards):
    """CLI hyper-parameter overrides of one algorithm (duelbandits.plan.algorithm_args)."""
    return plan.algorithm_args(config, wildcards.algorithm)


def scenario_file_args(wildcards, input):
    """``--scenario-file PATH`` for each scenario file of the rule's input, in the config's order."""
    return " ".join(f"--scenario-file {shlex.quote(path)}" for path in input.scenarios)


# --- Simulation jobs: the paper's run chunks and the points of the targets beyond it ------------

RUN_CHUNK = "results/runs/{scenario}/{algorithm}/chunk-{chunk}.parquet"
POINT = "results/{target}/points/{scenario}/A{actions}-T{horizon}/{algorithm}/chunk-{chunk}.parquet"
_JOBS = {}


def jobs(target="paper"):
    """The simulation jobs of ``target`` (duelbandits.plan.jobs), by their wildcards."""
    if target not in _JOBS:
        _JOBS[target] = {
            (job.scenario, job.actions, job.horizon, job.algorithm, job.chunk): job for job in plan.jobs(config, target)
        }
    return _JOBS[target]


def job_of(wildcards):
    """The job a simulation rule's wildcards name."""
    target = getattr(wildcards, "target", "paper")
    actions = int(getattr(wildcards, "actions", config["actions"]))
    horizon = int(getattr(wildcards, "horizon", config["horizon"]))
    key = (wildcards.scenario, actions, horizon, wildcards.algorithm, int(wildcards.chunk))
    if key not in jobs(target):
        raise ValueError(f"{target}: the config plans no job {'/'.join(map(str, key))}")
    return jobs(target)[key]


def kernels(wildcards):
    """The compile job of the job's algorithm's group (duelbandits.plan.kernel_groups); none for a plugin's."""
    group = plan.kernel_group(wildcards.algorithm)
    return [] if group is None else [f".duelbandits/kernels/{group}.done"]


def job_runs(wildcards):
    """Run range FIRST-LAST of the job."""
    job = job_of(wildcards)
    return f"{job.first}-{job.last}"


def job_runtime(wildcards, attempt):
    """Minutes of wall time to request (Slurm `runtime`): from the job's runs, T, A and algorithm,
    with a margin (duelbandits.resources.job_runtime); a retry asks for more."""
    return resources.job_runtime(job_of(wildcards), attempt)


def job_mem_mb(wildcards):
    """MB of memory to request (Slurm `mem_mb`; duelbandits.resources.job_mem_mb)."""
    return resources.job_mem_mb(job_of(wildcards))


def point_files(target, keep=lambda job: True):
    """The point files of ``target`` whose job ``keep`` accepts."""
    return [
        POINT.format(
            target=target, **{k: getattr(job, k) for k in ("scenario", "actions", "horizon", "algorithm", "chunk")}
        )
        for job in jobs(target).values()
        if keep(job)
    ]


def point_count(wildcards):
    """Steps of R_t a point file keeps per run: the target's `points`."""
    return config[wildcards.target]["points"]


def scenario_chunks(wildcards):
    """Every run chunk of one scenario, algorithm by algorithm."""
    return {
        algorithm: expand(RUN_CHUNK, scenario=wildcards.scenario, algorithm=algorithm, chunk=CHUNKS)
        for algorithm in ALGORITHMS
    }


def chunk_args(wildcards, input):
    """``--chunk ALGORITHM=PATH`` for every chunk of the scenario."""
    return " ".join(
        f"--chunk {algorithm}={path}" for algorithm, paths in scenario_chunks(wildcards).items() for path in paths
    )


# --- Targets --------------------------------------------------------------------------------------


def paper_results():
    """Every result file of the paper experiment (what the manifest lists besides figures)."""
    per_scenario = [
        "results/scenarios/{scenario}.json",
        "results/traces/{scenario}.parquet",
        "results/strategies/{scenario}.parquet",
        "results/summary/{scenario}.parquet",
    ]
    runs = expand(RUN_CHUNK, scenario=SCENARIOS, algorithm=ALGORITHMS, chunk=CHUNKS)
    shared = ["results/bounds.parquet", "results/summary.parquet", "results/table.md"]
    return expand(per_scenario, scenario=SCENARIOS) + runs + shared


def all_figures():
    """The 14 figures of the paper (at the paper config), PDF and PNG."""
    return expand("figures/main/{scenario}.{ext}", scenario=SCENARIOS, ext=["pdf", "png"]) + expand(
        "figures/appendix/{scenario}-{algorithm}.{ext}",
        scenario=SCENARIOS,
        algorithm=ALGORITHMS,
        ext=["pdf", "png"],
    )


def target_points(target, keep=lambda job: True):
    """The input function of the tables of ``target``, its point files that ``keep`` accepts, after
    duelbandits.configcheck.check_target. A function, so the points are listed only when the table is planned:
    a config that only a target beyond the paper cannot use never stops the paper run."""

    def points(wildcards):
        checked(configcheck.check_target, config, target)
        return point_files(target, keep)

    return points


def in_horizon_sweep(job):
    """The horizon sweep: A = the config's `actions`, T over sweeps/horizon/horizons."""
    sweep = config["sweeps"]["horizon"]
    return job.scenario in sweep["scenarios"] and job.actions == config["actions"] and job.horizon in sweep["horizons"]


def in_actions_sweep(job):
    """The scaling in A: A over sweeps/actions/actions at T = sweeps/actions/horizon."""
    sweep = config["sweeps"]["actions"]
    return job.scenario in sweep["scenarios"] and job.horizon == sweep["horizon"] and job.actions in sweep["actions"]


def target_outputs(target):
    """Everything `snakemake TARGET` makes for a target beyond the paper: its tables and figures."""
    section = config[target]
    if target == "sweeps":
        return [
            "results/sweeps/exponents.md",
            "results/sweeps/actions.md",
            *expand("figures/sweeps/horizon-{s}.{ext}", s=section["horizon"]["scenarios"], ext=["pdf", "png"]),
            *expand("figures/sweeps/actions-{s}.{ext}", s=section["actions"]["scenarios"], ext=["pdf", "png"]),
        ]
    if target == "maximin-bayes":
        return ["results/maximin-bayes/bayes.md"]
    table = {"field": "results/field/table.md", "asymptotics": "results/asymptotics/exponents.md"}[target]
    return [table, *expand(f"figures/{target}/{{s}}.{{ext}}", s=section["scenarios"], ext=["pdf", "png"])]


def checked_outputs(target):
    """The input function of a target beyond the paper: its outputs, after duelbandits.configcheck.check_target.

    Checked when the target is planned, not at parse time: those targets sit outside the default
    target, and a setting only they use must not stop the paper run. Planning fails, before any job
    runs, with the message naming the key.
    """

    def outputs(wildcards):
        checked(configcheck.check_target, config, target)
        return target_outputs(target)

    return outputs


# The figures for the paper (targets `panels` and `paper`, not in the default target).
# duelbandits.latex is imported only when they are planned; the panels' letters come from
# duelbandits.plotting.style (which imports matplotlib, 0.1 s of every parse): the panel jobs' outputs
# are their letters, and outputs are fixed when the workflow is parsed.

MAIN_PANELS = "".join(style.MAIN_PANELS)
"""The panels of a main figure, (a) utilities to (d) the bounds."""


def appendix_panel_layouts():
    """``{letters: [algorithm, ...]}``: every algorithm of the package by the panels of its appendix figure
    (style.appendix_panel_letters: a-c, and d, e for the strategies p_t, q_t it has). One panel rule each
    in paper.smk, as a rule's outputs cannot depend on its wildcards."""
    layouts = {}
    for slug, algorithm in REGISTRY.items():
        layouts.setdefault(style.appendix_panel_letters(algorithm.strategies), []).append(slug)
    return layouts


APPENDIX_LAYOUTS = appendix_panel_layouts()


def paper_panels(wildcards=None, formats=("pdf", "png")):
    """Every panel of the 14 figures alone (figures/panels/{figure}/{panel}.{ext}), in ``formats``."""
    import duelbandits.latex

    folder = duelbandits.latex.PANEL_FOLDER
    pdfs = duelbandits.latex.panel_files(SCENARIOS, ALGORITHMS)
    return [f"{folder}/{Path(pdf).with_suffix(f'.{ext}')}" for pdf in pdfs for ext in formats]


def panel_pdfs(wildcards):
    """The PDF panels, which figures/figures.tex includes."""
    return paper_panels(wildcards, formats=("pdf",))


def checked_latex_document(wildcards):
    """workflow/latex/figures.tex, the document of figures/figures.pdf, once latexmk is found.

    Checked when the PDF is planned: without latexmk, planning stops with one line
    naming the Debian packages to install, before any job runs.
    """
    import duelbandits.latex

    if shutil.which("latexmk") is None:
        raise ValueError(
            f"figures/figures.pdf needs latexmk and TeX Live: install them with: {duelbandits.latex.INSTALL}"
        )
    return workflow.source_path("../latex/figures.tex")


# --- The paper's claims (claims.smk) and Theorem 4.1's tail (tail.smk) ---------------------------------

CLAIMS_OPTIONAL = {
    "local": ("asymptotics", "results/asymptotics/local.parquet"),
    "tail": ("maximin_tail", "results/maximin-tail/estimates.parquet"),
    "family": ("maximin_tail", "results/maximin-tail/family.parquet"),
    "bayes": ("maximin_bayes", "results/maximin-bayes/estimates.parquet"),
}
"""The ledger's optional inputs, by its option: the target that builds each, and the file."""


def claims_optional(wildcards):
    """The optional inputs that exist or that this invocation builds (their target or file among its
    targets: Snakemake's own, set before it evaluates an input function), so that `snakemake maximin_tail
    claims` reads the tail it builds; a change of this set reruns the claims."""
    named = workflow.dag_settings.targets if workflow.dag_settings is not None else ()
    return {
        key: path
        for key, (target, path) in CLAIMS_OPTIONAL.items()
        if target in named or path in named or os.path.exists(path)
    }


def claims_optional_args(wildcards, input):
    return " ".join(f"--{key} {shlex.quote(input[key])}" for key in CLAIMS_OPTIONAL if key in input.keys())


TAIL = config["maximin-tail"]
TAIL_JOBS = list(range(TAIL["jobs"]))


tail_points = target_points("maximin-tail")
"""Phase 1's point files, after duelbandits.configcheck.check_target."""


def tail_scenario_file(wildcards=None):
    """The scenario file of the tail's matrix."""
    return f"results/scenarios/{TAIL['scenario']}.json"


BAYES = config["maximin-bayes"]


def bayes_runs(wildcards):
    """The maximin-bayes run files, one per (A, job), after duelbandits.configcheck.check_target."""
    checked(configcheck.check_target, config, "maximin-bayes")
    return expand("results/maximin-bayes/runs/A{a}-{job}.parquet", a=BAYES["actions"], job=range(BAYES["jobs"]))
