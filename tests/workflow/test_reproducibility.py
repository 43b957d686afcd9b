"""Reproducible anywhere: the committed reference and another environment (other library versions:
test_minimum_versions.py, test_newest_versions.py)."""

import subprocess
import sys
import sysconfig
from pathlib import Path

from workflow_helpers import REPO, TINY, snakemake, snakemake_command, verify

from duelbandits import manifest

REFERENCE = REPO / "reference" / "MANIFEST.sha256"


def second_venv(path: Path) -> Path:
    """Another interpreter (another venv path) that sees this environment's packages."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(path)], check=True)
    show = [path / "bin" / "python", "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]
    site = Path(subprocess.run(show, capture_output=True, text=True, check=True).stdout.strip())
    (site / "main_env.pth").write_text(f"import site; site.addsitedir({sysconfig.get_paths()['purelib']!r})\n")
    return path / "bin" / "python"


def test_a_dry_run_from_another_environment_plans_nothing(tiny_copy, tmp_path):
    python = second_venv(tmp_path / "venv2")
    cmd = [str(python), *snakemake_command(tiny_copy, [REPO / "config.yaml", TINY], "--dry-run")[1:]]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "Nothing to be done" in result.stdout + result.stderr, (result.stdout + result.stderr)[-3000:]
    assert str(python) != sys.executable  # (an edit of the code plans jobs: test_rerun_triggers.py)


def test_the_paper_run_reproduces_the_committed_reference(tmp_path):
    """The paper experiment (T = 40,000, 100 runs, every figure) against reference/MANIFEST.sha256:
    identical bytes under the environment that made the reference, the same content under another."""
    snakemake(tmp_path, "--cores", "2", configs=(), timeout=1800, check=True)
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
