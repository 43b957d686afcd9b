"""Bad configs fail at planning naming the key; damaged or missing results are rebuilt or reported
with the command that repairs them; the manifest blesses nothing a job did not write; the report
refuses results made with another config, or with no manifest to say which."""

import shutil
import subprocess

import pytest
from workflow_helpers import REPO, TINY, snakemake, snakemake_command

from duelbandits import manifest


@pytest.mark.parametrize(
    "args, line",
    [
        (["--config", "horizon=nan"], "config: horizon: must be a finite number, got nan"),
        (["--config", "runs=2147483648"], "config: runs: 2147483648 is beyond a 32-bit integer"),
        (["MINE", "horizon: 300.0"], "config: horizon: must be an integer, got 300.0"),
        (["MINE", "sweeps: {runz: 3}"], "config: sweeps/runz: unknown key; did you mean 'runs'?"),
        (["--config", "memory_limit_gb=0.1"], "config: horizon/runs/runs_per_job/actions: a simulation job of"),
    ],
)
def test_a_bad_config_fails_at_planning_in_one_line_naming_the_key(tmp_path, args, line):
    """On the command line or in a --configfile laid over the paper's; the schema's own check, the walk's
    and the paper's planning check (memory) alike."""
    if args[0] == "MINE":
        (tmp_path / "mine.yaml").write_text(args[1] + "\n")
        args = ["--configfile", str(REPO / "config.yaml"), str(TINY), str(tmp_path / "mine.yaml")]
    result = snakemake(tmp_path, "--dry-run", *args)
    out = result.stdout + result.stderr  # a dry run reports on stdout
    assert result.returncode != 0
    assert [text for text in out.splitlines() if text.startswith("config: ")] == [
        next(text for text in out.splitlines() if text.startswith(line))
    ], out[-2000:]
    assert "Traceback" not in out and not (tmp_path / "results").exists()


def test_a_target_beyond_the_paper_is_checked_when_it_is_planned(tmp_path):
    """A check the schema cannot express, of a target outside the default one, fails when that target
    is planned (its input function), naming the key; the paper run is not stopped by it."""
    (tmp_path / "mine.yaml").write_text("asymptotics: {runs_at: [{horizon: 999, runs: 5}]}\n")
    configs = [REPO / "config.yaml", TINY, tmp_path / "mine.yaml"]
    command = snakemake_command(tmp_path, configs, "--dry-run", "asymptotics")
    result = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert result.returncode != 0
    assert "config: asymptotics/runs_at: horizon 999 is not one of" in result.stdout + result.stderr
    paper = subprocess.run(snakemake_command(tmp_path, configs, "--dry-run"), capture_output=True, timeout=600)
    assert paper.returncode == 0


@pytest.fixture
def tree(tiny_run, tmp_path):
    """A copy of the tiny run (results, figures, Snakemake's and the ledger's records, mtimes kept)."""
    copy = tmp_path / "tree"
    shutil.copytree(tiny_run, copy, symlinks=True)
    return copy


def verify(root):
    return manifest.verify(root / "results/MANIFEST.sha256", root)


def test_a_damaged_chunk_is_reported_with_the_command_that_repairs_it(tree):
    chunk = "results/runs/borda/dts/chunk-0.parquet"
    with open(tree / chunk, "r+b") as handle:
        handle.truncate(1000)
    result = snakemake(tree, "--cores", "2")
    assert result.returncode != 0
    repair = f"rebuild it with: snakemake --cores all --forcerun {chunk}"
    assert f"{chunk}: not a readable Parquet file" in result.stderr and repair in result.stderr
    assert verify(tree)[chunk] == manifest.DIFFERS  # the manifest of the whole tree still says what it was
    result = snakemake(tree, "--cores", "2", "--forcerun", chunk)
    assert result.returncode == 0, result.stderr[-3000:]
    assert set(verify(tree).values()) == {manifest.IDENTICAL}


def test_a_missing_chunk_is_rebuilt_by_the_next_run(tree):
    (tree / "results/runs/borda/dts/chunk-1.parquet").unlink()
    result = snakemake(tree, "--cores", "2")
    assert result.returncode == 0, result.stderr[-3000:]
    assert set(verify(tree).values()) == {manifest.IDENTICAL}


def test_a_damaged_figure_is_never_blessed(tree):
    figure = "figures/main/borda.png"
    original = (tree / figure).read_bytes()
    (tree / figure).write_bytes(original[:100])
    result = snakemake(tree, "--cores", "2")
    assert result.returncode != 0
    assert (
        f"{figure}: changed since the job that wrote it" in result.stderr
        and f"rebuild it with: snakemake --cores all --forcerun {figure}" in result.stderr
    )
    assert (tree / "results/MANIFEST.sha256").exists()  # refused before any job: nothing removed
    # a valid PNG that the figure job did not write (here: another figure's) is refused the same way
    (tree / figure).write_bytes((tree / "figures/main/condorcet.png").read_bytes())
    assert snakemake(tree, "--cores", "2").returncode != 0
    assert snakemake(tree, "--cores", "2", "--forcerun", figure).returncode == 0
    assert (tree / figure).read_bytes() == original


