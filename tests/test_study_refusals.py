"""The study commands (sweeps, field, asymptotics, tail, bayes, claims) refuse what no run can give: a NaN,
an impossible regret, an empty file and a file with fewer rows than its provenance says, each in one
line naming the file, exit 2, nothing written. Each test runs the real commands on a tampered copy of
real tiny outputs (made once below); the point files' check is shared (``points.read_points``), so each
class runs it under another study command. tail-table's reader of phase 2 refuses the same kinds in-process
(tests/test_tail.py: test_read_phase_two_reads_every_file_and_refuses_each_kind_of_damage_naming_it)."""

import shutil

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from cli_process import run_cli

from duelbandits import schemas, storage

SEED = 7
COMMANDS = {  # the study commands, each reading the files named first, writing the outputs after
    "sweep-horizon": ["p100.parquet", "p400.parquet", "--resamples", 20, "--confidence", 0.9, "--seed", SEED,
                      "--table", "o1.parquet", "--exponents", "o2.parquet", "--markdown", "o.md", "--html", "o.html"],
    "sweep-actions": ["p100.parquet", "--c-alpha", 1, "--table", "o1.parquet", "--markdown", "o.md", "--html",
                      "o.html"],
    "asymptotics-table": ["p100.parquet", "p400.parquet", "--resamples", 20, "--confidence", 0.9, "--seed", SEED,
                          "--c-alpha", 1, "--near", 0.1, "--exponents", "o1.parquet", "--local", "o2.parquet",
                          "--markdown", "o.md"],
    "bayes-table": ["runs.parquet", "--confidence", 0.9, "--strata-draws", 4, "--bootstrap", 10, "--estimates",
                    "o1.parquet", "--markdown", "o.md"],
    "claims": ["--summary", "summary.parquet", "--local", "local.parquet", "--level", 0.95, "--table", "o1.parquet",
               "--markdown", "o.md"],
}  # fmt: skip
BAYES_RUNS = ["--actions", 3, "--matrices", 2, "--runs", 2, "--horizon", 50, "--seed", SEED, "--jobs", 1, "--job", 0,
              "--prior", "uniform", "--grid-from", 50, "--grid-points", 1]  # fmt: skip
POINT = "(runs 0-3 x 4 regrets x 6 steps to T = 100)"  # thin_grid(100, 6): steps 1, 3, 6, 16, 40, 100


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """Real tiny outputs: TS-Maximin's points at T = 100 and 400 (runs 0-3) on the borda matrix (A = 5), the
    asymptotics' local table, bayes runs (A = 3, 2 matrices x 2 runs, T = 50), and
    a summary whose rows are a paper run's (means of regrets)."""
    folder = tmp_path_factory.mktemp("made")
    scenario = ["--scenario", "borda", "--actions", 5, "--seed", SEED]
    commands = [
        ["scenario", *scenario, "--out", "sc.json"],
        *[["sweep-point", *scenario, "--algorithm", "ts-maximin", "--horizon", T, "--runs", "0-3", "--points", 6,
           "--out", f"p{T}.parquet"] for T in (100, 400)],
        ["asymptotics-table", *COMMANDS["asymptotics-table"][:-6], "--exponents", "exponents.parquet", "--local",
         "local.parquet", "--markdown", "asymptotics.md"],
        ["bayes-runs", *BAYES_RUNS, "--out", "runs.parquet"],
    ]  # fmt: skip
    for argv in commands:
        assert run_cli(*argv, cwd=folder).returncode == 0, argv
    summary = pd.DataFrame(
        [("borda", "ts-maximin", kind, kind == "maximin", t, 0.05 * t, 1.0, 4, np.nan)
         for kind in ("maximin", "borda") for t in (50, 100)],
        columns=schemas.SUMMARY_SCHEMA.names,
    )  # fmt: skip
    storage.write_frame(summary, schemas.SUMMARY_SCHEMA, folder / "summary.parquet", {"table": "summary"})
    return folder


def tampered(made, tmp_path, name, change):
    """A copy of the made files with ``name``'s rows changed by ``change`` (a DataFrame -> DataFrame), its
    provenance kept."""
    folder = tmp_path / "copy"
    shutil.copytree(made, folder)
    table = pq.read_table(folder / name)
    pq.write_table(pa.Table.from_pandas(change(table.to_pandas()), schema=table.schema, preserve_index=False),
                   folder / name)  # fmt: skip
    return folder


def refused(folder, command, line, argv=None):
    """``command`` (with ``argv``, by default its :data:`COMMANDS`') on ``folder`` exits 2 with ``line`` alone and
    writes nothing."""
    before = sorted(p.name for p in folder.iterdir())
    result = run_cli(command, *(argv or COMMANDS[command]), cwd=folder)
    assert (result.returncode, result.stderr) == (2, f"duelbandits {command}: error: {line}\n")
    assert sorted(p.name for p in folder.iterdir()) == before


def cell(frame, column, value, **where):
    """``frame`` with ``column`` set to ``value`` on the row(s) ``where`` picks."""
    frame = frame.copy()
    frame.loc[np.logical_and.reduce([frame[k] == v for k, v in where.items()]), column] = value
    return frame


