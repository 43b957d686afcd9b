"""Every Parquet table the commands write, read back from one small pipeline (module fixture): columns
and types are its schema's, every schema is written, and arguments off the defaults reach the tables."""

import json

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from duelbandits import cli, schemas, storage, theorems
from duelbandits.algorithms import ALGORITHMS
from duelbandits.regret import REGRETS
from duelbandits.studies.paper.analysis import summary_grid

# partial-monitoring at T = 30 < 46.3 (Theorem 4.4 at A = 6) plays uniformly, with a warning: a point as any other
pytestmark = pytest.mark.filterwarnings("ignore:partial-monitoring. horizon T=30 is too short:UserWarning")

SEED = "7"
A = 6  # the paper run's and the asymptotics' number of actions (condorcet and borda build at seed 7)
T = 60
STRIDE = 7
PAPER_ALGORITHMS = ["sparring-exp3p", "partial-monitoring", "ts-borda", "iss"]  # p and q, p only, none, none
C_ALPHA = "0.5"
RUNS_AT = {30: 4, 60: 2, 120: 3}  # asymptotics and horizon sweep: the fewest runs at the middle horizon
RUNS_PER_A = {3: 3, 6: 2, 13: 4}  # action sweep at T = 120
FIELD = {"condorcet": A, "mslr5": 5}  # the benchmark keeps its own A
FIELD_ALGORITHMS = ["ts-maximin", "rucb"]
FIELD_RUNS = 3


def run(*argv):
    assert cli.main([str(a) for a in argv]) == 0, argv


def point(root, name, scenario, algorithm, horizon, runs, actions=A):
    """A sweep-point file of ``runs`` (TS-Borda at c_alpha 0.5); ``actions`` None: the scenario's own A."""
    path = root / f"{name}.parquet"
    params = ["--param", f"c_alpha={C_ALPHA}"] if algorithm == "ts-borda" else []
    size = ["--actions", actions] if actions is not None else []
    args = ["--scenario", scenario, "--algorithm", algorithm, "--horizon", horizon, "--runs", runs]
    run("sweep-point", *args, "--seed", SEED, "--points", 7, *size, *params, "--out", path)
    return path


def outputs(root, **files):
    """``--name root/file`` for every output."""
    return [x for name, file in files.items() for x in (f"--{name}", root / file)]


