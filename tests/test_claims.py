"""The claims ledger's verdict rules, each at its boundary (the last value that holds, the first that
does not), and the ledger built from a small hand-made summary."""

import math
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from duelbandits.schemas import CLAIM_SCHEMA
from duelbandits.studies.claims import analysis as claims
from duelbandits.studies.claims import verdicts

FIXED_HOLDS = "holds on this fixed matrix"
"""A Theorem 4.1 row on a fixed matrix says which reading of the theorem it tests (claims.READINGS)."""

Z = verdicts.z_one_sided(0.95)

SPECS = claims.DATA["claims"]
LINEAR = 0.9
SHARPENED = next(s for s in SPECS if s["rule"] == "family")["sharpened"]
"""docs/claims.md: "linear" from a local slope of 0.9 (the data's threshold, pinned below)."""


def _rows(summary=None, **inputs) -> dict:
    """The ledger's rows (before the readings of Theorem 4.1), by claim, over ``summary`` (the hand-made one)."""
    return {r.claim: r for r in claims.rows(_summary() if summary is None else summary, **inputs)}


def _only(prefixes, **inputs):
    """The one row whose claim starts with one of ``prefixes``."""
    [row] = [r for name, r in _rows(**inputs).items() if name.startswith(prefixes)]
    return row


def _tail_row(estimates, verdict=None):
    return _only("Theorem 4.1 (borda, ", tail=estimates, tail_verdict=verdict)


def _family_row(family):
    return _only(("Theorem 4.1 (A = ", "Theorem 4.1 (small"), family=family)


def _bayes_rows(bayes):
    return [r for r in claims.rows(_summary(), bayes=bayes) if r.claim.startswith("Theorem 4.1 (Bayesian")]


def _long_rows(local):
    """The rows of the asymptotics target (between the summary's and the last three)."""
    return claims.rows(_summary(), local=local)[SUMMARY_ROWS:-3]


def _slope(summary, algorithm, ultimately=False):
    """The slope rule on ``algorithm``'s Borda regret on borda, with the spec of the "ultimately" claim if asked."""
    spec = [s for s in SPECS if s["rule"] == "slope"][2 if ultimately else 0]
    ctx = {"level": 0.95, "threshold": spec["threshold"]}
    [row] = claims.rule_slope({**spec, "algorithm": algorithm}, {"summary": summary, "level": 0.95}, ctx)
    return row


def test_below_at_its_boundary():
    bound = 100.0
    assert verdicts.below(90.0, np.nextafter(bound, 0), bound) == verdicts.HOLDS  # last value that holds
    assert verdicts.below(90.0, bound, bound) == verdicts.INCONCLUSIVE  # high end at the bound: not below it
    assert verdicts.below(np.nextafter(bound, 200), 120.0, bound) == verdicts.FAILS  # first value that fails
    assert verdicts.below(bound, 120.0, bound) == verdicts.INCONCLUSIVE
    assert verdicts.below(math.nan, 1.0, bound) == verdicts.NOT_TESTED


def test_at_least_at_its_boundary():
    t = LINEAR
    assert verdicts.at_least(t, 1.2, t) == verdicts.HOLDS  # low end at the threshold: holds
    assert verdicts.at_least(np.nextafter(t, 0), 1.2, t) == verdicts.INCONCLUSIVE
    assert verdicts.at_least(0.5, np.nextafter(t, 0), t) == verdicts.FAILS  # high end just below: fails
    assert verdicts.at_least(0.5, t, t) == verdicts.INCONCLUSIVE


def test_smallest_at_its_boundary():
    others = {"a": (10.0, 12.0), "b": (20.0, 25.0)}
    assert verdicts.smallest({**others, "x": (5.0, np.nextafter(10.0, 0))}, ["x"]) == verdicts.HOLDS
    assert verdicts.smallest({**others, "x": (5.0, 10.0)}, ["x"]) == verdicts.INCONCLUSIVE
    assert verdicts.smallest({**others, "x": (np.nextafter(12.0, 20), 14.0)}, ["x"]) == verdicts.FAILS
    assert verdicts.smallest({**others, "x": (12.0, 14.0)}, ["x"]) == verdicts.INCONCLUSIVE


def _summary():
    """A tiny summary: two scenarios, six algorithms, steps 4,000 and 40,000, known means."""
    from duelbandits.theorems import THEOREMS

    rows = []
    shown = {
        "condorcet": {"ts-maximin": "maximin", "ts-borda": "borda", "sparring-exp3p": "exp3p"},
        "borda": {},
    }
    means = {"ts-maximin": 130, "ts-borda": 450, "sparring-exp3p": 1900, "partial-monitoring": 8700}
    means |= {"iss": 78, "dts": 69}
    for scenario in ("condorcet", "borda"):
        for algorithm, m in means.items():
            for regret in ("maximin", "borda", "exp3p"):
                paper = regret == shown[scenario].get(algorithm, "maximin" if scenario == "condorcet" else "borda")
                if algorithm == "partial-monitoring":
                    paper = regret == "borda"
                theorem = THEOREMS.get(algorithm)
                for t in (4000, 40000):
                    value = m * (t / 40000) ** (1.0 if algorithm in ("iss", "dts") and scenario == "borda" else 0.5)
                    bound = (
                        float(theorem.bound(10, t)) if theorem is not None and theorem.regret == regret else math.nan
                    )
                    rows.append((scenario, algorithm, regret, paper, t, value, 0.1 * value, 100, bound))
    return pd.DataFrame(rows, columns=["scenario", "algorithm", "regret", "paper", "t", "mean", "std", "runs", "bound"])


def test_family_row_is_not_tested_without_the_table_or_without_a_member_with_a_trap():
    none = _family_row(None)  # no number at all (the table's NaN would hide a None)
    assert none.verdict == verdicts.NOT_TESTED and all(math.isnan(x) for x in (none.value, none.low, none.high))
    assert math.isnan(none.threshold)
    untrapped = _family(crossing=False).assign(verdict="no trap", t=0, low=NAN, high=NAN, bound=NAN)
    row = _family_row(untrapped)  # it crashed on an empty selection
    assert (row.verdict, row.reason) == (
        verdicts.NOT_TESTED,
        "no member of the family searched has a trap (see results/maximin-tail/family.md)",
    )


# --- Saying only what the runs know: one run, methods not run --------------------------------------

SUMMARY_ROWS = 16
"""Rows of the ledger computed from the summary with all six methods on both scenarios: 8 theorem rows and
8 Section 5 rows."""

Z95 = 1.6448536269514722
"""The one-sided 0.95 normal quantile, written out (not taken from duelbandits.studies.claims)."""


def _runs(summary, runs):
    return summary.assign(runs=runs)


THEOREM_4_1_LINE = "| 2 | Theorem 4.1 (condorcet) |"
"""The Markdown line of the Theorem 4.1 (condorcet) row."""


def test_one_run_gives_no_interval_and_no_verdict():
    """And the Markdown shows the number without an interval."""
    from duelbandits.studies.claims import claims_markdown

    table = claims.ledger(_runs(_summary(), 1))
    rows = table.iloc[:SUMMARY_ROWS]
    assert (rows["verdict"] == verdicts.NOT_TESTED).all()
    assert (rows["reason"] == "one run: no interval").all(), rows["reason"].tolist()
    assert rows["low"].isna().all() and rows["high"].isna().all()
    by = table.set_index("claim")
    assert by.loc["Theorem 4.1 (condorcet)", "value"] == 130.0  # the number stands: TS-Maximin's mean
    assert by.loc["S5 condorcet: state of the art very strong", "value"] == 78.0  # ISS, the weaker of the two
    assert by.loc["S5 condorcet: every method beats its bound", "verdict"] == verdicts.NOT_TESTED
    line = next(x for x in claims_markdown(table, 0.95, {}).splitlines() if x.startswith(THEOREM_4_1_LINE))
    assert "| 130 [-] | 2,146 | **not tested** (one run: no interval) |" in line, line


