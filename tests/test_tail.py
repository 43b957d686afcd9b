"""The maximin-tail target (duelbandits.studies.tail): the trapped rule, the phase-2 selection, and the two-phase
stratified estimator by hand (its law: tests/test_regret.py's coverage test; the prefix property it rests on: the
contract's, tests/test_contract.py)."""

import math

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from duelbandits import regret, scenarios, schemas, theorems, winners
from duelbandits.errors import InputError
from duelbandits.simulation import name_seed, run_seed, simulate
from duelbandits.studies.tail import analysis as tail
from duelbandits.studies.tail import family as tail_family

SEED = 20191114
NAN = math.nan


@pytest.fixture(scope="module")
def borda():
    return scenarios.make_scenario("borda", actions=10, seed=SEED).matrix


def test_trapped_at_its_boundary():
    """Trapped when the last interval's mean regret per step is >= share * delta (share 1/2 by default):
    at it, and just below."""
    delta, share = 0.2, 0.5
    t = np.array([10, 20])
    at = np.array([[0.0, 10 * share * delta]])
    assert tail.trapped(t, at, delta, share)[0, 1] and tail.trapped(t, at, delta)[0, 1]
    below = np.array([[0.0, np.nextafter(10 * share * delta, 0)]])
    assert not tail.trapped(t, below, delta, share)[0, 1] and not tail.trapped(t, below, delta)[0, 1]
    assert tail.trapped(t, below, delta, share=0.49)[0, 1]


def test_family_member_has_its_trap_exactly_when_the_borda_condition_holds():
    """Action 1 is the Borda winner iff (A - 2)(strength - 1/2 - others_gap) > 2 gap."""
    from duelbandits import winners

    for A in (3, 4, 5, 6):
        for gap in (0.1, 0.2, 0.3, 0.4):
            X = tail_family.family_matrix(A, gap, 0.1, 0.95)
            np.testing.assert_allclose(X + X.T, 1.0)
            assert winners.condorcet_winner(X) == 0 and winners.maximin_winners(X).tolist() == [0]
            has_trap = (A - 2) * (0.95 - 0.5 - 0.1) > 2 * gap
            assert (winners.borda_winners(X).tolist() == [1]) == has_trap, (A, gap)


# --- The family, sharpened: the crossing, the growth exponent past it, the smallest A / largest gap ------


T3, BELOW = [10, 100, 1000], np.array([0.2, 0.5, 0.99])
CROSSINGS = [  # t, ratio, its interval's low and high ends -> (crossing, from, to): where ratio, high, low reach 1
    # ratio 0.5 -> 2.0 between t = 100 and 1000 reaches 1 a third of the way in log t; the high end (x 1.5: 0.75 ->
    # 3.0) a ninth of the way; the low end (x 0.5) exactly at the grid step 1000
    ([10, 100, 1000, 10000], np.array([0.1, 0.5, 2.0, 4.0]), 0.5, 1.5, (10 ** (2 + 1 / 3), 10 ** (2 + 1 / 9), 1000)),
    (T3, BELOW, 0.5, 1.001, (NAN, NAN, NAN)),  # no crossing on the grid
    (T3, BELOW, 0.5, 1.02, (NAN, 10 ** (2 + 0.49 / 0.4998), NAN)),  # the high end reaches 1 (0.51 -> 1.0098)
    (T3, np.array([1.0, 1.5, 3.0]), 0.5, 2, (10, 10, 10 ** (2 + 1 / 3))),  # above at the first step: that step
    # crossed, not yet shown exceeded: the low end never reaches 1 on the grid
    (T3, np.array([0.5, 1.2, 1.5]), np.array([0.2, 5 / 12, 0.6]), np.array([1.8, 5 / 3, 4 / 3]),
     (10 ** (1 + 5 / 7), 10 ** (1 + 1 / 11), NAN)),
]  # fmt: skip


def test_crossing_interpolates_in_log_t_between_the_grid_steps():
    for t, ratio, low, high, expected in CROSSINGS:
        got = tail_family.crossing(t, ratio, low * ratio, high * ratio)
        assert got == pytest.approx(expected, rel=1e-12, nan_ok=True), (ratio, low, high)


def test_growth_exponent_needs_a_crossing_and_two_steps_past_it():
    t = np.array([10.0, 100.0, 1000.0])
    R = np.array([[1.0, 10.0, 100.0], [2.0, 20.0, 200.0]])
    assert all(math.isnan(v) for v in tail_family.growth_exponent(t, R, math.nan, 10, 0.95, 0))
    assert all(math.isnan(v) for v in tail_family.growth_exponent(t, R, 101.0, 10, 0.95, 0))  # one step past it
    assert tail_family.growth_exponent(t, R, 100.0, 10, 0.95, 0)[0] == pytest.approx(1.0)  # the last two steps


def test_family_extremes_within_the_grid():
    family = pd.DataFrame({"actions": [3, 4, 4, 4, 5, 5, 6], "gap": [0.1, 0.1, 0.2, 0.3, 0.3, 0.4, 0.1]})
    family["verdict"] = ["below", "exceeded", "inconclusive", "exceeded", "exceeded", "below", "no trap"]
    assert tail_family.family_extremes(family) == ((4, [0.1, 0.3]), (0.3, [4, 5]))
    assert tail_family.family_extremes(family.assign(verdict="below")) is None


PHASE_ONE = {0: [0.0, 1.0], 1: [0.0, 0.5], 2: [0.0, 0.1], 3: [0.0, 0.0]}
"""Runs 0-3 at t = 1, 2 (delta 1, share 1/2: trapped at t = 2 when R_2 - R_1 >= 1/2): runs 0 (slope 1) and 1
(slope 1/2, the boundary) trapped, runs 2 (0.1) and 3 (0) free."""


