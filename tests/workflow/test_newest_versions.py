"""The newest versions pyproject.toml allows, installed as the README says for platforms the lock does not cover:
opt-in, it installs a venv from the package index."""

import os
import re
import shlex
import subprocess
import sys

import pytest
from workflow_helpers import REPO, same_content_in_venv


def readme_install_args() -> list[str]:
    """The arguments of `pip install` in the README's command for other platforms."""
    block = re.search(r"^\*\*Other platforms\.\*\*.*?^```bash\n(.*?)^```", (REPO / "README.md").read_text(),
                      flags=re.S | re.M).group(1)  # fmt: skip
    for command in block.split("&&"):
        words = shlex.split(command)
        if "pip" in words[0] and words[1] == "install":
            return words[2:]
    raise AssertionError("the README's command for other platforms installs nothing")


@pytest.mark.skipif(
    os.environ.get("DUELBANDITS_NEWEST_TEST") != "1",
    reason="opt-in (installs the newest allowed versions in a second venv): set DUELBANDITS_NEWEST_TEST=1, as CI does",
)
def test_the_newest_allowed_versions_install_and_give_the_same_content(request, tmp_path):
    """The README's install for other platforms (pyproject.toml's ranges, pip picks the newest versions they
    allow) in a fresh venv: the tiny run completes and gives the lock's content (not its bytes: other
    versions write other bytes, another matplotlib draws other pixels). The tiny run goes through the kernels
    (numba, numpy), Parquet (pyarrow, pandas), the figures (matplotlib), the config schema (Snakemake's
    jsonschema) and the command line (`manifest verify`)."""
    args = readme_install_args()
    assert args == ["-e", ".[test]"], args
    venv = tmp_path / "newest"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    done = subprocess.run([venv / "bin" / "python", "-m", "pip", "install", "-q", *args], cwd=REPO,
                          capture_output=True, text=True, timeout=1800)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    same_content_in_venv(venv, request, tmp_path)
