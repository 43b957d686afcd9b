"""The claims ledger's verdict rules, each at its boundary (the last value that holds, the first that
does not), and the ledger built from a small hand-made summary."""

import math

import numpy as np
import pandas as pd
import pytest

from duelbandits import claims
from duelbandits.schemas import CLAIM_SCHEMA

FIXED_HOLDS = "holds on this fixed matrix"
"""A Theorem 4.1 row on a fixed matrix says which reading of the theorem it tests (claims.READINGS)."""

Z = claims.z_one_sided(0.95)


def test_one_sided_level_is_1_645():
    assert Z == pytest.approx(1.6448536, abs=1e-6)


def test_below_at_its_boundary():
    bound = 100.0
    assert claims.below(90.0, np.nextafter(bound, 0), bound) == claims.HOLDS  # last value that holds
    assert claims.below(90.0, bound, bound) == claims.INCONCLUSIVE  # high end at the bound: not below it
    assert claims.below(np.nextafter(bound, 200), 120.0, bound) == claims.FAILS  # first value that fails
    assert claims.below(bound, 120.0, bound) == claims.INCONCLUSIVE
    assert claims.below(math.nan, 1.0, bound) == claims.NOT_TESTED


def test_theorem_rule_on_a_mean_over_runs():
    """mean + 1.645 std / sqrt(runs) against the bound: the largest mean that holds, the smallest that fails."""
    std, runs, bound = 50.0, 100, 1000.0
    half = Z * std / math.sqrt(runs)
    holds = np.nextafter(bound - half, 0)
    assert claims.below(*claims.mean_interval(holds, std, runs), bound) == claims.HOLDS
    fails = np.nextafter(bound + half, 2 * bound) + 1e-9
    assert claims.below(*claims.mean_interval(fails, std, runs), bound) == claims.FAILS
    assert claims.below(*claims.mean_interval(bound, std, runs), bound) == claims.INCONCLUSIVE


def test_at_least_at_its_boundary():
    t = claims.LINEAR
    assert claims.at_least(t, 1.2, t) == claims.HOLDS  # low end at the threshold: holds
    assert claims.at_least(np.nextafter(t, 0), 1.2, t) == claims.INCONCLUSIVE
    assert claims.at_least(0.5, np.nextafter(t, 0), t) == claims.FAILS  # high end just below: fails
    assert claims.at_least(0.5, t, t) == claims.INCONCLUSIVE


def test_linear_growth_rule_on_exact_power_laws():
    """R_t = c t^rho with tiny noise: slope rho; linear when rho >= 0.9, not when well below."""
    for rho, verdict in [(1.0, claims.HOLDS), (0.95, claims.HOLDS), (0.6, claims.FAILS)]:
        slope, low, high = claims.log_slope(4.0 * 4000**rho, 1e-6, 4000, 4.0 * 40000**rho, 1e-6, 40000, 100)
        assert slope == pytest.approx(rho)
        assert claims.at_least(low, high, claims.LINEAR) == verdict


def test_slope_interval_widens_with_the_spread():
    _, low_a, high_a = claims.log_slope(100, 10, 1000, 1000, 100, 10000, 100)
    _, low_b, high_b = claims.log_slope(100, 50, 1000, 1000, 500, 10000, 100)
    assert high_b - low_b > high_a - low_a
    assert (high_a - low_a) / 2 == pytest.approx(Z * math.sqrt(2 * 0.1**2 / 100) / math.log(10))


def test_smallest_at_its_boundary():
    others = {"a": (10.0, 12.0), "b": (20.0, 25.0)}
    assert claims.smallest({**others, "x": (5.0, np.nextafter(10.0, 0))}, ["x"]) == claims.HOLDS
    assert claims.smallest({**others, "x": (5.0, 10.0)}, ["x"]) == claims.INCONCLUSIVE
    assert claims.smallest({**others, "x": (np.nextafter(12.0, 20), 14.0)}, ["x"]) == claims.FAILS
    assert claims.smallest({**others, "x": (12.0, 14.0)}, ["x"]) == claims.INCONCLUSIVE


def test_comparable_ratio_rule_at_its_boundary():
    c = claims.COMPARABLE
    assert claims.below(1.5, np.nextafter(c, 0), c) == claims.HOLDS
    assert claims.below(np.nextafter(c, 10), 3.0, c) == claims.FAILS


