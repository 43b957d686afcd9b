"""The posterior machinery of TS-Maximin and TS-Borda (_posterior): Beta variates, tail masses and their
recurrences, tail variates, cached state, and the pruned samplers' exactness against the full-matrix argmax."""

from decimal import Decimal, localcontext

import numpy as np
import pytest
from montecarlo import N_MC, assert_same_frequencies, full_theta_choices, random_counts

import duelbandits
from duelbandits.algorithms import _posterior as P
from duelbandits.algorithms import ts_maximin

N = N_MC  # one call from Python costs about 15 us

# Chi-square homogeneity test of two samples of actions: false alarm 1e-6 by the
# Wilson-Hilferty upper quantile (z = 4.753), conservative for df >= 1 (df = 1:
# 27.5 against the exact 23.9). Categories with a pooled count below 10 are merged.
Z_1E6 = 4.753


def exact_binomial_lower(k, n, x):
    """``(P(Bin(n, x) <= k), P(Bin(n, x) = k))`` in 50-digit decimals (``x`` a float, taken exactly)."""
    with localcontext() as ctx:
        ctx.prec = 50
        x = Decimal(x)
        ratio = x / (1 - x)
        term = (1 - x) ** int(n)
        total = term
        for m in range(int(k)):
            term = term * (int(n) - m) / (m + 1) * ratio
            total += term
        return float(total), float(term)


def exact_beta_cdf(a, b, x):
    """``P(theta <= x)`` for ``theta ~ Beta(a, b)``, integers ``a, b``: ``P(Bin(a + b - 1, x) >= a)``."""
    return 1.0 - exact_binomial_lower(a - 1, a + b - 1, x)[0]


def assert_cdf_matches(draws, cdf, context):
    """Empirical CDF of ``draws`` at the cut points of ``cdf`` (dict x -> F(x)) within 5 binomial sd."""
    n = len(draws)
    for x, F in cdf.items():
        f = np.mean(draws <= x)
        assert abs(f - F) <= 5 * np.sqrt(F * (1 - F) / n) + 1e-12, (context, x, f, F)


def chi_square_threshold(df):
    """Wilson-Hilferty upper quantile of chi-square(df) at false-alarm 1e-6."""
    c = 2.0 / (9.0 * df)
    return df * (1.0 - c + Z_1E6 * np.sqrt(c)) ** 3


def assert_same_law(a, b, A, context=None):
    """Chi-square homogeneity of two equal-size samples of values 0..A-1 (comment above)."""
    ca = np.bincount(a, minlength=A).astype(float)
    cb = np.bincount(b, minlength=A).astype(float)
    small = ca + cb < 10
    ca = np.append(ca[~small], ca[small].sum())
    cb = np.append(cb[~small], cb[small].sum())
    keep = ca + cb > 0
    ca, cb = ca[keep], cb[keep]
    if len(ca) < 2:
        return
    stat = np.sum((ca - cb) ** 2 / (ca + cb))  # equal sizes: Pearson's statistic of the 2 x K table
    assert stat <= chi_square_threshold(len(ca) - 1), (context, stat, ca, cb)


# ---------------------------------------------------------------- tail masses


CASES = [(1, 1), (1, 2), (2, 1), (1, 40), (40, 1), (7, 5), (5, 7), (300, 200), (200, 300), (20_000, 30_000)]


@pytest.mark.parametrize(("a", "b"), CASES)
def test_beta_tail_and_edge_match_50_digit_sums(a, b):
    # Loader's saddle-point pmf (the edge; its k = 0 branch when a = 1) and the stopped sum are accurate to a
    # few ulps; 1e-13 leaves a margin of 5x.
    for z in (0.3, 2.5, 4.0, None):
        u = P.BELOW_HALF if z is None else P._threshold(a, b, z)
        if u >= 1.0 or u <= a / (a + b):
            continue
        p_ref, edge_ref = exact_binomial_lower(a - 1, a + b - 1, u)
        if p_ref < 1e-300:
            continue
        p, edge = P.beta_tail(float(a), float(b), u)
        assert p == pytest.approx(p_ref, rel=1e-13), (z, u)
        assert edge == pytest.approx(edge_ref, rel=1e-13), (z, u)


