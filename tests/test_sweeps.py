"""Sweeps beyond the paper: exponent fit, bootstrap, sweep tables, figures, the table and sweep commands."""

import warnings

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
from summaries import summary_rows

from duelbandits import (
    cli,
    make_scenario,
    provenance,
    regret,
    run_seed,
    schemas,
    simulate,
    storage,
    sweeps,
    theorems,
    winners,
)
from duelbandits import points as pointlib
from duelbandits.plotting import actions_sweep_figure, horizon_sweep_figure
from duelbandits.simulation import name_seed

HORIZONS = np.array([1_000, 3_000, 10_000, 30_000, 100_000])


def synthetic_finals(rng, horizons, runs, rho, c=2.0, sigma=0.3):
    """Final regrets R_T = c T^rho exp(sigma Z - sigma^2 / 2): mean exactly c T^rho at every T."""
    return [c * T**rho * np.exp(sigma * rng.standard_normal(runs) - sigma**2 / 2) for T in horizons]


def test_fit_power_law_recovers_an_exact_power_law():
    rho, log_c = pointlib.fit_power_law(HORIZONS, 3.0 * HORIZONS**0.7)
    assert rho == pytest.approx(0.7, abs=1e-12)
    assert log_c == pytest.approx(np.log(3.0), abs=1e-10)


def test_fit_power_law_is_nan_without_two_horizons_or_with_non_positive_means():
    assert np.isnan(pointlib.fit_power_law([1000, 1000], [1.0, 2.0])[0])
    assert np.isnan(pointlib.fit_power_law([1000, 2000], [0.0, 2.0])[0])


def test_fit_recovers_rho_from_noisy_runs():
    rng = np.random.default_rng(1)
    finals = synthetic_finals(rng, HORIZONS, runs=40, rho=2 / 3)
    rho, _ = pointlib.fit_power_law(HORIZONS, [f.mean() for f in finals])
    # SE of a log mean: sqrt(exp(0.09) - 1) / sqrt(40) = 0.0485; the slope's SE is that over
    # sqrt(sum (log T - mean)^2) = 3.64, i.e. 0.013. 0.06 is 4.5 SE.
    assert rho == pytest.approx(2 / 3, abs=0.06)


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


def test_bootstrap_resamples_runs_within_each_horizon():
    # Identical runs at every horizon: any within-horizon resample has the same mean, so the
    # interval collapses onto the point estimate (resampling across horizons would not).
    finals = [np.full(10, 5.0 * T**0.6) for T in HORIZONS]
    low, high = pointlib.bootstrap_exponent(HORIZONS, finals, resamples=200, seed=3)
    assert low == pytest.approx(0.6, abs=1e-9) and high == pytest.approx(0.6, abs=1e-9)


def test_bootstrap_is_reproducible_from_its_seed():
    finals = synthetic_finals(np.random.default_rng(4), HORIZONS, runs=20, rho=0.5)
    a = pointlib.bootstrap_exponent(HORIZONS, finals, seed=name_seed(7, "borda", "iss"))
    b = pointlib.bootstrap_exponent(HORIZONS, finals, seed=name_seed(7, "borda", "iss"))
    c = pointlib.bootstrap_exponent(HORIZONS, finals, seed=name_seed(7, "borda", "dts"))
    assert a == b and a != c


def test_bootstrap_rejects_bad_levels():
    with pytest.raises(pointlib.PointError, match="confidence"):
        pointlib.bootstrap_exponent(HORIZONS, [np.ones(3)] * 5, confidence=1.0)


def test_thin_grid_is_log_spaced_and_ends_at_the_horizon():
    grid = pointlib.thin_grid(100_000, 20)
    assert grid[0] == 1 and grid[-1] == 100_000 and len(grid) <= 20
    assert np.all(np.diff(grid) > 0)
    assert pointlib.thin_grid(5, 20).tolist() == [1, 2, 3, 4, 5]


def test_chunk_ranges_cover_every_run_once():
    assert pointlib.chunk_ranges(10, 4) == [(0, 3), (4, 7), (8, 9)]
    with pytest.raises(pointlib.PointError):
        pointlib.chunk_ranges(0, 4)


