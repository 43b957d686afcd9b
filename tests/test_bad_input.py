"""Every user mistake at the CLI: exit 2, one line naming the problem, no traceback, nothing left behind."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_process import run_cli

from duelbandits import cli, resources

REPO = Path(__file__).resolve().parents[1]

SIM = ["simulate", "--scenario", "condorcet", "--algorithm", "dts", "--seed", "0", "--stride", "40"]
MAIN = ["figure", "main", "--scenario-file", "s.json"]


@pytest.mark.parametrize(
    "args, line",
    [
        # one case per kind of mistake; each option's own boundaries are tests/test_cli_args.py's
        # a range the size of the int32 run column: refused by its memory, before any list is built
        (
            [*SIM, "--horizon", "10", "--runs", "0-2147483647", "--out", "o.parquet"],
            "2147483648 run(s) at A = 10 needs about",
        ),
        ([*SIM, "--horizon", "50", "--runs", "0-1", "--out", "folder"], "folder: is a directory"),
        (["scenario", "--scenario", "borda", "--seed", "0", "--out", "/proc/duelbandits-test/s.json"], "cannot write"),
        (["manifest", "verify", "M.sha256", "--root", "/nonexistent"], "--root /nonexistent: not a directory"),
        (["config-page", "--config-json", '{"horizon": NaN}', "--out", "c.html"], "--config-json is not JSON: NaN is"),
        (
            [*MAIN, "--summary", "x.parquet", "--c-alpha", "1.0", "--out", "f.jpg"],
            "--out f.jpg: a figure is saved as .pdf, .png or .svg",
        ),
        # each file argument is checked for what it is before it is read, naming the real cause (a folder:
        # tests/test_config_validation.py and tests/test_manifest.py)
        (["manifest", "verify", "fifo"], "fifo: is not a regular file"),  # read, it would block
        (["provenance", "dangling"], "dangling: is a symbolic link to nowhere, which does not exist"),
        # a range error names the flag given (the claims' level is --level, not --confidence)
        (
            ["claims", "--summary", "absent.parquet", "--level", "1.0", "--table", "c.parquet", "--markdown", "c.md"],
            "--level must lie in (0, 1), got 1.0",
        ),
        (
            ["bayes-runs", "--actions", "3", "--matrices", "2", "--runs", "1", "--horizon", "50", "--seed", "0"]
            + ["--jobs", "1", "--job", "0", "--prior", "uniform", "--grid-from", "51", "--grid-points", "2"]
            + ["--out", "o.parquet"],
            "--grid-from 51 must be at most --horizon 50",
        ),
    ],
)
def test_a_user_mistake_is_one_line_and_exit_2(tmp_path, args, line):
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "dangling").symlink_to("nowhere")
    (tmp_path / "folder").mkdir()
    (tmp_path / "M.sha256").write_text(f"{'0' * 64}  afile\n")  # refused for its --root before it is read
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    result = run_cli(*args, cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert "Traceback" not in result.stderr
    assert len(lines) == 1 or lines[0].startswith("usage:"), result.stderr  # argparse adds its usage line
    assert line in lines[-1], lines[-1]
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before  # nothing left behind


def test_a_matrix_too_large_for_the_memory_limit_is_refused_before_it_is_built(monkeypatch, capsys):
    monkeypatch.setattr(resources, "physical_memory", lambda: 24 * 2**30)  # this project's machines
    assert cli.main(["matrix", "--scenario", "condorcet", "--seed", "0", "--actions", "30000"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (
        "duelbandits matrix: error: --actions 30000 needs about 107.6 GiB of memory, more than the limit "
        "of 24.0 GiB (this machine's memory)"
    )


def test_running_out_of_memory_is_one_line_and_writes_nothing(tmp_path, monkeypatch, capsys):
    """A command that allocates more than ``ulimit -v`` allows (its estimate passed) ends in one line."""
    from duelbandits.cli import simulation

    def allocate(args):
        raise MemoryError

    monkeypatch.setattr(simulation, "scenario_of", allocate)
    out = tmp_path / "m.csv"
    assert cli.main(["matrix", "--scenario", "condorcet", "--seed", "0", "--out", str(out)]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "duelbandits matrix: error: out of memory: the command needs more than this process may allocate "
        "(ulimit -v, or the free memory); ask for less"
    ]
    assert list(tmp_path.iterdir()) == []


def test_verify_from_the_wrong_folder_says_to_use_root(tmp_path, capsys):
    (tmp_path / "M.sha256").write_text(f"{'0' * 64}  results/a.parquet\n{'1' * 64}  figures/b.png\n# end: 2 entries\n")
    assert cli.main(["manifest", "verify", str(tmp_path / "M.sha256"), "--root", str(tmp_path)]) == 1
    captured = capsys.readouterr()
    assert "none of the 2 files is under" in captured.err and "--root" in captured.err
    assert captured.out.splitlines()[-1].startswith(
        "FAILED: 2 files: 0 identical, 0 same content, 0 differs, 2 missing"
    )


def test_a_matrix_file_as_a_spreadsheet_writes_it_is_accepted(tmp_path, capsys):
    """Windows line ends and a byte-order mark (rounded entries within the tolerance: test_scenarios_edges)."""
    (tmp_path / "m.csv").write_bytes("0.5,0.25\r\n0.75,0.5\r\n".encode("utf-8-sig"))
    assert cli.main(["matrix", "--scenario", "file", "--seed", "0", "--matrix-file", str(tmp_path / "m.csv")]) == 0
    assert capsys.readouterr().out == "0.5,0.25\n0.75,0.5\n"


@pytest.mark.parametrize(
    "args, line",
    [  # a bad file names the line and column (each reason a file is refused: tests/test_scenarios_edges.py)
        (["file", "--matrix-file", "m.csv"], "matrix file m.csv: preference matrix entries must lie in [0, 1], "
         "X[0, 1] = 1.2 (line 2, column 2)"),
        # without the file scenario the file would be ignored silently; without a file, no matrix to read
        (["borda", "--matrix-file", "m.csv"], "--matrix-file applies only to --scenario file, not 'borda'"),
        (["file"], "--scenario file needs --matrix-file PATH (a CSV preference matrix)"),
    ],
)  # fmt: skip
def test_a_misplaced_missing_or_bad_matrix_file_is_one_line(tmp_path, monkeypatch, capsys, args, line):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "m.csv").write_text("# my matrix\n0.5,1.2\n-0.2,0.5\n")
    assert cli.main(["matrix", "--seed", "0", "--scenario", *args]) == 2
    assert capsys.readouterr().err == f"duelbandits matrix: error: {line}\n"


# --- manifest verify cannot be fooled (issue 21) ------------------------------------------------------


@pytest.mark.parametrize(
    "entry, words",
    [
        ("/etc/hostname", ":3: /etc/hostname: not a path inside the tree"),
        ("../../etc/passwd", ":3: ../../etc/passwd: not a path inside the tree"),
        ("results/a/../../x", ":3: results/a/../../x: not a path inside the tree"),
        ("afile", ":3: afile is listed twice (also on line 2)"),
    ],
)
def test_a_manifest_entry_outside_the_tree_or_listed_twice_is_refused_naming_the_line(tmp_path, capsys, entry, words):
    (tmp_path / "afile").write_text("x\n")
    sha = __import__("hashlib").sha256(b"x\n").hexdigest()
    (tmp_path / "M.sha256").write_text(f"# config: {{}}\n{sha}  afile\n{sha}  {entry}\n")
    assert cli.main(["manifest", "verify", str(tmp_path / "M.sha256"), "--root", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and words in err, err


# --- OSErrors name their path, and leave nothing behind; a closed pipe ----------------------------------


def test_a_full_disk_names_the_file_and_leaves_no_temporary_file(tmp_path, monkeypatch, capsys):
    import errno
    import pathlib

    real = pathlib.Path.write_text

    def full(self, *args, **kwargs):
        if "config.html." in str(self):  # its temporary file
            raise OSError(errno.ENOSPC, "No space left on device")  # as a write on a full disk: no file named
        return real(self, *args, **kwargs)

    monkeypatch.setattr(pathlib.Path, "write_text", full)
    out = tmp_path / "r/config.html"
    assert cli.main(["config-page", "--config-json", "{}", "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert f"{out}: cannot write" in err and "(No space left on device)" in err and ": : " not in err, err
    assert not [p for p in tmp_path.rglob("*") if p.is_file()]


def test_provenance_into_a_closed_pipe_stops_quietly_with_141(tmp_path):
    import pyarrow as pa

    from duelbandits import storage

    storage.write_table(pa.table({"t": pa.array([1], pa.int32())}), tmp_path / "a.parquet", {"table": "traces"})
    many = " ".join(["a.parquet"] * 3000)  # far more than a pipe's buffer
    script = (
        f"{sys.executable} -m duelbandits provenance {many} | head -c 10 >/dev/null; echo status ${{PIPESTATUS[0]}}"
    )
    result = subprocess.run(["bash", "-c", script], capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert result.stderr == "", result.stderr
    assert result.stdout.strip() == "status 141"


def test_the_report_pages_are_not_in_the_manifest():
    from duelbandits import manifest

    _, entries, _ = manifest.read(REPO / "reference/MANIFEST.sha256")
    assert not [rel for rel in entries if rel.startswith("results/report/")]  # why: docs/reproducibility.md


def test_the_config_a_result_records_keys_the_matrix_file_by_its_content(tmp_path):
    """The manifest and the report's config page record the config: the matrix file by its sha256, so
    that the same matrix under another name or spelling changes neither (nor reruns their jobs)."""
    import hashlib

    from duelbandits import plan

    text = "0.5,0.6\n0.4,0.5\n"
    (tmp_path / "sub").mkdir()
    for name, content in (("a.csv", text), ("sub/b.csv", text), ("c.csv", "0.5,0.7\n0.3,0.5\n")):
        (tmp_path / name).write_text(content)
    a, b, c = (
        plan.paper_config({"seed": 1, "matrix_file": str(tmp_path / name)}) for name in ("a.csv", "sub/b.csv", "c.csv")
    )
    assert a == b == {"seed": 1, "matrix_file": f"sha256:{hashlib.sha256(text.encode()).hexdigest()}"} != c
    assert plan.paper_config({"seed": 1, "matrix_file": None}) == {"seed": 1, "matrix_file": None}
    assert plan.keyed_by_content({"matrix_file": "absent.csv"}) == {"matrix_file": "absent.csv"}  # planning names it
