"""Long horizons off the defaults and at the boundaries: the local-slope bootstrap at the smallest increase
of the horizons, one resample and levels just inside (0, 1); the verdict at the exact ties of its rules
(dyadic numbers, so that the ties are exact in floats); the tables' ``runs`` when the runs differ per
horizon (the fewest anywhere: first, middle or last), with means, stds and bounds against hand
computations; the Markdown note's runs per horizon; the tables' verdict following ``near``."""

import math
import re

import numpy as np
import pandas as pd
import pytest

from duelbandits import schemas, theorems
from duelbandits.studies.asymptotics import analysis as asymptotics

# --- bootstrap_local_slopes ----------------------------------------------------------------------


def finals_for(horizons, runs=5):
    return [np.linspace(1.0, 2.0, runs) * float(T) ** 0.5 for T in horizons]


def test_local_slope_bootstrap_accepts_the_smallest_increase_one_resample_and_levels_just_inside():
    """Finite intervals at the boundaries; one resample gives an interval of one point."""
    for horizons in [[10, 11], [1, 2], [999_999, 1_000_000], [2, 3, 4, 2**31 - 1]]:
        low, high = asymptotics.bootstrap_local_slopes(horizons, finals_for(horizons), resamples=50, seed=2)
        assert low.shape == high.shape == (len(horizons) - 1,)
        assert np.isfinite(low).all() and np.isfinite(high).all() and (low <= high).all()
    for resamples, confidence in [(1, 0.5), (10, 1e-9), (10, 1 - 1e-9)]:
        low, high = asymptotics.bootstrap_local_slopes([10, 20], finals_for([10, 20]), resamples, confidence)
        assert np.isfinite(low).all() and (low <= high).all()
    low, high = asymptotics.bootstrap_local_slopes([10, 20, 40], finals_for([10, 20, 40]), resamples=1, seed=3)
    np.testing.assert_array_equal(low, high)


# --- The verdict at the exact ties of its rules ---------------------------------------------------

E, NEAR = 0.5, 0.125  # dyadic: every sum below is exact
UP = np.nextafter


def test_verdict_at_the_exact_ties_of_its_rules():
    for slopes, lows, highs, expected in [
        # width: inconclusive only when hi - lo > 2 near
        ([0.75, 0.5], [0.375, 0.25], [0.75, 0.5], "at or below"),  # hi - lo = 0.25 = 2 near
        ([0.75, 0.5], [0.375, 0.25], [0.75, UP(0.5, 1.0)], "inconclusive"),  # one float wider
        # the last slope at e is "at or below"; one float above it is not
        ([0.75, 0.5], [0.375, 0.4375], [0.75, 0.5625], "at or below"),
        ([0.75, UP(0.5, 1.0)], [0.375, 0.4375], [0.75, 0.5625], "consistent"),
        # lo at e: consistent; lo one float above e, falling, within near: converging
        ([0.75, 0.5625], [0.375, 0.5], [0.75, 0.625], "consistent"),
        ([0.75, 0.5625], [0.375, UP(0.5, 1.0)], [0.75, 0.625], "converging"),
        # lo - e exactly near: converging; one float more: above
        ([0.75, 0.6875], [0.375, 0.625], [0.75, 0.75], "converging"),
        ([0.75, 0.6875], [0.375, UP(0.625, 1.0)], [0.75, 0.75], "above"),
        # not falling: the last slope equal to the one before is above
        ([0.6875, 0.6875], [0.375, 0.625], [0.75, 0.75], "above"),
        ([UP(0.6875, 1.0), 0.6875], [0.375, 0.625], [0.75, 0.75], "converging"),
    ]:
        assert asymptotics.verdict(slopes, lows, highs, E, near=NEAR) == expected


# --- Tables with runs that differ per horizon -----------------------------------------------------

HORIZONS = [1000, 3000, 10_000]


def hand_points(runs_per_horizon, algorithm="ts-borda", horizons=HORIZONS, kind="borda", actions=7):
    """POINT_SCHEMA rows: run r at horizon T ends at ``sqrt(T) (1 + r / 10)``; one row at t = 1 too."""
    rows, scenario = [], "borda"
    assert len(horizons) == len(runs_per_horizon)
    for T, runs in zip(horizons, runs_per_horizon):
        for r in range(runs):
            rows.append((scenario, algorithm, actions, T, r, kind, 1, 0.25))
            rows.append((scenario, algorithm, actions, T, r, kind, T, math.sqrt(T) * (1 + r / 10)))
    return pd.DataFrame(rows, columns=schemas.POINT_SCHEMA.names)