def test_two_runs_give_an_interval_and_a_verdict():
    """The boundary: two runs, mean -+ 1.645 std / sqrt(2), and the verdicts of the 100-run ledger."""
    from duelbandits.studies.claims import claims_markdown

    table = claims.ledger(_runs(_summary(), 2))
    assert not table.iloc[:SUMMARY_ROWS]["reason"].str.startswith("one run").any()
    by = table.set_index("claim")
    theorem = by.loc["Theorem 4.1 (condorcet)"]
    half = Z95 * 13.0 / math.sqrt(2)  # TS-Maximin: mean 130, std 13
    assert (theorem["low"], theorem["high"]) == pytest.approx((130.0 - half, 130.0 + half), rel=1e-12)
    assert theorem["verdict"] == FIXED_HOLDS
    sota = by.loc["S5 condorcet: state of the art very strong"]
    half = Z95 * 7.8 / math.sqrt(2)  # ISS: mean 78, std 7.8; TS-Maximin's low end 130 - 15.1 is above 78 + 9.1
    assert (sota["value"], sota["low"], sota["high"]) == pytest.approx((78.0, 78.0 - half, 78.0 + half), rel=1e-12)
    assert sota["verdict"] == verdicts.HOLDS
    line = next(x for x in claims_markdown(table, 0.95, {}).splitlines() if x.startswith(THEOREM_4_1_LINE))
    assert "| 130 [115, 145] | 2,146 | **holds on this fixed matrix** (R_T / bound = 0.061) |" in line, line


def test_the_tail_and_the_family_from_one_run_are_not_tested():
    one = {"mean": 50.0, "low": 40.0, "high": 60.0, "bound": 70.0, "ratio": 0.7, "t": 1000, "runs": 1}
    family = pd.DataFrame([{"actions": 3, "gap": 0.1, "verdict": "exceeded", **one}])
    row = _family_row(family)
    assert (row.verdict, row.reason) == (verdicts.NOT_TESTED, "one run: no interval")
    assert math.isnan(row.low) and math.isnan(row.high) and row.value == 50.0
    estimates = pd.DataFrame(
        [{**one, "trapped_runs": 0, "free_runs_continued": 0, "confidence": 0.95, "verdict": "below"}]
    )
    row = _tail_row(estimates, "text")
    assert row.verdict == verdicts.NOT_TESTED and row.reason.startswith("one run: no interval")


def _without(*algorithms):
    summary = _summary()
    return claims.ledger(summary[~summary["algorithm"].isin(algorithms)]).set_index("claim")


def test_a_summary_without_the_regret_a_figure_shows_is_refused_naming_it(tmp_path, capsys):
    """An algorithm run on a scenario whose summary rows are all off the figure (paper false): refused by
    the claims' computation, and by the command in one line, exit 2, nothing written."""
    from duelbandits import cli, schemas, storage
    from duelbandits.errors import InputError

    scenario, algorithm = "borda", "dts"
    summary = _summary()
    summary.loc[(summary["scenario"] == scenario) & (summary["algorithm"] == algorithm), "paper"] = False
    message = f"holds {algorithm}'s runs on {scenario} but no row of the regret its figure shows"
    with pytest.raises(InputError, match=message):
        claims.ledger(summary)
    storage.write_frame(summary, schemas.SUMMARY_SCHEMA, tmp_path / "summary.parquet", {"table": "summary"})
    out = ["--table", tmp_path / "c.parquet", "--markdown", tmp_path / "c.md"]
    assert cli.main([str(a) for a in ["claims", "--summary", tmp_path / "summary.parquet", "--level", 0.95, *out]]) == 2
    err = capsys.readouterr().err  # the command's checks may name another fault of this hand-made summary first
    assert err.startswith("duelbandits claims: error: ") and err.count("\n") == 1, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["summary.parquet"]


def test_a_claim_about_the_methods_run_is_decided_when_others_are_missing():
    """tests/summaries.py: borda only, TS-Borda (40 at T = 100, std 4), Partial Monitoring (300, std 9, bound
    200) and ISS, 5 runs. The two Borda methods were run: their conjunction is decided (Partial Monitoring's
    low end 300 - 1.645 * 9 / sqrt(5) = 293.4 is above its bound: fails); "shines" names the three not run."""
    from summaries import summary_rows

    by = claims.ledger(summary_rows()).set_index("claim")
    theorem = by.loc["Theorem 4.4 (borda)"]
    assert theorem["verdict"] == verdicts.FAILS
    assert theorem["low"] == pytest.approx(300.0 - Z95 * 9.0 / math.sqrt(5), rel=1e-12)
    both = by.loc["S5 borda: Borda methods beat their bounds"]
    assert both["verdict"] == verdicts.FAILS and both["value"] == pytest.approx(1.5)
    assert by.loc["S5 borda: Thompson Sampling shines", "reason"] == "TS-Maximin, SparringExp3.P and DTS not run"
    assert by.loc["Theorem 4.1 (borda)", "reason"] == "TS-Maximin not run"
    assert "S5 condorcet: every method beats its bound" not in by.index  # no condorcet scenario in it


def _bayes(verdicts, lows, highs):
    return pd.DataFrame(
        {
            "actions": [3, 4, 5][: len(verdicts)],
            "horizon": 100000,
            "matrices": 400,
            "runs_per_matrix": 2,
            "ratio": [(lo + hi) / 2 for lo, hi in zip(lows, highs)],
            "se": 0.1,
            "low": lows,
            "high": highs,
            "share_above": 0.125,
            "share_low": 0.1,
            "share_high": 0.15,
            "confidence": 0.95,
            "verdict": verdicts,
            "prior": "uniform antisymmetric",
        }
    )


def test_the_bayesian_target_changes_no_other_row():
    """Its row alone differs (without it, not tested: the every-field test's last rows)."""
    plain = claims.ledger(_summary())
    with_bayes = claims.ledger(_summary(), bayes=_bayes(["holds"], [0.1], [0.5]))
    pd.testing.assert_frame_equal(plain.iloc[:-1], with_bayes.iloc[:-1])


def test_the_levels_and_thresholds_are_the_documented_numbers():
    """docs/claims.md: one-sided limits at 95% (z = 1.645), "linear" from a local slope of 0.9,
    "comparably strong" below a ratio of 2; pinned by value, and the docs' own sentences checked."""
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / "claims.md").read_text(encoding="utf-8")
    assert claims.LEVEL == 0.95 and "every one-sided limit is 95% (`z = 1.645`" in text
    thresholds = {spec["rule"]: spec.get("threshold") for spec in SPECS}
    thresholds["exponent"] = next(s["exponent"]["threshold"] for s in SPECS if s["rule"] == "long horizons")
    assert thresholds["slope"] == thresholds["exponent"] == LINEAR
    assert "low end of the local slope `>= 0.9` | high end `< 0.9`" in text
    assert thresholds["ratio"] == 2.0 and "upper limit of the ratio `< 2` | lower limit `> 2`" in text
    assert verdicts.z_one_sided(claims.LEVEL) == pytest.approx(1.6448536, abs=1e-6)  # the ledger's level is 0.95


# --- The rules' arithmetic and edges, by hand -------------------------------------------------------


def test_below_and_at_least_leave_a_missing_number_untested():
    """Any of low, high and threshold NaN or infinite: no verdict (a bound null where T misses the theorem's
    requirement reaches `below` as NaN)."""
    for rule in (verdicts.below, verdicts.at_least):
        for args in [(1.0, math.nan, 5.0), (1.0, 2.0, math.nan), (1.0, math.inf, 5.0), (-math.inf, 2.0, 5.0)]:
            assert rule(*args) == verdicts.NOT_TESTED, (rule.__name__, args)
        assert rule(1.0, 2.0, 5.0) != verdicts.NOT_TESTED


def test_smallest_with_two_named_methods_compares_the_larger_upper_limit_with_the_smaller_lower_one():
    """holds needs *every* named upper limit below *every* other lower limit: the named pair's largest
    high end (9) against the others' smallest low end (5)."""
    others = {"a": (5.0, 6.0), "b": (20.0, 25.0)}
    assert verdicts.smallest({**others, "x": (1.0, 3.0), "y": (2.0, 9.0)}, ["x", "y"]) == verdicts.INCONCLUSIVE
    assert verdicts.smallest({**others, "x": (1.0, 3.0), "y": (2.0, 4.0)}, ["x", "y"]) == verdicts.HOLDS
    # fails when any other method's high end is below any named low end: a (high 6) under y (low 7)
    assert verdicts.smallest({**others, "x": (1.0, 3.0), "y": (7.0, 8.0)}, ["x", "y"]) == verdicts.FAILS
    # a missing end anywhere (a NaN std) decides nothing: it would otherwise hold, min() skipping the NaN
    assert verdicts.smallest({"a": (5.0, 6.0), "b": (NAN, NAN), "x": (1.0, 3.0)}, ["x"]) == verdicts.NOT_TESTED


