"""Long horizons (target `asymptotics`): local exponents, their bootstrap, verdicts, tables, the figure and
the CLI commands (the job split: tests/test_plan.py; the Slurm requests: tests/test_resources.py)."""

import math

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
from summaries import synthetic_finals

from duelbandits import cli, digests, provenance, schemas, storage, theorems
from duelbandits import points as pointlib
from duelbandits.simulation import name_seed
from duelbandits.studies.asymptotics import analysis as asymptotics
from duelbandits.studies.asymptotics.figure import asymptotics_figure

HORIZONS = np.array([1_000, 3_000, 10_000, 30_000])


def synthetic_points(rng, cases, horizons=HORIZONS, runs=10, scenario="borda", actions=10):
    """Sweep-point rows (POINT_SCHEMA columns) of ``cases``: ``(algorithm, regret, rho)``, R_T lognormal
    around 2 T^rho, and a row at t = 1 that the tables must ignore."""
    rows = []
    for algorithm, kind, rho in cases:
        for T, finals in zip(horizons, synthetic_finals(rng, horizons, runs, rho)):
            for run, value in enumerate(finals):
                rows.append((scenario, algorithm, actions, int(T), run, kind, 1, 0.5))
                rows.append((scenario, algorithm, actions, int(T), run, kind, int(T), float(value)))
    return pd.DataFrame(rows, columns=schemas.POINT_SCHEMA.names)


# --- Local slopes and their bootstrap ---------------------------------------------------------


def test_local_slopes_of_a_broken_power_law_are_each_regimes_exponent_of_means_below_one_and_nan_at_zero():
    # T^0.9 up to 10^4, then T^0.6: the local slopes are 0.9, 0.9, 0.6 (a global fit averages them)
    means = np.where(HORIZONS <= 10_000, HORIZONS**0.9, 10_000**0.3 * HORIZONS**0.6)
    np.testing.assert_allclose(asymptotics.local_slopes(HORIZONS, means), [0.9, 0.9, 0.6], atol=1e-12)
    rho, _ = pointlib.fit_power_law(HORIZONS, means)
    assert 0.6 < rho < 0.9
    # means 0.01, 0.1, 1 at T = 10, 100, 1000: slope 1 and 1 (a mean below 1 has a negative log, not none)
    np.testing.assert_allclose(asymptotics.local_slopes([10, 100, 1000], [0.01, 0.1, 1.0]), [1.0, 1.0], atol=1e-12)
    # a zero mean has no log: both slopes next to it are NaN, the one past them is not
    slopes = asymptotics.local_slopes([10, 100, 1000, 10000], [1.0, 0.0, 1.0, 10.0])
    assert np.isnan(slopes[:2]).all() and slopes[2] == pytest.approx(1.0)


def test_local_slopes_are_computed_in_double_precision_whatever_the_input_types():
    """int16 horizons and float32 means (numpy takes their logs in float32, good to ~1e-7): T = 16, 64, 256 and
    means 1, 4, 16 are exact in both, and the slopes log 4 / log 4 = 1 come out to double precision."""
    horizons = np.array([16, 64, 256], dtype=np.int16)
    slopes = asymptotics.local_slopes(horizons, np.array([1, 4, 16], dtype=np.float32))
    np.testing.assert_allclose(slopes, [1.0, 1.0], rtol=1e-14)
    finals = [np.full(3, 1.0), np.full(3, 4.0), np.full(3, 16.0)]  # equal runs: each interval is the slope
    low, high = asymptotics.bootstrap_local_slopes(horizons, finals, resamples=5, seed=0)
    np.testing.assert_allclose(low, [1.0, 1.0], rtol=1e-14)
    np.testing.assert_allclose(high, [1.0, 1.0], rtol=1e-14)


def slope_intervals_by_definition(horizons, finals, resamples, confidence, seed):
    """The docstring's definition, computed here: the resampled log means (the draws of
    :func:`duelbandits.points.resampled_log_means`), their slopes between consecutive horizons, and
    the (1 -+ confidence) / 2 quantiles of each slope's finite values (NaN where none is)."""
    logs = pointlib.resampled_log_means(finals, resamples, seed)
    x = np.log(np.asarray(horizons, dtype=float))
    low, high = [], []
    for k in range(len(horizons) - 1):
        slopes = (logs[:, k + 1] - logs[:, k]) / (x[k + 1] - x[k])
        finite = slopes[np.isfinite(slopes)]
        q = np.quantile(finite, [(1 - confidence) / 2, (1 + confidence) / 2]) if finite.size else [np.nan, np.nan]
        low.append(q[0])
        high.append(q[1])
    return np.array(low), np.array(high)


