"""Parquet files of the pipeline: their schemas, atomic writes and checked reads.

One place for every on-disk table, so the CLI, the workflow and the tests
agree on column names and types:

- run chunks (``results/runs/{scenario}/{algorithm}/chunk-{k}.parquet``):
  one row per (run, step); strategy columns ``p_0..p_{A-1}`` (and ``q_*``)
  are filled only at recorded steps and null elsewhere.
- traces (``results/traces/{scenario}.parquet``): one row per (algorithm, run, step).
- strategies (``results/strategies/{scenario}.parquet``): mean/std over runs.
- summary (``results/summary.parquet``) and bounds (``results/bounds.parquet``).
- the sweeps' points and tables (``results/sweeps/``), and the long-horizon tables
  (``results/asymptotics/``, target ``asymptotics``).

Also the scenario files (``results/scenarios/{scenario}.json``), and the
atomic writes every output goes through.
"""

from __future__ import annotations

import json
import os
import tempfile
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from . import winners
from .provenance import METADATA_KEY, canonical_json, file_sha256, matrix_sha256
from .scenarios import MatrixError, validate_matrix

RUN_COLUMNS = {"run": pa.int32(), "t": pa.int32(), "I": pa.int16(), "J": pa.int16(), "outcome": pa.int8()}

TRACE_SCHEMA = pa.schema(
    [
        ("algorithm", pa.string()),
        ("regret_kind", pa.string()),
        ("run", pa.int32()),
        ("t", pa.int32()),
        ("I", pa.int16()),
        ("J", pa.int16()),
        ("outcome", pa.int8()),
        ("regret", pa.float64()),
        ("cumulative_regret", pa.float32()),
    ]
)
"""Traces schema. ``cumulative_regret`` is float32 (relative precision 6e-8,
far below what a plot shows) with byte-stream-split encoding: a float64 sum
that changes at every step barely compresses and made the traces 7x larger.
The summary's statistics are computed in float64 before anything is stored."""

STRATEGY_SCHEMA = pa.schema(
    [
        ("algorithm", pa.string()),
        ("player", pa.string()),
        ("t", pa.int32()),
        ("action", pa.int16()),
        ("mean", pa.float64()),
        ("std", pa.float64()),
        ("runs", pa.int32()),
    ]
)

SUMMARY_SCHEMA = pa.schema(
    [
        ("scenario", pa.string()),
        ("algorithm", pa.string()),
        ("regret", pa.string()),
        ("paper", pa.bool_()),
        ("t", pa.int32()),
        ("mean", pa.float64()),
        ("std", pa.float64()),
        ("runs", pa.int32()),
        ("bound", pa.float64()),
    ]
)

BOUND_SCHEMA = pa.schema(
    [
        ("algorithm", pa.string()),
        ("theorem", pa.string()),
        ("regret", pa.string()),
        ("horizon", pa.int32()),
        ("holds", pa.bool_()),
        ("t", pa.int32()),
        ("bound", pa.float64()),
    ]
)

# The sweeps (target `sweeps`): results/sweeps/.

POINT_SCHEMA = pa.schema(
    [
        ("scenario", pa.string()),
        ("algorithm", pa.string()),
        ("actions", pa.int16()),
        ("horizon", pa.int32()),
        ("run", pa.int32()),
        ("regret", pa.string()),
        ("t", pa.int32()),
        ("cumulative_regret", pa.float64()),
    ]
)
"""One sweep point file: per run and regret kind, R_t on a thin grid of steps t."""

HORIZON_SCHEMA = pa.schema(
    [
        ("scenario", pa.string()),
        ("algorithm", pa.string()),
        ("regret", pa.string()),
        ("paper", pa.bool_()),
        ("actions", pa.int16()),
        ("horizon", pa.int32()),
        ("t", pa.int32()),
        ("mean", pa.float64()),
        ("std", pa.float64()),
        ("runs", pa.int32()),
    ]
)
"""results/sweeps/horizon.parquet: mean and std over runs of R_t; ``t == horizon`` is R_T."""

