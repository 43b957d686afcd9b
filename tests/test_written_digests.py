"""Content digests computed at write time (issue 20): a job digests the table it holds in memory as
it writes it, and the command line records that digest in the ledger, so that no later job reads a
24-million-row file back to digest it. The digest must be exactly the one computed from the file,
for every column kind the pipeline writes and for any split of the table into written parts."""

import numpy as np
import pyarrow as pa
import pytest

from duelbandits import cli, digests, files, manifest, storage


def every_kind(rows: int, seed: int) -> pa.Table:
    """A table with every column kind the pipeline writes, with nulls, NaNs, -0.0 and repeated strings."""
    rng = np.random.default_rng(seed)
    floats = rng.normal(size=rows)
    floats[::7] = np.nan
    floats[1::11] = -0.0
    valid = rng.random(rows) > 0.2
    words = rng.choice(["borda", "condorcet", "", "é"], size=rows).tolist()
    return pa.table(
        {
            "i8": pa.array(rng.integers(-128, 127, rows), pa.int8()),
            "i16": pa.array(rng.integers(0, 1000, rows), pa.int16()),
            "i32": pa.array(np.arange(rows), pa.int32()),
            "i64": pa.array(rng.integers(-(2**40), 2**40, rows), pa.int64(), mask=~valid),
            "flag": pa.array(rng.random(rows) > 0.5, pa.bool_()),
            "f32": pa.array(floats.astype(np.float32), pa.float32()),
            "f64": pa.array(floats, pa.float64(), mask=~valid),
            "text": pa.array([w if v else None for w, v in zip(words, valid, strict=True)], pa.string()),
            "category": pa.array(words, pa.string()).dictionary_encode(),
        }
    )


@pytest.mark.parametrize("rows", [0, 1, 5, 1000])
def test_a_tables_digest_is_the_digest_of_the_file_it_is_written_to(tmp_path, rows):
    table = every_kind(rows, seed=rows)
    path = tmp_path / "t.parquet"
    storage.write_table(table, path)
    assert digests.table_content(table) == manifest.content_digest(path)


@pytest.mark.parametrize("cuts", [[1], [3, 4], [250, 500, 999]])
def test_a_digest_fed_in_parts_is_the_digest_of_the_whole(cuts):
    table = every_kind(1000, seed=3)
    digest = digests.TableDigest(table.schema)
    bounds = [0, *cuts, table.num_rows]
    for start, stop in zip(bounds, bounds[1:], strict=False):
        digest.update(table.slice(start, stop - start))
    assert digest.content() == digests.table_content(table)
    batches = table.combine_chunks().to_batches(max_chunksize=333)  # record batches, not tables
    digest = digests.TableDigest(table.schema)
    for batch in batches:
        digest.update(batch)
    assert digest.content() == digests.table_content(table)


@pytest.mark.parametrize("column", ["i16", "f64", "text", "category"])
def test_one_changed_value_changes_the_digest(column):
    table = every_kind(50, seed=1)
    values = table.column(column).to_pylist()
    values[10] = values[11] if values[10] != values[11] else values[12]
    field = table.schema.field(column)
    changed = table.set_column(table.schema.get_field_index(column), field, pa.array(values, field.type))
    assert changed.column(column).to_pylist() != table.column(column).to_pylist()
    assert digests.table_content(changed) != digests.table_content(table)


def simulate_args(out, algorithm: str, actions: int, runs: str) -> list[str]:
    run = ["simulate", "--scenario", "condorcet", "--algorithm", algorithm, "--horizon", "120", "--runs", runs]
    return [*run, "--actions", str(actions), "--stride", "7", "--seed", "11", "--out", str(out)]


def ledger_content_of(ledger, path) -> str:
    record = files.read_record(ledger, path)
    assert record is not None and len(record) == 2, f"{path}: the job recorded no content digest: {record}"
    return record[1]


@pytest.mark.parametrize(("actions", "runs"), [(2, "0-0"), (3, "0-4"), (7, "2-3")])
def test_the_jobs_record_the_content_digest_of_what_they_wrote(tmp_path, actions, runs):
    """simulate (one write, strategies with nulls) and aggregate (the traces written in parts, one per
    algorithm; strategies, summary): each record's content digest is the file's, recomputed."""
    ledger = tmp_path / "ledger"
    count = int(runs.split("-")[1]) - int(runs.split("-")[0]) + 1
    first = int(runs.split("-")[0])
    chunks = []
    for algorithm in ("sparring-exp3p", "iss"):
        out = tmp_path / f"{algorithm}.parquet"
        assert cli.main(["--ledger", str(ledger), *simulate_args(out, algorithm, actions, runs)]) == 0
        assert ledger_content_of(ledger, out) == digests.ledger_line(manifest.content_digest(out))
        chunks += ["--chunk", f"{algorithm}={out}"]
    if first:  # aggregate wants runs 0..runs-1: rebuild them from 0
        return
    scenario = tmp_path / "sc.json"
    scenario_args = ["--scenario", "condorcet", "--actions", str(actions), "--seed", "11"]
    assert cli.main(["scenario", *scenario_args, "--out", str(scenario)]) == 0
    outs = {name: tmp_path / f"{name}.parquet" for name in ("traces", "strategies", "summary")}
    aggregate = ["aggregate", "--scenario-file", str(scenario), *chunks, "--horizon", "120", "--runs", str(count)]
    aggregate += ["--points", "1000"]
    aggregate += [arg for name, path in outs.items() for arg in (f"--{name}", str(path))]
    assert cli.main(["--ledger", str(ledger), *aggregate]) == 0
    for path in outs.values():
        assert ledger_content_of(ledger, path) == digests.ledger_line(manifest.content_digest(path))


def test_without_a_ledger_no_job_digests_what_it_writes(tmp_path, monkeypatch):
    def refuse(*args):
        raise AssertionError("digested although no ledger collects it")

    monkeypatch.setattr(digests.TableDigest, "update", refuse)
    out = tmp_path / "runs.parquet"
    assert cli.main(simulate_args(out, "sparring-exp3p", 3, "0-1")) == 0
    assert out.is_file() and not files.noting()


def test_a_noted_digest_reaches_only_the_ledger_of_its_own_command(tmp_path):
    with files.noting_contents() as noted:
        storage.write_table(every_kind(10, seed=2), tmp_path / "a.parquet")
    expected = digests.ledger_line(manifest.content_digest(tmp_path / "a.parquet"))
    assert files.noted_content(noted, tmp_path / "a.parquet") == expected
    assert not files.noting()  # the block ended: nothing is collected any more
    files.note_content(tmp_path / "b.parquet", "parquet:x")  # no collector: ignored
    assert files.noted_content(noted, tmp_path / "b.parquet") is None