def test_every_is_a_conjunction():
    assert claims.every([claims.HOLDS, claims.HOLDS]) == claims.HOLDS
    assert claims.every([claims.HOLDS, claims.INCONCLUSIVE]) == claims.INCONCLUSIVE
    assert claims.every([claims.INCONCLUSIVE, claims.FAILS]) == claims.FAILS
    assert claims.every([claims.NOT_TESTED]) == claims.NOT_TESTED
    assert claims.every([claims.HOLDS, claims.NOT_TESTED]) == claims.INCONCLUSIVE


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


def test_ledger_rows_verdicts_and_schema():
    table = claims.ledger(_summary())
    assert list(table.columns) == CLAIM_SCHEMA.names
    by = table.set_index("claim")
    assert by.loc["Theorem 4.1 (condorcet)", "verdict"] == FIXED_HOLDS
    assert by.loc["S5 borda: ISS's Borda regret linear", "verdict"] == claims.HOLDS
    assert by.loc["S5 borda: ISS's Borda regret linear", "value"] == pytest.approx(1.0)
    ultimately = by.loc["S5 borda: SparringExp3.P ultimately linear (T = 40,000)"]
    assert ultimately["value"] == pytest.approx(0.5) and ultimately["verdict"] == claims.INCONCLUSIVE
    assert by.loc["S5 condorcet: TS-Borda comparably strong", "verdict"] == claims.FAILS
    assert by.loc["S5 condorcet: every method beats its bound", "verdict"] == claims.HOLDS
    assert by.loc["Theorems 4.1-4.4 at long horizons", "verdict"] == claims.NOT_TESTED
    assert "not built" in by.loc["Theorem 4.1 (borda, past 10^7)", "reason"]


def test_tail_row_fails_at_the_first_step_exceeded():
    estimates = pd.DataFrame(
        {
            "t": [10, 100, 1000],
            "runs": 2000,
            "trapped_runs": 90,
            "free_runs_continued": 60,
            "mean": [5.0, 200.0, 900.0],
            "low": [4.0, 150.0, 700.0],
            "high": [6.0, 250.0, 1100.0],
            "bound": [34.0, 107.0, 339.0],
            "verdict": ["below", "exceeded", "exceeded"],
            "confidence": 0.95,
        }
    )
    row = claims.tail_row(estimates, "text")
    assert row.verdict == claims.FAILS and row.claim == "Theorem 4.1 (borda, t = 100)"
    estimates["verdict"] = ["below", "below", "inconclusive"]
    estimates["low"] = [4.0, 50.0, 300.0]
    assert claims.tail_row(estimates, "text").verdict == claims.INCONCLUSIVE


def test_family_row_fails_on_the_first_member_exceeded_and_is_not_tested_without_the_table():
    family = pd.DataFrame(
        {
            "actions": [3, 4, 4],
            "gap": [0.1, 0.1, 0.1],
            "others_gap": 0.1,
            "strength": 0.95,
            "t": [1000, 1000, 5000],
            "runs": 200,
            "mean": [50.0, 200.0, 900.0],
            "se": 1.0,
            "low": [40.0, 150.0, 700.0],
            "high": [60.0, 250.0, 1100.0],
            "bound": [70.0, 105.0, 235.0],
            "ratio": [0.7, 1.9, 3.8],
            "verdict": ["below", "exceeded", "exceeded"],
        }
    )
    row = claims.family_row(family)
    assert row.verdict == claims.FAILS and row.claim.startswith("Theorem 4.1 (A = 4, gap 0.1, t = 1,000)")
    assert claims.family_row(None).verdict == claims.NOT_TESTED
    # a family where no member has a trap: not tested, saying why (it crashed on an empty selection)
    untrapped = family.assign(verdict="no trap", t=0, low=float("nan"), high=float("nan"), bound=float("nan"))
    row = claims.family_row(untrapped)
    assert row.verdict == claims.NOT_TESTED and "no member of the family searched has a trap" in row.reason


# --- Saying only what the runs know: one run, methods not run --------------------------------------

SUMMARY_ROWS = 16
"""Rows of the ledger computed from the summary with all six methods on both scenarios: 8 theorem rows and
8 Section 5 rows."""

Z95 = 1.6448536269514722
"""The one-sided 0.95 normal quantile, written out (not taken from duelbandits.claims)."""


def _runs(summary, runs):
    return summary.assign(runs=runs)


