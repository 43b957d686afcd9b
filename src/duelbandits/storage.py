"""Reading and writing the pipeline's files (Parquet tables of :mod:`duelbandits.schemas`, scenario files)
with their provenance: every write atomic (:func:`atomic_write`), every read failure a StorageError naming the file.
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
from .errors import InputError, MatrixError, why_unreadable
from .matrices import validate_matrix
from .provenance import METADATA_KEY, canonical_json, check, matrix_sha256
from .schemas import MAY_BE_NULL, RUN_COLUMNS, TABLE_SCHEMAS, strategy_columns

# Deterministic, compact Parquet: Parquet stores no timestamps, and the codec
# and encodings are pinned so equal tables give equal bytes. The step and run
# counters are delta-encoded (sequential integers: nearly free); everything
# else is dictionary-encoded where that pays. zstd at level 5: a traces file
# (24 million rows) is written in 2.05 CPU-s instead of 2.75 at level 9, 2 %
# larger (40.1 MB against 39.3; docs/performance.md).
ZSTD_LEVEL = 5
DELTA_COLUMNS = ("t", "run")
SPLIT_COLUMNS = ("cumulative_regret",)


class StorageError(InputError):
    """A results file is missing, unreadable or not what the pipeline wrote, or cannot be written."""


def readable(path) -> Path:
    """``path``, or StorageError naming why it cannot be read as a file (:func:`duelbandits.errors.why_unreadable`)."""
    problem = why_unreadable(path)
    if problem:
        raise StorageError(f"{path}: {problem}")
    return Path(path)


@contextmanager
def parquet_errors(path):
    """Arrow's error reading the Parquet file ``path`` as one StorageError line (Arrow's first line: its
    message can go on to dump a schema)."""
    try:
        yield
    except (pa.ArrowException, OSError, ValueError, KeyError) as err:
        first = next(iter(str(err).splitlines()), "")
        raise StorageError(f"{path}: not a readable Parquet file ({first})") from None


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
    """Yield a temporary path beside ``path``, renamed onto it only on success: never a partial file
    (a temporary file left by a killed process is removed by the next write of the same path)."""
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
        mask = os.umask(0)  # pragma: no mutate -- any value: the mask read is restored at once, nothing made between
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)  # the mode a plain open() gives
        os.replace(tmp, final)
    except OSError as err:  # a full disk, a quota: name the file (the error of a write names none)
        raise StorageError(f"{final}: cannot write ({err.strerror or err})") from None
    finally:
        tmp.unlink(missing_ok=True)


def write_text(path, text: str) -> None:
    """Write a text file atomically (Markdown, HTML, JSON, the manifest)."""
    with atomic_write(path) as tmp:
        tmp.write_text(text)


def write_options(names) -> dict:
    """``pyarrow.parquet`` writer options for a table with the given column names."""
    encoding = {n: "DELTA_BINARY_PACKED" for n in names if n in DELTA_COLUMNS}
    encoding |= {n: "BYTE_STREAM_SPLIT" for n in names if n in SPLIT_COLUMNS}
    return {
        "compression": "zstd",  # pragma: no mutate -- 'ZSTD': pyarrow's codec names ignore case (the same bytes)
        "compression_level": ZSTD_LEVEL,
        "write_statistics": True,
        "use_dictionary": [n for n in names if n not in encoding],
        "column_encoding": encoding or None,
    }


def with_provenance(schema_or_table, provenance: dict | None):
    """``schema_or_table`` with ``provenance`` (see :mod:`duelbandits.provenance`) in its metadata."""
    if provenance is None:
        return schema_or_table
    is_table = isinstance(schema_or_table, pa.Table)
    schema = schema_or_table.schema if is_table else schema_or_table
    metadata = {**(schema.metadata or {}), METADATA_KEY: canonical_json(provenance).encode()}
    return schema_or_table.replace_schema_metadata(metadata) if is_table else schema.with_metadata(metadata)


@contextmanager
def parquet_writer(path, schema: pa.Schema, provenance: dict | None = None):
    """A ``pyarrow.parquet.ParquetWriter`` of ``schema`` carrying ``provenance``, written table by table to a
    temporary file that becomes ``path`` when the block ends (:func:`atomic_write`): never a partial file."""
    with (
        atomic_write(path) as tmp,
        pq.ParquetWriter(tmp, with_provenance(schema, provenance), **write_options(schema.names)) as out,
    ):
        yield out


def write_table(table: pa.Table, path, provenance: dict | None = None, **options) -> None:
    """Write ``table`` to ``path`` atomically, carrying ``provenance``: a crash never leaves a partial file."""
    with atomic_write(path) as tmp:
        pq.write_table(with_provenance(table, provenance), tmp, **{**write_options(table.column_names), **options})


def read_provenance(path, fields: dict | None = None, **expected) -> dict:
    """The provenance a Parquet file carries, checked against ``expected``
    (:func:`duelbandits.provenance.check`); StorageError if it carries none (not made by duelbandits).
    ``fields`` (``{key: type}``): keys the reader uses beyond ``expected``, which must be there with
    that type."""
    metadata = read_schema(path).metadata or {}
    if METADATA_KEY not in metadata:
        raise StorageError(f"{path}: carries no duelbandits provenance (not written by the pipeline)")
    try:
        prov = json.loads(metadata[METADATA_KEY])
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise StorageError(f"{path}: its provenance is not JSON ({err})") from None
    if not isinstance(prov, dict):
        raise StorageError(f"{path}: its provenance is not a JSON object but {type(prov).__name__} {prov!r:.40}")
    check(path, prov, **expected)
    for key, kind in (fields or {}).items():
        if key not in prov:
            raise StorageError(f"{path}: its provenance has no {key!r}")
        if not isinstance(prov[key], kind) or isinstance(prov[key], bool):
            raise StorageError(f"{path}: its provenance's {key!r} is {prov[key]!r:.40}, not a {kind.__name__}")
    return prov


def read_frame(path, table: str | None = None, columns=None, filters=None):
    """:func:`read_table` as a DataFrame."""
    return read_table(path, table, columns=columns, filters=filters).to_pandas()


def _arrow(values: np.ndarray, type_: pa.DataType, valid: np.ndarray | None = None) -> pa.Array:
    """A primitive Arrow array over a numpy array's buffer (``valid`` marks non-null entries): not
    ``pa.array``, which imports pandas (0.7 s) in every simulation job to inspect its argument."""
    values = np.ascontiguousarray(values, dtype=type_.to_pandas_dtype())
    bitmap = None if valid is None else pa.py_buffer(np.packbits(valid, bitorder="little"))
    nulls = 0 if valid is None else int(valid.size - np.count_nonzero(valid))
    # mutmut equivalent: null_count dropped: pyarrow counts the bitmap's zeros when asked, the same count, and the same
    # bytes written
    return pa.Array.from_buffers(type_, len(values), [bitmap, pa.py_buffer(values)], null_count=nulls)  # noqa: E501  # pragma: no mutate


ROW_GROUP_ROWS = 1 << 20
"""Rows per row group of a run chunk (pyarrow's default since 15, the traces' too): the chunk is
built and written one row group at a time, so its strategy columns are never held whole."""


def write_runs(runs: list, actions: int, path, provenance: dict | None = None) -> None:
    """Write one chunk from ``[(run, SimulationResult), ...]``, one row per (run, step), atomically: a strategy
    column null but at the recorded steps, built row group by row group (half the memory, the same bytes)."""
    values = {  # each column's runs (:data:`duelbandits.schemas.RUN_COLUMNS`), as its Arrow type by _arrow
        # mutmut equivalent: a dtype dropped or None: _arrow converts every column to its Arrow type
        "run": [np.full(res.horizon, run, dtype=np.int32) for run, res in runs],  # pragma: no mutate
        "t": [np.arange(1, res.horizon + 1, dtype=np.int32) for _, res in runs],  # pragma: no mutate
        "I": [res.I for _, res in runs],
        "J": [res.J for _, res in runs],
        "outcome": [res.outcomes for _, res in runs],
    }
    base = [_arrow(np.concatenate(values[name]), type_) for name, type_ in RUN_COLUMNS.items()]
    players = next((tuple(res.strategies) for _, res in runs if res.strategies), ())
    names = list(RUN_COLUMNS) + [col for p in players for col in strategy_columns(p, actions)]
    schema = pa.schema([*RUN_COLUMNS.items(), *((col, pa.float64()) for col in names[len(RUN_COLUMNS) :])])
    starts = np.cumsum([0] + [res.horizon for _, res in runs])
    if players:  # the recorded rows, in order, and each player's strategies there: (recorded, actions)
        at = np.concatenate([start + res.strategy_steps - 1 for start, (_, res) in zip(starts, runs)])
        recorded = {
            p: np.concatenate([res.strategies[p] for _, res in runs]).reshape(len(at), actions) for p in players
        }
    with parquet_writer(path, schema, provenance) as out:
        for first in range(0, int(starts[-1]), ROW_GROUP_ROWS):
            rows = min(ROW_GROUP_ROWS, int(starts[-1]) - first)
            arrays = [column.slice(first, rows) for column in base]
            if players:
                lo, hi = np.searchsorted(at, [first, first + rows])
                here = at[lo:hi] - first
                valid = np.zeros(rows, dtype=bool)
                valid[here] = True
            for p in players:
                for a in range(actions):
                    values, column, mask = np.zeros(rows), recorded[p][lo:hi, a], valid.copy()
                    values[here] = column
                    # mutmut equivalent: None for False: numpy stores False (a recorded strategy that is NaN: a null)
                    mask[here[np.isnan(column)]] = False  # pragma: no mutate
                    arrays.append(_arrow(values, pa.float64(), valid=mask))
            part = pa.Table.from_arrays(arrays, schema=schema)
            out.write_table(part)
            del part, arrays  # freed before the next row group is built: its buffers are reused


def write_frame(df, schema: pa.Schema, path, provenance: dict | None = None) -> None:
    """Write a DataFrame with the columns and types of ``schema`` (see :func:`write_table`)."""
    # mutmut equivalent: preserve_index=None with a schema or preserve_index dropped or preserve_index=True: the columns
    # written are the schema's, no index (pyarrow adds only a column_indexes entry to the pandas metadata, which reading
    # back ignores)
    write_table(pa.Table.from_pandas(df, schema=schema, preserve_index=False), path, provenance)  # pragma: no mutate


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
        # an action or None (Condorcet), a list of actions (the others)
        "winners": {kind: np.asarray(find(X)).tolist() for kind, find in winners.WINNERS.items()},
        "params": sc.params,
    }


def write_scenario(path, sc, seed: int) -> None:
    """The scenario file ``results/scenarios/{scenario}.json`` (:func:`scenario_record`)."""
    write_text(path, json.dumps(scenario_record(sc, seed), indent=1) + "\n")


SCENARIO_FIELDS = {"name": str, "matrix_sha256": str, "matrix": list, "utilities": list, "winners": dict}
"""The fields of a scenario file its readers use, and their JSON types (:func:`read_scenario`)."""


def read_scenario(path) -> dict:
    """Load a scenario file written by :func:`write_scenario`: the typed read (JSON, each of
    :data:`SCENARIO_FIELDS` with its type, a preference matrix, the four winners). Its values are the
    writer's (a file changed since is named by ``manifest verify``)."""
    try:
        record = json.loads(readable(path).read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise StorageError(f"{path}: not a scenario file ({err})") from None
    for key, kind in SCENARIO_FIELDS.items():
        if not isinstance(record, dict) or not isinstance(record.get(key), kind):
            raise StorageError(f"{path}: not a scenario file (no {key!r} of JSON type {kind.__name__})")
    try:  # what a reader computes from: a preference matrix and the four winners (the figures mark them)
        validate_matrix(record["matrix"])
    except MatrixError as err:
        raise StorageError(f"{path}: not a scenario file (its matrix: {err})") from None
    missing = [kind for kind in winners.WINNERS if kind not in record["winners"]]
    if missing:
        raise StorageError(f"{path}: not a scenario file (no {', '.join(missing)} winners)")
    return record


def read_table(path, table: str | None = None, columns=None, filters=None) -> pa.Table:
    """The one typed read of a Parquet file the pipeline wrote: with ``table`` (of :data:`.schemas.TABLE_SCHEMAS`),
    its columns with that schema's types and no null in an integer or boolean column but those of
    :data:`.schemas.MAY_BE_NULL`."""
    schema = None if table is None else TABLE_SCHEMAS[table]
    if schema is not None:
        check_columns(path, schema, columns)
    return _read(path, columns, filters, schema, MAY_BE_NULL.get(table, ()))


def _read(path, columns, filters, schema: pa.Schema | None, nullable=()) -> pa.Table:
    """:func:`read_table` of columns checked against ``schema`` (None: any columns): its nulls."""
    path = readable(path)
    with parquet_errors(path):
        table = pq.read_table(path, columns=columns, filters=filters)
    if schema is not None:
        for name in columns or schema.names:
            type_, nulls = schema.field(name).type, table.column(name).null_count
            if nulls and name not in nullable and (pa.types.is_integer(type_) or pa.types.is_boolean(type_)):
                raise StorageError(f"{path}: column {name} holds {nulls} null value(s): not what the pipeline wrote")
    return table


def check_columns(path, schema: pa.Schema, columns=None) -> None:
    """StorageError unless ``path`` has each column of ``columns`` (default: all of ``schema``'s) with the
    type ``schema`` gives it."""
    found = {field.name: field.type for field in read_schema(path)}
    names = list(columns or schema.names)
    missing = [name for name in names if name not in found]
    if missing:
        raise StorageError(f"{path}: has no column(s) {', '.join(missing)}: not what the pipeline wrote")
    for name in names:
        if found[name] != schema.field(name).type:
            raise StorageError(
                f"{path}: column {name} is {found[name]}, not {schema.field(name).type}: not what the pipeline wrote"
            )


def read_schema(path) -> pa.Schema:
    """The Arrow schema of a Parquet file; any failure becomes a StorageError naming the file."""
    path = readable(path)
    with parquet_errors(path):
        return pq.read_schema(path)


def _recorded_rows(path, columns: list[str]) -> pa.Table:
    """The rows of a run chunk whose strategy (``columns[2]``) was recorded, filtered one row group
    at a time as they are read: never the whole null-padded columns (0.64 GB for SparringExp3.P's
    20 columns of 4 million rows, where the recorded rows take 16 MB)."""
    with parquet_errors(path):
        parquet = pq.ParquetFile(path)
        parts = [
            part.filter(pc.is_valid(part[columns[2]]))
            for part in (parquet.read_row_group(g, columns=columns) for g in range(parquet.num_row_groups))
        ]
        if parts:
            return pa.concat_tables(parts)
        return pa.schema([parquet.schema_arrow.field(c) for c in columns]).empty_table()


def read_runs(path):
    """One run chunk by the typed read: ``(runs, strategies)`` DataFrames, ``strategies`` only the recorded
    steps (dropping the null rows early keeps memory at one chunk), or None for algorithms without. The
    chunk's invariants (its rows, steps, actions, laws) were checked where they entered (the kernels, a
    plugin's outputs); a chunk changed since is named by ``manifest verify``."""
    strategy_cols = [c for c in read_schema(path).names if c[:2] in ("p_", "q_")]
    schema = pa.schema([*RUN_COLUMNS.items(), *((col, pa.float64()) for col in strategy_cols)])
    check_columns(path, schema)
    strategies = _recorded_rows(path, ["run", "t", *strategy_cols]).to_pandas() if strategy_cols else None
    return _read(path, list(RUN_COLUMNS), None, schema).to_pandas(), strategies
