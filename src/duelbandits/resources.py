"""What a job needs: the memory it will need (checked before it runs, naming the argument, the estimate
and the limit) and what it asks a cluster for (Slurm ``mem_mb`` and ``runtime`` from the measured costs).
"""

from __future__ import annotations

import csv
import functools
import os
from decimal import Decimal

from .errors import InputError

BASE_BYTES = 300 * 2**20
"""A job's memory before its data: Python, numpy, pyarrow and the compiled kernels (measured ~250 MB)."""

SIMULATE_BYTES_PER_STEP = 64
"""Per run and step while simulating and writing a chunk: the actions (int64) and outcomes, and the
columns of the table (the paper's chunks peak at 0.5 GB for 25 x 40,000 steps with strategies)."""

STRATEGY_BYTES_PER_STEP_ACTION = 24
"""Per run, step and action for each player with a strategy (the chunk's float64 columns; built one row
group at a time since f49a40b, so this over-estimates a chunk of more than 2^20 rows)."""

AGGREGATE_BYTES_PER_STEP = 240
"""Per run and step of one algorithm while aggregating (the paper's aggregation peaks at 0.9 GB for
100 x 40,000 steps)."""

MATRIX_COPIES = 16
"""Copies of an A x A float64 array a scenario or an algorithm holds at once (posteriors, samples, ...)."""


COMPILE_BYTES = 128 * 2**20
"""Extra memory of a job that compiles the kernels (a fresh machine or an edited kernel: 0.33 GB peak
at T = 1000 against 0.23 GB from the cache)."""


def sweep_point_bytes(horizon: int, actions: int) -> int:
    """Peak memory of a sweep-point job: one run at a time, its strategies recorded at two steps only,
    possibly compiling the kernels (measured 0.58 GB at T = 10^7, A = 10, compiling; estimate 1.1 GB)."""
    return simulate_bytes(1, horizon, actions, players=0) + COMPILE_BYTES


class LimitError(InputError):
    """A request is larger than the formats can store or the machine can hold."""


