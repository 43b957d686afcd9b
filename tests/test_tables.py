"""Readable tables: final regret, exponents, actions and config, as Markdown and HTML, from hand-made tables."""

import numpy as np
import pandas as pd
from summaries import summary_rows

from duelbandits import schemas, tables
from duelbandits.studies.field import analysis as field_tables
from duelbandits.studies.paper import table as paper_tables
from duelbandits.studies.sweeps import analysis as sweep_tables


def final_table():
    return paper_tables.final_regret_table(summary_rows())


def test_final_regret_table_reads_each_scenarios_last_step_in_the_summarys_order():
    """At t = 50 partial-monitoring is below its bound (150 < 200); only t = T may count (the rows at T = 100:
    the page's test below)."""
    longer = summary_rows().assign(scenario="condorcet", t=lambda d: 2 * d["t"])
    both = paper_tables.final_regret_table(pd.concat([summary_rows(), longer]))
    assert both.groupby("scenario")["horizon"].unique().map(list).to_dict() == {"borda": [100], "condorcet": [200]}
    assert paper_tables.final_regret_page(both).markdown().startswith("# Final regret at T = 100, 200 (5 runs)\n")


def test_final_regret_page_is_title_header_alignment_rows_and_note():
    lines = paper_tables.final_regret_page(final_table()).markdown().splitlines()
    assert lines[0] == "# Final regret at T = 100 (5 runs)"
    assert lines[2] == (
        "| scenario | algorithm | regret | R_T mean ± std | bound at T | below bound | Copeland R_T mean ± std |"
    )
    assert lines[3] == "| --- | --- | --- | ---: | ---: | --- | ---: |"
    assert lines[4:7] == [  # each number of the summary in its own cell
        "| borda | ts-borda | Borda | 40.0 ± 4.0 | 100.0 | yes | 7.0 ± 1.0 |",
        "| borda | partial-monitoring | Borda | 300.0 ± 9.0 | 200.0 | no | 8.0 ± 2.0 |",
        "| borda | iss | Borda | 30.0 ± 3.0 | - | - | 6.0 ± 0.5 |",
    ]
    assert lines[7] == "" and lines[8].startswith("R_T: cumulative regret at the horizon T") and len(lines) == 9


def test_a_scenario_of_no_paper_view_gets_its_own_table_of_one_regret_per_column():
    """cyclic (view target): TS-Maximin's Maximin regret and DTS's Copeland regret in two columns, not one;
    the paper's borda keeps its table."""
    cyclic = [
        ("cyclic", "ts-maximin", "maximin", True, 100, 12.0, 1.0, 5, np.nan),
        ("cyclic", "ts-maximin", "copeland", False, 100, 90.0, 2.0, 5, np.nan),
        ("cyclic", "dts", "copeland", True, 100, 50.0, 3.0, 5, np.nan),
    ]
    summary = pd.concat([summary_rows(), pd.DataFrame(cyclic, columns=summary_rows().columns)], ignore_index=True)
    page = paper_tables.final_regret_page(paper_tables.final_regret_table(summary))
    lines = page.markdown().splitlines()
    assert lines[:9] == paper_tables.final_regret_page(final_table()).markdown().splitlines()
    assert lines[10:16] == [
        "## Scenarios of no paper view: one regret per column",
        "",
        "| scenario | algorithm | Maximin R_T mean ± std | Copeland R_T mean ± std | bound at T | below bound |",
        "| --- | --- | ---: | ---: | ---: | --- |",
        "| cyclic | ts-maximin | 12.0 ± 1.0 | 90.0 ± 2.0 | - | - |",
        "| cyclic | dts | - | 50.0 ± 3.0 | - | - |",
    ]


