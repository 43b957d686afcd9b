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


def _result(rng, horizon, actions, players, stride):
    """A SimulationResult of random actions, outcomes and strategies (rows sum to 1), recorded every ``stride``."""
    from duelbandits.simulation import SimulationResult

    steps = np.unique(np.r_[np.arange(1, horizon + 1, stride), horizon])
    strategies = {p: rng.dirichlet(np.ones(actions), size=len(steps)) for p in players}
    return SimulationResult(
        "test",
        rng.integers(0, actions, horizon),
        rng.integers(0, actions, horizon),
        rng.integers(0, 2, horizon).astype(np.int8),
        steps,
        strategies,
    )


def _whole_table(runs, actions):
    """The chunk's table built whole and dense (what write_runs must write the bytes of)."""
    columns = {
        "run": np.concatenate([np.full(res.horizon, run, np.int32) for run, res in runs]),
        "t": np.concatenate([np.arange(1, res.horizon + 1, dtype=np.int32) for _, res in runs]),
        "I": np.concatenate([res.I for _, res in runs]).astype(np.int16),
        "J": np.concatenate([res.J for _, res in runs]).astype(np.int16),
        "outcome": np.concatenate([res.outcomes for _, res in runs]).astype(np.int8),
    }
    for p in next((tuple(res.strategies) for _, res in runs if res.strategies), ()):
        for a in range(actions):
            dense = []
            for _, res in runs:
                column = np.full(res.horizon, np.nan)
                column[res.strategy_steps - 1] = res.strategies[p][:, a]
                dense.append(column)
            columns[f"{p}_{a}"] = pa.array(np.concatenate(dense), from_pandas=True)  # NaN -> null
    return pa.table(columns)


# Three runs of 400,001 steps are 1,200,003 rows: two row groups (2^20 = 1,048,576 rows), the
# boundary inside the third run; one run of 7 steps is one short row group.
@pytest.mark.parametrize(
    "runs, horizon, actions, players, stride",
    [(3, 400_001, 3, ("p", "q"), 40), (3, 400_001, 2, ("p",), 7), (2, 400_001, 5, (), 40), (1, 7, 10, ("p",), 3)],
    ids=["two-players-A3", "one-player-A2", "no-strategies-A5", "one-short-run-A10"],
)
def test_write_runs_writes_the_bytes_of_the_whole_table_row_group_by_row_group(
    tmp_path, runs, horizon, actions, players, stride
):
    from duelbandits import digests, files

    rng = np.random.default_rng(7)
    results = [(run, _result(rng, horizon, actions, players, stride)) for run in range(5, 5 + runs)]
    if players:  # a NaN in a recorded strategy is a null, in its column only
        results[-1][1].strategies[players[0]][1, actions - 1] = np.nan
    provenance = {"kind": "runs", "test": True}
    with files.noting_contents() as noted:
        storage.write_runs(results, actions, tmp_path / "rows.parquet", provenance)
    whole = _whole_table(results, actions)
    storage.write_table(whole, tmp_path / "whole.parquet", provenance, row_group_size=storage.ROW_GROUP_ROWS)
    assert (tmp_path / "rows.parquet").read_bytes() == (tmp_path / "whole.parquet").read_bytes()
    expected = digests.ledger_line(digests.PARQUET + digests.parquet_digest(tmp_path / "rows.parquet"))
    assert files.noted_content(noted, tmp_path / "rows.parquet") == expected
    if players:
        table = storage.read_table(tmp_path / "rows.parquet")
        assert (
            table.column(f"{players[0]}_{actions - 1}").null_count
            == runs * horizon - runs * len(results[0][1].strategy_steps) + 1
        )
