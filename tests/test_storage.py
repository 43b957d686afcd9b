import numpy as np
import pyarrow as pa
import pytest

from duelbandits import storage


def test_write_table_delta_encodes_counters_and_round_trips(tmp_path):
    t = np.tile(np.arange(1, 1001, dtype=np.int32), 5)
    table = pa.table({"run": np.repeat(np.arange(5, dtype=np.int32), 1000), "t": t, "I": np.zeros(5000, np.int16)})
    storage.write_table(table, tmp_path / "x.parquet")
    back = storage.read_table(tmp_path / "x.parquet")
    assert back.equals(table)
    # sequential counters cost almost nothing: 5,000 int32 steps in well under 1 kB
    assert (tmp_path / "x.parquet").stat().st_size < 2_000


def test_read_runs_rejects_incomplete_runs_naming_the_file(tmp_path):
    table = pa.table(
        {
            "run": np.zeros(9, np.int32),
            "t": np.arange(1, 10, dtype=np.int32),
            "I": np.zeros(9, np.int16),
            "J": np.zeros(9, np.int16),
            "outcome": np.zeros(9, np.int8),
        }
    )
    path = tmp_path / "chunk-0.parquet"
    storage.write_table(table, path)
    with pytest.raises(storage.StorageError, match=r"chunk-0.parquet: 9 rows for 1 runs of horizon 10"):
        storage.read_runs(path, horizon=10, actions=3)
    with pytest.raises(storage.StorageError, match="file not found"):
        storage.read_runs(tmp_path / "nope.parquet", horizon=10, actions=3)
    (tmp_path / "bad.parquet").write_bytes(b"PAR1 not really")
    with pytest.raises(storage.StorageError, match="bad.parquet: not a readable Parquet file"):
        storage.read_runs(tmp_path / "bad.parquet", horizon=10, actions=3)