def test_bootstrap_interval_uses_only_finite_slopes_is_nan_without_one_and_has_its_defaults():
    """Zeros among the runs at 3000 give some resamples a zero mean (a NaN slope), left out of the
    quantiles; at 30000 every run is 0, so the last slope has no finite value and no interval."""
    finals = synthetic_finals(np.random.default_rng(9), HORIZONS, runs=5, rho=0.6)
    finals[1][:2] = 0.0
    finals[3][:] = 0.0
    low, high = asymptotics.bootstrap_local_slopes(HORIZONS, finals, resamples=200, confidence=0.8, seed=4)
    expected_low, expected_high = slope_intervals_by_definition(HORIZONS, finals, 200, 0.8, 4)
    np.testing.assert_array_equal(low[:2], expected_low[:2])
    np.testing.assert_array_equal(high[:2], expected_high[:2])
    assert np.isfinite(low[:2]).all() and np.isnan(low[2]) and np.isnan(high[2])
    finals = synthetic_finals(np.random.default_rng(8), HORIZONS, runs=6, rho=0.7)  # the defaults: 1000, 95%, seed 0
    expected = slope_intervals_by_definition(HORIZONS, finals, 1000, 0.95, 0)
    np.testing.assert_array_equal(asymptotics.bootstrap_local_slopes(HORIZONS, finals), expected)


def test_bootstrap_local_intervals_cover_the_true_exponent_at_their_level():
    """400 seeded datasets (4 horizons, 40 lognormal runs each, sigma = 0.3), 200 resamples, 95%.

    A local slope is (log m_k - log m_{k-1}) / dx with independent means, so it is normal to within
    the skewness of a 40-run log mean (0.05) and the percentile interval is the normal one with the
    plug-in SE, which is sqrt(39/40) of the true one: coverage 2 Phi(1.960 sqrt(39/40)) - 1 = 0.947,
    minus about 0.003 for the quantile noise of 200 resamples: 0.944. Each interval's coverage over
    400 datasets has sd sqrt(0.944 * 0.056 / 400) = 0.0115; 4 sd = 0.046.
    """
    rng = np.random.default_rng(5)
    covered = np.zeros(3)
    datasets = 400
    for k in range(datasets):
        finals = synthetic_finals(rng, HORIZONS, runs=40, rho=0.75)
        low, high = asymptotics.bootstrap_local_slopes(HORIZONS, finals, resamples=200, confidence=0.95, seed=k)
        covered += (low <= 0.75) & (0.75 <= high)
    np.testing.assert_allclose(covered / datasets, 0.944, atol=0.046)


# --- Verdicts ---------------------------------------------------------------------------------


def test_verdict_rules():
    """Away from the rules' ties (each rule at its exact tie: test_asymptotics_off_defaults); no verdict
    without a theorem, a slope or a finite last interval; ``near`` sets how close converging must be."""
    for slopes, lows, highs, exponent, near, expected in [
        ([0.9, 0.6], [0.8, 0.55], [1.0, 0.65], 2 / 3, 0.1, "at or below"),  # the slope is below e
        ([0.9, 0.4], [0.8, 0.3], [1.0, 0.5], 2 / 3, 0.1, "at or below"),  # the interval lies below e
        ([0.2, 0.13], [0.1, -0.65], [0.3, 0.94], 0.5, 0.1, "inconclusive"),  # below e, but too wide
        ([0.85], [0.8], [0.9], 0.75, 0.1, "above"),  # one interval: nothing to fall from
        ([0.8, 0.7], [0.7, 0.6], [0.9, 0.8], np.nan, 0.1, None),  # no theorem
        ([0.9, 0.85], [0.8, 0.8], [1.0, 0.9], 0.75, 0.1, "converging"),
        ([0.9, 0.85], [0.8, np.nan], [1.0, 0.9], 0.75, 0.1, None),  # no low end
        ([0.9, 0.85], [0.8, 0.8], [1.0, np.nan], 0.75, 0.1, None),  # no high end
        ([0.9, 0.85], [0.8, 0.8], [1.0, np.inf], 0.75, 0.1, None),  # an infinite end
        ([], [], [], 0.5, 0.1, None),  # no slope
        ([0.95, 0.9], [0.9, 0.86], [1.0, 0.94], 0.75, 0.1, "above"),  # falling, but lo - e = 0.11
        ([0.95, 0.9], [0.9, 0.86], [1.0, 0.94], 0.75, 0.2, "converging"),
    ]:
        assert asymptotics.verdict(slopes, lows, highs, exponent, near=near) == expected
    assert asymptotics.verdict([0.8], [0.7], [0.9], None) is None


