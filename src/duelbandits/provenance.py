"""Where a result came from: the parameters, matrix and versions every file carries.

Every Parquet file the pipeline writes holds one key-value metadata entry,
``duelbandits``: a JSON object with the parameters that determine the file
(scenario, algorithm, runs, horizon, seed, ...), the sha256 of the preference
matrix, ``config_sha256`` (a digest of those parameters: two files with equal
digests came from the same experiment definition) and ``versions`` (Python,
the package and its dependencies). Figures carry the content digest of the data they
were drawn from (see :mod:`duelbandits.manifest`). ``duelbandits provenance
FILE`` prints either.

:func:`code_digest` fingerprints the package's own sources, so that the
workflow reruns the jobs whose code changed (and, erring on the side of
rerunning, every job whose command imports the changed module at all).
"""

from __future__ import annotations

import ast
import hashlib
import json
import platform
from functools import cache
from importlib import metadata
from pathlib import Path

import numpy as np

PACKAGES = ("duelbandits", "numpy", "numba", "llvmlite", "pandas", "pyarrow", "matplotlib", "seaborn", "snakemake")
"""The package and the dependencies whose versions a file and the manifest record."""

METADATA_KEY = b"duelbandits"
"""Parquet key-value metadata key of the provenance record."""

ENVIRONMENT_KEYS = ("versions",)
"""Provenance fields that describe the environment, not the experiment."""

PACKAGE_ROOT = Path(__file__).resolve().parent


def _version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "not installed"


@cache
def environment() -> dict:
    """Python, package and dependency versions of this interpreter."""
    return {"python": platform.python_version(), **{name: _version(name) for name in PACKAGES}}


def file_sha256(path) -> str:
    """sha256 of a file's bytes."""
    sha = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            sha.update(block)
    return sha.hexdigest()


def canonical_json(value) -> str:
    """``value`` as JSON with sorted keys and no spaces: equal values, equal text."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def digest(value) -> str:
    """sha256 of :func:`canonical_json` of ``value``."""
    return hashlib.sha256(canonical_json(value).encode()).hexdigest()


def canonical_floats(values) -> np.ndarray:
    """Floats rounded to IEEE float32 (round to nearest even), with one zero and one NaN.

    The precision at which content is compared: numpy's ``exp`` differs in the
    last bit between releases, and the digest of a matrix or a result must not.
    """
    rounded = np.asarray(values, dtype=np.float64).astype("<f4")
    rounded[rounded == 0] = 0.0
    rounded[np.isnan(rounded)] = np.float32("nan")
    return rounded


def matrix_sha256(matrix) -> str:
    """sha256 of a preference matrix: its shape and its values at float32 precision
    (:func:`canonical_floats`), little-endian, row-major."""
    X = canonical_floats(matrix)
    return hashlib.sha256(f"{X.shape[0]}x{X.shape[1]}:".encode() + np.ascontiguousarray(X).tobytes()).hexdigest()


def record(**params) -> dict:
    """The provenance of a file made from ``params`` (JSON values), in this environment."""
    return {
        **params,
        "config_sha256": digest(params),
        "versions": environment(),
    }


def experiment(prov: dict) -> dict:
    """The part of a provenance record that describes the experiment (no versions)."""
    return {k: v for k, v in prov.items() if k not in ENVIRONMENT_KEYS}


class ProvenanceError(ValueError):
    """A file's provenance is missing or contradicts how it is used."""


def check(path, prov: dict, **expected) -> None:
    """Raise ProvenanceError naming ``path`` where ``prov`` disagrees with ``expected``.

    A value in ``expected`` may be a list of allowed values' container only if
    the recorded value is a list too: then every expected item must be in it.
    """
    for key, want in expected.items():
        if key not in prov:
            raise ProvenanceError(f"{path}: its provenance has no {key!r} (expected {want!r})")
        got = prov[key]
        if isinstance(got, list) and not isinstance(want, list):
            if want not in got:
                raise ProvenanceError(f"{path}: holds {key} {got}, not {want!r}")
        elif got != want:
            raise ProvenanceError(f"{path}: was made for {key} {got!r}, but is used as {key} {want!r}")


# --- The package's own code, for rerun triggers ---------------------------------------------


def _unit(module: str) -> str:
    """The unit a dotted module name belongs to: a top-level module, or a whole subpackage."""
    return module.split(".")[0]


def _unit_files(unit: str) -> list[Path]:
    folder = PACKAGE_ROOT / unit
    if folder.is_dir():
        return sorted(folder.rglob("*.py"))
    path = PACKAGE_ROOT / f"{unit}.py"
    if not path.is_file():
        raise ValueError(f"duelbandits has no module {unit!r}")
    return [path]


def _imported_units(path: Path) -> set[str]:
    """Package units imported at module level by the file ``path`` (imports inside functions are
    the lazy ones a command makes for itself; its entry modules name them)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    package = path.relative_to(PACKAGE_ROOT).parent.parts
    units = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
            units |= {_unit(n.split(".", 1)[1]) for n in names if n.startswith("duelbandits.")}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = list(package[: len(package) - (node.level - 1)])
            elif (node.module or "").startswith("duelbandits"):
                base = []
                node = ast.ImportFrom(module=node.module.partition(".")[2] or None, names=node.names, level=1)
            else:
                continue
            if node.module:
                units.add(_unit(".".join([*base, node.module])))
            elif base:
                units.add(base[0])
            else:
                units |= {_unit(alias.name) for alias in node.names}
    return units


def code_units(*modules: str) -> list[str]:
    """``modules``, the package's ``__init__`` and ``__main__`` (``python -m duelbandits``) and
    every package unit they import at module level, transitively, sorted."""
    seen, todo = set(), ["__init__", "__main__", *(_unit(m) for m in modules)]
    while todo:
        unit = todo.pop()
        if unit in seen:
            continue
        seen.add(unit)
        for path in _unit_files(unit):
            todo.extend(_imported_units(path) - seen)
    return sorted(seen)


@cache
def code_digest(*modules: str) -> str:
    """sha256 of the sources behind ``modules`` (names relative to the package, e.g. ``"cli"``).

    A change to any of those files changes the digest; a change elsewhere in
    the package does not. The workflow passes it as a rule param, so an edit
    reruns the jobs whose code it touches; the CLI's own module-level imports
    count for every command.
    """
    sha = hashlib.sha256()
    for unit in code_units(*modules):
        for path in _unit_files(unit):
            sha.update(path.relative_to(PACKAGE_ROOT).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return sha.hexdigest()
