"""Points, the unit of the targets beyond the paper: the thin grid, the chunking, a point's runs
against ``simulate``, the checks of point files, and the exponent fit and bootstrap they share."""

import re
import warnings

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from summaries import synthetic_finals

from duelbandits import make_scenario, regret, run_seed, schemas, simulate
from duelbandits import points as pointlib

HORIZONS = np.array([1_000, 3_000, 10_000, 30_000, 100_000])


@pytest.mark.slow  # a Monte Carlo check of a law: the slow tier's
def test_bootstrap_interval_has_the_width_and_coverage_of_its_level():
    """2,000 synthetic datasets (4 horizons, 50 lognormal runs each, sigma = 0.1), B = 400 resamples.

    Width. With sigma = 0.1 the log of a 50-run mean is normal to within a skewness of 0.04, so the
    bootstrap rho* is normal with the delta-method plug-in SE of each dataset,
    SE^2 = sum_h xc_h^2 v_h / Sxx^2, v_h = var_h (ddof 0) / (n mean_h^2): the interval's width over
    2 z SE (z = 1.96) is 1 up to np.quantile's order statistics. It takes the 2.5% quantile of B draws
    at 1-based order statistic 1 + 0.025 (B - 1) = 10.975, whose expected normal score is
    Phi^-1((10.975 - 0.5) / 400) = -1.940: the ratio is 1.940 / 1.960 = 0.990. Each dataset's ratio
    has sd 0.05 (quantiles of 400 draws), so the median of 2,000 has sd 1.25 * 0.05 / sqrt(2000) =
    0.0014; the band 0.99 +- 0.03 (20 sd, room for the delta method) excludes the ratio of a 97.5%
    interval (2.241 / 1.960 = 1.143) and of a 90% one (1.645 / 1.960 = 0.839).

    Coverage. The percentile bootstrap's plug-in variance shrinks the interval by sqrt(49/50):
    2 Phi(1.960 sqrt(49 / 50)) - 1 = 0.948; the random SE costs about 0.002 (t-like, about 150
    effective degrees of freedom) and the quantile noise of B = 400 another 0.002: expected 0.944.
    Over 2,000 datasets the coverage has sd sqrt(0.944 * 0.056 / 2000) = 0.0051; 4 sd = 0.021.
    """
    rng = np.random.default_rng(2)
    horizons = HORIZONS[:4]
    xc = np.log(horizons) - np.log(horizons).mean()
    datasets, runs, resamples, covered, ratios = 2000, 50, 400, 0, []
    for k in range(datasets):
        finals = synthetic_finals(rng, horizons, runs=runs, rho=0.75, sigma=0.1)
        low, high = pointlib.bootstrap_exponent(horizons, finals, resamples=resamples, confidence=0.95, seed=k)
        covered += low <= 0.75 <= high
        v = np.array([f.var() / (runs * f.mean() ** 2) for f in finals])
        se = np.sqrt((xc**2 * v).sum()) / (xc**2).sum()
        ratios.append((high - low) / (2 * 1.959964 * se))
    assert abs(np.median(ratios) - 0.990) <= 0.03, np.median(ratios)
    sd = np.sqrt(0.944 * 0.056 / datasets)
    assert abs(covered / datasets - 0.944) <= 4 * sd, covered / datasets


@pytest.mark.parametrize(
    "horizon, points, grid",
    [
        (100_000, 20, [1, 2, 3, 6, 11, 21, 38, 70, 127, 234, 428, 785, 1438, 2637, 4833, 8859, 16238, 29764, 54556,
                       100000]),
        (50, 1, [1, 50]),  # fewer than two points are taken as two: the grid is 1 and T
        (50, 2, [1, 50]),
        (1, 5, [1]),
        (5, 20, [1, 2, 3, 4, 5]),  # more points than steps: every step
    ],
)  # fmt: skip
def test_thin_grid_is_the_documented_log_spaced_grid_by_value(horizon, points, grid):
    """``round(T^(k / (points - 1)))``, k = 0..points-1, duplicates merged (derived once from that
    definition, written out here): at T = 10^5 and 20 points, round(10^(5k/19))."""
    assert pointlib.thin_grid(horizon, points).tolist() == grid