def test_every_of_nothing_or_of_untested_parts_is_not_tested_and_reads_a_generator_once():
    assert verdicts.every([]) == verdicts.NOT_TESTED
    assert verdicts.every([verdicts.NOT_TESTED, verdicts.NOT_TESTED]) == verdicts.NOT_TESTED
    assert verdicts.every([verdicts.NOT_TESTED, verdicts.INCONCLUSIVE]) == verdicts.INCONCLUSIVE
    assert verdicts.every([verdicts.HOLDS, verdicts.FAILS, verdicts.HOLDS]) == verdicts.FAILS
    # all_below passes a generator: every part must be seen by each test, not only by the first
    assert verdicts.every(v for v in [verdicts.INCONCLUSIVE]) == verdicts.INCONCLUSIVE
    assert verdicts.every(v for v in [verdicts.HOLDS, verdicts.HOLDS]) == verdicts.HOLDS
    assert verdicts.every([verdicts.HOLDS, verdicts.NOT_TESTED]) == verdicts.INCONCLUSIVE


def test_mean_interval_of_one_run_and_of_no_run():
    """mean -+ z std / sqrt(runs): one run gives z std (sqrt(1) = 1); no run has no interval at all (the
    level is checked through the ledger, test_the_level_reaches_every_interval_and_its_text)."""
    assert verdicts.mean_interval(10.0, 2.0, 1, 0.95) == pytest.approx((10.0 - 2 * Z95, 10.0 + 2 * Z95), rel=1e-12)
    assert verdicts.mean_interval(10.0, 2.0, 0, 0.95) == (-math.inf, math.inf)


def test_log_slope_by_hand():
    """Means 10 -> 100 over t = 100 -> 10,000 (two decades): slope log 10 / log 100 = 0.5; standard error
    sqrt((1/10)^2 / 4 + (20/100)^2 / 4) / log 100 = sqrt(0.0125) / log 100; means below 1 are fine."""
    se = math.sqrt(0.0125) / math.log(100)
    got = verdicts.log_slope(10.0, 1.0, 100, 100.0, 20.0, 10000, 4, 0.95)
    assert got == pytest.approx((0.5, 0.5 - Z95 * se, 0.5 + Z95 * se), rel=1e-12)
    se = math.sqrt(0.01 + 0.01) / math.log(10)  # 0.5 -> 5 over one decade, 10% spread, one run
    assert verdicts.log_slope(0.5, 0.05, 10, 5.0, 0.5, 100, 1, 0.95) == pytest.approx((1.0, 1 - Z95 * se, 1 + Z95 * se))


def test_log_slope_is_undefined_without_positive_means_or_a_later_end():
    for args in [
        (0.0, 1.0, 100, 100.0, 20.0, 10000),  # a zero mean has no logarithm
        (10.0, 1.0, 100, 0.0, 20.0, 10000),
        (-1.0, 1.0, 100, 100.0, 20.0, 10000),
        (10.0, 1.0, 100, 100.0, 20.0, 100),  # no width between the ends
        (10.0, 1.0, 1000, 100.0, 20.0, 100),  # ends reversed
    ]:
        assert all(math.isnan(x) for x in verdicts.log_slope(*args, 4, 0.95)), args


def test_ratio_interval_by_hand():
    """200 over 100 with 10% and 5% spreads over 25 runs: the log ratio's standard error is
    sqrt(0.1^2 / 25 + 0.05^2 / 25) = sqrt(0.0005), limits 2 exp(-+ z sqrt(0.0005))."""
    se = math.sqrt(0.0005)
    got = verdicts.ratio_interval(200.0, 20.0, 100.0, 5.0, 25, 0.95)
    assert got == pytest.approx((2.0, 2.0 * math.exp(-Z95 * se), 2.0 * math.exp(Z95 * se)), rel=1e-12)
    se = math.sqrt(0.01 + 0.04)  # means below 1: 0.5 over 0.25, spreads 10% and 20%, one run
    got = verdicts.ratio_interval(0.5, 0.05, 0.25, 0.05, 1, 0.95)
    assert got == pytest.approx((2.0, 2.0 * math.exp(-Z95 * se), 2.0 * math.exp(Z95 * se)), rel=1e-12)
    for m_a, m_b in [(0.0, 1.0), (1.0, 0.0), (-1.0, 1.0)]:
        assert all(math.isnan(x) for x in verdicts.ratio_interval(m_a, 0.1, m_b, 0.1, 25, 0.95))


# --- Rows built by hand ------------------------------------------------------------------------------

NAN = math.nan


def _assert_row(actual, expected):
    """Every field of a ledger row (a Claim or a row of the table) in CLAIM_SCHEMA's order: texts equal,
    numbers to 1e-12 relative, NaN where NaN is expected; the source, if not expected, this run."""
    got = vars(actual) if isinstance(actual, claims.Claim) else dict(actual)
    assert list(got) == CLAIM_SCHEMA.names
    expected = (*expected, claims.THIS_RUN)[: len(CLAIM_SCHEMA.names)] if len(expected) < 13 else expected
    for name, want in zip(CLAIM_SCHEMA.names, expected, strict=True):
        have = got[name]
        if isinstance(want, float) and math.isnan(want):
            assert isinstance(have, float) and math.isnan(have), (name, have)
        elif isinstance(want, float):
            assert have == pytest.approx(want, rel=1e-12), (name, have, want)
        else:
            assert have == want, (name, have, want)


def _row(claim="c", verdict=verdicts.HOLDS, reason="r", value=50.0, low=40.0, high=60.0, threshold=100.0):
    return claims.Claim(claim, "w", "s", "q", "m", value, low, high, threshold, verdict, reason, "f")


def test_one_run_keeps_the_number_drops_the_interval_and_keeps_a_reason_not_to_test():
    _assert_row(
        claims.one_run(_row()),
        ("c", "w", "s", "q", "m", 50.0, NAN, NAN, 100.0, "not tested", "one run: no interval", "f"),
    )
    why = claims.one_run(_row(verdict=verdicts.NOT_TESTED, reason="T misses it"))
    assert (why.verdict, why.reason) == (verdicts.NOT_TESTED, "one run: no interval; T misses it")
    assert claims.one_run(_row(verdict=verdicts.NOT_TESTED, reason="")).reason == "one run: no interval"


def test_not_run_names_a_method_outside_the_paper_by_its_slug():
    """(The paper's six by their labels, one, two and three of them: the ledger's rows about methods not run.)"""
    assert claims.not_run(["rucb"]) == "rucb not run"
    assert claims.not_run(["rucb", "ts-maximin"]) == "rucb and TS-Maximin not run"


def test_all_below_reports_the_largest_ratio_to_its_bound_and_each_part_verdict():
    """Parts 50 [40, 60] of 100 and 30 [20, 45] of 50: value max(0.5, 0.6) = 0.6, low max(0.4, 0.4) = 0.4,
    high max(0.6, 0.9) = 0.9; each maximum from a different part."""
    a = _row("Theorem 4.1 (borda)", verdicts.HOLDS, "R_T / bound = 0.500")
    b = _row("Theorem 4.4 (borda)", verdicts.INCONCLUSIVE, "x", 30.0, 20.0, 45.0, 50.0)
    spec = {**next(s for s in SPECS if s["rule"] == "every"), "scenario": "borda", "theorems": ["4.1", "4.4"]}
    spec |= {"claim": "c", "where": "w", "statement": "s", "quantity": "q", "method": "m", "figure": "f"}

    def every(*parts):
        [row] = claims.rule_every(spec, {"summary": _summary(), "rows": {p.claim: p for p in parts}}, {})
        return row

    reason = "Theorem 4.1: holds, Theorem 4.4: inconclusive"
    _assert_row(every(a, b), ("c", "w", "s", "q", "m", 0.6, 0.4, 0.9, 1.0, "inconclusive", reason, "f"))
    one = every(a, claims.one_run(b))
    _assert_row(one, ("c", "w", "s", "q", "m", 0.6, NAN, NAN, 1.0, "not tested", "one run: no interval", "f"))
    # a part not tested for another reason (its own "one run" comes second) does not make the row one run's
    other = _row("Theorem 4.4 (borda)", verdicts.NOT_TESTED, "T misses it; one run: no interval")
    assert every(a, other).reason == "Theorem 4.1: holds, Theorem 4.4: not tested"


SEEDS_100 = "runs 0-99, run r's stream SeedSequence([seed, scenario, algorithm, r])"
"""docs/claims.md: the paper run's 100 runs, run r with the stream SeedSequence([seed, scenario, algorithm, r])."""


def _bound(summary, algorithm, regret):
    """The theorem bound the hand-made summary carries at T = 40,000 (an input of the ledger)."""
    part = summary[(summary["algorithm"] == algorithm) & (summary["regret"] == regret) & (summary["t"] == 40000)]
    return float(part["bound"].iloc[0])