# --- Tables -----------------------------------------------------------------------------------


CASES = [
    ("ts-borda", "borda", 0.7),
    ("partial-monitoring", "borda", 0.9),
    ("ts-maximin", "maximin", 0.3),
    ("ts-maximin", "borda", 1.0),
]


def test_tables_off_the_defaults_give_the_intervals_of_that_level_and_seed():
    """At confidence 0.9 and seed 7 (the defaults: below): the global interval is the bootstrap's on the
    point's stream (the sweeps'), the local ones the bootstrap's definition on its "local" stream."""
    points = synthetic_points(np.random.default_rng(1), CASES[:1], runs=12)
    exponents, local = asymptotics.long_horizon_tables(points, resamples=100, confidence=0.9, base_seed=7)
    (row,) = exponents.itertuples()
    finals = points[points["t"] == points["horizon"]]
    runs = [finals.loc[finals["horizon"] == T, "cumulative_regret"].to_numpy() for T in HORIZONS]
    seed = name_seed(7, "borda", "ts-borda", "borda", "10")
    assert (row.rho_low, row.rho_high) == pointlib.bootstrap_exponent(HORIZONS, runs, 100, 0.9, seed)
    low, high = slope_intervals_by_definition(
        HORIZONS, runs, 100, 0.9, name_seed(7, "borda", "ts-borda", "borda", "10", "local")
    )
    assert (row.prev_low, row.prev_high, row.last_low, row.last_high) == (low[-2], high[-2], low[-1], high[-1])
    np.testing.assert_array_equal(local.sort_values("horizon")[["ci_low", "ci_high"]].to_numpy()[1:], np.c_[low, high])
    bounds = [theorems.THEOREMS["ts-borda"].bound(10, float(T), c_alpha=1.0) for T in HORIZONS]  # c_alpha's default
    np.testing.assert_allclose(local.sort_values("horizon")["bound"], bounds, rtol=1e-12)


def point_frame(groups, scenario="condorcet", algorithm="ts-maximin"):
    """POINT_SCHEMA rows at t = T only: ``groups`` maps (regret, A) to ``{T: final regrets of the runs}``."""
    rows = [
        (scenario, algorithm, actions, T, run, kind, T, value)
        for (kind, actions), finals in groups.items()
        for T, values in finals.items()
        for run, value in enumerate(values)
    ]
    return pd.DataFrame(rows, columns=schemas.POINT_SCHEMA.names)


