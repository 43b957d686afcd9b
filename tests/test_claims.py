"""The claims ledger (duelbandits.studies.claims) as data: its verdict rules and intervals as tables of cases at
their boundaries (the last value that holds, the first that does not), then the ledger of a small hand-made
summary and hand-made long-horizon tables, each change of an input against the rows it must move."""

import math

import numpy as np
import pandas as pd
import pytest

from duelbandits.schemas import CLAIM_SCHEMA
from duelbandits.studies.claims import analysis as claims
from duelbandits.studies.claims import claims_markdown, verdicts

H, F, I, N = verdicts.HOLDS, verdicts.FAILS, verdicts.INCONCLUSIVE, verdicts.NOT_TESTED
NAN, INF = math.nan, math.inf
Z95 = 1.6448536269514722
"""The one-sided 0.95 normal quantile, written out (not taken from duelbandits.studies.claims)."""
FIXED_HOLDS = "holds on this fixed matrix"
"""A Theorem 4.1 row on a fixed matrix says which reading of the theorem it tests (claims.READINGS)."""
ONE_RUN = "one run: no interval"
SPECS = claims.DATA["claims"]
SEEDS_100 = "runs 0-99, run r's stream SeedSequence([seed, scenario, algorithm, r])"
"""docs/claims.md: the paper run's 100 runs, run r with the stream SeedSequence([seed, scenario, algorithm, r])."""


def _same(got, want, where) -> None:
    """``got`` is ``want``: NaN where NaN, floats to 1e-12 relative, anything else equal (a tuple: each)."""
    if isinstance(want, tuple):
        assert len(got) == len(want), (where, got)
        for g, w in zip(got, want):
            _same(g, w, where)
    elif isinstance(want, float) and math.isnan(want):
        assert isinstance(got, float) and math.isnan(got), (where, got)
    elif isinstance(want, float):
        assert got == pytest.approx(want, rel=1e-12), (where, got, want)
    else:
        assert got == want, (where, got, want)


# --- The verdict rules and the intervals, as tables -------------------------------------------------

MISSING = [((1.0, NAN, 5.0), N), ((1.0, 2.0, NAN), N), ((1.0, INF, 5.0), N), ((-INF, 2.0, 5.0), N), ((NAN, 1, 5), N)]
"""An end or the threshold NaN or infinite decides nothing (a bound null where T misses the theorem's
requirement reaches a rule as NaN)."""

PAIR = {"a": (5.0, 6.0), "b": (20.0, 25.0), "x": (1.0, 3.0)}
"""Two methods named (x, y) against two others: every named high end must lie below every other low end."""

RULES = {
    "below": (verdicts.below, [
        ((90.0, np.nextafter(100.0, 0), 100.0), H),  # the last high end that holds
        ((90.0, 100.0, 100.0), I),  # at the bound: not below it
        ((np.nextafter(100.0, 200), 120.0, 100.0), F),  # the first low end that fails
        ((100.0, 120.0, 100.0), I),
        *MISSING,
    ]),
    "at least": (verdicts.at_least, [
        ((0.9, 1.2, 0.9), H),  # the low end at the threshold holds
        ((np.nextafter(0.9, 0), 1.2, 0.9), I),
        ((0.5, np.nextafter(0.9, 0), 0.9), F),  # the high end just below fails
        ((0.5, 0.9, 0.9), I),
        *MISSING,
    ]),
    "smallest": (verdicts.smallest, [
        (({"a": (10.0, 12.0), "b": (20.0, 25.0), "x": (5.0, np.nextafter(10.0, 0))}, ["x"]), H),
        (({"a": (10.0, 12.0), "b": (20.0, 25.0), "x": (5.0, 10.0)}, ["x"]), I),
        (({"a": (10.0, 12.0), "b": (20.0, 25.0), "x": (np.nextafter(12.0, 20), 14.0)}, ["x"]), F),
        (({"a": (10.0, 12.0), "b": (20.0, 25.0), "x": (12.0, 14.0)}, ["x"]), I),
        (({**PAIR, "y": (2.0, 9.0)}, ["x", "y"]), I),  # the pair's largest high end 9 against the others' 5
        (({**PAIR, "y": (2.0, 4.0)}, ["x", "y"]), H),
        (({**PAIR, "y": (7.0, 8.0)}, ["x", "y"]), F),  # a's high end 6 under y's low end 7
        (({"a": (5.0, 6.0), "b": (NAN, NAN), "x": (1.0, 3.0)}, ["x"]), N),  # min() would skip the NaN: holds
    ]),
    "every": (lambda *parts: verdicts.every(iter(parts)), [  # an iterator: each test must see every part
        ((), N), ((N, N), N), ((N, I), I), ((H, N), I), ((H, F, H), F), ((I,), I), ((H, H), H),
    ]),
}  # fmt: skip


@pytest.mark.parametrize("rule, cases", RULES.values(), ids=list(RULES))
def test_a_verdict_rule_at_its_boundaries(rule, cases):
    for args, expected in cases:
        assert rule(*args) == expected, args


def _limits(x, se):
    return x, x - Z95 * se, x + Z95 * se


def _ratio_limits(r, se):
    return r, r * math.exp(-Z95 * se), r * math.exp(Z95 * se)


INTERVALS = [
    # mean -+ z std / sqrt(runs): one run gives z std; no run has no interval
    (verdicts.mean_interval, (10.0, 2.0, 1, 0.95), (10.0 - 2 * Z95, 10.0 + 2 * Z95)),
    (verdicts.mean_interval, (10.0, 2.0, 0, 0.95), (-INF, INF)),
    # means 10 -> 100 over t = 100 -> 10,000: slope 1/2, se sqrt((1/10)^2 / 4 + (20/100)^2 / 4) / log 100
    (verdicts.log_slope, (10.0, 1.0, 100, 100.0, 20.0, 10000, 4, 0.95), _limits(0.5, 0.0125**0.5 / math.log(100))),
    # 0.5 -> 5 over one decade, 10% spreads, one run (means below 1 have their logarithm)
    (verdicts.log_slope, (0.5, 0.05, 10, 5.0, 0.5, 100, 1, 0.95), _limits(1.0, math.sqrt(0.02) / math.log(10))),
    # no slope: a mean not positive, no width between the ends, the ends reversed
    *[(verdicts.log_slope, (*ends, 4, 0.95), (NAN,) * 3) for ends in [
        (0.0, 1.0, 100, 100.0, 20.0, 10000), (10.0, 1.0, 100, 0.0, 20.0, 10000), (-1.0, 1.0, 100, 100.0, 20.0, 10000),
        (10.0, 1.0, 100, 100.0, 20.0, 100), (10.0, 1.0, 1000, 100.0, 20.0, 100)]],
    # 200 over 100, spreads 10% and 5%, 25 runs: log se sqrt(0.1^2 / 25 + 0.05^2 / 25); 0.5 over 0.25, one run
    (verdicts.ratio_interval, (200.0, 20.0, 100.0, 5.0, 25, 0.95), _ratio_limits(2.0, math.sqrt(0.0005))),
    (verdicts.ratio_interval, (0.5, 0.05, 0.25, 0.05, 1, 0.95), _ratio_limits(2.0, math.sqrt(0.05))),
    *[(verdicts.ratio_interval, (a, 0.1, b, 0.1, 25, 0.95), (NAN,) * 3) for a, b in [(0, 1.0), (1.0, 0), (-1.0, 1.0)]],
]  # fmt: skip


