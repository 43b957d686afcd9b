"""Provenance: what every result carries, the refusal of contradicting inputs, and code digests."""

import json

import numpy as np
import pytest

from duelbandits import cli, provenance, storage

COMMON = ["--actions", "5", "--seed", "7"]


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """Scenario files and one-run chunks of two algorithms on both scenarios (T = 50)."""
    root = tmp_path_factory.mktemp("prov")
    for scenario in ("condorcet", "borda"):
        assert cli.main(["scenario", "--scenario", scenario, *COMMON, "--out", str(root / f"{scenario}.json")]) == 0
        for algorithm in ("dts", "iss"):
            out = root / f"{scenario}-{algorithm}.parquet"
            args = ["simulate", "--scenario", scenario, "--algorithm", algorithm, "--horizon", "50", "--runs", "0-1"]
            args += ["--stride", "40"]
            assert cli.main([*args, *COMMON, "--out", str(out)]) == 0
    return root


def aggregate(root, scenario_file, chunks, out):
    args = ["aggregate", "--scenario-file", str(root / scenario_file), "--horizon", "50", "--runs", "2"]
    args += ["--points", "10"]
    args += [f"--chunk={algorithm}={root / chunk}" for algorithm, chunk in chunks]
    args += [f"--{name}={out / name}.parquet" for name in ("traces", "strategies", "summary")]
    return cli.main(args)


def test_a_chunk_says_what_made_it(files):
    prov = storage.read_provenance(files / "borda-dts.parquet")
    record = json.loads((files / "borda.json").read_text())
    assert {k: prov[k] for k in ("table", "scenario", "algorithm", "runs", "horizon", "seed")} == {
        "table": "runs",
        "scenario": "borda",
        "algorithm": "dts",
        "runs": "0-1",
        "horizon": 50,
        "seed": 7,
    }
    assert prov["matrix_sha256"] == record["matrix_sha256"] == provenance.matrix_sha256(record["matrix"])
    assert prov["params"] == {"alpha": 0.51} and prov["scenario_params"]["actions"] == 5
    assert prov["config_sha256"] == provenance.digest(
        provenance.experiment({k: v for k, v in prov.items() if k != "config_sha256"})
    )
    assert prov["versions"]["numpy"] == np.__version__ and prov["versions"]["duelbandits"]


def test_aggregated_files_carry_their_sources(files, tmp_path):
    assert aggregate(files, "borda.json", [("dts", "borda-dts.parquet"), ("iss", "borda-iss.parquet")], tmp_path) == 0
    chunk = storage.read_provenance(files / "borda-iss.parquet")
    for name, table in (("traces", "traces"), ("strategies", "strategies"), ("summary", "scenario-summary")):
        prov = storage.read_provenance(tmp_path / f"{name}.parquet")
        assert prov["table"] == table and prov["scenario"] == "borda" and prov["algorithms"] == ["dts", "iss"]
        assert prov["actions"] == 5
        assert prov["chunks"]["iss"] == [chunk["config_sha256"]] and prov["seed"] == 7


def test_figures_refuse_traces_of_another_scenario(files, tmp_path, capsys):
    """The one kind of refusal of a file whose provenance contradicts the arguments (aggregate's chunks and
    summary's bounds call the same check, :func:`provenance.check`, tested field by field below)."""
    assert aggregate(files, "borda.json", [("dts", "borda-dts.parquet")], tmp_path) == 0
    args = ["figure", "appendix", "--algorithm", "dts", "--scenario-file", str(files / "condorcet.json")]
    args += [f"--traces={tmp_path / 'traces.parquet'}", f"--strategies={tmp_path / 'strategies.parquet'}"]
    args += ["--out", str(tmp_path / "f.png")]
    assert cli.main(args) == 2
    assert (
        "traces.parquet: was made for scenario 'borda', but is used as scenario 'condorcet'" in capsys.readouterr().err
    )
    assert not (tmp_path / "f.png").exists()
    args[5] = str(files / "borda.json")
    assert cli.main(args) == 0


def test_provenance_command_prints_a_files_record(files, capsys):
    assert cli.main(["provenance", str(files / "condorcet-iss.parquet")]) == 0
    out = capsys.readouterr().out
    record = json.loads(out.partition(": ")[2])
    assert record["algorithm"] == "iss" and record["scenario"] == "condorcet"


def test_config_digest_follows_the_parameters_only():
    a = provenance.record(scenario="borda", horizon=10)
    assert a["config_sha256"] == provenance.record(horizon=10, scenario="borda")["config_sha256"]
    assert a["config_sha256"] != provenance.record(scenario="borda", horizon=11)["config_sha256"]
    assert provenance.experiment(a) == {"scenario": "borda", "horizon": 10, "config_sha256": a["config_sha256"]}


RECORD = {"table": "run-chunk", "scenario": "borda", "algorithm": "dts", "horizon": 500, "seed": 7, "stride": 50}
"""A chunk's provenance, every field of which a check may ask for."""


def test_a_check_of_several_fields_refuses_each_field_wrong_on_its_own():
    """All six fields asked for at once; one wrong at a time (the others right) is refused naming it,
    and so is its absence."""
    for key in sorted(RECORD):
        provenance.check("f.parquet", RECORD, **RECORD)  # all right
        wrong = {**RECORD, key: 999 if isinstance(RECORD[key], int) else "other"}
        with pytest.raises(provenance.ProvenanceError, match=f"f.parquet: was made for {key} "):
            provenance.check("f.parquet", RECORD, **wrong)
        without = {k: v for k, v in RECORD.items() if k != key}
        with pytest.raises(provenance.ProvenanceError, match=f"f.parquet: its provenance has no '{key}'"):
            provenance.check("f.parquet", without, **RECORD)


def test_a_list_valued_field_must_hold_the_value_asked_for():
    prov = {"algorithms": ["dts", "rucb"], "scenario": "borda"}
    provenance.check("s.parquet", prov, algorithms="rucb", scenario="borda")
    with pytest.raises(provenance.ProvenanceError, match=r"s.parquet: holds algorithms \['dts', 'rucb'\], not 'iss'"):
        provenance.check("s.parquet", prov, algorithms="iss", scenario="borda")
    with pytest.raises(provenance.ProvenanceError, match="was made for algorithms"):
        provenance.check("s.parquet", prov, algorithms=["dts"])  # a list asked for: equal lists only
