"""The field beyond the paper: regrets per scenario, curves, ranks, the Markdown table, the figure and commands."""

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

from duelbandits import cli, make_scenario, regret, run_seed, scenarios, schemas, simulate, storage
from duelbandits.scenarios import ScenarioEntry
from duelbandits.studies.field import analysis as field
from duelbandits.studies.field.figure import field_figure


def point_rows(scenario, algorithm, finals, horizon=100, grid=(1, 10, 100)):
    """Point-file rows whose cumulative regret of every kind rises linearly to ``finals[run]`` at T (twice that
    for the Borda regret)."""
    key = dict(scenario=scenario, algorithm=algorithm, actions=10, horizon=horizon)
    return [
        {**key, "run": run, "regret": kind, "t": t, "cumulative_regret": final * t / horizon * (1 + (kind == "borda"))}
        for run, final in enumerate(finals)
        for kind in regret.REGRETS
        for t in grid
    ]


@pytest.fixture
def points():
    rows = point_rows("condorcet", "dts", [10.0, 20.0]) + point_rows("condorcet", "rucb", [30.0, 50.0])
    rows += point_rows("borda", "dts", [5.0, 5.0]) + point_rows("borda", "rucb", [5.0, 5.0])
    return pd.DataFrame(rows)


@pytest.fixture
def curves(points):
    return field.curves_table(points, {"condorcet": ["condorcet"], "borda": ["condorcet", "borda"]})


def test_field_regrets_are_condorcet_where_a_winner_exists_copeland_everywhere_and_borda_on_borda():
    assert field.field_regrets("condorcet", 3) == ["condorcet", "copeland"]
    assert field.field_regrets("cyclic", None) == ["copeland"]
    assert field.field_regrets("borda", 0) == ["condorcet", "copeland", "borda"]
    assert field.field_regrets("mslr5", None) == ["copeland"]


def test_curves_average_runs_per_step_and_tag_families(curves):
    assert curves.columns.tolist() == schemas.FIELD_CURVES_SCHEMA.names
    at_T = curves[(curves["t"] == 100)].set_index(["scenario", "regret", "algorithm"])
    assert at_T.loc[("condorcet", "condorcet", "dts"), "mean"] == pytest.approx(15.0)
    assert at_T.loc[("condorcet", "condorcet", "rucb"), "std"] == pytest.approx(np.std([30, 50], ddof=1))
    assert at_T.loc[("borda", "borda", "dts"), "mean"] == pytest.approx(10.0)  # the borda column, not maximin
    assert at_T.loc[("condorcet", "condorcet", "dts"), "family"] == "paper"
    assert at_T.loc[("condorcet", "condorcet", "rucb"), "family"] == "field"
    assert ("condorcet", "copeland", "dts") not in at_T.index  # only the field's regrets
    mid = curves[(curves["t"] == 10) & (curves["algorithm"] == "dts") & (curves["scenario"] == "condorcet")]
    assert mid["mean"].item() == pytest.approx(1.5)


def test_figure_draws_the_paper_solid_the_field_dashed_a_plugin_dotted_and_says_so(curves):
    curves = curves[curves["scenario"] == "borda"]
    fig = field_figure("borda", curves, [])  # built, not saved (saved: the field command's test)
    assert len(fig.axes) == 2  # Condorcet and Borda regret
    styles = {line.get_gid(): line.get_linestyle() for ax in fig.axes for line in ax.get_lines()}
    assert styles["field:borda:dts"] == "-"
    assert styles["field:borda:rucb"] == "--"
    assert fig.axes[0].get_legend().get_title().get_text() == "solid: paper, dashed: field"
    plugin = curves.assign(family=curves["family"].replace({"field": "plugin"}))
    fig = field_figure("borda", plugin, [])  # built, not saved
    assert {line.get_gid(): line.get_linestyle() for line in fig.axes[1].get_lines()}["field:borda:rucb"] == ":"
    assert fig.axes[1].get_legend().get_title().get_text() == "solid: paper, dotted: plugin"


