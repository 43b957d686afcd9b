"""Size limits: what the file formats can hold, and the memory a job will need, checked before it runs.

The step, run and action columns are int32, int32 and int16, so a horizon or
a run index beyond 2^31 - 1 and more than 32,767 actions cannot be stored.
Memory is estimated from the sizes alone (bytes per stored step, measured on
the paper run with margin) and compared with the machine's physical memory,
so that an impossible request fails at once, naming the argument, the
estimate and the limit, instead of failing in every job after allocating.
The time and memory of a sweep-point job (measured costs per step, with a
margin) size the cluster requests of the `asymptotics` target's jobs.
"""

from __future__ import annotations

import os

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


def bootstrap_bytes(resamples: int, horizons: int, runs: int) -> int:
    """Memory of a bootstrap over ``horizons`` x ``runs`` final regrets: it holds ``resamples`` x
    (horizons + runs) floats (8 bytes) a few (4) times over."""
    return 4 * 8 * resamples * (horizons + runs)
