import math
import warnings

import numpy as np
import pytest

from duelbandits import algorithms, regret
from duelbandits.errors import InputError

# Hand-made 3x3 preference matrix without a Condorcet winner:
# row minima 0.4, 0.1, 0.2 -> Maximin winner 0; row means 1.8/3, 1.3/3, 1.4/3 ->
# Borda winner 0; each action beats exactly one other -> Copeland scores all 1.
X = np.array([[0.5, 0.9, 0.4], [0.1, 0.5, 0.7], [0.6, 0.3, 0.5]])


@pytest.mark.parametrize(
    "kind, I, J, expected",
    [
        ("maximin", 0, 0, 0.0),
        ("maximin", 1, 1, 0.4),  # (0.9 + 0.9 - 1) / 2
        ("maximin", 1, 2, 0.15),  # (0.9 + 0.4 - 1) / 2
        ("borda", 0, 0, 0.0),
        ("borda", 1, 1, 0.5 * (1.2 - 2.6 / 3)),  # (2 * 1.8/3 - 2 * 1.3/3) / 2
        ("borda", 1, 2, 0.15),  # (1.2 - 1.3/3 - 1.4/3) / 2
        ("exp3p", 1, 1, 0.4),  # (0.9 - 0.5 + 0.9 - 0.5) / 2
        ("exp3p", 0, 1, 0.2),  # (0.9 - 0.9 + 0.5 - 0.1) / 2
        ("exp3p", 1, 2, 0.15),  # (0.4 - 0.7 + 0.9 - 0.3) / 2
        ("exp3p", 2, 0, -0.05),  # (0.5 - 0.6 + 0.4 - 0.4) / 2: no Condorcet winner, can be negative
        # the proof's X(J, I) in the last term; the statement's typo X(I, J) would give (0.9 - 0.3 + 0.4 - 0.3) / 2
        ("exp3p", 2, 1, 0.15),
        ("copeland", 1, 2, 0.0),
    ],
)
def test_per_step_regret_matches_hand_computation(kind, I, J, expected):
    assert regret.per_step(kind, X, I, J) == pytest.approx(expected, abs=1e-12)


def test_copeland_regret_counts_beaten_actions():
    Y = np.array([[0.5, 0.7, 0.8], [0.3, 0.5, 0.6], [0.2, 0.4, 0.5]])
    # Copeland scores 2, 1, 0 over A - 1 = 2: (2*1 - 0.5 - 0) / 2
    assert regret.copeland(Y, 1, 2) == pytest.approx(0.75)


def test_per_step_takes_arrays_and_cumulative_is_their_running_sum():
    I = np.array([0, 1, 1, 2])
    J = np.array([0, 1, 2, 0])
    per = regret.per_step("maximin", X, I, J)
    # (2, 0): (X[0, 2] + X[0, 0] - 1) / 2 = -0.05, negative without a Condorcet winner
    np.testing.assert_allclose(per, [0.0, 0.4, 0.15, -0.05], atol=1e-12)
    np.testing.assert_allclose(regret.cumulative("maximin", X, I, J), [0.0, 0.4, 0.55, 0.5], atol=1e-12)
    per = regret.per_step("copeland", LAST, np.array([0, 1]), np.array([2, 2]))  # integer actions: floats
    assert per.dtype == np.float64 and per.tolist() == [0.0, 0.0]


@pytest.mark.parametrize("kind", list(regret.REGRETS))
def test_per_step_gives_the_bits_of_the_formula_at_every_step(kind):
    """per_step looks each step up in a table of the kind's formula over all pairs: the same float
    operations, so the same bits as the formula applied to the steps, here on a random 7 x 7 matrix
    (off the paper's A = 10) and every pair, in a shuffled order with repeats."""
    rng = np.random.default_rng(7)
    upper = np.triu(rng.uniform(size=(7, 7)), 1)
    M = upper + np.tril(1.0 - upper.T, -1) + 0.5 * np.eye(7)
    I, J = rng.integers(0, 7, 500), rng.integers(0, 7, 500)
    direct = np.asarray(regret.REGRETS[kind](M, I, J), dtype=float)
    assert regret.per_step(kind, M, I, J).tobytes() == direct.tobytes()
    assert regret.per_step(kind, M, 6, 0).tobytes() == np.asarray(regret.REGRETS[kind](M, 6, 0), dtype=float).tobytes()
    assert regret.per_step(kind, M, 6, 0).shape == ()


