"""storage.read_runs at its boundaries: the actions ``0..A-1`` (A itself and -1 refused, in either
column, at A below, at and above 10 and at the int16 limit), the horizon (T - 1 and T + 1 rows per
run refused), the steps 1..T in order, and the strategy columns ``p_0..p_{A-1}`` (and ``q_*``)."""

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from duelbandits import storage

INT16_MAX = int(np.iinfo(np.int16).max)


def chunk(path, I, J, runs=2, t=None, strategies=None):
    """A run chunk of ``runs`` runs with actions ``I`` and ``J`` (one run's steps, repeated) written to ``path``.

    ``strategies`` maps a column name to its value at every step (a recorded step everywhere)."""
    I, J = np.asarray(I), np.asarray(J)
    T = I.size
    steps = np.arange(1, T + 1) if t is None else np.asarray(t)
    columns = {
        "run": np.repeat(np.arange(runs, dtype=np.int32), T),
        "t": np.tile(steps.astype(np.int32), runs),
        "I": np.tile(I.astype(np.int16), runs),
        "J": np.tile(J.astype(np.int16), runs),
        "outcome": np.zeros(runs * T, np.int8),
    }
    for name, value in (strategies or {}).items():
        columns[name] = np.full(runs * T, value, dtype=float)
    storage.write_table(pa.table(columns), path)
    return path


ACTION_COUNTS = [2, 10, 13, INT16_MAX]


def test_actions_zero_to_A_minus_1_are_accepted_in_both_columns(tmp_path):
    for A in ACTION_COUNTS:
        path = chunk(tmp_path / "c.parquet", I=[0, A - 1, A - 1, 0], J=[A - 1, 0, A - 1, 0])
        runs, strategies = storage.read_runs(path, horizon=4, actions=A)
        assert runs["I"].tolist() == [0, A - 1, A - 1, 0] * 2
        assert runs["J"].tolist() == [A - 1, 0, A - 1, 0] * 2
        assert runs["run"].tolist() == [0] * 4 + [1] * 4
        assert strategies is None


def test_an_action_equal_to_A_or_negative_is_refused_in_either_column_at_any_step(tmp_path):
    for A in ACTION_COUNTS:
        for column in ("I", "J"):
            for step, bad in ((0, A), (3, A), (2, -1), (2, -INT16_MAX - 1)):
                if bad > INT16_MAX:
                    continue  # A itself does not fit an int16 at the limit
                actions = {"I": [0, 1, 1, 0], "J": [1, 0, 0, 1]}
                actions[column][step] = bad
                path = chunk(tmp_path / "c.parquet", **actions)
                message = rf"c\.parquet: column {column} has actions outside \[0, {A}\)"
                with pytest.raises(storage.StorageError, match=message):
                    storage.read_runs(path, horizon=4, actions=A)
                if bad == A:  # the same file is a valid chunk of A + 1 actions: A is then the last valid action
                    storage.read_runs(path, horizon=4, actions=A + 1)


def test_a_single_bad_action_in_the_last_run_is_found(tmp_path):
    path = chunk(tmp_path / "c.parquet", I=[0, 1, 2], J=[2, 1, 0], runs=5)
    table = storage.read_table(path)
    I = table.column("I").to_numpy().copy()
    I[-1] = 3
    storage.write_table(table.set_column(2, "I", pa.array(I, pa.int16())), path)
    with pytest.raises(storage.StorageError, match="column I has actions outside"):
        storage.read_runs(path, horizon=3, actions=3)
    storage.read_runs(path, horizon=3, actions=4)


def test_the_horizon_must_be_the_rows_per_run_exactly(tmp_path):
    for T in (1, 2, 7):
        path = chunk(tmp_path / "c.parquet", I=np.zeros(T), J=np.ones(T), runs=3)
        runs, _ = storage.read_runs(path, horizon=T, actions=2)
        assert len(runs) == 3 * T
        for wrong in {T - 1, T + 1} - {0}:
            with pytest.raises(storage.StorageError, match=rf"c\.parquet: {3 * T} rows for 3 runs of horizon {wrong}"):
                storage.read_runs(path, horizon=wrong, actions=2)


def test_steps_must_be_one_to_T_in_order(tmp_path):
    for steps in ([0, 1, 2, 3], [1, 2, 3, 5], [1, 3, 2, 4], [2, 3, 4, 5], [1, 1, 2, 3]):
        path = chunk(tmp_path / "c.parquet", I=[0, 0, 0, 0], J=[1, 1, 1, 1], t=steps)
        with pytest.raises(storage.StorageError, match=r"steps are not 1\.\.4 in order for every run"):
            storage.read_runs(path, horizon=4, actions=2)


def test_every_run_column_is_required_and_the_missing_ones_are_all_named(tmp_path):
    path = chunk(tmp_path / "c.parquet", I=[0, 1], J=[1, 0])
    table = storage.read_table(path)
    for missing in (["run"], ["t"], ["outcome"], ["I", "J"]):
        storage.write_table(table.drop_columns(missing), path)
        with pytest.raises(storage.StorageError, match=rf"c\.parquet: has no column\(s\) {', '.join(missing)}: "):
            storage.read_runs(path, horizon=2, actions=2)