def test_sweep_point_runs_are_the_runs_simulate_gives():
    sc = make_scenario("borda", actions=6, seed=1)
    table = pointlib.simulate_point(sc.matrix, "borda", "ts-borda", 500, [1, 2], 5, points=8).to_pandas()
    assert table.columns.tolist() == schemas.POINT_SCHEMA.names
    assert set(table["regret"]) == set(regret.REGRETS) and sorted(table["run"].unique()) == [1, 2]
    res = simulate(sc.matrix, "ts-borda", 500, run_seed(5, "borda", "ts-borda", 2))
    grid = pointlib.thin_grid(500, 8)
    for kind in regret.REGRETS:
        rows = table[(table["run"] == 2) & (table["regret"] == kind)]
        np.testing.assert_array_equal(rows["t"], grid)
        np.testing.assert_allclose(
            rows["cumulative_regret"], regret.cumulative(kind, sc.matrix, res.I, res.J)[grid - 1], rtol=0, atol=1e-9
        )


def synthetic_points(algorithms, actions, horizons, runs=5, rho=0.7, scenario="borda"):
    """A point table as the sweep writes it, with R_t = t^rho (1 + run / 100) for every regret kind."""
    rows = []
    for algorithm in algorithms:
        for A in actions:
            for T in horizons:
                grid = pointlib.thin_grid(T, 5)
                for run in range(runs):
                    for kind in regret.REGRETS:
                        for t in grid:
                            rows.append((scenario, algorithm, A, T, run, kind, t, t**rho * (1 + run / 100)))
    return pd.DataFrame(rows, columns=schemas.POINT_SCHEMA.names)


def test_exponent_table_fits_every_algorithm_and_regret():
    points = synthetic_points(["ts-borda", "iss"], [10], [1000, 4000, 16000], rho=0.7)
    ex = sweeps.exponent_table(points, resamples=100, base_seed=1)
    assert ex.columns.tolist() == schemas.EXPONENT_SCHEMA.names
    assert len(ex) == 2 * len(regret.REGRETS)
    np.testing.assert_allclose(ex["rho"], 0.7, atol=1e-9)
    row = ex[(ex["algorithm"] == "ts-borda") & (ex["regret"] == "borda")].iloc[0]
    assert row["paper"] and row["theorem"] == "4.2" and row["theorem_exponent"] == pytest.approx(2 / 3)
    assert ex[ex["algorithm"] == "iss"]["theorem"].isna().all()
    horizon = sweeps.horizon_table(points)
    assert horizon.columns.tolist() == schemas.HORIZON_SCHEMA.names
    final = horizon[(horizon["t"] == horizon["horizon"]) & (horizon["regret"] == "borda")]
    np.testing.assert_allclose(final["mean"], final["horizon"] ** 0.7 * 1.02)


def test_actions_table_divides_by_the_bound_only_where_a_theorem_holds():
    points = synthetic_points(["ts-maximin", "partial-monitoring", "iss"], [6, 48], [1000])
    table = sweeps.actions_table(points)
    ts = table[(table["algorithm"] == "ts-maximin") & (table["regret"] == "maximin") & (table["actions"] == 6)].iloc[0]
    assert ts["bound"] == pytest.approx(theorems.ts_maximin(6, 1000))
    assert ts["ratio"] == pytest.approx(ts["mean"] / ts["bound"])
    # Theorem 4.4 needs T > (e - 2) A^2 log A: 16.8 at A = 6, 6404 at A = 48.
    pm = table[(table["algorithm"] == "partial-monitoring") & (table["regret"] == "borda")].set_index("actions")
    assert np.isfinite(pm.loc[6, "ratio"]) and np.isnan(pm.loc[48, "ratio"])
    assert table[table["algorithm"] == "iss"]["ratio"].isna().all()
    assert table[(table["algorithm"] == "ts-maximin") & (table["regret"] == "borda")]["ratio"].isna().all()


def test_check_points_rejects_missing_and_duplicate_runs():
    points = synthetic_points(["dts"], [10], [100, 200], runs=3)
    with pytest.raises(pointlib.PointError, match="expected 0..1"):
        pointlib.check_points(points[points["run"] != 0])
    with pytest.raises(pointlib.PointError, match="more than one point file"):
        pointlib.check_points(pd.concat([points, points[points["run"] == 1]]))