@pytest.fixture(scope="module")
def out(tmp_path_factory):
    root = tmp_path_factory.mktemp("written")
    scenario_args = ["--actions", A, "--seed", SEED]
    # the paper run: scenario files, run chunks of 3 runs in two uneven chunks, aggregate, bounds, summary
    for scenario in ("condorcet", "borda"):
        run("scenario", "--scenario", scenario, *scenario_args, "--out", root / f"{scenario}.json")
        chunks = []
        for algorithm in PAPER_ALGORITHMS:
            params = ["--param", f"c_alpha={C_ALPHA}"] if algorithm == "ts-borda" else []
            for k, runs in enumerate(["0-1", "2"]):
                path = root / f"runs-{scenario}-{algorithm}-{k}.parquet"
                args = ["--scenario", scenario, "--algorithm", algorithm, "--horizon", T, "--runs", runs]
                run("simulate", *args, "--stride", STRIDE, *scenario_args, *params, "--out", path)
                chunks += ["--chunk", f"{algorithm}={path}"]
        names = {name: f"{name}-{scenario}.parquet" for name in ("traces", "strategies", "summary")}
        args = ["--scenario-file", root / f"{scenario}.json", *chunks, "--horizon", T, "--runs", 3, "--points", 9]
        run("aggregate", *args, *outputs(root, **names))
    args = ["--algorithms", *PAPER_ALGORITHMS, "--actions", A, "--horizon", T, "--points", 9, "--c-alpha", C_ALPHA]
    run("bounds", *args, *outputs(root, out="bounds.parquet"))
    summaries = [root / f"summary-{s}.parquet" for s in ("condorcet", "borda")]
    run("summary", *summaries, *outputs(root, bounds="bounds.parquet", out="summary.parquet"))
    # points at three horizons with 4, 2 and 3 runs; the 3 runs of T = 120 in two files
    horizon_points = []
    for algorithm in ("ts-borda", "partial-monitoring"):
        for horizon, runs in RUNS_AT.items():
            name = f"h-{algorithm}-{horizon}"
            if horizon == 120:
                horizon_points.append(point(root, f"{name}-a", "borda", algorithm, horizon, "0"))
                horizon_points.append(point(root, f"{name}-b", "borda", algorithm, horizon, "1-2"))
            else:
                horizon_points.append(point(root, name, "borda", algorithm, horizon, f"0-{runs - 1}"))
    bootstrap = ["--resamples", 30, "--confidence", 0.8, "--seed", 5]
    files = outputs(root, table="horizon.parquet", exponents="exponents.parquet", markdown="e.md", html="e.html")
    run("sweep-horizon", *horizon_points, *bootstrap, *files)
    files = outputs(root, exponents="asymptotics-exponents.parquet", local="asymptotics-local.parquet", markdown="a.md")
    run("asymptotics-table", *horizon_points, *bootstrap, "--c-alpha", C_ALPHA, "--near", 0.2, *files)
    # the action sweep: A = 3, 6, 13 at T = 120 with 3, 2, 4 runs
    action_points = [
        point(root, f"a-{algorithm}-{size}", "condorcet", algorithm, 120, f"0-{runs - 1}", actions=size)
        for algorithm in ("ts-borda", "ts-maximin")
        for size, runs in RUNS_PER_A.items()
    ]
    files = outputs(root, table="actions.parquet", markdown="actions.md", html="actions.html")
    run("sweep-actions", *action_points, "--c-alpha", C_ALPHA, *files)
    # the field: condorcet at A = 6 and mslr5 at its own A = 5 (no --actions)
    field_points, scenario_files = [], []
    for scenario in FIELD:
        size = A if scenario == "condorcet" else None
        own = ["--actions", size] if size is not None else []
        run("scenario", "--scenario", scenario, *own, "--seed", SEED, "--out", root / f"field-{scenario}.json")
        scenario_files += ["--scenario-file", root / f"field-{scenario}.json"]
        for algorithm in FIELD_ALGORITHMS:
            runs = f"0-{FIELD_RUNS - 1}"
            field_points.append(point(root, f"f-{scenario}-{algorithm}", scenario, algorithm, 50, runs, size))
    files = outputs(root, curves="curves.parquet", table="field-table.parquet", markdown="field.md")
    run("field-table", *field_points, *scenario_files, *files)
    # Theorem 4.1's tail: 6 TS-Maximin runs on borda to T = 60, two continued to 120; the family search; the
    # claims ledger from this summary and those tables
    tail_points = [
        point(root, "t-0", "borda", "ts-maximin", 60, "0-2"),
        point(root, "t-1", "borda", "ts-maximin", 60, "3-5"),
    ]
    tail = ["--scenario-file", root / "borda.json", "--seed", SEED, "--share", 0.5]
    files = outputs(root, curves="tail-curves.parquet", states="tail-states.parquet")
    continued = ["--horizon", 120, "--others", 1, "--jobs", 1, "--job", 0, "--grid-points", 5, "--escape-samples", 5]
    run("tail-continue", *tail_points, *tail, *continued, *files)
    files = outputs(root, estimates="tail-estimates.parquet", markdown="tail.md")
    run("tail-table", *tail_points, *tail, "--curves", root / "tail-curves.parquet", "--states",
        root / "tail-states.parquet", "--confidence", 0.95, *files)  # fmt: skip
    family = ["--actions", 3, "--gaps", 0.2, "--others-gap", 0.1, "--strength", 0.95, "--runs", 2, "--horizon", 60]
    family += ["--seed", SEED, "--grid-points", 5, "--confidence", 0.95, "--bootstrap", 20]
    run("tail-family", *family, *outputs(root, table="family.parquet", markdown="f.md"))
    # Theorem 4.1 as a Bayesian bound: 2 matrices x 1 run at A = 3, T = 60, one job; its table
    bayes = ["--actions", 3, "--matrices", 2, "--runs", 1, "--horizon", 60, "--seed", SEED, "--jobs", 1, "--job", 0]
    bayes += ["--prior", "uniform", "--grid-from", 20, "--grid-points", 2]
    run("bayes-runs", *bayes, *outputs(root, out="bayes-runs.parquet"))
    files = outputs(root, estimates="bayes-estimates.parquet", markdown="b.md")
    run("bayes-table", root / "bayes-runs.parquet", "--confidence", 0.95, "--strata-draws", 2, "--bootstrap", 5, *files)
    optional = outputs(root, local="asymptotics-local.parquet", tail="tail-estimates.parquet", family="family.parquet")
    optional += outputs(root, bayes="bayes-estimates.parquet")
    files = outputs(root, table="claims.parquet", markdown="c.md")
    run("claims", "--summary", root / "summary.parquet", *optional, "--level", 0.95, *files)
    return root