def test_complete_strategy_columns_are_returned_at_their_recorded_steps(tmp_path):
    for A, players in ((2, ("p",)), (13, ("p", "q"))):
        columns = {f"{p}_{a}": 1.0 / A for p in players for a in range(A)}
        path = chunk(tmp_path / "c.parquet", I=[0, A - 1, 1], J=[A - 1, 0, 1], strategies=columns)
        _, strategies = storage.read_runs(path, horizon=3, actions=A)
        assert set(strategies.columns) == {"run", "t", *columns}
        assert len(strategies) == 2 * 3
        assert np.allclose(strategies[list(columns)].to_numpy(), 1.0 / A)


def test_strategy_columns_must_be_p_0_to_p_A_minus_1_per_player(tmp_path):
    for columns, A in [
        (["p_0", "p_1"], 3),  # p_2 missing
        (["p_0", "p_1", "q_0", "q_1"], 4),  # two players of A = 2 read at A = 4: p_2, p_3, q_2, q_3 missing
        (["p_0", "p_1", "p_2", "p_3"], 2),  # one player of A = 4 read at A = 2: p_2, p_3 are not actions
    ]:
        path = chunk(tmp_path / "c.parquet", I=[0, 1], J=[1, 0], strategies={name: 0.5 for name in columns})
        with pytest.raises(storage.StorageError, match="strategy columns are incomplete"):
            storage.read_runs(path, horizon=2, actions=A)
    columns = {name: 0.25 for name in ("p_0", "p_1", "p_3", "p_4")}  # p_2 missing, p_4 not an action of A = 4
    path = chunk(tmp_path / "c.parquet", I=[0, 1], J=[1, 0], strategies=columns)
    message = r"c\.parquet: strategy columns are incomplete: p_0, p_1, p_3, p_4 are not p_0\.\.p_3 per player$"
    with pytest.raises(storage.StorageError, match=message):
        storage.read_runs(path, horizon=2, actions=4)


def test_the_runs_frame_holds_the_run_columns_only_when_strategies_are_recorded(tmp_path):
    path = chunk(tmp_path / "c.parquet", I=[0, 1], J=[1, 0], strategies={"p_0": 0.5, "p_1": 0.5})
    runs, strategies = storage.read_runs(path, horizon=2, actions=2)
    assert list(runs.columns) == ["run", "t", "I", "J", "outcome"]
    assert list(strategies.columns) == ["run", "t", "p_0", "p_1"]


def test_a_null_at_a_recorded_step_is_refused_in_any_strategy_column_after_the_first(tmp_path):
    """A step is recorded when its first strategy column (``p_0``) holds a value; a null in any other
    column there is an incomplete strategy."""
    path = chunk(tmp_path / "c.parquet", I=[0, 1], J=[1, 0], strategies={f"p_{a}": 1 / 3 for a in range(3)})
    table = storage.read_table(path)
    for column, step in ((1, 0), (2, 1)):
        values = table.column(f"p_{column}").to_numpy().copy()
        values[step] = np.nan
        index = table.column_names.index(f"p_{column}")
        storage.write_table(table.set_column(index, f"p_{column}", pa.array(values, from_pandas=True)), path)
        with pytest.raises(storage.StorageError, match=r"c\.parquet: strategy columns are incomplete$"):
            storage.read_runs(path, horizon=2, actions=3)


def test_a_chunk_without_rows_is_refused_naming_the_file(tmp_path):
    """A chunk of no run (0 rows, in no row group or in one empty one) is a StorageError, not a crash."""
    from duelbandits.schemas import RUN_COLUMNS

    path = tmp_path / "c.parquet"
    schema = pa.schema([*RUN_COLUMNS.items(), ("p_0", pa.float64()), ("p_1", pa.float64())])
    for row_groups in (0, 1):
        with pq.ParquetWriter(path, schema) as out:
            if row_groups:
                out.write_table(schema.empty_table())
        assert pq.ParquetFile(path).num_row_groups == row_groups
        with pytest.raises(storage.StorageError, match=r"c\.parquet: 0 rows for 0 runs of horizon 3$"):
            storage.read_runs(path, horizon=3, actions=2)


def test_a_chunk_whose_schema_reads_but_whose_strategies_do_not_is_named(tmp_path):
    """The recorded strategy rows are read one row group at a time: a damaged data page there is a
    StorageError naming the file, like any other unreadable Parquet file."""
    path = chunk(tmp_path / "c.parquet", I=[0, 1] * 50, J=[1, 0] * 50, strategies={"p_0": 0.5, "p_1": 0.5})
    data = bytearray(path.read_bytes())
    footer = int.from_bytes(data[-8:-4], "little")
    data[4 : len(data) - 8 - footer] = b"\xa5" * (len(data) - 12 - footer)  # every data page; the footer kept
    path.write_bytes(bytes(data))
    with pytest.raises(storage.DamagedFile, match=r"c\.parquet: not a readable Parquet file \(") as err:
        storage.read_runs(path, horizon=100, actions=2)
    assert err.value.path == str(path)