def test_paper_regret_table_follows_section_5_and_beyond_each_algorithm_its_own_target():
    assert algorithms.paper_regret("condorcet", "dts") == "maximin"
    assert algorithms.paper_regret("condorcet", "ts-borda") == "borda"
    assert algorithms.paper_regret("condorcet", "sparring-exp3p") == "exp3p"
    assert {algorithms.paper_regret("borda", a) for a in algorithms.PAPER_REGRET["borda"]} == {"borda"}
    with pytest.raises(ValueError, match="no paper regret"):
        algorithms.paper_regret("nope", "dts")
    for scenario in ("cyclic", "file"):
        assert algorithms.paper_regret(scenario, "ts-maximin") == "maximin"
        assert (
            algorithms.paper_regret(scenario, "ts-borda")
            == algorithms.paper_regret(scenario, "partial-monitoring")
            == "borda"
        )
        assert algorithms.paper_regret(scenario, "sparring-exp3p") == "exp3p"
        assert algorithms.paper_regret(scenario, "iss") == algorithms.paper_regret(scenario, "dts") == "copeland"
    # the sweeps, the asymptotics table and aggregation look the figure's regret up for any algorithm
    from duelbandits import ALGORITHMS
    from duelbandits.scenarios import SCENARIOS

    for scenario in SCENARIOS:
        for slug in ALGORITHMS:
            assert algorithms.paper_regret(scenario, slug) in regret.REGRETS, (scenario, slug)


# The winners at the last index, and each notion a different action. Row minima 0.3, 0.1, 0.4 ->
# Maximin winner 2; row sums 1.7, 1.2, 1.6 -> Borda winner 0 (s = 1.7/3, 1.2/3, 1.6/3); Copeland
# scores (entries > 1/2) 1, 1, 1, so every Copeland regret is 0. X[2, 0] = 0.7, X[2, 1] = 0.4.
LAST = np.array([[0.5, 0.9, 0.3], [0.1, 0.5, 0.6], [0.7, 0.4, 0.5]])


@pytest.mark.parametrize(
    "kind, I, J, expected",
    [
        ("maximin", 2, 2, 0.0),  # (0.5 + 0.5 - 1) / 2: the Maximin winner is action 2, the last
        ("maximin", 0, 1, 0.05),  # (X[2, 0] + X[2, 1] - 1) / 2 = (0.7 + 0.4 - 1) / 2
        ("maximin", 0, 0, 0.2),  # (0.7 + 0.7 - 1) / 2
        ("exp3p", 0, 1, 0.05),  # (X[2, 1] - X[0, 1] + X[2, 0] - X[1, 0]) / 2 = (0.4 - 0.9 + 0.7 - 0.1) / 2
        ("borda", 2, 2, 0.1 / 3),  # (2 * 1.7/3 - 2 * 1.6/3) / 2: the Borda winner is action 0
        ("borda", 0, 0, 0.0),
        ("copeland", 1, 2, 0.0),
    ],
)
def test_regrets_find_a_winner_at_the_last_index_and_each_its_own(kind, I, J, expected):
    assert regret.per_step(kind, LAST, I, J) == pytest.approx(expected, abs=1e-12)


def test_sample_std_by_hand_and_over_one_run():
    """ddof = 1: the values 1 and 3 have mean 2 and sample variance ((1)^2 + (1)^2) / 1 = 2."""
    assert regret.sample_std([1.0, 3.0]) == pytest.approx(math.sqrt(2.0))
    np.testing.assert_allclose(regret.sample_std([[1.0, 0.0], [3.0, 0.0], [2.0, 0.0]]), [1.0, 0.0])
    one_run = regret.sample_std([5.0])
    assert one_run == 0.0 and type(one_run) is float  # one run: no spread, a plain number
    one = regret.sample_std([[5.0, 7.0, 9.0]])
    assert one.shape == (3,) and not one.any()