def test_an_interval_by_hand():
    for f, args, expected in INTERVALS:
        _same(f(*args), tuple(map(float, expected)), (f.__name__, args))


# --- A row and its helpers ----------------------------------------------------------------------------


def _row(claim="c", verdict=H, reason="r", value=50.0, low=40.0, high=60.0, threshold=100.0):
    return claims.Claim(claim, "w", "s", "q", "m", value, low, high, threshold, verdict, reason, "f")


def _assert_row(actual, expected):
    """Every field of a ledger row (a Claim or a row of the table) in CLAIM_SCHEMA's order; the source, if not
    expected, this run."""
    got = vars(actual) if isinstance(actual, claims.Claim) else dict(actual)
    assert list(got) == CLAIM_SCHEMA.names
    expected = (*expected, claims.THIS_RUN)[: len(CLAIM_SCHEMA.names)]
    for name, want in zip(CLAIM_SCHEMA.names, expected, strict=True):
        _same(got[name], want, name)


def test_one_run_keeps_the_number_drops_the_interval_and_keeps_a_reason_not_to_test():
    _assert_row(claims.one_run(_row()), ("c", "w", "s", "q", "m", 50.0, NAN, NAN, 100.0, N, ONE_RUN, "f"))
    why = claims.one_run(_row(verdict=N, reason="T misses it"))
    assert (why.verdict, why.reason) == (N, "one run: no interval; T misses it")
    assert claims.one_run(_row(verdict=N, reason="")).reason == ONE_RUN


def test_not_run_names_a_method_outside_the_paper_by_its_slug():
    """(The paper's six by their labels: the ledger's rows about methods not run.)"""
    assert claims.not_run(["rucb"]) == "rucb not run"
    assert claims.not_run(["rucb", "ts-maximin"]) == "rucb and TS-Maximin not run"


BAYESIAN = "Theorem 4.1 (Bayesian, prior: some prior) (A = 3, T = 100)"
READINGS = [  # (claim, verdict, the verdict read)
    ("Theorem 4.1 (borda, t = 100)", F, "fails as a bound on a fixed matrix"),
    ("Theorem 4.1 (borda, t = 100)", H, FIXED_HOLDS),
    ("Theorem 4.1 (borda, t = 100)", I, I),
    (BAYESIAN, H, "holds as a Bayesian bound (prior: some prior)"),
    (BAYESIAN, F, "fails as a Bayesian bound (prior: some prior)"),
    (BAYESIAN, N, N),
    ("Theorem 4.1 (Bayesian, prior: a prior: of sorts) (A = 3, T = 100)", H,
     "holds as a Bayesian bound (prior: a prior: of sorts)"),  # the prior named whole
    ("Theorem 4.2 (borda)", F, F),
    ("S5 borda: Thompson Sampling shines", F, F),
    ("theorem 4.1 (borda)", F, F),
]  # fmt: skip


def test_reading_names_the_reading_only_on_theorem_4_1_rows():
    for claim, verdict, expected in READINGS:
        read = claims.reading(_row(claim, verdict))
        assert (read.verdict, read.reason) == (expected, "r"), (claim, verdict)


def test_a_conjunction_reports_the_largest_ratio_to_its_bound_and_each_part_verdict():
    """Parts 50 [40, 60] of 100 and 30 [20, 45] of 50: value max(0.5, 0.6) = 0.6, low max(0.4, 0.4) = 0.4,
    high max(0.6, 0.9) = 0.9; each maximum from a different part. A part from one run makes the row one run's;
    a part not tested for another reason (its own "one run" second) does not."""
    a = _row("Theorem 4.1 (borda)", H, "R_T / bound = 0.500")
    b = _row("Theorem 4.4 (borda)", I, "x", 30.0, 20.0, 45.0, 50.0)
    spec = {**next(s for s in SPECS if s["rule"] == "every"), "scenario": "borda", "theorems": ["4.1", "4.4"]}
    spec |= {"claim": "c", "where": "w", "statement": "s", "quantity": "q", "method": "m", "figure": "f"}

    def every(*parts):
        [row] = claims.rule_every(spec, {"summary": _summary(), "rows": {p.claim: p for p in parts}}, {})
        return row

    reason = "Theorem 4.1: holds, Theorem 4.4: inconclusive"
    _assert_row(every(a, b), ("c", "w", "s", "q", "m", 0.6, 0.4, 0.9, 1.0, I, reason, "f"))
    _assert_row(every(a, claims.one_run(b)), ("c", "w", "s", "q", "m", 0.6, NAN, NAN, 1.0, N, ONE_RUN, "f"))
    other = _row("Theorem 4.4 (borda)", N, "T misses it; one run: no interval")
    assert every(a, other).reason == "Theorem 4.1: holds, Theorem 4.4: not tested"


# --- The ledger of a hand-made summary ----------------------------------------------------------------


def _summary():
    """A tiny summary: two scenarios, six algorithms, steps 4,000 and 40,000, std 10% of the mean, 100 runs;
    at 40,000 the means 130, 450, 1,900, 8,700, 78, 69, each t^0.5 before (t^1 for ISS and DTS on borda)."""
    from duelbandits.theorems import THEOREMS

    rows = []
    shown = {"condorcet": {"ts-maximin": "maximin", "ts-borda": "borda", "sparring-exp3p": "exp3p"}, "borda": {}}
    shown = {scenario: {**algorithms, "partial-monitoring": "borda"} for scenario, algorithms in shown.items()}
    means = {"ts-maximin": 130, "ts-borda": 450, "sparring-exp3p": 1900, "partial-monitoring": 8700}
    means |= {"iss": 78, "dts": 69}
    for scenario in ("condorcet", "borda"):
        for algorithm, m in means.items():
            for regret in ("maximin", "borda", "exp3p"):
                paper = regret == shown[scenario].get(algorithm, "maximin" if scenario == "condorcet" else "borda")
                theorem = THEOREMS.get(algorithm)
                for t in (4000, 40000):
                    value = m * (t / 40000) ** (1.0 if algorithm in ("iss", "dts") and scenario == "borda" else 0.5)
                    bound = float(theorem.bound(10, t)) if getattr(theorem, "regret", None) == regret else math.nan
                    rows.append((scenario, algorithm, regret, paper, t, value, 0.1 * value, 100, bound))
    return pd.DataFrame(rows, columns=["scenario", "algorithm", "regret", "paper", "t", "mean", "std", "runs", "bound"])


def _bound(algorithm, regret):
    """The theorem bound the hand-made summary carries at T = 40,000 (an input of the ledger)."""
    s = _summary()
    return float(s.loc[(s["algorithm"] == algorithm) & (s["regret"] == regret) & (s["t"] == 40000), "bound"].iloc[0])


