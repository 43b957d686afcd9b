"""Atomic writes and the ledger: an interrupted writer leaves nothing behind."""

import os

import pytest

from duelbandits import files


def test_atomic_write_leaves_nothing_when_the_writer_fails(tmp_path):
    target = tmp_path / "out.parquet"
    with pytest.raises(RuntimeError):
        with files.atomic_write(target) as tmp:
            tmp.write_bytes(b"half a file")
            raise RuntimeError("crash mid-write")
    assert list(tmp_path.iterdir()) == []


def test_atomic_write_replaces_and_clears_temporaries_of_killed_writers(tmp_path):
    target = tmp_path / "out.txt"
    stale = tmp_path / ".out.txt.abc123.tmp"  # what a SIGKILLed writer leaves
    stale.write_text("partial")
    with files.atomic_write(target) as tmp:
        tmp.write_text("done")
    assert target.read_text() == "done"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]
    mask = os.umask(0)
    os.umask(mask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~mask


def test_why_unreadable_names_the_real_cause(tmp_path):
    import os

    from duelbandits.errors import why_unreadable

    (tmp_path / "ok.csv").write_text("0.5\n")
    (tmp_path / "folder").mkdir()
    os.mkfifo(tmp_path / "pipe")
    odd = os.fsdecode(os.fsencode(str(tmp_path)) + b"/\xff.csv")  # a name that is not UTF-8
    with open(os.fsencode(odd), "w") as handle:
        handle.write("0.5\n")
    assert why_unreadable(tmp_path / "ok.csv") is None
    assert why_unreadable(tmp_path / "missing.csv") == "file not found"
    assert why_unreadable(tmp_path / "ok.csv" / "x") == "file not found (a part of its path is a file, not a folder)"
    assert why_unreadable(tmp_path / "folder") == "is a directory, not a file"
    assert why_unreadable(tmp_path / "pipe") == "is not a regular file"
    assert why_unreadable(odd) == "its name is not valid UTF-8 (rename the file)"


def test_a_matrix_file_that_is_a_directory_is_named_as_one(tmp_path, capsys):
    from duelbandits import cli

    (tmp_path / "m.csv").mkdir()
    args = ["matrix", "--scenario", "file", "--seed", "0", "--matrix-file", str(tmp_path / "m.csv")]
    assert cli.main(args) == 2
    assert f"matrix file {tmp_path / 'm.csv'}: is a directory, not a file" in capsys.readouterr().err
