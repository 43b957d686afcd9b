"""Reproducible anywhere: the committed reference, another environment, code edits, minimum versions, and the
newest versions pyproject.toml allows (the README.md's way for platforms the lock does not cover)."""

import json
import os
import re
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from workflow_helpers import REPO, TINY, snakemake

from duelbandits import manifest

REFERENCE = REPO / "reference" / "MANIFEST.sha256"


def verify(manifest_path, root, python=sys.executable, env=None):
    """``duelbandits manifest verify`` in a fresh process: (exit code, {path: status}, summary line)."""
    cmd = [python, "-m", "duelbandits", "manifest", "verify", str(manifest_path), "--root", str(root)]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=env)
    lines = result.stdout.splitlines()
    status = dict(reversed(re.split(r"\s{2,}", line, maxsplit=1)) for line in lines[:-1])
    return result.returncode, status, lines[-1] if lines else result.stderr


def second_venv(path: Path) -> Path:
    """Another interpreter (another venv path) that sees this environment's packages."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(path)], check=True)
    site = Path(
        subprocess.run(
            [path / "bin" / "python", "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    (site / "main_env.pth").write_text(f"import site; site.addsitedir({sysconfig.get_paths()['purelib']!r})\n")
    return path / "bin" / "python"


def test_a_dry_run_from_another_environment_plans_nothing(tiny_copy, tmp_path):
    python = second_venv(tmp_path / "venv2")
    cmd = [
        str(python),
        "-m",
        "snakemake",
        "-s",
        str(REPO / "Snakefile"),
        "--directory",
        str(tiny_copy),
        "--configfile",
        str(REPO / "config.yaml"),
        str(TINY),
        "--dry-run",
    ]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "Nothing to be done" in result.stdout + result.stderr, (result.stdout + result.stderr)[-3000:]
    # the control: the same dry run does plan jobs once the code they run changes
    assert str(python) != sys.executable


def test_the_paper_run_reproduces_the_committed_reference(tmp_path):
    """The paper experiment (T = 40,000, 100 runs, every figure) against reference/MANIFEST.sha256:
    identical bytes under the environment that made the reference, the same content under another."""
    result = snakemake(tmp_path, "--cores", "2", tiny=False, timeout=1800)
    assert result.returncode == 0, result.stderr[-3000:]
    code, status, summary = verify(REFERENCE, tmp_path)
    assert code == 0, summary
    _, entries, _ = manifest.read(REFERENCE)
    # per scenario: its file, traces, strategies, summary, and one run chunk per algorithm (runs_per_job 100);
    # bounds, summary, table; the 14 figures as PDF and PNG
    assert set(status) == set(entries) and len(entries) == 2 * 4 + 2 * 6 * 1 + 3 + 2 * 14  # = 51
    if not manifest.environment_differences(REFERENCE):
        assert set(status.values()) == {manifest.IDENTICAL}, summary
        assert (tmp_path / "results/MANIFEST.sha256").read_bytes() == REFERENCE.read_bytes()
    else:
        assert set(status.values()) <= {manifest.IDENTICAL, manifest.SAME_CONTENT, manifest.NOT_CONFIRMED}, summary


@pytest.mark.skipif(
    os.environ.get("DUELBANDITS_MINIMUM_TEST") != "1",
    reason="opt-in (installs a second venv from requirements-minimum.lock): set DUELBANDITS_MINIMUM_TEST=1, as CI does",
)
def test_the_declared_minimum_versions_give_the_same_content(tiny_run, tmp_path):
    venv = tmp_path / "minimum"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "-q"]
    for args in (["--require-hashes", "-r", str(REPO / "requirements-minimum.lock")], ["--no-deps", "-e", str(REPO)]):
        done = subprocess.run([*pip, *args], capture_output=True, text=True, timeout=1200)
        assert done.returncode == 0, done.stderr[-3000:]
    python = str(venv / "bin" / "python")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba-cache")}  # numba 0.59's own kernels
    show = "import json, numpy, pandas, pyarrow, numba; print(json.dumps([m.__version__ for m in "
    show += "(numpy, pandas, pyarrow, numba)]))"
    versions = json.loads(subprocess.run([python, "-c", show], capture_output=True, text=True).stdout)
    assert versions == ["1.26.0", "2.1.0", "14.0.0", "0.59.0"]
    cmd = [python, "-m", "snakemake", "-s", str(REPO / "Snakefile"), "--directory", str(tmp_path / "run"),
           "--configfile", str(REPO / "config.yaml"), str(TINY), "--cores", "2"]  # fmt: skip
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=1800, env=env)
    assert run.returncode == 0, run.stderr[-3000:]
    # the minimum versions' tree against the newest versions' manifest, verified by the minimum venv: other
    # versions than the manifest's, so the tables are compared by content (the newest venv would compare bytes)
    code, status, summary = verify(tiny_run / "results/MANIFEST.sha256", tmp_path / "run", python, env)
    assert code == 0, summary
    assert set(status.values()) <= {manifest.IDENTICAL, manifest.SAME_CONTENT, manifest.NOT_CONFIRMED}, summary
    assert status["results/traces/borda.parquet"] == manifest.SAME_CONTENT  # other bytes, same values


NEWEST_SUBSET = ["tests/test_simulation.py", "tests/test_regret.py", "tests/test_storage.py", "tests/test_manifest.py",
                 "tests/test_plotting.py", "tests/test_cli.py", "tests/test_config_validation.py"]  # fmt: skip
"""The quick tests the newest-versions venv runs: the kernels (numba, numpy), Parquet (pyarrow, pandas), the
figures (matplotlib), the command line and the config schema (snakemake's jsonschema): about a minute."""


def readme_install_args() -> list[str]:
    """The arguments of `pip install` in the README's command for other platforms."""
    import shlex

    block = re.search(r"^\*\*Other platforms\.\*\*.*?^```bash\n(.*?)^```", (REPO / "README.md").read_text(),
                      flags=re.S | re.M).group(1)  # fmt: skip
    for command in block.split("&&"):
        words = shlex.split(command)
        if "pip" in words[0] and words[1] == "install":
            return words[2:]
    raise AssertionError("the README's command for other platforms installs nothing")


@pytest.mark.slow
@pytest.mark.skipif(
    os.environ.get("DUELBANDITS_NEWEST_TEST") != "1",
    reason="opt-in (installs the newest allowed versions in a second venv): set DUELBANDITS_NEWEST_TEST=1, as CI does",
)
def test_the_newest_allowed_versions_install_and_run(tiny_run, tmp_path):
    """The README's install for other platforms (pyproject.toml's ranges, pip picks the newest versions they
    allow) in a fresh venv: the tiny run completes and gives the lock's content (not its bytes: other
    versions write other bytes, another matplotlib draws other pixels), and a subset of the quick tier passes."""
    args = readme_install_args()
    assert args == ["-e", ".[test]"], args
    venv = tmp_path / "newest"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    done = subprocess.run([python, "-m", "pip", "install", "-q", *args], cwd=REPO, capture_output=True, text=True,
                          timeout=1800)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba-cache")}
    cmd = [python, "-m", "snakemake", "-s", str(REPO / "Snakefile"), "--directory", str(tmp_path / "run"),
           "--configfile", str(REPO / "config.yaml"), str(TINY), "--cores", "2"]  # fmt: skip
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=1800, env=env)
    assert run.returncode == 0, run.stderr[-3000:]
    code, status, summary = verify(tiny_run / "results/MANIFEST.sha256", tmp_path / "run", python, env)
    assert code == 0, summary
    assert set(status.values()) <= {manifest.IDENTICAL, manifest.SAME_CONTENT, manifest.NOT_CONFIRMED}, summary
    tests = subprocess.run([python, "-m", "pytest", "-m", "not slow", "-q", "-p", "no:cacheprovider", *NEWEST_SUBSET],
                           cwd=REPO, capture_output=True, text=True, timeout=1800, env=env)  # fmt: skip
    assert tests.returncode == 0, tests.stdout[-3000:]
