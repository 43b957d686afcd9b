"""What a config asks the workflow for: its checks, and the jobs it plans.

The workflow (``workflow/rules/common.smk``) calls these functions with the validated config;
so can a test, without a Snakemake process. One path serves every target:

- :func:`check_paper` checks what the default target needs at parse time;
  :func:`check_target` checks a target beyond the paper (``sweeps``, ``field``, ``asymptotics``, ...)
  when that target is planned, so a setting only it uses never stops the paper run. Both raise
  :class:`ConfigError` naming the key.
- :func:`jobs` lists the simulation jobs of a target: the paper's run chunks or a target's
  points, each with its scenario, A, T, algorithm and run range, all from one chunking rule
  (:func:`duelbandits.points.chunk_ranges`).
- :func:`c_alpha` is TS-Borda's c_alpha, resolved in this one place.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import limits, provenance, scenarios
from .algorithms.tuning import ts_borda_alpha
from .configcheck import ConfigError
from .errors import AlgorithmError, why_unreadable
from .points import chunk_ranges

BEYOND_THE_PAPER = ("sweeps", "field", "asymptotics", "maximin-tail", "maximin-bayes")
"""Config sections of the targets beyond the paper: they change none of the paper's results."""

POINT_TARGETS = ("sweeps", "field", "asymptotics", "maximin-tail")
"""Targets whose jobs are points (``duelbandits sweep-point``); the paper's are run chunks."""


@dataclass(frozen=True)
class Job:
    """One simulation job: runs ``first..last`` of one (scenario, A, T, algorithm)."""

    target: str
    scenario: str
    actions: int
    horizon: int
    algorithm: str
    chunk: int
    first: int
    last: int

    @property
    def runs(self) -> int:
        return self.last - self.first + 1


def c_alpha(config: dict) -> float:
    """TS-Borda's c_alpha: the config's ``algorithm_params/ts-borda/c_alpha``, or the algorithm's default."""
    from .algorithms import ALGORITHMS

    default = ALGORITHMS["ts-borda"].defaults["c_alpha"]
    return config["algorithm_params"].get("ts-borda", {}).get("c_alpha", default)


def keyed_by_content(config: dict) -> dict:
    """``config`` with ``matrix_file`` given by its content, ``sha256:<hex>`` of the file, as every result
    records it (the manifest, the report's config page): the same matrix under another name or path
    changes no file and reruns nothing. A path that cannot be read stays as given (planning names it)."""
    path = config.get("matrix_file")
    if not path or why_unreadable(path):
        return dict(config)
    return {**config, "matrix_file": f"sha256:{provenance.file_sha256(path)}"}


def paper_config(config: dict) -> dict:
    """The config without the sections beyond the paper, as the manifest records it (the matrix file
    by its content: :func:`keyed_by_content`)."""
    return {key: value for key, value in keyed_by_content(config).items() if key not in BEYOND_THE_PAPER}


# --- Scenarios ---------------------------------------------------------------------------------


def scenario(config: dict, name: str, actions: int | None = None, own_size: bool = False):
    """The scenario ``name`` as the config defines it, with A = ``actions`` (default: the config's), or,
    with ``own_size``, the size of its matrix for the benchmark matrices and the file scenario."""
    path = {"path": config.get("matrix_file")} if name == "file" else {}
    size = None if own_size and name not in scenarios.GENERATED else (actions or config["actions"])
    params = config["scenario_params"] if name in scenarios.PARAMETERISED or name not in scenarios.GENERATED else {}
    return scenarios.make_scenario(name, actions=size, seed=config["seed"], **path, **params)


MATRIX_COPY = "results/scenarios/file.csv"
"""The file scenario's matrix as every job reads it: a validated copy of the config's ``matrix_file``
(rule ``matrix_file``), so that the jobs' arguments do not name the user's path, and moving or
renaming that file with the same content reruns nothing."""


