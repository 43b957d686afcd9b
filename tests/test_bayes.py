"""The maximin-bayes target (duelbandits.studies.bayes): the prior's draws, the documented seed streams, the
estimator on a hand-computed case, the verdict at its boundaries, and the config section's checks."""

import copy
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from duelbandits import configcheck, digests, plan, regret, schemas
from duelbandits.algorithms import ts_maximin
from duelbandits.configcheck import ConfigError
from duelbandits.studies import bayes
from duelbandits.studies import bayes_growth as growth
from duelbandits.studies import bayes_report as report

REPO = Path(__file__).resolve().parents[1]
BASE = yaml.safe_load((REPO / "config.yaml").read_text())
SCHEMA = REPO / "workflow/schemas/config.schema.yaml"


LAWS = {  # prior -> (variance, fourth central moment, CDF) of an off-diagonal entry
    "uniform": (1 / 12, 1 / 80, lambda x: x),
    "projected": (1 / 24, 1 / 240, lambda x: np.where(x < 0.5, 2 * x**2, 1 - 2 * (1 - x) ** 2)),
}


@pytest.mark.parametrize("prior", LAWS)
def test_each_off_diagonal_entry_has_the_priors_law_and_the_pairs_are_independent(prior):
    """n = 4,000 draws at A = 4 (fixed seed), each a valid matrix. Each entry (i, j), i != j, is U(0, 1)
    (``uniform``: variance 1/12, fourth central moment 1/80) or triangular on [0, 1] with mode 1/2
    (``projected``, (a + 1 - b) / 2 with a, b ~ U(0, 1) independent: variance (1/12 + 1/12) / 4 = 1/24, fourth
    central moment (b - a)^4 / 240 = 1/240, CDF 2 x^2 below 1/2): mean 1/2 within 5 standard errors
    sqrt(var / n), variance within 5 sqrt((mu4 - var^2) / n), and the Kolmogorov-Smirnov distance to the CDF
    below its 1% critical value 1.63 / sqrt(n). Two different pairs' entries are uncorrelated: the sample
    correlation has standard error 1 / sqrt(n). A correct prior fails with a probability far below 1% at any
    seed; at this seed the test is deterministic."""
    var, mu4, cdf = LAWS[prior]
    n, A = 4000, 4
    rng = np.random.default_rng(20261126)
    draws = np.stack([bayes.draw_matrix(A, rng, prior) for _ in range(n)])
    assert np.allclose(draws + draws.transpose(0, 2, 1), 1.0) and np.all(draws[:, range(A), range(A)] == 0.5)
    grid = np.arange(1, n + 1) / n
    for i, j in zip(*np.nonzero(~np.eye(A, dtype=bool))):
        x = np.sort(draws[:, i, j])
        assert abs(x.mean() - 0.5) < 5 * math.sqrt(var / n)
        assert abs(x.var(ddof=1) - var) < 5 * math.sqrt((mu4 - var**2) / n)
        F = cdf(x)
        assert max(np.max(grid - F), np.max(F - (grid - 1 / n))) < 1.63 / math.sqrt(n)
    assert abs(np.corrcoef(draws[:, 0, 1], draws[:, 2, 3])[0, 1]) < 5 / math.sqrt(n)
    assert abs(np.corrcoef(draws[:, 0, 1], draws[:, 0, 2])[0, 1]) < 5 / math.sqrt(n)


def test_the_seeds_are_the_documented_streams():
    """Golden values, computed once from the documented definition and committed: with
    k(s) = int.from_bytes(s.encode("utf-8"), "little") (k("maximin-bayes") = 9142643415037131472805805187437,
    k("matrix") = 132394287128941, k("run") = 7239026), matrix 7 at A = 3, seed 12345, is the upper triangle
    (row by row) np.random.default_rng(SeedSequence([12345, k("maximin-bayes"), k("matrix"), 3, 7]))
    .uniform(size=3), and run 1 on it the stream SeedSequence([12345, k("maximin-bayes"), k("run"), 3, 7, 1]),
    whose first two uniforms are below. The projected prior's matrix 7 starts from the same uniforms u: (u + 1 - v)
    / 2, v the stream's next three."""
    X = bayes.prior_matrix(12345, 3, 7)
    assert X[np.triu_indices(3, 1)].tolist() == [0.4634680698621364, 0.2870623694895654, 0.6725874197069953]
    v = np.random.default_rng(bayes.matrix_seed(12345, 3, 7)).uniform(size=6)[3:]
    projected = bayes.prior_matrix(12345, 3, 7, "projected")[np.triu_indices(3, 1)]
    assert projected.tolist() == ((X[np.triu_indices(3, 1)] + 1 - v) / 2).tolist()
    first = np.random.default_rng(bayes.run_seed(12345, 3, 7, 1)).uniform(size=2).tolist()
    assert first == [0.21269791132995763, 0.1791634811262659]


