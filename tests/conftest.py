"""Test tiers: ``pytest -m "not slow"`` is the quick edit-test loop (about a minute); the
end-to-end runs (``tests/workflow``, ``tests/slurm``) and the 10^6-step runs are ``slow``."""

import pytest

SLOW_FOLDERS = {"workflow", "slurm"}
SLOW_FILES = {"test_long_horizon.py"}


def pytest_collection_modifyitems(config, items):
    for item in items:
        if SLOW_FOLDERS & set(item.path.parent.parts[-1:]) or item.path.name in SLOW_FILES:
            item.add_marker(pytest.mark.slow)
