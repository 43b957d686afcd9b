"""The declared minimum versions (requirements-minimum.lock) give the same content: opt-in, it installs a venv."""

import json
import os
import subprocess
import sys

import pytest
from workflow_helpers import REPO, same_content_in_venv

from duelbandits import manifest


@pytest.mark.skipif(
    os.environ.get("DUELBANDITS_MINIMUM_TEST") != "1",
    reason="opt-in (installs a second venv from requirements-minimum.lock): set DUELBANDITS_MINIMUM_TEST=1, as CI does",
)
def test_the_declared_minimum_versions_give_the_same_content(request, tmp_path):
    venv = tmp_path / "minimum"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "-q"]
    for args in (["--require-hashes", "-r", str(REPO / "requirements-minimum.lock")], ["--no-deps", "-e", str(REPO)]):
        done = subprocess.run([*pip, *args], capture_output=True, text=True, timeout=1200)
        assert done.returncode == 0, done.stderr[-3000:]
    show = "import json, numpy, pandas, pyarrow, numba; print(json.dumps([m.__version__ for m in "
    show += "(numpy, pandas, pyarrow, numba)]))"
    shown = subprocess.run([venv / "bin" / "python", "-c", show], capture_output=True, text=True).stdout
    assert json.loads(shown) == ["1.26.0", "2.1.0", "14.0.0", "0.59.0"]
    status = same_content_in_venv(venv, request, tmp_path)
    assert status["results/traces/borda.parquet"] == manifest.SAME_CONTENT  # other bytes, same values
