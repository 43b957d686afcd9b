"""Running the repo's workflow from tests."""

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TINY = Path(__file__).with_name("tiny.yaml")


def snakemake(workdir, *args, tiny=True, timeout=1200, env=None):
    """Run the repo's workflow in ``workdir`` with the paper config (plus the tiny one) and ``args``."""
    configs = [str(REPO / "config.yaml"), *([str(TINY)] if tiny else [])]
    cmd = [
        sys.executable,
        "-m",
        "snakemake",
        "-s",
        str(REPO / "Snakefile"),
        "--directory",
        str(workdir),
        "--configfile",
        *configs,
        *args,
    ]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