def test_a_float32_matrix_gives_float64_regrets_and_std():
    """A float32 matrix is a valid input (validate_matrix accepts it), and float32 arithmetic stays
    float32 under numpy 2's promotion rules: the per-step regrets and the std are float64 all the same,
    so tables and sums downstream see one dtype (mutmut's dtype=None mutants of both are not equivalent)."""
    X = np.array([[0.5, 0.7], [0.3, 0.5]], dtype=np.float32)
    r = regret.per_step("maximin", X, np.array([1]), np.array([1]))
    assert r.dtype == np.float64
    assert r[0] == pytest.approx(0.2, abs=1e-7)  # (0.7 + 0.7 - 1) / 2, to float32's precision
    std = regret.sample_std(np.array([[1.0], [2.0]], dtype=np.float32))
    assert std.dtype == np.float64 and std[0] == pytest.approx(0.7071067811865476, rel=1e-15)


@pytest.mark.parametrize("kind", list(regret.REGRETS))
def test_curve_problem_takes_each_range_to_its_ends_and_refuses_beyond(kind):
    """Steps 1, 3, 10: a curve whose every interval has the kind's lowest or highest per-step regret (0 or
    -1/2, 1/2 or 1), or the one and then the other, is a regret; one a thousandth per step beyond either end
    over (3, 10] is not, and neither is NaN."""
    low, high = regret.RANGES[kind]
    t = np.array([1, 3, 10])
    assert regret.curve_problem(kind, t, [low * t, high * t, [low, low + 2 * high, 8 * low + 2 * high]]) is None
    sums = f"not a sum of per-step regrets in [{low:g}, {high:g}]"
    start = f"from {high * 3:.6g} at t = 3 "
    over = regret.curve_problem(kind, t, [low * t, high * t + [0, 0, 0.007]], ["a", "b"])
    assert over == f"b's {kind} regret goes {start}to {high * 10 + 0.007:.6g} at t = 10: {sums}"
    under = regret.curve_problem(kind, t, [high * t, low * t + [0, 0, -0.007]])
    assert (
        under == f"run 1's {kind} regret goes from {low * 3:.6g} at t = 3 to {low * 10 - 0.007:.6g} at t = 10: {sums}"
    )
    assert regret.curve_problem(kind, t, [[1e-3, math.nan, 0.0]]) == f"run 0's {kind} regret is nan at t = 3"


def test_curve_problem_names_a_kind_that_is_no_regret():
    """A regret column holding another word (a hand-edited table) is refused, not a KeyError."""
    assert regret.curve_problem("borda", [1, 2], [0.5, 1.0]) is None
    named = regret.curve_problem("bordaa", [1, 2], [0.5, 1.0])
    assert named == "'bordaa' is no regret kind (one of maximin, borda, exp3p, copeland)"


def test_z_value_is_the_two_sided_normal_quantile():
    """Tabulated: 1.959964 at 95%, 1.644854 at 90%, 2.575829 at 99%."""
    assert [regret.z_value(c) for c in (0.95, 0.90, 0.99)] == pytest.approx([1.959964, 1.644854, 2.575829], abs=1e-6)


def test_stratified_interval_covers_at_its_level():
    """On a population with a rare heavy stratum (like trapped runs), the 95% interval of the two-phase
    estimate covers the true mean in about 95% of 600 replications (binomial sd 0.9%: accept 91-99%)."""
    rng = np.random.default_rng(2)
    z = regret.z_value(0.95)
    truth = 0.05 * 100.0 + 0.95 * 1.0
    covered = 0
    for _ in range(600):
        heavy = rng.random(2000) < 0.05
        N1 = int(heavy.sum())
        a = rng.normal(100.0, 30.0, N1)
        b = rng.exponential(1.0, 2000 - N1)
        estimate, se = regret.stratified_mean([(N1, a), (2000 - N1, rng.choice(b, 60, replace=False))])
        covered += abs(estimate - truth) <= z * se
    assert 0.91 <= covered / 600 <= 0.99