def _interval(mean, runs=100):
    """A mean of _summary() and its one-sided 0.95 limits: std 0.1 mean over sqrt(runs) runs."""
    return mean, mean - Z95 * 0.1 * mean / math.sqrt(runs), mean + Z95 * 0.1 * mean / math.sqrt(runs)


THEOREM_ROWS = [  # (theorem, algorithm, its regret, mean at T, R_T / bound's text)
    ("4.1", "ts-maximin", "maximin", 130.0, "0.061"),
    ("4.2", "ts-borda", "borda", 450.0, "0.066"),
    ("4.3", "sparring-exp3p", "exp3p", 1900.0, "0.427"),
    ("4.4", "partial-monitoring", "borda", 8700.0, "0.429"),
]
SLOPE_SE = math.sqrt(2 * 0.1**2 / 100) / math.log(10)
"""The standard error of a slope over one decade of _summary() (10% spreads, 100 runs at both ends)."""
BUILD = "the {} target was not built (snakemake --cores 2 {})"
CLAUSE = "; not linear yet at the paper's horizon, which 'ultimately' allows"
"""The reason's clause of an "ultimately" claim whose slope at T is below the threshold (inconclusive, not fails)."""


def _ledger_rows() -> dict:
    """claim -> (value, low, high, threshold, verdict, reason) of every row of the ledger of _summary(), in its
    order, the numbers worked out from the means: the bounds 2,146, 6,782, 4,448 and 20,286 (docs/claims.md's
    table), the slopes log(10) / log(10) = 1 (ISS, DTS on borda) and 0.5 (the others), TS-Borda over DTS
    450 / 69 with log standard error sqrt(2 * 0.1^2 / 100)."""
    rows = {}
    for name, algorithm, regret, mean, ratio in THEOREM_ROWS:
        for scenario in ("borda", "condorcet"):
            verdict = FIXED_HOLDS if name == "4.1" else H
            rows[f"Theorem {name} ({scenario})"] = (*_interval(mean), _bound(algorithm, regret), verdict)
            rows[f"Theorem {name} ({scenario})"] += (f"R_T / bound = {ratio}",)
    pm = _bound("partial-monitoring", "borda")  # Theorem 4.4's rows have the largest ratios: 0.429
    largest = tuple(end / pm for end in _interval(8700.0)) + (1.0,)
    ratio, log_se = 450.0 / 69.0, math.sqrt(2 * 0.1**2 / 100)
    not_built = (NAN, NAN, NAN, NAN, N)
    return rows | {
        # ISS, the weaker of the two, against TS-Maximin, the best of the others
        "S5 condorcet: state of the art very strong": (
            *_interval(78.0), 130.0, H, "largest of ISS, DTS 78.0; smallest of the others 130.0"),
        "S5 condorcet: TS-Borda comparably strong": (
            *_ratio_limits(ratio, log_se), 2.0, F,
            "TS-Borda 450.0 vs DTS 69.0, comparable only for a factor >= 6.7; the best of the paper's four is "
            "TS-Maximin"),
        "S5 condorcet: every method beats its bound": (
            *largest, H, "Theorem 4.1: holds, Theorem 4.2: holds, Theorem 4.3: holds, Theorem 4.4: holds"),
        "S5 borda: ISS's Borda regret linear": (*_limits(1.0, SLOPE_SE), 0.9, H, "R_T / T = 0.0019"),  # 78 / 40,000
        "S5 borda: DTS's Borda regret linear": (*_limits(1.0, SLOPE_SE), 0.9, H, "R_T / T = 0.0017"),  # 69 / 40,000
        "S5 borda: SparringExp3.P ultimately linear (T = 40,000)": (
            *_limits(0.5, SLOPE_SE), 0.9, I,
            "R_T / T = 0.0475" + CLAUSE),
        # DTS's 69 [67.9, 70.1] lies below TS-Borda's 450 [442.6, 457.4]
        "S5 borda: Thompson Sampling shines": (*_interval(450.0), 69.0, F, "next smallest mean 69.0"),
        "S5 borda: Borda methods beat their bounds": (*largest, H, "Theorem 4.2: holds, Theorem 4.4: holds"),
        "Theorems 4.1-4.4 at long horizons": (*not_built, BUILD.format("asymptotics", "asymptotics")),
        "Theorem 4.1 (borda, past 10^7)": (*not_built, BUILD.format("maximin-tail", "maximin_tail")),
        "Theorem 4.1 (small family)": (*not_built, BUILD.format("maximin_tail", "maximin_tail")),
        "Theorem 4.1 (Bayesian, prior: uniform antisymmetric)": (*not_built, BUILD.format(*["maximin_bayes"] * 2)),
    }  # fmt: skip


FIELDS = ["value", "low", "high", "threshold", "verdict", "reason", "source", "method"]
"""The fields of a row the tables of expected rows give, in this order (the first six, or all)."""
SUMMARY_ROWS = 16
"""Rows of the ledger computed from the summary with all six methods on both scenarios: 8 theorem rows and
8 Section 5 rows; the long targets' rows follow."""

TEXTS = {  # claim -> where, statement, quantity, method, figure: the texts of a theorem, an ordering, a slope
    "Theorem 4.1 (condorcet)": (
        "Theorem 4.1 (Section 4)", "TS-Maximin's expected maximin regret is at most the bound, for every X",
        "mean maximin regret of TS-Maximin at T = 40,000 on the condorcet matrix",
        f"paper run, 100 runs ({SEEDS_100}); one-sided 0.95 limits mean -+ 1.645 std/sqrt(100) against the bound "
        "2,146",
        "figures/main/condorcet.png (d); figures/appendix/condorcet-ts-maximin.png (a)"),
    "S5 condorcet: state of the art very strong": (
        "Section 5.2, Condorcet scenario",
        "both state-of-the-art methods (ISS, DTS) show very strong regret performance",
        "mean final regret of the figure's regret (all coincide here up to the winner's definitions), ISS and DTS "
        "against the paper's four",
        f"paper run, 100 runs ({SEEDS_100}); holds when ISS's and DTS's one-sided 0.95 upper limits are below every "
        "other method's lower limit",
        "figures/main/condorcet.png (c)"),
    "S5 borda: ISS's Borda regret linear": (
        "Section 5.2, Borda scenario",
        "both state-of-the-art methods struggle with Borda winners, and so their Borda regret grows linearly",
        "local slope of log mean borda regret on log t of ISS, t = 4,000 to 40,000 (borda)",
        f"paper run, 100 runs ({SEEDS_100}); delta-method one-sided 0.95 limits (ends taken as independent: "
        "conservative); linear when the low end >= 0.9",
        "figures/main/borda.png (c); figures/appendix/borda-iss.png (a)"),
}  # fmt: skip


def test_the_ledger_of_the_hand_made_summary_row_by_row():
    """Every row's number, interval, threshold, verdict and reason, in order; the rows of the long targets
    not built have none and name no source; one row of each rule with its texts."""
    table = claims.ledger(_summary())
    assert table["claim"].tolist() == list(_ledger_rows())
    _moved(table, {claim: dict(zip(FIELDS, row)) for claim, row in _ledger_rows().items()})
    assert table["source"].tolist() == [claims.THIS_RUN] * SUMMARY_ROWS + [claims.NONE] * 4
    by = table.set_index("claim", drop=False)
    for claim, texts in TEXTS.items():
        assert tuple(by.loc[claim, ["where", "statement", "quantity", "method", "figure"]]) == texts, claim