def test_a_job_takes_every_jobs_th_matrix_and_the_jobs_cover_them_once():
    parts = [list(bayes.matrix_indices(10, 3, job)) for job in range(3)]
    assert parts == [[0, 3, 6, 9], [1, 4, 7], [2, 5, 8]]


def _runs(cells) -> pd.DataFrame:
    """bayes-runs' rows of the ratios R_t / bound ``cells[A, t][matrix][run]``."""
    rows = [
        (A, m, r, t, x * bayes.bound(A, t), bayes.bound(A, t), x)
        for (A, t), matrices in cells.items()
        for m, runs in enumerate(matrices)
        for r, x in enumerate(runs)
    ]
    return pd.DataFrame(rows, columns=schemas.BAYES_RUN_SCHEMA.names)


def test_the_estimator_on_hand_computed_cases_plain_and_stratified():
    """Plain (no strata), A = 3: ratios of 3 matrices x 2 runs, matrix means 1.0, 2.0, 0.5; their mean 7/6;
    deviations -1/6, 5/6, -2/3, sample variance 21/36, so se = sqrt(21/36 / 3) = sqrt(7) / 6; above 1: only
    2.0, share 1/3 with standard error sqrt(1/3 * 2/3 / 3); A = 4 beside it, 2 matrices x 1 run, mean 0.2.
    A = 3 is inconclusive: its interval would exclude 1 from n > 3 (z se / (7/6 - 1))^2 = 21 z^2 = 80.67
    matrices on, so 81; A = 4 holds (no number). Stratified (Cochran 12.2): 10 matrices drawn, 4 with a
    Condorcet winner; the 4 simulated are the first (flags T, F, T, F), ratios 0.2, -0.1, 0.4, 0.3:
    W = 0.4, 0.6, stratum means 0.3, 0.1 (variances 0.02, 0.08), estimate 0.18; phase 2
    0.16 * 0.02 / 2 * (1 - 2/4) + 0.36 * 0.08 / 2 * (1 - 2/6) = 0.0104; S^2 = 0.4 * 0.02 + 0.6 * 0.08 +
    0.4 * 0.12^2 + 0.6 * 0.08^2 = 0.0656, phase 1 0.0656 / 10; share 0.4 +- z sqrt(0.24 / 10)."""
    z = 1.9599639845400536  # the two-sided 0.95 normal quantile
    plain = {(3, 100): [[0.5, 1.5], [2.0, 2.0], [0.0, 1.0]], (4, 100): [[0.1], [0.3]]}
    table = bayes.estimates(_runs(plain), 0.95)
    row = next(table.itertuples())
    assert (row.ratio, row.se) == pytest.approx((7 / 6, math.sqrt(7) / 6))
    assert (row.low, row.high) == pytest.approx((7 / 6 - z * math.sqrt(7) / 6, 7 / 6 + z * math.sqrt(7) / 6))
    assert (row.share_above, row.share_high) == pytest.approx((1 / 3, 1 / 3 + z * math.sqrt(2 / 27)))
    assert row.share_low == 0.0 and row.condorcet_share == 1.0 and row.strata_draws == 3
    assert table[["actions", "matrices", "runs_per_matrix"]].values.tolist() == [[3, 3, 2], [4, 2, 1]]
    assert table["ratio"].iloc[1] == pytest.approx(0.2) and table["verdict"].tolist() == ["inconclusive", "holds"]
    assert report.overall_verdict(table).startswith("inconclusive at A = 3, T = 100")
    page = report.bayes_markdown(table, report.overall_verdict(table), "uniform", 0)
    assert "| inconclusive | 81 |" in page and "| holds | - |" in page
    assert growth.matrices_to_decide(100, 0.5, 0.75) == 401  # 100 (0.5 / 0.25)^2 = 400 exactly: not yet excluded
    assert growth.matrices_to_decide(100, 0.5, 1.0) == math.inf  # at a ratio of exactly 1 none decides
    flags = {3: [True, False, True, False, True, True, False, False, False, False]}
    (row,) = bayes.estimates(_runs({(3, 100): [[0.2], [-0.1], [0.4], [0.3]]}), 0.95, flags=flags).itertuples()
    assert (row.ratio, row.se) == pytest.approx((0.18, math.sqrt(0.0104 + 0.00656)))
    half = z * math.sqrt(0.024)
    assert (row.condorcet_low, row.condorcet_high) == pytest.approx((0.4 - half, 0.4 + half))
    flags = {3: [True, True, True, True, False]}  # a stratum drawn but none of it simulated
    with pytest.raises(bayes.BayesError, match="^A = 3: a stratum has 1 of 5 drawn matrices .without a Condorcet"):
        bayes.estimates(_runs({(3, 100): [[0.2], [-0.1], [0.4], [0.3]]}), 0.95, flags=flags)
    for fewer in ({(3, 100): [[1.0, 2.0]]}, {(3, 100): [[0.5, 1.5], [2.0, 2.0], [0.0]]}):  # one matrix; a run missing
        with pytest.raises(bayes.BayesError, match="same runs"):
            bayes.estimates(_runs(fewer), 0.95)


