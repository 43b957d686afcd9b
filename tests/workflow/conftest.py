import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
TINY = Path(__file__).with_name("tiny.yaml")


def snakemake(workdir, *args, timeout=1200):
    """Run the repo's workflow in ``workdir`` with the paper config plus ``args``."""
    cmd = [sys.executable, "-m", "snakemake", "-s", str(REPO / "Snakefile"), "--directory", str(workdir),
           "--configfile", str(REPO / "config.yaml"), *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="session")
def tiny_run(tmp_path_factory):
    """The tiny config run once end to end; the tests read its outputs."""
    workdir = tmp_path_factory.mktemp("tiny")
    result = snakemake(workdir, "--configfile", str(REPO / "config.yaml"), str(TINY), "--cores", "2")
    assert result.returncode == 0, result.stderr[-5000:]
    return workdir
