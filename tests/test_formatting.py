"""The house formatters: ruff (lint and format) for Python, snakefmt for the workflow, all clean."""

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


@pytest.mark.parametrize(
    "command",
    [
        ["ruff", "check", "src", "tests", "bench"],
        ["ruff", "format", "--check", "src", "tests", "bench"],
        ["snakefmt", "--check", "Snakefile", "workflow/rules"],
    ],
    ids=["ruff-check", "ruff-format", "snakefmt"],
)
def test_the_code_is_as_the_formatters_leave_it(command):
    result = subprocess.run(
        [str(BIN / command[0]), *command[1:]], cwd=REPO, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, f"{' '.join(command)} (fix: drop --check):\n{result.stdout}{result.stderr}"