def read(path):
    return pq.read_table(path).to_pandas()


WRITTEN = {
    "traces-condorcet.parquet": "TRACE_SCHEMA",
    "strategies-borda.parquet": "STRATEGY_SCHEMA",
    "summary-condorcet.parquet": "SUMMARY_SCHEMA",
    "bounds.parquet": "BOUND_SCHEMA",
    "summary.parquet": "SUMMARY_SCHEMA",
    "h-ts-borda-30.parquet": "POINT_SCHEMA",
    "horizon.parquet": "HORIZON_SCHEMA",
    "exponents.parquet": "EXPONENT_SCHEMA",
    "actions.parquet": "ACTIONS_SCHEMA",
    "asymptotics-local.parquet": "ASYMPTOTIC_LOCAL_SCHEMA",
    "asymptotics-exponents.parquet": "ASYMPTOTIC_EXPONENT_SCHEMA",
    "curves.parquet": "FIELD_CURVES_SCHEMA",
    "field-table.parquet": "FIELD_TABLE_SCHEMA",
    "tail-curves.parquet": "TAIL_CURVE_SCHEMA",
    "tail-states.parquet": "TAIL_STATE_SCHEMA",
    "tail-estimates.parquet": "TAIL_ESTIMATE_SCHEMA",
    "family.parquet": "TAIL_FAMILY_SCHEMA",
    "bayes-runs.parquet": "BAYES_RUN_SCHEMA",
    "bayes-estimates.parquet": "BAYES_ESTIMATE_SCHEMA",
    "claims.parquet": "CLAIM_SCHEMA",
}


def test_each_table_name_of_the_checked_reads_gives_the_schema_its_file_was_written_with(out):
    """schemas.TABLE_SCHEMAS, which the typed read (storage.read_table(path, table)) checks a file against:
    the table name in each written file's provenance maps to the schema it was written with, and the typed
    read accepts every file the pipeline wrote (its columns, its nulls)."""
    named = {}
    for name, schema in WRITTEN.items():
        table = json.loads(pq.read_schema(out / name).metadata[b"duelbandits"])["table"]
        named.setdefault(table, set()).add(schema)
        if table in schemas.TABLE_SCHEMAS:
            assert storage.read_table(out / name, table).num_rows == pq.read_metadata(out / name).num_rows, name
    assert set(schemas.TABLE_SCHEMAS) <= set(named)
    for table, schema in schemas.TABLE_SCHEMAS.items():
        assert {name for name, value in vars(schemas).items() if value is schema} == named[table], table


def test_every_schema_of_the_package_is_written_by_a_command_with_exactly_its_columns_and_types(out):
    declared = {name for name, value in vars(schemas).items() if isinstance(value, pa.Schema)}
    assert declared == set(WRITTEN.values())
    for name, schema in WRITTEN.items():
        assert pq.read_schema(out / name).remove_metadata().equals(getattr(schemas, schema)), name


def test_a_run_chunk_has_the_run_columns_and_one_strategy_column_per_player_and_action(out):
    for algorithm in PAPER_ALGORITHMS:
        written = pq.read_schema(out / f"runs-borda-{algorithm}-0.parquet").remove_metadata()
        assert written.names[:5] == list(schemas.RUN_COLUMNS)
        assert {f.name: f.type for f in written}.items() >= schemas.RUN_COLUMNS.items()
        strategy = {f.name: f.type for f in written if f.name not in schemas.RUN_COLUMNS}
        players = ALGORITHMS[algorithm].strategies
        assert strategy == {f"{p}_{a}": pa.float64() for p in players for a in range(A)}


def test_summaries_report_three_runs_at_the_nine_point_grid_ending_at_T(out):
    for name in ("summary-condorcet.parquet", "summary.parquet"):
        summary = read(out / name)
        assert (summary["runs"] == 3).all()
        assert sorted(set(summary["t"])) == summary_grid(T, 9).tolist() and summary["t"].max() == T
        assert set(summary["regret"]) == set(REGRETS) and set(summary["algorithm"]) == set(PAPER_ALGORITHMS)
    assert set(read(out / "summary.parquet")["scenario"]) == {"condorcet", "borda"}