def _phase_two_curves(strata=("trapped", "trapped", "free")):
    """Phase 2 of runs 0, 1 (trapped) and 2 (free) on t = 1, 2, 4; at t = 4: 3, 1.5 and 0.1."""
    R = {0: [0.0, 1.0, 3.0], 1: [0.0, 0.5, 1.5], 2: [0.0, 0.1, 0.1]}
    rows = [
        (run, stratum, t, r) for (run, values), stratum in zip(R.items(), strata) for t, r in zip((1, 2, 4), values)
    ]
    return pd.DataFrame(rows, columns=["run", "stratum", "t", "cumulative_regret"])


def test_phase_two_estimate_by_hand():
    """At t = 4 > T1 = 2, strata W = 2/4, 2/4: trapped values 3, 1.5 (mean 2.25, s^2 = 1.125, all of
    the stratum: no phase-2 term), free value 0.1 (one of two). Estimate 0.5 * 2.25 + 0.5 * 0.1 = 1.175;
    S^2 = 0.5 * 1.125 + 0.5 * 1.075^2 + 0.5 * 1.075^2 = 1.718125, se = sqrt(S^2 / 4), bound 21.460. The trapped
    fraction: slopes over (2, 4] are 1, 1/2 (trapped) and 0: estimate 1/2, S^2 = 0.25, se = 1/4. Phase 1 at
    t = 2: R = 1, 0.5, 0.1, 0 (mean 0.4, squares of deviations 0.62, se sqrt(0.62 / 3) / 2), two trapped."""
    table = tail.estimates(_rows(PHASE_ONE), _phase_two_curves(), 10, 1.0, 0.5, 0.95)
    assert table["source"].tolist() == ["phase 1 (all runs)"] * 2 + ["phase 2 (stratified)"]
    assert table["t"].tolist() == [1, 2, 4]  # steps up to T1 come from phase 1 only
    assert table["mean"].tolist() == pytest.approx([0.0, 0.4, 1.175], rel=1e-12)
    assert table["trapped"].tolist() == pytest.approx([0.0, 0.5, 0.5], rel=1e-12)
    z = 1.959963984540054  # the two-sided 0.95 normal quantile, written out
    se = math.sqrt(1.718125 / 4)
    assert table["se"].tolist() == pytest.approx([0.0, math.sqrt(0.62 / 3) / 2, se], rel=1e-12)
    # the interval, bound and ratio columns are computed from these for both phases at once (the phase-1 test)
    assert table["trapped_low"].tolist() == pytest.approx([0.0, 0.5 - z * 0.25, 0.5 - z * 0.25], rel=1e-12)
    assert table["verdict"].tolist() == ["below"] * 3 and (table["confidence"] == 0.95).all()
    assert table[["runs", "trapped_runs", "free_runs_continued"]].values.tolist() == [[4, 2, 0], [4, 2, 0], [4, 2, 1]]
    one_step = _phase_two_curves().query("t == 4")  # each run's stratum on its one row: the same mean at t = 4
    assert tail.estimates(_rows(PHASE_ONE), one_step, 10, 1.0, 0.5, 0.95)["mean"].iloc[-1] == pytest.approx(1.175)
    # phase 1 itself to T1 = 4: no step of phase 2 lies past it
    R = {0: [0.0, 1.0, 3.0], 1: [0.0, 0.5, 1.5], 2: [0.0, 0.1, 0.1], 3: [0.0, 0.0, 0.0]}
    assert tail.estimates(_rows(R, (1, 2, 4)), _phase_two_curves(), 10, 1.0, 0.5, 0.95)["t"].tolist() == [1, 2, 4]


# --- The parts by hand (issue 33's mutation run of the module) -------------------------------------

FAMILY_4 = [[0.5, 0.6, 0.6, 0.6], [0.4, 0.5, 0.95, 0.95], [0.4, 0.05, 0.5, 0.5], [0.4, 0.05, 0.5, 0.5]]
"""family_matrix(4, gap=0.1, others_gap=0.1, strength=0.95), written out: row minima (diagonal 1/2
included) 0.5, 0.4, 0.05, 0.05, so action 0 is the Maximin winner; row sums 2.3, 2.8, 1.45, 1.45, so
action 1 is the Borda winner; delta = X[0, 1] - 1/2 = 0.1."""


def test_family_matrix_by_value_just_inside_its_ranges_and_refused_at_each_open_end():
    np.testing.assert_allclose(tail_family.family_matrix(4, 0.1, 0.1, 0.95), FAMILY_4, rtol=0, atol=1e-15)
    X = tail_family.family_matrix(3, 0.499, 0.001, 0.501)
    np.testing.assert_allclose(X, [[0.5, 0.999, 0.501], [0.001, 0.5, 0.501], [0.499, 0.499, 0.5]], atol=1e-15)
    with pytest.raises(tail.TailError, match="the family needs A >= 3, got 2"):
        tail_family.family_matrix(2, 0.1, 0.1, 0.9)
    for args in [(0.0, 0.1, 0.9), (0.5, 0.1, 0.9), (0.1, 0.0, 0.9), (0.1, 0.5, 0.9), (0.1, 0.1, 0.5), (0.1, 0.1, 1.0)]:
        with pytest.raises(tail.TailError, match=f"got {', '.join(map(str, args))}$"):
            tail_family.family_matrix(3, *args)


def test_interval_slopes_by_hand_for_one_run_and_for_several():
    """t = 2, 5, 10: intervals (0, 2], (2, 5], (5, 10] of lengths 2, 3, 5."""
    t = [2, 5, 10]
    np.testing.assert_allclose(tail.interval_slopes(t, [1.0, 4.0, 4.0]), [0.5, 1.0, 0.0])
    np.testing.assert_allclose(tail.interval_slopes(t, [[1.0, 4.0, 4.0], [2.0, 2.0, 7.0]]), [[0.5, 1, 0], [1, 0, 1]])


