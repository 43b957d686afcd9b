"""Test tiers: ``pytest -m "not slow" -n auto`` is the quick edit-test loop (about a minute); the
end-to-end runs (``tests/workflow``, ``tests/slurm``) and the 10^6-step runs are ``slow``.

Both tiers run on every core (``-n auto``), a module at a time (``--dist loadscope``, in
pyproject.toml's addopts), the longest modules first: the tests of a module share its module-scoped
builds (rendered figures, a target's tiny build), which one worker then makes once. The tiny
end-to-end run that the workflow modules and the Slurm test read is built once per session, by the
first worker to need it (``tiny_run``, below)."""

import fcntl
import os
import shutil
import sys

import pytest
from workflow_helpers import snakemake

SLOW_FOLDERS = {"workflow", "slurm"}
SLOW_FILES = {"test_long_horizon.py", "test_rules_plumbing.py"}  # 10^6-step runs; a Snakemake dry run of every target
LONGEST_FIRST = (
    "tests/slurm/test_slurm_e2e.py",  # 205-260 s, most of it waiting for apt-get and Slurm
    "tests/workflow/test_newest_versions.py",  # these three modules: 400 s as one, before the split
    "tests/workflow/test_minimum_versions.py",
    "tests/workflow/test_reproducibility.py",  # the paper run
    "tests/workflow/test_paper_figures.py",  # 105 s
    "tests/workflow/test_bad_input_workflow.py",  # about 100 s
    "tests/test_theorem_note.py",  # 100 s
    "tests/workflow/test_bench_pipeline.py",  # 90 s
    "tests/workflow/test_plugin_project.py",  # 65 s
    "tests/workflow/test_rerun_triggers.py",  # 50 s, after the shared tiny run
    "tests/workflow/test_sweeps_workflow.py",  # 40 s
    "tests/workflow/test_asymptotics_workflow.py",  # about 30 s (15 point jobs)
    "tests/workflow/test_config_properties.py",  # 30 s
    "tests/workflow/test_workflow.py",  # 25 s
    "tests/workflow/test_reliability.py",  # 25 s
    "tests/test_docs.py",  # 15 s with its slow dry runs, 4 s in the quick tier
    "tests/workflow/test_field_workflow.py",  # about 10 s (9 point jobs)
    "tests/test_rules_plumbing.py",  # slow: one Snakemake dry run of every target
    # the quick tier's longest (wall seconds of each on 2 workers, load ~3, 2026-11-28): 7.8 s down to 2 s
    "tests/test_plotting.py",
    "tests/test_plugins.py",
    "tests/test_config_validation.py",
    "tests/test_dts.py",
    "tests/test_rucb.py",
    "tests/test_triggers.py",
    "tests/test_posterior.py",
    "tests/test_plan.py",
    "tests/test_rcs.py",
    "tests/test_claims.py",
    "tests/test_field_references.py",
    "tests/test_algorithm_contract.py",
    "tests/test_study_refusals.py",
    "tests/test_figure_batches.py",
)
"""The modules that take longest, longest first (their tests' summed durations in `.ci/run` at
54dae67 and in the quick tier, `--durations`): the workers start on them, so that no long module is
left to run alone at the end. Only the order depends on it; a module missing here runs after them,
the slow ones first."""

# pytest caches each test module's rewritten assertions as bytecode unless Python is told to write
# none (PYTHONDONTWRITEBYTECODE): then every worker rewrites every module again, 3 s of a 6 s
# collection. The caches go to tests/**/__pycache__ (ignored by git), so the suite writes them anyway.
sys.dont_write_bytecode = False


@pytest.hookimpl(tryfirst=True)  # before the mark plugin's, which deselects by marker
def pytest_collection_modifyitems(config, items):
    for item in items:
        if SLOW_FOLDERS & set(item.path.parent.parts[-1:]) or item.path.name in SLOW_FILES:
            item.add_marker(pytest.mark.slow)

    # LONGEST_FIRST, then the other slow modules, then the quick ones (each module in its own order):
    # the workers fill the end with quick modules instead of one of them running a long one alone.
    def rank(item):
        module = item.nodeid.split("::")[0]
        first = LONGEST_FIRST.index(module) if module in LONGEST_FIRST else len(LONGEST_FIRST)
        return first, item.get_closest_marker("slow") is None

    items.sort(key=rank)


def pytest_configure(config):
    # --dist loadscope hands out the modules in the order above, not largest (most tests) first: an
    # option of pytest-xdist 3.7 (--no-loadscope-reorder), set here so that older versions, which
    # always reorder, still accept the command line
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False


@pytest.hookimpl(trylast=True)  # after every other plugin's unconfigure
def pytest_unconfigure(config):
    # An xdist worker has sent its results when it unconfigures; tearing down its interpreter (the
    # modules of numba, matplotlib, pandas) then takes about a second more, which the run waits for
    # at its end: the worker exits at once instead.
    if hasattr(config, "workerinput"):
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)


# --- The tiny end-to-end run (tests/workflow, tests/slurm) ---------------------------------------


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


# --- Shared fixtures of the algorithm tests --------------------------------------------------


@pytest.fixture(scope="module")
def X():
    """The paper's ``condorcet`` matrix (A = 10, seed 0): the default matrix of the per-algorithm tests."""
    from duelbandits import make_scenario

    return make_scenario("condorcet", seed=0).matrix


@pytest.fixture
def cyclic4():
    """0 > 1 > 2 > 0 and everyone > 3, each with probability 0.9: no Condorcet winner (A = 4)."""
    import numpy as np

    X = np.full((4, 4), 0.5)
    for w, l in ((0, 1), (1, 2), (2, 0), (0, 3), (1, 3), (2, 3)):
        X[w, l], X[l, w] = 0.9, 0.1
    return X


@pytest.fixture
def ucb_hand_state():
    """A = 4 win counts: 0 beat 2 and 1 beat 3 ten to nothing; 0 and 1 split six duels; other pairs unplayed.

    The losers' bounds are ``U[2, 0] = U[3, 1] = sqrt(0.51 ln t / 10)``, below 1/2 while
    ln t < 10 / (4 * 0.51) = 4.902, i.e. for t <= 134 (ln 134 = 4.898, ln 135 = 4.905).
    """
    import numpy as np

    W = np.zeros((4, 4))
    W[0, 2] = W[1, 3] = 10
    W[0, 1] = W[1, 0] = 3
    return W