def test_the_report_refuses_results_made_with_another_config(tree):
    result = snakemake(tree, "--report", str(tree / "r.html"), tiny=False)
    assert result.returncode != 0
    assert "the results in results/ were made with another config (horizon: 300 there, 40000 here" in result.stderr
    assert not (tree / "r.html").exists()
    result = snakemake(tree, "--report", str(tree / "r.html"))
    assert result.returncode == 0, result.stderr[-3000:]
    assert "T = 300" in (tree / "r.html").read_text(errors="replace")
    # without the manifest nothing says which config made the results: refused, not captioned from this config
    (tree / "results/MANIFEST.sha256").unlink()
    result = snakemake(tree, "--report", str(tree / "r2.html"))
    assert result.returncode != 0
    assert "results/ holds results but no results/MANIFEST.sha256" in result.stderr, result.stderr[-3000:]
    assert "snakemake --cores all results/MANIFEST.sha256" in result.stderr
    assert not (tree / "r2.html").exists()


def test_the_report_reads_the_config_from_the_results_not_only_from_an_editable_manifest(tree):
    """The manifest's config line edited to say T = 40,000 over a T = 300 tree: --report under the
    config the edited line names is refused by the results' own footers, not captioned T = 40,000."""
    path = tree / "results/MANIFEST.sha256"
    path.write_text(path.read_text().replace('"horizon": 300', '"horizon": 40000', 1))
    result = snakemake(tree, "--report", str(tree / "r.html"), "--config", "horizon=40000")
    assert result.returncode != 0 and not (tree / "r.html").exists()
    assert "the results in results/ do not match this config (results/" in result.stderr, result.stderr[-3000:]
    assert "its provenance says horizon 300, but its path and the config say 40000" in result.stderr


def test_the_report_reads_only_the_results_its_manifest_lists_as_the_chunking_that_made_them(tree):
    """A chunk left behind by an earlier runs_per_job is no result: the report's footer check reads the
    files the manifest lists, with the runs_per_job that made them, so a valid tree is not refused."""
    stale = tree / "results/runs/borda/dts/chunk-7.parquet"
    stale.write_bytes((tree / "results/runs/borda/dts/chunk-0.parquet").read_bytes())
    result = snakemake(tree, "--report", str(tree / "r.html"), "--config", "runs_per_job=1")
    assert result.returncode == 0, result.stderr[-3000:]
    assert "T = 300" in (tree / "r.html").read_text(errors="replace")


def test_a_damaged_swapped_or_foreign_chunk_stops_the_run_before_any_output_is_removed(tree):
    import pyarrow.parquet as pq

    from duelbandits import storage

    folder = tree / "results/runs/borda/dts"
    originals = {p.name: p.read_bytes() for p in folder.glob("chunk-*.parquet")}

    def changed_row(path):  # one outcome flipped, the provenance and every other row as the job wrote them
        import pyarrow as pa

        before = storage.read_provenance(path)
        table = pq.read_table(path)
        outcomes = table.column("outcome").to_numpy().copy()
        outcomes[0] = 1 - outcomes[0]
        index = table.schema.get_field_index("outcome")
        field = table.schema.field(index)
        pq.write_table(table.set_column(index, field, pa.array(outcomes, field.type)), path)
        assert storage.read_provenance(path) == before  # the footer check alone would pass it

    def foreign(path):  # the same rows, the provenance of another scenario
        table = pq.read_table(path)
        prov = {**storage.read_provenance(path), "scenario": "condorcet"}
        pq.write_table(storage.with_provenance(table, prov), path)

    damages = {
        "truncated": lambda: (folder / "chunk-0.parquet").write_bytes(originals["chunk-0.parquet"][:1000]),
        "swapped": lambda: [
            (folder / "chunk-0.parquet").write_bytes(originals["chunk-1.parquet"]),
            (folder / "chunk-1.parquet").write_bytes(originals["chunk-0.parquet"]),
        ],
        "foreign": lambda: foreign(folder / "chunk-0.parquet"),
        "changed row": lambda: changed_row(folder / "chunk-0.parquet"),  # its footer intact: the ledger tells
    }
    for name, damage in damages.items():
        damage()
        result = snakemake(tree, "--cores", "2")
        assert result.returncode != 0, name
        status = verify(tree)  # the manifest survives, and every output built from the chunks is still there
        assert status["results/runs/borda/dts/chunk-0.parquet"] == manifest.DIFFERS, (name, status)
        assert {s for rel, s in status.items() if "/dts/chunk-" not in rel} == {manifest.IDENTICAL}, (name, status)
        assert "inputs of the planned jobs are damaged or not what the pipeline wrote" in result.stderr, name
        assert "snakemake --cores all --forcerun results/runs/borda/dts/chunk-0.parquet" in result.stderr, name
        for chunk, data in originals.items():
            (folder / chunk).write_bytes(data)