def test_selection_draws_the_documented_seeded_subsample():
    """The free runs 10..29, 4 of them: rng = default_rng(SeedSequence([SEED, int.from_bytes(b"maximin-tail",
    "little"), int.from_bytes(b"others", "little")])) and rng.choice(runs, 4, replace=False), sorted: 16, 20,
    25, 29 (derived once from that definition with numpy alone). Asking for all of them, or more, gives
    each once."""
    held, sampled = tail.select_continued([7, 3], np.arange(10, 30), 4, SEED)
    assert held.tolist() == [3, 7] and sampled.tolist() == [16, 20, 25, 29]
    again = tail.select_continued([3, 7], np.arange(29, 9, -1), 4, SEED)[1]
    assert again.tolist() == [16, 20, 25, 29]  # the order the runs come in does not matter
    assert held.dtype == np.int64 and sampled.dtype == np.int64
    assert tail.select_continued([], np.arange(10, 30), 20, SEED)[1].tolist() == list(range(10, 30))
    assert tail.select_continued([], np.arange(10, 30), 99, SEED)[1].tolist() == list(range(10, 30))
    held, sampled = tail.select_continued([1], np.arange(10, 30), 0, SEED)
    assert held.tolist() == [1] and sampled.tolist() == [] and sampled.dtype == np.int64
    held, sampled = tail.select_continued([], [], 5, SEED)  # run numbers stay integers when there are none
    assert held.dtype == np.int64 and sampled.dtype == np.int64 and held.size == sampled.size == 0


def test_job_shares_are_every_jobs_th_run_from_the_job_on():
    runs = np.arange(10)
    assert [tail.job_share(runs, 4, k).tolist() for k in range(4)] == [[0, 4, 8], [1, 5, 9], [2, 6], [3, 7]]
    assert tail.job_share(runs, 1, 0).tolist() == list(range(10))


def test_posterior_counts_by_hand():
    """Steps (I, J, outcome): (0, 1, 1) gives wins[0, 1] += 1; (1, 1, 0) a self-duel, nothing; (2, 0, 1)
    wins[2, 0] += 1; (0, 2, 0) wins[2, 0] += 1; the fifth step (1, 0, 1), wins[1, 0] += 1, lies past upto = 4."""
    I, J, o = [0, 1, 2, 0, 1], [1, 1, 0, 2, 0], [1, 0, 1, 0, 1]
    assert tail.posterior_counts(3, I, J, o, 4).tolist() == [[0, 1, 0], [0, 0, 0], [2, 0, 0]]
    assert tail.posterior_counts(3, I, J, o, 5).tolist() == [[0, 1, 0], [1, 0, 0], [2, 0, 0]]
    assert tail.posterior_counts(2, I, J, o, 0).tolist() == [[0, 0], [0, 0]]
    assert tail.posterior_counts(3, I, J, o, 5).dtype == np.int64  # counts


def test_escape_probabilities_on_a_posterior_with_a_known_answer():
    """Action 2 lost 10^6 duels to each of 0 and 1, which never met: its row minimum is about 0, and rows
    0 and 1 have min(1/2, U) with U uniform (Beta(1, 1)), independent. The argmax takes the lower index on
    a tie, so 0 is picked when both U > 1/2 (1/4) or U_0 > U_1 otherwise (1/2 - 1/8): p = 5/8, 3/8, 0.
    With i* = 0, i2 = 2: P(duel 0, 2) = 0; the fewest duels of row 0 are with action 1 (0 against 10^6),
    so P(escape) = 2 * 5/8 * 3/8 = 15/32. 2,000 draws: sd of p(0) 0.011, so 0.045 is 4.2 sd."""
    wins = np.zeros((3, 3), dtype=np.int64)
    wins[0, 2] = wins[1, 2] = 10**6
    p_star, p_duel, p_escape = tail.escape_probabilities(wins, 0, 2, 2000, np.random.default_rng(3))
    assert p_star == pytest.approx(5 / 8, abs=0.045)
    assert p_duel == 0.0
    assert p_escape == pytest.approx(15 / 32, abs=0.045)
    # i* = 1 against i2 = 0: both 2 * 3/8 * 5/8; the fewest duels of row 1 are with 0 again
    p_star, p_duel, p_escape = tail.escape_probabilities(wins, 1, 0, 2000, np.random.default_rng(4))
    assert p_star == pytest.approx(3 / 8, abs=0.045)
    assert p_duel == pytest.approx(15 / 32, abs=0.045) and p_escape == p_duel


def test_escape_takes_the_lowest_index_among_the_fewest_duels():
    """With no duel at all, row 0's fewest are 1 and 2 (0 each): 1, so p_escape is p_duel with i2 = 1 (the
    fewest duels themselves: the known-answer test above)."""
    none = np.zeros((3, 3), dtype=np.int64)
    _, p_duel, p_escape = tail.escape_probabilities(none, 0, 1, 300, np.random.default_rng(6))
    assert p_escape == p_duel > 0
    # duels count both directions: 0 beat 1 three times and lost to 2 five times, so j_min = 1 (3 < 5)
    some = np.zeros((3, 3), dtype=np.int64)
    some[0, 1], some[2, 0] = 3, 5
    _, p_duel, p_escape = tail.escape_probabilities(some, 0, 1, 300, np.random.default_rng(7))
    _, p_other, _ = tail.escape_probabilities(some, 0, 2, 300, np.random.default_rng(7))
    assert p_escape == p_duel != p_other