def test_tables_with_the_defaults_against_hand_computed_values():
    """TS-Maximin on condorcet at A = 5, T = 100, 400, 1600, with mean 10, 40 and 40 sqrt(2):
    local slopes log 4 / log 4 = 1 and log(sqrt 2) / log 4 = 1/4, and (equally spaced log T) the global
    fit's slope log(4 sqrt 2) / log 16 = 5/8. Maximin (Theorem 4.1's regret, Figure 1's): five equal
    runs, so every resample has the same means and the intervals are the slopes themselves; Borda (no
    theorem for TS-Maximin, not the figure's): five runs at 0.2, 0.6, 1, 1.4 and 1.8 times the mean,
    sample std sqrt((0.64 + 0.16 + 0 + 0.16 + 0.64) / 4) = sqrt(0.4) times the mean (its intervals by the
    bootstrap's definition: the test above, off the defaults)."""
    means = {100: 10.0, 400: 40.0, 1600: 40.0 * math.sqrt(2)}
    groups = {
        ("maximin", 5): {T: [m] * 5 for T, m in means.items()},
        ("borda", 5): {T: [f * m for f in (0.2, 0.6, 1.0, 1.4, 1.8)] for T, m in means.items()},
    }
    exponents, local = asymptotics.long_horizon_tables(point_frame(groups))
    keys = [("borda", 5), ("maximin", 5)]
    assert list(zip(exponents["regret"], exponents["actions"])) == keys
    assert list(zip(local["regret"], local["actions"], local["horizon"])) == [
        (kind, actions, T) for kind, actions in keys for T in means
    ]
    horizons = list(means)
    log_c = math.log(10) + 1.5 * math.log(2) - 0.625 * math.log(400)  # mean log m - rho * mean log T
    for row in exponents.itertuples():
        finals = [groups[(row.regret, row.actions)][T] for T in horizons]
        theorem = row.regret == "maximin"
        assert (row.scenario, row.algorithm, row.paper) == ("condorcet", "ts-maximin", theorem)
        assert row.theorem == "4.1" if theorem else pd.isna(row.theorem)
        assert row.theorem_exponent == 0.5 if theorem else np.isnan(row.theorem_exponent)
        # Gajane et al.'s sqrt(T) on the Maximin regret where a Condorcet winner exists, Saha et al.'s T^(2/3)
        assert row.lower_bound_exponent == (0.5 if theorem else pytest.approx(2 / 3))
        assert (row.horizons, row.runs, row.first_horizon, row.last_horizon) == (3, 5, 100, 1600)
        assert (row.prev_from, row.last_from) == (100, 400)
        assert row.prev_slope == pytest.approx(1.0, rel=1e-12) and row.last_slope == pytest.approx(0.25, rel=1e-12)
        assert row.rho == pytest.approx(0.625, rel=1e-12) and row.log_c == pytest.approx(log_c, rel=1e-12)
        if theorem:  # five equal runs: every resample has the same means, so the interval is the fit, by hand
            assert (row.rho_low, row.rho_high) == pytest.approx((0.625, 0.625), rel=1e-12)
        else:  # wiring only (bootstrap_exponent is checked by hand in test_points): this point's seed stream
            seed = name_seed(0, "condorcet", "ts-maximin", row.regret, str(row.actions))
            assert (row.rho_low, row.rho_high) == pointlib.bootstrap_exponent(horizons, finals, 1000, 0.95, seed)
        if theorem:
            assert (row.prev_low, row.prev_high) == pytest.approx((1.0, 1.0), rel=1e-12)
            assert (row.last_low, row.last_high) == pytest.approx((0.25, 0.25), rel=1e-12)
            bound = row.actions / math.sqrt(2) * math.sqrt(math.log(row.actions)) * math.sqrt(1600)  # Theorem 4.1
            assert row.last_ratio == pytest.approx(means[1600] / bound, rel=1e-12)
            assert row.verdict == "at or below"  # 1/4 <= 1/2, an interval of width 0
        else:
            assert np.isnan(row.last_ratio) and pd.isna(row.verdict)
        assert (row.near, row.confidence, row.resamples) == (0.1, 0.95, 1000)
    for row in local.itertuples():
        finals = groups[(row.regret, row.actions)][row.horizon]
        k = horizons.index(row.horizon)
        assert row.runs == len(finals) and row.mean == pytest.approx(means[row.horizon], rel=1e-12)
        assert row.std == (0.0 if row.regret == "maximin" else pytest.approx(means[row.horizon] * math.sqrt(0.4)))
        if row.regret == "maximin":
            bound = row.actions / math.sqrt(2) * math.sqrt(math.log(row.actions)) * math.sqrt(row.horizon)
            assert row.bound == pytest.approx(bound, rel=1e-12)
            assert row.ratio == pytest.approx(means[row.horizon] / bound, rel=1e-12)
        else:
            assert np.isnan(row.bound) and np.isnan(row.ratio)
        assert (row.paper, row.theorem_exponent == 0.5) == ((row.regret == "maximin"),) * 2
        assert (row.confidence, row.resamples) == (0.95, 1000)
        if k == 0:
            assert pd.isna(row.from_horizon) and np.isnan([row.slope, row.ci_low, row.ci_high]).all()
            continue
        assert row.from_horizon == horizons[k - 1]
        assert row.slope == pytest.approx([1.0, 0.25][k - 1], rel=1e-12)