@pytest.mark.parametrize(
    "horizon, points, size, before_last",
    [
        (40_000, 60, 55, 33_424),  # the field (config.yaml field/points): 1 and 2 each twice, ... 55 steps
        (1_000_000, 41, 40, 707_946),  # maximin-tail at first_horizon: 10^(6 * 39/40); 1 twice
        (10_000_000, 20, 20, 4_281_332),  # the asymptotics' longest: 10^(7 * 18/19)
    ],
)
def test_thin_grid_sizes_of_the_documented_configs(horizon, points, size, before_last):
    """Each size counts the distinct values of round(T^(k / (points - 1))) (derived once, by hand
    from the definition); the step before T sets the last interval of the trapped rule."""
    grid = pointlib.thin_grid(horizon, points)
    assert grid.size == size and grid[-2] == before_last and grid[-1] == horizon


TOGETHER = [
    {"seed": 5, "scenario": "borda", "matrix_sha256": "m1", "algorithm": "ts-borda", "params": {"c_alpha": 2.0}},
    {"seed": 5, "scenario": "borda", "matrix_sha256": "m1", "algorithm": "dts", "params": {}},
    {"seed": 5, "scenario": "condorcet", "matrix_sha256": "m2", "algorithm": "ts-borda", "params": {"c_alpha": 2.0}},
]
"""Three point files' provenance that belong together (TS-Borda at c_alpha = 2)."""


@pytest.mark.parametrize(
    "changes, message",
    [
        ({1: {"seed": 6}}, "the points come from different seeds: 5 (p0) and 6 (p1)"),
        ({1: {"seed": 6}, 2: {"seed": 7}}, "the points come from different seeds: 5 (p0) and 6 (p1)"),  # first two
        ({1: {"matrix_sha256": "m3"}}, "the points of scenario 'borda' hold different matrices: p0 and p1"),
        ({1: {"matrix_sha256": "m2"}, 2: {"scenario": "borda", "matrix_sha256": "m3"}},
         "the points of scenario 'borda' hold different matrices: p0 and p1"),
        ({0: {"params": {"c_alpha": 1.5}}}, "p0: TS-Borda ran with c_alpha = 1.5, but --c-alpha is 2"),
        ({2: {"params": {}}}, "p2: TS-Borda ran with c_alpha = 1, but --c-alpha is 2"),  # the default, 1
    ],
)  # fmt: skip
def test_points_together_refuse_each_mismatch_among_matching_files_naming_the_first_two(changes, message):
    """One file of three differs in one field only, the others agree; or all three differ."""
    paths = ["p0", "p1", "p2"]
    pointlib.check_together(paths, TOGETHER, c_alpha=2.0)  # all agree
    records = [{**r, **changes.get(i, {})} for i, r in enumerate(TOGETHER)]
    with pytest.raises(pointlib.PointError, match="^" + re.escape(message) + "$"):
        pointlib.check_together(paths, records, c_alpha=2.0)


def test_points_together_without_c_alpha_ignore_ts_bordas_and_a_matrix_per_scenario_may_differ():
    pointlib.check_together(["p0", "p1", "p2"], [{**TOGETHER[0], "params": {"c_alpha": 9.0}}, *TOGETHER[1:]])
    assert TOGETHER[0]["matrix_sha256"] != TOGETHER[2]["matrix_sha256"]  # two scenarios, two matrices: fine
    pointlib.check_together(["p0", "p1", "p2"], TOGETHER, c_alpha=2.0 * (1 + 1e-13))  # within rel_tol 1e-12
    with pytest.raises(pointlib.PointError, match="but --c-alpha is 2"):
        pointlib.check_together(["p0", "p1", "p2"], TOGETHER, c_alpha=2.0 * (1 + 1e-11))


# --- The parts by hand (issue 33's mutation run of the module) -------------------------------------


def test_fit_power_law_of_two_horizons_and_of_a_negative_mean():
    """Two horizons suffice: 1 at T = 10 and 10 at T = 100 is mean = T / 10, rho 1, log_c = log(1/10)."""
    rho, log_c = pointlib.fit_power_law([10, 100], [1.0, 10.0])
    assert rho == pytest.approx(1.0, abs=1e-12) and log_c == pytest.approx(np.log(0.1), abs=1e-12)
    assert all(np.isnan(pointlib.fit_power_law([10, 100], [-1.0, 10.0])))
    assert all(np.isnan(pointlib.fit_power_law([10], [1.0])))
    with warnings.catch_warnings():  # refused inputs never reach the logarithm or the division: no warning
        warnings.simplefilter("error")
        assert all(np.isnan(pointlib.fit_power_law([1000, 1000], [1.0, 2.0])))
        assert all(np.isnan(pointlib.fit_power_law([1000, 2000], [0.0, 2.0])))