def test_continue_runs_states_counted_by_hand(borda, monkeypatch):
    """Runs 4 (trapped) and 1 (free), in that order, to T2 = 300 with T1 = 100: each curve is the run's
    Maximin R_t at thin_grid(300, 5) = 1, 4, 17, 72, 300 (round(300^(k/4))); each state row counts the
    duels of the run's first t steps, and its escape probabilities are those of the documented seed
    SeedSequence([seed, "maximin-tail", "escape", run, t]) on those counts. Each run records its
    strategies at one step only (stride = horizon: memory)."""
    trap = winners.trap(borda)
    star, i2 = trap.maximin_winner, trap.borda_winner
    strides = []

    def spy(*args, stride, **kwargs):
        strides.append((args[2], stride))
        return simulate(*args, stride=stride, **kwargs)

    monkeypatch.setattr(tail, "simulate", spy)
    calls = []
    curves, states = tail.continue_runs(
        borda, "borda", [4, 1], ["trapped", "free"], 300, 100, SEED, 5, 30, progress=lambda *a: calls.append(a)
    )
    assert calls == [(1, 2), (2, 2)] and strides == [(300, 300), (300, 300)]
    curves, states = curves.to_pandas(), states.to_pandas()
    assert curves[["run", "stratum"]].values.tolist() == [[4, "trapped"]] * 5 + [[1, "free"]] * 5
    assert curves["t"].tolist() == [1, 4, 17, 72, 300] * 2
    rows = [[4, "trapped", 100], [4, "trapped", 300], [1, "free", 100], [1, "free", 300]]
    assert states[["run", "stratum", "t"]].values.tolist() == rows
    for run in (4, 1):
        res = simulate(borda, "ts-maximin", 300, run_seed(SEED, "borda", "ts-maximin", run), stride=300)
        R = np.cumsum(regret.per_step("maximin", borda, res.I, res.J))
        np.testing.assert_array_equal(curves.loc[curves["run"] == run, "cumulative_regret"], R[[0, 3, 16, 71, 299]])
        for _, row in states[states["run"] == run].iterrows():
            t = int(row["t"])
            wins = tail.posterior_counts(10, res.I, res.J, res.outcomes, t)  # tested by hand above
            seen = wins + wins.T
            others = [j for j in range(10) if j != star]
            assert row["cumulative_regret"] == R[t - 1]
            assert row["duels_star_borda"] == seen[star, i2] and row["wins_star_borda"] == wins[star, i2]
            assert row["never_observed"] == sum(seen[i, j] == 0 for i in range(10) for j in range(10) if i != j)
            assert row["never_observed_star"] == sum(seen[star, j] == 0 for j in others)
            assert row["fewest_duels_star"] == min(seen[star, j] for j in others)
            rng = np.random.default_rng(name_seed(SEED, "maximin-tail", "escape", run, t))
            expected = tail.escape_probabilities(wins, star, i2, 30, rng)  # tested above on known answers
            assert (row["p_star"], row["p_duel_borda"], row["p_escape"]) == expected


def test_continue_runs_to_the_first_horizon_itself_records_one_state_and_none_for_no_runs(borda):
    """T2 = T1 = 30: one state row. Its escape probabilities come from 2,000 posterior draws by default:
    multiples of 1/2000 (here strictly between 0 and 1, so not of 1/1999 or 1/2001)."""
    curves, states = tail.continue_runs(FAMILY_4, "family", [2], ["free"], 30, 30, SEED, 3)
    assert states["t"].to_pylist() == [30] and curves["t"].to_pylist() == [1, 5, 30]
    p_star = states["p_star"][0].as_py()
    assert 0 < p_star < 1 and p_star * 2000 == pytest.approx(round(p_star * 2000), abs=1e-9)
    curves, states = tail.continue_runs(borda, "borda", [], [], 50, 20, SEED, 3, 5)
    assert curves.num_rows == 0 and states.num_rows == 0
    assert curves.schema.equals(schemas.TAIL_CURVE_SCHEMA) and states.schema.equals(schemas.TAIL_STATE_SCHEMA)


def _rows(R, ts=(1, 2)):
    """Phase-1 point rows of Maximin regret ``R[run]`` at the steps ``ts`` (and Borda rows, ignored)."""
    rows = [(run, "maximin", t, r) for run, values in R.items() for t, r in zip(ts, values)]
    rows += [(run, "borda", t, 99.0) for run in R for t in ts]
    return pd.DataFrame(rows, columns=["run", "regret", "t", "cumulative_regret"])


def test_strata_are_in_run_order_with_their_labels():
    """Runs 1 and 3 trapped at t = 2 (slope 1 >= 1/2), 0 and 2 free: all four continued with others = 2;
    with others = 1 one free run, 2 (the documented seed's draw from [0, 2], derived once with numpy)."""
    frame = _rows({0: [0.0, 0.0], 1: [0.0, 1.0], 2: [0.0, 0.2], 3: [0.0, 1.0]})
    runs, labels = tail.strata_of(frame, 1.0, 0.5, 2, SEED)
    assert runs.tolist() == [0, 1, 2, 3] and labels.tolist() == ["free", "trapped", "free", "trapped"]
    runs, labels = tail.strata_of(frame, 1.0, 0.5, 1, SEED)
    assert runs.tolist() == [1, 2, 3] and labels.tolist() == ["trapped", "free", "trapped"]