def test_figure_titles_name_the_scenario_by_its_label_not_its_slug(curves, monkeypatch):
    entry = ScenarioEntry("linear-gap", "Linear gap", "a test", make="m:f")
    monkeypatch.setitem(scenarios.registry(), "linear-gap", entry)
    fig = field_figure("linear-gap", curves[curves["scenario"] == "borda"].assign(scenario="linear-gap"), [])
    assert fig.get_suptitle().startswith("Linear gap scenario, the field: A = 10")


@pytest.fixture(scope="module")
def field_files(tmp_path_factory):
    """Point and scenario files of a tiny field: two algorithms on condorcet and cyclic (read only)."""
    tmp_path, files = tmp_path_factory.mktemp("field"), {"points": [], "scenarios": []}
    for name in ("condorcet", "cyclic"):
        scenario = tmp_path / f"{name}.json"
        assert cli.main(["scenario", "--scenario", name, "--actions", "6", "--seed", "2", "--out", str(scenario)]) == 0
        files["scenarios"].append(scenario)
        for algorithm in ("dts", "iss"):
            out = tmp_path / f"{name}-{algorithm}.parquet"
            args = ["sweep-point", "--scenario", name, "--actions", "6", "--seed", "2", "--algorithm", algorithm]
            args += ["--horizon", "400", "--runs", "0-2", "--points", "8", "--out", str(out)]
            assert cli.main(args) == 0
            files["points"].append(out)
    return files


def test_field_table_command_matches_a_recomputation_from_the_runs_and_the_figure_draws_its_scenarios_only(
    field_files, tmp_path, capsys
):
    scenarios = [f"--scenario-file={p}" for p in field_files["scenarios"]]
    args = ["field-table", *map(str, field_files["points"]), *scenarios]
    outputs = {"curves": "curves.parquet", "table": "table.parquet", "markdown": "table.md"}
    assert cli.main(args + [f"--{name}={tmp_path / file}" for name, file in outputs.items()]) == 0
    table = pq.read_table(tmp_path / "table.parquet").to_pandas().set_index(["scenario", "regret", "algorithm"])
    assert sorted(set(table.index.get_level_values("regret"))) == ["condorcet", "copeland"]
    for name, kind in (("condorcet", "maximin"), ("cyclic", "copeland")):
        X = make_scenario(name, actions=6, seed=2).matrix
        finals = []
        for run in range(3):
            res = simulate(X, "dts", 400, run_seed(2, name, "dts", run), stride=400)
            finals.append(regret.cumulative(kind, X, res.I, res.J)[-1])
        row = table.loc[(name, "condorcet" if name == "condorcet" else "copeland", "dts")]
        assert row["mean"] == pytest.approx(np.mean(finals), rel=1e-12)
        assert row["runs"] == 3
    prov = storage.read_provenance(tmp_path / "table.parquet")
    assert prov["table"] == "field-table" and prov["scenarios"] == ["condorcet", "cyclic"]
    assert cli.main(["field-figure", "--scenario", "cyclic", "--curves", str(tmp_path / "curves.parquet"), "--out",
                     str(tmp_path / "c.pdf"), str(tmp_path / "c.png")]) == 0  # fmt: skip
    assert (tmp_path / "c.pdf").read_bytes().startswith(b"%PDF")
    args = ["field-figure", "--scenario", "borda", "--curves", str(tmp_path / "curves.parquet")]
    assert cli.main([*args, "--out", str(tmp_path / "b.png")]) == 2
    assert "has no rows for scenario 'borda'" in capsys.readouterr().err
    assert not (tmp_path / "b.png").exists()


def test_the_final_table_follows_the_given_scenarios_the_regrets_then_the_registry_order():
    """Rows: scenarios in ``order``, then Condorcet, Copeland, Borda, then the registry's order (TS-Maximin,
    the paper's first, before DTS and RUCB though it sorts after them by name), unknown slugs last by name."""
    rows = []
    for scenario in ("condorcet", "borda"):
        for slug in ("rucb", "zz-plugin", "dts", "aa-plugin", "ts-maximin"):
            rows += point_rows(scenario, slug, [10.0, 20.0])
    curves = field.curves_table(pd.DataFrame(rows), {"condorcet": ["condorcet"], "borda": ["borda", "condorcet"]})
    table = field.final_table(curves, order=["borda", "condorcet"])
    slugs = ["ts-maximin", "dts", "rucb", "aa-plugin", "zz-plugin"]
    expected = [("borda", kind, slug) for kind in ("condorcet", "borda") for slug in slugs]
    expected += [("condorcet", "condorcet", slug) for slug in slugs]
    assert list(zip(table["scenario"], table["regret"], table["algorithm"])) == expected
    # without an order: the scenarios as the curves list them
    assert field.final_table(curves)["scenario"].tolist()[0] == curves["scenario"].iloc[0]