def test_numbers_get_thousands_separators_missing_values_a_dash_and_cells_are_escaped():
    assert tables.mean_std(12345.67, 1.26) == "12,345.7 ± 1.3"
    assert tables.mean_std(float("nan"), None) == "- ± -"
    assert tables.mean_std(2.0, 0.0) == "2.0 ± 0.0"  # a table without a runs column: a std of 0 is shown
    table = final_table().assign(horizon=40_000)
    assert paper_tables.final_regret_page(table).title == "Final regret at T = 40,000 (5 runs)"
    # Markdown and HTML escape their cells
    assert tables.markdown(["a", "b"], [["x|y", 1]], "lr") == "| a | b |\n| --- | ---: |\n| x\\|y | 1 |\n"
    page = tables.Page("T<1>", [tables.Table(["h&"], [["<b>"]], "l")]).html()
    assert "<title>T&lt;1&gt;</title>" in page and "<th>h&amp;</th>" in page
    assert '<td class="l">&lt;b&gt;</td>' in page and "<b>" not in page


def test_a_page_is_its_tables_under_their_headings_each_above_its_note_in_markdown_and_html():
    first = tables.Table(["a"], [["1"]], "r")
    second = tables.Table(["b", "c"], [["x", "2"]], "lr", heading="More", note="A note.")
    page = tables.Page("Title", [first, second])
    assert page.markdown() == (
        "# Title\n\n| a |\n| ---: |\n| 1 |\n\n## More\n\n| b | c |\n| --- | ---: |\n| x | 2 |\n\nA note.\n"
    )
    body = page.html().split("<body>")[1]
    assert body == (
        '<table><caption>Title</caption><thead><tr><th>a</th></tr></thead><tbody><tr><td class="r">1</td></tr>'
        "</tbody></table><table><caption>More</caption><thead><tr><th>b</th><th>c</th></tr></thead><tbody><tr>"
        '<td class="l">x</td><td class="r">2</td></tr></tbody></table><p>A note.</p></body></html>\n'
    )


def exponents():
    """Fitted exponents as the sweep writes them: every column of the exponents schema."""
    columns = "scenario algorithm regret paper theorem theorem_exponent actions horizons runs rho log_c ci_low ci_high"
    columns = [*columns.split(), "confidence", "resamples"]
    rows = [
        ("borda", "ts-borda", "borda", True, "4.2", 2 / 3, 10, 4, 20, 0.7, 1.0, 0.6, 0.75, 0.95, 1000),
        ("borda", "ts-borda", "maximin", False, None, np.nan, 10, 4, 20, 0.9, 1.0, 0.8, 1.0, 0.95, 1000),
        ("borda", "partial-monitoring", "borda", True, "4.4", 0.75, 10, 4, 20, 0.9, 1.0, 0.8, 1.02, 0.95, 1000),
        ("borda", "sparring-exp3p", "exp3p", False, "4.3", 0.5, 10, 4, 20, np.nan, np.nan, np.nan, np.nan, 0.95, 1000),
        ("borda", "iss", "borda", True, None, np.nan, 10, 4, 20, 0.95, 1.0, 0.9, 0.99, 0.95, 1000),
    ]
    return pd.DataFrame(rows, columns=columns)


def test_exponent_rows_judge_the_theorem_and_sublinearity_by_the_ci():
    """ts-borda's rho 0.7 exceeds 2/3 but its CI reaches below it: "yes". A regret that is neither
    the figure's nor a theorem's (ts-borda, maximin) is left out; a theorem's own regret is labelled."""
    assert sweep_tables.exponent_rows(exponents()) == [
        ["borda", "ts-borda", "Borda", "0.700", "[0.600, 0.750]", "2/3 (Thm 4.2)", "yes", "yes"],
        ["borda", "partial-monitoring", "Borda", "0.900", "[0.800, 1.020]", "3/4 (Thm 4.4)", "no", "no"],
        ["borda", "sparring-exp3p", "Exp3.P (theorem's)", "-", "[-, -]", "1/2 (Thm 4.3)", "-", "-"],
        ["borda", "iss", "Borda", "0.950", "[0.900, 0.990]", "-", "-", "yes"],
    ]