def test_phase_one_estimates_by_hand_with_each_verdict_and_the_clipped_trapped_interval():
    """Four runs at t = 1, 4, 9 (A = 10, bound 10 / sqrt(2) sqrt(log 10) sqrt(t) = 10.730, 21.460, 32.189):
    t = 1: R = 20 each, se 0, above the bound: exceeded; every slope 20 >= 1/2: trapped 1, se 0.
    t = 4: R = 21, 21.6, 22, 22.4, mean 21.75, s^2 = 1.07 / 3, se s / 2: the interval holds the bound,
    inconclusive; slopes 1/3, 0.53, 0.67, 0.8: 3 trapped, 0.75 + z sqrt(0.75 * 0.25 / 4) > 1 clipped to 1.
    t = 9: R = 24.5, 23, 24, 24, mean 23.875, s^2 = 1.1875 / 3: below; slopes 0.7, 0.28, 0.4, 0.32:
    one trapped, 0.25 - z sqrt(0.25 * 0.75 / 4) < 0 clipped to 0."""
    R = {0: [20.0, 21.0, 24.5], 1: [20.0, 21.6, 23.0], 2: [20.0, 22.0, 24.0], 3: [20.0, 22.4, 24.0]}
    table = tail.estimates(_rows(R, (1, 4, 9)), None, 10, 1.0, 0.5, 0.9)
    z = 1.6448536269514722  # the two-sided 0.90 normal quantile, written out
    bound = np.array([10.72983013, 21.45966026, 32.18949039])
    mean = np.array([20.0, 21.75, 23.875])
    se = np.array([0.0, math.sqrt(1.07 / 3) / 2, math.sqrt(1.1875 / 3) / 2])
    assert table["source"].tolist() == ["phase 1 (all runs)"] * 3 and table["t"].tolist() == [1, 4, 9]
    assert table[["runs", "trapped_runs", "free_runs_continued"]].values.tolist() == [[4, 1, 0]] * 3
    np.testing.assert_allclose(table[["mean", "low", "high"]].T, [mean, mean - z * se, mean + z * se], rtol=1e-12)
    np.testing.assert_allclose(table["se"], se, rtol=1e-12, atol=1e-12)
    ratios = [mean / bound, (mean - z * se) / bound, (mean + z * se) / bound, bound]
    np.testing.assert_allclose(table[["ratio", "ratio_low", "ratio_high", "bound"]].T, ratios, rtol=1e-9)
    assert table["verdict"].tolist() == ["exceeded", "inconclusive", "below"]
    assert table["trapped"].tolist() == [1.0, 0.75, 0.25]
    fse = np.array([0.0, math.sqrt(0.75 * 0.25 / 4), math.sqrt(0.25 * 0.75 / 4)])
    np.testing.assert_allclose(table["trapped_low"], [1.0, 0.75 - z * fse[1], 0.0], rtol=1e-12)
    np.testing.assert_allclose(table["trapped_high"], [1.0, 1.0, 0.25 + z * fse[2]], rtol=1e-12)
    assert (table["confidence"] == 0.9).all()
    assert table.columns.tolist() == schemas.TAIL_ESTIMATE_SCHEMA.names


def test_phase_one_estimates_of_a_single_run_have_no_spread():
    table = tail.estimates(_rows({0: [0.0, 3.0]}), None, 10, 1.0, 0.5, 0.95)
    assert table["se"].tolist() == [0.0, 0.0] and table["trapped"].tolist() == [0.0, 1.0]
    # two runs already have a spread: R_2 = 1, 3, s = sqrt(2), se = s / sqrt(2) = 1
    assert tail.estimates(_rows({0: [0.0, 1.0], 1: [0.0, 3.0]}), None, 10, 1.0, 0.5, 0.95)["se"].tolist() == [0, 1]
    assert table["trapped_low"].tolist() == [0.0, 1.0] and table["trapped_high"].tolist() == [0.0, 1.0]


def test_verdict_messages_in_full_from_unsorted_rows():
    frame = pd.DataFrame({"t": [1000, 10, 100], "verdict": ["exceeded", "below", "exceeded"], "ratio": [1.5, 0.5, 1.2]})
    frame = frame.assign(ratio_low=[1.2, 0.4, 1.1], ratio_high=[1.8, 0.6, 1.3])
    assert tail.verdict(frame) == "fails: E[R_t] exceeds Theorem 4.1's bound at t = 100 (R_t / bound 1.20 [1.10, 1.30])"
    frame["verdict"] = ["inconclusive", "below", "inconclusive"]
    assert tail.verdict(frame) == (
        "inconclusive from t = 100: the interval reaches the bound (at t = 1,000: R_t / bound 1.50 [1.20, 1.80])"
    )
    frame["verdict"] = ["below", "below", "below"]
    assert tail.verdict(frame) == (
        "holds up to t = 1,000: every interval below the bound (at t = 1,000: R_t / bound 1.50 [1.20, 1.80])"
    )


def test_first_break_takes_the_smallest_t_then_actions_then_gap():
    family = pd.DataFrame({"actions": [5, 4, 4, 3, 3], "gap": [0.1, 0.3, 0.2, 0.1, 0.1], "t": [100] * 3 + [1000, 10]})
    family["verdict"] = ["exceeded"] * 4 + ["below"]
    A, gap, t, row = tail_family.first_break(family)
    assert (A, gap, t) == (4, 0.2, 100) and row["verdict"] == "exceeded"
    assert isinstance(A, int) and isinstance(t, int)
    assert tail_family.first_break(family[family["verdict"] != "exceeded"]) is None


