import json
import os
import subprocess
import sys

import numpy as np
import pyarrow.parquet as pq
import pytest
from cli_process import run_cli

from duelbandits import cli, make_scenario, run_seed, simulate
from duelbandits.algorithms import ALGORITHMS


def test_list_names_algorithms_scenarios_and_regrets(capsys):
    assert cli.main(["list"]) == 0
    out = capsys.readouterr().out
    for name in ("ts-maximin", "partial-monitoring", "dts", "condorcet", "borda", "exp3p", "copeland"):
        assert name in out


def test_matrix_prints_the_scenario_as_csv(capsys):
    assert cli.main(["matrix", "--scenario", "borda", "--actions", "5", "--seed", "7"]) == 0
    rows = capsys.readouterr().out.strip().splitlines()
    X = np.array([[float(v) for v in row.split(",")] for row in rows])
    np.testing.assert_array_equal(X, make_scenario("borda", actions=5, seed=7).matrix)


def main(line, *paths):
    """``cli.main`` on the words of ``line`` and then ``paths``."""
    return cli.main([*line.split(), *map(str, paths)])


def test_simulate_writes_the_runs_the_api_gives(tmp_path):
    """Run 3 of a range is the API's run 3 (a --run alone: the README's run 7, tests/test_docs.py)."""
    out = tmp_path / "runs.parquet"
    line = "simulate --scenario condorcet --algorithm sparring-exp3p --horizon 300 --runs 2-3 --actions 4 --seed 5"
    assert main(f"{line} --stride 50 --out", out) == 0
    table = pq.read_table(out).to_pandas()
    assert {"run", "t", "I", "J", "outcome", "p_0", "q_3"} <= set(table.columns)
    assert sorted(table["run"].unique()) == [2, 3] and len(table) == 600
    matrix = make_scenario("condorcet", actions=4, seed=5).matrix
    expected = simulate(matrix, "sparring-exp3p", 300, run_seed(5, "condorcet", "sparring-exp3p", 3), stride=50)
    run3 = table[table["run"] == 3]
    np.testing.assert_array_equal(run3["I"], expected.I)
    np.testing.assert_array_equal(run3["J"], expected.J)
    np.testing.assert_array_equal(run3["outcome"], expected.outcomes)
    recorded = run3[run3["p_0"].notna()]
    np.testing.assert_array_equal(recorded["t"], expected.strategy_steps)
    np.testing.assert_allclose(recorded[[f"p_{a}" for a in range(4)]], expected.strategies["p"])


def test_scenario_json_round_trips(tmp_path):
    out = tmp_path / "sc.json"
    assert cli.main(["scenario", "--scenario", "borda", "--seed", "0", "--out", str(out)]) == 0
    record = json.loads(out.read_text())
    sc = make_scenario("borda")
    np.testing.assert_array_equal(np.array(record["matrix"]), sc.matrix)
    assert record["winners"]["borda"] == [int(np.argsort(sc.utilities)[-2])]
    assert record["winners"]["condorcet"] == int(np.argmax(sc.utilities))


def test_simulate_bad_input_exits_2_in_one_line_and_leaves_no_file(tmp_path, capsys):
    """One per kind the simulate command adds (each option's range: tests/test_cli_args.py; an unknown algorithm:
    the compile test below)."""
    for args, message in [
        (["--scenario", "nope"], "valid scenarios: condorcet, borda"),
        (["--param", "c_alpha=9"], "has no parameter"),
        (["--param", "alpha"], "NAME=VALUE"),
        (["--scenario", "borda", "--actions", "2"], "not the unique Borda winner"),
        (["--scenario-param", "margin=7"], "margin must lie in"),
    ]:
        base = {"--scenario": "condorcet", "--algorithm": "dts", "--horizon": "50", "--runs": "0-1", "--seed": "0"}
        line = {**base, "--stride": "40", **dict(zip(args[::2], args[1::2]))}
        argv = ["simulate", *[x for kv in line.items() for x in kv], "--out", str(tmp_path / "o.parquet")]
        assert cli.main(argv) == 2
        err = capsys.readouterr().err
        assert message in err and len(err.strip().splitlines()) == 1, err
        assert list(tmp_path.iterdir()) == []


def test_simulate_needs_run_or_runs(tmp_path, capsys):
    line = "simulate --scenario condorcet --algorithm iss --horizon 5 --seed 0 --stride 40 --out"
    with pytest.raises(SystemExit, match="2"):
        main(line, tmp_path / "x.parquet")
    assert "one of the arguments --run --runs is required" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_aggregate_refuses_chunks_that_do_not_hold_runs_times_horizon_steps(tmp_path, capsys):
    chunk, sc = tmp_path / "iss.parquet", tmp_path / "sc.json"
    line = "simulate --scenario condorcet --algorithm iss --horizon 100 --runs 0-1 --seed 0 --stride 40 --out"
    assert main(line, chunk) == 0
    assert main("scenario --scenario condorcet --seed 0 --out", sc) == 0
    outs = [f"--{name}={tmp_path / name}.parquet" for name in ("traces", "strategies", "summary")]
    capsys.readouterr()
    assert main(f"aggregate --horizon 100 --runs 3 --points 1000 --chunk iss={chunk} --scenario-file", sc, *outs) == 2
    assert capsys.readouterr().err.endswith("the chunks of iss hold 200 steps, not 3 runs of 100\n")  # 2 runs x 100
    assert sorted(p.name for p in tmp_path.iterdir()) == ["iss.parquet", "sc.json"]


@pytest.mark.slow
def test_compile_fills_numba_s_cache_so_that_a_later_simulation_loads_its_kernels(tmp_path):
    """The workflow's compile job: one process compiles the kernels of a group, the simulations load them
    (ISS and Partial Monitoring: the two kernels that compile fastest, 1.4 and 0.95 CPU-s)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    later = (  # the kernels' cache hits and misses in a later process: (1, 0) when loaded, (0, 1) when compiled
        "from duelbandits import simulate\n"
        "from duelbandits.algorithms import iss, partial_monitoring\n"
        "for slug, module in (('iss', iss), ('partial-monitoring', partial_monitoring)):\n"
        "    simulate([[0.5, 0.7], [0.3, 0.5]], slug, 50, 1)\n"
        "    stats = module._kernel.stats\n"
        "    print(sum(stats.cache_hits.values()), sum(stats.cache_misses.values()))\n"
    )

    def loaded():
        result = subprocess.run([sys.executable, "-c", later], capture_output=True, text=True, env=env, timeout=300)
        assert result.returncode == 0, result.stderr
        return result.stdout.split()

    out = tmp_path / "kernels" / "group.done"
    result = run_cli("compile", "--algorithm", "iss", "--out", str(out), env=env)
    assert result.returncode == 0, result.stderr
    assert out.read_text() == "iss: kernels compiled or loaded from numba's cache\n"
    # ISS's kernel loaded; PM's (the cheapest), not compiled by the job, compiled anew
    assert loaded() == ["1", "0", "0", "1"]


def test_compile_refuses_an_unknown_algorithm_in_one_line_and_writes_nothing(tmp_path, capsys):
    out = tmp_path / "group.done"
    assert cli.main(["compile", "--algorithm", "iss", "nope", "--out", str(out)]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "duelbandits compile: error: unknown algorithm 'nope'; valid algorithms: " + ", ".join(ALGORITHMS)
    ]
    assert not out.exists()