EXPONENT_SCHEMA = pa.schema(
    [
        ("scenario", pa.string()),
        ("algorithm", pa.string()),
        ("regret", pa.string()),
        ("paper", pa.bool_()),
        ("theorem", pa.string()),
        ("theorem_exponent", pa.float64()),
        ("actions", pa.int16()),
        ("horizons", pa.int16()),
        ("runs", pa.int32()),
        ("rho", pa.float64()),
        ("log_c", pa.float64()),
        ("ci_low", pa.float64()),
        ("ci_high", pa.float64()),
        ("confidence", pa.float64()),
        ("resamples", pa.int32()),
    ]
)
"""results/sweeps/exponents.parquet: fitted E[R_T] ~ exp(log_c) T^rho with a bootstrap CI.

``theorem`` names the theorem that bounds this (algorithm, regret), null if
none; ``paper`` marks the regret the scenario's figures show.
"""

ACTIONS_SCHEMA = pa.schema(
    [
        ("scenario", pa.string()),
        ("algorithm", pa.string()),
        ("regret", pa.string()),
        ("paper", pa.bool_()),
        ("theorem", pa.string()),
        ("actions", pa.int16()),
        ("horizon", pa.int32()),
        ("runs", pa.int32()),
        ("mean", pa.float64()),
        ("std", pa.float64()),
        ("bound", pa.float64()),
        ("ratio", pa.float64()),
    ]
)
"""results/sweeps/actions.parquet: R_T per number of actions, and mean / theorem bound.

``bound`` and ``ratio`` are null unless the algorithm's theorem bounds this
regret and its horizon requirement holds at (A, T).
"""

# Long horizons (target `asymptotics`): results/asymptotics/. Its points are sweep points (POINT_SCHEMA).

ASYMPTOTIC_LOCAL_SCHEMA = pa.schema(
    [
        ("scenario", pa.string()),
        ("algorithm", pa.string()),
        ("regret", pa.string()),
        ("paper", pa.bool_()),
        ("theorem", pa.string()),
        ("theorem_exponent", pa.float64()),
        ("actions", pa.int16()),
        ("horizon", pa.int32()),
        ("runs", pa.int32()),
        ("mean", pa.float64()),
        ("std", pa.float64()),
        ("bound", pa.float64()),
        ("ratio", pa.float64()),
        ("from_horizon", pa.int32()),
        ("slope", pa.float64()),
        ("ci_low", pa.float64()),
        ("ci_high", pa.float64()),
        ("confidence", pa.float64()),
        ("resamples", pa.int32()),
    ]
)
"""results/asymptotics/local.parquet: per horizon, R_T (mean, std, runs), the theorem's bound tuned to
T and R_T / bound (null where no theorem bounds the regret or T misses its requirement), and the local
exponent ``slope`` from ``from_horizon`` (the previous horizon) to ``horizon`` with its bootstrap
interval (``from_horizon`` null and the slope NaN at the first horizon)."""

ASYMPTOTIC_EXPONENT_SCHEMA = pa.schema(
    [
        ("scenario", pa.string()),
        ("algorithm", pa.string()),
        ("regret", pa.string()),
        ("paper", pa.bool_()),
        ("theorem", pa.string()),
        ("theorem_exponent", pa.float64()),
        ("lower_bound_exponent", pa.float64()),
        ("actions", pa.int16()),
        ("horizons", pa.int16()),
        ("runs", pa.int32()),
        ("first_horizon", pa.int32()),
        ("last_horizon", pa.int32()),
        ("prev_from", pa.int32()),
        ("prev_slope", pa.float64()),
        ("prev_low", pa.float64()),
        ("prev_high", pa.float64()),
        ("last_from", pa.int32()),
        ("last_slope", pa.float64()),
        ("last_low", pa.float64()),
        ("last_high", pa.float64()),
        ("rho", pa.float64()),
        ("log_c", pa.float64()),
        ("rho_low", pa.float64()),
        ("rho_high", pa.float64()),
        ("last_ratio", pa.float64()),
        ("verdict", pa.string()),
        ("near", pa.float64()),
        ("confidence", pa.float64()),
        ("resamples", pa.int32()),
    ]
)
"""results/asymptotics/exponents.parquet: per (scenario, algorithm, regret, A), the local exponents of
the last two intervals (``prev_from``-``last_from`` and ``last_from``-``last_horizon``) with their
bootstrap intervals, the global fit E[R_T] ~ exp(log_c) T^rho over every horizon with its interval,
R_T / bound at the largest horizon, the worst-case lower bound's exponent where one applies, and the
verdict against the theorem's exponent (null without a theorem; rules in :mod:`duelbandits.asymptotics`).
``runs`` is the fewest runs of any horizon."""