def scenario_args(config: dict, name: str, actions: int) -> str:
    """The CLI arguments that pin scenario ``name``'s matrix at A = ``actions`` (as :func:`scenario`)."""

    args = [f"--actions {actions}", f"--seed {config['seed']}"]
    if name in scenarios.PARAMETERISED:
        args += [f"--scenario-param {k}={v}" for k, v in config["scenario_params"].items()]
    if name == "file":
        args.append(f"--matrix-file {MATRIX_COPY}")
    return " ".join(args)


def plugins_used(config: dict) -> dict:
    """``{slug: {distribution, version, digest}}`` of the plugin algorithms and scenarios ``config``'s
    paper run uses: what the manifest records (``# plugins:``)."""
    from .algorithms import ALGORITHMS

    entries = [ALGORITHMS.get(slug) for slug in config["algorithms"]]
    entries += [scenarios.REGISTRY.get(slug) for slug in config["scenarios"]]
    return {e.slug: e.source.as_dict() for e in entries if e is not None and e.source is not None}


# --- Checks ------------------------------------------------------------------------------------


def check_memory(config: dict, what: str, needed: int, keys: str) -> None:
    """Refuse a job estimated to need more than ``memory_limit_gb`` (or this machine's memory)."""
    limit_gb = config.get("memory_limit_gb")
    limit = None if limit_gb is None else int(limit_gb * 2**30)
    source = "this machine's memory; set memory_limit_gb" if limit is None else "memory_limit_gb"
    try:
        limits.check_memory(what, needed, limit, source)
    except limits.LimitError as err:
        raise ConfigError(f"config: {keys}: {err}") from None


def check_ts_borda_alpha(config: dict, horizon: int, key: str) -> None:
    """Theorem 4.2's alpha = c_alpha T^(-1/3) must be < 1/2 at ``horizon``; the error names ``key``."""
    try:
        ts_borda_alpha(c_alpha(config), horizon)
    except AlgorithmError as err:
        raise ConfigError(f"config: {key}: {err}") from None


def _check_scenarios(config: dict, names, key: str, actions=(None,), own_size: bool = False) -> None:
    """Every scenario of ``names`` (at each A of ``actions``) builds."""
    if "file" in names and not config.get("matrix_file"):
        raise ConfigError(f"config: matrix_file: required when {key} include file")
    for name in names:
        for size in actions:
            try:
                scenario(config, name, size, own_size)
            except scenarios.ScenarioError as err:
                raise ConfigError(f"config: {key}: {err}") from None


def check_plugins(slugs, key: str) -> None:
    """Each plugin algorithm of ``slugs`` keeps the full contract (duelbandits.contract.check_plugin, run
    once per plugin digest), or planning stops naming it."""
    from .algorithms import ALGORITHMS
    from .contract import check_plugin

    for slug in slugs:
        spec = ALGORITHMS[slug]
        problems = check_plugin(slug) if spec.source is not None else []
        if problems:
            raise ConfigError(
                f"config: {key}: {slug} (plugin {spec.source.distribution} {spec.source.version}) breaks the "
                f"algorithm contract: {problems[0]} (duelbandits check-algorithm {slug} lists every problem)"
            )


def check_paper(config: dict) -> None:
    """Checks of the paper run the schema cannot express; fail before any job, naming the key."""
    T, A, runs = config["horizon"], config["actions"], config["runs"]
    per_job = min(config["runs_per_job"], runs)
    keys = "horizon/runs/runs_per_job/actions"
    check_memory(
        config,
        f"a simulation job of horizon {T} x runs_per_job {per_job} at A = {A}",
        limits.simulate_bytes(per_job, T, A),
        keys,
    )
    check_memory(config, f"aggregating horizon {T} x runs {runs} at A = {A}", limits.aggregate_bytes(runs, T, A), keys)
    if "file" in config["scenarios"] and not config.get("matrix_file"):
        raise ConfigError("config: matrix_file: required when scenarios include file (a CSV preference matrix)")
    for name in config["scenarios"]:
        try:
            scenario(config, name)
        except scenarios.ScenarioError as err:
            key = "matrix_file/actions" if name == "file" else "scenarios/seed/scenario_params/actions"
            raise ConfigError(f"config: {key}: {err}") from None
    if "ts-borda" in config["algorithms"]:
        check_ts_borda_alpha(config, T, "algorithm_params/ts-borda/c_alpha")
    check_plugins(config["algorithms"], "algorithms")