def _changed(s, column, value, **where):
    """``s`` with ``column`` set to ``value`` (or to ``value`` of its values, a function) where ``where`` holds."""
    rows = np.logical_and.reduce([s[k] == v for k, v in where.items()])
    s.loc[rows, column] = value(s.loc[rows, column]) if callable(value) else value
    return s


MEANS = ["mean", "std"]
SOTA, RATIO = "S5 condorcet: state of the art very strong", "S5 condorcet: TS-Borda comparably strong"
EVERY, SHINES = "S5 condorcet: every method beats its bound", "S5 borda: Thompson Sampling shines"
T42 = "T = 40,000 misses Theorem 4.2's horizon requirement"

NO_RUN = "paper run: the summary holds no run of it"


NOT_BUILT = {"value": NAN, "low": NAN, "high": NAN, "threshold": NAN, "verdict": N}
"""The fields of a row not tested for want of its input: no number, no interval, no threshold."""


def _not_run(methods, **texts) -> dict:
    """The fields of a row about ``methods`` (their labels) not run: no number, not tested, naming them."""
    return {**NOT_BUILT, "reason": f"{methods} not run", **texts}


CHANGES = {  # a change of _summary() -> {claim: {field: value} or None for no row}
    # the ordering rows read the regret the figure shows; a theorem row its theorem's (1,300: not shown on borda)
    "the regrets the figures do not show x 10": (lambda s: _changed(s, MEANS, lambda x: 10 * x, paper=False), {
        SOTA: {"value": 78.0, "threshold": 130.0}, SHINES: {"value": 450.0, "threshold": 69.0},
        "Theorem 4.1 (borda)": {"value": 1300.0}, "Theorem 4.1 (condorcet)": {"value": 130.0}}),
    # the ordering row reports the weaker of ISS and DTS, the ratio divides by the better
    "DTS made worse than ISS (90 against 78)": (lambda s: _changed(s, MEANS, lambda x: x * 90 / 69, algorithm="dts"), {
        SOTA: {"value": 90.0, "reason": "largest of ISS, DTS 90.0; smallest of the others 130.0"},
        RATIO: {"value": 450 / 78, "quantity": "TS-Borda's mean final Borda regret over ISS's mean final Maximin "
                "regret (the same winner here)", "reason": "TS-Borda 450.0 vs ISS 78.0, comparable only for a "
                "factor >= 5.9; the best of the paper's four is TS-Maximin"}}),
    # TS-Borda 45 [44.3, 45.7] below DTS's 69 [67.9, 70.1]: against the next smallest mean (not its own)
    "TS-Borda's regrets / 10": (lambda s: _changed(s, MEANS, lambda x: x / 10, algorithm="ts-borda"), {
        SHINES: {"value": 45.0, "threshold": 69.0, "verdict": H, "reason": "next smallest mean 69.0"}}),
    # T / 10 is T itself: a slope has no width; the orderings and theorems are decided as with two steps
    "only the step 40,000": (lambda s: s[s["t"] == 40000], {
        SOTA: {"verdict": H}, SHINES: {"verdict": F}, "Theorem 4.2 (condorcet)": {"verdict": H},
        "S5 borda: ISS's Borda regret linear": {"verdict": N, "value": NAN}}),
    "the condorcet scenario only": (lambda s: s[s["scenario"] == "condorcet"], {
        EVERY: {"verdict": H}, SHINES: None, "S5 borda: ISS's Borda regret linear": None,
        "Theorem 4.1 (borda)": None, "S5 borda: Borda methods beat their bounds": None}),
    "TS-Maximin's Maximin regret missing on borda": (
        lambda s: s.drop(s.query("scenario == 'borda' and algorithm == 'ts-maximin' and regret == 'maximin'").index), {
        "Theorem 4.1 (borda)": None, "Theorem 4.1 (condorcet)": {"verdict": FIXED_HOLDS}}),
    # T misses Theorem 4.2's requirement: its rows say so, the conjunction is inconclusive
    "TS-Borda's bound null": (lambda s: _changed(s, "bound", NAN, algorithm="ts-borda"), {
        "Theorem 4.2 (condorcet)": {"verdict": N, "reason": T42, "value": 450.0, "method": f"paper run, 100 runs "
            f"({SEEDS_100}); one-sided 0.95 limits mean -+ 1.645 std/sqrt(100) against the bound nan"},
        EVERY: {"verdict": I, "reason": "Theorem 4.1: holds, Theorem 4.2: not tested, Theorem 4.3: holds, "
                "Theorem 4.4: holds"}}),
    "TS-Borda's bound null, one run": (lambda s: _changed(s, "bound", NAN, algorithm="ts-borda").assign(runs=1), {
        "Theorem 4.2 (condorcet)": {"verdict": N, "reason": f"{ONE_RUN}; {T42}"}}),
    # each row that needs TS-Borda or DTS has no number and names them in the registry's order (a theorem's, the
    # ratio's and a slope's quantity and method no T or best method); the other eight rows are decided
    "TS-Borda and DTS not run": (lambda s: s[~s["algorithm"].isin(["ts-borda", "dts"])], {
        "Theorem 4.2 (borda)": _not_run("TS-Borda", quantity="mean borda regret of TS-Borda at T on the borda matrix",
                                        method=NO_RUN),
        "Theorem 4.2 (condorcet)": _not_run("TS-Borda"), EVERY: _not_run("TS-Borda"),
        "S5 borda: Borda methods beat their bounds": _not_run("TS-Borda"),
        SOTA: _not_run("TS-Borda and DTS", method=TEXTS[SOTA][3]), SHINES: _not_run("TS-Borda and DTS"),
        RATIO: _not_run("TS-Borda and DTS", quantity="TS-Borda's mean final Borda regret over the smaller of ISS's "
                        "and DTS's mean final Maximin regrets"),
        "S5 borda: DTS's Borda regret linear": _not_run(
            "DTS", quantity="local slope of log mean borda regret on log t of DTS (borda)", method=NO_RUN),
        **dict.fromkeys(["Theorem 4.1 (borda)", "Theorem 4.1 (condorcet)"], {"verdict": FIXED_HOLDS}),
        **dict.fromkeys(["Theorem 4.3 (borda)", "Theorem 4.3 (condorcet)", "Theorem 4.4 (borda)",
                         "Theorem 4.4 (condorcet)", "S5 borda: ISS's Borda regret linear"], {"verdict": H}),
        "S5 borda: SparringExp3.P ultimately linear (T = 40,000)": {"verdict": I}}),
    # the best of the four that were run
    "Partial Monitoring not run": (lambda s: s[s["algorithm"] != "partial-monitoring"], {
        RATIO: {"reason": "TS-Borda 450.0 vs DTS 69.0, comparable only for a factor >= 6.7; the best of the "
                "paper's four that were run is TS-Maximin"}}),
}  # fmt: skip