def test_thresholds_lie_on_the_grid_above_the_mean():
    for a, b in CASES:
        u = P._threshold(float(a), float(b), 2.5)
        assert u == 1.0 or (a / (a + b) < u < 1.0 and u * P.GRID == int(u * P.GRID) and (1.0 - u) + u == 1.0)


@pytest.mark.parametrize("borda", [True, False])
def test_recurrences_track_fresh_tail_sums_through_refreshes(borda):
    """30,000 duels of one pair won 70% of the time, then 20,000 won 20% (the mean moves through the
    thresholds): after every 1,000, the carried tail mass and boundary term of both entries equal a fresh
    sum at the current threshold to 1e-11 (rounding carried over at most AGE_MAX updates), and the
    thresholds have moved, so the refreshes ran."""
    pair, order = P.new_state(np.zeros((3, 3)), borda)
    rng = np.random.default_rng(6)
    seen = set()
    for t in range(50_000):
        win = rng.random() < (0.7 if t < 30_000 else 0.2)
        P.observe(pair, order, 0, 2, int(win), borda)
        if t % 1000 == 999:
            for x, y in ((0, 2), (2, 0)):
                a, b = pair[x, y, P.COUNT] + 1, pair[y, x, P.COUNT] + 1
                u = pair[x, y, P.UPPER]
                seen.add(u)
                assert u < 1.0
                p, edge = P.beta_tail(a, b, u)
                assert pair[x, y, P.TAIL] == pytest.approx(p, rel=1e-11)
                assert pair[x, y, P.EDGE] == pytest.approx(edge, rel=1e-11)
                assert pair[x, y, P.TAIL] <= P.TAIL_MAX
    assert len(seen) > 10


# ---------------------------------------------------------------- variates


@pytest.mark.parametrize(("a", "b"), [(1, 1), (2, 5), (40, 13), (3000, 5000)])
def test_beta_variate_has_the_beta_law(a, b):
    rng = np.random.default_rng(a + b)
    draws = np.array([P.beta_variate(float(a), float(b), rng) for _ in range(N)])
    m, sd = a / (a + b), np.sqrt(a * b / ((a + b) ** 2 * (a + b + 1)))
    cuts = np.clip(m + sd * np.array([-2.0, -1.0, -0.3, 0.0, 0.4, 1.0, 2.0]), 0.01, 0.99)
    assert_cdf_matches(draws, {x: exact_beta_cdf(a, b, x) for x in cuts}, (a, b))


@pytest.mark.parametrize(("a", "b", "z"), [(3, 4, 0.2), (30, 12, 1.0), (400, 500, 2.5), (1, 30, 1.5)])
def test_upper_tail_variate_has_the_law_given_the_tail(a, b, z):
    # Given theta > u the CDF is (F(x) - F(u)) / (1 - F(u)); every draw exceeds u.
    u = P._threshold(float(a), float(b), z)
    p, edge = P.beta_tail(float(a), float(b), u)
    rng = np.random.default_rng(int(a * 7 + b))
    draws = np.array([P.upper_tail_variate(float(a), float(b), u, p, edge, rng) for _ in range(N)])
    assert draws.min() > u
    Fu = exact_beta_cdf(a, b, u)
    cuts = u + (1 - u) * np.array([0.002, 0.01, 0.03, 0.1, 0.3])
    cdf = {x: (exact_beta_cdf(a, b, x) - Fu) / (1 - Fu) for x in cuts}
    assert_cdf_matches(draws, {x: F for x, F in cdf.items() if 0.001 < F < 0.999}, (a, b, u))


# ---------------------------------------------------------------- state