def test_reduced_horizon_sweep_on_the_borda_scenario_orders_the_exponents():
    """ISS and DTS find the Condorcet winner, whose Borda regret per step is a constant: their
    Borda regret is linear (rho -> 1); TS-Borda's exploration gives rho = 2/3 (Theorem 4.2).

    The paper's borda matrix (seed 20191114, A = 10), horizons 1,000..30,000, 20 runs: about 15 s.
    Measured here: ISS 0.88, DTS 0.84, TS-Borda 0.71 (bootstrap 95% CI 0.66-0.76); with 40 runs
    TS-Borda gives 0.67. TS-Borda's R_T has a coefficient of variation of 0.22 at T = 1,000 and
    0.46 at T = 30,000, so with 20 runs its slope has an SE of about
    sqrt(0.22^2 + 0.46^2) / sqrt(20) / log(30) = 0.034 (the bootstrap says 0.027); ISS's and
    DTS's (CV < 0.1) about 0.01. Requiring a gap of 0.05 leaves 3 to 4.5 SE below the expected
    gap of 0.13 to 0.17, and the band [0.5, 0.85] for TS-Borda is 2/3 +- 5 SE.
    """
    sc = make_scenario("borda", actions=10, seed=20191114)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        points = pd.concat(
            [
                pointlib.simulate_point(sc.matrix, "borda", algorithm, T, range(20), 20191114, points=4).to_pandas()
                for algorithm in ("iss", "dts", "ts-borda")
                for T in (1_000, 3_000, 10_000, 30_000)
            ],
            ignore_index=True,
        )
    ex = sweeps.exponent_table(points[points["regret"] == "borda"], resamples=200, base_seed=1)
    rho = ex.set_index("algorithm")["rho"]
    assert min(rho["iss"], rho["dts"]) - rho["ts-borda"] > 0.05, rho.to_dict()
    assert 0.5 <= rho["ts-borda"] <= 0.85, rho.to_dict()


def test_sweep_figures_draw_every_algorithm_and_theorem(tmp_path):
    algos = ["ts-maximin", "ts-borda", "sparring-exp3p", "partial-monitoring", "iss", "dts"]
    points = synthetic_points(algos, [6, 12], [1000, 3000, 10000])
    horizon_points = points[points["actions"] == 6]
    ex = sweeps.exponent_table(horizon_points, resamples=50)
    fig = horizon_sweep_figure("borda", sweeps.horizon_table(horizon_points), ex, [tmp_path / "h.png"])
    gids = {line.get_gid() for ax in fig.axes for line in ax.get_lines() if line.get_gid()}
    gids |= {c.get_gid() for ax in fig.axes for c in ax.collections if c.get_gid()}
    assert {f"fit:{a}" for a in algos} <= gids and {f"within:{a}" for a in algos} <= gids
    assert {f"theorem:{a}" for a in algos[:4]} <= gids and "theorem:iss" not in gids
    assert (tmp_path / "h.png").read_bytes().startswith(b"\x89PNG")
    actions_points = points[points["horizon"] == 10000]
    fig = actions_sweep_figure("borda", sweeps.actions_table(actions_points), [tmp_path / "a.pdf"])
    gids = {line.get_gid() for ax in fig.axes for line in ax.get_lines() if line.get_gid()}
    assert {f"ratio:{a}" for a in algos[:4]} <= gids and "ratio:iss" not in gids
    assert (tmp_path / "a.pdf").read_bytes().startswith(b"%PDF")


def test_cli_table_and_sweep_commands_write_their_outputs(tmp_path):
    summary = tmp_path / "summary.parquet"
    # as the `summary` command writes it: the table refuses a file without that provenance
    storage.write_frame(summary_rows(), schemas.SUMMARY_SCHEMA, summary, provenance.record(table="summary"))
    assert (
        cli.main(
            [
                "table",
                "--summary",
                str(summary),
                "--markdown",
                str(tmp_path / "t.md"),
                "--html",
                str(tmp_path / "t.html"),
            ]
        )
        == 0
    )
    config = ["config-page", "--config-json", '{"seed": 1, "sweeps": {"runs": 2}}', "--out", str(tmp_path / "c.html")]
    assert cli.main(config) == 0
    assert cli.main([*config[:2], "{not json", *config[3:]]) == 2
    assert "40.0 ± 4.0" in (tmp_path / "t.md").read_text()
    assert "sweeps/runs" in (tmp_path / "c.html").read_text()
    paths = []
    for T in (300, 600):
        paths.append(tmp_path / f"p{T}.parquet")
        assert (
            cli.main(
                [
                    "sweep-point",
                    "--scenario",
                    "cyclic",
                    "--actions",
                    "5",
                    "--seed",
                    "3",
                    "--algorithm",
                    "dts",
                    "--horizon",
                    str(T),
                    "--runs",
                    "0-2",
                    "--points",
                    "5",
                    "--out",
                    str(paths[-1]),
                ]
            )
            == 0
        )
    outs = {k: str(tmp_path / f"h.{k}") for k in ("table", "exponents", "markdown", "html")}
    assert (
        cli.main(
            [
                "sweep-horizon",
                *map(str, paths),
                "--resamples",
                "50",
                "--seed",
                "3",
                *[a for k, v in outs.items() for a in (f"--{k}", v)],
            ]
        )
        == 0
    )
    ex = pq.read_table(outs["exponents"]).to_pandas()
    assert set(ex["regret"]) == set(regret.REGRETS)
    # DTS's figure regret on cyclic is Copeland (positive); Exp3.P and Maximin regrets may average <= 0: no fit
    assert np.isfinite(ex.set_index("regret").loc["copeland", "rho"])
    assert "| cyclic | dts | Copeland |" in (tmp_path / "h.markdown").read_text()


