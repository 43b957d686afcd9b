"""The locks, pyproject.toml and environment.yml agree, and the README installs from the lock."""

import re
import tomllib
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.version import Version

REPO = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text())
EXTRAS = ("test", "slurm")


def lock(name):
    """``{package: (version, hashes)}`` of a pip-compile style lock file."""
    text = (REPO / name).read_text().replace("\\\n", " ")
    pins = {}
    for line in text.splitlines():
        match = re.match(r"^([A-Za-z0-9_.\-]+)==(\S+)(.*)$", line)
        if match:
            hashes = re.findall(r"--hash=sha256:([0-9a-f]{64})", match.group(3))
            pins[match.group(1).lower().replace("_", "-")] = (Version(match.group(2)), hashes)
    return pins


def direct(extras=EXTRAS):
    reqs = [Requirement(r) for r in PYPROJECT["project"]["dependencies"]]
    for extra in extras:
        reqs += [Requirement(r) for r in PYPROJECT["project"]["optional-dependencies"][extra]]
    return {r.name.lower(): r for r in reqs}


def test_the_lock_pins_every_dependency_with_hashes_inside_the_declared_ranges():
    pins = lock("requirements.lock")
    assert len(pins) > len(direct())  # transitive dependencies are pinned too
    for name, (_, hashes) in pins.items():
        assert hashes, f"{name} has no hash"
    for name, req in direct().items():
        assert name in pins, f"{name} is not in requirements.lock"
        assert req.specifier.contains(pins[name][0]), f"{name}=={pins[name][0]} is outside {req}"


def test_the_minimum_lock_pins_each_declared_minimum():
    pins = lock("requirements-minimum.lock")
    for name, req in direct(extras=("test",)).items():
        lower = [Version(s.version) for s in req.specifier if s.operator == ">="]
        assert lower, f"{name} declares no minimum"
        assert pins[name][0] == lower[0], f"{name}: minimum lock has {pins[name][0]}, pyproject says {req}"


def test_environment_yml_pins_the_versions_of_the_lock():
    env = yaml.safe_load((REPO / "environment.yml").read_text())
    pins = lock("requirements.lock")
    conda = {}
    for dep in env["dependencies"]:
        if isinstance(dep, str) and "=" in dep:
            name, _, version = dep.partition("=")
            conda[name] = version
    assert conda.pop("python") == "3.11"
    # conda has no extras: environment.yml lists pygments, which pip's snakemake[reports] brings
    assert "reports" in direct()["snakemake"].extras
    assert set(conda) == set(direct()) | {"pygments"}
    for name, version in conda.items():
        assert Version(version) == pins[name][0], f"environment.yml {name}={version}, lock {pins[name][0]}"
    pip = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))
    assert pip == ["--no-deps -e ."]


@pytest.mark.parametrize("name", ["requirements.lock", "requirements-minimum.lock"])
def test_each_lock_says_how_to_regenerate_it_and_the_readme_repeats_it(name):
    header = (REPO / name).read_text().splitlines()[1].strip("# ").strip()
    assert header.startswith("uv pip compile pyproject.toml") and header.endswith(f"-o {name}")
    assert "--generate-hashes" in header and "--python-version 3.11" in header
    assert header in (REPO / "README.md").read_text()


def test_the_readme_commands_and_ci_install_from_the_lock():
    readme = (REPO / "README.md").read_text()
    install = ".venv/bin/pip install --require-hashes -r requirements.lock && .venv/bin/pip install --no-deps -e ."
    commands = [line for line in readme.splitlines() if line.startswith("python3 -m venv .venv") and "lock" in line]
    assert len(commands) == 2 and all(install in c for c in commands)
    assert commands[0].endswith("duelbandits manifest verify reference/MANIFEST.sha256")
    assert commands[1].endswith(".venv/bin/pytest -n auto")
    assert commands[1] in (REPO / ".ci/run").read_text()
