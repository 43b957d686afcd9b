"""Readable tables: final regret, exponents, actions and config, as Markdown and HTML, from hand-made tables."""

import numpy as np
import pandas as pd
from summaries import summary_rows

from duelbandits import tables


def final_table():
    return tables.final_regret_table(summary_rows())


def test_final_regret_table_says_whether_the_mean_is_below_the_bound():
    table = tables.final_regret_table(summary_rows()).set_index("algorithm")
    assert table.loc["ts-borda", "below"] == "yes" and table.loc["partial-monitoring", "below"] == "no"
    assert table.loc["iss", "below"] == "-"
    assert table.loc["ts-borda", "mean"] == 40.0 and table.loc["ts-borda", "copeland_mean"] == 7.0
    md = tables.final_regret_markdown(table.reset_index())
    assert "| borda | ts-borda | Borda | 40.0 ± 4.0 | 100.0 | yes | 7.0 ± 1.0 |" in md
    assert "| borda | partial-monitoring | Borda | 300.0 ± 9.0 | 200.0 | no |" in md
    assert "T = 100 (5 runs)" in md


def test_final_regret_table_reads_each_scenarios_last_step_in_the_summarys_order():
    """At t = 50 partial-monitoring is below its bound (150 < 200); only t = T may count."""
    table = final_table()
    assert table["algorithm"].tolist() == ["ts-borda", "partial-monitoring", "iss"]
    assert set(table["horizon"]) == {100} and set(table["runs"]) == {5} and set(table["regret"]) == {"borda"}
    np.testing.assert_array_equal(table["mean"], [40.0, 300.0, 30.0])
    np.testing.assert_array_equal(table["bound"], [100.0, 200.0, np.nan])
    np.testing.assert_array_equal(table["copeland_std"], [1.0, 2.0, 0.5])
    longer = summary_rows().assign(scenario="condorcet", t=lambda d: 2 * d["t"])
    both = tables.final_regret_table(pd.concat([summary_rows(), longer]))
    assert both.groupby("scenario")["horizon"].unique().map(list).to_dict() == {"borda": [100], "condorcet": [200]}
    assert tables.final_regret_markdown(both).startswith("# Final regret at T = 100, 200 (5 runs)\n")


def test_final_regret_markdown_is_title_header_alignment_rows_and_note():
    lines = tables.final_regret_markdown(final_table()).splitlines()
    assert lines[0] == "# Final regret at T = 100 (5 runs)"
    assert lines[2] == (
        "| scenario | algorithm | regret | R_T mean ± std | bound at T | below bound | Copeland R_T mean ± std |"
    )
    assert lines[3] == "| --- | --- | --- | ---: | ---: | --- | ---: |"
    assert lines[6] == "| borda | iss | Borda | 30.0 ± 3.0 | - | - | 6.0 ± 0.5 |"
    assert lines[7] == "" and lines[8].startswith("R_T: cumulative regret at the horizon T") and len(lines) == 9


def test_final_regret_html_holds_the_same_cells_in_one_table():
    page = tables.final_regret_html(final_table())
    assert page.startswith("<!DOCTYPE html>") and page.count("<table>") == 1 and page.count("<tr>") == 1 + 3
    assert "<th>Copeland R_T mean ± std</th>" in page
    assert '<td class="r">300.0 ± 9.0</td><td class="r">200.0</td><td class="l">no</td>' in page


def test_numbers_get_thousands_separators_and_missing_values_a_dash():
    assert tables.mean_std(12345.67, 1.26) == "12,345.7 ± 1.3"
    assert tables.mean_std(float("nan"), None) == "- ± -"
    table = final_table().assign(horizon=40_000)
    assert tables.final_regret_markdown(table).startswith("# Final regret at T = 40,000 (5 runs)\n")


def test_markdown_and_html_escape_their_cells():
    assert tables.markdown(["a", "b"], [["x|y", 1]], "lr") == "| a | b |\n| --- | ---: |\n| x\\|y | 1 |\n"
    page = tables.html_page("T<1>", ["h&"], [["<b>"]])
    assert "<title>T&lt;1&gt;</title>" in page and "<th>h&amp;</th>" in page
    assert '<td class="l">&lt;b&gt;</td>' in page and "<b>" not in page


