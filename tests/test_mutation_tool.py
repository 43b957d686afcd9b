"""bench/mutation.py, the opt-in mutation-score command (docs/testing.md): its parts that need no
mutmut, and the command the docs show parsed by it."""

import shlex
from pathlib import Path

import mutation as tool

REPO = Path(__file__).resolve().parent.parent


def test_each_module_of_the_table_and_its_tests_exist():
    for module, tests in tool.TESTS.items():
        assert (REPO / tool.source(module)).is_file(), module
        for test in tests:  # a file, one test of it (file::name), or --deselect=file::name
            path, _, name = test.removeprefix("--deselect=").partition("::")
            assert (REPO / path).is_file(), test
            assert not name or f"def {name}(" in (REPO / path).read_text(encoding="utf-8"), test


def test_the_config_mutates_one_module_and_runs_its_tests_only():
    """What the script appends to pyproject.toml lands in its [tool.mutmut] table, beside the table's own keys."""
    import tomllib

    text = (REPO / "pyproject.toml").read_text(encoding="utf-8") + tool.mutmut_config("tail", ["tests/test_tail.py"])
    config = tomllib.loads(text)["tool"]["mutmut"]
    assert config["only_mutate"] == ["src/duelbandits/tail.py"]
    assert config["pytest_add_cli_args_test_selection"] == ["tests/test_tail.py"]
    assert config["source_paths"] == ["src"]


def test_each_pragma_no_mutate_says_why():
    """A line mutmut must leave alone says why: after the pragma (``# pragma: no mutate -- why``) or in the
    comment lines just above it or above the run of pragma lines it ends (``# mutmut equivalent: why``)."""
    for path in sorted((REPO / "src" / "duelbandits").rglob("*.py")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for n, line in enumerate(lines):
            if "# pragma: no mutate" in line and "# pragma: no mutate -- " not in line:
                above = next(x for x in reversed(lines[:n]) if "# pragma: no mutate" not in x)
                assert above.strip().startswith("# "), f"{path.name}:{n + 1}: its pragma says not why"


def test_changed_modules_are_the_packages_edited_and_new_modules(tmp_path):
    """In a small repository: an edited module and a new untracked one are listed; an untouched module,
    a private one, a subpackage's module and a file outside the package are not."""
    import subprocess

    def git(*args):
        subprocess.run(["git", "-C", str(tmp_path), *args], check=True, capture_output=True)

    package = tmp_path / "src" / "duelbandits"
    (package / "plotting").mkdir(parents=True)
    for name in ("edited.py", "same.py", "_private.py", "plotting/style.py"):
        (package / name).write_text("x = 1\n")
    (tmp_path / "other.py").write_text("x = 1\n")
    git("init", "-q")
    git("add", ".")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "base")
    for name in ("edited.py", "_private.py", "plotting/style.py"):
        (package / name).write_text("x = 2\n")
    (package / "new.py").write_text("x = 3\n")
    (tmp_path / "other.py").write_text("x = 2\n")
    assert sorted(tool.changed_modules("HEAD", repo=tmp_path)) == ["edited", "new"]


def test_an_unknown_module_is_refused_in_one_line(capsys):
    assert tool.main(["no_such_module"]) == 2
    assert capsys.readouterr().err.strip() == "mutation: no module src/duelbandits/no_such_module.py"


def test_the_command_of_docs_testing_md_parses():
    text = (REPO / "docs" / "testing.md").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if "bench/mutation.py" in line and line.startswith("nice ")]
    assert lines, "docs/testing.md shows no bench/mutation.py command"
    for line in lines:
        words = shlex.split(line)
        args = tool.parser().parse_args(words[words.index("bench/mutation.py") + 1 :])
        assert args.modules or args.changed