@pytest.mark.parametrize("borda", [True, False])
def test_state_after_a_random_history_matches_a_fresh_computation(borda):
    A = 5
    pair, order = P.new_state(np.zeros((A, A)), borda)
    rng = np.random.default_rng(3)
    W = np.zeros((A, A))
    for _ in range(3000):
        i, j = rng.integers(0, A, 2) if rng.random() < 0.3 else (0, rng.integers(1, 3))
        o = int(rng.random() < 0.6)
        P.observe(pair, order, i, j, o, borda)
        if i != j:
            W[i, j] += o
            W[j, i] += 1 - o
    np.testing.assert_array_equal(pair[..., P.COUNT], W)
    rows = pair[range(A), range(A)]  # the row fields
    means = (W + 1) / (W + W.T + 2)
    np.fill_diagonal(means, 0.5)
    score = means.sum(axis=1) if borda else np.minimum(0.5, (means + np.eye(A)).min(axis=1))
    np.testing.assert_allclose(rows[:, P.SCORE], score, rtol=1e-12)
    assert np.all(np.diff(rows[order[A + P.ROWS], P.SCORE]) <= 0)
    np.testing.assert_allclose(pair[..., P.SHAPE], W + 2 / 3)
    np.testing.assert_allclose(pair[..., P.SCALE], 1 / np.sqrt(9 * (W + 2 / 3)))
    off = ~np.eye(A, dtype=bool)
    p = pair[..., P.TAIL]
    u = pair[..., P.UPPER]
    for i in range(A):
        assert np.all(np.diff(means[i, order[i, : A - 1]]) >= 0)
        assert rows[i, P.MASS_UP] == pytest.approx(np.prod(1 - p[i, off[i]]), rel=1e-14)
        assert rows[i, P.MASS_BOTH] == pytest.approx(np.prod(1 - p[i, off[i]] - p[off[i], i]), rel=1e-14)
        cap = 0.5 + u[i, off[i]].sum() if borda else min(0.5, u[i, off[i]].min())
        assert rows[i, P.CAP] == pytest.approx(cap, rel=1e-14)
        if borda:
            assert rows[i, P.FLOOR] == pytest.approx(0.5 + (1 - u[off[i], i]).sum(), rel=1e-14)
    # Tails where the threshold is below 1, none where it is 1; the labels are disjoint (lower bound <= upper).
    assert np.all((p[off] > 0) == (u[off] < 1))
    assert np.all(1 - u.T[off] <= u[off])


# ---------------------------------------------------------------- exactness of the pruned samplers


def condorcet_counts():
    """Maximin: row 0 beats all surely (half thresholds at work), row 1 beats all but 0; some entries of row 0
    are barely explored (Beta(3, 1)), so its min is below 1/2 about a quarter of the time."""
    A = 6
    W = np.zeros((A, A))
    W[0, 1], W[1, 0] = 700, 300
    W[0, 2], W[0, 3] = 2, 2
    W[0, 4:], W[4:, 0] = 40, 2
    W[1, 2:], W[2:, 1] = 60, 20
    W[2, 3:], W[3:, 2] = [5, 9, 3], [6, 2, 4]
    W[3, 4:], W[4:, 3] = [30, 1], [30, 2]
    W[4, 5], W[5, 4] = 7, 7
    return W


def early_exit_counts():
    """Borda, A = 3: row 0's entries are concentrated (1,000 duels each), theta[1, 2] and theta[2, 1] are
    Beta(1, 1); with z = 0.7 row 0 settles without a variate in about 15% of the draws and loses in about
    40%, so both the early exit and its fallback carry weight."""
    W = np.zeros((3, 3))
    W[0, 1], W[1, 0] = 560, 440
    W[0, 2], W[2, 0] = 620, 380
    return W


def near_tie_counts():
    """Borda: rows 0 and 1 have the same law of row sum (mirror-image counts) and lead the others."""
    A = 6
    W = np.zeros((A, A))
    W[0, 2:], W[2:, 0] = [9, 6, 14, 4], [2, 3, 4, 1]
    W[1, 2:], W[2:, 1] = [9, 6, 14, 4], [2, 3, 4, 1]
    W[0, 1] = W[1, 0] = 5
    W[2, 3:], W[3:, 2] = [3, 4, 2], [4, 3, 3]
    W[3, 4:], W[4:, 3] = [2, 5], [2, 1]
    W[4, 5], W[5, 4] = 3, 3
    return W