def _half(mean):
    """One-sided 0.95 half-width of a mean of _summary(): std 0.1 mean over sqrt(100) runs."""
    return Z95 * 0.1 * mean / 10


def test_every_field_of_the_ledger_of_the_hand_made_summary():
    """The ledger of _summary() (means 130, 450, 1,900, 8,700, 78, 69 at T = 40,000; std 10%; 100 runs),
    row by row and field by field, with the numbers worked out from those means: the bounds 2,146, 6,782,
    4,448 and 20,286 (docs/claims.md's table), R_T / bound 130 / 2,146 = 0.061 etc., the slopes
    log(10) / log(10) = 1 (ISS, DTS on borda) and 0.5 (the others) with standard error
    sqrt(2 * 0.1^2 / 100) / log 10, and TS-Borda over DTS 450 / 69 with log standard error sqrt(2 * 0.1^2 / 100)."""
    summary = _summary()
    table = claims.ledger(summary)
    theorems = [
        ("4.1", "ts-maximin", "maximin", "TS-Maximin", 130.0, "2,146", "0.061"),
        ("4.2", "ts-borda", "borda", "TS-Borda", 450.0, "6,782", "0.066"),
        ("4.3", "sparring-exp3p", "exp3p", "SparringExp3.P", 1900.0, "4,448", "0.427"),
        ("4.4", "partial-monitoring", "borda", "Partial Monitoring", 8700.0, "20,286", "0.429"),
    ]
    expected = []
    for name, algorithm, regret, label, mean, bound, ratio in theorems:
        for scenario in ("borda", "condorcet"):
            expected.append(
                (
                    f"Theorem {name} ({scenario})",
                    f"Theorem {name} (Section 4)",
                    f"{label}'s expected {regret} regret is at most the bound, for every X",
                    f"mean {regret} regret of {label} at T = 40,000 on the {scenario} matrix",
                    f"paper run, 100 runs ({SEEDS_100}); one-sided 0.95 limits mean -+ 1.645 std/sqrt(100) against "
                    f"the bound {bound}",
                    mean,
                    mean - _half(mean),
                    mean + _half(mean),
                    _bound(summary, algorithm, regret),
                    FIXED_HOLDS if name == "4.1" else verdicts.HOLDS,
                    f"R_T / bound = {ratio}",
                    f"figures/main/{scenario}.png (d); figures/appendix/{scenario}-{algorithm}.png (a)",
                )
            )
    pm = _bound(summary, "partial-monitoring", "borda")  # Theorem 4.4's row has the largest ratios: 0.429
    largest = (8700.0 / pm, (8700.0 - _half(8700.0)) / pm, (8700.0 + _half(8700.0)) / pm, 1.0)
    ratio, log_se = 450.0 / 69.0, math.sqrt(2 * 0.1**2 / 100)
    slope_se = math.sqrt(2 * 0.1**2 / 100) / math.log(10)
    expected += [
        (
            "S5 condorcet: state of the art very strong",
            "Section 5.2, Condorcet scenario",
            "both state-of-the-art methods (ISS, DTS) show very strong regret performance",
            "mean final regret of the figure's regret (all coincide here up to the winner's definitions), "
            "ISS and DTS against the paper's four",
            f"paper run, 100 runs ({SEEDS_100}); holds when ISS's and DTS's one-sided 0.95 upper limits are below "
            "every other method's lower limit",
            78.0,
            78.0 - _half(78.0),  # ISS, the weaker of the two, against TS-Maximin's 130, the best of the others
            78.0 + _half(78.0),
            130.0,
            verdicts.HOLDS,
            "largest of ISS, DTS 78.0; smallest of the others 130.0",
            "figures/main/condorcet.png (c)",
        ),
        (
            "S5 condorcet: TS-Borda comparably strong",
            "Section 5.2, Condorcet scenario",
            "TS-Borda shows comparably strong performance (to ISS and DTS)",
            "TS-Borda's mean final Borda regret over DTS's mean final Maximin regret (the same winner here)",
            f"paper run, 100 runs ({SEEDS_100}); delta-method one-sided 0.95 limits of the ratio; comparable when "
            "the ratio is at most 2",
            ratio,
            ratio * math.exp(-Z95 * log_se),
            ratio * math.exp(Z95 * log_se),
            2.0,
            verdicts.FAILS,
            "TS-Borda 450.0 vs DTS 69.0, comparable only for a factor >= 6.7; the best of the paper's four is "
            "TS-Maximin",
            "figures/main/condorcet.png (c)",
        ),
        (
            "S5 condorcet: every method beats its bound",
            "Section 5.2, Condorcet scenario",
            "all methods beat the regret upper bounds proposed in their respective theorems",
            "the four theorem rows on the condorcet matrix (largest R_T / bound reported)",
            "conjunction of the rows Theorem 4.1-4.4 (condorcet)",
            *largest,
            verdicts.HOLDS,
            "Theorem 4.1: holds, Theorem 4.2: holds, Theorem 4.3: holds, Theorem 4.4: holds",
            "figures/main/condorcet.png (d)",
        ),
    ]
    expected.append(
        (
            "S5 borda: ISS's Borda regret linear",
            "Section 5.2, Borda scenario",
            "both state-of-the-art methods struggle with Borda winners, and so their Borda regret grows linearly",
            "local slope of log mean borda regret on log t of ISS, t = 4,000 to 40,000 (borda)",
            f"paper run, 100 runs ({SEEDS_100}); delta-method one-sided 0.95 limits (ends taken as independent: "
            "conservative); linear when the low end >= 0.9",
            1.0,
            1.0 - Z95 * slope_se,
            1.0 + Z95 * slope_se,
            0.9,
            verdicts.HOLDS,
            "R_T / T = 0.0019",  # 78 / 40,000 = 0.00195
            "figures/main/borda.png (c); figures/appendix/borda-iss.png (a)",
        )
    )
    # the other rows of these rules: (claim, value, low, high, threshold, verdict, reason), texts as above
    others = [
        ("S5 borda: DTS's Borda regret linear", 1.0, 1.0 - Z95 * slope_se, 1.0 + Z95 * slope_se, 0.9, verdicts.HOLDS,
         "R_T / T = 0.0017"),  # 69 / 40,000 = 0.001725
        ("S5 borda: SparringExp3.P ultimately linear (T = 40,000)", 0.5, 0.5 - Z95 * slope_se, 0.5 + Z95 * slope_se,
         0.9, verdicts.INCONCLUSIVE,
         "R_T / T = 0.0475; not linear yet at the paper's horizon, which 'ultimately' allows"),
        ("S5 borda: Thompson Sampling shines", 450.0, 450.0 - _half(450.0), 450.0 + _half(450.0), 69.0, verdicts.FAILS,
         "next smallest mean 69.0"),  # DTS's 69 [67.9, 70.1] lies below TS-Borda's 450 [442.6, 457.4]
        ("S5 borda: Borda methods beat their bounds", *largest, verdicts.HOLDS,
         "Theorem 4.2: holds, Theorem 4.4: holds"),
    ]  # fmt: skip
    expected += [
        (
            "Theorems 4.1-4.4 at long horizons",
            "Theorems 4.1-4.4 (Section 4)",
            "each bound holds at every horizon",
            "mean regret at the asymptotics target's longest horizon",
            "results/asymptotics/local.parquet",
            NAN,
            NAN,
            NAN,
            NAN,
            verdicts.NOT_TESTED,
            "the asymptotics target was not built (snakemake --cores 2 asymptotics)",
            "figures/asymptotics/{scenario}.png",
            claims.NONE,
        ),
    ]
    # the other targets not built: the same rule (claims.not_tested), their texts claims.yaml's
    not_built = {
        "Theorem 4.1 (borda, past 10^7)": "the maximin-tail target was not built (snakemake --cores 2 maximin_tail)",
        "Theorem 4.1 (small family)": "the maximin_tail target was not built (snakemake --cores 2 maximin_tail)",
        "Theorem 4.1 (Bayesian, prior: uniform antisymmetric)": "the maximin_bayes target was not built "
        "(snakemake --cores 2 maximin_bayes)",
    }
    order = [e[0] for e in expected[:-1]] + [o[0] for o in others] + [expected[-1][0], *list(not_built)]
    assert table["claim"].tolist() == order
    by = table.set_index("claim", drop=False)
    for want in expected:
        _assert_row(by.loc[want[0]], want)
    for claim, *numbers, verdict, reason in others:
        row = by.loc[claim]
        assert tuple(row[["value", "low", "high", "threshold"]]) == pytest.approx(tuple(numbers), rel=1e-12)
        assert (row["verdict"], row["reason"]) == (verdict, reason)
    rest = table.iloc[-len(not_built) :]
    assert dict(zip(rest["claim"], rest["reason"])) == not_built
    assert (rest["verdict"] == verdicts.NOT_TESTED).all() and rest[
        ["value", "low", "high", "threshold"]
    ].isna().to_numpy().all()


