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