def test_family_search_rows_from_curves_known_by_hand(monkeypatch):
    """simulate replaced by a stand-in whose runs are known: with others_gap 0.01 and strength 0.99, member
    (A = 3, gap 0.2004) has its trap ((3 - 2)(0.99 - 0.5 - 0.01) = 0.48 > 2 gap) and gap 0.3 has none
    (0.48 < 0.6). Run r duels the Borda winner against itself (Maximin regret gap per step) for its first
    m_r steps, then the Maximin winner against itself (regret 0): m = 2000 (the horizon) for even r,
    100, 200, 300, 400 for odd r. Each run gets the seed SeedSequence([seed, "maximin-tail", "family", A,
    round(1000 gap), r]) (round(200.4) = 200: not round(1001 gap) = 201); the rows are the mean of the
    curves with its normal interval against Theorem 4.1's bound, and carry tail_family.crossing of them and
    tail_family.growth_exponent past the crossing with the seed SeedSequence([seed, "maximin-tail", "family",
    "bootstrap", A, round(1000 gap)]) and 1,000 resamples by default (both functions tested above on known
    answers). On thin_grid(2000, 12) the upper end reaches the bound before the step 126 and the mean after
    it, so the exponent's start matters."""
    seeds = []
    escape = [2000, 100, 2000, 200, 2000, 300, 2000, 400]

    def stand_in(X, algorithm, horizon, seed, stride):
        assert (algorithm, stride) == ("ts-maximin", horizon)
        I = np.where(np.arange(horizon) < escape[len(seeds)], 1, 0)
        seeds.append(seed.entropy)
        return type("Result", (), {"I": I, "J": I})

    monkeypatch.setattr(tail_family, "simulate", stand_in)
    calls = []
    progress = lambda *a: calls.append(a)  # noqa: E731
    table = tail_family.family_search([3], [0.3, 0.2004], 0.01, 0.99, 8, 2000, SEED, 12, 0.9, progress=progress)
    assert calls == [(2, 2)]  # once per member with a trap, counting the one without
    assert seeds == [name_seed(SEED, "maximin-tail", "family", 3, 200, r).entropy for r in range(8)]
    assert table.columns.tolist() == schemas.TAIL_FAMILY_SCHEMA.names
    none = table[table["gap"] == 0.3]
    assert len(none) == 1 and none["verdict"].iloc[0] == "no trap"
    assert none[["actions", "others_gap", "strength", "t", "runs"]].values.tolist() == [[3, 0.01, 0.99, 0, 0]]
    assert none.drop(columns=["actions", "gap", "others_gap", "strength", "t", "runs", "verdict"]).isna().all(axis=None)
    member = table[table["gap"] == 0.2004]
    t = np.array([1, 2, 4, 8, 16, 32, 63, 126, 252, 502, 1002, 2000])  # round(2000^(k/11))
    R = np.array([0.2004 * np.minimum(t, m) for m in escape])
    mean, se = R.mean(axis=0), R.std(axis=0, ddof=1) / math.sqrt(8)
    z = 1.6448536269514722
    bound = 3 / math.sqrt(2) * math.sqrt(math.log(3)) * np.sqrt(t)
    assert member["t"].tolist() == t.tolist() and (member["runs"] == 8).all()
    assert (member[["actions", "others_gap", "strength"]].values.tolist()) == [[3, 0.01, 0.99]] * 12
    ends = [mean, mean - z * se, mean + z * se, bound, mean / bound]
    np.testing.assert_allclose(member[["mean", "low", "high", "bound", "ratio"]].T, ends, rtol=1e-12)
    np.testing.assert_allclose(member["se"], se, rtol=1e-12, atol=1e-12)  # 0 up to rounding where the runs agree
    verdicts = np.where(mean - z * se > bound, "exceeded", np.where(mean + z * se < bound, "below", "inconclusive"))
    assert member["verdict"].tolist() == verdicts.tolist()
    assert set(verdicts) == {"below", "inconclusive", "exceeded"}
    # the wiring of crossing and growth_exponent (each tested by hand above); the bracket is independent
    cross = tail_family.crossing(t, mean / bound, (mean - z * se) / bound, (mean + z * se) / bound)
    assert cross[1] < 126 < cross[0] < 252 and 126 < cross[2] < 252
    boot = name_seed(SEED, "maximin-tail", "family", "bootstrap", 3, 200)
    slope = tail_family.growth_exponent(t, R, cross[0], 1000, 0.9, boot)
    columns = ["crossing", "crossing_low", "crossing_high", "exponent", "exponent_low", "exponent_high"]
    np.testing.assert_allclose(member[columns], np.tile([*cross, *slope], (12, 1)), rtol=1e-9)


def test_estimates_at_the_bound_itself_are_inconclusive():
    """Every run at exactly Theorem 4.1's bound at t = 1 (se 0): the interval touches the bound (the family's
    verdicts are the same function's, tail.against_bound)."""
    at = float(theorems.ts_maximin(10, 1.0))
    table = tail.estimates(_rows({0: [at, at], 1: [at, at]}), None, 10, 1.0, 0.5, 0.95)
    assert table["low"].iloc[0] == table["bound"].iloc[0] == table["high"].iloc[0]
    assert table["verdict"].iloc[0] == "inconclusive"


def test_estimates_trap_at_share_times_delta_in_both_phases():
    """delta 2 and share 1/4 put the threshold at 1/2, as delta 1 and share 1/2 do, in phase 1 (trapped 0, 1/2
    as in test_phase_two_estimate_by_hand) and in phase 2: with the free run 2 at R_4 = 0.7 (slope 0.3 over
    (2, 4]) only the trapped stratum is trapped at t = 4, estimate 1/2 (mean 0.5 * 2.25 + 0.5 * 0.7)."""
    curves = _phase_two_curves()
    curves.loc[(curves["run"] == 2) & (curves["t"] == 4), "cumulative_regret"] = 0.7
    table = tail.estimates(_rows(PHASE_ONE), curves, 10, 2.0, 0.25, 0.95)
    assert table["trapped"].tolist() == [0.0, 0.5, 0.5] and table["mean"].tolist() == pytest.approx([0, 0.4, 1.475])


# run, stratum, t, R_t, duels i*-i2, wins, never observed, of i*'s row, fewest i* duels, p(i*), p(i*-i2), p(escape)
STATES = [
    (3, "trapped", 2, 0.75, 0, 0, 6, 2, 0, 0.5, 0.25, 0.125),
    (3, "trapped", 4, 1.75, 2, 1, 4, 1, 0, 0.75, 0.5, 0.0625),
    (5, "free", 2, 0.25, 4, 3, 5, 1, 0, 0.25, 0.125, 0.0),
    (5, "free", 4, 0.25, 5, 4, 2, 0, 2, 1.0, 0.0, 0.0),
    (7, "free", 2, 1.0, 0, 0, 7, 3, 2, 0.75, 0.375, 0.25),
    (7, "free", 4, 1.5, 1, 1, 4, 2, 2, 0.5, 0.25, 0.25),
]
"""tail-continue's states of runs 3 (trapped), 5 and 7 (free) at T1 = 2 and T = 4."""