def test_the_local_exponent_and_the_crossing_by_hand():
    """Means 100 and 1000 at t = 10^5 and 10^6: exponent log(10) / log(10) = 1; against a sqrt(t) bound
    (exponent 1/2) at ratio 1/4 the crossing is 10^6 * 4^(1 / (1 - 1/2)) = 1.6 * 10^7; below 1, an exponent
    at or below the bound's never crosses (inf), even just below 1; at or above 1 the bound is reached at
    t = 10^6 itself, rising (exponent 1) or falling toward 1 (0.3), or with no exponent; below 1 a mean not
    positive has no exponent (NaN) and no crossing. The bootstrap of identical matrices in one stratum has
    every replicate at the point: a zero-width interval."""
    t = [10**5, 10**6]
    alpha = growth.exponents(t, [100.0, 1000.0])
    assert np.isnan(alpha[0]) and alpha[1] == pytest.approx(1.0)
    assert np.isnan(growth.exponents(t, [-5.0, 1000.0])[1])
    cross = growth.crossings([10**6] * 3, [0.25] * 3, [1.0, 0.5, 0.4], [0.5] * 3)
    assert cross.tolist() == pytest.approx([1.6e7, math.inf, math.inf])
    below = growth.crossings([10**6] * 2, [np.nextafter(1.0, 0), 0.5], [0.4, np.nan], [0.5] * 2)
    assert below[0] == math.inf and np.isnan(below[1])
    above = growth.crossings([10**6] * 4, [2.0, 2.0, 1.0, 3.0], [1.0, 0.3, 0.2, np.nan], [0.5] * 4)
    assert above.tolist() == [1e6] * 4
    bounds = [bayes.bound(5, s) for s in t]
    a, c = growth.bootstrap([[100.0, 1000.0]] * 3, [True] * 4, t, bounds, 20, np.random.default_rng(1))
    low, high, undefined = growth.percentile_interval(a, 0.9)
    assert np.isnan(low[0]) and (low[1], high[1]) == pytest.approx((1.0, 1.0)) and undefined.tolist() == [20, 0]
    assert growth.grid(10**6, 10**5, 3) == [100000, 316228, 1000000] and growth.grid(500, 7, 1) == [500]


def test_undefined_resamplings_are_counted_and_the_page_says_so():
    """Percentile intervals over the defined replicates (inverted CDF, the smallest x with F(x) >= q): of
    NaN, 1, 2, 3, NaN at 50% (q = 0.25, 0.75) the ends are 1 and 3 with 2 undefined; of 1, 2, 3, 4, inf at
    90% (q = 0.05, 0.95) 1 and inf with none; all NaN: no ends, 5 undefined. End to end: 3 identical
    matrices at A = 3 with R_t = -1, 5, 10 at t = 100, 1,000, 10,000, 20 resamplings: every resampled mean
    at 100 is -1, so at 1,000 the exponent and the crossing are undefined in all 20; at 10,000 the exponent
    is log(10 / 5) / log(10) = 0.30 in every resampling, below the bound's 1/2: never."""
    x = np.array([[np.nan, 1, np.nan], [1, 2, np.nan], [2, 3, np.nan], [3, 4, np.nan], [np.nan, np.inf, np.nan]])
    low, high, undefined = growth.percentile_interval(x[:, :1], 0.5)
    assert (low[0], high[0], undefined[0]) == (1, 3, 2)
    low, high, undefined = growth.percentile_interval(x[:, 1:], 0.9)
    assert (low[0], high[0], undefined[0]) == (1, math.inf, 0) and np.isnan(low[1]) and undefined[1] == 5
    R = {100: -1.0, 1000: 5.0, 10000: 10.0}
    table = bayes.estimates(_runs({(3, t): [[r / bayes.bound(3, t)]] * 3 for t, r in R.items()}), 0.95, replicates=20)
    assert table["exponent_undefined"].tolist() == [20, 20, 0] and table["crossing_undefined"].tolist() == [20, 20, 0]
    assert table["exponent"].iloc[2] == pytest.approx(math.log10(2))
    page = report.bayes_markdown(table, report.overall_verdict(table), "uniform", 20)
    everywhere = "undefined [undefined in all 20 resamplings]"
    assert f"| {everywhere} | {everywhere} |" in page and "| 0.30 [0.30, 0.30] | never [never, never] |" in page
    assert "nan" not in page.lower()


