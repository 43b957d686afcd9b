# The command prefix, and the input functions, params and file lists that several rule files use, from
# the validated config. The checks are in duelbandits.configcheck and the job lists in duelbandits.plan
# (testable without Snakemake); a study's own constants stay in its rule file.

import functools
import json
import os
import shlex
import shutil
import sys
from pathlib import Path

import duelbandits.configcheck as configcheck
import duelbandits.studies.claims.archive as claims_archive
import duelbandits.plan as plan
import duelbandits.resources as resources
import duelbandits.triggers as triggers
import duelbandits.scenarios as scenarios
from duelbandits.algorithms import ALGORITHMS as REGISTRY, KERNEL_GROUPS
from duelbandits.errors import InputError


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


def checked_target(target, files):
    """An input function of ``target`` beyond the paper: ``files`` (a list, or a function that lists
    them), after duelbandits.configcheck.check_target when its job is planned: a setting that only a
    target outside the default one uses must not stop the paper run."""

    def inputs(wildcards):
        checked(configcheck.check_target, config, target)
        return files() if callable(files) else files

    return inputs


SCENARIOS = config["scenarios"]
ALGORITHMS = config["algorithms"]
C_ALPHA = plan.c_alpha(config)
CHUNKS = sorted({job.chunk for job in plan.jobs(config)})
FORMATS = ["pdf", "png"]


# Every scenario and algorithm the package knows: each target picks its own from the config.
wildcard_constraints:
    scenario="|".join(scenarios.SCENARIOS),
    algorithm="|".join(REGISTRY),
    chunk=r"\d+",
    target="|".join(plan.POINT_TARGETS),
    actions=r"\d+",
    horizon=r"\d+",


# --- Rerun triggers: the code each command runs -------------------------------------------------

code = triggers.code_digest
"""A rule's rerun trigger, ``code(ENTRY, *MODULES)``: the digest of the package modules the command ENTRY
("MODULE:FUNCTION") runs and of the MODULES it loads by name (a kernel the registry imports with importlib)."""


def algorithm_code(entry):
    """The rerun trigger of a simulation rule: ``entry`` and the job's algorithm's own code (its kernel
    module, or a plugin's package: duelbandits.triggers.algorithm_code_digest), so that an edit to
    one algorithm reruns only its simulations."""
    return lambda wildcards: triggers.algorithm_code_digest(entry, wildcards.algorithm)


# --- Scenarios and algorithms -------------------------------------------------------------------


def scenario_args(wildcards):
    """CLI arguments that pin the job's scenario matrix (at the job's A, or the scenario's own)."""
    actions = int(wildcards.actions) if hasattr(wildcards, "actions") else None
    return checked(plan.scenario_args, config, wildcards.scenario, actions)


def matrix_input(wildcards):
    """The file scenario's validated copy of its CSV (duelbandits.plan.MATRIX_COPY); nothing for the others."""
    return [plan.MATRIX_COPY] if wildcards.scenario == "file" else []


def matrix_sha256(wildcards):
    """A param of the jobs that build a matrix: the sha256 of the file scenario's CSV, a plugin scenario's
    version and digest, empty for the package's own (duelbandits.triggers.scenario_source_digest)."""
    return triggers.scenario_source_digest(getattr(wildcards, "scenario", "file"), config.get("matrix_file"))


def algorithm_args(wildcards):
    """CLI hyper-parameter overrides of one algorithm (duelbandits.plan.algorithm_args)."""
    return plan.algorithm_args(config, wildcards.algorithm)


def scenario_file_args(wildcards, input):
    """``--scenario-file PATH`` for each scenario file of the rule's input, in the config's order."""
    return " ".join(f"--scenario-file {shlex.quote(path)}" for path in input.scenarios)


# --- Simulation jobs: the paper's run chunks and the points of the targets beyond it ------------

RUN_CHUNK = "results/runs/{scenario}/{algorithm}/chunk-{chunk}.parquet"
POINT = "results/{target}/points/{scenario}/A{actions}-T{horizon}/{algorithm}/chunk-{chunk}.parquet"


@functools.cache
def jobs(target="paper"):
    """The simulation jobs of ``target`` (duelbandits.plan.jobs), by their wildcards."""
    return {(j.scenario, j.actions, j.horizon, j.algorithm, j.chunk): j for j in plan.jobs(config, target)}


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
    """The compile job of the job's algorithm's group (duelbandits.algorithms.KERNEL_GROUPS); none for a plugin's."""
    group = plan.kernel_group(wildcards.algorithm)
    return [] if group is None else [f".duelbandits/kernels/{group}.done"]


def job_runs(wildcards):
    """Run range FIRST-LAST of the job."""
    return "{first}-{last}".format(**vars(job_of(wildcards)))