def test_tail_page_in_full_with_the_states_and_without():
    """One estimate row (the values rounded by hand: 0, 3 and 2 decimals; 1,000 separated) and STATES by
    (t, stratum): medians over runs 5 and 7 (free) at t = 2: duels 4, 0 -> 2, one with none, never observed
    5, 7 -> 6, of i*'s row 1, 3 -> 2, fewest 0, 2 -> 1, p 0.5, 0.25, 0.125, R 0.625 -> 1; at t = 4: duels 5, 1
    -> 3, never 2, 4 -> 3, of i*'s row 0, 2 -> 1, fewest 2, p 0.75, 0.125, 0.125, R 0.875 -> 1; run 3 alone."""
    table = pd.DataFrame([{"source": "phase 1 (all runs)", "t": 1000, "runs": 1200, "trapped_runs": 30, "mean": 1234.4,
        "low": 1200.2, "high": 1268.6, "bound": 2345.6, "ratio": 0.52626, "ratio_low": 0.51168, "ratio_high": 0.54084,
        "trapped": 0.025, "trapped_low": 0.01617, "trapped_high": 0.03383, "verdict": "below"}])  # fmt: skip
    head = (
        "# Theorem 4.1 on trial: TS-Maximin's Maximin regret far past the paper's horizon\n\nMaximin winner i* = 0, "
        "Borda winner i2 = 1; the trap's regret per step delta = X[i*, i2] - 1/2 = 0.1000. Phase 1: 1,200 runs; 30 "
        "trapped at the first horizon. Intervals: two-sided 95%, normal; phase 2 stratified "
        "(duelbandits.regret.stratified_mean).\n\n**Verdict: holds.**\n\n"
        "## E[R_t] against Theorem 4.1's bound, and the trapped fraction (survival curve)\n\n"
        "| t | from | E[R_t] [95%] | bound | R_t / bound | trapped | verdict |\n"
        "| ---: | --- | ---: | ---: | ---: | ---: | --- |\n"
        "| 1,000 | phase 1 (all runs) | 1,234 [1,200, 1,269] | 2,346 | 0.526 [0.512, 0.541] | 2.50% [1.62, 3.38] "
        "| below |\n"
    )
    states = (
        "\n## The continued runs' posterior state (medians over runs)\n\nThe columns: docs/claims.md, \"Theorem 4.1 "
        "past the paper's horizon\".\n\n"
        "| t | stratum | runs | duels i*-i2 | none | never observed | of i*'s row | fewest i* duels | p(i*) | p(i*-i2) "
        "| p(escape) | R_t |\n| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n"
        "| 2 | free | 2 | 2 | 1 | 6 | 2 | 1 | 5.00e-01 | 2.50e-01 | 1.25e-01 | 1 |\n"
        "| 2 | trapped | 1 | 0 | 1 | 6 | 2 | 0 | 5.00e-01 | 2.50e-01 | 1.25e-01 | 1 |\n"
        "| 4 | free | 2 | 3 | 0 | 3 | 1 | 2 | 7.50e-01 | 1.25e-01 | 1.25e-01 | 1 |\n"
        "| 4 | trapped | 1 | 2 | 0 | 4 | 1 | 0 | 7.50e-01 | 5.00e-01 | 6.25e-02 | 2 |\n"
    )
    trap = winners.trap(np.array(FAMILY_4))
    frame = pd.DataFrame(STATES, columns=schemas.TAIL_STATE_SCHEMA.names)
    assert tail.tail_markdown(table, frame, trap, "holds", 0.95) == head + "\n" + states
    assert tail.tail_markdown(table, None, trap, "holds", 0.95) == head


def _phase_two_file(path, rows, schema, **prov):
    """``rows`` written in reverse order as tail-continue writes a file of ``schema`` to T = 4 from T1 = 2."""
    from duelbandits import provenance, storage

    frame = pd.DataFrame(rows[::-1], columns=schema.names)
    table = pa.Table.from_pandas(frame, schema=schema, preserve_index=False)
    prov = {"table": "tail-curves", "horizon": 4, "points_kept": 3, "first_horizon": 2, **prov}  # None: left out
    table = table.drop_columns(prov.pop("drop", []))
    storage.write_table(table, path, provenance.record(**{k: v for k, v in prov.items() if v is not None}))
    return path


def test_read_phase_two_reads_every_file_and_refuses_each_kind_of_damage_naming_it(tmp_path):
    """Curves of runs 3 and 5 on thin_grid(4, 3) = 1, 2, 4; each damage in its own file: a dropped row, a regret
    rising faster than 1/2 a step, a probability 1.5, a provenance without T1, a column dropped, another table."""
    curves = [(3, "trapped", t, r) for t, r in [(1, 0.5), (2, 1.0), (4, 2.0)]]
    curves += [(5, "free", t, 0.25) for t in (1, 2, 4)]
    curve_file = _phase_two_file(tmp_path / "c.parquet", curves, schemas.TAIL_CURVE_SCHEMA)
    state_file = _phase_two_file(tmp_path / "s.parquet", STATES, schemas.TAIL_STATE_SCHEMA, table="tail-states")
    assert tail.read_phase_two([curve_file], "tail-curves").values.tolist() == [list(row) for row in curves]
    assert tail.read_phase_two([state_file, state_file], "tail-states").values.tolist() == [*map(list, STATES)] * 2
    assert tail.read_phase_two([], "tail-curves") is None
    bad_prob = [*STATES[:5], (*STATES[5][:-1], 1.5)]
    cases = [
        (curves[:-1], {}, "holds 5 rows, not its 2 runs x 3 steps to T = 4"),
        ([*curves[:-1], (5, "free", 4, 1.3)], {}, "run 5's maximin regret goes from 0.25 at t = 2 to 1.3 at t = 4"),
        (curves, {"first_horizon": None}, "its provenance has no 'first_horizon'"),
        (curves, {"drop": ["stratum"]}, "has no column(s) stratum: not what the pipeline wrote"),
        (curves, {"table": "tail-states"}, "was made for table 'tail-states', but is used as table 'tail-curves'"),
    ]
    for k, (rows, prov, message) in enumerate(cases):
        path = _phase_two_file(tmp_path / f"{k}.parquet", rows, schemas.TAIL_CURVE_SCHEMA, **prov)
        with pytest.raises(InputError) as err:
            tail.read_phase_two([curve_file, path], "tail-curves")
        assert str(err.value).startswith(f"{path}: {message}")
    path = _phase_two_file(tmp_path / "p.parquet", bad_prob, schemas.TAIL_STATE_SCHEMA, table="tail-states")
    with pytest.raises(InputError, match=r"p.parquet: a probability of its states is not in \[0, 1\]$"):
        tail.read_phase_two([path], "tail-states")