def test_summary_refuses_two_summaries_of_one_scenario_in_one_line(out, capsys):
    twice = [out / "summary-condorcet.parquet"] * 2
    argv = ["summary", *twice, *outputs(out, bounds="bounds.parquet", out="twice.parquet")]
    assert cli.main([str(a) for a in argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "summary-condorcet.parquet: a second summary of scenario 'condorcet'" in err
    assert not (out / "twice.parquet").exists()


def test_bounds_are_tuned_to_the_c_alpha_given_not_the_default(out):
    bounds = read(out / "bounds.parquet")
    assert set(bounds["horizon"]) == {T}
    borda = bounds[bounds["algorithm"] == "ts-borda"]
    assert borda["holds"].all() and borda["t"].max() == T
    at_T = borda.loc[borda["t"] == T, "bound"].item()
    theorem = theorems.THEOREMS["ts-borda"]
    assert at_T == pytest.approx(theorem.bound(A, float(T), c_alpha=0.5), rel=1e-12)
    assert at_T != pytest.approx(theorem.bound(A, float(T), c_alpha=1.0), rel=1e-6)


def test_the_horizon_sweeps_tables_report_the_point_files_runs_and_the_bootstrap_given(out):
    exponents = read(out / "exponents.parquet")
    assert (exponents["runs"] == min(RUNS_AT.values())).all()
    assert (exponents["horizons"] == len(RUNS_AT)).all()
    assert (exponents["confidence"] == 0.8).all() and (exponents["resamples"] == 30).all()
    assert (exponents["actions"] == A).all()
    horizon = read(out / "horizon.parquet")  # its means and stds: tests/test_sweeps.py
    for T_, runs in RUNS_AT.items():  # T = 120's runs from two files
        assert (horizon.loc[horizon["horizon"] == T_, "runs"] == runs).all(), T_


def test_asymptotics_tables_take_the_bootstrap_near_and_c_alpha_given(out):
    """The command line's values reach the tables (the runs per horizon: test_asymptotics_off_defaults)."""
    local = read(out / "asymptotics-local.parquet")
    exponents = read(out / "asymptotics-exponents.parquet")
    for table in (local, exponents):
        assert len(table) and (table["confidence"] == 0.8).all() and (table["resamples"] == 30).all()
    assert (exponents["near"] == 0.2).all()
    theorem = theorems.THEOREMS["ts-borda"]
    rows = local[(local["algorithm"] == "ts-borda") & (local["regret"] == theorem.regret)]
    assert len(rows) == len(RUNS_AT) and rows["bound"].notna().any()
    for row in rows.itertuples():
        expected = theorem.bound(A, float(row.horizon), c_alpha=0.5) if theorem.holds(A, row.horizon, 0.5) else np.nan
        assert row.bound == pytest.approx(expected, rel=1e-12, nan_ok=True)


def test_actions_table_reports_each_as_runs_and_bounds_tuned_to_the_c_alpha_given(out):
    actions = read(out / "actions.parquet")
    assert sorted(set(actions["actions"])) == sorted(RUNS_PER_A)
    for size, runs in RUNS_PER_A.items():
        assert (actions.loc[actions["actions"] == size, "runs"] == runs).all(), size
    assert (actions["horizon"] == 120).all()
    theorem = theorems.THEOREMS["ts-borda"]
    rows = actions[(actions["algorithm"] == "ts-borda") & (actions["regret"] == theorem.regret)]
    for row in rows.itertuples():
        expected = theorem.bound(row.actions, 120.0, c_alpha=0.5) if theorem.holds(row.actions, 120, 0.5) else np.nan
        assert row.bound == pytest.approx(expected, rel=1e-12, nan_ok=True)
    assert rows["bound"].notna().all()


def test_field_tables_hold_each_scenario_at_its_own_size_with_all_runs(out):
    curves = read(out / "curves.parquet")
    table = read(out / "field-table.parquet")
    for frame in (curves, table):
        assert dict(frame.groupby("scenario")["actions"].unique().map(list)) == {s: [a] for s, a in FIELD.items()}
        assert (frame["runs"] == FIELD_RUNS).all() and (frame["horizon"] == 50).all()
        assert set(frame["algorithm"]) == set(FIELD_ALGORITHMS)
    assert set(table["family"]) == {"paper", "field"}  # the ranks: tests/test_field.py