def test_table_rows_are_sorted_by_regret_before_actions_empty_without_a_final_step_refused_with_one_horizon():
    """The points come sorted by A before the regret (check_points); the tables' rows by the regret first.
    Curves cut before T give empty tables of the schemas' columns."""
    groups = {(kind, actions): {100: [1.0], 400: [2.0]} for actions in (7, 5) for kind in ("maximin", "borda")}
    exponents, local = asymptotics.long_horizon_tables(point_frame(groups), resamples=10)
    keys = [("borda", 5), ("borda", 7), ("maximin", 5), ("maximin", 7)]
    assert list(zip(exponents["regret"], exponents["actions"])) == keys
    assert list(zip(local["regret"], local["actions"])) == [key for key in keys for _ in (100, 400)]
    points = point_frame({("borda", 5): {100: [1.0], 400: [2.0]}})
    points["t"] = points["horizon"] // 2  # curves cut before T: no final regret R_T
    exponents, local = asymptotics.long_horizon_tables(points, resamples=10)
    assert exponents.empty and list(exponents.columns) == schemas.ASYMPTOTIC_EXPONENT_SCHEMA.names
    assert local.empty and list(local.columns) == schemas.ASYMPTOTIC_LOCAL_SCHEMA.names
    with pytest.raises(pointlib.PointError, match="at least two horizons"):
        asymptotics.long_horizon_tables(point_frame({("borda", 5): {100: [1.0]}}))
    # a scenario without figures has no paper regret
    points = point_frame({("copeland", 5): {100: [1.0], 400: [2.0]}}, scenario="plugin-scenario", algorithm="dts")
    exponents, local = asymptotics.long_horizon_tables(points, resamples=10)
    assert exponents["paper"].tolist() == [False] and local["paper"].tolist() == [False, False]


def test_markdown_lists_the_theorems_regret_first_with_ratios_at_every_horizon():
    points = synthetic_points(np.random.default_rng(2), CASES)
    exponents, local = asymptotics.long_horizon_tables(points, resamples=50, base_seed=1)
    md = asymptotics.asymptotics_page(exponents, local).markdown()
    lines = md.splitlines()
    header = next(line for line in lines if line.startswith("| scenario | algorithm | regret | theorem"))
    assert "local 3x10^3-10^4" in header and "local 10^4-3x10^4" in header
    assert [f"R_T/bound {asymptotics.horizon_label(T)}" in header for T in HORIZONS] == [True] * 4
    rows = [line for line in lines if line.startswith("| borda | ts-maximin |")]
    # the first table: Maximin (Theorem 4.1's) before the figures' Borda regret, then the every-interval table
    assert rows[0].startswith("| borda | ts-maximin | Maximin (theorem's) | 1/2 (Thm 4.1) |")
    assert rows[1].startswith("| borda | ts-maximin | Borda | - |")
    assert len(rows) == 4
    verdict = exponents.set_index(["algorithm", "regret"]).loc[("ts-borda", "borda"), "verdict"]
    assert f"| {verdict} |" in next(line for line in lines if line.startswith("| borda | ts-borda | Borda | 2/3"))
    two = synthetic_points(np.random.default_rng(2), CASES, horizons=HORIZONS[:2])  # one interval, none before it
    page = asymptotics.asymptotics_page(*asymptotics.long_horizon_tables(two, resamples=10))
    assert "local (previous)" in page.markdown()
    for T, label in [(1000, "10^3"), (3000, "3x10^3"), (10_000_000, "10^7"), (2000, "2,000"), (200, "200")]:
        assert asymptotics.horizon_label(T) == label