def test_growth_exponent_interval_is_nan_when_a_resample_mean_is_zero():
    """Runs R = (0, 0) and (1, 10): the mean (0.5, 5) has slope 1, but a resample of run 0 twice
    (probability 1/4; among 50 resamples but for (3/4)^50 < 1e-6) has mean 0, whose log is undefined: the
    interval is NaN rather than narrowed by dropping it (a negative mean, below 0, the same)."""
    rho, low, high = tail_family.growth_exponent([10.0, 100.0], np.array([[0.0, 0.0], [1.0, 10.0]]), 10.0, 50, 0.95, 0)
    assert rho == pytest.approx(1.0, rel=1e-12) and math.isnan(low) and math.isnan(high)


def _float32_family():
    """family_matrix(4, 0.1, 0.2, 0.95) in float32, each X[j, i] = 1 - X[i, j] computed exactly in float32, so it
    is a valid preference matrix; 0.6 + 0.7 in float32 rounds, where double precision does not."""
    X = tail_family.family_matrix(4, 0.1, 0.2, 0.95).astype(np.float32)
    upper = np.triu_indices(4, 1)
    X.T[upper] = np.float32(1) - X[upper]
    return X


def test_continue_runs_of_a_float32_matrix_computes_its_regrets_in_double_precision():
    X32 = _float32_family()
    curves, _ = tail.continue_runs(X32, "family", [0], ["free"], 40, 40, SEED, 3, 5)
    res = simulate(X32, "ts-maximin", 40, run_seed(SEED, "family", "ts-maximin", 0), stride=40)
    double = regret.per_step("maximin", X32.astype(float), res.I, res.J)
    assert not np.array_equal(double, regret.per_step("maximin", X32, res.I, res.J))  # float32 would differ
    np.testing.assert_array_equal(curves["cumulative_regret"].to_numpy(), np.cumsum(double)[[0, 5, 39]])


def test_trap_delta_is_in_double_precision_for_a_float32_matrix():
    """A matrix whose Maximin winner 0 (row minima 0.2, 0.1, 0.1, 0.1) loses to the Borda winner 1 (row sums
    1.14, 2.3, 2.28, 2.28): delta = 0.2 - 1/2, which float32 rounds (0.2 < 1/4)."""
    A = np.array([[0.5, 0.2, 0.22, 0.22], [0.8, 0.5, 0.1, 0.9], [0.78, 0.9, 0.5, 0.1], [0.78, 0.1, 0.9, 0.5]])
    A32 = A.astype(np.float32)
    trap = winners.trap(A32)
    assert (trap.maximin_winner, trap.borda_winner) == (0, 1)
    assert trap.delta == float(A32[0, 1]) - 0.5 != float(A32[0, 1] - np.float32(0.5))


def test_float32_inputs_are_computed_in_double_precision():
    """Steps, regrets and values given in float32 are taken at their exact double values, and the arithmetic is
    done in double precision (each expectation below is the closed form of its function, on the float32
    values): float32 arithmetic would round each of these differently."""
    f = np.float32
    # stratified_mean: one stratum, every run continued: the plain mean of 0.1, 0.2, 0.7 in float32
    values = np.array([0.1, 0.2, 0.7], f)
    assert regret.stratified_mean([(3, values)])[0] == sum(float(v) for v in values) / 3
    # interval_slopes: 1 and 30,000,000 are exact in float32, their difference 29,999,999 is not
    np.testing.assert_array_equal(tail.interval_slopes(np.array([1, 30_000_000], f), [0.0, 29_999_999.0]), [0, 1])
    # _first_reach: ratio 0.5 -> 2.0 between t = 100 and 1000 reaches 1 a third of the way in log t
    t = np.array([10, 100, 1000, 10000], f)
    ratio = np.array([0.1, 0.5, 2.0, 4.0], f)
    assert tail_family.crossing(t, ratio, ratio / 2, ratio * 2)[0] == pytest.approx(10 ** (2 + 1 / 3), rel=1e-12)
    # growth_exponent by hand: runs (0.1, 1) and (0.2, 10) at t = 10, 100 (means below 1 keep their logarithm);
    # default_rng(3).integers(0, 2, size=(4, 2)) is [[1, 0], [0, 0], [0, 1], [1, 1]] (numpy's stream, derived once
    # with numpy alone): resamples of slopes m (the mean curve's), s (run 0 twice), m, b (run 1 twice); numpy's
    # linear quantiles at 0.25 and 0.75 of (s, m, m, b): s + 0.75 (m - s) and m + 0.25 (b - m)
    a, c = float(f(0.1)), float(f(0.2))
    m, s, b = math.log10(5.5 / ((a + c) / 2)), math.log10(1 / a), math.log10(10 / c)
    rho, low, high = tail_family.growth_exponent(
        np.array([10, 100], f), np.array([[0.1, 1.0], [0.2, 10.0]], f), 10.0, 4, 0.5, 3
    )
    assert rho == pytest.approx(m, rel=1e-12)
    assert low == pytest.approx(s + 0.75 * (m - s), rel=1e-12) and high == pytest.approx(m + 0.25 * (b - m), rel=1e-12)