@pytest.mark.parametrize("change, rows", CHANGES.values(), ids=list(CHANGES))
def test_a_change_of_the_summary_moves_the_rows_it_should(change, rows):
    _moved(claims.ledger(change(_summary())), rows)


def _moved(table, rows) -> None:
    """The ledger ``table`` has the fields ``rows`` gives ({claim: {field: value}}), and no row where None."""
    by = table.set_index("claim")
    for claim, fields in rows.items():
        assert (claim in by.index) == (fields is not None), claim
        for name, want in (fields or {}).items():
            _same(by.loc[claim, name], want, (claim, name))


def test_a_claim_about_the_methods_run_is_decided_when_others_are_missing():
    """tests/summaries.py: borda only, TS-Borda (40 at T = 100, std 4), Partial Monitoring (300, std 9, bound
    200) and ISS, 5 runs. The two Borda methods were run: their conjunction is decided (Partial Monitoring's
    low end 300 - 1.645 * 9 / sqrt(5) = 293.4 is above its bound: fails); "shines" names the three not run."""
    from summaries import summary_rows

    by = claims.ledger(summary_rows()).set_index("claim")
    theorem = by.loc["Theorem 4.4 (borda)"]
    assert theorem["verdict"] == F and theorem["low"] == pytest.approx(300.0 - Z95 * 9.0 / math.sqrt(5), rel=1e-12)
    both = by.loc["S5 borda: Borda methods beat their bounds"]
    assert both["verdict"] == F and both["value"] == pytest.approx(1.5)
    assert by.loc[SHINES, "reason"] == "TS-Maximin, SparringExp3.P and DTS not run"
    assert by.loc["Theorem 4.1 (borda)", "reason"] == "TS-Maximin not run"
    assert EVERY not in by.index  # no condorcet scenario in it


def test_the_level_reaches_every_interval_and_its_text():
    """At level 0.975 (z = 1.959964): the theorem rows' limits and text (at long horizons too), the slopes', the
    ratio's."""
    by = claims.ledger(_summary(), level=0.975, local=_local()).set_index("claim")
    z = 1.959964
    for claim, end, value, text in [
        ("Theorem 4.1 (condorcet, T = 100,000)", "low", 300.0 - z * 100 / math.sqrt(40), ""),
        ("Theorem 4.1 (condorcet)", "low", 130.0 - z * 1.3, "one-sided 0.975 limits mean -+ 1.960 std/sqrt(100)"),
        ("S5 borda: ISS's Borda regret linear", "low", 1.0 - z * SLOPE_SE, "delta-method one-sided 0.975 limits"),
        (RATIO, "high", 450 / 69 * math.exp(z * math.sqrt(2 * 0.1**2 / 100)), "one-sided 0.975 limits of the ratio"),
        (SOTA, "low", 78.0 - z * 0.78, "one-sided 0.975 upper"),
    ]:
        assert by.loc[claim, end] == pytest.approx(value, rel=1e-6) and text in by.loc[claim, "method"], claim
    assert by.loc["S5 borda: SparringExp3.P ultimately linear (T = 40,000)", "method"].count("0.975") == 1


THEOREM_4_1_LINE = "| 2 | Theorem 4.1 (condorcet) |"
"""The Markdown line of the Theorem 4.1 (condorcet) row."""


def test_the_markdown_shows_an_interval_from_two_runs_and_none_from_one():
    """Two runs: TS-Maximin's mean 130, std 13, limits 130 -+ 1.645 * 13 / sqrt(2)."""
    for runs, cells in [
        (2, "| 130 [115, 145] | 2,146 | **holds on this fixed matrix** (R_T / bound = 0.061) |"),
        (1, "| 130 [-] | 2,146 | **not tested** (one run: no interval) |"),
    ]:
        table = claims.ledger(_summary().assign(runs=runs))
        line = next(x for x in claims_markdown(table, 0.95, {}).splitlines() if x.startswith(THEOREM_4_1_LINE))
        assert cells in line, line


def test_a_summary_without_the_regret_a_figure_shows_is_refused_naming_it():
    """An algorithm run on a scenario whose summary rows are all off the figure (paper false): not a summary the
    pipeline wrote (the command says so in one line: an InputError, as every refusal of test_bad_input)."""
    from duelbandits.errors import InputError

    summary = _summary()
    summary.loc[(summary["scenario"] == "borda") & (summary["algorithm"] == "dts"), "paper"] = False
    with pytest.raises(InputError, match="holds dts's runs on borda but no row of the regret its figure shows"):
        claims.ledger(summary)


def test_the_docs_state_the_level_and_the_thresholds_the_rows_are_decided_with():
    """docs/claims.md: one-sided limits at 95% (z = 1.645), "linear" from a local slope of 0.9, "comparably strong"
    below a ratio of 2: the numbers of the rows above (Z95, the thresholds of _ledger_rows and _long_rows)."""
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / "claims.md").read_text(encoding="utf-8")
    assert "every one-sided limit is 95% (`z = 1.645`" in text
    assert "low end of the local slope `>= 0.9` | high end `< 0.9`" in text
    assert "upper limit of the ratio `< 2` | lower limit `> 2`" in text


# --- The slope rule ------------------------------------------------------------------------------------


def _slope(summary, algorithm, ultimately=False):
    """The slope rule on ``algorithm``'s Borda regret on borda, with the spec of the "ultimately" claim if asked."""
    spec = [s for s in SPECS if s["rule"] == "slope"][2 if ultimately else 0]
    ctx = {"level": 0.95, "threshold": spec["threshold"]}
    [row] = claims.rule_slope({**spec, "algorithm": algorithm}, {"summary": summary, "level": 0.95}, ctx)
    return row


def _steps_summary(steps=((100, 1.0), (3980, 90.0), (4005, 100.0), (40000, 1000.0))):
    """ISS's Borda regret on borda at ``steps`` (t, mean: by default T / 10 = 4,000 is not a step, 4,005 the
    nearest) and its Maximin regret ten times larger; DTS's flat at 7 (t = 4,000 and 40,000)."""
    rows = [("borda", "iss", "borda", t, m) for t, m in steps]
    rows += [("borda", "iss", "maximin", t, 10 * m) for _, _, _, t, m in rows]
    rows += [("borda", "dts", "borda", t, 7.0) for t in (4000, 40000)]
    frame = pd.DataFrame(rows, columns=["scenario", "algorithm", "regret", "t", "mean"])
    return frame.assign(std=0.1 * frame["mean"], runs=100, paper=True, bound=NAN)


def test_a_slope_starts_at_the_step_nearest_a_tenth_of_the_horizon():
    """log(1,000 / 100) / log(40,000 / 4,005), standard error sqrt(2 * 0.1^2 / 100) over the same log;
    "ultimately" with a slope that holds adds no clause. T = 40,005: of the steps 3,998 and 4,002, 4,002 is
    nearest T / 10 = 4,000.5."""
    width = math.log(40000 / 4005)
    row = _slope(_steps_summary(), "iss", ultimately=True)
    assert row.quantity == "local slope of log mean borda regret on log t of ISS, t = 4,005 to 40,000 (borda)"
    _same((row.value, row.low, row.high), _limits(math.log(10) / width, math.sqrt(2 * 0.1**2 / 100) / width), row)
    assert (row.verdict, row.reason) == (H, "R_T / T = 0.0250")  # 1,000 / 40,000
    two = _slope(_steps_summary().assign(runs=2), "iss")
    assert two.method.startswith("paper run, 2 runs (runs 0-1, run r's stream") and two.verdict == H
    row = _slope(_steps_summary([(3998, 100.0), (4002, 100.0), (40005, 1000.0)]), "iss")
    assert row.quantity == "local slope of log mean borda regret on log t of ISS, t = 4,002 to 40,005 (borda)"


