"""What a config asks the workflow for (``workflow/rules/common.smk``, with the validated config): the
jobs it plans, cut by one chunking rule (:func:`chunk_ranges`), and their arguments.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import provenance, scenarios
from .errors import why_unreadable

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
    return scenarios.make_scenario(name, actions=size, seed=config["seed"], **path, **scenario_params(config, name))


def scenario_params(config: dict, name: str) -> dict:
    """The config's ``scenario_params`` of scenario ``name``: a plugin's generated scenario takes its own
    (``scenario_params/NAME``), any other the paper's (``utility_max``, ``margin``, ``borda_strength``;
    checked, and used by the utility scenarios)."""
    given = config["scenario_params"]
    if name in scenarios.GENERATED and name not in scenarios.PARAMETERISED:
        return dict(given.get(name, {}))
    return {key: value for key, value in given.items() if key in scenarios.DEFAULTS}


def own_size(config: dict, name: str) -> int:
    """A of scenario ``name`` at its own size: the config's for a generated scenario, its matrix's otherwise."""
    return config["actions"] if name in scenarios.GENERATED else scenario(config, name, own_size=True).matrix.shape[0]


MATRIX_COPY = "results/scenarios/file.csv"
"""The file scenario's matrix as every job reads it: a validated copy of the config's ``matrix_file``
(rule ``matrix_file``), so that the jobs' arguments do not name the user's path, and moving or
renaming that file with the same content reruns nothing."""


def scenario_args(config: dict, name: str, actions: int | None = None) -> str:
    """The CLI arguments that pin scenario ``name``'s matrix at A = ``actions`` (as :func:`scenario`; None:
    the config's A for a generated scenario, its matrix's own for the others)."""
    actions = own_size(config, name) if actions is None else actions
    args = [f"--actions {actions}", f"--seed {config['seed']}"]
    if name in scenarios.GENERATED:
        args += [f"--scenario-param {k}={v}" for k, v in scenario_params(config, name).items()]
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


def algorithm_args(config: dict, algorithm: str) -> str:
    """The CLI's hyper-parameter overrides of ``algorithm`` from ``algorithm_params``: ``--param k=v ...``."""
    params = config.get("algorithm_params", {}).get(algorithm, {})
    return " ".join(f"--param {k}={v}" for k, v in params.items())


# --- Jobs --------------------------------------------------------------------------------------


def chunk_ranges(runs: int, runs_per_job: int) -> list[tuple[int, int]]:
    """``(first, last)`` run index of each job: ``runs`` runs, ``runs_per_job`` per job (both >= 1: the
    config's schema)."""
    return [(first, min(first + runs_per_job, runs) - 1) for first in range(0, runs, runs_per_job)]


def point_runs(runs: int, runs_at, horizon: int) -> int:
    """Runs at ``horizon``: ``runs``, unless ``runs_at`` (``[{"horizon": T, "runs": n}, ...]``) names it."""
    for item in runs_at or []:
        if int(item["horizon"]) == int(horizon):
            return int(item["runs"])
    return int(runs)


def job_ranges(runs: int, horizon: int, steps_per_job: int) -> list[tuple[int, int]]:
    """``(first, last)`` run of each job of an asymptotics point: ``runs`` runs,
    ``max(1, steps_per_job // horizon)`` per job."""
    return chunk_ranges(int(runs), max(1, int(steps_per_job) // int(horizon)))


def _points(config: dict, target: str) -> list[tuple[str, int, int, str, list[tuple[int, int]]]]:
    """``(scenario, A, T, algorithm, run ranges)`` of every point of ``target`` (``paper``: the config's)."""
    section = config if target == "paper" else config[target]
    A = config["actions"]
    if target == "asymptotics":  # each horizon's runs split into jobs of about steps_per_job steps
        points = []
        for name in section["scenarios"]:
            for T in section["horizons"]:
                chunks = job_ranges(point_runs(section["runs"], section.get("runs_at"), T), T, section["steps_per_job"])
                points += [(name, A, T, algorithm, chunks) for algorithm in section["algorithms"].get(name, [])]
        return points
    chunks = chunk_ranges(section["runs"], section["runs_per_job"])
    if target == "maximin-tail":  # phase 1 only; phase 2 depends on its results (workflow/rules/tail.smk)
        return [(section["scenario"], A, section["first_horizon"], "ts-maximin", chunks)]
    if target == "field":
        grid = [(name, own_size(config, name), section["horizon"]) for name in section["scenarios"]]
    elif target == "sweeps":
        grid = [(name, A, T) for name in section["horizon"]["scenarios"] for T in section["horizon"]["horizons"]]
        grid += [
            (name, a, section["actions"]["horizon"])
            for name in section["actions"]["scenarios"]
            for a in section["actions"]["actions"]
        ]
    else:
        grid = [(name, A, config["horizon"]) for name in config["scenarios"]]
    algorithms = section["algorithms"] if target == "field" else config["algorithms"]
    # a point both sweeps plan (the action sweep's A at a horizon of the horizon sweep) is planned once
    return [(*point, chunks) for point in dict.fromkeys((*p, algorithm) for p in grid for algorithm in algorithms)]


def jobs(config: dict, target: str = "paper") -> list[Job]:
    """Every simulation job of ``target``: ``paper`` (run chunks of runs_per_job runs) or a target of
    :data:`POINT_TARGETS` (its points, split as that section says)."""
    return [
        Job(target, name, A, T, algorithm, k, first, last)
        for name, A, T, algorithm, chunks in _points(config, target)
        for k, (first, last) in enumerate(chunks)
    ]


def kernel_group(algorithm: str) -> str | None:
    """The name of the group (:data:`duelbandits.algorithms.KERNEL_GROUPS`) whose compile job compiles
    ``algorithm``'s kernels; None for a plugin's algorithm (the config's algorithms are checked at its door)."""
    from .algorithms import KERNEL_GROUPS

    return next((name for name, slugs in KERNEL_GROUPS.items() if algorithm in slugs), None)
