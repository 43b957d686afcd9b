import re

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
from regret_by_hand import per_step_regrets

from duelbandits import make_scenario, run_seed, schemas, simulate, storage
from duelbandits.simulation import recorded_steps
from duelbandits.studies.paper import analysis as aggregate
from duelbandits.studies.paper.analysis import aggregate_scenario, bounds_table, summary_grid


def test_a_bounds_table_off_the_defaults_is_theorem_4_2_by_hand_on_the_grid():
    # summary_grid(1000, 10): linspace(1, 1000, 10) rounded, and geomspace(1, 1000, 2) = {1, 1000}
    df = bounds_table(["dts", "ts-borda"], actions=3, horizon=1000, points=10, c_alpha=2.0)  # dts: no theorem
    assert list(df.columns) == ["algorithm", "theorem", "regret", "horizon", "holds", "t", "bound"]
    assert df["t"].tolist() == [1, 112, 223, 334, 445, 556, 667, 778, 889, 1000] and df["t"].dtype == np.int32
    assert set(df["algorithm"]) == {"ts-borda"} and set(df["theorem"]) == {"4.2"} and set(df["regret"]) == {"borda"}
    assert df["horizon"].dtype == np.int32 and set(df["horizon"]) == {1000} and df["holds"].all()
    # (c + sqrt(A / c log A)) t^(2/3) with c = 2, A = 3: (2 + 1.2837128) at t = 1, x 100 at t = 1000
    assert df["bound"].iloc[0] == pytest.approx(3.2837128, rel=1e-7)
    assert df["bound"].iloc[-1] == pytest.approx(328.37128, rel=1e-7)
    # c_alpha = 1 by default: (1 + sqrt(3 * 1.0986123 = 3.2958369)) * 100 = 281.54440 at t = 1000
    default = bounds_table(["ts-borda", "ts-maximin"], actions=3, horizon=1000, points=10)
    assert default["bound"].iloc[9] == pytest.approx(281.54440, rel=1e-7)
    assert default.index.equals(pd.RangeIndex(20)) and default["algorithm"].iloc[10] == "ts-maximin"
    df = bounds_table(["dts", "rmed1"], actions=3, horizon=100)  # no theorem: empty, the columns kept
    assert df.empty and list(df.columns) == ["algorithm", "theorem", "regret", "horizon", "holds", "t", "bound"]


def test_a_bound_whose_requirement_fails_is_left_out_with_the_full_warning():
    for algorithm, actions, horizon, c_alpha, message in [
        ("partial-monitoring", 10, 150, 1.0, "Theorem 4.4 (partial-monitoring) needs T > 165.4 at A = 10; T = 150"),
        ("sparring-exp3p", 10, 101, 1.0, "Theorem 4.3 (sparring-exp3p) needs T >= 101.5 at A = 10; T = 101"),
        ("ts-borda", 3, 216, 3.0, "Theorem 4.2 (ts-borda) needs T > 216.0 at A = 3; T = 216"),  # (2 c)^3 = 216
    ]:
        full = message + " does not meet it, so its bound curve is left out"
        with pytest.warns(UserWarning, match="^" + re.escape(full) + "$"):
            df = bounds_table([algorithm], actions=actions, horizon=horizon, points=5, c_alpha=c_alpha)
        assert not df["holds"].any() and df["bound"].isna().all() and len(df) > 0  # one that holds: the test above


def test_rows_are_in_run_order_when_runs_rise_and_steps_rise_within_each():
    for run, t, ordered in [
        ([0, 0, 1, 1], [1, 2, 1, 2], True),
        ([0, 1, 2], [5, 1, 3], True),  # a later run may start at any step
        ([0, 0, 1, 1], [1, 1, 1, 2], False),  # a step twice
        ([0, 1, 1], [1, 3, 2], False),  # steps back within a run
        ([0, 0, 0], [2, 1, 3], False),
        ([1, 0, 2], [1, 2, 3], False),  # runs back
        ([0, 1, 0], [1, 1, 2], False),
    ]:
        assert aggregate._in_run_order(pd.DataFrame({"run": run, "t": t})) is ordered


def test_each_output_has_its_own_provenance_and_an_algorithm_without_strategies_an_empty_table(tmp_path):
    """An algorithm without strategies (dts): an empty strategies table of its schema; each output
    carries the provenance given for it."""
    X = make_scenario("condorcet", actions=3, seed=2).matrix
    runs = [(r, simulate(X, "dts", 12, run_seed(5, "condorcet", "dts", r))) for r in range(2)]
    storage.write_runs(runs, 3, tmp_path / "dts.parquet")
    outputs = {kind: tmp_path / f"{kind}.parquet" for kind in ("traces", "strategies", "summary")}
    provenance = {kind: {"output": kind} for kind in outputs}
    aggregate_scenario("condorcet", X, {"dts": [tmp_path / "dts.parquet"]}, 12, 2, outputs, 5, provenance)
    for kind, path in outputs.items():  # the schemas each output is written with: tests/test_written_tables.py
        assert storage.read_provenance(path) == {"output": kind}
    assert pq.read_table(outputs["strategies"]).schema.remove_metadata().equals(schemas.STRATEGY_SCHEMA)
    assert pq.read_table(outputs["strategies"]).num_rows == 0
    traces = pq.read_table(outputs["traces"])
    assert traces.num_rows == 24 and pq.read_table(outputs["summary"]).num_rows == 4 * len(summary_grid(12, 5))