def test_a_slope_that_fails_is_inconclusive_only_for_an_ultimate_claim():
    """DTS's Borda regret is flat: slope 0, fails; an "ultimately" claim turns that into inconclusive, saying so."""
    row = _slope(_steps_summary(), "dts")
    ultimately = _slope(_steps_summary(), "dts", ultimately=True)
    assert (row.value, row.verdict, row.reason) == (0.0, F, "R_T / T = 0.0002")  # 7 / 40,000
    assert (ultimately.verdict, ultimately.reason) == (I, row.reason + CLAUSE)


# --- The long targets' tables ---------------------------------------------------------------------------


def _rows(summary=None, **inputs) -> dict:
    """The ledger's rows (before the readings of Theorem 4.1), by claim, over ``summary`` (_summary())."""
    return {r.claim: r for r in claims.rows(_summary() if summary is None else summary, **inputs)}


LOCAL_COLUMNS = [
    "scenario", "algorithm", "regret", "theorem", "horizon", "runs", "mean", "std", "bound", "ratio",
    "from_horizon", "slope", "ci_low", "ci_high", "confidence",
]  # fmt: skip
"""The columns of results/asymptotics/local.parquet the ledger reads (schemas.ASYMPTOTIC_LOCAL_SCHEMA)."""


def _local(runs_at_10000=40, runs_at_longest=40):
    """A small asymptotics table, rows out of order: a bounded regret at two horizons (condorcet, TS-Maximin),
    SparringExp3.P's Borda regret with its local exponent and its Theorem 4.3 regret, and regrets that give no
    row: a bound null where T misses the requirement, no theorem (None, ""), a slope of another method or
    scenario, a NaN slope."""
    rows = [
        ("condorcet", "ts-maximin", "maximin", "4.1", 100000, runs_at_longest, 300, 100, 1000, 0.3, 10000, 0.4, 0.3,
         0.5, 0.95),
        ("condorcet", "ts-maximin", "maximin", "4.1", 10000, 40, 100.0, 30.0, 400.0, 0.25, NAN, NAN, NAN, NAN, 0.95),
        ("borda", "sparring-exp3p", "borda", None, 100000, 40, 5000.0, 50.0, NAN, NAN, 10000, 0.95, 0.92, 0.98, 0.9),
        ("borda", "sparring-exp3p", "borda", None, 10000, runs_at_10000, 600.0, 6.0, NAN, NAN, NAN, NAN, NAN, NAN, 0.9),
        ("borda", "sparring-exp3p", "borda", None, 1000, 1, 70.0, 0.0, NAN, NAN, NAN, NAN, NAN, NAN, 0.9),
        ("borda", "sparring-exp3p", "exp3p", "4.3", 100000, 40, 2000.0, 20.0, 1800.0, 1.11, 10000, 0.95, 0.9, 1.0, 0.9),
        ("borda", "ts-maximin", "maximin", "4.1", 100000, 40, 300.0, 100.0, NAN, NAN, 10000, 0.4, 0.3, 0.5, 0.95),
        ("borda", "iss", "borda", None, 100000, 40, 4000.0, 40.0, 500.0, 8.0, 10000, 1.0, 0.99, 1.01, 0.95),
        ("borda", "dts", "borda", "", 100000, 40, 4000.0, 40.0, 500.0, 8.0, 10000, 1.0, 0.99, 1.01, 0.95),
        ("condorcet", "sparring-exp3p", "borda", None, 100000, 40, 50.0, 5.0, NAN, NAN, 10000, 0.2, 0.1, 0.3, 0.95),
        ("borda", "sparring-exp3p", "maximin", None, 100000, 40, 50.0, 5.0, NAN, NAN, 10000, 0.2, 0.1, 0.3, 0.95),
    ]  # fmt: skip
    return pd.DataFrame(rows, columns=LOCAL_COLUMNS)


def _estimates(verdicts, runs=2000):
    """A maximin-tail estimates table, its steps out of order (t = 1,000, 10, 100)."""
    columns = {"t": [1000, 10, 100], "mean": [300.0, 5.0, 200.0], "low": [250.0, 4.0, 150.0]}
    columns |= {"high": [350.0, 6.0, 250.0], "bound": [339.0, 34.0, 107.0], "verdict": verdicts}
    return pd.DataFrame(columns).assign(runs=runs, trapped_runs=90, free_runs_continued=60, confidence=0.95)


def _family(crossing=True):
    """A family table in no particular order: A = 6 and A = 5 (gaps 0.2 and 0.1) exceeded first at t = 1,000,
    A = 4 (gap 0.1) at t = 5,000; A = 3 (gap 0.1) never; A = 3 (gap 0.3) no trap. With the member columns of
    the crossing and the growth exponent (NaN: not within the grid) when ``crossing``."""
    rows = [
        (6, 0.1, 1000, 0.0, 200, 90.0, 80.0, 100.0, 50.0, 1.8, "exceeded", 500.0, 400.0, 700.0, 0.9, 0.8, 1.0),
        (5, 0.2, 1000, 0.0, 200, 80.0, 70.0, 95.0, 50.0, 1.6, "exceeded", 600.0, 500.0, 800.0, 0.85, 0.8, 0.9),
        (5, 0.1, 1000, 0.0, 200, 85.0, 75.0, 95.0, 50.0, 1.7, "exceeded", 700.4, 600.0, NAN, NAN, NAN, NAN),
        (4, 0.1, 1000, 0.0, 200, 40.0, 30.0, 55.0, 50.0, 0.8, "inconclusive", 2000.0, 1500.0, 3000.0, 0.86, 0.82, 0.89),
        (4, 0.1, 5000, 0.0, 200, 160, 130, 190, 110, 1.45, "exceeded", 2000.0, 1500.0, 3000.0, 0.86, 0.82, 0.89),
        (3, 0.1, 1000, 0.0, 200, 20.0, 10.0, 30.0, 50.0, 0.4, "below", NAN, NAN, NAN, NAN, NAN, NAN),
        (3, 0.1, 5000, 0.0, 200, 60.0, 40.0, 80.0, 110.0, 0.55, "below", NAN, NAN, NAN, NAN, NAN, NAN),
        (3, 0.3, 0, 0.0, 200, NAN, NAN, NAN, NAN, NAN, "no trap", NAN, NAN, NAN, NAN, NAN, NAN),
    ]
    columns = ["actions", "gap", "t", "se", "runs", "mean", "low", "high", "bound", "ratio", "verdict"]
    columns += ["crossing", "crossing_low", "crossing_high", "exponent", "exponent_low", "exponent_high"]
    frame = pd.DataFrame(rows, columns=columns)
    return frame if crossing else frame.drop(columns=columns[-6:])


