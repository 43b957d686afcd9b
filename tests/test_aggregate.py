import numpy as np
import pyarrow.parquet as pq
import pytest
from regret_by_hand import per_step_regrets

from duelbandits import make_scenario, run_seed, simulate, storage
from duelbandits.aggregate import aggregate_scenario, bounds_table, summary_grid
from duelbandits.simulation import recorded_steps


@pytest.mark.parametrize("horizon", [1, 2, 300, 40_000])
def test_summary_grid_is_sorted_within_range_and_ends_at_horizon(horizon):
    grid = summary_grid(horizon, 1000)
    assert grid[0] == 1 and grid[-1] == horizon
    assert np.all(np.diff(grid) > 0)
    assert len(grid) >= min(horizon, 1000)


def test_bounds_table_leaves_out_theorems_whose_horizon_requirement_fails():
    # T = 150 at A = 10: Thm 4.3 needs T >= 101.5 (holds), Thm 4.4 needs T > 165.4 (fails)
    with pytest.warns(UserWarning, match=r"Theorem 4.4 \(partial-monitoring\) needs T > 165.4"):
        df = bounds_table(["sparring-exp3p", "partial-monitoring", "dts"], actions=10, horizon=150)
    pm = df[df["algorithm"] == "partial-monitoring"]
    assert not pm["holds"].any() and pm["bound"].isna().all()
    exp3p = df[df["algorithm"] == "sparring-exp3p"]
    assert exp3p["holds"].all() and exp3p["bound"].notna().all()
    assert "dts" not in set(df["algorithm"])


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

    summary = pq.read_table(outputs["summary"]).to_pandas()
    grid = summary_grid(T, points)
    assert (
        grid[0] == 1 and grid[-1] == T and len(grid) >= points
    )  # 12 even steps; the log-spaced ones, 1 and 60, among them
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
    from duelbandits.aggregate import SUMMARY_POINTS

    assert SUMMARY_POINTS == 1000
    grid = summary_grid(40_000)
    assert grid.size == 1156
    assert grid[:8].tolist() == [1, 2, 3, 4, 5, 6, 7, 8]  # log-spaced: 40,000^(k/199) rounds to 1..8 first
    assert summary_grid(10, 1000).tolist() == list(range(1, 11))  # T below the points: every step
