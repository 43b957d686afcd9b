"""storage.read_runs at its boundaries: the actions ``0..A-1`` (A itself and -1 refused, in either
column, at A below, at and above 10 and at the int16 limit), the horizon (T - 1 and T + 1 rows per
run refused), the steps 1..T in order, and the strategy columns ``p_0..p_{A-1}`` (and ``q_*``)."""

import numpy as np
import pyarrow as pa
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


ACTION_COUNTS = [2, 3, 5, 10, 13, 100, INT16_MAX]


@pytest.mark.parametrize("A", ACTION_COUNTS)
def test_actions_zero_to_A_minus_1_are_accepted_in_both_columns(tmp_path, A):
    path = chunk(tmp_path / "c.parquet", I=[0, A - 1, A - 1, 0], J=[A - 1, 0, A - 1, 0])
    runs, strategies = storage.read_runs(path, horizon=4, actions=A)
    assert runs["I"].tolist() == [0, A - 1, A - 1, 0] * 2
    assert runs["J"].tolist() == [A - 1, 0, A - 1, 0] * 2
    assert runs["run"].tolist() == [0] * 4 + [1] * 4
    assert strategies is None


@pytest.mark.parametrize("A", ACTION_COUNTS[:-1])  # A itself does not fit an int16 at the limit
@pytest.mark.parametrize("column", ["I", "J"])
@pytest.mark.parametrize("step", [0, 3])
def test_an_action_equal_to_A_is_refused_in_either_column_at_any_step(tmp_path, A, column, step):
    actions = {"I": [0, 1, 1, 0], "J": [1, 0, 0, 1]}
    actions[column][step] = A
    path = chunk(tmp_path / "c.parquet", **actions)
    with pytest.raises(storage.StorageError, match=rf"c\.parquet: column {column} has actions outside \[0, {A}\)"):
        storage.read_runs(path, horizon=4, actions=A)
    # the same file is a valid chunk of A + 1 actions: A is then the last valid action
    storage.read_runs(path, horizon=4, actions=A + 1)


@pytest.mark.parametrize("A", [2, 10, 13, INT16_MAX])
@pytest.mark.parametrize("column", ["I", "J"])
@pytest.mark.parametrize("negative", [-1, -INT16_MAX - 1])
def test_a_negative_action_is_refused_in_either_column(tmp_path, A, column, negative):
    actions = {"I": [0, 1, 1, 0], "J": [1, 0, 0, 1]}
    actions[column][2] = negative
    path = chunk(tmp_path / "c.parquet", **actions)
    with pytest.raises(storage.StorageError, match=rf"column {column} has actions outside \[0, {A}\)"):
        storage.read_runs(path, horizon=4, actions=A)


def test_a_single_bad_action_in_the_last_run_is_found(tmp_path):
    path = chunk(tmp_path / "c.parquet", I=[0, 1, 2], J=[2, 1, 0], runs=5)
    table = storage.read_table(path)
    I = table.column("I").to_numpy().copy()
    I[-1] = 3
    storage.write_table(table.set_column(2, "I", pa.array(I, pa.int16())), path)
    with pytest.raises(storage.StorageError, match="column I has actions outside"):
        storage.read_runs(path, horizon=3, actions=3)
    storage.read_runs(path, horizon=3, actions=4)


@pytest.mark.parametrize("T", [1, 2, 7])
def test_the_horizon_must_be_the_rows_per_run_exactly(tmp_path, T):
    path = chunk(tmp_path / "c.parquet", I=np.zeros(T), J=np.ones(T), runs=3)
    runs, _ = storage.read_runs(path, horizon=T, actions=2)
    assert len(runs) == 3 * T
    for wrong in (T - 1, T + 1):
        if wrong < 1:
            continue
        with pytest.raises(storage.StorageError, match=rf"c\.parquet: {3 * T} rows for 3 runs of horizon {wrong}"):
            storage.read_runs(path, horizon=wrong, actions=2)


