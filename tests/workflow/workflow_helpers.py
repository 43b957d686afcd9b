"""Running the repo's workflow from tests."""

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TINY = Path(__file__).with_name("tiny.yaml")


def snakemake(workdir, *args, timeout=1200):
    """Run the repo's workflow in ``workdir`` with the paper config plus ``args``."""
    cmd = [sys.executable, "-m", "snakemake", "-s", str(REPO / "Snakefile"), "--directory", str(workdir),
           "--configfile", str(REPO / "config.yaml"), *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