def test_aggregated_summary_strategies_and_traces_match_a_hand_recomputation_at_every_step(tmp_path):
    """aggregate_scenario on three algorithms' chunks (runs split over two files) against the runs
    themselves: every grid step of the summary (mean and sample std over runs, all four regrets,
    computed by hand from the matrix), every recorded strategy (mean and std over runs) and the trace."""
    X = make_scenario("condorcet", actions=4, seed=1).matrix
    T, runs, stride, points = 60, 5, 7, 12
    results, chunks = {}, {}
    for algorithm in ("sparring-exp3p", "partial-monitoring", "dts"):
        results[algorithm] = [
            simulate(X, algorithm, T, run_seed(3, "condorcet", algorithm, r), stride=stride) for r in range(runs)
        ]
        chunks[algorithm] = []
        for k, part in enumerate(([0, 1, 2], [3, 4])):
            path = tmp_path / f"{algorithm}-{k}.parquet"
            storage.write_runs([(r, results[algorithm][r]) for r in part], 4, path)
            chunks[algorithm].append(path)
    outputs = {name: tmp_path / f"{name}.parquet" for name in ("traces", "strategies", "summary")}
    aggregate_scenario("condorcet", X, chunks, T, runs, outputs, points=points)
    integers = {"summary": dict(t="int32", runs="int32"), "strategies": dict(t="int32", action="int16", runs="int32")}
    for name, dtypes in integers.items():  # the frames' dtypes, in the pandas metadata: part of the files' bytes
        written = {c["name"]: c["numpy_type"] for c in pq.read_schema(outputs[name]).pandas_metadata["columns"]}
        assert {column: written[column] for column in dtypes} == dtypes, name

    summary = pq.read_table(outputs["summary"]).to_pandas()
    grid = summary_grid(T, points)
    # 12 even steps; the log-spaced ones, 1 and 60, among them
    assert grid[0] == 1 and grid[-1] == T and len(grid) >= points
    checked = 0
    for algorithm, res in results.items():
        hand = [per_step_regrets(X, r.I, r.J) for r in res]
        for kind in ("maximin", "borda", "exp3p", "copeland"):
            rows = summary[(summary["algorithm"] == algorithm) & (summary["regret"] == kind)]
            assert rows["t"].tolist() == grid.tolist()
            cum = np.array([np.cumsum(h[kind]) for h in hand])[:, grid - 1]  # (runs, grid steps)
            np.testing.assert_allclose(rows["mean"], cum.mean(axis=0), rtol=1e-12, atol=1e-12)
            np.testing.assert_allclose(rows["std"], cum.std(axis=0, ddof=1), rtol=1e-9, atol=1e-12)
            assert (rows["runs"] == runs).all()
            checked += len(rows)
        assert summary[summary["algorithm"] == algorithm]["paper"].sum() == len(grid)  # one paper regret
    assert checked == len(summary) == 3 * 4 * len(grid)
    assert summary["std"].gt(0).any()  # the runs differ: the std check is not 0 == 0

    strategies = pq.read_table(outputs["strategies"]).to_pandas()
    steps = recorded_steps(T, stride)
    for algorithm, players in (("sparring-exp3p", "pq"), ("partial-monitoring", "p")):
        for player in players:
            laws = np.array([r.strategies[player] for r in results[algorithm]])  # (runs, steps, actions)
            rows = strategies[(strategies["algorithm"] == algorithm) & (strategies["player"] == player)]
            assert rows["t"].tolist() == np.repeat(steps, 4).tolist()
            assert rows["action"].tolist() == np.tile(np.arange(4), len(steps)).tolist()
            np.testing.assert_allclose(rows["mean"], laws.mean(axis=0).ravel(), rtol=1e-12, atol=1e-15)
            np.testing.assert_allclose(rows["std"], laws.std(axis=0, ddof=1).ravel(), rtol=1e-9, atol=1e-15)
    assert set(map(tuple, strategies[["algorithm", "player"]].drop_duplicates().to_numpy())) == {
        ("sparring-exp3p", "p"),
        ("sparring-exp3p", "q"),
        ("partial-monitoring", "p"),
    }
    assert strategies[strategies["t"] > 1]["std"].gt(1e-3).all()  # after step 1 the runs' strategies differ

    traces = pq.read_table(outputs["traces"]).to_pandas()
    for algorithm, res in results.items():
        kind = "exp3p" if algorithm == "sparring-exp3p" else "borda" if algorithm == "partial-monitoring" else "maximin"
        rows = traces[traces["algorithm"] == algorithm]
        assert set(rows["regret_kind"]) == {kind}
        expected = np.concatenate([per_step_regrets(X, r.I, r.J)[kind] for r in res])
        np.testing.assert_allclose(rows["regret"], expected, rtol=0, atol=1e-15)
        np.testing.assert_array_equal(rows["I"], np.concatenate([r.I for r in res]))


