import pytest
from workflow_helpers import snakemake


@pytest.fixture(scope="session")
def tiny_run(tmp_path_factory):
    """The tiny config run once end to end; the tests read its outputs."""
    workdir = tmp_path_factory.mktemp("tiny")
    result = snakemake(workdir, "--cores", "2")
    assert result.returncode == 0, result.stderr[-5000:]
    return workdir