def test_one_run_gives_no_interval_and_no_verdict():
    table = claims.ledger(_runs(_summary(), 1))
    rows = table.iloc[:SUMMARY_ROWS]
    assert (rows["verdict"] == claims.NOT_TESTED).all()
    assert (rows["reason"] == "one run: no interval").all(), rows["reason"].tolist()
    assert rows["low"].isna().all() and rows["high"].isna().all()
    by = table.set_index("claim")
    assert by.loc["Theorem 4.1 (condorcet)", "value"] == 130.0  # the number stands: TS-Maximin's mean
    assert by.loc["S5 condorcet: state of the art very strong", "value"] == 78.0  # ISS, the weaker of the two
    assert by.loc["S5 condorcet: every method beats its bound", "verdict"] == claims.NOT_TESTED


def test_two_runs_give_an_interval_and_a_verdict():
    """The boundary: two runs, mean -+ 1.645 std / sqrt(2), and the verdicts of the 100-run ledger."""
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
    assert sota["verdict"] == claims.HOLDS
    assert by.loc["S5 condorcet: TS-Borda comparably strong", "verdict"] == claims.FAILS
    assert by.loc["S5 condorcet: every method beats its bound", "verdict"] == claims.HOLDS


def test_a_row_from_one_run_shows_no_interval_in_the_markdown():
    from duelbandits.tables.claims import claims_markdown

    text = claims_markdown(claims.ledger(_runs(_summary(), 1)), 0.95, {})
    line = next(x for x in text.splitlines() if x.startswith("| 2 | Theorem 4.1 (condorcet) |"))
    assert "| 130 [-] | 2,146 | **not tested** (one run: no interval) |" in line, line
    text = claims_markdown(claims.ledger(_runs(_summary(), 2)), 0.95, {})
    line = next(x for x in text.splitlines() if x.startswith("| 2 | Theorem 4.1 (condorcet) |"))
    assert "| 130 [115, 145] | 2,146 | **holds on this fixed matrix** (R_T / bound = 0.061) |" in line, line


def test_the_tail_and_the_family_from_one_run_are_not_tested():
    one = {"mean": 50.0, "low": 40.0, "high": 60.0, "bound": 70.0, "ratio": 0.7, "t": 1000, "runs": 1}
    family = pd.DataFrame([{"actions": 3, "gap": 0.1, "verdict": "exceeded", **one}])
    row = claims.family_row(family)
    assert (row.verdict, row.reason) == (claims.NOT_TESTED, "one run: no interval")
    assert math.isnan(row.low) and math.isnan(row.high) and row.value == 50.0
    estimates = pd.DataFrame(
        [{**one, "trapped_runs": 0, "free_runs_continued": 0, "confidence": 0.95, "verdict": "below"}]
    )
    row = claims.tail_row(estimates, "text")
    assert row.verdict == claims.NOT_TESTED and row.reason.startswith("one run: no interval")


def _without(*algorithms):
    summary = _summary()
    return claims.ledger(summary[~summary["algorithm"].isin(algorithms)]).set_index("claim")


@pytest.mark.parametrize("missing, label", [("iss", "ISS"), ("dts", "DTS")])
def test_a_claim_about_iss_and_dts_names_the_one_not_run(missing, label):
    by = _without(missing)
    for claim in ("S5 condorcet: state of the art very strong", "S5 condorcet: TS-Borda comparably strong"):
        row = by.loc[claim]
        assert (row["verdict"], row["reason"]) == (claims.NOT_TESTED, f"{label} not run"), claim
        assert math.isnan(row["value"]) and math.isnan(row["low"]) and math.isnan(row["high"])
    assert (by.loc["S5 borda: Thompson Sampling shines", "reason"]) == f"{label} not run"  # against every method
    assert by.loc[f"S5 borda: {label}'s Borda regret linear", "reason"] == f"{label} not run"
    # a claim that does not name it is decided as before
    assert by.loc["S5 condorcet: every method beats its bound", "verdict"] == claims.HOLDS
    assert by.loc["Theorem 4.1 (condorcet)", "verdict"] == FIXED_HOLDS


def test_both_iss_and_dts_run_leave_the_verdicts_as_they_were():
    by = claims.ledger(_summary()).set_index("claim")
    sota = by.loc["S5 condorcet: state of the art very strong"]
    assert sota["verdict"] == claims.HOLDS and (sota["value"], sota["threshold"]) == (78.0, 130.0)
    assert sota["reason"] == "largest of ISS, DTS 78.0; smallest of the others 130.0"
    ratio = by.loc["S5 condorcet: TS-Borda comparably strong"]
    assert ratio["verdict"] == claims.FAILS and ratio["value"] == pytest.approx(450 / 69)  # over DTS, the best
    assert not (by["reason"].str.contains("not run")).any()