def check_target(config: dict, target: str) -> None:
    """Checks of a target beyond the paper that the schema cannot express, naming the key: its
    scenarios build, its largest job fits in memory, TS-Borda's alpha < 1/2 at its shortest horizon."""
    section = config[target]
    if target == "maximin-bayes":  # no point jobs: its own rules (workflow/rules/bayes.smk)
        _check_maximin_bayes(config, section)
        return
    if target == "sweeps":
        if "file" in section["actions"]["scenarios"]:
            raise ConfigError(
                "config: sweeps/actions/scenarios: the file scenario has a fixed A; it cannot be swept in A"
            )
        _check_scenarios(config, section["horizon"]["scenarios"], "sweeps/horizon/scenarios")
        _check_scenarios(
            config, section["actions"]["scenarios"], "sweeps/actions/actions", section["actions"]["actions"]
        )
    elif target == "asymptotics":
        missing = [name for name in section["scenarios"] if name not in section["algorithms"]]
        if missing:
            raise ConfigError(f"config: asymptotics/algorithms: no algorithms for scenario(s) {', '.join(missing)}")
        named = [int(item["horizon"]) for item in section.get("runs_at") or ()]
        for horizon in named:
            if horizon not in section["horizons"]:
                raise ConfigError(f"config: asymptotics/runs_at: horizon {horizon} is not one of asymptotics/horizons")
            if named.count(horizon) > 1:
                raise ConfigError(f"config: asymptotics/runs_at: horizon {horizon} is given twice")
        _check_scenarios(config, section["scenarios"], "asymptotics/scenarios")
    elif target == "maximin-tail":
        _check_maximin_tail(config, section)
    else:
        _check_scenarios(config, section["scenarios"], "field/scenarios", own_size=True)
    planned = jobs(config, target)
    check_plugins(sorted({job.algorithm for job in planned}), f"{target}/algorithms")
    what, memory_key, alpha_key = TARGET_KEYS[target]
    longest, widest = max(job.horizon for job in planned), max(job.actions for job in planned)
    check_memory(
        config,
        f"{what} of horizon {longest} at A = {widest}",
        limits.sweep_point_bytes(longest, widest),
        memory_key,
    )
    borda = [job.horizon for job in planned if job.algorithm == "ts-borda"]
    if borda:
        check_ts_borda_alpha(config, min(borda), alpha_key)


def _check_maximin_tail(config: dict, section: dict) -> None:
    """The tail's horizons in order, its scenario a matrix with a trap (duelbandits.tail.trap)."""
    from .tail import TailError, trap

    if section["first_horizon"] >= section["horizon"]:
        raise ConfigError(
            f"config: maximin-tail/first_horizon: {section['first_horizon']} must be below "
            f"maximin-tail/horizon ({section['horizon']})"
        )
    _check_scenarios(config, [section["scenario"]], "maximin-tail/scenario")
    try:
        trap(scenario(config, section["scenario"]).matrix)
    except TailError as err:
        raise ConfigError(f"config: maximin-tail/scenario: {err}") from None
    check_memory(
        config,
        f"a maximin-tail run of horizon {section['horizon']} at A = {config['actions']}",
        limits.sweep_point_bytes(section["horizon"], config["actions"]),
        "maximin-tail/horizon",
    )