def test_family_sharpened_names_the_crossing_the_exponent_and_the_reach():
    sharpened = next(s for s in SPECS if s["rule"] == "family")["sharpened"]
    family, reach = _family(), "; within the grid, fails down to A = 4 and up to gap 0.2"
    assert claims.family_sharpened(sharpened, family, family.iloc[4]) == (  # A = 4 at t = 5,000: both known
        "; E[R_t] crosses the bound at t = 2,000 [1,500, 3,000]; grows like t^0.86 [0.82, 0.89] past it" + reach
    )
    assert claims.family_sharpened(sharpened, family, family.iloc[5]) == reach
    quiet = family.assign(verdict=family["verdict"].replace("exceeded", "inconclusive"))
    assert claims.family_sharpened(sharpened, quiet, quiet.iloc[5]) == ""  # no crossing, nothing fails: no clause
    plain = _family(crossing=False)  # a table written before the member columns: no crossing to name
    assert claims.family_sharpened(sharpened, plain, plain.iloc[4]) == reach


def _bayes(verdicts, lows, highs):
    """A Bayesian estimates table, A = 3, 4, 5 at T = 100,000 with ``verdicts`` and the intervals' ends."""
    columns = {"actions": [3, 4, 5][: len(verdicts)], "ratio": [(lo + hi) / 2 for lo, hi in zip(lows, highs)]}
    columns |= {"low": lows, "high": highs, "verdict": verdicts}
    columns |= {"horizon": 100000, "matrices": 400, "runs_per_matrix": 2, "se": 0.1, "confidence": 0.95}
    columns |= {"share_above": 0.125, "share_low": 0.1, "share_high": 0.15, "prior": "uniform antisymmetric"}
    return pd.DataFrame(columns)


def _long(**changes) -> dict:
    """The long targets' tables of the ledger: _local(), the tail exceeded at t = 100 and 1,000, _family(), and
    three Bayesian rows out of order: A = 5 of the projected prior, 0.3 [0.1, 0.5]; A = 4 of the uniform prior at
    T = 10^6, 1.075 [0.9, 1.25]; A = 3 of a prior of one's own, 0.05 [-0.2, 0.3]; ``changes`` replace some."""
    bayes = _bayes(["holds", "inconclusive", "holds"], [0.1, 0.9, -0.2], [0.5, 1.25, 0.3]).assign(actions=[5, 4, 3])
    bayes["prior"] = ["independent entries, projected", "uniform antisymmetric", "a prior of one's own"]
    bayes.loc[1, "horizon"] = 10**6
    tail = _estimates(["exceeded", "below", "exceeded"])
    return dict(local=_local(), tail=tail, tail_verdict="exceeded at t = 100", family=_family(), bayes=bayes) | changes


FIXED_FAILS = "fails as a bound on a fixed matrix"
BAYESIAN_ROW = "Theorem 4.1 (Bayesian, prior: {}) (A = {}, T = {:,})"
SHARE = "12.5% [10.0, 15.0] of the drawn matrices above the bound"
BAYES_METHOD = (
    "maximin-bayes: 400 matrices x 2 runs each, the prior stratified by a Condorcet winner; two-sided 0.95 normal "
    "interval"
)
LONG_METHOD = "40 runs (asymptotics; runs 0-39, run r's stream SeedSequence([seed, scenario, algorithm, r]) at "
LONG_METHOD += "horizon T); one-sided 0.95 limits of the mean"


def _long_rows() -> dict:
    """claim -> (value, low, high, threshold, verdict, reason, source, method) of the rows of _long() after the
    paper run's, in order, the asymptotics' from the archive. _local(): SparringExp3.P's Borda exponent on borda
    with its bootstrap interval (its low end 0.92 reaches 0.9), then each bounded regret at its longest horizon,
    mean -+ 1.645 std / sqrt(40) (2,000 - 5.2 lies above 1,800), in (scenario, algorithm, regret) order. The
    tail: t = 100, the first step exceeded (sorted by t). The family: sorted by (t, actions, gap) the first
    member exceeded is A = 5, gap 0.1; its crossing's high end beyond the grid, no exponent; the smallest A
    failing 4, the largest gap 0.2 (tail.family.family_extremes); five members with a trap, searched up to t =
    5,000. The Bayesian rows: the priors in PRIORS' order (one not there last), then T, then A; A = 4
    inconclusive: n > 400 (0.175 / 0.075)^2 = 2,177.8 matrices would decide it."""
    tail = "maximin-tail: 2,000 runs to the first horizon, 90 trapped and 60 free continued; two-phase stratified "
    tail += "mean, two-sided 0.95 normal interval"
    family = "200 runs per member, seed stream SeedSequence([seed, 'maximin-tail', 'family', A, 1000 gap, run]); "
    family += "two-sided 0.95 normal interval; 5 members with a trap searched up to t = 5,000"
    crossing = "E[R_t] crosses the bound at t = 700 [600, beyond the grid]"
    decide = "; 2,178 matrices would decide it if the estimate and the between-matrix spread stayed as observed"
    held = "holds as a Bayesian bound (prior: {})"
    uniform, projected, own = "uniform antisymmetric", "independent entries, projected", "a prior of one's own"
    return {
        "S5 borda: SparringExp3.P ultimately linear (T = 100,000)": (
            0.95, 0.92, 0.98, 0.9, H, "across horizons, each run tuned to its T", claims.ARCHIVE,
            "asymptotics target, 40 runs; 0.9 percentile bootstrap interval; linear when the low end >= 0.9"),
        "Theorem 4.3 (borda, T = 100,000)": (
            *_limits(2000.0, 20 / math.sqrt(40)), 1800.0, F, "R_T / bound = 1.110", claims.ARCHIVE, LONG_METHOD),
        "Theorem 4.1 (condorcet, T = 100,000)": (
            *_limits(300.0, 100 / math.sqrt(40)), 1000.0, FIXED_HOLDS, "R_T / bound = 0.300", claims.ARCHIVE,
            LONG_METHOD),
        "Theorem 4.1 (borda, t = 100)": (
            200.0, 150.0, 250.0, 107.0, FIXED_FAILS, "exceeded at t = 100", claims.THIS_RUN, tail),
        "Theorem 4.1 (A = 5, gap 0.1, t = 1,000)": (
            85.0, 75.0, 95.0, 50.0, FIXED_FAILS,
            f"R_t / bound = 1.70; {crossing}; within the grid, fails down to A = 4 and up to gap 0.2",
            claims.THIS_RUN, family),
        BAYESIAN_ROW.format(uniform, 4, 10**6): (
            1.075, 0.9, 1.25, 1.0, I, SHARE + decide, claims.THIS_RUN, BAYES_METHOD),
        BAYESIAN_ROW.format(projected, 5, 10**5): (
            0.3, 0.1, 0.5, 1.0, held.format(projected), SHARE, claims.THIS_RUN, BAYES_METHOD),
        BAYESIAN_ROW.format(own, 3, 10**5): (
            0.05, -0.2, 0.3, 1.0, held.format(own), SHARE, claims.THIS_RUN, BAYES_METHOD),
    }  # fmt: skip