def test_the_two_methods_the_paper_run_in_the_issue_name_every_method_missing():
    """algorithms [ts-maximin, dts]: the ISS-and-DTS claim no longer compares DTS alone."""
    by = _without("ts-borda", "sparring-exp3p", "partial-monitoring", "iss")
    assert by.loc["S5 condorcet: state of the art very strong", "reason"] == (
        "TS-Borda, SparringExp3.P, Partial Monitoring and ISS not run"
    )
    assert by.loc["S5 condorcet: TS-Borda comparably strong", "reason"] == "TS-Borda and ISS not run"
    assert by.loc["Theorem 4.2 (condorcet)", "reason"] == "TS-Borda not run"
    assert by.loc["Theorem 4.1 (condorcet)", "verdict"] == FIXED_HOLDS
    assert by.loc["S5 borda: DTS's Borda regret linear", "verdict"] == claims.HOLDS


@pytest.mark.parametrize(
    "missing, label", [("ts-maximin", "TS-Maximin"), ("sparring-exp3p", "SparringExp3.P"), ("ts-borda", "TS-Borda")]
)
def test_every_method_beats_its_bound_names_the_theorem_algorithm_not_run(missing, label):
    by = _without(missing)
    row = by.loc["S5 condorcet: every method beats its bound"]
    assert (row["verdict"], row["reason"]) == (claims.NOT_TESTED, f"{label} not run")
    assert math.isnan(row["value"])
    borda = by.loc["S5 borda: Borda methods beat their bounds"]  # TS-Borda and Partial Monitoring only
    if missing == "ts-borda":
        assert (borda["verdict"], borda["reason"]) == (claims.NOT_TESTED, "TS-Borda not run")
    else:
        assert borda["verdict"] == claims.HOLDS


def test_a_claim_about_the_methods_run_is_decided_when_others_are_missing():
    """tests/summaries.py: borda only, TS-Borda (40 at T = 100, std 4), Partial Monitoring (300, std 9, bound
    200) and ISS, 5 runs. The two Borda methods were run: their conjunction is decided (Partial Monitoring's
    low end 300 - 1.645 * 9 / sqrt(5) = 293.4 is above its bound: fails); "shines" names the three not run."""
    from summaries import summary_rows

    by = claims.ledger(summary_rows()).set_index("claim")
    theorem = by.loc["Theorem 4.4 (borda)"]
    assert theorem["verdict"] == claims.FAILS
    assert theorem["low"] == pytest.approx(300.0 - Z95 * 9.0 / math.sqrt(5), rel=1e-12)
    both = by.loc["S5 borda: Borda methods beat their bounds"]
    assert both["verdict"] == claims.FAILS and both["value"] == pytest.approx(1.5)
    assert by.loc["S5 borda: Thompson Sampling shines", "reason"] == "TS-Maximin, SparringExp3.P and DTS not run"
    assert by.loc["Theorem 4.1 (borda)", "reason"] == "TS-Maximin not run"
    assert "S5 condorcet: every method beats its bound" not in by.index  # no condorcet scenario in it
    one = claims.ledger(summary_rows().assign(runs=1)).set_index("claim")
    assert one.loc["S5 borda: Borda methods beat their bounds", "reason"] == "one run: no interval"


# --- The report: captions only from a recorded config ----------------------------------------------


@pytest.mark.parametrize("made", ["results/table.md", "results/runs/borda/dts/chunk-0.parquet"])
def test_the_report_refuses_results_without_a_manifest(tmp_path, made):
    """`snakemake --report` captions with the config; with results but no results/MANIFEST.sha256 nothing
    says which config made them, so the report is refused at planning (about 2 s: the Snakefile is parsed,
    nothing runs). With the manifest, tests/workflow/test_bad_input_workflow.py (slow tier)."""
    import importlib.util
    from pathlib import Path

    repo = Path(__file__).resolve().parents[1]
    spec = importlib.util.spec_from_file_location("workflow_helpers", repo / "tests/workflow/workflow_helpers.py")
    helpers = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(helpers)
    (tmp_path / made).parent.mkdir(parents=True)
    (tmp_path / made).write_text("made by another config\n")
    result = helpers.snakemake(tmp_path, "--report", str(tmp_path / "r.html"), timeout=120)
    out = result.stdout + result.stderr
    assert result.returncode != 0
    assert "results/ holds results but no results/MANIFEST.sha256" in out, out[-2000:]
    assert "snakemake --cores all results/MANIFEST.sha256" in out
    assert len([line for line in out.splitlines() if "MANIFEST" in line]) == 1  # one line
    assert not (tmp_path / "r.html").exists()


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
        }
    )