LOCAL_COLUMNS = [
    "scenario", "algorithm", "regret", "theorem", "horizon", "runs", "mean", "std", "bound", "ratio",
    "from_horizon", "slope", "ci_low", "ci_high", "confidence",
]  # fmt: skip
"""The columns of results/asymptotics/local.parquet the ledger reads (schemas.ASYMPTOTIC_LOCAL_SCHEMA)."""


def _local(runs_at_10000=40):
    """A small asymptotics table, rows out of order: a bounded regret at two horizons (condorcet, TS-Maximin),
    SparringExp3.P's Borda regret with its local exponent and its Theorem 4.3 regret, and regrets that give no
    row: a bound null where T misses the requirement, no theorem (None, ""), a slope of another method or
    scenario, a NaN slope."""
    rows = [
        ("condorcet", "ts-maximin", "maximin", "4.1", 100000, 40, 300, 100, 1000, 0.3, 10000, 0.4, 0.3, 0.5, 0.95),
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
    ]
    return pd.DataFrame(rows, columns=LOCAL_COLUMNS)


def test_long_horizon_rows_of_a_hand_made_asymptotics_table():
    """One row per bounded regret at its longest horizon (mean -+ 1.645 std / sqrt(40)), and SparringExp3.P's
    Borda exponent on borda with its bootstrap interval, in (scenario, algorithm, regret) order."""
    rows = _long_rows(_local())
    seeds = "runs 0-39, run r's stream SeedSequence([seed, scenario, algorithm, r])"
    half_exp3p, half_maximin = Z95 * 20.0 / math.sqrt(40), Z95 * 100.0 / math.sqrt(40)
    expected = [
        (
            "S5 borda: SparringExp3.P ultimately linear (T = 100,000)",
            "Section 5.2, Borda scenario",
            "a similar behaviour (linear Borda regret) ultimately happens to SparringExp3.P",
            "local exponent of mean Borda regret across horizons 10,000 -> 100,000",
            "asymptotics target, 40 runs; 0.9 percentile bootstrap interval; linear when the low end >= 0.9",
            0.95,
            0.92,
            0.98,
            0.9,
            verdicts.HOLDS,  # the low end 0.92 reaches 0.9
            "across horizons, each run tuned to its T",
            "figures/asymptotics/borda.png",
        ),
    ]
    _assert_row(rows[0], expected[0])
    # the theorem rows: one-sided limits of the mean against the bound, in full on the paper run's rows above
    theorems = [
        ("Theorem 4.3 (borda, T = 100,000)", 2000.0, half_exp3p, 1800.0, verdicts.FAILS, "R_T / bound = 1.110"),
        ("Theorem 4.1 (condorcet, T = 100,000)", 300.0, half_maximin, 1000.0, verdicts.HOLDS, "R_T / bound = 0.300"),
    ]  # 2,000 - 5.2 lies above 1,800
    for row, (claim, mean, half, bound, verdict, reason) in zip(rows[1:], theorems, strict=True):
        assert row.claim == claim
        assert (row.value, row.low, row.high, row.threshold) == pytest.approx((mean, mean - half, mean + half, bound))
        assert (row.verdict, row.reason) == (verdict, reason)
        assert row.method == f"40 runs (asymptotics; {seeds} at horizon T); one-sided 0.95 limits of the mean"
    assert rows[2].statement == "TS-Maximin's expected maximin regret is at most the theorem's bound"  # its label


def test_long_horizon_rows_from_one_run_and_from_two():
    """The exponent from 10,000 to 100,000 rests on the runs at both ends: one run at 10,000 makes it a
    one-run row (the run at 1,000, outside that span, does not); the theorem rows follow their own runs."""
    rows = {r.claim: r for r in _long_rows(_local(runs_at_10000=1))}
    slope = rows["S5 borda: SparringExp3.P ultimately linear (T = 100,000)"]
    assert (slope.verdict, slope.reason, slope.value) == (verdicts.NOT_TESTED, "one run: no interval", 0.95)
    assert rows["Theorem 4.1 (condorcet, T = 100,000)"].verdict == verdicts.HOLDS
    local = _local()
    local.loc[0, "runs"] = 1  # condorcet TS-Maximin at its longest horizon
    one = {r.claim: r for r in _long_rows(local)}["Theorem 4.1 (condorcet, T = 100,000)"]
    assert (one.verdict, one.reason, one.value) == (verdicts.NOT_TESTED, "one run: no interval", 300.0)
    local.loc[0, "runs"] = 2  # the boundary: two runs have an interval
    two = {r.claim: r for r in _long_rows(local)}["Theorem 4.1 (condorcet, T = 100,000)"]
    assert two.low == pytest.approx(300.0 - Z95 * 100.0 / math.sqrt(2), rel=1e-12)
    rows = {r.claim: r for r in _long_rows(_local(runs_at_10000=2))}  # the boundary: two runs at 10,000
    assert rows["S5 borda: SparringExp3.P ultimately linear (T = 100,000)"].verdict == verdicts.HOLDS


def test_long_horizon_row_of_a_method_outside_the_paper_names_its_slug():
    local = _local()
    local.loc[local["algorithm"] == "ts-maximin", "algorithm"] = "my-method"
    row = {r.claim: r for r in _long_rows(local)}["Theorem 4.1 (condorcet, T = 100,000)"]
    assert row.statement == "my-method's expected maximin regret is at most the theorem's bound"


def _estimates(verdicts, runs=2000):
    """A maximin-tail estimates table, its steps out of order (t = 1,000, 10, 100)."""
    return pd.DataFrame(
        {
            "t": [1000, 10, 100],
            "runs": runs,
            "trapped_runs": 90,
            "free_runs_continued": 60,
            "mean": [300.0, 5.0, 200.0],
            "low": [250.0, 4.0, 150.0],
            "high": [350.0, 6.0, 250.0],
            "bound": [339.0, 34.0, 107.0],
            "verdict": verdicts,
            "confidence": 0.95,
        }
    )


def test_tail_row_every_field_at_the_first_step_exceeded():
    """Exceeded at t = 100 and 1,000: the row is t = 100's (the first after sorting by t), and fails."""
    statement = "TS-Maximin's expected Maximin regret is at most A/sqrt(2) sqrt(log A) sqrt(T), for every X and T"
    row = _tail_row(_estimates(["exceeded", "below", "exceeded"]), "exceeded at t = 100")
    expected = (
        "Theorem 4.1 (borda, t = 100)",
        "Theorem 4.1 (Section 4)",
        statement,
        "E[R_t] of TS-Maximin on the borda matrix at t = 100 (first t exceeded, else the last)",
        "maximin-tail: 2,000 runs to the first horizon, 90 trapped and 60 free continued; two-phase stratified "
        "mean, two-sided 0.95 normal interval",
        200.0,
        150.0,
        250.0,
        107.0,
        verdicts.FAILS,
        "exceeded at t = 100",
        "figures/maximin-tail/tail.png (a, b); results/maximin-tail/tail.md",
    )
    _assert_row(row, expected)


def test_tail_row_without_an_exceeded_step_takes_the_last_and_decides_on_its_interval():
    """No step exceeded: the last t (1,000), 300 [250, 350] against 339, inconclusive; with its high end
    below the bound it holds; two runs are enough for an interval; no verdict text gives no reason."""
    row = _tail_row(_estimates(["below", "below", "inconclusive"]), None)
    assert (row.claim, row.verdict, row.reason, row.threshold) == (
        "Theorem 4.1 (borda, t = 1,000)",
        verdicts.INCONCLUSIVE,
        "",
        339.0,
    )
    below = _estimates(["below", "below", "below"]).assign(high=[338.0, 6.0, 250.0])
    assert _tail_row(below, "t").verdict == verdicts.HOLDS
    two = _tail_row(_estimates(["below", "below", "below"], runs=2).assign(high=338.0), "t")
    assert (two.verdict, two.low, two.high) == (verdicts.HOLDS, 250.0, 338.0)


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