def test_the_page_of_a_hand_made_run_is_every_cell_and_the_note():
    """TS-Maximin on condorcet at A = 5 as in the hand-computed test above (3 equal runs: the intervals are
    the slopes 1 and 1/4 and the fit 5/8), R_T / bound 10 / 44.853, 40 / 89.707, 56.569 / 179.41 by Theorem
    4.1's (A / sqrt 2) sqrt(T log A); its Borda regret is neither its theorem's nor Figure 1's: not listed.
    DTS after it (the paper's order, not the alphabet's), R_T = 3 at every T, no theorem."""
    means = {100: 10.0, 400: 40.0, 1600: 40.0 * math.sqrt(2)}
    runs = [("ts-maximin", kind, T, m * f) for kind, f in (("maximin", 1), ("borda", 2)) for T, m in means.items()]
    runs += [("dts", "maximin", T, 3.0) for T in means]
    rows = [("condorcet", a, 5, T, r, kind, T, value) for a, kind, T, value in runs for r in range(3)]
    exponents, local = asymptotics.long_horizon_tables(pd.DataFrame(rows, columns=schemas.POINT_SCHEMA.names), 10)
    assert local.index.equals(pd.RangeIndex(9))
    one, every = "1.000 [1.000, 1.000]", "0.250 [0.250, 0.250]"
    zero = "0.000 [0.000, 0.000]"
    assert asymptotics.asymptotics_page(exponents, local).markdown().splitlines() == [
        "# Long horizons: local regret exponents",
        "",
        "| scenario | algorithm | regret | theorem | local 100-400 | local 400-1,600 | global rho | verdict | "
        "R_T/bound 100 | R_T/bound 400 | R_T/bound 1,600 |",
        "| --- | --- | --- | --- | ---: | ---: | ---: | --- | ---: | ---: | ---: |",
        f"| condorcet | ts-maximin | Maximin | 1/2 (Thm 4.1) | {one} | {every} | 0.625 [0.625, 0.625] | at or below "
        "| 0.22 | 0.45 | 0.32 |",
        f"| condorcet | dts | Maximin | - | {zero} | {zero} | {zero} | - | - | - | - |",
        "",
        "## Local exponent of every interval",
        "",
        "| scenario | algorithm | regret | 100-400 | 400-1,600 |",
        "| --- | --- | --- | ---: | ---: |",
        f"| condorcet | ts-maximin | Maximin | {one} | {every} |",
        f"| condorcet | dts | Maximin | {zero} | {zero} |",
        "",
        "A = 5; runs per horizon: 3; every run tuned to its own T. Local exponent: slope of log mean R_T between "
        "consecutive horizons; global rho: least-squares slope over all horizons. Intervals: 95% percentile "
        "bootstrap, 10 resamples of the runs within each horizon. Verdict against the theorem's exponent e, with "
        "s the last local exponent and [lo, hi] its interval: 'inconclusive' if hi - lo > 0.2 (too wide to "
        "tell); else 'at or below' if s <= e; 'consistent' if s > e but lo <= e; 'converging' if lo > e, s is "
        "below the local exponent before it and lo - e <= 0.1; 'above' otherwise; '-' where no theorem bounds "
        "the regret. R_T/bound: mean R_T over the theorem's bound tuned to T ('-' where no theorem bounds that "
        "regret or T misses its requirement). Worst-case lower bounds (rates only, drawn in the figures): "
        "Omega(K^(1/3) T^(2/3)), Saha, Koren & Mansour, Adversarial Dueling Bandits, ICML 2021; "
        "Omega(sqrt(K T)), Gajane, Urvoy & Clerot, A Relative Exponential Weighing Algorithm for Adversarial "
        "Utility-based Dueling Bandits, ICML 2015.",
    ]


def test_regrets_shown_put_the_theorems_regret_first_then_the_figures():
    """The regrets from the registry's documentation: Figure 1 (condorcet) shows Maximin for TS-Maximin, ISS
    and DTS, Exp3.P for SparringExp3.P; Figure 2 (borda) the Borda regret for all; elsewhere the target's."""
    for scenario, algorithm, kinds in [
        ("condorcet", "ts-maximin", ["maximin"]),  # Theorem 4.1's regret is Figure 1's: listed once
        ("borda", "ts-maximin", ["maximin", "borda"]),  # the theorem's, then Figure 2's
        ("borda", "sparring-exp3p", ["exp3p", "borda"]),
        ("condorcet", "dts", ["maximin"]),  # no theorem: the figure's regret
        ("cyclic", "dts", ["copeland"]),  # no Condorcet winner: the winner DTS is built to find
        ("no-such-scenario", "dts", ["copeland"]),  # a scenario without figures: the same
        ("no-such-scenario", "ts-borda", ["borda"]),
        ("condorcet", "no-such-algorithm", []),
    ]:
        assert asymptotics.regrets_shown(scenario, algorithm) == kinds