def test_the_ratios_figure_counts_each_a_matrices_in_shared_bins_and_names_the_share_above(tmp_path):
    # matrix means by A (two runs each): A = 3: 0.3, 0.5, 1.5; A = 4: -0.5, 0.6, 1.0. With bins = 3 (not the
    # default 40) over [min, max] of all of them and 1, the edges are -0.5, 1/6, 5/6, 1.5 (no mean on an
    # inner edge), so A = 3 counts 0, 2, 1 and A = 4 counts 1, 1, 1; one A = 3 matrix of three is above 1.
    means = {3: [0.3, 0.5, 1.5], 4: [-0.5, 0.6, 1.0]}
    runs = _runs({(A, 100): [[m - 0.25, m + 0.25] for m in values] for A, values in means.items()})
    fig = report.ratios_figure(runs, bayes.estimates(runs, 0.95), 3, [tmp_path / "r.png"], data_digest="d")
    axes = fig.get_axes()
    assert [[p.get_height() for p in ax.patches] for ax in axes] == [[0, 2, 1], [1, 1, 1]]
    assert [p.get_x() for p in axes[0].patches] == pytest.approx([-0.5, 1 / 6, 5 / 6])
    assert axes[0].texts[0].get_text().startswith("A = 3: 3 matrices, 33.3% [")
    assert axes[1].texts[0].get_text().startswith("A = 4: 3 matrices, 0.0% [")
    assert digests.figure_data_digest(tmp_path / "r.png") == "d"


def test_the_verdict_at_its_boundaries():
    """Holds below 1, fails above it; 1 inside or on an end of the interval is inconclusive."""
    ends = [(0.2, 0.999), (0.2, 1.0), (0.9, 1.1), (1.0, 1.5), (1.001, 1.5)]
    assert [bayes.verdict(*e) for e in ends] == ["holds", "inconclusive", "inconclusive", "inconclusive", "fails"]


def test_the_overall_verdict_names_the_reading_and_the_prior():
    frame = pd.DataFrame({"actions": [3, 4], "horizon": 10, "verdict": "holds", "prior": "uniform antisymmetric"})
    reading = "as a Bayesian bound (prior: uniform antisymmetric) at A ="
    assert report.overall_verdict(frame) == f"holds {reading} 3, 4, T = 10"
    assert report.overall_verdict(frame.assign(verdict=["holds", "fails"])) == f"fails {reading} 4, T = 10"


def test_the_headline_verdict_is_the_longest_horizons_and_the_page_says_so_once():
    """Three matrices at A = 3, one run each: R_t / bound 2.0, 2.1, 2.2 at t = 100 (mean 2.1, se 0.058:
    fails) and 0.1, 0.2, 0.3 at t = 1,000 (mean 0.2: holds). The headline is t = 1,000's alone; the page
    keeps t = 100's row with its own verdict (and the crossing 'reached': the ratio is above 1 there)."""
    table = bayes.estimates(_runs({(3, 100): [[2.0], [2.1], [2.2]], (3, 1000): [[0.1], [0.2], [0.3]]}), 0.95)
    assert table["verdict"].tolist() == ["fails", "holds"]
    headline = report.overall_verdict(table)
    assert headline == "holds as a Bayesian bound (prior: uniform antisymmetric) at A = 3, T = 1,000"
    page = report.bayes_markdown(table, headline, "uniform", 0)
    assert page.count("Headline verdict, at the longest horizon") == 1 and f"**{headline}.**" in page
    assert "| 3 | 100 | 3 x 1 | 2.100 [" in page and "| fails | - | - | reached [-, -] |" in page