def test_family_row_every_field_of_the_first_member_exceeded():
    """Three members exceed at t = 1,000: sorted by (t, actions, gap) the first is A = 5, gap 0.1; its
    crossing's high end is beyond the grid and it has no exponent; the smallest A failing is 4 and the
    largest gap 0.2 (tail_family.family_extremes); five members with a trap, searched up to t = 5,000."""
    statement = "TS-Maximin's expected Maximin regret is at most A/sqrt(2) sqrt(log A) sqrt(T), for every X and T"
    expected = (
        "Theorem 4.1 (A = 5, gap 0.1, t = 1,000)",
        "Theorem 4.1 (Section 4)",
        statement,
        "mean Maximin regret of TS-Maximin on the family member whose interval first lies above the bound "
        "(else the largest ratio at the last t)",
        "200 runs per member, seed stream SeedSequence([seed, 'maximin-tail', 'family', A, 1000 gap, run]); "
        "two-sided 0.95 normal interval; 5 members with a trap searched up to t = 5,000",
        85.0,
        75.0,
        95.0,
        50.0,
        verdicts.FAILS,
        "R_t / bound = 1.70; E[R_t] crosses the bound at t = 700 [600, beyond the grid]; within the grid, fails "
        "down to A = 4 and up to gap 0.2",
        "figures/maximin-tail/tail.png (b); results/maximin-tail/family.md",
    )
    _assert_row(_family_row(_family()), expected)


def test_family_sharpened_names_the_crossing_the_exponent_and_the_reach():
    family = _family()
    member = family.iloc[4]  # A = 4, gap 0.1 at t = 5,000: crossing and exponent both known
    assert claims.family_sharpened(SHARPENED, family, member) == (
        "; E[R_t] crosses the bound at t = 2,000 [1,500, 3,000]; grows like t^0.86 [0.82, 0.89] past it; "
        "within the grid, fails down to A = 4 and up to gap 0.2"
    )
    assert (
        claims.family_sharpened(SHARPENED, family, family.iloc[5])
        == "; within the grid, fails down to A = 4 and up to gap 0.2"
    )
    quiet = family.assign(verdict=family["verdict"].replace("exceeded", "inconclusive"))
    assert claims.family_sharpened(SHARPENED, quiet, quiet.iloc[5]) == ""  # no crossing, nothing fails: no clause
    plain = _family(crossing=False)  # a table written before the member columns: no crossing to name
    assert (
        claims.family_sharpened(SHARPENED, plain, plain.iloc[4])
        == "; within the grid, fails down to A = 4 and up to gap 0.2"
    )


def test_family_row_without_an_exceeded_member_takes_the_largest_ratio_at_the_last_t():
    """Nothing exceeded: of the rows at the last t (5,000) the one with the largest ratio, A = 4 (0.78 over
    A = 3's 0.55), decided on its interval 160 [130, 190] against 205: holds."""
    family = _family(crossing=False)
    family["verdict"] = family["verdict"].replace("exceeded", "below")
    family.loc[4, ["bound", "ratio"]] = [205.0, 0.78]
    row = _family_row(family)
    assert (row.claim, row.value, row.threshold, row.verdict) == (
        "Theorem 4.1 (A = 4, gap 0.1, t = 5,000)",
        160.0,
        205.0,
        verdicts.HOLDS,
    )
    assert row.reason == "R_t / bound = 0.78"
    family.loc[4, "bound"] = 150.0  # 150 inside [130, 190]
    assert _family_row(family).verdict == verdicts.INCONCLUSIVE
    family["runs"] = 2  # the boundary: two runs per member have an interval
    assert _family_row(family).verdict == verdicts.INCONCLUSIVE


def test_bayes_rows_one_per_prior_a_and_horizon_every_field():
    """One row per (prior, A, T), rows out of order in the table: the priors in PRIORS' order, then T, then A;
    each decided on its own interval against 1, naming its prior and T. A = 4, 1.075 [0.9, 1.25], is
    inconclusive: n > 400 (0.175 / 0.075)^2 = 2,177.8 matrices would decide it."""
    estimates = _bayes(["holds", "inconclusive", "holds"], [0.1, 0.9, -0.2], [0.5, 1.25, 0.3])
    estimates["actions"] = [5, 4, 3]
    estimates.loc[0, ["prior", "horizon"]] = ["independent entries, projected", 10**6]
    got = _bayes_rows(estimates)
    assert [r.claim for r in got] == [
        "Theorem 4.1 (Bayesian, prior: uniform antisymmetric) (A = 3, T = 100,000)",
        "Theorem 4.1 (Bayesian, prior: uniform antisymmetric) (A = 4, T = 100,000)",
        "Theorem 4.1 (Bayesian, prior: independent entries, projected) (A = 5, T = 1,000,000)",
    ]
    expected = (
        "Theorem 4.1 (Bayesian, prior: uniform antisymmetric) (A = 4, T = 100,000)",
        "Theorem 4.1 (Section 4; its proof)",
        "TS-Maximin's Bayesian Maximin regret (X drawn from the prior) is at most A/sqrt(2) sqrt(log A) sqrt(T)",
        "E[R_T] / bound of TS-Maximin over the prior at A = 4, T = 100,000",
        "maximin-bayes: 400 matrices x 2 runs each, the prior stratified by a Condorcet winner; two-sided 0.95 "
        "normal interval",
        1.075,
        0.9,
        1.25,
        1.0,
        verdicts.INCONCLUSIVE,
        "12.5% [10.0, 15.0] of the drawn matrices above the bound; 2,178 matrices would decide it if the estimate "
        "and the between-matrix spread stayed as observed",
        "results/maximin-bayes/bayes.md",
    )
    _assert_row(got[1], expected)
    assert [claims.reading(r).verdict for r in got] == [
        "holds as a Bayesian bound (prior: uniform antisymmetric)",
        verdicts.INCONCLUSIVE,
        "holds as a Bayesian bound (prior: independent entries, projected)",
    ]
    assert _bayes_rows(_bayes(["holds"], [NAN], [NAN]))[0].verdict == verdicts.NOT_TESTED  # a NaN never holds
    [empty] = _bayes_rows(_bayes([], [], []))
    assert (empty.claim, empty.verdict) == ("Theorem 4.1 (Bayesian, prior: uniform antisymmetric)", verdicts.NOT_TESTED)


def test_reading_names_the_reading_only_on_theorem_4_1_rows():
    """holds/fails on a fixed matrix, or as a Bayesian bound naming the prior; inconclusive and not tested as
    they are; other theorems' rows and Section 5's untouched."""
    fixed = _row("Theorem 4.1 (borda, t = 100)", verdicts.FAILS)
    assert claims.reading(fixed).verdict == "fails as a bound on a fixed matrix"
    assert claims.reading(replace(fixed, verdict=verdicts.HOLDS)).verdict == "holds on this fixed matrix"
    assert claims.reading(replace(fixed, verdict=verdicts.INCONCLUSIVE)).verdict == verdicts.INCONCLUSIVE
    bayes = _row("Theorem 4.1 (Bayesian, prior: some prior) (A = 3, T = 100)", verdicts.HOLDS)
    assert claims.reading(bayes).verdict == "holds as a Bayesian bound (prior: some prior)"
    assert (
        claims.reading(replace(bayes, verdict=verdicts.FAILS)).verdict
        == "fails as a Bayesian bound (prior: some prior)"
    )
    assert claims.reading(replace(bayes, verdict=verdicts.NOT_TESTED)).verdict == verdicts.NOT_TESTED
    named = replace(bayes, claim="Theorem 4.1 (Bayesian, prior: a prior: of sorts) (A = 3, T = 100)")
    assert claims.reading(named).verdict == "holds as a Bayesian bound (prior: a prior: of sorts)"  # named whole
    for other in ("Theorem 4.2 (borda)", "S5 borda: Thompson Sampling shines", "theorem 4.1 (borda)"):
        assert claims.reading(_row(other, verdicts.FAILS)).verdict == verdicts.FAILS
    assert claims.reading(fixed).reason == "r"  # nothing else changes


