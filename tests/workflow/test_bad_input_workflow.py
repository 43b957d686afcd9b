"""Bad configs fail at planning naming the key; a user's matrix file is keyed by its content (a missing
result rebuilt by the next run: tests/workflow/test_workflow.py)."""

import os
import resource
import subprocess

import pytest
from workflow_helpers import REPO, TINY, snakemake, snakemake_command


@pytest.mark.parametrize(
    "args, line",
    [
        (["--config", "horizon=nan"], "config: horizon: must be a finite number, got nan"),
        (["MINE", "horizon: 300.0"], "config: horizon: must be an integer, got 300.0"),
        (["MINE", "sweeps: {runz: 3}"], "config: sweeps/runz: unknown key; did you mean 'runs'?"),
        (["--config", "memory_limit_gb=0.1"], "config: horizon/runs/runs_per_job/actions: a simulation job of"),
        (["MINE\udcff", "horizon: 300"], "config: --configfile "),  # Snakemake's log cannot hold the name
    ],
)
def test_a_bad_config_fails_at_planning_in_one_line_naming_the_key(tmp_path, args, line):
    """On the command line or in a --configfile laid over the paper's; the schema's own check, the walk's
    and the paper's planning check (memory) alike."""
    if args[0].startswith("MINE"):
        mine = tmp_path / f"{args[0].lower()}.yaml"
        mine.write_text(args[1] + "\n")
        args = ["--configfile", str(REPO / "config.yaml"), str(TINY), str(mine)]
    result = snakemake(tmp_path, "--dry-run", *args)
    out = result.stdout + result.stderr  # a dry run reports on stdout
    assert result.returncode != 0
    assert [text for text in out.splitlines() if text.startswith("config: ")] == [
        next(text for text in out.splitlines() if text.startswith(line))
    ], out[-2000:]
    assert "Traceback" not in out and not (tmp_path / "results").exists()


def test_planning_beyond_the_address_space_limit_is_one_line(tmp_path):
    """Under ``ulimit -v`` (2.5 GiB: Snakemake's imports fit) a config whose stated memory_limit_gb lets
    planning build a 20000-action matrix (3.2 GB) runs out of memory at planning: one line, not a bare
    MemoryError."""
    config = ["actions=20000", "horizon=10", "runs=1", "runs_per_job=1", "stride=1", "memory_limit_gb=1000"]
    command = snakemake_command(tmp_path, [REPO / "config.yaml"], "--dry-run", "--config", *config)
    limit = 5 * 2**29
    result = subprocess.run(
        command,
        capture_output=True,
        text=True,
        timeout=600,
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (limit, limit)),
    )
    out = result.stdout + result.stderr
    assert result.returncode != 0 and "MemoryError" not in out, out[-2000:]
    assert "config: planning ran out of memory: this config plans more than Snakemake may allocate here" in out


def test_a_target_beyond_the_paper_is_checked_when_it_is_planned(tmp_path):
    """A check the schema cannot express, of a target outside the default one, fails when that target
    is planned (its input function), naming the key; the paper run is not stopped by it."""
    (tmp_path / "mine.yaml").write_text("asymptotics: {runs_at: [{horizon: 999, runs: 5}]}\n")
    configs = [TINY, tmp_path / "mine.yaml"]
    result = snakemake(tmp_path, "--dry-run", "asymptotics", configs=configs)
    assert result.returncode != 0
    assert "config: asymptotics/runs_at: horizon 999 is not one of" in result.stdout + result.stderr
    paper = snakemake(tmp_path, "--dry-run", configs=configs)
    assert paper.returncode == 0


def test_the_matrix_file_is_keyed_by_its_content_not_its_name_or_mtime(tmp_path):
    """The jobs read a validated copy (results/scenarios/file.csv) whose trigger is the content, and no result
    records the path: the same matrix under another name or spelling reruns nothing, and rerun from there
    gives the same bytes; another matrix with an older mtime, as `cp -p` puts it, reruns the jobs that read it."""

    def csv(step):  # a valid 6 x 6 preference matrix
        return "".join(",".join(f"{0.5 + step * (i - j):.2f}" for j in range(6)) + "\n" for i in range(6))

    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "m.csv").write_text(csv(0.05))
    config = ["--config", "scenarios=[file]", "algorithms=[dts]", "actions=6"]
    targets = ["results/scenarios/file.json", "results/runs/file/dts/chunk-0.parquet"]
    assert snakemake(tmp_path, "--cores", "1", *targets, *config, "matrix_file=in/m.csv").returncode == 0
    before = {target: (tmp_path / target).read_bytes() for target in targets}
    (tmp_path / "elsewhere").mkdir()
    matrix = (tmp_path / "in" / "m.csv").rename(tmp_path / "elsewhere" / "renamed.csv")
    config.append("matrix_file=./elsewhere/../elsewhere/renamed.csv")
    moved = snakemake(tmp_path, "--dry-run", *targets, *config)
    assert moved.returncode == 0 and "Nothing to be done" in moved.stdout + moved.stderr, moved.stdout[-2000:]
    snakemake(
        tmp_path, "--cores", "1", *targets, *config, "--forcerun", "matrix_file", "scenario", "simulate", check=True
    )
    assert {target: (tmp_path / target).read_bytes() for target in targets} == before
    older = matrix.stat().st_mtime_ns - 10**9
    matrix.write_text(csv(0.04))
    os.utime(matrix, ns=(older, older))
    result = snakemake(tmp_path, "--dry-run", *targets, *config)
    out = result.stdout + result.stderr
    assert result.returncode == 0 and "Nothing to be done" not in out and "rule scenario:" in out, out[-2000:]