def test_cli_sweep_commands_reject_bad_input(tmp_path, capsys):
    bad = tmp_path / "bad.parquet"
    summary_rows().to_parquet(bad)
    outs = [a for k in ("table", "exponents", "markdown", "html") for a in (f"--{k}", str(tmp_path / k))]
    assert cli.main(["sweep-horizon", str(bad), *outs]) == 2
    assert "not a sweep point file" in capsys.readouterr().err
    assert (
        cli.main(
            [
                "sweep-point",
                "--scenario",
                "borda",
                "--algorithm",
                "ucb",
                "--horizon",
                "10",
                "--runs",
                "0-1",
                "--out",
                str(tmp_path / "x.parquet"),
            ]
        )
        == 2
    )
    assert "unknown algorithm" in capsys.readouterr().err
    assert not (tmp_path / "x.parquet").exists()


def test_cli_file_scenario_needs_and_uses_the_matrix_file(tmp_path, capsys):
    X = make_scenario("condorcet", actions=4, seed=2).matrix
    path = tmp_path / "m.csv"
    np.savetxt(path, X, delimiter=",", fmt="%.17g")
    assert cli.main(["matrix", "--scenario", "file", "--matrix-file", str(path)]) == 0
    rows = capsys.readouterr().out.strip().splitlines()
    np.testing.assert_array_equal(np.array([[float(v) for v in r.split(",")] for r in rows]), X)
    assert cli.main(["matrix", "--scenario", "file"]) == 2
    assert "--matrix-file" in capsys.readouterr().err
    assert cli.main(["matrix", "--scenario", "borda", "--matrix-file", str(path)]) == 2
    assert cli.main(["matrix", "--scenario", "file", "--matrix-file", str(path), "--actions", "5"]) == 2
    assert str(path) in capsys.readouterr().err


@pytest.mark.parametrize("scenario", ["cyclic", "file"])
@pytest.mark.parametrize("algorithm", ["ts-maximin", "ts-borda", "sparring-exp3p", "partial-monitoring", "iss", "dts"])
def test_every_algorithm_runs_on_the_new_scenarios(tmp_path, scenario, algorithm):
    matrix = make_scenario("cyclic", actions=6, seed=9).matrix
    if scenario == "file":
        path = tmp_path / "m.csv"
        np.savetxt(path, matrix[::-1, ::-1], delimiter=",", fmt="%.17g")
        matrix = make_scenario("file", path=path).matrix
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = simulate(matrix, algorithm, 400, run_seed(0, scenario, algorithm, 0))
    kind = regret.paper_regret(scenario, algorithm)
    theorem = theorems.THEOREMS.get(algorithm)
    if theorem is not None:
        assert kind == theorem.regret  # the paper's algorithms: the regret their theorem bounds
    else:
        # ISS and DTS seek a Condorcet winner; the matrix has none, so the Copeland winner stands in
        assert winners.condorcet_winner(matrix) is None and kind == "copeland"
    r = regret.per_step(kind, matrix, res.I, res.J)
    assert r.shape == (400,) and np.all(np.isfinite(r))


def test_a_sweep_point_below_a_theorems_horizon_warns_once_not_once_per_run():
    sc = make_scenario("borda", actions=10, seed=20191114)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pointlib.simulate_point(sc.matrix, "borda", "partial-monitoring", 100, range(3), 7, points=4)
    messages = [str(w.message) for w in caught]
    assert len(messages) == 1 and "too short for Theorem 4.4" in messages[0]
