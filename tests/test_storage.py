import json
import re
from types import SimpleNamespace

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from duelbandits import provenance, storage


def test_write_table_delta_encodes_counters_and_round_trips(tmp_path):
    t = np.tile(np.arange(1, 1001, dtype=np.int32), 5)
    table = pa.table({"run": np.repeat(np.arange(5, dtype=np.int32), 1000), "t": t, "I": np.zeros(5000, np.int16)})
    storage.write_table(table, tmp_path / "x.parquet")
    back = storage.read_table(tmp_path / "x.parquet")
    assert back.equals(table)
    # sequential counters cost almost nothing: 5,000 int32 steps in well under 1 kB
    assert (tmp_path / "x.parquet").stat().st_size < 2_000


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


# Row groups of 1,000 rows here (2^20 in a run): three runs of 401 steps are 1,203 rows, two row groups
# with the boundary inside the third run, as three runs of 400,001 steps are at 2^20; one run of 7 steps
# is one short row group.
@pytest.mark.parametrize(
    "runs, horizon, actions, players, stride",
    [(3, 401, 3, ("p", "q"), 4), (3, 401, 2, ("p",), 7), (2, 401, 5, (), 40), (1, 7, 10, ("p",), 3)],
    ids=["two-players-A3", "one-player-A2", "no-strategies-A5", "one-short-run-A10"],
)
def test_write_runs_writes_the_bytes_of_the_whole_table_row_group_by_row_group(
    tmp_path, monkeypatch, runs, horizon, actions, players, stride
):
    monkeypatch.setattr(storage, "ROW_GROUP_ROWS", 1000)
    rng = np.random.default_rng(7)
    results = [(run, _result(rng, horizon, actions, players, stride)) for run in range(5, 5 + runs)]
    if players:  # a NaN in a recorded strategy is a null, in its column only
        results[-1][1].strategies[players[0]][1, actions - 1] = np.nan
    provenance = {"kind": "runs", "test": True}
    storage.write_runs(results, actions, tmp_path / "rows.parquet", provenance)
    whole = _whole_table(results, actions)
    storage.write_table(whole, tmp_path / "whole.parquet", provenance, row_group_size=storage.ROW_GROUP_ROWS)
    assert (tmp_path / "rows.parquet").read_bytes() == (tmp_path / "whole.parquet").read_bytes()
    assert pq.ParquetFile(tmp_path / "rows.parquet").num_row_groups == -(-runs * horizon // 1000)
    if players:
        table = storage.read_table(tmp_path / "rows.parquet")
        assert (
            table.column(f"{players[0]}_{actions - 1}").null_count
            == runs * horizon - runs * len(results[0][1].strategy_steps) + 1
        )


def test_check_output_refuses_a_folder_or_a_path_under_a_file_naming_it(tmp_path):
    storage.check_output(tmp_path / "new" / "deeper" / "x.parquet")  # folders that can be made
    (tmp_path / "f").write_text("")
    for path, problem in [
        (tmp_path, "is a directory, not a file to write"),
        (tmp_path / "f" / "x.parquet", f"cannot write there, {tmp_path / 'f'} is not a directory"),
    ]:
        with pytest.raises(storage.StorageError, match=f"^{re.escape(f'{path}: {problem}')}$"):
            storage.check_output(path)


def _bare_table(path, metadata=None):
    """A small Parquet file written by pyarrow itself, with ``metadata`` as its schema's key-value metadata."""
    table = pa.table({"a": np.array([1, 2, 3], np.int64), "b": ["x", "y", "z"]})
    pq.write_table(table.replace_schema_metadata(metadata), path)
    return path


@pytest.mark.parametrize(
    "value, fields, problem",
    [
        (None, None, r"carries no duelbandits provenance \(not written by the pipeline\)"),
        (b"{not json", None, r"its provenance is not JSON \(.+\)"),
        (b"\xff\xfe", None, r"its provenance is not JSON \(.+\)"),
        (b"[1]", None, r"its provenance is not a JSON object but list \[1\]"),
        (b'{"horizon": 5}', {"seed": int}, "its provenance has no 'seed'"),
        (b'{"horizon": true}', {"horizon": int}, "its provenance's 'horizon' is True, not a int"),
        (b'{"horizon": "5"}', {"horizon": int}, "its provenance's 'horizon' is '5', not a int"),
    ],
)
def test_a_file_without_provenance_or_with_one_of_another_shape_is_refused_naming_it(tmp_path, value, fields, problem):
    path = _bare_table(tmp_path / "odd.parquet", None if value is None else {b"duelbandits": value})
    with pytest.raises(storage.StorageError, match=rf"^{re.escape(str(path))}: {problem}$"):
        storage.read_provenance(path, fields)


def test_a_typed_read_reads_the_rows_asked_for_and_refuses_another_schema_or_a_null_naming_the_file(tmp_path):
    from duelbandits import schemas

    path = tmp_path / "b.parquet"
    rows = {"algorithm": ["x", "y"], "theorem": ["1", "2"], "regret": ["r", "r"], "horizon": [9, 9]}
    rows |= {"holds": [True, False], "t": [1, 2], "bound": [0.5, 1.5]}
    storage.write_table(pa.table(rows, schema=schemas.BOUND_SCHEMA), path)
    frame = storage.read_frame(path, "bounds", columns=["t"], filters=[("algorithm", "=", "y")])
    assert frame.to_dict("list") == {"t": [2]}
    with pytest.raises(storage.StorageError, match=f"^{re.escape(str(path))}: has no column.s. scenario, "):
        storage.read_frame(path, "summary")
    storage.write_table(pa.table(rows), path)  # the integers as int64
    with pytest.raises(storage.StorageError, match=f"^{re.escape(str(path))}: column horizon is int64, not int32: "):
        storage.read_frame(path, "bounds")
    rows["t"] = [1, None]
    storage.write_table(pa.table(rows, schema=schemas.BOUND_SCHEMA), path)
    with pytest.raises(storage.StorageError, match=f"^{re.escape(str(path))}: column t holds 1 null value"):
        storage.read_frame(path, "bounds")


def test_arrow_arrays_take_the_arrow_type_whatever_the_numpy_dtype():
    """``_arrow`` converts the values to the type's width before taking the buffer (int64 in, int16 out)."""
    values = np.array([1, -2, 300], dtype=np.int64)
    assert storage._arrow(values, pa.int16()).to_pylist() == [1, -2, 300]
    masked = storage._arrow(values, pa.int16(), valid=np.array([True, False, True]))
    assert masked.type == pa.int16() and masked.to_pylist() == [1, None, 300] and masked.null_count == 1


def _hand_scenario():
    """A = 3 by hand: 0 beats 1 and 2 (a Condorcet winner), but 1 has the largest row sum (Borda winner):
    rows off the diagonal sum to 1.10, 1.44 and 0.46; Copeland wins 2, 1, 0; row minima 0.55, 0.45, 0.01."""
    X = np.array([[0.5, 0.55, 0.55], [0.45, 0.5, 0.99], [0.45, 0.01, 0.5]])
    return SimpleNamespace(name="hand", matrix=X, utilities=np.array([3.0, 2.0, 1.0]), params={"k": 1})


def test_a_scenario_file_holds_the_documented_record_with_one_space_indents(tmp_path):
    sc = _hand_scenario()
    expected = {
        "name": "hand",
        "seed": 7,
        "matrix_sha256": provenance.matrix_sha256(sc.matrix),  # provenance's digest, tested in its own tests
        "utilities": [3.0, 2.0, 1.0],
        "matrix": [[0.5, 0.55, 0.55], [0.45, 0.5, 0.99], [0.45, 0.01, 0.5]],
        "winners": {"condorcet": 0, "copeland": [0], "maximin": [0], "borda": [1]},
        "params": {"k": 1},
    }
    assert storage.scenario_record(sc, 7) == expected
    path = tmp_path / "hand.json"
    storage.write_scenario(path, sc, 7)
    text = path.read_text()
    assert text.startswith('{\n "name": "hand",\n "seed": 7,\n') and text.endswith("\n}\n")
    assert json.loads(text) == expected
    assert storage.read_scenario(path) == expected


GOOD = (
    '{"name": "s", "matrix_sha256": "d", "matrix": [[0.5, 0.7], [0.3, 0.5]], "utilities": [1, 0], '
    '"winners": {"condorcet": 0, "copeland": [0], "maximin": [0], "borda": [0]}}'
)  # a two-action scenario file's fields (the winners by hand: action 0 beats action 1)


@pytest.mark.parametrize(
    "content, problem",
    [
        (None, "file not found"),
        ("{not json", r"not a scenario file \(Expecting property name"),
        ("[1]", r"not a scenario file \(no 'name' of JSON type str\)"),
        ('{"name": "s", "matrix_sha256": "d", "matrix": [], "utilities": 0}', r"not a .+ \(no 'utilities' "),
        (GOOD.replace("[[0.5, 0.7], [0.3, 0.5]]", '[[0.5, "a"], [0.3, 0.5]]'), r"not a .+ \(its matrix: preference"),
        (GOOD.replace('"borda": [0]', '"other": [0]'), r"not a scenario file \(no borda winners\)"),
    ],
)
def test_read_scenario_refuses_what_is_not_a_scenario_file_naming_it(tmp_path, content, problem):
    path = tmp_path / "s.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(storage.StorageError, match=rf"^{re.escape(str(path))}: {problem}"):
        storage.read_scenario(path)


def test_every_column_chunk_carries_min_max_statistics(tmp_path):
    """Statistics let a filtered read (``read_frame(filters=...)``) skip row groups: the writer keeps them."""
    table = pa.table(
        {"t": np.array([3, 1, 2], np.int32), "cumulative_regret": [0.5, -1.0, 2.0], "name": ["b", "a", "c"]}
    )
    storage.write_table(table, tmp_path / "s.parquet")
    group = pq.ParquetFile(tmp_path / "s.parquet").metadata.row_group(0)
    stats = {group.column(i).path_in_schema: group.column(i).statistics for i in range(group.num_columns)}
    assert {name: (s.min, s.max) for name, s in stats.items()} == {
        "t": (1, 3),
        "cumulative_regret": (-1.0, 2.0),
        "name": ("a", "c"),
    }


def _garbled(path):
    """``path``, a Parquet file, with every byte between its magic number and its footer overwritten:
    its schema reads, its data does not."""
    data = bytearray(path.read_bytes())
    footer = int.from_bytes(data[-8:-4], "little")
    data[4 : len(data) - 8 - footer] = b"\xa5" * (len(data) - 12 - footer)
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize("reader", [storage.read_table, storage.read_schema])  # read_provenance: read_schema
@pytest.mark.parametrize("content", [None, b"PAR1 not really"], ids=["missing", "not-parquet"])
def test_a_missing_file_or_one_that_is_not_parquet_is_named_by_every_reader(tmp_path, reader, content):
    path = tmp_path / "x.parquet"
    if content is not None:
        path.write_bytes(content)
    problem = "file not found" if content is None else r"not a readable Parquet file \("
    with pytest.raises(storage.StorageError, match=rf"^{re.escape(str(path))}: {problem}"):
        reader(path)


def test_a_file_whose_schema_reads_but_not_its_data_is_named(tmp_path):
    path = tmp_path / "x.parquet"
    storage.write_table(pa.table({"x": np.arange(100.0)}), path)
    _garbled(path)
    assert storage.read_schema(path).names == ["x"]
    with pytest.raises(storage.StorageError, match=rf"^{re.escape(str(path))}: not a readable Parquet file \("):
        storage.read_table(path)
