"""The suite's own machinery: its xdist groups (tests/conftest.py: a shared build is made by one worker,
once) and its forked CLI calls (tests/cli_process.py)."""

import os
from types import SimpleNamespace

import pytest
from cli_process import run_cli
from conftest import shared_fixture_group


def group(node) -> str | None:
    marker = node.get_closest_marker("xdist_group")
    return marker.args[0] if marker else None


@pytest.fixture(scope="module")
def built_once_per_module():
    return object()


def test_a_test_of_a_module_fixture_is_grouped_with_its_module(request, built_once_per_module):
    assert group(request.node) == "tests/test_tiers.py"


def test_a_test_that_uses_only_pytest_s_own_fixtures_is_spread(request, tmp_path, tmp_path_factory):
    assert group(request.node) is None  # tmp_path_factory is session-scoped, but pytest's own (no baseid)


def fake_item(*fixtures, path="tests/workflow/test_x.py"):
    """An item using ``fixtures`` given as (name, scope, baseid)."""
    defs = {name: [SimpleNamespace(argname=name, scope=scope, baseid=baseid)] for name, scope, baseid in fixtures}
    return SimpleNamespace(_fixtureinfo=SimpleNamespace(name2fixturedefs=defs), nodeid=f"{path}::test_y")


def test_a_session_fixture_of_the_suite_groups_by_its_name_before_a_module_one():
    tiny = ("tiny_run", "session", "tests/workflow")
    module = ("sweep_run", "module", "tests/workflow/test_x.py")
    assert shared_fixture_group(fake_item(tiny, module)) == "tiny_run"
    assert shared_fixture_group(fake_item(module)) == "tests/workflow/test_x.py"
    assert shared_fixture_group(fake_item(("tmp_path_factory", "session", ""))) is None
    assert shared_fixture_group(fake_item(("tmp_path", "function", ""), ("matrix", "function", "tests"))) is None
    assert shared_fixture_group(fake_item(("a_package_build", "package", "tests"))) == "a_package_build"


@pytest.mark.parametrize("args", [["nosuch"], ["simulate", "--help"], ["list"], ["provenance", "missing.parquet"]])
def test_a_forked_cli_call_gives_what_a_fresh_interpreter_gives(tmp_path, args):
    """tests/cli_process.py forks `python -m duelbandits` from a server that imported the CLI: the exit
    code, stdout and stderr are those of a fresh interpreter (env given: it runs one)."""
    forked = run_cli(*args, cwd=tmp_path)
    fresh = run_cli(*args, cwd=tmp_path, env=dict(os.environ))
    assert (forked.returncode, forked.stdout, forked.stderr) == (fresh.returncode, fresh.stdout, fresh.stderr)
    assert forked.returncode == (0 if args in (["list"], ["simulate", "--help"]) else 2)