@pytest.mark.parametrize("steps", [[0, 1, 2, 3], [1, 2, 3, 5], [1, 3, 2, 4], [2, 3, 4, 5], [1, 1, 2, 3]])
def test_steps_must_be_one_to_T_in_order(tmp_path, steps):
    path = chunk(tmp_path / "c.parquet", I=[0, 0, 0, 0], J=[1, 1, 1, 1], t=steps)
    with pytest.raises(storage.StorageError, match=r"steps are not 1\.\.4 in order for every run"):
        storage.read_runs(path, horizon=4, actions=2)


@pytest.mark.parametrize("missing", ["run", "t", "I", "J", "outcome"])
def test_every_run_column_is_required(tmp_path, missing):
    path = chunk(tmp_path / "c.parquet", I=[0, 1], J=[1, 0])
    table = storage.read_table(path)
    storage.write_table(table.drop_columns([missing]), path)
    with pytest.raises(storage.StorageError, match=f"missing column.*{missing}"):
        storage.read_runs(path, horizon=2, actions=2)


@pytest.mark.parametrize("A", [2, 3, 13])
@pytest.mark.parametrize("players", [("p",), ("p", "q")])
def test_complete_strategy_columns_are_returned_at_their_recorded_steps(tmp_path, A, players):
    columns = {f"{p}_{a}": 1.0 / A for p in players for a in range(A)}
    path = chunk(tmp_path / "c.parquet", I=[0, A - 1, 1], J=[A - 1, 0, 1], strategies=columns)
    _, strategies = storage.read_runs(path, horizon=3, actions=A)
    assert set(strategies.columns) == {"run", "t", *columns}
    assert len(strategies) == 2 * 3
    assert np.allclose(strategies[list(columns)].to_numpy(), 1.0 / A)


@pytest.mark.parametrize("A", [3, 10])
def test_a_missing_strategy_column_or_a_null_at_a_recorded_step_is_refused(tmp_path, A):
    columns = {f"p_{a}": 1.0 / A for a in range(A - 1)}  # p_{A-1} missing
    path = chunk(tmp_path / "c.parquet", I=[0, 1], J=[1, 0], strategies=columns)
    with pytest.raises(storage.StorageError, match="strategy columns are incomplete"):
        storage.read_runs(path, horizon=2, actions=A)
    full = chunk(tmp_path / "d.parquet", I=[0, 1], J=[1, 0], strategies={f"p_{a}": 1.0 / A for a in range(A)})
    table = storage.read_table(full)
    last = table.column(f"p_{A - 1}").to_numpy().copy()
    last[1] = np.nan  # recorded step (p_0 is set), p_{A-1} null
    column = table.column_names.index(f"p_{A - 1}")
    storage.write_table(table.set_column(column, f"p_{A - 1}", pa.array(last, from_pandas=True)), full)
    with pytest.raises(storage.StorageError, match="strategy columns are incomplete"):
        storage.read_runs(full, horizon=2, actions=A)


@pytest.mark.parametrize(
    "columns, A",
    [
        (["p_0", "p_1", "q_0", "q_1"], 4),  # two players of A = 2 read at A = 4: p_2, p_3, q_2, q_3 missing
        (["p_0", "p_1", "p_2", "p_3"], 2),  # one player of A = 4 read at A = 2: p_2, p_3 are not actions
        (["p_0", "p_1", "p_3", "p_4"], 4),  # p_2 missing, p_4 is not an action
    ],
    ids=["two-players-of-A2-at-A4", "one-player-of-A4-at-A2", "a-gap-and-an-extra"],
)
def test_strategy_columns_must_be_p_0_to_p_A_minus_1_per_player(tmp_path, columns, A):
    path = chunk(tmp_path / "c.parquet", I=[0, 1], J=[1, 0], strategies={name: 0.5 for name in columns})
    with pytest.raises(storage.StorageError, match="strategy columns"):
        storage.read_runs(path, horizon=2, actions=A)