def test_measure_sums_the_regret_as_the_run_proceeds_to_the_bits_of_the_whole_trace():
    """R_t summed as the run proceeds (no trace) equals, bit for bit, the cumulative sum of the whole run's
    per-step Maximin regrets that ``simulate`` makes with the same seed (the implementation before, whose
    rows the long runs' files hold), at A = 3 and 5 (off the default grid), the first step and the last; each
    row's bound is Theorem 4.1's at its horizon and its ratio R_t / bound."""
    from duelbandits.simulation import simulate

    ts = [1, 7, 100, 999, 5000]
    for A, prior in ((3, "uniform"), (5, "projected")):
        got = bayes.measure(A, [2, 5], 2, ts, 11, prior=prior)
        for m in (2, 5):
            X = bayes.prior_matrix(11, A, m, prior)
            for r in range(2):
                res = simulate(X, bayes.ALGORITHM, ts[-1], bayes.run_seed(11, A, m, r), stride=ts[-1])
                whole = np.cumsum(regret.per_step("maximin", X, res.I, res.J))[np.asarray(ts) - 1]
                mine = got[(got["matrix"] == m) & (got["run"] == r)].sort_values("horizon")["regret"].to_numpy()
                np.testing.assert_array_equal(mine, whole)
        assert got["bound"].tolist()[:5] == [bayes.bound(A, t) for t in ts]
        assert np.allclose(got["ratio"], got["regret"] / got["bound"])
    with pytest.raises(ValueError, match="strictly increasing"):  # a repeated step would skip the next one
        ts_maximin.regret_at(X, [5, 5], np.zeros((A, A)), np.random.default_rng(0))


def test_the_default_section_is_valid_and_checked():
    configcheck.validate(BASE, SCHEMA)
    configcheck.check_target(BASE, "maximin-bayes")
    assert "maximin-bayes" in plan.BEYOND_THE_PAPER and "maximin-bayes" not in plan.POINT_TARGETS
    assert "maximin-bayes" not in plan.paper_config(BASE)


def _check(**section) -> None:
    """check_target of the default config with ``section``'s keys of maximin-bayes changed."""
    config = copy.deepcopy(BASE)
    config["maximin-bayes"].update(section)
    configcheck.check_target(config, "maximin-bayes")


def test_the_target_check_names_its_key():
    _check(matrices=3, jobs=3)  # the last valid number of jobs: one matrix each
    line = r"^config: maximin-bayes/jobs: 4 jobs per A for 3 matrices \(maximin-bayes/matrices\): a job would have "
    with pytest.raises(ConfigError, match=line + "no matrix$"):
        _check(matrices=3, jobs=4)
    config = copy.deepcopy(BASE)
    config["maximin-bayes"]["actions"] = [3, 3]
    with pytest.raises(ConfigError, match=r"^config: maximin-bayes/actions: \[3, 3\] has non-unique elements$"):
        configcheck.validate(config, SCHEMA)
    for key, value, most in (("grid_from", 10**6, "horizon"), ("matrices", 10**6, "strata_draws")):
        _check(jobs=1, **{key: BASE["maximin-bayes"][most]})  # at its most
        with pytest.raises(ConfigError, match=f"^config: maximin-bayes/{key}: 1000000 is above maximin-bayes/{most}"):
            _check(jobs=1, **{key: value})
    config = copy.deepcopy(BASE)  # any horizon fits in memory (no trace), up to the run files' int32 column (schema)
    config["memory_limit_gb"] = 0.001
    config["maximin-bayes"]["horizon"] = 2**31 - 1
    configcheck.validate(config, SCHEMA)
    configcheck.check_target(config, "maximin-bayes")


def test_an_unknown_prior_is_refused_in_one_line_and_the_tables_name_the_prior():
    with pytest.raises(bayes.BayesError, match="unknown prior 'beta'; the priors are uniform, projected"):
        bayes.draw_matrix(3, np.random.default_rng(0), "beta")
    runs = bayes.measure(3, range(3), 1, [100], 1, prior="projected")
    table = bayes.estimates(runs, 0.95, "projected")
    assert set(table["prior"]) == {"independent entries, projected"}
    assert "(prior: independent entries, projected)" in report.overall_verdict(table)