def actions():
    columns = "scenario algorithm regret paper theorem actions horizon runs mean std bound ratio".split()
    rows = [
        ("borda", "ts-maximin", "maximin", False, "4.1", 6, 1000, 5, 150.0, 12.0, 600.0, 0.25),
        ("borda", "ts-maximin", "copeland", False, None, 6, 1000, 5, 1.0, 0.1, np.nan, np.nan),
        ("borda", "ts-borda", "borda", True, "4.2", 48, 12000, 5, 1234.5, 6.7, 9876.5, 0.125),
        ("borda", "iss", "borda", True, None, 6, 1000, 5, 30.0, 3.0, np.nan, np.nan),
    ]
    return pd.DataFrame(rows, columns=columns)


def test_actions_rows_show_the_ratio_to_the_bound_where_a_theorem_applies():
    assert sweep_tables.actions_rows(actions()) == [
        ["borda", "ts-maximin", "Maximin (theorem's)", "6", "1,000", "150.0 ± 12.0", "600.0", "0.2500"],
        ["borda", "ts-borda", "Borda", "48", "12,000", "1,234.5 ± 6.7", "9,876.5", "0.1250"],
        ["borda", "iss", "Borda", "6", "1,000", "30.0 ± 3.0", "-", "-"],
    ]
    page = sweep_tables.actions_page(actions())
    assert page.title == "Scaling in the number of actions A" and len(page.tables[0].header) == 8


def test_config_html_flattens_nested_keys_and_shows_json_values():
    page = tables.config_html({"seed": 1, "sweeps": {"runs": 2, "grid": {"horizons": [10, 30]}}, "name": "a<b"})
    assert page.count("<tr>") == 1 + 4
    assert '<td class="l">sweeps/runs</td><td class="l">2</td>' in page
    assert '<td class="l">sweeps/grid/horizons</td><td class="l">[10, 30]</td>' in page
    assert '<td class="l">name</td><td class="l">&quot;a&lt;b&quot;</td>' in page


# --- Off the defaults: every schema column, other run counts, ties ---------------------------------


def table_cells(line):
    """The cells of one Markdown table line."""
    return line[2:-2].split(" | ")


def test_final_table_with_other_run_counts_reports_each_in_numeric_order_and_one_run_without_spread():
    """7, 3 and 12 runs (the paper's default is one count): each row its own, the title 3, 7, 12
    (sorted as numbers, not as text, where 12 would come first)."""
    summary = summary_rows()
    summary["runs"] = summary["algorithm"].map({"ts-borda": 7, "partial-monitoring": 3, "iss": 12})
    table = paper_tables.final_regret_table(summary)
    assert table.set_index("algorithm")["runs"].to_dict() == {"ts-borda": 7, "partial-monitoring": 3, "iss": 12}
    assert paper_tables.final_regret_page(table).title == "Final regret at T = 100 (3, 7, 12 runs)"
    # one run has no spread (issue 30): the table's data keeps the stored 0.0, its text says '-'
    summary = summary_rows().assign(runs=1, std=0.0)
    table = paper_tables.final_regret_table(summary)
    assert set(table["runs"]) == {1} and set(table["std"]) == {0.0}
    rows = paper_tables.final_regret_rows(table)
    assert ["borda", "ts-borda", "Borda", "40.0 ± -", "100.0", "yes", "7.0 ± -"] in rows


def test_below_bound_is_strict_a_mean_equal_to_the_bound_is_not_below():
    for mean, below in [
        (np.nextafter(100.0, 0.0), "yes"),
        (100.0, "no"),
        (np.nextafter(100.0, 200.0), "no"),
        (0.0, "yes"),
    ]:
        summary = summary_rows()
        last = (summary["t"] == 100) & (summary["algorithm"] == "ts-borda") & (summary["regret"] == "borda")
        summary.loc[last, "mean"] = mean
        table = paper_tables.final_regret_table(summary).set_index("algorithm")
        assert table.loc["ts-borda", "bound"] == 100.0 and table.loc["ts-borda", "below"] == below