def test_resampled_log_means_draw_runs_within_each_horizon_as_documented():
    """default_rng(0).integers(0, 3, size=(3, 3)) is [[2, 1, 1], [0, 0, 0], [0, 0, 0]] (numpy's documented
    stream, derived once with numpy alone), so the runs 1, 2, 4 give means 8/3, 1, 1; the one run 10 gives
    10 each time."""
    logs = pointlib.resampled_log_means([[1.0, 2.0, 4.0], [10.0]], 3, 0)
    np.testing.assert_allclose(logs, np.log([[8 / 3, 10.0], [1.0, 10.0], [1.0, 10.0]]), rtol=1e-12)
    logs = pointlib.resampled_log_means([[0.0, 0.0], [-1.0, -2.0], [0.5, 0.5]], 2, 0)
    assert np.isnan(logs[:, :2]).all() and logs[:, 2].tolist() == [np.log(0.5)] * 2


def test_bootstrap_exponent_by_hand_from_the_documented_draws():
    """The draws of the test above on horizons 10 and 100: the refitted rhos are (log 10 - log m) / log 10
    for the first horizon's means m = 8/3, 1, 1, i.e. 1 - log(8/3) / log(10), 1, 1; numpy's linear
    quantiles at 0.25 and 0.75 of these three sit halfway between the first two, and at 1."""
    low, high = pointlib.bootstrap_exponent([10, 100], [[1.0, 2.0, 4.0], [10.0]], resamples=3, confidence=0.5, seed=0)
    assert low == pytest.approx((1 - np.log(8 / 3) / np.log(10) + 1) / 2, rel=1e-12)
    assert high == pytest.approx(1.0, rel=1e-12)
    # NaN without two horizons or any positive resample
    assert all(np.isnan(pointlib.bootstrap_exponent([10, 10], [[1.0], [2.0]], resamples=5)))
    assert all(np.isnan(pointlib.bootstrap_exponent([10, 100], [[-1.0], [2.0]], resamples=5)))


def test_bootstrap_exponent_drops_the_resamples_whose_mean_is_not_positive():
    """Runs 1 and -3 at T = 10 (a resample's mean is 1, -1 or -3: only the all-ones one is kept), 10 at
    T = 100: every kept rho is 1, so the interval is [1, 1] (default_rng(0) draws it: see above)."""
    low, high = pointlib.bootstrap_exponent([10, 100], [[1.0, -3.0], [10.0]], resamples=50, seed=0)
    assert (low, high) == pytest.approx((1.0, 1.0), rel=1e-12)
    # the defaults are the documented ones: resamples 1000, confidence 0.95, seed 0
    finals = synthetic_finals(np.random.default_rng(8), HORIZONS[:3], runs=5, rho=0.5)
    assert pointlib.bootstrap_exponent(HORIZONS[:3], finals) == pointlib.bootstrap_exponent(
        HORIZONS[:3], finals, resamples=1000, confidence=0.95, seed=0
    )


def _point_rows(rows):
    """Point rows ``(scenario, algorithm, A, T, run, regret, t)`` with R_t = t."""
    return pd.DataFrame([(*r, float(r[-1])) for r in rows], columns=schemas.POINT_SCHEMA.names)


def test_check_points_sorts_by_point_regret_run_and_step_with_a_fresh_index():
    rows = [
        ("borda", "dts", 10, 100, 1, "maximin", 50),
        ("borda", "dts", 10, 100, 0, "maximin", 50),
        ("borda", "dts", 10, 100, 1, "borda", 50),
        ("borda", "dts", 10, 100, 0, "borda", 50),
        ("borda", "dts", 10, 100, 0, "borda", 10),
        ("borda", "dts", 10, 100, 1, "borda", 10),
        ("borda", "dts", 10, 100, 0, "maximin", 10),
        ("borda", "dts", 10, 100, 1, "maximin", 10),
        ("borda", "dts", 5, 100, 0, "borda", 10),
        ("borda", "ccb", 10, 100, 0, "borda", 10),
    ]
    out = pointlib.check_points(_point_rows(rows))
    assert out.index.tolist() == list(range(10))
    assert out[["algorithm", "actions", "regret", "run", "t"]].values.tolist() == [
        ["ccb", 10, "borda", 0, 10],
        ["dts", 5, "borda", 0, 10],
        ["dts", 10, "borda", 0, 10],
        ["dts", 10, "borda", 0, 50],
        ["dts", 10, "borda", 1, 10],
        ["dts", 10, "borda", 1, 50],
        ["dts", 10, "maximin", 0, 10],
        ["dts", 10, "maximin", 0, 50],
        ["dts", 10, "maximin", 1, 10],
        ["dts", 10, "maximin", 1, 50],
    ]


