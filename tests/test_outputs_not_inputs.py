"""No command overwrites what it reads: an output that resolves to one of the command's other file
arguments is refused in one line, exit 2, and the file is left as it was."""

import pytest

from duelbandits import cli


@pytest.mark.parametrize(
    "line",
    [
        "table --summary {x} --markdown {x}",
        "table --summary {x} --markdown {dot}",  # ./x and x are one file
        "manifest write {x} --config-json {{}} --plugins-json {{}} --out {x}",
        "simulate --scenario file --matrix-file {x} --algorithm dts --horizon 10 --run 0 --seed 0 --stride 5 "
        "--out {dot}",
        "aggregate --scenario-file s.json --chunk dts={x} --horizon 10 --runs 1 --points 1000 --traces {dot} "
        "--strategies b.parquet --summary c.parquet",
        # the listed files of manifest write are relative to --root: root/x is the output
        "manifest write --root sub {x} --config-json {{}} --plugins-json {{}} --out sub/{x}",
        "table --summary {x} --markdown link.md",  # link.md: a symbolic link to the input
    ],
    ids=["table", "table-spelled-otherwise", "manifest-write", "simulate", "aggregate-chunk", "manifest-root", "link"],
)
def test_an_output_that_is_also_an_input_is_refused_and_the_input_is_untouched(tmp_path, monkeypatch, capsys, line):
    monkeypatch.chdir(tmp_path)
    argv = line.split()
    name = "x.txt" if argv[0] == "manifest" else "x.parquet"
    (tmp_path / name).write_bytes(b"the input")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / name).write_bytes(b"the input")
    (tmp_path / "link.md").symlink_to(name)
    args = [a.format(x=name, dot=f"./{name}") for a in argv]
    assert cli.main(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "the output is also an input" in err[0] and "write it elsewhere" in err[0], err
    assert (tmp_path / name).read_bytes() == (tmp_path / "sub" / name).read_bytes() == b"the input"


@pytest.mark.parametrize(
    "argv",
    [
        ["table", "--summary", "s.parquet", "--markdown", "t.md", "--html", "./t.md"],
        ["table", "--summary", "s.parquet", "--markdown", "t.md", "--html", "link.md"],
    ],
    ids=["spelled-otherwise", "link"],
)
def test_two_outputs_that_are_one_file_are_refused_before_either_is_written(tmp_path, monkeypatch, capsys, argv):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "link.md").symlink_to("t.md")  # dangling until t.md is written: still the same file
    assert cli.main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "the same file as the output t.md" in err[0], err
    assert not (tmp_path / "t.md").exists()


def test_an_input_that_is_a_symbolic_link_loop_is_not_a_traceback(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.parquet").symlink_to("b.parquet")
    (tmp_path / "b.parquet").symlink_to("a.parquet")
    assert cli.main(["table", "--summary", "a.parquet", "--markdown", "t.md"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["duelbandits table: error: a.parquet: is a symbolic link that leads back to itself (a loop)"]


def test_distinct_files_are_not_refused(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.txt").write_bytes(b"x")
    assert cli.main(["manifest", "write", "x.txt", "--config-json", "{}", "--plugins-json", "{}", "--out", "M"]) == 0
    assert (tmp_path / "M").read_text().count("x.txt") == 2  # its sha256 line and its content line