def test_stratified_mean_by_hand():
    """Strata (N_h, values): (4, [1, 3]), (0, []) skipped, (2, [6]). N = 6, W = 2/3, 1/3; means 2, 6;
    s^2 = 2, 0 (one value). Estimate 2/3 * 2 + 1/3 * 6 = 10/3. Phase 2: (2/3)^2 * 2 / 2 * (1 - 2/4) = 2/9
    (the second stratum adds 0). S^2 = 2/3 * 2 + 2/3 * (2 - 10/3)^2 + 1/3 * (6 - 10/3)^2 = 4/3 + 32/9 = 44/9,
    phase 1 S^2 / N = 22/27. Variance 6/27 + 22/27 = 28/27. One stratum (2, [1, 3]): every run continued, so
    phase 2 adds 0; S^2 = s^2 = 2, se = sqrt(2 / 2) = 1. One run: no spread, se 0."""
    estimate, se = regret.stratified_mean([(4, [1.0, 3.0]), (0, []), (2, [6.0])])
    assert (estimate, se) == pytest.approx((10 / 3, math.sqrt(28 / 27)), rel=1e-12)
    assert regret.stratified_mean([(2, [1.0, 3.0])]) == pytest.approx((2.0, 1.0), rel=1e-12)
    assert regret.stratified_mean([(1, [7.0])]) == (7.0, 0.0)


def test_stratified_mean_refuses_strata_it_cannot_estimate_naming_them():
    with pytest.raises(InputError, match="^no runs in any stratum$"):
        regret.stratified_mean([(0, []), (0, [1.0])])
    with pytest.raises(InputError, match="^a stratum of 3 runs needs 1 to 3 values, got 4$"):
        regret.stratified_mean([(3, [1.0, 2.0, 3.0, 4.0])])
    with pytest.raises(InputError, match="^a stratum of 2 runs needs 1 to 2 values, got 0$"):
        regret.stratified_mean([(5, [1.0]), (2, [])])


def test_curve_problem_allows_a_sum_s_rounding_of_1e_9_of_its_size_and_no_more():
    """The slack is 1e-9 x max(1, |R_t|): R_1 = -1e-9 (Borda, lowest per-step regret 0) and 0.5 + 1e-9
    (Maximin, highest 1/2) sit on the edge and pass, -1.5e-9 is beyond it; at R = 10^7 the slack is 0.01, so
    an excess of 10^-3 passes. A failure at the first step has no "from" clause; with more runs than steps
    the default names still count runs; a NaN met in a difference raises no warning."""
    assert regret.curve_problem("borda", [1], [-1e-9]) is None
    assert regret.curve_problem("maximin", [1], [0.5 + 1e-9]) is None
    assert regret.curve_problem("borda", [1e7], [1e7 + 1e-3]) is None
    sums = "not a sum of per-step regrets in [0, 1]"
    assert regret.curve_problem("borda", [1], [-1.5e-9]) == f"run 0's borda regret goes to -1.5e-09 at t = 1: {sums}"
    three_runs = [[0.0, 1.0], [0.0, 1.0], [0.0, 3.0]]
    assert regret.curve_problem("borda", [1, 2], three_runs) == (
        f"run 2's borda regret goes from 0 at t = 1 to 3 at t = 2: {sums}"
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert regret.curve_problem("borda", [1, 2], [[math.inf, math.inf]]) == "run 0's borda regret is inf at t = 1"
    assert regret.curve_problem("borda", [1, 2], [0.5, None]) == "run 0's borda regret is nan at t = 2"  # a null


def test_rows_problem_wants_each_combination_once_in_any_order():
    """Runs {0, 1} x steps {1, 2}: the four rows shuffled pass; a row dropped, or one repeated in another's
    place (four rows still), is refused with the count."""
    import pandas as pd

    levels = {"run": [0, 1], "t": [1, 2]}
    frame = pd.DataFrame({"run": [1, 0, 1, 0], "t": [2, 2, 1, 1]})
    assert regret.rows_problem(frame, levels, "2 runs x 2 steps") is None
    assert regret.rows_problem(frame.iloc[:3], levels, "2 runs x 2 steps") == "holds 3 rows, not 2 runs x 2 steps"
    repeated = pd.DataFrame({"run": [1, 0, 1, 1], "t": [2, 2, 1, 1]})
    assert regret.rows_problem(repeated, levels, "4 rows") == "holds 4 rows, not 4 rows"
