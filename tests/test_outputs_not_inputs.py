"""No command overwrites what it reads: an output that resolves to one of the command's other file
arguments is refused in one line, exit 2, and the file is left as it was."""

import pytest

from duelbandits import cli


@pytest.mark.parametrize(
    "argv",
    [
        ["table", "--summary", "{x}", "--markdown", "{x}"],
        ["table", "--summary", "{x}", "--markdown", "{dot}"],  # ./x and x are one file
        ["manifest", "write", "{x}", "--config-json", "{{}}", "--plugins-json", "{{}}", "--out", "{x}"],
        [
            "simulate",
            "--scenario",
            "file",
            "--matrix-file",
            "{x}",
            "--algorithm",
            "dts",
            "--horizon",
            "10",
            "--run",
            "0",
            "--seed",
            "0",
            "--stride",
            "5",
            "--out",
            "{dot}",
        ],
        [
            "aggregate",
            "--scenario-file",
            "s.json",
            "--chunk",
            "dts={x}",
            "--horizon",
            "10",
            "--runs",
            "1",
            "--points",
            "1000",
            "--traces",
            "{dot}",
            "--strategies",
            "b.parquet",
            "--summary",
            "c.parquet",
        ],
    ],
    ids=["table", "table-spelled-otherwise", "manifest-write", "simulate", "aggregate-chunk"],
)
def test_an_output_that_is_also_an_input_is_refused_and_the_input_is_untouched(tmp_path, monkeypatch, capsys, argv):
    monkeypatch.chdir(tmp_path)
    name = "x.parquet" if "simulate" in argv or "aggregate" in argv or "table" in argv else "x.txt"
    (tmp_path / name).write_bytes(b"the input")
    args = [a.format(x=name, dot=f"./{name}") for a in argv]
    assert cli.main(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "the output is also an input" in err[0] and "write it elsewhere" in err[0], err
    assert (tmp_path / name).read_bytes() == b"the input"


def test_distinct_files_are_not_refused(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.txt").write_bytes(b"x")
    assert cli.main(["manifest", "write", "x.txt", "--config-json", "{}", "--plugins-json", "{}", "--out", "M"]) == 0
    assert (tmp_path / "M").read_text().count("x.txt") == 2  # its sha256 line and its content line