def hand_mean_std(T, runs):
    values = [math.sqrt(T) * (1 + r / 10) for r in range(runs)]
    mean = math.fsum(values) / runs
    return mean, math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (runs - 1))


RUN_COUNTS = [(2, 5, 7), (5, 2, 7), (7, 5, 2), (4, 4, 4), (9, 3, 3)]


def test_local_rows_hold_each_horizons_runs_mean_and_std_and_exponents_the_fewest_runs():
    for runs in RUN_COUNTS:
        exponents, local = asymptotics.long_horizon_tables(hand_points(runs), resamples=20, confidence=0.8, c_alpha=0.7)
        local = local.sort_values("horizon")
        assert local["horizon"].tolist() == HORIZONS
        assert local["runs"].tolist() == list(runs)
        theorem = theorems.THEOREMS["ts-borda"]
        for row in local.itertuples():
            mean, std = hand_mean_std(row.horizon, row.runs)
            assert row.mean == pytest.approx(mean, rel=1e-12) and row.std == pytest.approx(std, rel=1e-12)
            assert theorem.holds(7, row.horizon, 0.7)  # Theorem 4.2 applies at every horizon here: tuned to 0.7
            assert row.bound == pytest.approx(theorem.bound(7, float(row.horizon), c_alpha=0.7), rel=1e-12)
            assert row.ratio == pytest.approx(mean / row.bound, rel=1e-12)
        assert exponents["runs"].item() == min(runs)  # the slopes of the means: tests/test_asymptotics.py


# --- The Markdown note: the runs of every horizon can be read off it --------------------------------


def note_runs(text, horizons):
    """``{T: runs}`` from the note's "runs per horizon: U (n at L, ...)" (U at every horizon not listed)."""
    from duelbandits.studies.asymptotics.analysis import horizon_label

    match = re.search(r"runs per horizon: (\d+)(?: \(([^)]*)\))?;", text)
    assert match, text
    usual, others = int(match.group(1)), match.group(2) or ""
    labels = {horizon_label(T): T for T in horizons}
    named = {labels[label]: int(n) for n, label in re.findall(r"(\d+) at ([^,]+)", others)}
    return usual, {T: named.get(T, usual) for T in horizons}


def test_the_notes_runs_per_horizon_give_every_horizons_count_and_the_most_common_as_usual_the_largest_if_tied():
    for runs in [(40, 40, 20), (20, 40, 40), (4, 4, 4), (3, 5, 7)]:
        exponents, local = asymptotics.long_horizon_tables(hand_points(runs), resamples=10)
        usual, per_horizon = note_runs(asymptotics.asymptotics_page(exponents, local).markdown(), HORIZONS)
        assert per_horizon == dict(zip(HORIZONS, runs))
        counts = {n: runs.count(n) for n in runs}
        assert counts[usual] == max(counts.values())
    for runs, usual in [((2, 2, 6, 6), 6), ((6, 6, 2, 2), 6), ((3, 5, 7, 9), 9)]:
        horizons = [1000, 3000, 10_000, 30_000]
        exponents, local = asymptotics.long_horizon_tables(hand_points(runs, horizons=horizons), resamples=10)
        got, per_horizon = note_runs(asymptotics.asymptotics_page(exponents, local).markdown(), horizons)
        assert got == usual and per_horizon == dict(zip(horizons, runs))


def test_the_tables_verdict_follows_near():
    """TS-Maximin (e = 1/2) with equal runs (intervals of width 0) and means 10, 40, 40 * 4^(5/8) at T = 100,
    400, 1600: local slopes 1 then 5/8, falling, lo - e = 1/8: above for near = 0.1, converging for 0.2."""
    means = {100: 10.0, 400: 40.0, 1600: 40.0 * 4**0.625}
    rows = [("condorcet", "ts-maximin", 5, T, r, "maximin", T, m) for T, m in means.items() for r in range(3)]
    points = pd.DataFrame(rows, columns=schemas.POINT_SCHEMA.names)
    exponents, _ = asymptotics.long_horizon_tables(points, resamples=10)
    assert exponents["verdict"].item() == "above" and exponents["near"].item() == 0.1
    exponents, _ = asymptotics.long_horizon_tables(points, resamples=10, near=0.2)
    assert exponents["verdict"].item() == "converging" and exponents["near"].item() == 0.2