def test_exponent_rows_at_the_ties_of_the_theorem_exponent_and_of_one():
    """ "rho at or below it": ci_low <= exponent (a tie is yes, 1e-12 above is no); "sublinear": ci_high < 1
    (a tie is no, the float below 1 is yes)."""
    e = exponents().iloc[[0]].copy()
    cases = [
        (2 / 3, np.nextafter(1.0, 0.0), "yes", "yes"),
        (2 / 3 + 1e-12, 1.0, "no", "no"),
        (2 / 3 - 1e-12, 1.0 + 1e-12, "yes", "no"),
    ]
    for ci_low, ci_high, at_or_below, sublinear in cases:
        e["ci_low"], e["ci_high"] = ci_low, ci_high
        row = sweep_tables.exponent_rows(e)[0]
        assert row[6:] == [at_or_below, sublinear], (ci_low, ci_high, row)


def test_exponent_note_states_the_fewest_runs_the_most_horizons_and_the_bootstrap_off_the_defaults():
    e = exponents()
    e["runs"] = [30, 12, 20, 25, 40]  # the fewest: 12
    e["horizons"] = [5, 7, 5, 6, 5]
    e["confidence"] = 0.9
    e["resamples"] = 2500
    page = sweep_tables.exponent_page(e)
    assert page.title == "Regret exponents: E[R_T] ~ T^rho" and len(page.tables[0].header) == 8
    assert "over 7 horizons, 12 runs each" in page.tables[0].note
    assert "90% percentile bootstrap (2,500 resamples" in page.tables[0].note


def test_the_field_table_shares_ranks_on_ties_averages_known_ranks_and_lists_runs_in_numeric_order():
    rows = [  # a hand-made results/field/table.parquet
        ("condorcet", "condorcet", "dts", "paper", 10, 40_000, 12, 50.0, 5.0, 1),
        ("condorcet", "condorcet", "rucb", "field", 10, 40_000, 12, 50.0, 6.0, 1),
        ("condorcet", "condorcet", "ccb", "field", 10, 40_000, 12, 70.0, 6.0, 3),
        ("borda", "borda", "dts", "paper", 13, 2_000, 5, 7.5, 0.5, 2),
        ("borda", "borda", "ccb", "field", 13, 2_000, 5, 3.0, 0.5, 1),
        ("borda", "borda", "my-plugin", "plugin", 13, 2_000, 1, 9.0, 0.0, 3),  # one run: no spread
    ]
    table = pd.DataFrame(rows, columns=schemas.FIELD_TABLE_SCHEMA.names)
    lines = field_tables.field_page(table).markdown().splitlines()
    assert lines[0] == "# The field: final regret at T = 2,000, 40,000 (1, 5, 12 runs)"
    assert lines[2:6] == [
        "## Ranks",
        "",
        "| algorithm | condorcet (Condorcet) | borda (Borda) | mean rank |",
        "| --- | ---: | ---: | ---: |",
    ]
    glance = {cells[0]: cells[1:] for cells in map(table_cells, lines[6:10])}
    assert glance == {
        "DTS": ["1", "2", "1.5"], "RUCB": ["1", "-", "1.0"], "CCB": ["3", "1", "2.0"], "my-plugin": ["-", "3", "3.0"]
    }  # fmt: skip
    assert lines[11:15] == [
        "## Final regret",
        "",
        "| scenario | A | regret | rank | algorithm | family | R_T mean ± std |",
        "| --- | ---: | --- | ---: | --- | --- | ---: |",
    ]
    final = [table_cells(line) for line in lines[15:21]]
    assert final[1] == ["condorcet", "10", "Condorcet", "1", "RUCB", "field", "50.0 ± 6.0"]
    assert final[3] == ["borda", "13", "Borda", "2", "DTS", "paper", "7.5 ± 0.5"]
    assert final[5] == ["borda", "13", "Borda", "3", "my-plugin", "plugin", "9.0 ± -"]
    assert {len(cells) for cells in final} == {7}
    assert lines[22] == field_tables.FIELD_NOTE
