"""Every user mistake at the CLI: exit 2, one line naming the problem, no traceback, nothing left behind."""

import subprocess
import sys

import numpy as np
import pytest

from duelbandits import cli, limits

SIM = ["simulate", "--scenario", "condorcet", "--algorithm", "dts"]


def run_cli(*args, cwd):
    return subprocess.run(
        [sys.executable, "-m", "duelbandits", *args], capture_output=True, text=True, cwd=cwd, timeout=300
    )


@pytest.mark.parametrize(
    "args, words",
    [
        (
            [*SIM, "--horizon", "300.0", "--runs", "0-1", "--out", "o.parquet"],
            ["--horizon", "must be an integer", "'300.0'"],
        ),
        ([*SIM, "--horizon", "1000000000000", "--runs", "0-1", "--out", "o.parquet"], ["--horizon", "[1, 2147483647]"]),
        # fits the int32 step column, not in memory: refused before any allocation, naming the sizes
        (
            [*SIM, "--horizon", "2000000000", "--runs", "0-9999", "--out", "o.parquet"],
            ["--horizon 2000000000 x 10000 run(s)", "needs about 1.1 PiB", "more than the limit"],
        ),
        (
            [*SIM, "--horizon", "40000", "--runs", "0-100000000", "--out", "o.parquet"],
            ["x 100000001 run(s)", "needs about", "more than the limit"],
        ),
        (
            [*SIM, "--horizon", "50", "--run", "99999999999999999999", "--out", "o.parquet"],
            ["--run", "[0, 2147483647]"],
        ),
        (["matrix", "--scenario", "condorcet", "--actions", "1000000"], ["--actions", "[2, 32767]"]),
        ([*SIM, "--horizon", "50", "--runs", "0-1", "--out", "folder"], ["folder: is a directory"]),
        ([*SIM, "--horizon", "50", "--runs", "0-1", "--out", "afile/o.parquet"], ["afile is not a directory"]),
        (["scenario", "--scenario", "borda", "--out", "folder"], ["folder: is a directory"]),
        (["scenario", "--scenario", "borda", "--out", "/proc/duelbandits-test/s.json"], ["cannot write"]),
        (
            ["bounds", "--algorithms", "dts", "--actions", "5", "--horizon", "50", "--out", "afile/b.parquet"],
            ["afile is not a directory"],
        ),
        (["table", "--summary", "absent.parquet", "--markdown", "folder"], ["folder: is a directory"]),
        (["table", "--summary", "absent.parquet", "--markdown", "t.md"], ["absent.parquet: file not found"]),
        (
            ["figure", "main", "--scenario-file", "s.json", "--summary", "absent.parquet", "--out", "afile/f.png"],
            ["afile is not a directory"],
        ),
        (["manifest", "write", "afile", "--config-json", "{}", "--out", "folder"], ["folder: is a directory"]),
        (["manifest", "verify", "M.sha256", "--root", "/nonexistent"], ["--root /nonexistent: not a directory"]),
        # a range the size of the int32 run column: refused by its size, before any list is built
        (
            [*SIM, "--horizon", "10", "--runs", "0-2147483647", "--out", "o.parquet"],
            ["2147483648 run(s)", "needs about"],
        ),
        (
            [
                "bounds",
                "--algorithms",
                "ts-borda",
                "--actions",
                "5",
                "--horizon",
                "50",
                "--c-alpha",
                "0",
                "--out",
                "b.pq",
            ],
            ["--c-alpha", "must be a finite number > 0"],
        ),
        (
            [
                "bounds",
                "--algorithms",
                "ts-borda",
                "--actions",
                "5",
                "--horizon",
                "50",
                "--c-alpha",
                "nan",
                "--out",
                "b",
            ],
            ["--c-alpha", "must be a finite number > 0"],
        ),
        (
            ["figure", "main", "--scenario-file", "s.json", "--summary", "x.parquet", "--out", "f.jpg"],
            ["--out f.jpg: a figure is saved as .pdf, .png or .svg"],
        ),
        (["provenance", "afile"], ["afile: not a readable Parquet file"]),
    ],
)
def test_a_user_mistake_is_one_line_and_exit_2(tmp_path, args, words):
    (tmp_path / "folder").mkdir()
    (tmp_path / "afile").write_text("not a folder\n")
    (tmp_path / "M.sha256").write_text(f"{'0' * 64}  afile\n")
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    result = run_cli(*args, cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert "Traceback" not in result.stderr
    assert len(lines) == 1 or lines[0].startswith("usage:"), result.stderr  # argparse adds its usage line
    for word in words:
        assert word in lines[-1], (word, lines[-1])
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before  # nothing left behind


def test_a_matrix_too_large_for_the_memory_limit_is_refused_before_it_is_built(monkeypatch, capsys):
    monkeypatch.setattr(limits, "physical_memory", lambda: 24 * 2**30)  # this project's machines
    assert cli.main(["matrix", "--scenario", "condorcet", "--actions", "30000"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (
        "duelbandits matrix: error: --actions 30000 needs about 107.6 GiB of memory, more than the limit "
        "of 24.0 GiB (this machine's memory)"
    )


def test_verify_from_the_wrong_folder_says_to_use_root(tmp_path, capsys):
    (tmp_path / "M.sha256").write_text(f"{'0' * 64}  results/a.parquet\n{'1' * 64}  figures/b.png\n")
    assert cli.main(["manifest", "verify", str(tmp_path / "M.sha256"), "--root", str(tmp_path)]) == 1
    captured = capsys.readouterr()
    assert "none of the 2 files is under" in captured.err and "--root" in captured.err
    assert captured.out.splitlines()[-1].startswith(
        "FAILED: 2 files: 0 identical, 0 same content, 0 differs, 2 missing"
    )


def csv_matrix(tmp_path, text, encoding="utf-8"):
    path = tmp_path / "m.csv"
    path.write_bytes(text.encode(encoding))
    return str(path)


def test_matrix_files_as_spreadsheets_write_them_are_accepted(tmp_path, capsys):
    # 7 decimals (gap 1e-7), 6 decimals (gap 1e-6, the tolerance), and a byte-order mark
    for text, encoding in [
        ("0.5,0.3333333\n0.6666666,0.5\n", "utf-8"),
        ("0.5,0.333333\n0.666666,0.5\n", "utf-8"),
        ("0.5,0.25\r\n0.75,0.5\r\n", "utf-8-sig"),
    ]:
        assert cli.main(["matrix", "--scenario", "file", "--matrix-file", csv_matrix(tmp_path, text, encoding)]) == 0
        X = np.array([[float(v) for v in row.split(",")] for row in capsys.readouterr().out.split()])
        np.testing.assert_array_equal(X + X.T, np.ones((2, 2)))  # symmetrised: an exact preference matrix


@pytest.mark.parametrize(
    "text, words",
    [
        ("# my matrix\n0.5,1.2\n-0.2,0.5\n", ["X[0, 1] = 1.2", "[0, 1]", "(line 2, column 2)"]),
        ("0.5,0.34\n0.6666666,0.5\n", ["tolerance 1e-06", "0.34 + 0.6666666", "(line 1, column 2)"]),
        ("0.5,0.5\n0.5,0.4\n", ["diagonal must be 1/2", "X[1, 1] = 0.4", "(line 2, column 2)"]),
        ("0.5,x\n0.5,0.5\n", ["line 1, column 2", "'x' is not a number"]),
    ],
)
def test_a_bad_matrix_file_names_the_line_and_column(tmp_path, capsys, text, words):
    assert cli.main(["matrix", "--scenario", "file", "--matrix-file", csv_matrix(tmp_path, text)]) == 2
    err = capsys.readouterr().err
    for word in words:
        assert word in err, (word, err)