def tie_prone_counts():
    """Maximin: rows 0 and 1 beat 2..4 surely, and (0, 1) is even: both rows often have min exactly 1/2."""
    W = np.zeros((5, 5))
    W[:2, 2:] = 300.0
    W[2:, :2] = 1.0
    W[0, 1] = W[1, 0] = 40.0
    W[2, 3], W[3, 2], W[3, 4], W[4, 3], W[2, 4], W[4, 2] = 5, 3, 8, 9, 2, 6
    return W


def uneven_tie_counts():
    """As :func:`tie_prone_counts` with (0, 1) leaning to 0: the diagonal decides about 12% of draws."""
    W = tie_prone_counts()
    W[0, 1], W[1, 0] = 45.0, 35.0
    return W


BORDA_CASES = [
    (near_tie_counts(), 0, P.THRESHOLD_Z),
    (near_tie_counts(), 5, P.THRESHOLD_Z),
    (np.zeros((3, 3)), 2, P.THRESHOLD_Z),
    (random_counts(6, 4), 0, 0.3),
    (random_counts(5, 9) * 40, 1, 1.0),
    (early_exit_counts(), 0, 0.7),
]
MAXIMIN_CASES = [
    (tie_prone_counts(), 0, P.THRESHOLD_Z),
    (uneven_tie_counts(), 4, P.THRESHOLD_Z),
    (np.zeros((3, 3)), 1, P.THRESHOLD_Z),
    (condorcet_counts(), 0, P.THRESHOLD_Z),
    (condorcet_counts(), 5, 0.3),
    (random_counts(6, 5), 1, P.THRESHOLD_Z),
    (random_counts(6, 5) * 30, 3, 0.3),
]


def check_against_full_argmax(pair, order, first, borda, seed):
    """Chi-square homogeneity of N pruned choices from the state ``(pair, order)`` against N full-matrix
    argmaxes of its counts, and each value's frequency within 5 standard errors (the sharper check for a
    shift of one value: a tie resolved towards the first row visited, the diagonal 1/2 left out of the min,
    a pruning bound too tight by one entry shift a frequency of the tie cases by >= 0.03, about twice that
    tolerance); returns the Beta variates each pruned choice drew."""
    A = pair.shape[0]
    sample = P.sample_borda if borda else P.sample_maximin
    rng = np.random.default_rng(100 + seed)
    choices, draws = np.array([sample(pair, order, first, rng) for _ in range(N)]).T
    full = full_theta_choices(pair[..., P.COUNT], N, np.random.default_rng(200 + seed), np.sum if borda else np.min)
    assert_same_law(choices, full, A, (borda, seed))
    assert_same_frequencies(choices, full, A, (borda, seed))
    assert len(np.unique(full)) >= 2  # the law is not a point mass: the test has something to compare
    return draws


@pytest.mark.parametrize(
    ("kind", "case"),
    [("borda", k) for k in range(len(BORDA_CASES))] + [("maximin", k) for k in range(len(MAXIMIN_CASES))],
)
def test_pruned_sampler_has_the_law_of_the_full_matrix_argmax(kind, case):
    """Chi-square homogeneity (false alarm 1e-6 per case) of N choices of the pruned sampler (the row sum's,
    the row min's) against N full-matrix argmaxes (numpy's own Beta sampler), on hand-made posteriors: small
    z puts a third of the mass of every entry in its tails, so the labels and tail variates are exercised on
    most rows."""
    W, first, z = (BORDA_CASES if kind == "borda" else MAXIMIN_CASES)[case]
    pair, order = P.new_state(W, kind == "borda", z)
    if z < 0.5:
        assert pair[range(len(W)), range(len(W)), P.MASS_UP].max() < 0.3  # most rows draw their labels the slow way
    draws = check_against_full_argmax(pair, order, first, kind == "borda", case)
    if (kind, case) == ("borda", len(BORDA_CASES) - 1):
        assert np.mean(draws == 0) > 0.08  # the early exit is taken (about 15%)