@pytest.mark.parametrize("parts", [([3, 4], [0, 1, 2]), ([1, 3], [0, 2, 4]), ([4], [2], [0, 1, 3])])
def test_aggregate_gives_the_same_bytes_whatever_order_and_split_of_runs_its_chunks_have(tmp_path, parts):
    """The rows are sorted by (run, t) only when the chunks are not already in that order: chunks
    out of order or interleaved give the bytes of one chunk in order."""
    X = make_scenario("condorcet", actions=3, seed=2).matrix
    T, runs = 30, 5
    res = {
        r: simulate(X, "sparring-exp3p", T, run_seed(4, "condorcet", "sparring-exp3p", r), stride=4)
        for r in range(runs)
    }

    def outputs_of(split, name):
        chunks = []
        for k, part in enumerate(split):
            path = tmp_path / f"{name}-chunk-{k}.parquet"
            storage.write_runs([(r, res[r]) for r in part], 3, path)
            chunks.append(path)
        outputs = {kind: tmp_path / f"{name}-{kind}.parquet" for kind in ("traces", "strategies", "summary")}
        aggregate_scenario("condorcet", X, {"sparring-exp3p": chunks}, T, runs, outputs, points=10)
        return {kind: path.read_bytes() for kind, path in outputs.items()}

    assert outputs_of(parts, "split") == outputs_of([list(range(runs))], "whole")


def test_summary_grid_by_value_with_its_log_spaced_steps():
    """25 even steps 1 + 999 k / 24 (rounded half to even: 167.5 -> 168) and 25 // 5 = 5 log-spaced
    ones round(1000^(k/4)) = 1, 6, 32, 178, 1000: 28 distinct steps (derived by hand)."""
    assert summary_grid(1000, 25).tolist() == [
        1, 6, 32, 43, 84, 126, 168, 178, 209, 251, 292, 334, 376, 417, 459, 500, 542, 584, 625, 667, 709, 750, 792,
        834, 875, 917, 958, 1000,
    ]  # fmt: skip


def test_the_paper_summary_has_the_documented_steps():
    """docs/outputs.md: 1,000 evenly spaced steps and 200 log-spaced ones at T = 40,000: 1,156
    distinct steps (the union of round(1 + 39,999 k / 999) and round(40,000^(k/199)), counted once)."""
    from duelbandits.studies.paper.analysis import SUMMARY_POINTS

    assert SUMMARY_POINTS == 1000
    grid = summary_grid(40_000)
    assert grid.size == 1156
    assert grid[:8].tolist() == [1, 2, 3, 4, 5, 6, 7, 8]  # log-spaced: 40,000^(k/199) rounds to 1..8 first
    assert grid[-1] == 40_000 and summary_grid(10, 1000).tolist() == list(range(1, 11))  # T below the points


def test_join_summary_fills_the_bound_of_each_algorithm_regret_and_step_and_keeps_the_schemas_order():
    def summary(scenario, algorithm):
        return pd.DataFrame(
            {"bound": np.nan, "scenario": scenario, "algorithm": algorithm, "regret": ["borda", "borda", "maximin"]}
            | {"paper": [True, True, False], "t": [1, 10, 1], "mean": [0.5, 2.0, 0.25], "std": 0.1, "runs": 3}
        )

    bounds = pd.DataFrame(
        {"algorithm": "ts-borda", "theorem": "4.2", "regret": "borda", "horizon": 10, "holds": True}
        | {"t": [1, 10], "bound": [3.0, 14.0]}
    )
    joined = aggregate.join_summary([summary("condorcet", "ts-borda"), summary("borda", "dts")], bounds)
    assert list(joined.columns) == ["scenario", "algorithm", "regret", "paper", "t", "mean", "std", "runs", "bound"]
    assert joined["scenario"].tolist() == ["condorcet"] * 3 + ["borda"] * 3
    assert joined["bound"].tolist()[:2] == [3.0, 14.0] and joined["bound"].iloc[2:].isna().all()
    assert joined["mean"].tolist() == [0.5, 2.0, 0.25] * 2
    with pytest.raises(pd.errors.MergeError):  # one bound per (algorithm, regret, t)
        aggregate.join_summary([summary("condorcet", "ts-borda")], pd.concat([bounds, bounds]))