def test_check_points_messages_name_the_run_and_the_point():
    with pytest.raises(pointlib.PointError, match="^no point files given$"):
        pointlib.check_points(_point_rows([]))
    twice = [("borda", "dts", 10, 100, 0, "borda", 10), ("borda", "dts", 10, 100, 0, "borda", 10)]
    with pytest.raises(
        pointlib.PointError, match="^run 0 of borda/dts A=10 T=100 appears in more than one point file$"
    ):
        pointlib.check_points(_point_rows(twice))
    other = _point_rows(twice)
    other.loc[1, "cumulative_regret"] = 11.0  # the same run and step from another file: a duplicate whatever R_t
    with pytest.raises(pointlib.PointError, match="appears in more than one point file$"):
        pointlib.check_points(other)
    gap = [("borda", "dts", 10, 100, 0, "borda", 10), ("borda", "dts", 10, 100, 2, "borda", 10)]
    with pytest.raises(pointlib.PointError, match=r"^sweep point borda/dts/10/100 holds runs \[0, 2\], expected 0..1$"):
        pointlib.check_points(_point_rows(gap))


@pytest.mark.parametrize(
    "rows",
    [
        # run 1 has one step fewer (3 rows over 2 runs)
        [(0, "borda", 10), (0, "borda", 50), (1, "borda", 10)],
        # as many rows as a multiple of the runs, but run 0 has 3 steps and run 1 one
        [(0, "borda", 10), (0, "borda", 50), (0, "borda", 70), (1, "borda", 10)],
        # each run has two rows, but of two regrets for run 0 and one for run 1
        [(0, "borda", 10), (0, "maximin", 10), (1, "borda", 10), (1, "borda", 50)],
    ],
)
def test_check_points_refuses_runs_of_unequal_length(rows):
    full = [("borda", "dts", 10, 100, *r) for r in rows]
    with pytest.raises(pointlib.PointError, match="^sweep point borda/dts/10/100 has runs of unequal length$"):
        pointlib.check_points(_point_rows(full))


def test_read_points_concatenates_the_files_checked_and_sorted_with_sorted_digests_and_the_records(tmp_path, X):
    from duelbandits import storage

    paths = [tmp_path / "a.parquet", tmp_path / "b.parquet"]
    for path, run, config in zip(paths, (0, 1), ("zz", "aa")):
        table = pointlib.simulate_point(X, "condorcet", "rucb", 20, [run], 5, points=3)
        storage.write_table(table, path, {"table": "sweep-point", "config_sha256": config, "runs": f"{run}-{run}",
                                          "horizon": 20, "points": 3})  # fmt: skip
    frame, digests, records = pointlib.read_points(paths)
    # sorted by check_points: by regret, then run, then step
    assert frame["run"].tolist() == ([0] * 3 + [1] * 3) * 4 and frame.columns.tolist() == schemas.POINT_SCHEMA.names
    assert digests == ["aa", "zz"]
    assert [r["config_sha256"] for r in records] == ["zz", "aa"]


def test_read_points_refuses_another_table_naming_its_columns_or_its_provenance(tmp_path):
    from duelbandits import provenance, storage

    other = pa.table({"run": pa.array([0], pa.int32()), "t": pa.array([1], pa.int32())})
    path = tmp_path / "other.parquet"
    storage.write_table(other, path, provenance={"table": "sweep-point", "config_sha256": "x"})
    with pytest.raises(storage.StorageError, match=r"other\.parquet: not a sweep point file \(columns run, t\)$"):
        pointlib.read_points([path])
    table = pa.Table.from_pandas(_point_rows([("borda", "dts", 10, 100, 0, "borda", 10)]), schemas.POINT_SCHEMA)
    path = tmp_path / "runs.parquet"
    storage.write_table(table, path, provenance={"table": "simulate", "config_sha256": "x"})
    with pytest.raises(provenance.ProvenanceError, match="is used as table 'sweep-point'"):
        pointlib.read_points([path])