def test_the_bayesian_row_reads_the_target_and_names_its_reading():
    holds = _bayes(["holds", "holds"], [-0.1, -0.2], [0.5, 0.3])
    by = claims.ledger(_summary(), bayes=holds, bayes_verdict="holds as ...").set_index("claim")
    row = by.loc["Theorem 4.1 (Bayesian, prior: uniform antisymmetric) (A = 3, T = 100,000)"]
    assert row["verdict"] == "holds as a Bayesian bound (prior: uniform antisymmetric)"
    assert (row["value"], row["low"], row["high"], row["threshold"]) == pytest.approx((0.2, -0.1, 0.5, 1.0))
    assert row["reason"] == "holds as ...; 12.5% of the drawn matrices above the bound"
    fails = claims.bayes_row(_bayes(["holds", "fails", "inconclusive"], [0.1, 1.01, 0.9], [0.5, 1.4, 1.2]))
    assert fails.verdict == claims.FAILS and "(A = 4," in fails.claim
    assert claims.reading(fails).verdict == "fails as a Bayesian bound (prior: uniform antisymmetric)"
    open_ = claims.bayes_row(_bayes(["holds", "inconclusive"], [0.1, 0.9], [0.5, 1.2]))
    assert open_.verdict == claims.INCONCLUSIVE and "(A = 4," in open_.claim
    assert claims.reading(open_).verdict == claims.INCONCLUSIVE


def test_without_the_bayesian_target_its_row_is_not_tested_and_the_other_rows_unchanged():
    plain = claims.ledger(_summary())
    row = plain.set_index("claim").loc["Theorem 4.1 (Bayesian, prior: uniform antisymmetric)"]
    assert row["verdict"] == claims.NOT_TESTED and "snakemake --cores 2 maximin_bayes" in row["reason"]
    with_bayes = claims.ledger(_summary(), bayes=_bayes(["holds"], [0.1], [0.5]))
    pd.testing.assert_frame_equal(plain.iloc[:-1], with_bayes.iloc[:-1])
    fixed = plain[plain["claim"].str.startswith("Theorem 4.1 (") & ~plain["claim"].str.contains("Bayesian")]
    assert set(fixed["verdict"]) <= {FIXED_HOLDS, "fails as a bound on a fixed matrix", "inconclusive", "not tested"}
    assert (
        not (plain["verdict"] == "fails").any()
        or not plain.loc[plain["verdict"] == "fails", "claim"].str.startswith("Theorem 4.1 (").any()
    )


def test_the_levels_and_thresholds_are_the_documented_numbers():
    """docs/claims.md: one-sided limits at 95% (z = 1.645), "linear" from a local slope of 0.9,
    "comparably strong" below a ratio of 2; pinned by value, and the docs' own sentences checked."""
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / "claims.md").read_text(encoding="utf-8")
    assert claims.LEVEL == 0.95 and "every one-sided limit is 95% (`z = 1.645`" in text
    assert claims.LINEAR == 0.9 and "low end of the local slope `>= 0.9` | high end `< 0.9`" in text
    assert claims.COMPARABLE == 2.0 and "upper limit of the ratio `< 2` | lower limit `> 2`" in text
    assert claims.z_one_sided() == pytest.approx(1.6448536, abs=1e-6)  # the default level is 0.95


@pytest.mark.parametrize("rho, verdict", [(0.9001, claims.HOLDS), (0.8999, claims.FAILS), (0.5, claims.FAILS)])
def test_a_slope_just_above_and_just_below_the_documented_0_9(rho, verdict):
    """A noise-free power law R_t = t^rho: std 0 makes the slope's interval the point rho, so the verdict
    is the side of 0.9 (docs/claims.md) rho lies on: 0.9001 holds, 0.8999 fails."""
    slope, low, high = claims.log_slope(4000**rho, 0.0, 4000, 40000**rho, 0.0, 40000, 100)
    assert slope == pytest.approx(rho, abs=1e-12) and low == high == slope
    assert claims.at_least(low, high, claims.LINEAR) == verdict
