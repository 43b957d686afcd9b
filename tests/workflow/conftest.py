import shutil

import pytest
from workflow_helpers import snakemake


@pytest.fixture(scope="session")
def tiny_run(tmp_path_factory):
    """The tiny config run once end to end; tests only read it (a test that writes or runs
    Snakemake in it takes ``tiny_copy``), so one test's failure cannot break the next."""
    workdir = tmp_path_factory.mktemp("tiny")
    result = snakemake(workdir, "--cores", "2")
    assert result.returncode == 0, result.stderr[-5000:]
    return workdir


@pytest.fixture
def tiny_copy(tiny_run, tmp_path):
    """A private copy of the tiny run, Snakemake's and the ledger's records (.snakemake, .duelbandits)
    included; copy2 keeps the modification times, so Snakemake finds the copy up to date."""
    workdir = tmp_path / "tiny"
    shutil.copytree(tiny_run, workdir, symlinks=True)
    return workdir