def test_a_new_matrix_file_with_an_older_mtime_reruns_the_jobs_that_read_it(tmp_path):
    import os

    def csv(step):  # a valid 10 x 10 preference matrix
        return "".join(",".join(f"{0.5 + step * (i - j):.2f}" for j in range(10)) + "\n" for i in range(10))

    matrix = tmp_path / "m.csv"
    matrix.write_text(csv(0.05))
    config = ["--config", "scenarios=[file]", f"matrix_file={matrix}"]
    target = "results/scenarios/file.json"
    assert snakemake(tmp_path, "--cores", "1", target, *config).returncode == 0
    assert "Nothing to be done" in (done := snakemake(tmp_path, "--dry-run", target, *config)).stdout + done.stderr
    before = matrix.stat()
    matrix.write_text(csv(0.04))  # another valid matrix, as `cp -p` puts it:
    os.utime(matrix, ns=(before.st_atime_ns, before.st_mtime_ns - 10**9))  # with an older mtime
    result = snakemake(tmp_path, "--dry-run", target, *config)
    out = result.stdout + result.stderr
    assert result.returncode == 0 and "Nothing to be done" not in out and "scenario" in out, out[-2000:]


def test_the_same_matrix_under_another_name_or_spelling_reruns_nothing_and_gives_the_same_results(tmp_path):
    """Results are keyed by the matrix's content: the jobs read a validated copy
    (results/scenarios/file.csv) whose trigger is the content, and no result records the path."""
    text = "".join(",".join(f"{0.5 + 0.05 * (i - j):.2f}" for j in range(6)) + "\n" for i in range(6))
    first, second = tmp_path / "a", tmp_path / "b"
    (first / "in").mkdir(parents=True)
    (first / "in" / "m.csv").write_text(text)
    config = ["--config", "scenarios=[file]", "algorithms=[dts]", "actions=6"]
    targets = ["results/scenarios/file.json", "results/runs/file/dts/chunk-0.parquet"]
    assert snakemake(first, "--cores", "1", *targets, *config, "matrix_file=in/m.csv").returncode == 0
    (first / "elsewhere").mkdir()
    (first / "in" / "m.csv").rename(first / "elsewhere" / "renamed.csv")
    moved = snakemake(first, "--dry-run", *targets, *config, "matrix_file=./elsewhere/../elsewhere/renamed.csv")
    assert moved.returncode == 0 and "Nothing to be done" in moved.stdout + moved.stderr, moved.stdout[-2000:]
    second.mkdir()
    (second / "other.csv").write_text(text)
    assert snakemake(second, "--cores", "1", *targets, *config, "matrix_file=other.csv").returncode == 0
    for target in targets:
        assert (first / target).read_bytes() == (second / target).read_bytes(), target


def test_an_edited_scenario_file_stops_the_run_naming_it_and_nothing_is_removed(tree):
    path = tree / "results/scenarios/borda.json"
    path.write_text(path.read_text().replace("0.95", "0.96", 1))
    result = snakemake(tree, "--cores", "2")
    assert result.returncode != 0
    assert "results/scenarios/borda.json: changed since the job that wrote it" in result.stderr, result.stderr[-2000:]
    assert "--forcerun results/scenarios/borda.json" in result.stderr
    status = verify(tree)
    assert status["results/scenarios/borda.json"] == manifest.DIFFERS
    assert {s for rel, s in status.items() if rel != "results/scenarios/borda.json"} == {manifest.IDENTICAL}


def test_a_job_refuses_an_input_changed_after_planning(tmp_path):
    """The same check inside a command run with --ledger: a recorded file with other bytes is refused,
    exit 2, with the command that rebuilds it."""
    import subprocess
    import sys

    ledger, scenario = tmp_path / "ledger", tmp_path / "results/scenarios/condorcet.json"
    run = ["--scenario", "condorcet", "--actions", "4", "--seed", "1"]
    base = [sys.executable, "-m", "duelbandits", "--ledger", str(ledger)]
    assert subprocess.run([*base, "scenario", *run, "--out", str(scenario)], cwd=tmp_path).returncode == 0
    scenario.write_text(scenario.read_text().replace("0.", "0.1", 1))
    done = subprocess.run([*base, "provenance", str(scenario)], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 2 and f"{scenario}: changed since the job that wrote it" in done.stderr, done.stderr
    assert f"--forcerun {scenario}" in done.stderr and done.stdout == ""