def _check_maximin_bayes(config: dict, section: dict) -> None:
    """Each A's matrices cover its jobs, and one run of the longest kind fits in memory."""
    if section["jobs"] > section["matrices"]:
        raise ConfigError(
            f"config: maximin-bayes/jobs: {section['jobs']} jobs per A for {section['matrices']} matrices "
            "(maximin-bayes/matrices): a job would have no matrix"
        )
    if len(set(section["actions"])) != len(section["actions"]):
        raise ConfigError(f"config: maximin-bayes/actions: an A is given twice: {section['actions']}")
    check_memory(
        config,
        f"a maximin-bayes run of horizon {section['horizon']} at A = {max(section['actions'])}",
        limits.sweep_point_bytes(section["horizon"], max(section["actions"])),
        "maximin-bayes/horizon",
    )


TARGET_KEYS = {
    "sweeps": ("a sweep run", "sweeps/horizon/horizons/actions", "sweeps (the shortest sweep horizon)"),
    "field": ("a field run", "field/horizon", "field/horizon"),
    "asymptotics": ("an asymptotics run", "asymptotics/horizons", "asymptotics/horizons (the shortest)"),
    "maximin-tail": ("a maximin-tail run", "maximin-tail/horizon", "-"),
}
"""Per target: how its memory error names a run, and the keys its memory and alpha errors name."""


# --- Resources: what a simulation job asks a cluster for ------------------------------------


DEFAULT_STEP_SECONDS = 3e-6
"""Seconds per step of an algorithm whose entry has no measured ``step_seconds`` (the package's target is
2 us). A registry entry's ``step_seconds`` is the time of one ``sweep-point`` run per step at A = 10,
compiled: the algorithm and the thin curves of its four regrets (the slower scenario of condorcet and
borda, on this project's 2-core machine; the Thompson-sampling kernels at T = 4x10^4, where they are
slowest per step, after the tail-label sampler; the others from bench/ plus the 0.08 us of regret
bookkeeping)."""

START_SECONDS = 60.0
"""A job's fixed time: starting Python, loading (or, on a fresh machine, compiling) the kernels."""

RUNTIME_MARGIN = 3.0
"""Factor on the measured simulation time in a job's requested runtime: slower or busier nodes."""


def job_seconds(algorithm: str, runs: int, horizon: int, actions: int) -> float:
    """Expected seconds of simulation in one sweep-point job of ``runs`` runs of ``horizon`` steps.

    Per step the entry's ``step_seconds`` (or :data:`DEFAULT_STEP_SECONDS`) at A = 10, scaled by
    ``(A / 10)^2`` above A = 10 (the Thompson-sampling kernels do up to O(A^2) work per step; a bound,
    not a measurement).
    """
    from .algorithms import ALGORITHMS

    spec = ALGORITHMS.get(algorithm)
    per_step = spec.step_seconds if spec is not None and spec.step_seconds else DEFAULT_STEP_SECONDS
    return runs * horizon * per_step * max(1.0, (actions / 10.0) ** 2)