FIELD_CURVES_SCHEMA = pa.schema(
    [
        ("scenario", pa.string()),
        ("algorithm", pa.string()),
        ("regret", pa.string()),
        ("actions", pa.int16()),
        ("horizon", pa.int32()),
        ("t", pa.int32()),
        ("mean", pa.float64()),
        ("std", pa.float64()),
        ("runs", pa.int32()),
        ("family", pa.string()),
    ]
)
"""results/field/curves.parquet: mean and std over runs of each field regret at the thin grid's steps.

``regret`` is ``condorcet`` (where a Condorcet winner exists), ``copeland`` (where none does) or
``borda``; ``family`` is ``paper`` (the paper's six algorithms) or ``field``.
"""

FIELD_TABLE_SCHEMA = pa.schema(
    [
        ("scenario", pa.string()),
        ("regret", pa.string()),
        ("algorithm", pa.string()),
        ("family", pa.string()),
        ("actions", pa.int16()),
        ("horizon", pa.int32()),
        ("runs", pa.int32()),
        ("mean", pa.float64()),
        ("std", pa.float64()),
        ("rank", pa.int16()),
    ]
)
"""results/field/table.parquet: final regret R_T per (scenario, regret, algorithm) and its rank (1 = lowest mean)."""

# Deterministic, compact Parquet: Parquet stores no timestamps, and the codec
# and encodings are pinned so equal tables give equal bytes. The step and run
# counters are delta-encoded (sequential integers: nearly free); everything
# else is dictionary-encoded where that pays.
DELTA_COLUMNS = ("t", "run")
SPLIT_COLUMNS = ("cumulative_regret",)


def write_options(names) -> dict:
    """``pyarrow.parquet`` writer options for a table with the given column names."""
    encoding = {n: "DELTA_BINARY_PACKED" for n in names if n in DELTA_COLUMNS}
    encoding |= {n: "BYTE_STREAM_SPLIT" for n in names if n in SPLIT_COLUMNS}
    return {
        "compression": "zstd",
        "compression_level": 9,
        "write_statistics": True,
        "use_dictionary": [n for n in names if n not in encoding],
        "column_encoding": encoding or None,
    }


class StorageError(ValueError):
    """A results file is missing, unreadable or not what the pipeline wrote."""


LEDGER: Path | None = None
"""Folder in which every write records the sha256 of the bytes it wrote, as
``LEDGER/<path>.sha256`` (set by ``duelbandits --ledger DIR``; the workflow sets
it, so that the manifest can refuse a file changed after its job), or None."""


def ledger_record(path) -> Path:
    """Where the ledger keeps the sha256 of ``path`` (a relative path as the jobs write it)."""
    rel = Path(os.path.normpath(path))
    return LEDGER / f"{rel.relative_to(rel.anchor) if rel.is_absolute() else rel}.sha256"


def damaged(path, problem: str) -> StorageError:
    """The error for an input that is not what the pipeline wrote; under the workflow, with the repair."""
    repair = f"; rebuild it with: snakemake --cores all --forcerun {path}" if LEDGER is not None else ""
    return StorageError(f"{path}: {problem}{repair}")


def _record_write(path: Path) -> None:
    record = ledger_record(path)
    record.parent.mkdir(parents=True, exist_ok=True)
    tmp = record.with_name(f".{record.name}.{os.getpid()}.tmp")
    tmp.write_text(file_sha256(path) + "\n")
    os.replace(tmp, record)


def strategy_columns(player: str, actions: int) -> list[str]:
    return [f"{player}_{a}" for a in range(actions)]


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def check_output(path) -> None:
    """Raise StorageError unless ``path`` can be written: not a directory, in a folder that
    exists or can be made, and that this user may write in."""
    path = Path(path)
    if path.is_dir():
        raise StorageError(f"{path}: is a directory, not a file to write")
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        raise StorageError(f"{path}: cannot write there, {folder} is not a directory")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise StorageError(f"{path}: cannot write there, no permission to write in {folder}")