def test_the_rows_of_the_long_targets_tables():
    """Each row's number, interval, threshold, verdict (naming the reading of Theorem 4.1 it tests), reason,
    source and method, in order after the paper run's; a method by its label."""
    table = claims.ledger(_summary(), sources={"local": claims.ARCHIVE}, **_long())
    assert table["claim"].tolist()[SUMMARY_ROWS:] == list(_long_rows())
    _moved(table, {claim: dict(zip(FIELDS, row, strict=True)) for claim, row in _long_rows().items()})
    statement = table.set_index("claim").loc["Theorem 4.1 (condorcet, T = 100,000)", "statement"]
    assert statement == "TS-Maximin's expected maximin regret is at most the theorem's bound"


def _quiet_family(bound):
    """_family() without its crossing columns, nothing exceeded, A = 4 at t = 5,000 160 [130, 190] against
    ``bound`` (ratio 0.78: the largest at the last t, over A = 3's 0.55)."""
    family = _family(crossing=False)
    family["verdict"] = family["verdict"].replace("exceeded", "below")
    family.loc[4, ["bound", "ratio"]] = [bound, 0.78]
    return family


NO_TRAP = "no member of the family searched has a trap (see results/maximin-tail/family.md)"
QUIET = "Theorem 4.1 (A = 4, gap 0.1, t = 5,000)"
LONG_CHANGES = {  # a change of _long() -> {claim: {field: value} or None for no row}
    # no step exceeded: the last t (1,000), 300 [250, 350] against 339; with its high end below the bound, holds
    "no step of the tail exceeded": (_long(tail=_estimates(["below", "below", "inconclusive"]), tail_verdict=None), {
        "Theorem 4.1 (borda, t = 100)": None,
        "Theorem 4.1 (borda, t = 1,000)": {"value": 300.0, "threshold": 339.0, "verdict": I, "reason": ""}}),
    "every step of the tail below": (_long(tail=_estimates(["below"] * 3).assign(high=[338.0, 6.0, 250.0])), {
        "Theorem 4.1 (borda, t = 1,000)": {"verdict": FIXED_HOLDS}}),
    # no member exceeded: the largest ratio at the last t, decided on its interval
    "no member of the family exceeded": (_long(family=_quiet_family(205.0)), {
        QUIET: {"value": 160.0, "threshold": 205.0, "verdict": FIXED_HOLDS, "reason": "R_t / bound = 0.78"}}),
    "no member of the family exceeded, at the bound": (_long(family=_quiet_family(150.0)), {QUIET: {"verdict": I}}),
    "the family not built": (_long(family=None), {"Theorem 4.1 (small family)": {**NOT_BUILT, "source": claims.NONE}}),
    "no member of the family with a trap": (
        _long(family=_family(crossing=False).assign(verdict="no trap", t=0, low=NAN, high=NAN, bound=NAN)), {
        "Theorem 4.1 (small family)": {**NOT_BUILT, "reason": NO_TRAP}}),
    "a Bayesian interval NaN": (_long(bayes=_bayes(["holds"], [NAN], [NAN])), {
        BAYESIAN_ROW.format("uniform antisymmetric", 3, 10**5): {"verdict": N}}),
    "no Bayesian estimate": (_long(bayes=_bayes([], [], [])), {
        "Theorem 4.1 (Bayesian, prior: uniform antisymmetric)": NOT_BUILT}),
    "a method outside the paper at long horizons": (
        _long(local=_local().replace({"algorithm": {"ts-maximin": "my-method"}})), {
        "Theorem 4.1 (condorcet, T = 100,000)": {
            "statement": "my-method's expected maximin regret is at most the theorem's bound"}}),
}  # fmt: skip


@pytest.mark.parametrize("inputs, rows", LONG_CHANGES.values(), ids=list(LONG_CHANGES))
def test_a_change_of_a_long_targets_table_moves_the_rows_it_should(inputs, rows):
    _moved(claims.ledger(_summary(), **inputs), rows)


# --- Fewer than two runs: the number stands, no interval, not tested -------------------------------------


def _runs_of(algorithm, n):
    return {"summary": _changed(_summary(), "runs", n, algorithm=algorithm)}


PAPER_ROWS = list(_ledger_rows())[:SUMMARY_ROWS]
ONE_RUN_CASES = {  # what has n runs -> (the inputs, the rows that are one run's at n = 1)
    "every method": (lambda n: {"summary": _summary().assign(runs=n)}, PAPER_ROWS),
    # the orderings compare every method; TS-Borda over DTS does not read Partial Monitoring
    "Partial Monitoring": (lambda n: _runs_of("partial-monitoring", n), [
        "Theorem 4.4 (borda)", "Theorem 4.4 (condorcet)", SOTA, EVERY, SHINES,
        "S5 borda: Borda methods beat their bounds"]),
    "TS-Borda": (lambda n: _runs_of("ts-borda", n), [
        "Theorem 4.2 (borda)", "Theorem 4.2 (condorcet)", SOTA, RATIO, EVERY, SHINES,
        "S5 borda: Borda methods beat their bounds"]),
    "DTS": (lambda n: _runs_of("dts", n), [SOTA, RATIO, "S5 borda: DTS's Borda regret linear", SHINES]),
    # the exponent from 10,000 to 100,000 rests on the runs at both ends (not the run at 1,000)
    "the asymptotics at 10,000": (lambda n: {"local": _local(runs_at_10000=n)}, [
        "S5 borda: SparringExp3.P ultimately linear (T = 100,000)"]),
    "the asymptotics' longest horizon on condorcet": (lambda n: {"local": _local(runs_at_longest=n)}, [
        "Theorem 4.1 (condorcet, T = 100,000)"]),
    "the tail": (lambda n: {"tail": _estimates(["below"] * 3, runs=n).assign(high=338.0), "tail_verdict": "t"}, [
        "Theorem 4.1 (borda, t = 1,000)"]),
    "the family": (lambda n: {"family": _family().assign(runs=n)}, ["Theorem 4.1 (A = 5, gap 0.1, t = 1,000)"]),
    "the Bayesian matrices": (lambda n: {"bayes": _bayes(["holds"], [0.1], [0.5]).assign(matrices=n)}, [
        "Theorem 4.1 (Bayesian, prior: uniform antisymmetric) (A = 3, T = 100,000)"]),
}  # fmt: skip


@pytest.mark.parametrize("inputs, affected", ONE_RUN_CASES.values(), ids=list(ONE_RUN_CASES))
def test_a_row_from_one_run_has_no_interval_and_from_two_has_one(inputs, affected):
    one, two = (_rows(**inputs(n)) for n in (1, 2))
    assert list(one) == list(two)
    for claim, row in one.items():
        if claim not in affected:  # the same row: numbers, verdict, reason
            assert str(vars(row)).split("'value'")[1] == str(vars(two[claim])).split("'value'")[1], claim
            continue
        _same((row.value, row.low, row.high, row.verdict, row.reason), (two[claim].value, NAN, NAN, N, ONE_RUN), claim)
        assert math.isfinite(two[claim].low) and not two[claim].reason.startswith(ONE_RUN), claim
