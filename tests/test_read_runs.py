"""storage.read_runs, the typed read of a run chunk: its run columns and types, its strategy columns
at their recorded steps, a damaged file named (a chunk's invariants are checked where they enter)."""

import numpy as np
import pyarrow as pa
import pytest

from duelbandits import storage

INT16_MAX = int(np.iinfo(np.int16).max)


def chunk(path, I, J, runs=2, strategies=None):
    """A run chunk of ``runs`` runs with actions ``I`` and ``J`` (one run's steps, repeated) written to ``path``.

    ``strategies`` maps a column name to its value at every step (a recorded step everywhere)."""
    I, J = np.asarray(I), np.asarray(J)
    T = I.size
    columns = {
        "run": np.repeat(np.arange(runs, dtype=np.int32), T),
        "t": np.tile(np.arange(1, T + 1, dtype=np.int32), runs),
        "I": np.tile(I.astype(np.int16), runs),
        "J": np.tile(J.astype(np.int16), runs),
        "outcome": np.zeros(runs * T, np.int8),
    }
    for name, value in (strategies or {}).items():
        columns[name] = np.full(runs * T, value, dtype=float)
    storage.write_table(pa.table(columns), path)
    return path


@pytest.mark.parametrize("A, players", [(2, ("p",)), (13, ("p", "q")), (INT16_MAX, ())])
def test_a_chunk_reads_back_as_its_run_columns_and_its_strategies_at_the_recorded_steps(tmp_path, A, players):
    """Actions 0 and A - 1 in both columns (int16 up to its largest); the strategy frame None without players."""
    columns = {f"{p}_{a}": 1.0 / A for p in players for a in range(A)}
    path = chunk(tmp_path / "c.parquet", I=[0, A - 1, A - 1, 0], J=[A - 1, 0, A - 1, 0], strategies=columns)
    runs, strategies = storage.read_runs(path)
    assert list(runs.columns) == ["run", "t", "I", "J", "outcome"]
    assert runs["I"].tolist() == [0, A - 1, A - 1, 0] * 2 and runs["J"].tolist() == [A - 1, 0, A - 1, 0] * 2
    assert runs["run"].tolist() == [0] * 4 + [1] * 4 and runs["t"].tolist() == [1, 2, 3, 4] * 2
    if not players:
        assert strategies is None
        return
    assert list(strategies.columns) == ["run", "t", *columns] and len(strategies) == 2 * 4
    assert np.allclose(strategies[list(columns)].to_numpy(), 1.0 / A)


def test_every_run_column_is_required_and_the_missing_ones_are_all_named(tmp_path):
    path = chunk(tmp_path / "c.parquet", I=[0, 1], J=[1, 0])
    table = storage.read_table(path)
    storage.write_table(table.drop_columns(["I", "J"]), path)
    with pytest.raises(storage.StorageError, match=r"c\.parquet: has no column\(s\) I, J: "):
        storage.read_runs(path)
    storage.write_table(table.set_column(1, "t", pa.array([1, None, 1, 2], pa.int32())), path)
    with pytest.raises(storage.StorageError, match=r"c\.parquet: column t holds 1 null value\(s\): "):
        storage.read_runs(path)


def test_a_chunk_whose_schema_reads_but_whose_strategies_do_not_is_named(tmp_path):
    """The recorded strategy rows are read one row group at a time: a damaged data page there is a
    StorageError naming the file, like any other unreadable Parquet file."""
    path = chunk(tmp_path / "c.parquet", I=[0, 1] * 50, J=[1, 0] * 50, strategies={"p_0": 0.5, "p_1": 0.5})
    data = bytearray(path.read_bytes())
    footer = int.from_bytes(data[-8:-4], "little")
    data[4 : len(data) - 8 - footer] = b"\xa5" * (len(data) - 12 - footer)  # every data page; the footer kept
    path.write_bytes(bytes(data))
    with pytest.raises(storage.StorageError, match=r"c\.parquet: not a readable Parquet file \("):
        storage.read_runs(path)