# --- Direct checks of each function (fast; no simulation) -------------------------------------------


def provenance_of(scenario, digest, seed=2):
    """The fields of a point file's provenance that scenario_regrets reads."""
    return {"seed": seed, "scenario": scenario, "matrix_sha256": digest}


def scenario_record(name, digest, condorcet):
    return {"name": name, "matrix_sha256": digest, "winners": {"condorcet": condorcet}}


def test_scenario_regrets_follow_the_records_order_and_each_scenarios_winner():
    """A Condorcet winner at index 0 (falsy, but a winner) gives the Condorcet regret; borda adds Borda."""
    simulated = [provenance_of("borda", "a" * 64), provenance_of("cyclic", "b" * 64), provenance_of("borda", "a" * 64)]
    records = [
        ("cyclic.json", scenario_record("cyclic", "b" * 64, None)),
        ("borda.json", scenario_record("borda", "a" * 64, 0)),
    ]
    regrets = field.scenario_regrets(records, simulated)
    assert list(regrets.items()) == [("cyclic", ["copeland"]), ("borda", ["condorcet", "copeland", "borda"])]


def test_scenario_regrets_refuse_a_scenario_without_points_points_without_a_scenario_and_another_matrix():
    cyclic = ("cyclic.json", scenario_record("cyclic", "b" * 64, None))
    simulated = [provenance_of("cyclic", "b" * 64)]
    for records, given, message in [
        ([cyclic, ("borda.json", scenario_record("borda", "a" * 64, 0))], simulated, "borda.json: no point file of "
         "scenario borda was given"),
        ([cyclic], [*simulated, provenance_of("condorcet", "c" * 64)], "no scenario file for scenario(s) condorcet of "
         "the point files"),
        ([cyclic], [*simulated, provenance_of("cyclic", "d" * 64)], "cyclic.json: its matrix is not the one the point "
         "files of scenario cyclic were simulated on"),
    ]:  # fmt: skip
        with pytest.raises(field.FieldError) as error:
            field.scenario_regrets(records, given)
        assert str(error.value) == message


def test_curves_hold_runs_actions_horizon_and_family_of_an_unknown_slug_with_a_fresh_index(points):
    more = pd.concat([points, pd.DataFrame(point_rows("condorcet", "zz-plugin", [1.0, 3.0]))], ignore_index=True)
    curves = field.curves_table(more, {"condorcet": ["condorcet"], "borda": ["condorcet", "borda"]})
    assert set(curves["runs"]) == {2} and set(curves["actions"]) == {10} and set(curves["horizon"]) == {100}
    assert set(curves.loc[curves["algorithm"] == "zz-plugin", "family"]) == {"other"}
    # three (scenario, regret) parts concatenated: one index 0..n-1, not one per part
    assert curves.index.equals(pd.RangeIndex(len(curves)))
    # 2 algorithms x 3 steps on condorcet, 2 x 3 x 2 regrets on borda, 3 steps of zz-plugin
    assert len(curves) == 6 + 12 + 3


def test_final_table_ranks_the_lowest_mean_first_ties_shared_and_puts_scenarios_missing_from_the_order_last(curves):
    table = field.final_table(curves, order=["borda"])
    assert table.columns.tolist() == schemas.FIELD_TABLE_SCHEMA.names
    assert table["scenario"].tolist() == ["borda"] * 4 + ["condorcet"] * 2  # the rest of the order: above
    assert table["rank"].dtype == np.int16  # FIELD_TABLE_SCHEMA's type
    assert table["rank"].tolist() == [1, 1, 1, 1, 1, 2]  # equal means on borda share rank 1
    assert table.index.equals(pd.RangeIndex(len(table)))
