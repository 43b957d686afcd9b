import fcntl
import os
import shutil

import pytest
from workflow_helpers import snakemake


@pytest.fixture(scope="session")
def tiny_run(tmp_path_factory):
    """The tiny config run once end to end; tests only read it (a test that writes or runs
    Snakemake in it takes ``tiny_copy``), so one test's failure cannot break the next.

    Once per session, also on several xdist workers: the run lives in the folder the workers'
    temporary folders share, and the first worker to need it builds it while the others wait on a
    lock; a failed build is recorded there, so that the others fail with its message instead of
    building it again."""
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # pytest-N/, above each worker's pytest-N/popen-gwK
    workdir, done, failed = shared / "tiny-run", shared / "tiny-run.done", shared / "tiny-run.failed"
    with open(shared / "tiny-run.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists() and not failed.exists():
            shutil.rmtree(workdir, ignore_errors=True)
            workdir.mkdir()
            try:
                result = snakemake(workdir, "--cores", "2")
            except BaseException as err:  # a timeout: the others must not take the half-built run
                failed.write_text(f"the tiny run's build stopped: {err!r}")
                raise
            (done if result.returncode == 0 else failed).write_text(result.stderr[-5000:])
    assert not failed.exists(), failed.read_text()
    return workdir


@pytest.fixture
def tiny_copy(tiny_run, tmp_path):
    """A private copy of the tiny run, Snakemake's records (.snakemake) and the kernel cache (.duelbandits)
    included; copy2 keeps the modification times, so Snakemake finds the copy up to date."""
    workdir = tmp_path / "tiny"
    shutil.copytree(tiny_run, workdir, symlinks=True)
    return workdir