def test_lower_bounds_apply_by_regret_and_need_a_condorcet_winner_for_the_maximin_regret():
    assert asymptotics.lower_bound("cyclic", "borda").exponent == pytest.approx(2 / 3)
    assert asymptotics.lower_bound("borda", "exp3p").exponent == 0.5
    assert asymptotics.lower_bound("cyclic", "maximin") is None
    assert asymptotics.lower_bound("borda", "copeland") is None


# --- Figure -----------------------------------------------------------------------------------


def test_figure_draws_every_algorithm_with_its_theorem():
    points = synthetic_points(np.random.default_rng(3), CASES)
    exponents, local = asymptotics.long_horizon_tables(points, resamples=50, base_seed=1)
    fig = asymptotics_figure("borda", local, exponents, [])  # built, not saved (saved: the CLI test)
    gids = {artist.get_gid() for ax in fig.axes for artist in ax.get_children()}
    for algorithm, kind, _ in CASES:
        assert f"local:{algorithm}:{kind}" in gids
    assert {"theorem:ts-borda", "theorem:partial-monitoring", "theorem:ts-maximin", "lower:ts-borda"} <= gids


# --- CLI --------------------------------------------------------------------------------------


def table_args(tmp_path, points, *extra):
    outs = [a for k in ("exponents", "local", "markdown") for a in (f"--{k}", str(tmp_path / f"out-{k}"))]
    defaults = ["--resamples", "40", "--confidence", "0.95", "--seed", "0", "--c-alpha", "1.0", "--near", "0.1"]
    return ["asymptotics-table", *map(str, points), *defaults, *extra, *outs]  # extra: a later value wins


@pytest.fixture(scope="module")
def point_files(tmp_path_factory):
    """PM and TS-Borda on borda, A = 6, at T = 300, 600, 1200 (PM's Theorem 4.4 needs T > 69.6); read only."""
    folder, paths = tmp_path_factory.mktemp("points"), []
    for algorithm in ("partial-monitoring", "ts-borda"):
        for T in (300, 600, 1200):
            paths.append(folder / f"{algorithm}-{T}.parquet")
            args = ["--scenario", "borda", "--actions", "6", "--seed", "1", "--algorithm", algorithm]
            args += ["--horizon", str(T), "--runs", "0-2", "--points", "4", "--out", str(paths[-1])]
            assert cli.main(["sweep-point", *args]) == 0
    return paths


def test_cli_table_and_figure_write_provenance_and_digest(tmp_path, point_files):
    assert cli.main(table_args(tmp_path, point_files, "--seed", "9", "--confidence", "0.8")) == 0
    local_path, exponents_path = tmp_path / "out-local", tmp_path / "out-exponents"  # schemas: test_written_tables
    prov = storage.read_provenance(exponents_path)
    sources = sorted(storage.read_provenance(p)["config_sha256"] for p in point_files)
    provenance.check(exponents_path, prov, table="asymptotics-exponents", points=sources, seed=9, confidence=0.8)
    provenance.check(local_path, storage.read_provenance(local_path), table="asymptotics-local", points=sources)
    exponents = pq.read_table(exponents_path).to_pandas()
    assert set(exponents["algorithm"]) == {"partial-monitoring", "ts-borda"} and set(exponents["horizons"]) == {3}
    assert "| borda | ts-borda | Borda | 2/3 (Thm 4.2) |" in (tmp_path / "out-markdown").read_text()
    out = [str(tmp_path / "f.pdf"), str(tmp_path / "f.png")]
    args = ["asymptotics-figure", "--scenario", "borda", "--local", str(local_path), "--exponents"]
    assert cli.main([*args, str(exponents_path), "--out", *out]) == 0
    digest = digests.data_digest(
        {"local": local_path, "exponents": exponents_path}, figure="asymptotics", scenario="borda"
    )
    assert digests.figure_data_digest(out[0]) == digests.figure_data_digest(out[1]) == digest


def test_cli_table_refuses_a_bootstrap_larger_than_memory(tmp_path, point_files, capsys):
    assert cli.main(table_args(tmp_path, point_files, "--resamples", "2000000000")) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "--resamples 2000000000" in err and "more than the limit" in err
    assert not (tmp_path / "out-local").exists()
