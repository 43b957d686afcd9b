"""The suite's own machinery: its forked CLI calls (tests/cli_process.py)."""

import os

import pytest
from cli_process import run_cli


@pytest.mark.parametrize("args", [["nosuch"], ["simulate", "--help"], ["list"], ["provenance", "missing.parquet"]])
def test_a_forked_cli_call_gives_what_a_fresh_interpreter_gives(tmp_path, args):
    """tests/cli_process.py forks `python -m duelbandits` from a server that imported the CLI: the exit
    code, stdout and stderr are those of a fresh interpreter (env given: it runs one)."""
    forked = run_cli(*args, cwd=tmp_path)
    fresh = run_cli(*args, cwd=tmp_path, env=dict(os.environ))
    assert (forked.returncode, forked.stdout, forked.stderr) == (fresh.returncode, fresh.stdout, fresh.stderr)
    assert forked.returncode == (0 if args in (["list"], ["simulate", "--help"]) else 2)