def exponents():
    """Fitted exponents as the sweep writes them (the columns the tables read)."""
    columns = [
        "scenario",
        "algorithm",
        "regret",
        "paper",
        "theorem",
        "theorem_exponent",
        "rho",
        "ci_low",
        "ci_high",
        "horizons",
        "runs",
        "confidence",
        "resamples",
    ]
    rows = [
        ("borda", "ts-borda", "borda", True, "4.2", 2 / 3, 0.7, 0.6, 0.75, 4, 20, 0.95, 1000),
        ("borda", "ts-borda", "maximin", False, None, np.nan, 0.9, 0.8, 1.0, 4, 20, 0.95, 1000),
        ("borda", "partial-monitoring", "borda", True, "4.4", 0.75, 0.9, 0.8, 1.02, 4, 20, 0.95, 1000),
        ("borda", "sparring-exp3p", "exp3p", False, "4.3", 0.5, np.nan, np.nan, np.nan, 4, 20, 0.95, 1000),
        ("borda", "iss", "borda", True, None, np.nan, 0.95, 0.9, 0.99, 4, 20, 0.95, 1000),
    ]
    return pd.DataFrame(rows, columns=columns)


def test_exponent_rows_judge_the_theorem_and_sublinearity_by_the_ci():
    """ts-borda's rho 0.7 exceeds 2/3 but its CI reaches below it: "yes". A regret that is neither
    the figure's nor a theorem's (ts-borda, maximin) is left out; a theorem's own regret is labelled."""
    assert tables.exponent_rows(exponents()) == [
        ["borda", "ts-borda", "Borda", "0.700", "[0.600, 0.750]", "2/3 (Thm 4.2)", "yes", "yes"],
        ["borda", "partial-monitoring", "Borda", "0.900", "[0.800, 1.020]", "3/4 (Thm 4.4)", "no", "no"],
        ["borda", "sparring-exp3p", "Exp3.P (theorem's)", "-", "[-, -]", "1/2 (Thm 4.3)", "-", "-"],
        ["borda", "iss", "Borda", "0.950", "[0.900, 0.990]", "-", "-", "yes"],
    ]


def test_exponent_markdown_and_html_state_horizons_runs_and_bootstrap():
    md = tables.exponent_markdown(exponents())
    assert md.startswith("# Regret exponents: E[R_T] ~ T^rho\n\n| scenario | algorithm | regret | rho | CI |")
    assert "| --- | --- | --- | ---: | ---: | ---: | --- | --- |" in md
    for text in (md, tables.exponent_html(exponents())):
        assert "over 4 horizons, 20 runs each" in text and "95% percentile bootstrap (1,000 resamples" in text
    assert '<td class="r">[0.800, 1.020]</td><td class="r">3/4 (Thm 4.4)</td>' in tables.exponent_html(exponents())


def actions():
    columns = [
        "scenario",
        "algorithm",
        "regret",
        "paper",
        "theorem",
        "actions",
        "horizon",
        "runs",
        "mean",
        "std",
        "bound",
        "ratio",
    ]
    rows = [
        ("borda", "ts-maximin", "maximin", False, "4.1", 6, 1000, 5, 150.0, 12.0, 600.0, 0.25),
        ("borda", "ts-maximin", "copeland", False, None, 6, 1000, 5, 1.0, 0.1, np.nan, np.nan),
        ("borda", "ts-borda", "borda", True, "4.2", 48, 12000, 5, 1234.5, 6.7, 9876.5, 0.125),
        ("borda", "iss", "borda", True, None, 6, 1000, 5, 30.0, 3.0, np.nan, np.nan),
    ]
    return pd.DataFrame(rows, columns=columns)


def test_actions_rows_show_the_ratio_to_the_bound_where_a_theorem_applies():
    assert tables.actions_rows(actions()) == [
        ["borda", "ts-maximin", "Maximin (theorem's)", "6", "1,000", "150.0 ± 12.0", "600.0", "0.2500"],
        ["borda", "ts-borda", "Borda", "48", "12,000", "1,234.5 ± 6.7", "9,876.5", "0.1250"],
        ["borda", "iss", "Borda", "6", "1,000", "30.0 ± 3.0", "-", "-"],
    ]
    lines = tables.actions_markdown(actions()).splitlines()
    assert lines[0] == "# Scaling in the number of actions A" and len(lines) == 2 + 2 + 3 + 2
    assert lines[5] == "| borda | ts-borda | Borda | 48 | 12,000 | 1,234.5 ± 6.7 | 9,876.5 | 0.1250 |"
    assert '<td class="r">0.2500</td>' in tables.actions_html(actions())


def test_config_html_flattens_nested_keys_and_shows_json_values():
    page = tables.config_html({"seed": 1, "sweeps": {"runs": 2, "grid": {"horizons": [10, 30]}}, "name": "a<b"})
    assert page.count("<tr>") == 1 + 4
    assert '<td class="l">sweeps/runs</td><td class="l">2</td>' in page
    assert '<td class="l">sweeps/grid/horizons</td><td class="l">[10, 30]</td>' in page
    assert '<td class="l">name</td><td class="l">&quot;a&lt;b&quot;</td>' in page