def runtime_minutes(algorithm: str, runs: int, horizon: int, actions: int, attempt: int = 1) -> int:
    """Wall time to request for a sweep-point job (Slurm ``runtime``, minutes): :data:`START_SECONDS`
    plus :data:`RUNTIME_MARGIN` times :func:`job_seconds`, times the attempt (a retry gets more)."""
    seconds = START_SECONDS + RUNTIME_MARGIN * job_seconds(algorithm, runs, horizon, actions)
    return int(-(-seconds // 60)) * max(1, int(attempt))


def megabytes(needed: int) -> int:
    """``needed`` bytes in whole MB (10^6 bytes) rounded up: a Slurm ``mem_mb`` request."""
    return -(-int(needed) // 10**6)


def job_mem_mb(job: Job) -> int:
    """MB of memory a simulation job requests (Slurm ``mem_mb``): a run chunk holds all its runs (and its
    algorithm's strategies) plus a compile; a point holds one run at a time (:func:`limits.sweep_point_bytes`)."""
    if job.target == "paper":
        from .algorithms import ALGORITHMS

        players = len(ALGORITHMS[job.algorithm].strategies)
        return megabytes(limits.simulate_bytes(job.runs, job.horizon, job.actions, players) + limits.COMPILE_BYTES)
    return megabytes(limits.sweep_point_bytes(job.horizon, job.actions))


def job_runtime(job: Job, attempt: int = 1) -> int:
    """Minutes of wall time a simulation job requests (Slurm ``runtime``; :func:`runtime_minutes`)."""
    return runtime_minutes(job.algorithm, job.runs, job.horizon, job.actions, attempt)


COMPILE_MEM_MB = megabytes(limits.BASE_BYTES + limits.COMPILE_BYTES)
"""MB of memory a compile job requests: a job's base and the compile's extra."""


def bayes_mem_mb(section: dict, actions: int) -> int:
    """MB of memory of one ``bayes_runs`` job at A = ``actions``: one run at a time, as a point."""
    return megabytes(limits.sweep_point_bytes(section["horizon"], int(actions)))


def bayes_runtime(section: dict, actions: int, attempt: int = 1) -> int:
    """Minutes of one ``bayes_runs`` job: its share of the matrices (``ceil(matrices / jobs)``), ``runs``
    TS-Maximin runs each to ``horizon``, at A = ``actions``; a retry asks for ``attempt`` times that."""
    from .bayes import ALGORITHM

    runs = -(-section["matrices"] // section["jobs"]) * section["runs"]
    return runtime_minutes(ALGORITHM, runs, section["horizon"], int(actions), attempt)


TAIL_TRAPPED_SHARE = 10
"""The tail's phase-2 jobs are sized for one trapped run in ``TAIL_TRAPPED_SHARE`` of phase 1's runs (an
allowance: the paper's borda matrix traps fewer), besides its ``others`` free ones."""


def tail_continue_mem_mb(config: dict) -> int:
    """MB of memory of one ``tail_continue`` job: one run at a time to the tail's ``horizon``."""
    return megabytes(limits.sweep_point_bytes(config["maximin-tail"]["horizon"], config["actions"]))


def tail_continue_runtime(config: dict, attempt: int = 1) -> int:
    """Minutes of one ``tail_continue`` job: its share of ``others`` free runs and the trapped ones
    allowed for (:data:`TAIL_TRAPPED_SHARE`), to the tail's ``horizon``; a retry asks for more."""
    from .tail import ALGORITHM

    section = config["maximin-tail"]
    runs = -(-(section["others"] + section["runs"] // TAIL_TRAPPED_SHARE) // section["jobs"])
    return runtime_minutes(ALGORITHM, runs, section["horizon"], config["actions"], attempt)


def algorithm_args(config: dict, algorithm: str) -> str:
    """The CLI's hyper-parameter overrides of ``algorithm`` from ``algorithm_params``: ``--param k=v ...``."""
    params = config.get("algorithm_params", {}).get(algorithm, {})
    return " ".join(f"--param {k}={v}" for k, v in params.items())


# --- Jobs --------------------------------------------------------------------------------------


def _points(config: dict, target: str) -> list[tuple[str, int, int, str, list[tuple[int, int]]]]:
    """``(scenario, A, T, algorithm, run ranges)`` of every point of ``target``."""
    from .asymptotics import job_ranges, point_runs

    section = config[target]
    out = []
    if target == "sweeps":
        chunks = chunk_ranges(section["runs"], section["runs_per_job"])
        grid = [
            (name, config["actions"], T)
            for name in section["horizon"]["scenarios"]
            for T in section["horizon"]["horizons"]
        ]
        grid += [
            (name, A, section["actions"]["horizon"])
            for name in section["actions"]["scenarios"]
            for A in section["actions"]["actions"]
        ]
        seen = set()
        for name, A, T in grid:
            for algorithm in config["algorithms"]:
                if (name, A, T, algorithm) not in seen:
                    seen.add((name, A, T, algorithm))
                    out.append((name, A, T, algorithm, chunks))
    elif target == "field":
        chunks = chunk_ranges(section["runs"], section["runs_per_job"])
        for name in section["scenarios"]:
            size = scenario(config, name, own_size=True).matrix.shape[0]
            out += [(name, size, section["horizon"], algorithm, chunks) for algorithm in section["algorithms"]]
    elif target == "maximin-tail":  # phase 1 only; phase 2 depends on its results (workflow/rules/tail.smk)
        chunks = chunk_ranges(section["runs"], section["runs_per_job"])
        out.append((section["scenario"], config["actions"], section["first_horizon"], "ts-maximin", chunks))
    else:
        for name in section["scenarios"]:
            for T in section["horizons"]:
                chunks = job_ranges(point_runs(section["runs"], section.get("runs_at"), T), T, section["steps_per_job"])
                out += [
                    (name, config["actions"], T, algorithm, chunks) for algorithm in section["algorithms"].get(name, [])
                ]
    return out


def jobs(config: dict, target: str = "paper") -> list[Job]:
    """Every simulation job of ``target``: ``paper`` (run chunks of runs_per_job runs) or a target of
    :data:`POINT_TARGETS` (its points, split as that section says)."""
    if target == "paper":
        chunks = chunk_ranges(config["runs"], config["runs_per_job"])
        points = [
            (name, config["actions"], config["horizon"], algorithm, chunks)
            for name in config["scenarios"]
            for algorithm in config["algorithms"]
        ]
    else:
        points = _points(config, target)
    return [
        Job(target, name, A, T, algorithm, k, first, last)
        for name, A, T, algorithm, chunks in points
        for k, (first, last) in enumerate(chunks)
    ]


KERNEL_JOBS = 2
"""Compile jobs per family of algorithms (the paper's, the field's). numba compiles its own helpers
(array constructors, the random generator's methods) once per process and into every kernel, so
kernels compiled in one process share them (what each group costs: docs/performance.md). Two jobs
keep both cores of a laptop busy."""


def kernel_groups(jobs: int = KERNEL_JOBS) -> dict[str, tuple[str, ...]]:
    """``{"paper-1": algorithms, ...}``: each family's built-in algorithms, in the registry's order, cut
    into ``jobs`` runs of consecutive entries whose summed ``compile_seconds`` has the smallest maximum
    (the compile jobs take about as long as each other; among equal maxima, the first cut). Fixed by
    the built-ins, not by the config or the installed plugins, so that a simulation's compile job (its
    input) does not change when the config's algorithms do (a change of the built-ins does change it,
    and reruns the group's simulations). A plugin's algorithm has no compile job: its first simulation
    compiles it, if at all."""
    from itertools import accumulate, combinations

    from .algorithms import BUILTINS

    groups = {}
    for family in dict.fromkeys(a.family for a in BUILTINS.values()):
        slugs = [slug for slug, a in BUILTINS.items() if a.family == family]
        total = [0.0, *accumulate(BUILTINS[slug].compile_seconds for slug in slugs)]
        count = min(jobs, len(slugs))
        cuts = min(
            ((0, *inner, len(slugs)) for inner in combinations(range(1, len(slugs)), count - 1)),
            key=lambda cut: max(total[b] - total[a] for a, b in zip(cut, cut[1:])),
        )
        groups |= {f"{family}-{i + 1}": tuple(slugs[cuts[i] : cuts[i + 1]]) for i in range(count)}
    return groups


def kernel_group(algorithm: str) -> str | None:
    """The name of the group (:func:`kernel_groups`) whose compile job compiles ``algorithm``'s kernels;
    None for a plugin's algorithm."""
    from .algorithms import ALGORITHMS

    for name, slugs in kernel_groups().items():
        if algorithm in slugs:
            return name
    if algorithm in ALGORITHMS:
        return None
    raise ValueError(f"unknown algorithm {algorithm!r}: in no kernel group")