@contextmanager
def atomic_write(path):
    """Yield a temporary path beside ``path``; rename it onto ``path`` only on success.

    A crash or an exception never leaves a partial file at ``path``, and the
    temporary file is removed either way (one left by a killed process is
    removed by the next write of the same path).
    """
    final = Path(path)
    try:
        final.parent.mkdir(parents=True, exist_ok=True)
        for stale in final.parent.glob(f".{final.name}.*.tmp"):
            stale.unlink(missing_ok=True)  # left by a writer killed with SIGKILL
        fd, name = tempfile.mkstemp(prefix=f".{final.name}.", suffix=".tmp", dir=final.parent)
        os.close(fd)
    except OSError as err:
        raise StorageError(f"{final}: cannot write ({err.strerror or err})") from None
    tmp = Path(name)
    try:
        yield tmp
        os.chmod(tmp, 0o666 & ~_umask())
        try:
            os.replace(tmp, final)
            if LEDGER is not None:
                _record_write(final)
        except OSError as err:
            raise StorageError(f"{final}: cannot write ({err.strerror or err})") from None
    finally:
        tmp.unlink(missing_ok=True)


def with_provenance(schema_or_table, provenance: dict | None):
    """``schema_or_table`` with ``provenance`` (see :mod:`duelbandits.provenance`) in its metadata."""
    if provenance is None:
        return schema_or_table
    is_table = isinstance(schema_or_table, pa.Table)
    schema = schema_or_table.schema if is_table else schema_or_table
    metadata = {**(schema.metadata or {}), METADATA_KEY: canonical_json(provenance).encode()}
    return schema_or_table.replace_schema_metadata(metadata) if is_table else schema.with_metadata(metadata)


def write_table(table: pa.Table, path, provenance: dict | None = None, **options) -> None:
    """Write ``table`` to ``path`` atomically, carrying ``provenance``: a crash never leaves a partial file."""
    with atomic_write(path) as tmp:
        pq.write_table(with_provenance(table, provenance), tmp, **{**write_options(table.column_names), **options})


def read_provenance(path) -> dict:
    """The provenance a Parquet file carries; StorageError if it carries none (not made by duelbandits)."""
    path = Path(path)
    if not path.is_file():
        raise damaged(path, "file not found")
    try:
        metadata = pq.read_schema(path).metadata or {}
    except (pa.ArrowException, OSError, ValueError) as err:
        raise damaged(path, f"not a readable Parquet file ({err})") from None
    if METADATA_KEY not in metadata:
        raise damaged(path, "carries no duelbandits provenance (not written by the pipeline)")
    try:
        return json.loads(metadata[METADATA_KEY])
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise StorageError(f"{path}: its provenance is not JSON ({err})") from None


def _arrow(values: np.ndarray, type_: pa.DataType, valid: np.ndarray | None = None) -> pa.Array:
    """A primitive Arrow array over a numpy array's buffer (``valid`` marks non-null entries).

    Built from buffers rather than with ``pa.array``, which imports pandas
    (0.7 s) in every simulation job just to inspect its argument.
    """
    values = np.ascontiguousarray(values, dtype=type_.to_pandas_dtype())
    bitmap = None if valid is None else pa.py_buffer(np.packbits(valid, bitorder="little"))
    nulls = 0 if valid is None else int(valid.size - np.count_nonzero(valid))
    return pa.Array.from_buffers(type_, len(values), [bitmap, pa.py_buffer(values)], null_count=nulls)


def run_table(runs: list, actions: int) -> pa.Table:
    """One chunk's table from ``[(run, SimulationResult), ...]``."""
    players = next((tuple(res.strategies) for _, res in runs if res.strategies), ())
    columns = {name: [] for name in RUN_COLUMNS}
    strat = {col: [] for p in players for col in strategy_columns(p, actions)}
    for run, res in runs:
        T = res.horizon
        columns["run"].append(np.full(T, run, dtype=np.int32))
        columns["t"].append(np.arange(1, T + 1, dtype=np.int32))
        columns["I"].append(res.I.astype(np.int16))
        columns["J"].append(res.J.astype(np.int16))
        columns["outcome"].append(res.outcomes.astype(np.int8))
        for p in players:
            full = np.full((T, actions), np.nan)
            full[res.strategy_steps - 1] = res.strategies[p]
            for a, col in enumerate(strategy_columns(p, actions)):
                strat[col].append(full[:, a])
    arrays = [_arrow(np.concatenate(columns[n]), t) for n, t in RUN_COLUMNS.items()]
    names = list(RUN_COLUMNS)
    for col, parts in strat.items():
        values = np.concatenate(parts)
        arrays.append(_arrow(values, pa.float64(), valid=~np.isnan(values)))
        names.append(col)
    return pa.Table.from_arrays(arrays, names=names)


