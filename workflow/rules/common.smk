# Helpers that turn the validated config into file lists and rule params.
# Rules use these by name; no algorithm or plotting logic lives here.

import json
import os
import shlex
import shutil
import sys
from pathlib import Path

import yaml

import duelbandits
import duelbandits.asymptotics
import duelbandits.limits
import duelbandits.manifest
import duelbandits.provenance
import duelbandits.scenarios
import duelbandits.sweeps
import duelbandits.theorems


# Jobs run the package's CLI as `python -m duelbandits`, with the folder of the
# interpreter that runs Snakemake first on the PATH, so that they use the same
# environment whether or not it is activated. The interpreter's path is neither
# a param nor in the shell text: both are rerun triggers, and starting Snakemake
# from another environment must not rerun anything. `--ledger` makes every job
# record the sha256 of what it wrote, for the manifest to check, so that it never
# blesses a file changed after the job that made it. PATH is passed on to cluster jobs.
envvars:
    "PATH",


if not (Path(sys.executable).parent / "python").exists():
    raise ValueError(
        f"run snakemake from a virtual environment or conda environment: the jobs run `python`, and "
        f"{Path(sys.executable).parent} (the folder of {sys.executable}) has none"
    )
os.environ["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])


def code_digest(*modules):
    """Rerun trigger of a rule: sha256 of the package sources its command runs.

    The CLI and ``modules`` (names within the package), with everything they
    import at module level; an edit to those files reruns the rule's jobs,
    an edit elsewhere (a plotting change for a simulation job) does not.
    """
    return duelbandits.provenance.code_digest("cli", *modules)


def config_scenario(name, actions=None):
    """The scenario ``name`` as the config defines it, with A = ``actions`` (default: the config's)."""
    path = {"path": config.get("matrix_file")} if name == "file" else {}
    actions = config["actions"] if actions is None else actions
    return duelbandits.make_scenario(name, actions=actions, seed=config["seed"], **path, **config["scenario_params"])


def check_integer_keys(schema, values, path=""):
    """Integers where the schema says integer: JSON Schema accepts 300.0 as an integer, and
    `--config horizon=300.0` or YAML `horizon: 300.0` give that float, which jobs then reject."""
    for key, sub in schema.get("properties", {}).items():
        if key not in values:
            continue
        value, name = values[key], f"{path}{key}"
        items = value if sub.get("type") == "array" and isinstance(value, list) else None
        wanted = sub.get("items", {}).get("type") if items is not None else sub.get("type")
        for item in items if items is not None else [value]:
            if wanted == "integer" and (isinstance(item, bool) or not isinstance(item, int)):
                raise ValueError(f"config: {name}: must be an integer, got {item!r}")
        if sub.get("type") == "object" and isinstance(value, dict):
            check_integer_keys(sub, value, f"{name}/")


def check_job_memory(what, needed, keys):
    """Refuse, at planning, a job estimated to need more than `memory_limit_gb` (or this machine's memory)."""
    limit_gb = config.get("memory_limit_gb")
    limit = None if limit_gb is None else int(limit_gb * 2**30)
    source = "this machine's memory; set memory_limit_gb" if limit is None else "memory_limit_gb"
    try:
        duelbandits.limits.check_memory(what, needed, limit, source)
    except duelbandits.limits.LimitError as err:
        raise ValueError(f"config: {keys}: {err}") from None


def check_job_sizes():
    """The largest simulation and aggregation jobs of the paper experiment must fit in memory."""
    T, A, runs = config["horizon"], config["actions"], config["runs"]
    per_job = min(config["runs_per_job"], runs)
    keys = "horizon/runs/runs_per_job/actions"
    check_job_memory(
        f"a simulation job of horizon {T} x runs_per_job {per_job} at A = {A}",
        duelbandits.limits.simulate_bytes(per_job, T, A),
        keys,
    )
    check_job_memory(
        f"aggregating horizon {T} x runs {runs} at A = {A}", duelbandits.limits.aggregate_bytes(runs, T, A), keys
    )


def ts_borda_c_alpha():
    """TS-Borda's c_alpha: the config's, or the algorithm's default."""
    default = duelbandits.ALGORITHMS["ts-borda"].defaults["c_alpha"]
    return config["algorithm_params"].get("ts-borda", {}).get("c_alpha", default)


def check_ts_borda_alpha(horizon, key):
    """Theorem 4.2's alpha = c_alpha T^(-1/3) must be < 1/2 at ``horizon``; the error names ``key``."""
    try:
        duelbandits.theorems.ts_borda_alpha(ts_borda_c_alpha(), horizon)
    except duelbandits.AlgorithmError as err:
        raise ValueError(f"config: {key}: {err}") from None


def check_config_values():
    """Checks the schema cannot express; fail before any job, naming the key."""
    check_integer_keys(yaml.safe_load(open(workflow.source_path("../schemas/config.schema.yaml"))), config)
    check_job_sizes()
    if "file" in config["scenarios"] and not config.get("matrix_file"):
        raise ValueError("config: matrix_file: required when scenarios include file (a CSV preference matrix)")
    for scenario in config["scenarios"]:
        try:
            config_scenario(scenario)
        except duelbandits.ScenarioError as err:
            key = "matrix_file/actions" if scenario == "file" else "scenarios/seed/scenario_params/actions"
            raise ValueError(f"config: {key}: {err}") from None
    if "ts-borda" in config["algorithms"]:
        check_ts_borda_alpha(config["horizon"], "algorithm_params/ts-borda/c_alpha")


def check_sweep_config():
    """Checks of the ``sweeps`` section the schema cannot express, naming the key."""
    sweeps = config["sweeps"]
    needs_file = "file" in sweeps["horizon"]["scenarios"]
    if needs_file and not config.get("matrix_file"):
        raise ValueError("config: matrix_file: required when sweeps/horizon/scenarios include file")
    if "file" in sweeps["actions"]["scenarios"]:
        raise ValueError("config: sweeps/actions/scenarios: the file scenario has a fixed A; it cannot be swept in A")
    points = [(s, None) for s in sweeps["horizon"]["scenarios"]]
    points += [(s, A) for s in sweeps["actions"]["scenarios"] for A in sweeps["actions"]["actions"]]
    for scenario, actions in points:
        try:
            config_scenario(scenario, actions)
        except duelbandits.ScenarioError as err:
            key = "sweeps/actions/actions" if actions is not None else "sweeps/horizon/scenarios"
            raise ValueError(f"config: {key}: {err}") from None
    longest = max(sweeps["horizon"]["horizons"] + [sweeps["actions"]["horizon"]])
    widest = max(sweeps["actions"]["actions"] + [config["actions"]])
    check_job_memory(
        f"a sweep run of horizon {longest} at A = {widest}",
        duelbandits.limits.simulate_bytes(1, longest, widest),
        "sweeps/horizon/horizons/actions",
    )
    if "ts-borda" in config["algorithms"]:
        shortest = min(sweeps["horizon"]["horizons"] + [sweeps["actions"]["horizon"]])
        check_ts_borda_alpha(shortest, "sweeps (the shortest sweep horizon)")


BEYOND_THE_PAPER = ("sweeps", "field", "asymptotics")
"""Config sections of the targets beyond the paper: they change none of the paper's results."""


def paper_config():
    """The config without the sections beyond the paper, as the manifest records it: editing those
    sections neither reruns the paper's manifest nor moves it away from the committed reference."""
    return {key: value for key, value in config.items() if key not in BEYOND_THE_PAPER}


def check_report_matches_results():
    """`snakemake --report` captions take A, T and the runs from the config: refuse to describe
    results in results/ that the manifest says were made with another config."""
    made_path = Path("results/MANIFEST.sha256")
    if not any(arg == "--report" or arg.startswith("--report=") for arg in sys.argv) or not made_path.is_file():
        return
    made = json.loads(duelbandits.manifest.read(made_path)[0].get("config", "{}"))
    here = json.loads(json.dumps(paper_config()))
    for key in ("memory_limit_gb", "runs_per_job", *BEYOND_THE_PAPER):  # not what the paper's results are
        made.pop(key, None), here.pop(key, None)
    differing = [
        f"{key}: {made.get(key)!r} there, {here.get(key)!r} here"
        for key in sorted(set(made) | set(here))
        if made.get(key) != here.get(key)
    ]
    if differing:
        raise ValueError(
            "snakemake --report: the results in results/ were made with another config ("
            + "; ".join(differing)
            + "); give --report the --config/--configfile of the run that made them"
        )


check_config_values()
check_report_matches_results()

SCENARIOS = config["scenarios"]
ALGORITHMS = config["algorithms"]
CHUNKS = list(range(-(-config["runs"] // config["runs_per_job"])))


# Every scenario and algorithm the package knows: the paper run, the sweeps and the
# targets beyond the paper (`field`, `asymptotics`) each pick their own from the config.
wildcard_constraints:
    scenario="|".join(duelbandits.scenarios.SCENARIOS),
    algorithm="|".join(duelbandits.ALGORITHMS),
    chunk=r"\d+",


def chunk_runs(wildcards):
    """Run range FIRST-LAST simulated by one chunk job."""
    first = int(wildcards.chunk) * config["runs_per_job"]
    last = min(first + config["runs_per_job"], config["runs"]) - 1
    return f"{first}-{last}"


def scenario_args(wildcards=None, actions=None):
    """CLI arguments that pin a scenario matrix (the file scenario adds its CSV)."""
    params = " ".join(f"--scenario-param {k}={v}" for k, v in config["scenario_params"].items())
    args = f"--actions {config['actions'] if actions is None else actions} --seed {config['seed']} {params}"
    if wildcards is not None and wildcards.scenario == "file":
        args += f" --matrix-file {shlex.quote(config['matrix_file'])}"
    return args


def matrix_input(wildcards):
    """The file scenario's CSV (an input, so an edit reruns its jobs); nothing for generated scenarios."""
    return [config["matrix_file"]] if wildcards.scenario == "file" else []


def algorithm_args(wildcards):
    """CLI hyper-parameter overrides of one algorithm."""
    params = config["algorithm_params"].get(wildcards.algorithm, {})
    return " ".join(f"--param {k}={v}" for k, v in params.items())


def scenario_chunks(wildcards):
    """Every run chunk of one scenario, algorithm by algorithm."""
    return {
        algorithm: expand(
            "results/runs/{scenario}/{algorithm}/chunk-{chunk}.parquet",
            scenario=wildcards.scenario,
            algorithm=algorithm,
            chunk=CHUNKS,
        )
        for algorithm in ALGORITHMS
    }


def chunk_args(wildcards, input):
    """``--chunk ALGORITHM=PATH`` for every chunk of the scenario."""
    return " ".join(
        f"--chunk {algorithm}={path}" for algorithm, paths in scenario_chunks(wildcards).items() for path in paths
    )


def paper_results():
    """Every result file of the paper experiment (what the manifest lists besides figures)."""
    per_scenario = [
        "results/scenarios/{scenario}.json",
        "results/traces/{scenario}.parquet",
        "results/strategies/{scenario}.parquet",
        "results/summary/{scenario}.parquet",
    ]
    runs = expand(
        "results/runs/{scenario}/{algorithm}/chunk-{chunk}.parquet",
        scenario=SCENARIOS,
        algorithm=ALGORITHMS,
        chunk=CHUNKS,
    )
    shared = ["results/bounds.parquet", "results/summary.parquet", "results/table.md"]
    return expand(per_scenario, scenario=SCENARIOS) + runs + shared


def all_figures():
    """The 14 figures of docs/paper.md (at the paper config), PDF and PNG."""
    return expand("figures/main/{scenario}.{ext}", scenario=SCENARIOS, ext=["pdf", "png"]) + expand(
        "figures/appendix/{scenario}-{algorithm}.{ext}",
        scenario=SCENARIOS,
        algorithm=ALGORITHMS,
        ext=["pdf", "png"],
    )


# Beyond the paper: the sweeps (target `sweeps`) and the report.
SWEEP_POINT = "results/sweeps/points/{scenario}/A{actions}-T{horizon}/{algorithm}/chunk-{chunk}.parquet"
SWEEP_CHUNKS = duelbandits.sweeps.chunk_ranges(config["sweeps"]["runs"], config["sweeps"]["runs_per_job"])


def sweep_points(scenarios, actions, horizons):
    """Every point file of the given scenarios x A x T, for every algorithm and run chunk."""
    return expand(
        SWEEP_POINT,
        scenario=scenarios,
        actions=actions,
        horizon=horizons,
        algorithm=ALGORITHMS,
        chunk=range(len(SWEEP_CHUNKS)),
    )


def horizon_sweep_points():
    """The horizon sweep: A = the config's `actions`, T over sweeps/horizon/horizons."""
    sweep = config["sweeps"]["horizon"]
    return sweep_points(sweep["scenarios"], [config["actions"]], sweep["horizons"])


def actions_sweep_points():
    """The scaling in A: A over sweeps/actions/actions at T = sweeps/actions/horizon."""
    sweep = config["sweeps"]["actions"]
    return sweep_points(sweep["scenarios"], sweep["actions"], [sweep["horizon"]])


def sweep_chunk_runs(wildcards):
    """Run range FIRST-LAST of one sweep point chunk."""
    first, last = SWEEP_CHUNKS[int(wildcards.chunk)]
    return f"{first}-{last}"


def sweep_scenario_args(wildcards):
    """CLI arguments that pin a sweep point's matrix (its own A)."""
    return scenario_args(wildcards, actions=int(wildcards.actions))


def checked_sweep_targets(wildcards):
    """The sweep outputs, after :func:`check_sweep_config`.

    Checked when the ``sweeps`` target is planned, not at parse time: the
    sweeps sit outside the default target, and a sweep setting that only some
    seeds break (the borda construction at small A) must not stop the paper
    run. Planning fails, before any job runs, with the message naming the key.
    """
    check_sweep_config()
    return sweep_targets()


def sweep_targets():
    """Everything `snakemake sweeps` makes: the sweep tables and figures (PDF and PNG)."""
    sweeps = config["sweeps"]
    return [
        "results/sweeps/exponents.md",
        "results/sweeps/actions.md",
        *expand("figures/sweeps/horizon-{scenario}.{ext}", scenario=sweeps["horizon"]["scenarios"], ext=["pdf", "png"]),
        *expand("figures/sweeps/actions-{scenario}.{ext}", scenario=sweeps["actions"]["scenarios"], ext=["pdf", "png"]),
    ]


# The figures for the paper (targets `panels` and `paper`, not in the default target).
# duelbandits.latex (which imports matplotlib) is imported only when they are planned.


def paper_panels(wildcards=None, formats=("pdf", "png")):
    """Every panel of the 14 figures alone (figures/panels/{figure}/{panel}.{ext}), in ``formats``."""
    import duelbandits.latex

    folder = duelbandits.latex.PANEL_FOLDER
    pdfs = duelbandits.latex.panel_files(SCENARIOS, ALGORITHMS)
    return [f"{folder}/{Path(pdf).with_suffix(f'.{ext}')}" for pdf in pdfs for ext in formats]


def panel_pdfs(wildcards):
    """The PDF panels, which figures/figures.tex includes."""
    return paper_panels(wildcards, formats=("pdf",))


def scenario_file_args(wildcards, input):
    """``--scenario-file PATH`` for each scenario file of the rule's input, in the config's order."""
    return " ".join(f"--scenario-file {shlex.quote(path)}" for path in input.scenarios)


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


# Long horizons (target `asymptotics`, workflow/rules/asymptotics.smk): points, jobs split by
# steps_per_job, each job's Slurm runtime and memory, and the planning-time checks.


ASYMPTOTICS = config["asymptotics"]
ASYMPTOTICS_POINT = "results/asymptotics/points/{scenario}/T{horizon}/{algorithm}/chunk-{chunk}.parquet"


def asymptotics_runs(horizon):
    """Runs at ``horizon``: asymptotics/runs, or what asymptotics/runs_at says for it."""
    return duelbandits.asymptotics.point_runs(ASYMPTOTICS["runs"], ASYMPTOTICS.get("runs_at"), horizon)


def asymptotics_jobs(horizon):
    """``(first, last)`` run of every job of a point of horizon ``horizon``."""
    return duelbandits.asymptotics.job_ranges(asymptotics_runs(horizon), horizon, ASYMPTOTICS["steps_per_job"])


def asymptotics_points(wildcards=None):
    """Every point file: scenario x horizon x the scenario's algorithms x the jobs of that horizon."""
    files = []
    for scenario in ASYMPTOTICS["scenarios"]:
        for horizon in ASYMPTOTICS["horizons"]:
            files += expand(
                ASYMPTOTICS_POINT,
                scenario=scenario,
                horizon=horizon,
                algorithm=ASYMPTOTICS["algorithms"].get(scenario, []),
                chunk=range(len(asymptotics_jobs(horizon))),
            )
    return files


def asymptotics_job(wildcards):
    """``(first, last)`` run of the job of ``wildcards`` (horizon, chunk)."""
    jobs = asymptotics_jobs(int(wildcards.horizon))
    if int(wildcards.chunk) >= len(jobs):
        raise ValueError(f"asymptotics: T = {wildcards.horizon} has {len(jobs)} jobs, no chunk {wildcards.chunk}")
    return jobs[int(wildcards.chunk)]


def asymptotics_chunk_runs(wildcards):
    """Run range FIRST-LAST of one job."""
    first, last = asymptotics_job(wildcards)
    return f"{first}-{last}"


def asymptotics_runtime(wildcards, attempt):
    """Minutes of wall time to request (Slurm `runtime`): from the job's runs, T and algorithm, with a
    margin (duelbandits.limits.sweep_point_runtime_minutes); a retry asks for `attempt` times that."""
    first, last = asymptotics_job(wildcards)
    return duelbandits.limits.sweep_point_runtime_minutes(
        wildcards.algorithm, last - first + 1, int(wildcards.horizon), config["actions"], attempt
    )


def asymptotics_mem_mb(wildcards):
    """MB of memory to request (Slurm `mem_mb`): one run of horizon T at a time (duelbandits.limits)."""
    return -(-duelbandits.limits.sweep_point_bytes(int(wildcards.horizon), config["actions"]) // 10**6)


def check_asymptotics_config():
    """Checks of the `asymptotics` section the schema cannot express; fail before any job, naming the key."""
    scenarios, horizons = ASYMPTOTICS["scenarios"], ASYMPTOTICS["horizons"]
    missing = [scenario for scenario in scenarios if scenario not in ASYMPTOTICS["algorithms"]]
    if missing:
        raise ValueError(f"config: asymptotics/algorithms: no algorithms for scenario(s) {', '.join(missing)}")
    if "file" in scenarios and not config.get("matrix_file"):
        raise ValueError("config: matrix_file: required when asymptotics/scenarios include file")
    named = [int(item["horizon"]) for item in ASYMPTOTICS.get("runs_at") or ()]
    for horizon in named:
        if horizon not in horizons:
            raise ValueError(f"config: asymptotics/runs_at: horizon {horizon} is not one of asymptotics/horizons")
        if named.count(horizon) > 1:
            raise ValueError(f"config: asymptotics/runs_at: horizon {horizon} is given twice")
    for scenario in scenarios:
        try:
            config_scenario(scenario)
        except duelbandits.ScenarioError as err:
            raise ValueError(f"config: asymptotics/scenarios: {err}") from None
    check_job_memory(
        f"an asymptotics run of horizon {max(horizons)} at A = {config['actions']}",
        duelbandits.limits.sweep_point_bytes(max(horizons), config["actions"]),
        "asymptotics/horizons",
    )
    if any("ts-borda" in ASYMPTOTICS["algorithms"][scenario] for scenario in scenarios):
        check_ts_borda_alpha(min(horizons), "asymptotics/horizons (the shortest)")


def checked_asymptotics_targets(wildcards):
    """The table and the figures, after :func:`check_asymptotics_config` (checked when the target is
    planned, not at parse time: the default target must not depend on this section)."""
    check_asymptotics_config()
    return ["results/asymptotics/exponents.md"] + expand(
        "figures/asymptotics/{scenario}.{ext}", scenario=ASYMPTOTICS["scenarios"], ext=["pdf", "png"]
    )


# The field (target `field`, not in the default target; rules in field.smk).
FIELD = config["field"]
FIELD_CHUNKS = duelbandits.sweeps.chunk_ranges(FIELD["runs"], FIELD["runs_per_job"])


def field_actions(scenario):
    """A of a field scenario: the config's `actions` for generated ones; None (the matrix's own) otherwise."""
    return config["actions"] if scenario in duelbandits.scenarios.GENERATED else None


def field_scenario(scenario):
    """A field scenario as the config defines it (benchmark matrices and `file` with their own A)."""
    actions = field_actions(scenario)
    if actions is not None:
        return config_scenario(scenario, actions)
    path = {"path": config["matrix_file"]} if scenario == "file" else {}
    return duelbandits.make_scenario(scenario, seed=config["seed"], **path, **config["scenario_params"])


def check_field_config():
    """Checks of the `field` section the schema cannot express; fail before any job, naming the key."""
    if "file" in FIELD["scenarios"] and not config.get("matrix_file"):
        raise ValueError("config: matrix_file: required when field/scenarios include file")
    widest = config["actions"]
    for scenario in FIELD["scenarios"]:
        try:
            widest = max(widest, field_scenario(scenario).matrix.shape[0])
        except duelbandits.ScenarioError as err:
            raise ValueError(f"config: field/scenarios: {err}") from None
    check_job_memory(
        f"a field run of horizon {FIELD['horizon']} at A = {widest}",
        duelbandits.limits.sweep_point_bytes(FIELD["horizon"], widest),
        "field/horizon",
    )
    if "ts-borda" in FIELD["algorithms"]:
        check_ts_borda_alpha(FIELD["horizon"], "field/horizon")


def field_scenario_args(wildcards):
    """CLI arguments that pin a field scenario's matrix (benchmark matrices: no --actions)."""
    actions = field_actions(wildcards.scenario)
    if actions is not None:
        return scenario_args(wildcards, actions=actions)
    args = f"--seed {config['seed']}"
    if wildcards.scenario == "file":
        args += f" --matrix-file {shlex.quote(config['matrix_file'])}"
    return args


def field_actions_of(wildcards):
    """A of a field point's matrix (a benchmark's own size)."""
    return field_scenario(wildcards.scenario).matrix.shape[0]


def field_runtime(wildcards, attempt):
    """Minutes of wall time to request (Slurm `runtime`) for one field job, as for the asymptotics jobs."""
    first, last = FIELD_CHUNKS[int(wildcards.chunk)]
    return duelbandits.limits.sweep_point_runtime_minutes(
        wildcards.algorithm, last - first + 1, FIELD["horizon"], field_actions_of(wildcards), attempt
    )


def field_mem_mb(wildcards):
    """MB of memory to request (Slurm `mem_mb`) for one field job: one run of the horizon at a time."""
    return -(-duelbandits.limits.sweep_point_bytes(FIELD["horizon"], field_actions_of(wildcards)) // 10**6)


def field_chunk_runs(wildcards):
    """Run range FIRST-LAST of one field chunk."""
    first, last = FIELD_CHUNKS[int(wildcards.chunk)]
    return f"{first}-{last}"


def field_points(wildcards=None):
    """Every field point file: scenario x algorithm x run chunk."""
    return expand(
        "results/field/points/{scenario}/{algorithm}/chunk-{chunk}.parquet",
        scenario=FIELD["scenarios"],
        algorithm=FIELD["algorithms"],
        chunk=range(len(FIELD_CHUNKS)),
    )


def checked_field_targets(wildcards):
    """The field's table and figures, after :func:`check_field_config` (checked when `field` is planned)."""
    check_field_config()
    return ["results/field/table.md"] + expand(
        "figures/field/{scenario}.{ext}", scenario=FIELD["scenarios"], ext=["pdf", "png"]
    )