@pytest.mark.parametrize("borda", [True, False], ids=["borda", "maximin"])
def test_sampler_after_a_history_has_the_law_of_the_full_matrix_argmax(borda):
    """As above on the state a history of 3,000 duels leaves: thresholds placed at many points of the run,
    tail masses carried by the recurrences, Maximin's BELOW_HALF thresholds among them."""
    X = np.array(  # rows 0 and 1 tie in sum and min
        [
            [0.5, 0.5, 0.6, 0.55, 0.6],
            [0.5, 0.5, 0.55, 0.6, 0.6],
            [0.4, 0.45, 0.5, 0.55, 0.5],
            [0.45, 0.4, 0.45, 0.5, 0.55],
            [0.4, 0.4, 0.5, 0.45, 0.5],
        ]
    )
    A = 5
    pair, order = P.new_state(np.zeros((A, A)), borda)
    rng = np.random.default_rng(12)
    for _ in range(3000):
        i, j = rng.integers(0, A, 2)
        P.observe(pair, order, i, j, int(rng.random() < X[i, j]), borda)
    if not borda:
        assert np.any(pair[..., P.UPPER] == P.BELOW_HALF)
    check_against_full_argmax(pair, order, 1, borda, 12)


def test_tie_prone_state_really_ties():
    # Guard on the Maximin tie cases: rows 0 and 1 share the maximum 1/2 about a quarter of the time.
    full = full_theta_choices(tie_prone_counts(), N, np.random.default_rng(5), np.min)
    f = np.bincount(full, minlength=5) / N
    assert abs(f[0] - 0.5) < 0.02 and abs(f[1] - 0.5) < 0.02


def test_condorcet_state_scores_one_half_often_and_settles_rows_without_draws():
    # Guard on the Maximin condorcet cases above: row 0's min is exactly 1/2 with probability (7/8)^2 = 0.766 (its
    # two Beta(3, 1) entries exceed 1/2 with probability 7/8 each, the others surely; 5 binomial sd is
    # 0.015), so both branches of its row are exercised; and rows behind it cost almost no variate.
    W = condorcet_counts()
    theta = np.random.default_rng(5).beta(W[0, 1:] + 1, W[1:, 0] + 1, size=(N, 5))
    assert abs(np.mean(theta.min(axis=1) > 0.5) - 49 / 64) < 0.015
    pair, order = P.new_state(W, False)
    rng = np.random.default_rng(1)
    draws = np.mean([P.sample_maximin(pair, order, 0, rng)[1] for _ in range(2000)])
    assert draws < 4  # row 0 draws its two barely explored entries, the others almost nothing


def test_maximin_runs_draw_under_60_percent_of_two_full_thetas():
    # The full rule draws 2 (A^2 - A) variates a step; after learning, pruning must save most (rows behind
    # the Condorcet winner are dropped on their labels, its own entries surely above 1/2 are skipped).
    X = duelbandits.make_scenario("condorcet", seed=0).matrix
    A, T = X.shape[0], 2000
    per_step = ts_maximin.beta_draws(X, T, np.random.default_rng(0)) / T
    assert 0 < per_step < 0.6 * 2 * (A * A - A)


def test_chi_square_check_detects_a_sampler_that_skips_the_tails():
    """Power of the check above: treating every row as tail-free (caps without bins, values truncated at
    the thresholds) on the Borda case random_counts(6, 4) at z = 0.3 gives a statistic near 900 against
    the threshold 35."""
    W = random_counts(6, 4)
    pair, order = P.new_state(W, True, 0.3)
    A = W.shape[0]
    pair[range(A), range(A), P.MASS_UP] = 1.0  # wrong: tails ignored
    pair[range(A), range(A), P.MASS_BOTH] = 1.0
    rng = np.random.default_rng(3)
    wrong = np.array([P.sample_borda(pair, order, 0, rng)[0] for _ in range(N)])
    full = full_theta_choices(W, N, np.random.default_rng(4), np.sum)
    with pytest.raises(AssertionError):
        assert_same_law(wrong, full, W.shape[0])