def test_read_points_checks_each_file_against_its_provenance_naming_it(tmp_path, X):
    """RUCB at T = 20 with 3 points: thin_grid(20, 3) = 1, 4, 20, so runs 0-1 are 2 runs x 4 regrets x 3 steps
    = 24 rows. Shuffled rows, and runs "3-4" or "3" as their provenance says, are a point; a row dropped, a
    NaN, a provenance without its points: each refused in one line naming the file, before any statistic."""
    from duelbandits import storage

    def rows(runs):
        return pointlib.simulate_point(X, "condorcet", "rucb", 20, runs, 5, points=3).to_pandas().iloc[::-1]

    for runs, text in [([3, 4], "3-4"), ([3], "3")]:
        assert pointlib.point_problem(rows(runs), {"runs": text, "horizon": 20, "points": 3}) is None
    shape = "runs 0-1 x 4 regrets x 3 steps to T = 20"
    for name, change, points, message in [
        ("dropped.parquet", lambda f: f.iloc[1:], 3, f"holds 23 rows, not the 24 of its provenance ({shape})"),
        ("nan.parquet", lambda f: f.assign(cumulative_regret=f["cumulative_regret"].where(
            (f["run"] != 1) | (f["regret"] != "borda") | (f["t"] != 4))), 3, "run 1's borda regret is nan at t = 4"),
        ("bare.parquet", lambda f: f, None, "its provenance's 'points' is None, not a int"),
    ]:  # fmt: skip
        path = tmp_path / name
        record = {"table": "sweep-point", "config_sha256": "c", "runs": "0-1", "horizon": 20, "points": points}
        storage.write_frame(change(rows([0, 1])), schemas.POINT_SCHEMA, path, record)
        with pytest.raises((pointlib.PointError, storage.StorageError)) as refused:
            pointlib.read_points([path])
        assert str(refused.value) == f"{path}: {message}"


def test_sweep_point_columns_by_value_in_run_regret_step_order():
    """Runs 3 and 1 (in that order) of TS-Borda with c_alpha = 1.5 on a 6-action matrix to T = 40 on
    thin_grid(40, 4) = 1, 3, 12, 40 (round(40^(k/3))): the rows are run by run, in each the regret
    kinds in regret.REGRETS' order, in each the grid; every value is that of ``simulate`` with the run's
    seed and the same hyper-parameter, and progress is called after each run."""
    sc = make_scenario("borda", actions=6, seed=1)
    calls = []
    table = pointlib.simulate_point(
        sc.matrix, "borda", "ts-borda", 40, [3, 1], 5, points=4, progress=lambda *a: calls.append(a), c_alpha=1.5
    ).to_pandas()
    assert calls == [(1, 2), (2, 2)]
    kinds = list(regret.REGRETS)
    assert len(table) == 2 * len(kinds) * 4
    assert set(table["scenario"]) == {"borda"} and set(table["algorithm"]) == {"ts-borda"}
    assert set(table["actions"]) == {6} and set(table["horizon"]) == {40}
    assert table["run"].tolist() == [3] * (4 * len(kinds)) + [1] * (4 * len(kinds))
    assert table["regret"].tolist() == [k for k in kinds for _ in range(4)] * 2
    assert table["t"].tolist() == [1, 3, 12, 40] * (2 * len(kinds))
    for run in (3, 1):
        res = simulate(sc.matrix, "ts-borda", 40, run_seed(5, "borda", "ts-borda", run), c_alpha=1.5)
        for kind in kinds:
            rows = table[(table["run"] == run) & (table["regret"] == kind)]
            R = regret.cumulative(kind, sc.matrix, res.I, res.J)
            np.testing.assert_array_equal(rows["cumulative_regret"], R[[0, 2, 11, 39]])
    default = simulate(sc.matrix, "ts-borda", 40, run_seed(5, "borda", "ts-borda", 1))
    assert not np.array_equal(default.I, res.I) or not np.array_equal(default.J, res.J)  # c_alpha mattered