def test_every_field_of_the_rows_about_methods_not_run():
    """TS-Borda and DTS left out of _summary(): each row that needs one of them is not tested, has no number,
    names them in the registry's order, and keeps its texts (those of a row decided, but the quantity and
    method of a theorem, the ratio and a slope, which have no T or best method to name); the rows about the
    others are decided."""
    by = _without("ts-borda", "dts")
    decided = claims.ledger(_summary()).set_index("claim")
    no_run = "paper run: the summary holds no run of it"
    expected = {
        "Theorem 4.2 (borda)": ("TS-Borda not run", "mean borda regret of TS-Borda at T on the borda matrix", no_run),
        "Theorem 4.2 (condorcet)": (
            "TS-Borda not run",
            "mean borda regret of TS-Borda at T on the condorcet matrix",
            no_run,
        ),
        "S5 condorcet: state of the art very strong": ("TS-Borda and DTS not run", None, None),
        "S5 condorcet: TS-Borda comparably strong": (
            "TS-Borda and DTS not run",
            "TS-Borda's mean final Borda regret over the smaller of ISS's and DTS's mean final Maximin regrets",
            None,
        ),
        "S5 condorcet: every method beats its bound": ("TS-Borda not run", None, None),
        "S5 borda: DTS's Borda regret linear": (
            "DTS not run",
            "local slope of log mean borda regret on log t of DTS (borda)",
            no_run,
        ),
        "S5 borda: Thompson Sampling shines": ("TS-Borda and DTS not run", None, None),
        "S5 borda: Borda methods beat their bounds": ("TS-Borda not run", None, None),
    }
    for claim, (reason, quantity, method) in expected.items():
        texts = decided.loc[claim, ["where", "statement", "quantity", "method", "figure"]].tolist()
        texts[2:4] = [quantity or texts[2], method or texts[3]]
        where, statement, quantity, method, figure = texts
        row = (claim, where, statement, quantity, method, NAN, NAN, NAN, NAN, verdicts.NOT_TESTED, reason, figure)
        _assert_row(by.reset_index().set_index("claim", drop=False).loc[claim], row)
    rest = by.iloc[:SUMMARY_ROWS][~by.index[:SUMMARY_ROWS].isin(list(expected))]
    assert len(rest) == 8 and not (rest["verdict"] == verdicts.NOT_TESTED).any(), rest["verdict"]
    assert by.loc["S5 borda: ISS's Borda regret linear", "verdict"] == verdicts.HOLDS


def test_the_four_of_the_paper_that_were_run_and_the_runs_of_one_method():
    """Partial Monitoring not run: TS-Borda's ratio row names the best of the paper's four *that were run*.
    Partial Monitoring with one run: the rows comparing it (the ordering rows, its theorem's conjunction)
    are one-run rows; the ratio of TS-Borda over DTS and the method text's 100 runs (the paper run's) stand."""
    by = _without("partial-monitoring")
    assert by.loc["S5 condorcet: TS-Borda comparably strong", "reason"] == (
        "TS-Borda 450.0 vs DTS 69.0, comparable only for a factor >= 6.7; the best of the paper's four that were "
        "run is TS-Maximin"
    )
    summary = _summary()
    summary.loc[summary["algorithm"] == "partial-monitoring", "runs"] = 1
    by = claims.ledger(summary).set_index("claim")
    for claim in (
        "S5 condorcet: state of the art very strong",
        "S5 borda: Thompson Sampling shines",
        "S5 condorcet: every method beats its bound",
        "S5 borda: Borda methods beat their bounds",
        "Theorem 4.4 (borda)",
    ):
        assert (by.loc[claim, "verdict"], by.loc[claim, "reason"]) == (verdicts.NOT_TESTED, "one run: no interval")
    ratio = by.loc["S5 condorcet: TS-Borda comparably strong"]
    assert ratio["verdict"] == verdicts.FAILS
    assert ratio["high"] == pytest.approx(450 / 69 * math.exp(Z95 * math.sqrt(2 * 0.1**2 / 100)), rel=1e-12)
    assert ratio["method"].startswith(f"paper run, 100 runs ({SEEDS_100});")


def test_the_figure_s_regret_decides_the_orderings():
    """The regrets a figure does not show made ten times larger: the ordering rows read the shown regret
    (_summary's paper column), so their numbers do not move; a theorem row reads its theorem's regret
    (TS-Maximin's Maximin regret, not shown on borda: 1,300)."""
    summary = _summary()
    hidden = ~summary["paper"]
    summary.loc[hidden, ["mean", "std"]] *= 10
    by = claims.ledger(summary).set_index("claim")
    assert tuple(by.loc["S5 condorcet: state of the art very strong", ["value", "threshold"]]) == (78.0, 130.0)
    assert tuple(by.loc["S5 borda: Thompson Sampling shines", ["value", "threshold"]]) == (450.0, 69.0)
    assert by.loc["Theorem 4.1 (borda)", "value"] == 1300.0
    assert by.loc["Theorem 4.1 (condorcet)", "value"] == 130.0


def test_a_theorem_row_without_its_regret_or_without_a_bound():
    """TS-Maximin's Maximin regret missing on borda: no Theorem 4.1 (borda) row. TS-Borda's bound null (T
    misses the requirement): its rows are not tested, saying so, and the conjunction is inconclusive."""
    summary = _summary()
    drop = (summary["scenario"] == "borda") & (summary["algorithm"] == "ts-maximin") & (summary["regret"] == "maximin")
    by = claims.ledger(summary[~drop]).set_index("claim")
    assert "Theorem 4.1 (borda)" not in by.index and "Theorem 4.1 (condorcet)" in by.index
    summary.loc[summary["algorithm"] == "ts-borda", "bound"] = NAN
    by = claims.ledger(summary).set_index("claim")
    row = by.loc["Theorem 4.2 (condorcet)"]
    assert (row["verdict"], row["reason"]) == (
        verdicts.NOT_TESTED,
        "T = 40,000 misses Theorem 4.2's horizon requirement",
    )
    assert row["method"].endswith("against the bound nan") and row["value"] == 450.0
    every = by.loc["S5 condorcet: every method beats its bound"]
    assert every["verdict"] == verdicts.INCONCLUSIVE
    assert every["reason"] == "Theorem 4.1: holds, Theorem 4.2: not tested, Theorem 4.3: holds, Theorem 4.4: holds"
    one = claims.ledger(summary.assign(runs=1)).set_index("claim").loc["Theorem 4.2 (condorcet)", "reason"]
    assert one == "one run: no interval; T = 40,000 misses Theorem 4.2's horizon requirement"


def test_the_level_reaches_every_interval_and_its_text():
    """At level 0.975 (z = 1.959964): the theorem rows' limits and text, the slopes', the ratio's."""
    by = claims.ledger(_summary(), level=0.975).set_index("claim")
    z = 1.959964
    theorem = by.loc["Theorem 4.1 (condorcet)"]
    assert theorem["low"] == pytest.approx(130.0 - z * 1.3, rel=1e-6)
    assert "one-sided 0.975 limits mean -+ 1.960 std/sqrt(100)" in theorem["method"]
    slope = by.loc["S5 borda: ISS's Borda regret linear"]
    assert slope["low"] == pytest.approx(1.0 - z * math.sqrt(2 * 0.1**2 / 100) / math.log(10), rel=1e-6)
    assert "delta-method one-sided 0.975 limits" in slope["method"]
    ratio = by.loc["S5 condorcet: TS-Borda comparably strong"]
    assert ratio["high"] == pytest.approx(450 / 69 * math.exp(z * math.sqrt(2 * 0.1**2 / 100)), rel=1e-6)
    assert "one-sided 0.975 limits of the ratio" in ratio["method"]
    sota = by.loc["S5 condorcet: state of the art very strong"]
    assert sota["low"] == pytest.approx(78.0 - z * 0.78, rel=1e-6) and "one-sided 0.975 upper" in sota["method"]
    assert by.loc["S5 borda: SparringExp3.P ultimately linear (T = 40,000)", "method"].count("0.975") == 1


def test_a_condorcet_only_summary_has_no_borda_rows():
    summary = _summary()
    by = claims.ledger(summary[summary["scenario"] == "condorcet"]).set_index("claim")
    assert not by.index.str.startswith("S5 borda").any() and not by.index.str.contains(r"\(borda\)").any()
    assert by.loc["S5 condorcet: every method beats its bound", "verdict"] == verdicts.HOLDS


def _steps_summary():
    """Summary rows of ISS on borda at steps 100, 3,980, 4,005 and 40,000 (T / 10 = 4,000 is not a step:
    4,005 is the nearest), its Borda regret 100 -> 1,000 from 4,005 on and its Maximin regret ten times
    larger; DTS on borda and ISS on condorcet with a step at exactly 4,000 and other means."""
    rows = [("borda", "iss", "borda", t, m) for t, m in [(100, 1.0), (3980, 90.0), (4005, 100.0), (40000, 1000.0)]]
    rows += [("borda", "iss", "maximin", t, 10 * m) for _, _, _, t, m in rows]
    rows += [("borda", "dts", "borda", t, 7.0) for t in (4000, 40000)]
    rows += [("condorcet", "iss", "borda", t, 5.0) for t in (4000, 40000)]
    frame = pd.DataFrame(rows, columns=["scenario", "algorithm", "regret", "t", "mean"])
    return frame.assign(std=0.1 * frame["mean"], runs=100, paper=True, bound=NAN)