def physical_memory() -> int:
    """Bytes of physical memory of this machine."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # not POSIX: no check
        return 2**62


def human(n: float) -> str:
    """``7.3 TiB``, ``512 MiB``: a size in binary units."""
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if n < 1024 or unit == "PiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024


def simulate_bytes(runs: int, horizon: int, actions: int, players: int = 2) -> int:
    """Peak memory of one simulation job of ``runs`` runs (``players`` with recorded strategies)."""
    per_step = SIMULATE_BYTES_PER_STEP + players * actions * STRATEGY_BYTES_PER_STEP_ACTION
    return BASE_BYTES + runs * horizon * per_step + MATRIX_COPIES * 8 * actions**2


def aggregate_bytes(runs: int, horizon: int, actions: int) -> int:
    """Peak memory of aggregating one scenario (one algorithm's runs at a time)."""
    return BASE_BYTES + runs * horizon * AGGREGATE_BYTES_PER_STEP + MATRIX_COPIES * 8 * actions**2


def matrix_bytes(actions: int) -> int:
    """Memory to build and check one scenario matrix."""
    return BASE_BYTES + MATRIX_COPIES * 8 * actions**2


def check_memory(what: str, needed: int, limit: int | None = None, source: str = "this machine's memory") -> None:
    """Raise LimitError if ``needed`` bytes exceed ``limit`` (default: this machine's memory)."""
    limit = physical_memory() if limit is None else limit
    if needed > limit:
        raise LimitError(
            f"{what} needs about {human(needed)} of memory, more than the limit of {human(limit)} ({source})"
        )


def check_bootstrap_memory(resamples: int, points) -> None:
    """Refuse a bootstrap of the final regrets of ``points`` (point rows) larger than memory, before it runs: it
    holds ``resamples`` x (horizons + runs) floats (8 bytes) a few (4) times over."""
    runs = int(points["run"].max()) + 1 if len(points) else 1
    check_memory(f"--resamples {resamples}", 4 * 8 * resamples * (points["horizon"].nunique() + runs))


# --- Resources: what a simulation job asks a cluster for ------------------------------------


COSTS_FILE = "costs.csv"
"""The built-ins' measured costs, package data (its header says how each is measured; rewritten by
``bench/bench_algorithms.py --write``): they size cluster requests and advise the compile groups, never a result."""

DEFAULT_STEP_SECONDS = 3e-6
"""Seconds per step of an algorithm the costs file does not hold, such as a plugin's (the package's
target is 2 us at A = 10)."""


def read_costs(text: str) -> dict[str, tuple[float | None, float | None]]:
    """``{slug: (seconds per step, compile CPU seconds)}`` of a costs file's text, None for an empty cell
    (not measured); a microsecond figure is its decimal value times 1e-6, rounded once, so ``0.8`` is
    ``0.8e-6`` to the last bit (and ``1e+02``, as ``bench_algorithms.py --write`` may print it, is 1e-4)."""
    rows = csv.DictReader(line for line in text.splitlines() if not line.startswith("#"))
    return {
        row["algorithm"]: (float(Decimal(row["step_us"]).scaleb(-6)) if row["step_us"] else None,
                           float(row["compile_s"]) if row["compile_s"] else None)
        for row in rows
    }  # fmt: skip


@functools.cache
def measured_costs() -> dict[str, tuple[float | None, float | None]]:
    """The measured costs of :data:`COSTS_FILE` (:func:`read_costs`)."""
    from importlib import resources as package_data

    return read_costs(package_data.files(__package__).joinpath("data", COSTS_FILE).read_text(encoding="utf-8"))


START_SECONDS = 60.0
"""A job's fixed time: starting Python, loading (or, on a fresh machine, compiling) the kernels."""

RUNTIME_MARGIN = 3.0
"""Factor on the measured simulation time in a job's requested runtime: slower or busier nodes."""


def job_seconds(algorithm: str, runs: int, horizon: int, actions: int) -> float:
    """Expected seconds of one job of ``runs`` runs of ``horizon`` steps: the algorithm's measured seconds per
    step at A = 10 (else :data:`DEFAULT_STEP_SECONDS`), times ``(A / 10)^2`` above (the Thompson-sampling
    kernels' O(A^2) work per step; a bound)."""
    step = measured_costs().get(algorithm, (None, None))[0] or DEFAULT_STEP_SECONDS
    return runs * horizon * step * max(1.0, (actions / 10.0) ** 2)


def runtime_minutes(algorithm: str, runs: int, horizon: int, actions: int, attempt: int = 1) -> int:
    """Wall time to request for a sweep-point job (Slurm ``runtime``, minutes): :data:`START_SECONDS`
    plus :data:`RUNTIME_MARGIN` times :func:`job_seconds`, times the attempt (a retry gets more)."""
    seconds = START_SECONDS + RUNTIME_MARGIN * job_seconds(algorithm, runs, horizon, actions)
    return int(-(-seconds // 60)) * max(1, int(attempt))


def megabytes(needed: int) -> int:
    """``needed`` bytes in whole MB (10^6 bytes) rounded up: a Slurm ``mem_mb`` request."""
    return -(-int(needed) // 10**6)


def job_mem_mb(job) -> int:
    """MB of memory a simulation job requests (Slurm ``mem_mb``): a run chunk holds all its runs (and its
    algorithm's strategies) plus a compile; a point holds one run at a time (:func:`sweep_point_bytes`)."""
    if job.target == "paper":
        from .algorithms import ALGORITHMS

        players = len(ALGORITHMS[job.algorithm].strategies)
        return megabytes(simulate_bytes(job.runs, job.horizon, job.actions, players) + COMPILE_BYTES)
    return megabytes(sweep_point_bytes(job.horizon, job.actions))


def job_runtime(job, attempt: int = 1) -> int:
    """Minutes of wall time a simulation job requests (Slurm ``runtime``; :func:`runtime_minutes`)."""
    return runtime_minutes(job.algorithm, job.runs, job.horizon, job.actions, attempt)


COMPILE_MEM_MB = megabytes(BASE_BYTES + COMPILE_BYTES)
"""MB of memory a compile job requests: a job's base and the compile's extra."""


BAYES_ROW_BYTES = 400
"""Per row of a ``bayes_runs`` job's table (a matrix, run and grid horizon), as Python rows, a frame and
Arrow at once: an allowance."""


def bayes_mem_mb(section: dict, actions: int) -> int:
    """MB of memory of one ``bayes_runs`` job at A = ``actions``: no run's trace (its regret is summed as it
    proceeds, duelbandits.algorithms.ts_maximin.regret_at), so any horizon: a job that compiles, the
    matrices, and its rows (measured: 0.23 GB peak for one run to 10^8 at A = 3, against 1.38 GB with the
    trace)."""
    rows = -(-section["matrices"] // section["jobs"]) * section["runs"] * section["grid_points"]
    return megabytes(BASE_BYTES + COMPILE_BYTES + MATRIX_COPIES * 8 * int(actions) ** 2 + rows * BAYES_ROW_BYTES)


def bayes_runtime(section: dict, actions: int, algorithm: str, attempt: int = 1) -> int:
    """Minutes of one ``bayes_runs`` job: its share of the matrices (``ceil(matrices / jobs)``), ``runs``
    runs of ``algorithm`` (duelbandits.studies.bayes.ALGORITHM) each to ``horizon``, at A = ``actions``; a retry
    asks for ``attempt`` times that."""
    runs = -(-section["matrices"] // section["jobs"]) * section["runs"]
    return runtime_minutes(algorithm, runs, section["horizon"], int(actions), attempt)


TAIL_TRAPPED_SHARE = 10
"""The tail's phase-2 jobs are sized for one trapped run in ``TAIL_TRAPPED_SHARE`` of phase 1's runs (an
allowance: the paper's borda matrix traps fewer), besides its ``others`` free ones."""


def tail_continue_mem_mb(config: dict) -> int:
    """MB of memory of one ``tail_continue`` job: one run at a time to the tail's ``horizon``."""
    return megabytes(sweep_point_bytes(config["maximin-tail"]["horizon"], config["actions"]))


def tail_continue_runtime(config: dict, algorithm: str, attempt: int = 1) -> int:
    """Minutes of one ``tail_continue`` job: its share of ``others`` free runs and the trapped ones
    allowed for (:data:`TAIL_TRAPPED_SHARE`), of ``algorithm`` (duelbandits.studies.tail.analysis.ALGORITHM)
    to the tail's ``horizon``; a retry asks for more."""
    section = config["maximin-tail"]
    runs = -(-(section["others"] + section["runs"] // TAIL_TRAPPED_SHARE) // section["jobs"])
    return runtime_minutes(algorithm, runs, section["horizon"], config["actions"], attempt)