def write_frame(df, schema: pa.Schema, path, provenance: dict | None = None) -> None:
    """Write a DataFrame with the columns and types of ``schema`` (see :func:`write_table`)."""
    write_table(pa.Table.from_pandas(df, schema=schema, preserve_index=False), path, provenance)


def write_text(path, text: str) -> None:
    """Write a text file atomically (Markdown, HTML, JSON, the manifest)."""
    with atomic_write(path) as tmp:
        tmp.write_text(text)


def scenario_record(sc, seed: int) -> dict:
    """JSON-ready description of a :class:`~duelbandits.scenarios.Scenario`: matrix, utilities,
    winners, parameters, seed and the matrix's digest."""
    X = sc.matrix
    return {
        "name": sc.name,
        "seed": seed,
        "matrix_sha256": matrix_sha256(X),
        "utilities": sc.utilities.tolist(),
        "matrix": X.tolist(),
        "winners": {
            "condorcet": winners.condorcet_winner(X),
            "copeland": winners.copeland_winners(X).tolist(),
            "maximin": winners.maximin_winners(X).tolist(),
            "borda": winners.borda_winners(X).tolist(),
        },
        "params": sc.params,
    }


def write_scenario(path, sc, seed: int) -> None:
    """The scenario file ``results/scenarios/{scenario}.json`` (:func:`scenario_record`)."""
    write_text(path, json.dumps(scenario_record(sc, seed), indent=1) + "\n")


def read_scenario(path) -> dict:
    """Load a scenario file written by :func:`write_scenario` and check its matrix."""
    path = Path(path)
    try:
        record = json.loads(path.read_text())
        record["matrix"] = validate_matrix(record["matrix"]).tolist()
        record["name"]
    except FileNotFoundError:
        raise damaged(path, "file not found") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, KeyError, TypeError, MatrixError) as err:
        raise damaged(path, f"not a scenario file ({err})") from None
    return record


def read_table(path, columns=None, filters=None) -> pa.Table:
    """Read a Parquet file; any failure becomes a StorageError naming the file."""
    path = Path(path)
    if not path.is_file():
        raise damaged(path, "file not found")
    try:
        return pq.read_table(path, columns=columns, filters=filters)
    except (pa.ArrowException, OSError, ValueError) as err:
        raise damaged(path, f"not a readable Parquet file ({err})") from None


def read_runs(path, horizon: int, actions: int):
    """Read and check one run chunk; return ``(runs, strategies)`` DataFrames.

    ``runs`` has the columns of :data:`RUN_COLUMNS`; every run must have
    exactly ``horizon`` rows with ``t = 1..horizon`` and actions in
    ``[0, actions)``. ``strategies`` holds only the recorded steps (``run``,
    ``t`` and the ``p_*``/``q_*`` columns), or is None for algorithms without
    strategies; dropping the null rows early keeps memory at one chunk.
    """
    table = read_table(path)
    missing = [c for c in RUN_COLUMNS if c not in table.column_names]
    if missing:
        raise StorageError(f"{path}: missing column(s) {', '.join(missing)}")
    strategy_cols = [c for c in table.column_names if c[:2] in ("p_", "q_")]
    strategies = None
    if strategy_cols:
        recorded = table.filter(pc.is_valid(table.column(strategy_cols[0])))
        strategies = recorded.select(["run", "t", *strategy_cols]).to_pandas()
        if strategies[strategy_cols].isna().any().any() or len(strategy_cols) % actions:
            raise StorageError(f"{path}: strategy columns are incomplete")
    df = table.select(list(RUN_COLUMNS)).to_pandas()
    runs = np.unique(df["run"].to_numpy())
    if len(df) != len(runs) * horizon:
        raise StorageError(f"{path}: {len(df)} rows for {len(runs)} runs of horizon {horizon}")
    t = df["t"].to_numpy().reshape(len(runs), horizon)
    if not np.array_equal(t, np.broadcast_to(np.arange(1, horizon + 1), t.shape)):
        raise StorageError(f"{path}: steps are not 1..{horizon} in order for every run")
    for col in ("I", "J"):
        values = df[col].to_numpy()
        if values.min() < 0 or values.max() >= actions:
            raise StorageError(f"{path}: column {col} has actions outside [0, {actions})")
    return df, strategies
