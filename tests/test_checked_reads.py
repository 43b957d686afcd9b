"""Checked reads: a table the pipeline did not write as it is (a column missing or of another type, a null
where none belongs, a repeated row, a value out of its range) is refused in one line, exit 2, by every
command that reads it, before it is used, and nothing is written. Each damage below once gave a traceback
or a wrong table, figure or caption (found by rewriting the files of a paper run one change at a time).

The files: tests/paper_files.py (borda, A = 5, T = 200, two runs of two algorithms)."""

import json
import math
import re

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest
from paper_files import paper_files
from summaries import summary_rows

from duelbandits import cli, integrity, storage
from duelbandits.files import DamagedFile, StorageError

ALGORITHMS = ["partial-monitoring", "dts"]
A, T = 5, 200


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    return paper_files(tmp_path_factory.mktemp("reads"), ALGORITHMS)


def rewrite(source, target, change):
    """``source`` with ``change`` applied to its table (its provenance kept), written to ``target``."""
    table = pq.read_table(source)
    pq.write_table(change(table).replace_schema_metadata(table.schema.metadata), target)
    return target


def column(table, name, values):
    """``table`` with column ``name`` replaced by ``values`` (an Arrow array of any type)."""
    return table.set_column(table.column_names.index(name), name, values)


def at(table, name, row, value, type_=None):
    """``table`` with ``name``'s value at ``row`` replaced (None: a null)."""
    values = table[name].to_pylist()
    values[row] = value
    return column(table, name, pa.array(values, type_ or table.schema.field(name).type))