def job_runtime(wildcards, attempt):
    """Minutes of wall time to request (Slurm `runtime`): from the job's runs, T, A and algorithm,
    with a margin (duelbandits.resources.job_runtime); a retry asks for more."""
    return resources.job_runtime(job_of(wildcards), attempt)


def job_mem_mb(wildcards):
    """MB of memory to request (Slurm `mem_mb`; duelbandits.resources.job_mem_mb)."""
    return resources.job_mem_mb(job_of(wildcards))


def target_points(target, keep=lambda job: True):
    """The input function of the tables of ``target``: its point files whose job ``keep`` accepts, listed
    only when a table is planned (checked_target): a config that only a target beyond the paper cannot
    use never stops the paper run."""
    return checked_target(target, lambda: [POINT.format(**vars(j)) for j in jobs(target).values() if keep(j)])


def scenario_chunks(wildcards):
    """Every run chunk of one scenario, algorithm by algorithm."""
    return {a: expand(RUN_CHUNK, scenario=wildcards.scenario, algorithm=a, chunk=CHUNKS) for a in ALGORITHMS}


def chunk_args(wildcards, input):
    """``--chunk ALGORITHM=PATH`` for every chunk of the scenario."""
    return " ".join(f"--chunk {algorithm}={path}" for algorithm in ALGORITHMS for path in input[algorithm])


# --- The paper's results and figures (targets `all`, `panels`, `paper`; the manifest) ----------------

PAPER_RESULTS = [
    *expand("results/scenarios/{scenario}.json", scenario=SCENARIOS),
    *expand("results/{kind}/{scenario}.parquet", kind=["traces", "strategies", "summary"], scenario=SCENARIOS),
    *expand(RUN_CHUNK, scenario=SCENARIOS, algorithm=ALGORITHMS, chunk=CHUNKS),
    "results/bounds.parquet",
    "results/summary.parquet",
    "results/table.md",
]
"""Every result file of the paper experiment (what the manifest lists besides figures)."""

PAPER_FIGURES = [
    *expand("figures/main/{scenario}.{ext}", scenario=SCENARIOS, ext=FORMATS),
    *expand("figures/appendix/{scenario}-{algorithm}.{ext}", scenario=SCENARIOS, algorithm=ALGORITHMS, ext=FORMATS),
]
"""The 14 figures of the paper (at the paper config), PDF and PNG."""


def paper_panels(wildcards=None, formats=FORMATS):
    """Every panel of the 14 figures alone (figures/panels/{figure}/{panel}.{ext}), in ``formats``;
    duelbandits.studies.paper.latex is imported only when they are planned."""
    import duelbandits.studies.paper.latex as latex

    return [f"{latex.PANEL_FOLDER}/{f}" for f in latex.panel_files(SCENARIOS, ALGORITHMS, formats)]


def checked_latex_document(wildcards):
    """workflow/latex/figures.tex, the document of figures/figures.pdf, once latexmk is found: without
    it, planning stops with one line naming the Debian packages to install, before any job runs."""
    import duelbandits.studies.paper.latex as latex

    if shutil.which("latexmk") is None:
        raise ValueError(f"figures/figures.pdf needs latexmk and TeX Live: install them with: {latex.INSTALL}")
    return workflow.source_path("../latex/figures.tex")


# --- The ledger's optional inputs (CLAIMS_OPTIONAL: claims.smk) -------------------------------------


def claims_optional(wildcards):
    """The optional inputs that exist or that this invocation builds (their target or file among its
    targets: Snakemake's own, set before it evaluates an input function), so that `snakemake maximin_tail
    claims` reads the tail it builds; for the others, the archive's files (CLAIMS_ARCHIVE, if it is there:
    docs/claims.md#the-archive) with its manifest. A change of this set, or of an archived file, reruns the
    claims."""
    named = workflow.dag_settings.targets if workflow.dag_settings is not None else ()
    optional = CLAIMS_OPTIONAL.items()
    fresh = {key: path for key, (target, path) in optional if target in named or path in named or os.path.exists(path)}
    manifest = os.path.join(CLAIMS_ARCHIVE, claims_archive.MANIFEST)
    if len(fresh) == len(CLAIMS_OPTIONAL) or not os.path.exists(manifest):
        return fresh
    try:
        found = claims_archive.archived(CLAIMS_ARCHIVE, set(CLAIMS_OPTIONAL) - set(fresh))
    except InputError as err:
        raise ValueError(str(err)) from None
    archived = [str(path) for paths in found.values() for path in paths]
    return fresh | {"archive": manifest} | {f"archived{n}": path for n, path in enumerate(archived)}


def claims_optional_args(wildcards, input):
    """``--OPTION PATH`` for each optional input the ledger reads, and ``--archive`` for the others'."""
    given = [f"--{key} {shlex.quote(input[key])}" for key in CLAIMS_OPTIONAL if key in input.keys()]
    return " ".join(given + ([f"--archive {shlex.quote(CLAIMS_ARCHIVE)}"] if "archive" in input.keys() else []))