def test_sweep_point_keeps_twenty_grid_points_by_default():
    """points defaults to 20: at T = 40 the distinct round(40^(k/19)), k = 0..19 (by hand from the
    definition: 1.21, 1.47, ... round to 1, 1, 1, 2, 2, 3, ...), 16 steps."""
    sc = make_scenario("borda", actions=6, seed=1)
    table = pointlib.simulate_point(sc.matrix, "borda", "ts-borda", 40, [0], 5).to_pandas()
    steps = table.loc[table["regret"] == "maximin", "t"].tolist()
    assert steps == [1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 15, 18, 22, 27, 33, 40]


def test_sweep_point_records_strategies_at_one_step_and_forces_only_user_warnings(monkeypatch):
    """Each run is simulated with stride = horizon (strategies at one step: memory). The UserWarnings of the
    runs (gamma clipping) are collected and reported once; a warning of another category follows the
    caller's filters (here: RuntimeWarnings ignored)."""
    sc = make_scenario("borda", actions=6, seed=1)
    strides = []

    def spy(*args, stride, **kwargs):
        strides.append((args[2], stride))
        warnings.warn("a numeric oddity", RuntimeWarning, stacklevel=2)
        warnings.warn("gamma clipped", UserWarning, stacklevel=2)
        return simulate(*args, stride=stride, **kwargs)

    monkeypatch.setattr(pointlib, "simulate", spy)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.simplefilter("ignore", RuntimeWarning)
        pointlib.simulate_point(sc.matrix, "borda", "ts-borda", 30, [0, 1], 5, points=3)
    assert strides == [(30, 30), (30, 30)]
    assert [(w.category, str(w.message)) for w in caught] == [(UserWarning, "gamma clipped")]


def test_sweep_point_of_a_float32_matrix_has_double_precision_regrets():
    """A valid float32 matrix (each X[j, i] = 1 - X[i, j] exactly in float32, entries 0.6 and 0.7 in the Maximin
    winner's row, whose float32 sum rounds): the regrets are those of its values in double precision."""
    X = np.array([[0.5, 0.6, 0.7, 0.7], [0.4, 0.5, 0.95, 0.95], [0.3, 0.05, 0.5, 0.5], [0.3, 0.05, 0.5, 0.5]])
    X32 = X.astype(np.float32)
    upper = np.triu_indices(4, 1)
    X32.T[upper] = np.float32(1) - X32[upper]
    table = pointlib.simulate_point(X32, "family", "ts-maximin", 40, [0], 5, points=3).to_pandas()
    res = simulate(X32, "ts-maximin", 40, run_seed(5, "family", "ts-maximin", 0))
    double = regret.per_step("maximin", X32.astype(float), res.I, res.J)
    assert not np.array_equal(double, regret.per_step("maximin", X32, res.I, res.J))  # float32 would differ
    rows = table[table["regret"] == "maximin"]
    np.testing.assert_array_equal(rows["cumulative_regret"].to_numpy(), np.cumsum(double)[[0, 5, 39]])


def test_float32_inputs_are_computed_in_double_precision():
    """Horizons, means and final regrets given in float32 are taken at their exact double values and computed in
    double precision (the closed forms of the hand tests above, on the float32 values)."""
    f = np.float32
    # a power law through (10, 2) and (1000, 20): rho = 1/2, log_c = log 2 - log(10) / 2
    rho, log_c = pointlib.fit_power_law(np.array([10, 1000], f), np.array([2, 20], f))
    assert rho == pytest.approx(0.5, rel=1e-12) and log_c == pytest.approx(np.log(2) - np.log(10) / 2, rel=1e-12)
    # default_rng(0) draws runs 2, 1, 1 / 0, 0, 0 / 0, 0, 0 of three (see the hand test above)
    v = np.array([0.1, 0.2, 0.4], f)
    logs = pointlib.resampled_log_means([v], 3, 0)
    first = (float(v[2]) + 2 * float(v[1])) / 3
    np.testing.assert_allclose(logs[:, 0], np.log([first, float(v[0]), float(v[0])]), rtol=1e-12)
    # the bootstrap of the hand test with float32 horizons
    low, high = pointlib.bootstrap_exponent(np.array([10, 100], f), [[1.0, 2.0, 4.0], [10.0]], 3, 0.5, 0)
    assert low == pytest.approx((1 - np.log(8 / 3) / np.log(10) + 1) / 2, rel=1e-12)
    assert high == pytest.approx(1.0, rel=1e-12)
