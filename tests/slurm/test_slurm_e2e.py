"""The Slurm end-to-end test (tests/slurm/test_slurm.sh) under pytest.

Opt-in: it runs only with DUELBANDITS_SLURM_TEST=1 (CI sets it), because it
needs root, installs Debian's Slurm and MUNGE packages when they are missing
and starts slurmctld, slurmd and munged on localhost for a few minutes.  The
script stops the daemons it started and removes its temporary folder whether
it passes or fails; this wrapper only bounds its total time.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from workflow_helpers import TINY

SCRIPT = Path(__file__).with_name("test_slurm.sh")
# cluster start + apt-get (first time) + a local and a Slurm run of the tiny
# config take a few minutes; the script bounds each run on its own as well.
TOTAL_TIMEOUT = 3600


@pytest.mark.skipif(
    os.environ.get("DUELBANDITS_SLURM_TEST") != "1",
    reason="Slurm end-to-end test is opt-in: set DUELBANDITS_SLURM_TEST=1 (needs root, Debian 12)",
)
def test_tiny_config_through_slurm_matches_local_run(tiny_run):
    """Against the session's tiny run (the local run of the same config, made by this interpreter)."""
    env = dict(os.environ, PYTHON=sys.executable, SLURM_TEST_LOCAL=str(tiny_run), SLURM_TEST_CONFIG=str(TINY))
    result = subprocess.run(
        ["bash", str(SCRIPT)], env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=TOTAL_TIMEOUT
    )
    output = result.stdout + result.stderr
    print(output)
    assert result.returncode == 0, output[-8000:]
    assert "slurm: 1 passed, 0 failed" in result.stdout