def refused(capsys, argv, message):
    """``argv`` exits 2 with one line on stderr that holds ``message`` (the callers check what was written)."""
    assert cli.main([str(a) for a in argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err, err


def last_row_again(t):
    return pa.concat_tables([t, t.slice(t.num_rows - 1, 1)])


def ending_later(t):
    """One curve's last row again at t = 10^7."""
    return pa.concat_tables([t, at(t.slice(t.num_rows - 1, 1), "t", 0, 10**7)])


def second_paper_regret(t):
    """A regret of dts that its figure does not show, marked paper too."""
    df = t.to_pandas()
    other = df.index[(df["algorithm"] == "dts") & ~df["paper"]]
    df.loc[(df["algorithm"] == "dts") & (df["regret"] == df.loc[other[0], "regret"]), "paper"] = True
    return pa.Table.from_pandas(df, schema=t.schema, preserve_index=False)


SUMMARY_DAMAGES = {  # change, the refusal's words
    "a repeated row": (last_row_again, "holds 1 repeated row(s) of one scenario, algorithm, regret and step"),
    "no row": (lambda t: t.slice(0, 0), "holds no rows"),
    "a missing mean": (lambda t: at(t, "mean", 3, float("nan")), "column mean holds a missing or infinite value"),
    "no run": (lambda t: at(t, "runs", 0, 0), "column runs holds run counts below 1"),
    "a null run count": (lambda t: at(t, "runs", 0, None), "column runs holds 1 null value(s)"),
    "a step 0": (lambda t: at(t, "t", 0, 0), "column t holds steps below 1"),
    "a curve ending later": (ending_later, f"its curves end at different steps ({T}, 10000000)"),
    "two regrets marked paper": (second_paper_regret, "dts on borda has 2 regrets marked paper, not one"),
    "paper as text": (
        lambda t: column(t, "paper", pc.cast(t["paper"], pa.string())),
        "column paper is string, not bool",
    ),
    "no bound column": (lambda t: t.drop_columns(["bound"]), "has no column(s) bound"),
}


def summary_commands(data, summary, out):
    scenario = ["--scenario-file", data / "borda.json", "--summary", summary, "--c-alpha", 1.0]
    return {
        "table": ["table", "--summary", summary, "--markdown", out / "t.md"],
        "figure main": ["figure", "main", *scenario, "--out", out / "m.png"],
        "latex figures": ["latex", "figures", *scenario, "--out", out / "f.tex"],
        "claims": ["claims", "--summary", summary, "--level", 0.95, "--table", out / "c.parquet",
                   "--markdown", out / "c.md"],
    }  # fmt: skip


def test_every_reader_of_the_summary_reads_the_pipelines_summary(data, tmp_path):
    for name, argv in summary_commands(data, data / "summary.parquet", tmp_path).items():
        assert cli.main([str(a) for a in argv]) == 0, name


@pytest.mark.parametrize("damage", SUMMARY_DAMAGES)
def test_every_reader_of_the_summary_refuses_a_damaged_one_naming_the_damage(data, tmp_path, capsys, damage):
    change, message = SUMMARY_DAMAGES[damage]
    summary = rewrite(data / "summary.parquet", tmp_path / "summary.parquet", change)
    out = tmp_path / "out"
    out.mkdir()
    for name, argv in summary_commands(data, summary, out).items():
        refused(capsys, argv, f"{summary}: {message}")
        assert not list(out.iterdir()), name


def test_the_summary_checks_at_the_boundaries_of_each_range():
    """runs and t: 1 passes, 0 not; std: 0 passes, a hair below not; a NaN std (one run) passes."""
    base = summary_rows()
    assert integrity.summary_problem(base) is None
    for name, good, bad, words in [
        ("runs", 1, 0, "run counts below 1"),
        ("t", 1, 0, "steps below 1"),
        ("std", 0.0, -1e-300, "a negative value"),
        ("std", math.nan, -math.inf, "a negative value"),
    ]:
        frame = base.copy()
        frame.loc[0, name] = good
        assert integrity.summary_problem(frame) is None, (name, good)
        frame.loc[0, name] = bad
        assert words in integrity.summary_problem(frame), (name, bad)


def test_the_summary_command_refuses_bounds_with_a_repeated_row(data, tmp_path, capsys):
    bounds = rewrite(data / "bounds.parquet", tmp_path / "bounds.parquet", last_row_again)
    argv = ["summary", data / "summary-borda.parquet", "--bounds", bounds, "--out", tmp_path / "s.parquet"]
    refused(capsys, argv, f"{bounds}: holds 1 repeated row(s) of one algorithm, regret and step")
    assert not (tmp_path / "s.parquet").exists()


# --- Run chunks ---------------------------------------------------------------------------------


def chunk_row(data, algorithm, recorded):
    """The row index of run 0's second step, or of its second recorded strategy (``recorded``)."""
    table = pq.read_table(data / f"{algorithm}.parquet", columns=["p_0"] if recorded else ["t"])
    return int(np.flatnonzero(table["p_0"].is_valid())[1]) if recorded else 1


OUTSIDE_01 = "strategy columns hold probabilities outside [0, 1]"


def nothing_recorded(table):
    """Every strategy column null at every row."""
    for name in [n for n in table.column_names if n.startswith("p_")]:
        table = column(table, name, pa.nulls(table.num_rows, pa.float64()))
    return table


CHUNK_DAMAGES = {  # algorithm, change at row r, the refusal's words
    "actions as text": (
        "dts",
        lambda t, r: column(t, "I", pc.cast(t["I"], pa.string())),
        "column I is string, not int16",
    ),
    "a null action": ("dts", lambda t, r: at(t, "J", r, None), "column J holds 1 null value(s)"),
    "an outcome 2": ("dts", lambda t, r: at(t, "outcome", r, 2), "column outcome holds values other than 0 and 1"),
    "an outcome -1": ("dts", lambda t, r: at(t, "outcome", r, -1), "column outcome holds values other than 0 and 1"),
    "a probability above 1": ("partial-monitoring", lambda t, r: at(t, "p_2", r, 1.0000001), OUTSIDE_01),
    "a probability below 0": ("partial-monitoring", lambda t, r: at(t, "p_2", r, -1e-300), OUTSIDE_01),
    "a recorded p_0 lost": (
        "partial-monitoring",
        lambda t, r: at(t, "p_0", r, None),
        "strategy columns are incomplete",
    ),
    "every p_0 lost": (
        "partial-monitoring",
        lambda t, r: column(t, "p_0", pa.nulls(t.num_rows, pa.float64())),
        "strategy columns are incomplete",
    ),
    "no recorded step": ("partial-monitoring", lambda t, r: nothing_recorded(t), "its strategy columns record no step"),
    "a strategy as float32": (
        "partial-monitoring",
        lambda t, r: column(t, "p_4", pc.cast(t["p_4"], pa.float32())),
        "column p_4 is float, not double",
    ),
}


@pytest.mark.parametrize("damage", CHUNK_DAMAGES)
def test_a_damaged_run_chunk_is_refused_naming_the_damage(data, tmp_path, damage):
    algorithm, change, message = CHUNK_DAMAGES[damage]
    row = chunk_row(data, algorithm, recorded=algorithm == "partial-monitoring")
    chunk = rewrite(data / f"{algorithm}.parquet", tmp_path / "chunk.parquet", lambda t: change(t, row))
    with pytest.raises(StorageError, match="^" + re.escape(f"{chunk}: {message}")):
        storage.read_runs(chunk, T, A)


def test_a_run_chunk_at_the_edges_of_its_ranges_is_read(data, tmp_path):
    """Outcomes 0 and 1, a probability of exactly 0 and of exactly 1: all a kernel can write."""
    row = chunk_row(data, "partial-monitoring", recorded=True)

    def change(t):
        return at(at(t, "p_2", row, 1.0), "p_3", row, 0.0)

    chunk = rewrite(data / "partial-monitoring.parquet", tmp_path / "chunk.parquet", change)
    runs, strategies = storage.read_runs(chunk, T, A)
    recorded = strategies.set_index(["run", "t"]).loc[(0, 1 + 10)]  # run 0's second recorded step (stride 10)
    assert set(runs["outcome"]) == {0, 1} and (recorded["p_2"], recorded["p_3"]) == (1.0, 0.0)


# --- The appendix figure's traces and strategies ----------------------------------------------------


def appendix_call(data, traces, strategies, out):
    return [
        "figure", "appendix", "--scenario", "borda", "--algorithm", "partial-monitoring",
        "--scenario-file", data / "borda.json", "--traces", traces, "--strategies", strategies, "--out", out,
    ]  # fmt: skip


def first_row(table, algorithm="partial-monitoring"):
    return int(np.flatnonzero(pc.equal(table["algorithm"], algorithm).to_numpy(zero_copy_only=False))[0])


TRACE_DAMAGES = {
    "an action A": (lambda t: at(t, "I", first_row(t), A), f"partial-monitoring has actions I outside [0, {A})"),
    "an action -1": (lambda t: at(t, "J", first_row(t), -1), f"partial-monitoring has actions J outside [0, {A})"),
    "a missing regret": (
        lambda t: at(t, "cumulative_regret", first_row(t), float("nan")),
        "partial-monitoring has a missing or infinite cumulative regret",
    ),
    "a null action": (lambda t: at(t, "I", first_row(t), None), "column I holds 1 null value(s)"),
}


@pytest.mark.parametrize("damage", TRACE_DAMAGES)
def test_the_appendix_figure_refuses_damaged_traces_naming_the_damage(data, tmp_path, capsys, damage):
    change, message = TRACE_DAMAGES[damage]
    traces = rewrite(data / "traces-borda.parquet", tmp_path / "traces.parquet", change)
    refused(
        capsys,
        appendix_call(data, traces, data / "strategies-borda.parquet", tmp_path / "a.png"),
        f"{traces}: {message}",
    )
    assert not (tmp_path / "a.png").exists()


def test_the_appendix_figure_draws_traces_at_the_edges_of_the_action_range(data, tmp_path):
    traces = rewrite(
        data / "traces-borda.parquet", tmp_path / "traces.parquet", lambda t: at(t, "I", first_row(t), A - 1)
    )
    argv = appendix_call(data, traces, data / "strategies-borda.parquet", tmp_path / "a.png")
    assert cli.main([str(a) for a in argv]) == 0 and (tmp_path / "a.png").stat().st_size > 0


def test_the_appendix_figure_refuses_strategies_with_a_repeated_row(data, tmp_path, capsys):
    def repeated(t):
        row = first_row(t)
        return pa.concat_tables([t, t.slice(row, 1)])

    strategies = rewrite(data / "strategies-borda.parquet", tmp_path / "strategies.parquet", repeated)
    argv = appendix_call(data, data / "traces-borda.parquet", strategies, tmp_path / "a.png")
    refused(capsys, argv, f"{strategies}: partial-monitoring holds 1 repeated row(s) of one player, step and action")
    assert not (tmp_path / "a.png").exists()


# --- Provenance and unreadable columns --------------------------------------------------------------


@pytest.mark.parametrize("record", [b"5", b"null", b'["summary"]', b'"summary"'])
def test_a_provenance_that_is_not_a_json_object_is_refused(data, tmp_path, record):
    table = pq.read_table(data / "summary.parquet")
    path = tmp_path / "s.parquet"
    pq.write_table(table.replace_schema_metadata({**table.schema.metadata, b"duelbandits": record}), path)
    with pytest.raises(DamagedFile, match=f"^{path}: its provenance is not a JSON object but "):
        storage.read_provenance(path, table="summary")


def test_a_column_read_that_the_file_lacks_is_named_in_one_line(data):
    with pytest.raises(DamagedFile) as caught:
        storage.read_table(data / "summary.parquet", columns=["nope"])
    assert "\n" not in str(caught.value) and "nope" in str(caught.value)


def test_a_null_is_refused_in_an_integer_column_but_where_the_table_allows_it(tmp_path):
    """A null in a float or string column is a NaN or no name; in an integer column, one only where the
    table declares it (schemas.MAY_BE_NULL)."""
    schema = pa.schema([("n", pa.int32()), ("x", pa.float64()), ("s", pa.string())])
    frame = pd.DataFrame({"n": pd.array([1, None], dtype="Int32"), "x": [1.0, None], "s": ["a", None]})
    path = tmp_path / "t.parquet"
    pq.write_table(pa.Table.from_pandas(frame, schema=schema, preserve_index=False), path)
    with pytest.raises(DamagedFile, match=f"^{path}: column n holds 1 null value"):
        storage.read_table(path, schema=schema)
    table = storage.read_table(path, schema=schema, nullable={"n"})
    assert [table[c].null_count for c in "nxs"] == [1, 1, 1]
    assert storage.read_table(path, columns=["x", "s"], schema=schema).num_rows == 2


def with_provenance(source, target, change):
    """``source`` with its provenance record changed by ``change`` (a dict -> dict function)."""
    table = pq.read_table(source)
    record = change(json.loads(table.schema.metadata[b"duelbandits"]))
    metadata = {**table.schema.metadata, b"duelbandits": json.dumps(record).encode()}
    pq.write_table(table.replace_schema_metadata(metadata), target)
    return target


def without(key):
    return lambda record: {k: v for k, v in record.items() if k != key}


def test_the_provenance_fields_a_command_uses_are_checked_before_it_uses_them(data, tmp_path, capsys):
    out = tmp_path / "out.parquet"
    bounds = with_provenance(data / "bounds.parquet", tmp_path / "bounds.parquet", without("actions"))
    refused(
        capsys,
        ["summary", data / "summary-borda.parquet", "--bounds", bounds, "--out", out],
        f"{bounds}: its provenance has no 'actions'",
    )
    part = with_provenance(data / "summary-borda.parquet", tmp_path / "part.parquet", lambda r: {**r, "algorithms": 5})
    message = f"{part}: its provenance's 'algorithms' is 5, not a list"
    refused(capsys, ["summary", part, "--bounds", data / "bounds.parquet", "--out", out], message)
    chunk = with_provenance(data / "dts.parquet", tmp_path / "dts.parquet", without("config_sha256"))
    names = [f"--{name}={tmp_path / name}.parquet" for name in ("traces", "strategies", "summary")]
    argv = ["aggregate", "--scenario-file", data / "borda.json", "--chunk", f"dts={chunk}", "--horizon", T]
    refused(capsys, [*argv, "--runs", 2, "--points", 20, *names], f"{chunk}: its provenance has no 'config_sha256'")
    summary = with_provenance(
        data / "summary.parquet", tmp_path / "summary.parquet", lambda r: {**r, "matrix_sha256": 5}
    )
    argv = ["figure", "main", "--scenario-file", data / "borda.json", "--summary", summary, "--c-alpha", 1.0]
    refused(
        capsys, [*argv, "--out", tmp_path / "m.png"], f"{summary}: its provenance has no matrix digest per scenario"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "bounds.parquet",
        "dts.parquet",
        "part.parquet",
        "summary.parquet",
    ]


def test_the_appendix_figure_refuses_traces_whose_provenance_lists_no_number_of_actions(data, tmp_path, capsys):
    traces = with_provenance(data / "traces-borda.parquet", tmp_path / "traces.parquet", without("actions"))
    argv = appendix_call(data, traces, data / "strategies-borda.parquet", tmp_path / "a.png")
    refused(capsys, argv, f"{traces}: its provenance lists no number of actions")
    assert not (tmp_path / "a.png").exists()


STRATEGY_DAMAGES = {
    "a player it lacks": ("player", "q", "partial-monitoring has strategies of player(s) q, not of its p"),
    "an action A": ("action", A, f"partial-monitoring has strategies of actions outside [0, {A})"),
    "a missing mean": (
        "mean",
        float("nan"),
        "partial-monitoring has a mean probability that is missing or outside [0, 1]",
    ),
    "a mean above 1": (
        "mean",
        1.0000001,
        "partial-monitoring has a mean probability that is missing or outside [0, 1]",
    ),
}


@pytest.mark.parametrize("damage", STRATEGY_DAMAGES)
def test_the_appendix_figure_refuses_damaged_strategies_naming_the_damage(data, tmp_path, capsys, damage):
    name, value, message = STRATEGY_DAMAGES[damage]
    strategies = rewrite(
        data / "strategies-borda.parquet", tmp_path / "strategies.parquet", lambda t: at(t, name, first_row(t), value)
    )
    refused(
        capsys,
        appendix_call(data, data / "traces-borda.parquet", strategies, tmp_path / "a.png"),
        f"{strategies}: {message}",
    )
    assert not (tmp_path / "a.png").exists()


def test_the_appendix_figure_draws_strategies_at_the_edges_of_their_ranges(data, tmp_path):
    """A mean probability of exactly 1 and of exactly 0 is drawn."""

    def edges(t):
        row = first_row(t)
        return at(at(t, "mean", row, 1.0), "mean", row + 1, 0.0)

    strategies = rewrite(data / "strategies-borda.parquet", tmp_path / "strategies.parquet", edges)
    argv = appendix_call(data, data / "traces-borda.parquet", strategies, tmp_path / "a.png")
    assert cli.main([str(a) for a in argv]) == 0 and (tmp_path / "a.png").stat().st_size > 0


def test_the_summary_command_refuses_bounds_without_the_rows_of_an_algorithm_its_provenance_lists(
    data, tmp_path, capsys
):
    """Both algorithms listed; partial-monitoring has a theorem (4.4), dts none: its rows were all dropped."""
    bounds = rewrite(data / "bounds.parquet", tmp_path / "bounds.parquet", lambda t: t.slice(0, 0))
    argv = ["summary", data / "summary-borda.parquet", "--bounds", bounds, "--out", tmp_path / "s.parquet"]
    refused(capsys, argv, f"{bounds}: holds no rows of partial-monitoring, whose theorem its provenance lists")
    assert not (tmp_path / "s.parquet").exists()
