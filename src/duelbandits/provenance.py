"""Where a result came from: the parameters, matrix and versions every Parquet file carries in its
``duelbandits`` metadata entry (fields: docs/reproducibility.md; ``duelbandits provenance FILE``).
"""

from __future__ import annotations

import hashlib
import json
import platform
from functools import cache
from importlib import metadata

import numpy as np

from .errors import InputError

PACKAGES = ("duelbandits", "numpy", "numba", "llvmlite", "pandas", "pyarrow", "matplotlib", "snakemake")
"""The package and the dependencies whose versions a file and the manifest record."""

METADATA_KEY = b"duelbandits"
"""Parquet key-value metadata key of the provenance record."""


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
    """Floats rounded to IEEE float32 (nearest even), with one zero and one NaN: numpy's ``exp`` differs
    in the last bit between releases, and the digest of a matrix or a result must not. A value beyond
    float32's range (a predicted crossing of 1e56) becomes an infinity, silently."""
    with np.errstate(over="ignore"):
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
    return {**params, "config_sha256": digest(params), "versions": environment()}


def experiment(prov: dict) -> dict:
    """The part of a provenance record that describes the experiment: all but the environment's ``versions``."""
    return {k: v for k, v in prov.items() if k != "versions"}


class ProvenanceError(InputError):
    """A file's provenance is missing or contradicts how it is used."""


def check(path, prov: dict, **expected) -> None:
    """ProvenanceError naming ``path`` where ``prov`` disagrees with ``expected`` (a list expected in a
    recorded list: every item must be in it)."""
    for key, want in expected.items():
        if key not in prov:
            raise ProvenanceError(f"{path}: its provenance has no {key!r} (expected {want!r})")
        got = prov[key]
        if isinstance(got, list) and not isinstance(want, list):
            if want not in got:
                raise ProvenanceError(f"{path}: holds {key} {got}, not {want!r}")
        elif got != want:
            raise ProvenanceError(f"{path}: was made for {key} {got!r}, but is used as {key} {want!r}")


def check_scenario(path, prov: dict, record: dict) -> None:
    """The provenance ``prov`` of ``path`` (a summary) holds the scenario ``record`` with its matrix."""
    check(path, prov, scenarios=record["name"])
    recorded = prov.get("matrix_sha256")
    if not isinstance(recorded, dict):
        raise ProvenanceError(f"{path}: its provenance has no matrix digest per scenario (matrix_sha256)")
    check(path, recorded, **{record["name"]: matrix_sha256(record["matrix"])})