def test_slope_claim_starts_at_the_step_nearest_a_tenth_of_the_horizon():
    """log(1,000 / 100) / log(40,000 / 4,005), standard error sqrt(2 * 0.1^2 / 100) over the same log;
    "ultimately" with a slope that holds keeps its verdict and adds no clause."""
    width = math.log(40000 / 4005)
    se = math.sqrt(2 * 0.1**2 / 100) / width
    slope = math.log(10) / width
    row = _slope(_steps_summary(), "iss", ultimately=True)
    assert row.quantity == "local slope of log mean borda regret on log t of ISS, t = 4,005 to 40,000 (borda)"
    assert (row.value, row.low, row.high) == pytest.approx((slope, slope - Z95 * se, slope + Z95 * se), rel=1e-12)
    assert (row.verdict, row.reason) == (verdicts.HOLDS, "R_T / T = 0.0250")  # 1,000 / 40,000
    two = _slope(_steps_summary().assign(runs=2), "iss")
    assert two.method.startswith("paper run, 2 runs (runs 0-1, run r's stream") and two.verdict == verdicts.HOLDS


def test_slope_claim_starts_at_the_step_nearest_t_over_10_when_t_is_not_a_multiple_of_10():
    """docs/claims.md: the summary step nearest T/10. T = 40,005: T/10 = 4,000.5, so of the steps 3,998 and
    4,002 (equally near 4,000) it is 4,002, 1.5 away against 2.5."""
    rows = [("borda", "iss", "borda", t, m) for t, m in [(3998, 100.0), (4002, 100.0), (40005, 1000.0)]]
    frame = pd.DataFrame(rows, columns=["scenario", "algorithm", "regret", "t", "mean"])
    summary = frame.assign(std=10.0, runs=100, paper=True, bound=NAN)
    row = _slope(summary, "iss")
    assert row.quantity == "local slope of log mean borda regret on log t of ISS, t = 4,002 to 40,005 (borda)"


def test_slope_claim_that_fails_is_not_inconclusive_unless_the_claim_is_ultimate():
    """DTS's Borda regret is flat (7 at t = 4,000 and 40,000): slope 0, fails; only an "ultimately" claim
    turns that into inconclusive, with its clause."""
    row = _slope(_steps_summary(), "dts")
    assert (row.value, row.verdict, row.reason) == (0.0, verdicts.FAILS, "R_T / T = 0.0002")  # 7 / 40,000
    row = _slope(_steps_summary(), "dts", ultimately=True)
    assert row.verdict == verdicts.INCONCLUSIVE
    assert row.reason == "R_T / T = 0.0002; not linear yet at the paper's horizon, which 'ultimately' allows"


def test_the_weaker_and_the_better_of_iss_and_dts_are_chosen_by_their_means():
    """DTS made worse than ISS (90 against 78): the ordering row reports DTS, the weaker; the ratio row
    divides by ISS, now the better."""
    summary = _summary()
    dts = summary["algorithm"] == "dts"
    summary.loc[dts, ["mean", "std"]] *= 90 / 69
    by = claims.ledger(summary).set_index("claim")
    sota = by.loc["S5 condorcet: state of the art very strong"]
    assert (
        sota["value"] == pytest.approx(90.0)
        and sota["reason"] == "largest of ISS, DTS 90.0; smallest of the others 130.0"
    )
    ratio = by.loc["S5 condorcet: TS-Borda comparably strong"]
    assert ratio["value"] == pytest.approx(450 / 78) and ratio["reason"].startswith("TS-Borda 450.0 vs ISS 78.0,")
    assert ratio["quantity"].startswith("TS-Borda's mean final Borda regret over ISS's mean final Maximin regret")


def test_a_summary_of_one_step_decides_the_orderings_and_has_no_decade_for_the_slopes():
    """Only t = 40,000: the step nearest T/10 is T itself, so a slope has no width (not tested); the
    orderings and the theorems are decided as with two steps."""
    summary = _summary()
    by = claims.ledger(summary[summary["t"] == 40000]).set_index("claim")
    assert by.loc["S5 condorcet: state of the art very strong", "verdict"] == verdicts.HOLDS
    assert by.loc["S5 borda: Thompson Sampling shines", "verdict"] == verdicts.FAILS
    slope = by.loc["S5 borda: ISS's Borda regret linear"]
    assert slope["verdict"] == verdicts.NOT_TESTED and math.isnan(slope["value"])
    assert by.loc["Theorem 4.2 (condorcet)", "verdict"] == verdicts.HOLDS


def test_the_ledger_reads_every_optional_table_at_its_level():
    """With the asymptotics table, the tail's estimates (and its verdict text), the family and the Bayesian
    estimates, each adds its rows after the paper run's, at the ledger's level; the Theorem 4.1 rows name
    their reading."""
    table = claims.ledger(
        _summary(),
        local=_local(),
        tail=_estimates(["exceeded", "below", "exceeded"]),
        tail_verdict="tail text",
        level=0.975,
        family=_family(),
        bayes=_bayes(["holds"], [0.1], [0.5]),
        sources={"local": claims.ARCHIVE},
    )
    assert table["claim"].tolist()[SUMMARY_ROWS:] == [
        "S5 borda: SparringExp3.P ultimately linear (T = 100,000)",
        "Theorem 4.3 (borda, T = 100,000)",
        "Theorem 4.1 (condorcet, T = 100,000)",
        "Theorem 4.1 (borda, t = 100)",
        "Theorem 4.1 (A = 5, gap 0.1, t = 1,000)",
        "Theorem 4.1 (Bayesian, prior: uniform antisymmetric) (A = 3, T = 100,000)",
    ]
    by = table.set_index("claim")
    long = by.loc["Theorem 4.1 (condorcet, T = 100,000)"]
    assert long["low"] == pytest.approx(300.0 - 1.959964 * 100 / math.sqrt(40), rel=1e-6)
    assert long["verdict"] == FIXED_HOLDS
    tail = by.loc["Theorem 4.1 (borda, t = 100)"]
    assert (tail["verdict"], tail["reason"]) == ("fails as a bound on a fixed matrix", "tail text")
    assert by.loc["Theorem 4.1 (A = 5, gap 0.1, t = 1,000)", "verdict"] == "fails as a bound on a fixed matrix"
    assert by["source"].tolist()[SUMMARY_ROWS - 1 :] == [claims.THIS_RUN, *[claims.ARCHIVE] * 3, *[claims.THIS_RUN] * 3]


@pytest.mark.parametrize("one", ["ts-borda", "dts"])
def test_the_ratio_of_ts_borda_over_dts_has_no_interval_when_either_has_one_run(one):
    summary = _summary()
    summary.loc[summary["algorithm"] == one, "runs"] = 1
    row = claims.ledger(summary).set_index("claim").loc["S5 condorcet: TS-Borda comparably strong"]
    assert (row["verdict"], row["reason"]) == (verdicts.NOT_TESTED, "one run: no interval")
    assert row["value"] == pytest.approx(450 / 69) and math.isnan(row["low"])


def test_ts_borda_shines_when_its_interval_lies_below_every_other_method_s():
    """TS-Borda's regret made 45 [44.3, 45.7] on borda, below DTS's 69 [67.9, 70.1]: holds, against the next
    smallest mean, DTS's 69 (not TS-Borda's own)."""
    summary = _summary()
    summary.loc[summary["algorithm"] == "ts-borda", ["mean", "std"]] /= 10
    row = claims.ledger(summary).set_index("claim").loc["S5 borda: Thompson Sampling shines"]
    assert (row["value"], row["threshold"], row["verdict"]) == (pytest.approx(45.0), 69.0, verdicts.HOLDS)
    assert row["reason"] == "next smallest mean 69.0"


def test_an_optional_table_given_on_the_command_line_must_exist(tmp_path, capsys):
    """A mistyped --tail is refused in one line, not read as "the target was not built"."""
    from duelbandits import cli, schemas, storage

    storage.write_frame(_summary(), schemas.SUMMARY_SCHEMA, tmp_path / "summary.parquet", {"table": "summary"})
    out = ["--table", tmp_path / "c.parquet", "--markdown", tmp_path / "c.md", "--tail", tmp_path / "typo.parquet"]
    assert cli.main([str(a) for a in ["claims", "--summary", tmp_path / "summary.parquet", "--level", 0.95, *out]]) == 2
    err = capsys.readouterr().err
    assert "typo.parquet" in err and err.count("\n") == 1, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["summary.parquet"]