@pytest.mark.parametrize(
    "command, name, change, line",
    [
        ("sweep-horizon", "p100.parquet",
         lambda f: cell(f, "cumulative_regret", np.nan, run=2, regret="borda", t=16),
         "p100.parquet: run 2's borda regret is nan at t = 16"),
        ("bayes-table", "runs.parquet", lambda f: cell(f, "regret", np.nan, matrix=1, run=0),
         "runs.parquet: matrix 1 run 0's maximin regret is nan at t = 50"),
        ("claims", "local.parquet", lambda f: cell(f, "mean", np.nan, regret="maximin", horizon=400),
         "local.parquet: borda/ts-maximin/maximin/5/400 (mean)'s maximin regret is nan at t = 400"),
    ],
)  # fmt: skip
def test_a_nan_is_refused(made, tmp_path, command, name, change, line):
    refused(tampered(made, tmp_path, name, change), command, line)


@pytest.mark.parametrize(
    "command, name, change, line",
    [  # a Borda regret that falls (a point file, read by points.read_points), Maximin regrets above t / 2
        ("asymptotics-table", "p100.parquet",
         lambda f: cell(cell(f, "cumulative_regret", 1.0, run=1, regret="borda", t=3),
                        "cumulative_regret", 0.5, run=1, regret="borda", t=6),
         "p100.parquet: run 1's borda regret goes from 1 at t = 3 to 0.5 at t = 6: not a sum of per-step regrets "
         "in [0, 1]"),
        ("bayes-table", "runs.parquet", lambda f: cell(f, "regret", 25.5, matrix=0, run=1),
         "runs.parquet: matrix 0 run 1's maximin regret goes to 25.5 at t = 50: not a sum of per-step regrets in "
         "[-0.5, 0.5]"),
        ("claims", "summary.parquet", lambda f: cell(f, "mean", 2.0, regret="borda", t=100),
         "summary.parquet: borda/ts-maximin/borda (mean)'s borda regret goes from 2.5 at t = 50 to 2 at t = 100: "
         "not a sum of per-step regrets in [0, 1]"),
    ],
)  # fmt: skip
def test_an_impossible_regret_is_refused(made, tmp_path, command, name, change, line):
    refused(tampered(made, tmp_path, name, change), command, line)


@pytest.mark.parametrize(
    "command, name, keep, line",
    [  # regret.rows_problem, in each reader: the last run's last step dropped, or every row
        ("sweep-actions", "p100.parquet", 0, f"p100.parquet: holds 0 rows, not the 96 of its provenance {POINT}"),
        ("bayes-table", "runs.parquet", 0,
         "runs.parquet: holds 0 rows, not the 4 of its provenance (2 matrices x 2 runs x 1 horizons at A = 3, T = 50)"),
    ],
)  # fmt: skip
def test_an_empty_file_or_one_with_rows_dropped_is_refused(made, tmp_path, command, name, keep, line):
    refused(tampered(made, tmp_path, name, lambda f: f.iloc[:keep]), command, line)


def test_the_bayes_runs_ratio_is_taken_from_the_checked_regret_not_the_files_column(made, tmp_path):
    """A run file whose ``ratio`` column says -7 everywhere is read with the ratios of the file as made:
    R_t / bound, recomputed from the regret the reader checks (estimates and the figure read this column)."""
    from duelbandits.studies.bayes import read_runs

    folder = tampered(made, tmp_path, "runs.parquet", lambda f: f.assign(ratio=-7.0))
    (made_runs, _), (read, _) = read_runs([made / "runs.parquet"]), read_runs([folder / "runs.parquet"])
    pd.testing.assert_frame_equal(read, made_runs)


@pytest.mark.parametrize(
    "change, line",
    [
        (["--seed", 8], "the run files were made with different seeds: 7, 8"),
        (["--prior", "projected"], "the run files were drawn from different priors: projected, uniform"),
    ],
)
def test_bayes_table_refuses_run_files_of_mixed_seeds_or_priors(made, tmp_path, change, line):
    """One table is one prior's estimate at one seed: run files of another seed or prior are not pooled."""
    folder = tampered(made, tmp_path, "runs.parquet", lambda f: f)
    assert run_cli("bayes-runs", *BAYES_RUNS, *change, "--out", "other.parquet", cwd=folder).returncode == 0
    refused(folder, "bayes-table", line, ["runs.parquet", "other.parquet", *COMMANDS["bayes-table"][1:]])


@pytest.mark.parametrize(
    "change, line",
    [
        (["--seed", 8], "p100.parquet: made with seed 7, but --seed is 8"),
        (["--scenario-file", "other.json"], "p100.parquet: not a TS-Maximin point of the matrix of other.json"),
    ],
)
def test_tail_phase_two_refuses_points_of_another_seed_or_matrix(made, tmp_path, change, line):
    """The tail's phase 1 points must be TS-Maximin's, of the scenario file's matrix, at --seed: a point of
    another seed or matrix would continue runs that are not the ones phase 1 saw."""
    folder = tampered(made, tmp_path, "p100.parquet", lambda f: f)
    other = ["scenario", "--scenario", "borda", "--actions", 6, "--seed", SEED, "--out", "other.json"]
    assert run_cli(*other, cwd=folder).returncode == 0
    args = {"--scenario-file": "sc.json", "--seed": SEED, **dict([change])}
    argv = ["p100.parquet", *[x for kv in args.items() for x in kv], "--share", 0.5, "--horizon", 200, "--others",
            2, "--jobs", 1, "--job", 0, "--grid-points", 5, "--escape-samples", 10, "--curves", "c.parquet",
            "--states", "s.parquet"]  # fmt: skip
    refused(folder, "tail-continue", line, argv)
