"""Bad configs fail at planning naming the key; damaged or missing results are rebuilt or reported
with the command that repairs them; the manifest blesses nothing a job did not write; the report
refuses results made with another config, or with no manifest to say which."""

import shutil
import subprocess

import pytest
from workflow_helpers import REPO, TINY, snakemake, snakemake_command

from duelbandits import manifest


@pytest.mark.parametrize(
    "override, words",
    [
        ("horizon=300.0", ["config: horizon: must be an integer, got 300.0"]),
        ("runs=2.0", ["config: runs: must be an integer, got 2.0"]),
        ("runs_per_job=2.0", ["config: runs_per_job: must be an integer, got 2.0"]),
        ("seed=20191114.0", ["config: seed: must be an integer, got 20191114.0"]),
        ("horizon=1000000000000", ["1000000000000 is greater than the maximum of 2147483647"]),
        (
            "horizon=2000000000",
            [
                "config: horizon/runs/runs_per_job/actions: a simulation job of horizon 2000000000",
                "needs about",
                "more than the limit",
            ],
        ),
        ("memory_limit_gb=0.1", ["needs about", "more than the limit of 102.4 MiB (memory_limit_gb)"]),
    ],
)
def test_a_bad_config_fails_at_planning_naming_the_key(tmp_path, override, words):
    result = snakemake(tmp_path, "--dry-run", "--config", override)
    assert result.returncode != 0
    out = result.stdout + result.stderr  # a dry run reports on stdout
    for word in words:
        assert word in out, (word, out[-2000:])
    assert not (tmp_path / "results").exists()


@pytest.mark.parametrize(
    "target, section, words",
    [
        (
            "asymptotics",
            "asymptotics: {runs_at: [{horizon: 999, runs: 5}]}",
            ["config: asymptotics/runs_at: horizon 999"],
        ),
        ("maximin_tail", "maximin-tail: {first_horizon: 1000, horizon: 1000}", ["config: maximin-tail/first_horizon"]),
        ("maximin_bayes", "maximin-bayes: {matrices: 4, jobs: 5}", ["config: maximin-bayes/jobs: 5 jobs per A"]),
    ],
)
def test_a_target_named_on_the_command_line_is_checked_when_the_workflow_is_parsed(tmp_path, target, section, words):
    """A check the schema cannot express fails in one paragraph, not inside an input function (where
    Snakemake prints its traceback)."""
    (tmp_path / "mine.yaml").write_text(section + "\n")
    command = snakemake_command(tmp_path, [REPO / "config.yaml", TINY, tmp_path / "mine.yaml"], "--dry-run", target)
    result = subprocess.run(command, capture_output=True, text=True, timeout=600)
    out = result.stdout + result.stderr
    assert result.returncode != 0 and "Traceback" not in out and "InputFunctionException" not in out, out[-2000:]
    for word in words:
        assert word in out, (word, out[-2000:])


def test_a_float_for_an_integer_key_in_a_yaml_file_names_the_key(tmp_path):
    (tmp_path / "mine.yaml").write_text("horizon: 300.0\n")
    result = snakemake(
        tmp_path, "--dry-run", "--configfile", str(REPO / "config.yaml"), str(tmp_path / "mine.yaml"), tiny=False
    )
    assert result.returncode != 0 and "config: horizon: must be an integer, got 300.0" in result.stdout + result.stderr


@pytest.fixture
def tree(tiny_run, tmp_path):
    """A copy of the tiny run (results, figures, Snakemake's records, mtimes kept)."""
    copy = tmp_path / "tree"
    shutil.copytree(tiny_run, copy, symlinks=True)
    return copy


def verify(root):
    return manifest.verify(root / "results/MANIFEST.sha256", root)


def test_a_missing_chunk_is_rebuilt_by_the_next_run(tree):
    (tree / "results/runs/borda/dts/chunk-1.parquet").unlink()
    result = snakemake(tree, "--cores", "2")
    assert result.returncode == 0, result.stderr[-3000:]
    assert set(verify(tree).values()) == {manifest.IDENTICAL}


@pytest.mark.parametrize(
    "args, words",
    [
        (["--config", "horizn=300"], ["config: horizn: unknown key (from --config); did you mean 'horizon'?"]),
        (["--configfile", "TWICE"], ["twice.yaml: key 'runs' is given twice (lines 1 and 2)"]),
    ],
)
def test_an_unknown_or_repeated_config_key_is_one_short_paragraph(tmp_path, args, words):
    (tmp_path / "twice.yaml").write_text("runs: 2\nruns: 3\n")
    args = [str(tmp_path / "twice.yaml") if a == "TWICE" else a for a in args]
    if args[0] == "--configfile":  # after the paper's and the tiny config files
        result = snakemake(
            tmp_path, "--dry-run", "--configfile", str(REPO / "config.yaml"), str(TINY), *args[1:], tiny=False
        )
    else:
        result = snakemake(tmp_path, "--dry-run", *args)
    out = result.stdout + result.stderr
    assert result.returncode != 0
    for word in words:
        assert word in out, (word, out[-2000:])
    assert len(out.splitlines()) < 10, out[-3000:]  # not the schema's ~1000 lines


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
